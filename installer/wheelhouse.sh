#!/usr/bin/env bash
# Download every wheel tclose needs for one target platform and Python version into one
# folder, on a machine with internet; copy the folder to the offline machine and install
# with the command this script prints (also written to INSTALL.txt in the folder).
#
#   bash installer/wheelhouse.sh [--platform TARGET] [--python-version X.Y] [--dest DIR]
#                                [--extras LIST] [--dry-run]
#
# TARGET  win_amd64 (default) | macos_arm64 | macos_x86_64 | linux_x86_64 | linux_aarch64,
#         or any pip platform tag (e.g. macosx_14_0_arm64, manylinux_2_35_x86_64).
#         macOS targets need macOS 13 or later, Linux targets glibc 2.34 or later (Qt 6.11);
#         GLIBC_MINOR=36 (say) lets a Linux target take wheels built for glibc up to 2.36.
# X.Y     the Python version on the offline machine (default 3.11).
# DIR     the wheelhouse (default installer/wheelhouse-TARGET-pyXY).
# LIST    extras of tclose to include (default "stats": SPSS/Stata/SAS import); "" for none.
# --dry-run prints the commands instead of running them.
#
# Needs Python 3.11 or later with pip 24.2 or later: an older pip checks the wheelhouse
# against the Python that runs it instead of the target's, so a --python-version other than
# the machine's fails ("requires a different Python").  With an older pip the script makes a
# private venv (installer/build/wheelhouse-pip, or WHEELHOUSE_PIP_VENV) with a current pip
# and uses that; the Python it was started with is left as it is.  PYTHON names another
# interpreter.
# DIR may contain spaces and any letters (a user folder often does).
#
# On the offline machine (the commands are printed at the end):
#   python -m venv tclose-env
#   tclose-env/bin/python -m pip install --no-index --find-links DIR "tclose[stats]"
set -euo pipefail
CALLER=$(pwd)   # a relative --dest is taken from where the script was started
cd "$(dirname "$0")/.."
ROOT=$(pwd)

TARGET=win_amd64
PYVER=3.11
DEST=""
EXTRAS=stats
DRY_RUN=0
PYTHON=${PYTHON:-python3}
while [ $# -gt 0 ]; do
    case "$1" in
        --platform) TARGET=$2; shift 2 ;;
        --python-version) PYVER=$2; shift 2 ;;
        --dest) DEST=$2; shift 2 ;;
        --extras) EXTRAS=$2; shift 2 ;;
        --dry-run) DRY_RUN=1; shift ;;
        -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
        *) echo "wheelhouse.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
if ! [[ "$PYVER" =~ ^3\.[0-9]+$ ]]; then
    echo "wheelhouse.sh: --python-version takes a version like 3.11, not '$PYVER'" >&2
    exit 2
fi
PYNODOT=${PYVER/./}

# pip matches platform tags exactly (it widens only macOS tags to older releases), so a
# Linux target lists every manylinux tag up to the oldest glibc we support.
manylinux_tags() {  # arch, highest glibc minor
    local arch=$1 minor
    for ((minor = $2; minor >= 17; minor--)); do
        echo "manylinux_2_${minor}_${arch}"
    done
    echo "manylinux2014_${arch}"
}
case "$TARGET" in
    win_amd64|windows) TARGET=win_amd64; PLATFORMS=(win_amd64); OS=windows ;;
    macos_arm64) PLATFORMS=(macosx_13_0_arm64); OS=macos ;;
    macos_x86_64) PLATFORMS=(macosx_13_0_x86_64); OS=macos ;;
    # (no mapfile: macOS still ships bash 3.2)
    linux_x86_64) IFS=$'\n' read -r -d '' -a PLATFORMS < <(manylinux_tags x86_64 "${GLIBC_MINOR:-34}") || true; OS=linux ;;
    linux_aarch64) IFS=$'\n' read -r -d '' -a PLATFORMS < <(manylinux_tags aarch64 "${GLIBC_MINOR:-34}") || true; OS=linux ;;
    win*) PLATFORMS=("$TARGET"); OS=windows ;;
    macosx_*) PLATFORMS=("$TARGET"); OS=macos ;;
    manylinux*|musllinux*|linux_*) PLATFORMS=("$TARGET"); OS=linux ;;
    *) echo "wheelhouse.sh: unknown target '$TARGET' (see --help)" >&2; exit 2 ;;
esac
if [ -z "$DEST" ]; then
    DEST="$ROOT/installer/wheelhouse-$TARGET-py$PYNODOT"
else
    DEST=$(cd "$CALLER" && "$PYTHON" -c 'import os, sys; print(os.path.abspath(sys.argv[1]))' "$DEST")
fi
[ "$DRY_RUN" = 1 ] || mkdir -p "$DEST"

