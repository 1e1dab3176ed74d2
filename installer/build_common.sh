# The build steps that build_linux.sh and build_macos.sh share (build_windows.ps1 takes the
# same steps in PowerShell).  Sourced from the repository root, after DIST and WORK are set.

# prepare_build_venv PYTHON: set VENV to $BUILD_VENV as it is, or to $WORK/venv, created with
# PYTHON when missing and given the app and PyInstaller
prepare_build_venv() {
    local python=$1
    if [ -n "${BUILD_VENV:-}" ]; then
        VENV="$BUILD_VENV"
        echo "== using the build venv $VENV"
    else
        VENV="$WORK/venv"
        echo "== preparing the build venv $VENV with $python"
        [ -x "$VENV/bin/python" ] || "$python" -m venv "$VENV"
        "$VENV/bin/pip" install -q --disable-pip-version-check ".[stats]" "pyinstaller>=6.10,<7"
    fi
}

# run_pyinstaller: build installer/tclose.spec into $DIST with the venv's PyInstaller; sets
# build_seconds to how long it took
run_pyinstaller() {
    local started
    started=$(date +%s)
    "$VENV/bin/pyinstaller" --noconfirm --clean --log-level WARN \
        --distpath "$DIST" --workpath "$WORK/pyinstaller" installer/tclose.spec
    build_seconds=$(( $(date +%s) - started ))
}
