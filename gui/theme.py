"""Colours from the palette, never from the code: the app reads the same in light and dark.

Every colour the app shows is a palette role or derived from one here (a muted text is the
palette's placeholder text, a stale preview is the window colour laid over it).  The style
sheet (``resources/style.qss``) uses ``palette(...)`` references for the same reason.
:func:`apply_color_scheme` switches between light and dark (``--color-scheme``): through
:class:`QStyleHints` where the platform supports it (Windows 11, macOS), and otherwise, as on
Linux desktops without a colour-scheme setting and the offscreen platform of the tests, with
a palette derived from the current one by inverting its lightness.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette

from engine.report.plots import Theme, theme_for

SCHEMES = ("light", "dark")

_GROUPS = (
    QPalette.ColorGroup.Active,
    QPalette.ColorGroup.Inactive,
    QPalette.ColorGroup.Disabled,
)
_ROLES = tuple(
    role
    for role in QPalette.ColorRole
    if role not in (QPalette.ColorRole.NColorRoles, QPalette.ColorRole.NoRole)
)
#: the lightness range an inverted palette uses
_DARKEST, _SPAN = 0.08, 0.86
#: roles that carry a hue (links, selection, accents): lightened or darkened, not inverted
_ACCENTS = (
    QPalette.ColorRole.Link,
    QPalette.ColorRole.LinkVisited,
    QPalette.ColorRole.Highlight,
    QPalette.ColorRole.Accent,
)


def luminance(colour: QColor) -> float:
    """Relative luminance (WCAG 2.x) of ``colour``, 0 (black) to 1 (white)."""

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(colour.redF())
        + 0.7152 * channel(colour.greenF())
        + 0.0722 * channel(colour.blueF())
    )


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours: 1 (same) to 21 (black on white); text needs 4.5."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def is_dark(palette: QPalette) -> bool:
    """True when the window is darker than its text (a dark colour scheme)."""
    return luminance(palette.color(QPalette.ColorRole.Window)) < luminance(
        palette.color(QPalette.ColorRole.WindowText)
    )


def mix(a: QColor, b: QColor, share: float) -> QColor:
    """``a`` moved ``share`` (0–1) of the way towards ``b``."""
    return QColor.fromRgbF(
        a.redF() + (b.redF() - a.redF()) * share,
        a.greenF() + (b.greenF() - a.greenF()) * share,
        a.blueF() + (b.blueF() - a.blueF()) * share,
        a.alphaF() + (b.alphaF() - a.alphaF()) * share,
    )


def readable(colour: QColor, background: QColor, minimum: float = 4.5) -> QColor:
    """``colour``, made lighter or darker (same hue) until it reads on ``background``."""
    if contrast_ratio(colour, background) >= minimum:
        return QColor(colour)
    towards = QColor.fromRgbF(0, 0, 0) if luminance(background) > 0.18 else QColor.fromRgbF(1, 1, 1)
    for step in range(1, 11):
        candidate = mix(colour, towards, step / 10)
        if contrast_ratio(candidate, background) >= minimum:
            return candidate
    return towards


def high_contrast() -> bool:
    """Whether the user asked the system for high contrast (Windows' contrast themes,
    macOS's "Increase contrast", GNOME's high contrast): then the system's colours are used
    as they are, and nothing is muted."""
    app = QGuiApplication.instance()
    if app is None:
        return False
    hints = app.styleHints()  # kept: the hints object lives only as long as its owner
    accessibility = hints.accessibility()
    return accessibility.contrastPreference() == Qt.ContrastPreference.HighContrast


def muted_text(palette: QPalette) -> QColor:
    """Secondary text (hints, notes): between the text and the background, still readable;
    the text colour itself in high contrast."""
    if high_contrast():
        return palette.color(QPalette.ColorRole.WindowText)
    base = palette.color(QPalette.ColorRole.Window)
    return readable(mix(palette.color(QPalette.ColorRole.WindowText), base, 0.35), base)


def attention_text(palette: QPalette) -> QColor:
    """Text that asks for a look (a suggestion, a warning's emphasis): the link colour."""
    base = palette.color(QPalette.ColorRole.Base)
    return readable(palette.color(QPalette.ColorRole.Link), base)


def plot_theme(palette: QPalette) -> Theme:
    """The matplotlib theme of a preview shown on a widget with ``palette``.

    In high contrast the plots take the system's own colours: the text colour for the
    original values, the selection colour for the released ones, the link colour for the
    reference lines (each made readable on the background).
    """
    background = palette.color(QPalette.ColorRole.Window)
    foreground = palette.color(QPalette.ColorRole.WindowText)
    theme = theme_for(background.name(), foreground.name())
    if not high_contrast():
        return theme
    after = readable(palette.color(QPalette.ColorRole.Highlight), background, 3.0)
    accent = readable(palette.color(QPalette.ColorRole.Link), background, 3.0)
    return replace(theme, before=foreground.name(), after=after.name(), accent=accent.name())


def inverted_palette(palette: QPalette) -> QPalette:
    """``palette`` with its lightness inverted: light ↔ dark, hues kept.

    Neutral roles (window, base, text, buttons, shadows …) are inverted; roles with a hue
    (links, selection, accent) keep their colour but are lightened or darkened until they
    read on the new base colour.
    """
    out = QPalette(palette)
    for group in _GROUPS:
        for role in _ROLES:
            c = palette.color(group, role)
            h, s, light, a = c.getHslF()
            # inverted into [0.08, 0.94] rather than [0, 1]: a window of pure black would hide
            # the outlines of check boxes and radio buttons, drawn a shade off it
            out.setColor(
                group, role, QColor.fromHslF(max(h, 0.0), s, _DARKEST + _SPAN * (1.0 - light), a)
            )
        base = out.color(group, QPalette.ColorRole.Base)
        for role in _ACCENTS:
            out.setColor(group, role, readable(palette.color(group, role), base, 3.0))
        highlight = out.color(group, QPalette.ColorRole.Highlight)
        out.setColor(
            group,
            QPalette.ColorRole.HighlightedText,
            readable(out.color(group, QPalette.ColorRole.HighlightedText), highlight),
        )
    return out


#: the contrast a selected cell's text keeps on its background (WCAG 2.x AA, body text)
SELECTION_CONTRAST = 4.5


def readable_selection(palette: QPalette) -> QPalette:
    """``palette`` with the selection's background darkened or lightened (same hue) until
    the selected text reads on it at :data:`SELECTION_CONTRAST`, in every colour group (a
    table without the focus draws the inactive group's).  Fusion's light selection is 3.2:1
    with white text, its inverted dark one 4.3:1."""
    out = QPalette(palette)
    for group in _GROUPS:
        text = out.color(group, QPalette.ColorRole.HighlightedText)
        background = out.color(group, QPalette.ColorRole.Highlight)
        if contrast_ratio(text, background) >= SELECTION_CONTRAST:
            continue
        # move the background away from the text (darker under light text, lighter under
        # dark text), never the text: its colour is the platform's
        out.setColor(
            group, QPalette.ColorRole.Highlight, readable(background, text, SELECTION_CONTRAST)
        )
    return out


def apply_color_scheme(app: QGuiApplication, scheme: str | None) -> None:
    """Show the app in ``scheme`` ("light" or "dark"; None follows the system, and so does
    high contrast).

    The platform is asked first (QStyleHints.setColorScheme, Qt 6.8); where it cannot switch,
    the app's palette is replaced by :func:`inverted_palette` of the current one.
    """
    if scheme is not None and scheme not in SCHEMES:
        raise ValueError(f"colour scheme must be one of {', '.join(SCHEMES)}, not {scheme!r}")
    if high_contrast():
        return  # the system's high-contrast colours win over a scheme of the app's own
    if scheme is not None:
        dark = scheme == "dark"
        app.styleHints().setColorScheme(Qt.ColorScheme.Dark if dark else Qt.ColorScheme.Light)
        app.processEvents()
        palette = app.palette()
        if is_dark(palette) != dark:
            app.setPalette(inverted_palette(palette))
    app.setPalette(readable_selection(app.palette()))
