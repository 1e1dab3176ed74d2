"""Draw the tclose app icon and write it in every size and format the installers need.

The icon is painted with Qt (no font, so it looks the same on every build machine): a blue
rounded square holding a white histogram of four buckets, crossed by an amber band -- the
bucket shares that t-closeness keeps within a band around the whole file's shares.

Run it from the project root after changing the drawing; the outputs are checked in:

    python installer/make_icons.py

It writes ``resources/icons/tclose-<size>.png`` for 16 to 1024 pixels, ``tclose.png``
(256 px, the window icon), ``tclose.ico`` (Windows, 16-256 px) and ``tclose.icns`` (macOS,
written by Pillow).  ``installer/build_macos.sh`` can rebuild the ``.icns`` with Apple's
``iconutil`` from the PNGs instead.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Qt must not look for a display: the build machines may have none.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PIL import Image
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QGuiApplication,
    QImage,
    QLinearGradient,
    QPainter,
    QPainterPath,
)

ICON_DIR = Path(__file__).resolve().parent.parent / "resources" / "icons"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512, 1024)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)

#: bar heights as a share of the drawing area: a bucket histogram
BARS = (0.50, 0.80, 0.64, 0.38)


def draw_icon(size: int) -> QImage:
    """The icon as a ``size`` x ``size`` ARGB image with a transparent margin."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)

    # macOS-style margin: the tile covers about 82 % of the canvas (less on tiny sizes).
    margin = size * (0.09 if size >= 64 else 0.03)
    tile = QRectF(margin, margin, size - 2 * margin, size - 2 * margin)
    gradient = QLinearGradient(tile.topLeft(), tile.bottomLeft())
    gradient.setColorAt(0.0, QColor("#2f7fd0"))
    gradient.setColorAt(1.0, QColor("#17457d"))
    radius = tile.width() * 0.22
    painter.setBrush(gradient)
    painter.drawRoundedRect(tile, radius, radius)

    # Four white bars standing on a common base line.
    inner = tile.adjusted(
        tile.width() * 0.17, tile.height() * 0.17, -tile.width() * 0.17, -tile.height() * 0.17
    )
    slot = inner.width() / len(BARS)
    gap = slot * 0.22
    painter.setBrush(QColor("#ffffff"))
    for i, share in enumerate(BARS):
        height = inner.height() * share
        bar = QRectF(inner.left() + i * slot + gap / 2, inner.bottom() - height, slot - gap, height)
        corner = min(bar.width() * 0.18, size * 0.02)
        path = QPainterPath()
        path.addRoundedRect(bar, corner, corner)
        painter.drawPath(path)

    # The amber band: the range [p/t, p·t] every class's share must stay in.
    band_height = max(inner.height() * 0.12, 1.0)
    band_top = inner.bottom() - inner.height() * 0.60
    band = QRectF(tile.left() + tile.width() * 0.09, band_top, tile.width() * 0.82, band_height)
    amber = QColor("#ffb02e")
    amber.setAlphaF(0.85)
    painter.setBrush(amber)
    painter.drawRoundedRect(band, band_height / 2, band_height / 2)
    painter.end()
    return image


def to_pillow(image: QImage) -> Image.Image:
    """A Pillow RGBA copy of a Qt image (for the .ico and .icns writers)."""
    rgba = image.convertToFormat(QImage.Format.Format_RGBA8888)
    data = bytes(rgba.constBits())[: rgba.sizeInBytes()]
    return Image.frombuffer("RGBA", (rgba.width(), rgba.height()), data, "raw", "RGBA", 0, 1)


def main() -> int:
    """Write every icon file into ``resources/icons``."""
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    ICON_DIR.mkdir(parents=True, exist_ok=True)
    images = {size: draw_icon(size) for size in PNG_SIZES}
    for size, image in images.items():
        image.save(str(ICON_DIR / f"tclose-{size}.png"))
    images[256].save(str(ICON_DIR / "tclose.png"))
    largest = to_pillow(images[1024])
    ico_frames = [to_pillow(images[s]) for s in ICO_SIZES]
    # Pillow takes each listed size from append_images when one matches, so no frame is
    # a blurry downscale of another.
    ico_frames[-1].save(
        ICON_DIR / "tclose.ico", sizes=[(s, s) for s in ICO_SIZES], append_images=ico_frames[:-1]
    )
    largest.save(ICON_DIR / "tclose.icns")
    print(f"wrote {len(images) + 1} PNGs, tclose.ico and tclose.icns to {ICON_DIR}")
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
