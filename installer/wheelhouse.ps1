<#
.SYNOPSIS
    Download every wheel tclose needs for one target platform and Python version into one
    folder (the Windows twin of wheelhouse.sh).

.DESCRIPTION
    Run on a machine with internet and Python 3.11 or later with pip 24.2 or later (an older
    pip checks the wheelhouse against the Python running it, not the target's, and fails for
    another -PythonVersion; with an older pip the script makes a private venv,
    installer\build\wheelhouse-pip, with a current pip).  -Dest may contain spaces and any
    letters.  Copy the folder to the offline
    machine and install there with the command printed at the end (also in INSTALL.txt):

        py -3.11 -m venv $env:USERPROFILE\tclose-env
        & $env:USERPROFILE\tclose-env\Scripts\python.exe -m pip install --no-index `
            --find-links WHEELHOUSE "tclose[stats]"

.PARAMETER Platform
    win_amd64 (default), macos_arm64, macos_x86_64, linux_x86_64, or any pip platform tag.
    macOS targets need macOS 13 or later, Linux targets glibc 2.34 or later (Qt 6.11).

.PARAMETER PythonVersion
    The Python version on the offline machine, e.g. 3.11 (default) or 3.12.

.PARAMETER Dest
    The wheelhouse folder (default installer\wheelhouse-PLATFORM-pyXY).

.PARAMETER Extras
    Extras of tclose to include (default "stats": SPSS/Stata/SAS import); "" for none.

.PARAMETER DryRun
    Print the commands instead of running them.

.EXAMPLE
    powershell -ExecutionPolicy Bypass -File installer\wheelhouse.ps1 -Platform win_amd64 -PythonVersion 3.11
#>
param(
    [string]$Platform = "win_amd64",
    [string]$PythonVersion = "3.11",
    [string]$Dest = "",
    [string]$Extras = "stats",
    [string]$Python = "python",
    [switch]$DryRun
)
$ErrorActionPreference = "Stop"
$Caller = (Get-Location).Path   # a relative -Dest is taken from where the script was started
Set-Location (Join-Path $PSScriptRoot "..")
$Root = (Get-Location).Path

if ($PythonVersion -notmatch '^3\.\d+$') {
    throw "-PythonVersion takes a version like 3.11, not '$PythonVersion'"
}
$NoDot = $PythonVersion.Replace(".", "")

function ManylinuxTags([string]$Arch, [int]$HighestMinor) {
    # pip matches Linux platform tags exactly: list every glibc from the highest down to 2.17
    $tags = @()
    for ($minor = $HighestMinor; $minor -ge 17; $minor--) { $tags += "manylinux_2_${minor}_$Arch" }
    $tags + "manylinux2014_$Arch"
}
$glibc = if ($env:GLIBC_MINOR) { [int]$env:GLIBC_MINOR } else { 34 }
switch -Regex ($Platform) {
    '^(win_amd64|windows)$' { $Platform = "win_amd64"; $tags = @("win_amd64"); $os = "windows"; break }
    '^macos_arm64$' { $tags = @("macosx_13_0_arm64"); $os = "macos"; break }
    '^macos_x86_64$' { $tags = @("macosx_13_0_x86_64"); $os = "macos"; break }
    '^linux_x86_64$' { $tags = ManylinuxTags "x86_64" $glibc; $os = "linux"; break }
    '^linux_aarch64$' { $tags = ManylinuxTags "aarch64" $glibc; $os = "linux"; break }
    '^win' { $tags = @($Platform); $os = "windows"; break }
    '^macosx_' { $tags = @($Platform); $os = "macos"; break }
    '^(manylinux|musllinux|linux_)' { $tags = @($Platform); $os = "linux"; break }
    default { throw "unknown platform '$Platform' (see Get-Help $PSCommandPath)" }
}
if (-not $Dest) { $Dest = Join-Path $Root "installer\wheelhouse-$Platform-py$NoDot" }
elseif (-not [System.IO.Path]::IsPathRooted($Dest)) { $Dest = Join-Path $Caller $Dest }
$Dest = [System.IO.Path]::GetFullPath($Dest)
if (-not $DryRun) { New-Item -ItemType Directory -Force -Path $Dest | Out-Null }

$version = & $Python -c "import tomllib; print(tomllib.load(open('pyproject.toml', 'rb'))['project']['version'])"
if ($LASTEXITCODE -ne 0) { throw "could not read the version from pyproject.toml with $Python" }
$wheel = Join-Path $Dest "tclose-$version-py3-none-any.whl"
$requirement = if ($Extras) { "tclose[$Extras]" } else { "tclose" }
$wheelUrl = ([System.Uri]$wheel).AbsoluteUri

$targetArgs = @("--only-binary=:all:")
foreach ($tag in $tags) { $targetArgs += @("--platform", $tag) }
$targetArgs += @("--python-version", $PythonVersion, "--implementation", "cp", "--abi", "cp$NoDot")

function Run([string[]]$Command) {
    if ($DryRun) {
        ($Command | ForEach-Object { if ($_ -match '[\s\[\]@]') { "'$_'" } else { $_ } }) -join " "
    } else {
        $arguments = @($Command | Select-Object -Skip 1)
        & $Command[0] @arguments
        if ($LASTEXITCODE -ne 0) { throw "failed ($LASTEXITCODE): $($Command -join ' ')" }
    }
}

# pip 24.2 is the first to check a --target install against --python-version.
$pipMin = [version]"24.2"
function PipVersion([string]$Py) {
    $text = & $Py -c "from importlib.metadata import version; print('.'.join(version('pip').split('.')[:2]))" 2>$null
    if ($LASTEXITCODE -ne 0 -or -not $text) { return [version]"0.0" }
    return [version]$text
}
if ((PipVersion $Python) -lt $pipMin) {
    $pipVenv = Join-Path $Root "installer\build\wheelhouse-pip"
    $venvPython = Join-Path $pipVenv "Scripts\python.exe"
    if ($DryRun) { "# the pip of $Python is older than ${pipMin}: a newer one in a private venv" }
    else { Write-Host "== the pip of $Python is older than ${pipMin}: using a newer one in $pipVenv" }
    if (-not (Test-Path $venvPython)) { Run @($Python, "-m", "venv", $pipVenv) }
    if ($DryRun -or (PipVersion $venvPython) -lt $pipMin) {
        Run @($venvPython, "-m", "pip", "install", "--quiet", "--upgrade", "pip>=$pipMin")
    }
    $Python = $venvPython
}

if (-not $DryRun) { Write-Host "== wheelhouse for tclose $version, $Platform, Python ${PythonVersion}: $Dest" }
# 1. tclose itself is pure Python: one wheel for every platform.
Run @($Python, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", $Dest, $Root)
# 2. Everything it depends on, as binary wheels for the target (never an sdist).  target_pip.py
#    runs pip with the target's environment markers (numba, say, only where it has wheels),
#    not those of this machine.
$targetPip = Join-Path $Root "installer\target_pip.py"
Run (@($Python, $targetPip, "download") + $targetArgs + @("--dest", $Dest, "$requirement @ $wheelUrl"))
# 3. Prove the folder is complete: resolve the install offline for the target.
Run (@($Python, $targetPip, "install", "--dry-run", "--ignore-installed", "--no-index",
       "--find-links", $Dest) + $targetArgs + @("--target", (Join-Path $Dest ".check"), $requirement))

# The smoke test prints one line, so it runs under a console program: on Windows tclose-gui.exe
# is windowed (no console: it prints nothing), so the check runs python.exe -m gui instead.
if ($os -eq "windows") {
    $envDir = "%USERPROFILE%\tclose-env\Scripts"
    $venvCmd = "py -$PythonVersion -m venv `"%USERPROFILE%\tclose-env`""
    $pipCmd = "`"$envDir\python.exe`" -m pip install --no-index --find-links `"WHEELHOUSE`" `"$requirement`""
    $startCmd = "`"$envDir\tclose-gui.exe`""
    $checkCmd = "`"$envDir\python.exe`" -m gui --smoke-test"
    $cliCmd = "`"$envDir\tclose.exe`" --help"
} else {
    $venvCmd = "python$PythonVersion -m venv ~/tclose-env"
    $pipCmd = "~/tclose-env/bin/python -m pip install --no-index --find-links `"WHEELHOUSE`" `"$requirement`""
    $startCmd = "~/tclose-env/bin/tclose-gui"
    $checkCmd = "~/tclose-env/bin/tclose-gui --smoke-test"
    $cliCmd = "~/tclose-env/bin/tclose --help"
}
if ($DryRun) {
    "# on the offline machine:"
    $venvCmd
    $pipCmd.Replace("WHEELHOUSE", $Dest)
    exit 0
}
Remove-Item -Recurse -Force -ErrorAction SilentlyContinue (Join-Path $Dest ".check")
@"
tclose $version wheelhouse for $Platform, Python $PythonVersion

On the offline machine, with Python $PythonVersion installed, and WHEELHOUSE the path of this folder:

    $venvCmd
    $pipCmd

Start the app with:  $startCmd
Check the install:   $checkCmd
                     (prints one line, 'tclose smoke test passed: ...', and exits with 0)
The command line:    $cliCmd
"@ | Set-Content -Encoding utf8 (Join-Path $Dest "INSTALL.txt")
$count = (Get-ChildItem $Dest -Filter *.whl).Count
$mib = [math]::Round(((Get-ChildItem $Dest -File | Measure-Object Length -Sum).Sum) / 1MB)
Write-Host "== $count wheels, $mib MiB in $Dest"
Write-Host "== copy the folder to the offline machine, then (also in INSTALL.txt):"
Write-Host $venvCmd
Write-Host $pipCmd.Replace("WHEELHOUSE", $Dest)
