<#
.SYNOPSIS
    Build the tclose Windows installer: PyInstaller one-folder app, smoke test, Inno Setup.

.DESCRIPTION
    Needs 64-bit Python 3.11 (python.org installer or the Windows Store one) and Inno Setup 6
    (ISCC.exe on PATH or in its default folder).  From the project root:

        powershell -ExecutionPolicy Bypass -File installer\build_windows.ps1

    Output: installer\dist\tclose\ (the app folder: tclose-gui.exe, tclose.exe) and
    installer\dist\tclose-VERSION-windows-x64-setup.exe (the installer).  The smoke test
    runs the bundled console program, tclose.exe --smoke-test, offscreen: it prints one line
    and fails the build unless the bundled sample is released and verifies.  (tclose-gui.exe
    is a windowed program: it has no console and prints nothing.)

    Signing (Authenticode, optional; see installer\SIGNING.md).  With one of
        WINDOWS_SIGN_CERT_SHA1     thumbprint of a code-signing certificate in the Windows
                                   certificate store (CurrentUser\My or LocalMachine\My; a
                                   certificate on a hardware token works the same way)
        WINDOWS_SIGN_PFX           a .pfx file, with WINDOWS_SIGN_PFX_PASSWORD
    set, the build signs tclose-gui.exe and tclose.exe before the smoke test, and Inno Setup
    signs the installer and its uninstaller; every signature is checked with signtool verify.
    WINDOWS_SIGN_TIMESTAMP_URL is the RFC 3161 time-stamp server (default
    http://timestamp.digicert.com); SIGNTOOL the path of signtool.exe (default: on PATH, else
    the newest Windows SDK's).  Without them nothing is signed and SmartScreen warns at the
    first start.

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

# --- Authenticode (optional) ----------------------------------------------------------------
$signTool = $null
$signArgs = @()
if ($env:WINDOWS_SIGN_CERT_SHA1 -or $env:WINDOWS_SIGN_PFX) {
    $signTool = $env:SIGNTOOL
    if (-not $signTool) {
        $found = Get-Command signtool.exe -ErrorAction SilentlyContinue
        if ($found) { $signTool = $found.Source }
    }
    if (-not $signTool) {
        $kits = Join-Path ${env:ProgramFiles(x86)} "Windows Kits\10\bin"
        $signTool = Get-ChildItem $kits -Recurse -Filter signtool.exe -ErrorAction SilentlyContinue |
            Where-Object { $_.FullName -match '\\x64\\' } | Sort-Object FullName -Descending |
            Select-Object -First 1 -ExpandProperty FullName
    }
    if (-not $signTool) {
        throw "signing was asked for (WINDOWS_SIGN_*) but signtool.exe was not found: install the Windows SDK or set SIGNTOOL"
    }
    $timestamp = if ($env:WINDOWS_SIGN_TIMESTAMP_URL) { $env:WINDOWS_SIGN_TIMESTAMP_URL } else { "http://timestamp.digicert.com" }
    $signArgs = @("sign", "/fd", "sha256", "/tr", $timestamp, "/td", "sha256")
    if ($env:WINDOWS_SIGN_CERT_SHA1) { $signArgs += @("/sha1", $env:WINDOWS_SIGN_CERT_SHA1) }
    else {
        $signArgs += @("/f", $env:WINDOWS_SIGN_PFX)
        if ($env:WINDOWS_SIGN_PFX_PASSWORD) { $signArgs += @("/p", $env:WINDOWS_SIGN_PFX_PASSWORD) }
    }
    Write-Host "== signing with $signTool"
} else {
    Write-Host "== not signing (set WINDOWS_SIGN_CERT_SHA1 or WINDOWS_SIGN_PFX to sign)"
}

function Sign([string[]]$Files) {
    if (-not $signTool) { return }
    & $signTool @signArgs @Files; Check "signtool sign"
    & $signTool verify /pa /q @Files; Check "signtool verify"
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

Sign @((Join-Path $bundle "tclose-gui.exe"), (Join-Path $bundle "tclose.exe"))

Write-Host "== smoke test of the bundle"
& (Join-Path $bundle "tclose.exe") --version; Check "tclose.exe --version"
# The console program runs the app's smoke test and prints its line (the windowed
# tclose-gui.exe has no console to print to).
$env:QT_QPA_PLATFORM = "offscreen"
& (Join-Path $bundle "tclose.exe") --smoke-test; Check "the smoke test of the bundle"
Write-Host "== smoke test passed"
# The wizard walk exercises every page, the embedded plots and the export writer.
# tclose-gui.exe is a windowed program: PowerShell would not wait for it, Start-Process does.
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
    $isccArgs = @("/Q", "/DAppVersion=$version")
    if ($signTool) {
        # Inno Setup signs the installer and the uninstaller it writes with this command
        # ($q is a quote, $f the file).
        $command = (@($signTool) + $signArgs | ForEach-Object { "`$q$_`$q" }) -join " "
        $isccArgs += @("/DSign", "/Stclosesign=$command `$f")
    }
    & $iscc @isccArgs installer\tclose.iss; Check "Inno Setup"
    $setup = Join-Path $Dist "tclose-$version-windows-x64-setup.exe"
    if ($signTool) { & $signTool verify /pa /q $setup; Check "signtool verify (installer)" }
    $setupMib = [math]::Round((Get-Item $setup).Length / 1MB)
    Write-Host "== installer: $setup ($setupMib MiB)"
}
Write-Host "== bundle: $bundle"
Write-Host "== bundle size: $mib MiB; build time: $buildSeconds s"
