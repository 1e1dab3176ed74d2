"""Draw the tclose app icon and write it in every size and format the installers need.

The icon is painted with Qt (no font, so it looks the same on every build machine): a blue
rounded square holding a white histogram of four buckets, crossed by an amber band -- the
bucket shares that t-closeness keeps within a band around the whole file's shares.

Run it from the project root after changing the drawing; the outputs are checked in:

    python installer/make_icons.py

It writes ``resources/icons/tclose-<size>.png`` for 16 to 1024 pixels, ``tclose.png``
(256 px), ``tclose.svg`` (the window icon), ``tclose.ico`` (Windows, 16-256 px) and
``tclose.icns`` (macOS, written by Pillow).  ``installer/build_macos.sh`` rebuilds the
``.icns`` with Apple's ``iconutil`` from the PNGs.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Shape:
    """One rounded rectangle of the icon, in pixels of a ``size`` x ``size`` canvas."""

    x: float
    y: float
    width: float
    height: float
    radius: float
    #: a colour, or "tile" for the blue top-to-bottom gradient of the background
    fill: str
    opacity: float = 1.0


TILE_TOP, TILE_BOTTOM = "#2f7fd0", "#17457d"


def icon_shapes(size: int) -> list[Shape]:
    """The icon's geometry, shared by the bitmap painter and the SVG writer."""
    # macOS-style margin: the tile covers about 82 % of the canvas (less on tiny sizes).
    margin = size * (0.09 if size >= 64 else 0.03)
    side = size - 2 * margin
    shapes = [Shape(margin, margin, side, side, side * 0.22, "tile")]

    # Four white bars standing on a common base line.
    inset = side * 0.17
    left, bottom, width, height = (
        margin + inset,
        margin + side - inset,
        side - 2 * inset,
        side - 2 * inset,
    )
    slot = width / len(BARS)
    gap = slot * 0.22
    for i, share in enumerate(BARS):
        bar_height = height * share
        shapes.append(
            Shape(
                left + i * slot + gap / 2,
                bottom - bar_height,
                slot - gap,
                bar_height,
                min((slot - gap) * 0.18, size * 0.02),
                "#ffffff",
            )
        )

    # The amber band: the range [p/t, p·t] every class's share must stay in.
    band_height = max(height * 0.12, 1.0)
    shapes.append(
        Shape(
            margin + side * 0.09,
            bottom - height * 0.60,
            side * 0.82,
            band_height,
            band_height / 2,
            "#ffb02e",
            0.85,
        )
    )
    return shapes


def draw_icon(size: int) -> QImage:
    """The icon as a ``size`` x ``size`` ARGB image with a transparent margin."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    for shape in icon_shapes(size):
        rect = QRectF(shape.x, shape.y, shape.width, shape.height)
        if shape.fill == "tile":
            gradient = QLinearGradient(rect.topLeft(), rect.bottomLeft())
            gradient.setColorAt(0.0, QColor(TILE_TOP))
            gradient.setColorAt(1.0, QColor(TILE_BOTTOM))
            painter.setBrush(gradient)
        else:
            colour = QColor(shape.fill)
            colour.setAlphaF(shape.opacity)
            painter.setBrush(colour)
        path = QPainterPath()
        path.addRoundedRect(rect, shape.radius, shape.radius)
        painter.drawPath(path)
    painter.end()
    return image


def icon_svg(size: int = 256) -> str:
    """The same icon as SVG (the window icon; scales to any screen)."""
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}">',
        '  <defs><linearGradient id="tile" x1="0" y1="0" x2="0" y2="1">'
        f'<stop offset="0" stop-color="{TILE_TOP}"/><stop offset="1" stop-color="{TILE_BOTTOM}"/>'
        "</linearGradient></defs>",
    ]
    for s in icon_shapes(size):
        fill = "url(#tile)" if s.fill == "tile" else s.fill
        opacity = "" if s.opacity == 1.0 else f' fill-opacity="{s.opacity:g}"'
        lines.append(
            f'  <rect x="{s.x:.2f}" y="{s.y:.2f}" width="{s.width:.2f}" height="{s.height:.2f}" '
            f'rx="{s.radius:.2f}" fill="{fill}"{opacity}/>'
        )
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


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
    (ICON_DIR / "tclose.svg").write_text(icon_svg(), encoding="utf-8")
    print(f"wrote {len(images) + 1} PNGs, tclose.ico, tclose.icns and tclose.svg to {ICON_DIR}")
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
