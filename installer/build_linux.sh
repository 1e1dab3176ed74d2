#!/usr/bin/env bash
# Build the tclose one-folder app on Linux with the same spec as the Windows and macOS
# installers, then start the bundled binary offscreen with --smoke-test: it opens the bundled
# sample, runs a small t-closeness release through the engine and exits 0 only when the
# release verifies.  Then it walks the whole wizard in the bundle (--screenshots).  Prints
# the bundle size and the build time; exits non-zero when either check fails.
#
#   bash installer/build_linux.sh              # fresh build venv in installer/build/venv
#   BUILD_VENV=/path/to/venv bash installer/build_linux.sh   # reuse a venv (no install)
#   bash installer/build_linux.sh --archive    # also pack dist/tclose-<version>-linux.tar.gz
#
# It takes several minutes on two cores, so it is not part of .ci/run; run it before a
# release and whenever the spec or the dependencies change.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
ARCHIVE=0
for arg in "$@"; do
    case "$arg" in
        --archive) ARCHIVE=1 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) echo "build_linux.sh: unknown option $arg" >&2; exit 2 ;;
    esac
done

VERSION=$(python3 -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')
DIST="$ROOT/installer/dist"
WORK="$ROOT/installer/build"

# shellcheck source=installer/build_common.sh
source installer/build_common.sh
prepare_build_venv python3
"$VENV/bin/python" -c 'import PyInstaller, PySide6; print("== PyInstaller", PyInstaller.__version__, "/ PySide6", PySide6.__version__)'

echo "== building tclose $VERSION"
run_pyinstaller
BUNDLE="$DIST/tclose"
size_mib=$(du -sm "$BUNDLE" | cut -f1)
files=$(find "$BUNDLE" -type f | wc -l)

echo "== smoke test of the bundle"
"$BUNDLE/tclose" --version
smoke_started=$(date +%s)
set +e
# the console program runs the app's smoke test (as on Windows, where the app has no console)
QT_QPA_PLATFORM=offscreen "$BUNDLE/tclose" --smoke-test
smoke_rc=$?
set -e
smoke_seconds=$(( $(date +%s) - smoke_started ))

# The wizard walk exercises what the smoke test does not: every page, the embedded plots,
# the export writer.  It saves one PNG per page; look at them to see the bundled app.
echo "== wizard walk of the bundle (--screenshots $WORK/screenshots)"
rm -rf "$WORK/screenshots"
set +e
QT_QPA_PLATFORM=offscreen "$BUNDLE/tclose-gui" --screenshots "$WORK/screenshots" 2>/dev/null
walk_rc=$?
set -e
pages=$(find "$WORK/screenshots" -name '*.png' 2>/dev/null | wc -l || true)
[ "$walk_rc" -eq 0 ] && [ "$pages" -gt 0 ] || smoke_rc=1

if [ "$ARCHIVE" = 1 ]; then
    tarball="$DIST/tclose-$VERSION-linux-$(uname -m).tar.gz"
    tar -C "$DIST" -czf "$tarball" tclose
    echo "== archive $tarball ($(du -sm "$tarball" | cut -f1) MiB)"
fi

echo "== bundle: $BUNDLE"
echo "== bundle size: ${size_mib} MiB in ${files} files"
echo "== build time: ${build_seconds} s; smoke test: exit ${smoke_rc} in ${smoke_seconds} s; wizard walk: exit ${walk_rc}, ${pages} PNGs"
exit "$smoke_rc"
