#!/usr/bin/env bash
# Build the tclose macOS app and disk image: PyInstaller .app bundle, smoke test, .dmg.
#
#   bash installer/build_macos.sh
#
# Needs macOS 13 or later (Qt 6.11's minimum) with Python 3.11 from python.org or Homebrew;
# builds for the machine's architecture (arm64 on Apple silicon, x86_64 on Intel Macs).
# Output: installer/dist/tclose.app and installer/dist/tclose-VERSION-macos-ARCH.dmg.
#
# Environment:
#   PYTHON            the Python that creates the build venv (default python3.11, python3)
#   BUILD_VENV        reuse this venv instead of installer/build/venv (no install step)
#   CODESIGN_IDENTITY a "Developer ID Application: ..." identity: the spec signs every
#                     binary and the app with the hardened runtime and the entitlements in
#                     installer/macos-entitlements.plist (otherwise the signature is ad hoc)
#   NOTARY_PROFILE    a notarytool keychain profile: notarize and staple the .dmg, so that
#                     Gatekeeper accepts it on machines without internet
# (installer/SIGNING.md describes both, and Authenticode for the Windows build.)
#
# The icon: resources/icons/tclose.icns is checked in (written by installer/make_icons.py
# with Pillow); this script rebuilds it with Apple's iconutil from the checked-in PNGs.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
DIST="$ROOT/installer/dist"
WORK="$ROOT/installer/build"
ARCH=$(uname -m)
mkdir -p "$WORK"

# shellcheck source=installer/build_common.sh
source installer/build_common.sh
prepare_build_venv "${PYTHON:-$(command -v python3.11 || command -v python3)}"
VERSION=$("$VENV/bin/python" -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')

# Rebuild the .icns with iconutil: it takes an .iconset folder of PNGs named by size.
if command -v iconutil >/dev/null; then
    ICONSET="$WORK/tclose.iconset"
    rm -rf "$ICONSET" && mkdir -p "$ICONSET"
    for size in 16 32 128 256 512; do
        cp "resources/icons/tclose-$size.png" "$ICONSET/icon_${size}x${size}.png"
        cp "resources/icons/tclose-$((size * 2)).png" "$ICONSET/icon_${size}x${size}@2x.png"
    done
    iconutil --convert icns --output "$WORK/tclose.icns" "$ICONSET"
    export TCLOSE_ICNS="$WORK/tclose.icns"
fi

echo "== building tclose $VERSION for macOS $ARCH"
run_pyinstaller
APP="$DIST/tclose.app"

if [ -n "${CODESIGN_IDENTITY:-}" ]; then
    # the spec signed every binary and the app with this identity (hardened runtime)
    codesign --verify --deep --strict --verbose=1 "$APP"
else
    echo "== not signing (set CODESIGN_IDENTITY to sign, NOTARY_PROFILE to notarize)"
fi
# the app must show in the Dock: PyInstaller's default for a folder with a console program
# is a background-only app (the spec overrides it)
/usr/libexec/PlistBuddy -c "Print :LSBackgroundOnly" "$APP/Contents/Info.plist" | grep -qx false

echo "== smoke test of the bundle"
"$APP/Contents/MacOS/tclose" --version
QT_QPA_PLATFORM=offscreen "$APP/Contents/MacOS/tclose" --smoke-test
echo "== wizard walk of the bundle (--screenshots $WORK/screenshots)"
rm -rf "$WORK/screenshots"
QT_QPA_PLATFORM=offscreen "$APP/Contents/MacOS/tclose-gui" --screenshots "$WORK/screenshots"

echo "== disk image"
DMG="$DIST/tclose-$VERSION-macos-$ARCH.dmg"
STAGING="$WORK/dmg"
rm -rf "$STAGING" "$DMG" && mkdir -p "$STAGING"
cp -R "$APP" "$STAGING/"
ln -s /Applications "$STAGING/Applications"   # drag the app onto this link to install
hdiutil create -volname "tclose $VERSION" -srcfolder "$STAGING" -fs HFS+ -format UDZO \
    -ov "$DMG"
[ -z "${CODESIGN_IDENTITY:-}" ] || codesign --sign "$CODESIGN_IDENTITY" --timestamp "$DMG"
if [ -n "${NOTARY_PROFILE:-}" ]; then
    echo "== notarizing"
    xcrun notarytool submit "$DMG" --keychain-profile "$NOTARY_PROFILE" --wait
    xcrun stapler staple "$DMG"
fi

echo "== app: $APP ($(du -sm "$APP" | cut -f1) MiB)"
echo "== disk image: $DMG ($(du -sm "$DMG" | cut -f1) MiB)"
echo "== build time: ${build_seconds} s"