VERSION=$("$PYTHON" -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')
WHEEL="$DEST/tclose-$VERSION-py3-none-any.whl"
# A PEP 508 direct reference is a URL: spaces and non-ASCII letters are percent-encoded.
WHEEL_URL=$("$PYTHON" -c 'import pathlib, sys; print(pathlib.Path(sys.argv[1]).as_uri())' "$WHEEL")
REQUIREMENT="tclose"
[ -z "$EXTRAS" ] || REQUIREMENT="tclose[$EXTRAS]"

PLATFORM_ARGS=()
for tag in "${PLATFORMS[@]}"; do PLATFORM_ARGS+=(--platform "$tag"); done
TARGET_ARGS=(--only-binary=:all: "${PLATFORM_ARGS[@]}" --python-version "$PYVER"
             --implementation cp --abi "cp$PYNODOT")

run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '%q ' "$@" | sed 's/ $//'
        echo
    else
        "$@"
    fi
}

# pip 24.2 is the first to check a --target install against --python-version.
PIP_MIN=24.2
PIP_VENV=${WHEELHOUSE_PIP_VENV:-$ROOT/installer/build/wheelhouse-pip}
pip_is_recent() {  # python
    "$1" -c 'import sys
from importlib.metadata import version
v = tuple(int(p) for p in version("pip").split(".")[:2])
sys.exit(v < tuple(int(p) for p in sys.argv[1].split(".")))' "$PIP_MIN" 2>/dev/null
}
if ! pip_is_recent "$PYTHON"; then
    if [ "$DRY_RUN" = 1 ]; then
        echo "# the pip of $PYTHON is older than $PIP_MIN: a newer one in a private venv"
    else
        echo "== the pip of $PYTHON is older than $PIP_MIN: using a newer one in $PIP_VENV"
    fi
    [ -x "$PIP_VENV/bin/python" ] || run "$PYTHON" -m venv "$PIP_VENV"
    pip_is_recent "$PIP_VENV/bin/python" ||
        run "$PIP_VENV/bin/python" -m pip install --quiet --upgrade "pip>=$PIP_MIN"
    PYTHON="$PIP_VENV/bin/python"
fi

[ "$DRY_RUN" = 1 ] || echo "== wheelhouse for tclose $VERSION, $TARGET, Python $PYVER: $DEST"
# 1. tclose itself is pure Python: one wheel for every platform.
run "$PYTHON" -m pip wheel --no-deps --wheel-dir "$DEST" "$ROOT"
# 2. Everything it depends on, as binary wheels for the target (never an sdist: the offline
#    machine has no compiler).  target_pip.py runs pip with the target's environment markers
#    (numba, say, only where it has wheels), not those of this machine.
run "$PYTHON" "$ROOT/installer/target_pip.py" download "${TARGET_ARGS[@]}" --dest "$DEST" \
    "$REQUIREMENT @ $WHEEL_URL"
# 3. Prove the folder is complete: resolve the install offline for the target.
run "$PYTHON" "$ROOT/installer/target_pip.py" install --dry-run --ignore-installed --no-index \
    --find-links "$DEST" "${TARGET_ARGS[@]}" --target "$DEST/.check" "$REQUIREMENT"

# The smoke test prints one line, so it runs under a console program: on Windows tclose-gui.exe
# is windowed (no console: it prints nothing), so the check runs python.exe -m gui instead.
if [ "$OS" = windows ]; then
    ENV='%USERPROFILE%\tclose-env\Scripts'
    VENV_CMD="py -$PYVER -m venv \"%USERPROFILE%\\tclose-env\""
    PIP_CMD="\"$ENV\\python.exe\" -m pip install --no-index --find-links \"WHEELHOUSE\" \"$REQUIREMENT\""
    START_CMD="\"$ENV\\tclose-gui.exe\""
    CHECK_CMD="\"$ENV\\python.exe\" -m gui --smoke-test"
    CLI_CMD="\"$ENV\\tclose.exe\" --help"
else
    VENV_CMD="python$PYVER -m venv ~/tclose-env"
    PIP_CMD="~/tclose-env/bin/python -m pip install --no-index --find-links \"WHEELHOUSE\" \"$REQUIREMENT\""
    START_CMD="~/tclose-env/bin/tclose-gui"
    CHECK_CMD="~/tclose-env/bin/tclose-gui --smoke-test"
    CLI_CMD="~/tclose-env/bin/tclose --help"
fi
INSTALL_TEXT="tclose $VERSION wheelhouse for $TARGET, Python $PYVER

On the offline machine, with Python $PYVER installed, and WHEELHOUSE the path of this folder:

    $VENV_CMD
    $PIP_CMD

Start the app with:  $START_CMD
Check the install:   $CHECK_CMD
                     (prints one line, 'tclose smoke test passed: ...', and exits with 0)
The command line:    $CLI_CMD
"
if [ "$DRY_RUN" = 1 ]; then
    echo "# on the offline machine:"
    echo "$VENV_CMD"
    echo "${PIP_CMD//WHEELHOUSE/$DEST}"
else
    rm -rf "$DEST/.check"
    printf '%s' "$INSTALL_TEXT" >"$DEST/INSTALL.txt"
    echo "== $(find "$DEST" -name '*.whl' | wc -l) wheels, $(du -sm "$DEST" | cut -f1) MiB in $DEST"
    echo "== copy the folder to the offline machine, then (also in $DEST/INSTALL.txt):"
    echo "$VENV_CMD"
    echo "${PIP_CMD//WHEELHOUSE/$DEST}"
fi
