<#
.SYNOPSIS
    Build the tclose Windows installer: PyInstaller one-folder app, smoke test, Inno Setup.

.DESCRIPTION
    Needs 64-bit Python 3.11 (python.org installer or the Windows Store one) and Inno Setup 6
    (ISCC.exe on PATH or in its default folder).  From the project root:

        powershell -ExecutionPolicy Bypass -File installer\build_windows.ps1

    Output: installer\dist\tclose\ (the app folder: tclose-gui.exe, tclose.exe) and
    installer\dist\tclose-VERSION-windows-x64-setup.exe (the installer).  The smoke test
    starts the bundled tclose-gui.exe --smoke-test offscreen and fails the build unless the
    bundled sample is released and verifies.

.PARAMETER Python
    The Python that creates the build venv (default: "py -3.11" through the launcher if it
    exists, else "python").

.PARAMETER BuildVenv
    Reuse this venv (no install step) instead of installer\build\venv.

.PARAMETER SkipInstaller
    Build and smoke-test the app folder only, without Inno Setup.
#>
param(
    [string]$Python = "",
    [string]$BuildVenv = "",
    [switch]$SkipInstaller
)
$ErrorActionPreference = "Stop"
Set-Location (Join-Path $PSScriptRoot "..")
$Root = (Get-Location).Path
$Dist = Join-Path $Root "installer\dist"
$Work = Join-Path $Root "installer\build"

function Check([string]$What) {
    if ($LASTEXITCODE -ne 0) { throw "$What failed with exit code $LASTEXITCODE" }
}

if ($BuildVenv) {
    $venv = $BuildVenv
    Write-Host "== using the build venv $venv"
} else {
    $venv = Join-Path $Work "venv"
    if (-not (Test-Path (Join-Path $venv "Scripts\python.exe"))) {
        if ($Python) { $pyCmd = @($Python.Split(" ")) }
        elseif (Get-Command py -ErrorAction SilentlyContinue) { $pyCmd = @("py", "-3.11") }
        else { $pyCmd = @("python") }
        $pyArgs = @($pyCmd | Select-Object -Skip 1) + @("-m", "venv", $venv)
        Write-Host "== creating the build venv $venv with $($pyCmd -join ' ')"
        & $pyCmd[0] @pyArgs; Check "venv"
    }
    $venvPython = Join-Path $venv "Scripts\python.exe"
    & $venvPython -m pip install -q --disable-pip-version-check ".[stats]" "pyinstaller>=6.10,<7"
    Check "pip install"
}
$venvPython = Join-Path $venv "Scripts\python.exe"
$version = & $venvPython -c "import tomllib; print(tomllib.load(open('pyproject.toml', 'rb'))['project']['version'])"
Check "reading the version"

Write-Host "== building tclose $version"
$timer = [System.Diagnostics.Stopwatch]::StartNew()
& $venvPython -m PyInstaller --noconfirm --clean --log-level WARN `
    --distpath $Dist --workpath (Join-Path $Work "pyinstaller") installer\tclose.spec
Check "PyInstaller"
$buildSeconds = [int]$timer.Elapsed.TotalSeconds
$bundle = Join-Path $Dist "tclose"
$mib = [math]::Round(((Get-ChildItem $bundle -Recurse -File | Measure-Object Length -Sum).Sum) / 1MB)

Write-Host "== smoke test of the bundle"
& (Join-Path $bundle "tclose.exe") --version; Check "tclose.exe --version"
# tclose-gui.exe is a windowed program: PowerShell would not wait for it, Start-Process does.
$env:QT_QPA_PLATFORM = "offscreen"
$smoke = Start-Process -FilePath (Join-Path $bundle "tclose-gui.exe") -ArgumentList "--smoke-test" `
    -Wait -PassThru -NoNewWindow
if ($smoke.ExitCode -ne 0) { throw "the smoke test of the bundle failed (exit code $($smoke.ExitCode))" }
Write-Host "== smoke test passed"
# The wizard walk exercises every page, the embedded plots and the export writer.
$shots = Join-Path $Work "screenshots"
Remove-Item -Recurse -Force -ErrorAction SilentlyContinue $shots
$walk = Start-Process -FilePath (Join-Path $bundle "tclose-gui.exe") -ArgumentList "--screenshots", "`"$shots`"" `
    -Wait -PassThru -NoNewWindow
Remove-Item Env:QT_QPA_PLATFORM
if ($walk.ExitCode -ne 0) { throw "the wizard walk of the bundle failed (exit code $($walk.ExitCode))" }
Write-Host "== wizard walk passed: $((Get-ChildItem $shots -Filter *.png).Count) pages in $shots"

if (-not $SkipInstaller) {
    $iscc = Get-Command ISCC.exe -ErrorAction SilentlyContinue
    if ($iscc) { $iscc = $iscc.Source }
    else {
        $iscc = @("${env:ProgramFiles(x86)}\Inno Setup 6\ISCC.exe", "$env:ProgramFiles\Inno Setup 6\ISCC.exe",
                  "$env:LOCALAPPDATA\Programs\Inno Setup 6\ISCC.exe") |
            Where-Object { Test-Path $_ } | Select-Object -First 1
    }
    if (-not $iscc) {
        throw "Inno Setup 6 not found: install it (winget install JRSoftware.InnoSetup) or put ISCC.exe on PATH"
    }
    Write-Host "== packing the installer with $iscc"
    & $iscc /Q "/DAppVersion=$version" installer\tclose.iss; Check "Inno Setup"
    $setup = Join-Path $Dist "tclose-$version-windows-x64-setup.exe"
    $setupMib = [math]::Round((Get-Item $setup).Length / 1MB)
    Write-Host "== installer: $setup ($setupMib MiB)"
}
Write-Host "== bundle: $bundle"
Write-Host "== bundle size: $mib MiB; build time: $buildSeconds s"
