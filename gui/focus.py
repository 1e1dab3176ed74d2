"""A visible focus ring around whichever control has the keyboard focus.

Whether a style shows the focus depends on the platform and the widget: Fusion marks a
focused line edit but not a focused combo box, text browser, tab bar, tool button or plot.
A keyboard user must always see where the focus is (EN 301 549 11.2.4.7, WCAG 2.4.7), so
the app draws its own ring: a frame in the palette's highlight colour (made readable on the
window colour) laid over the focused control, the same on every platform and in light, dark
and high-contrast schemes.  It lets the mouse through and follows the focus, its moves and
its resizes.
"""

from __future__ import annotations

from contextlib import suppress
from functools import partial

from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QMenu, QMenuBar, QWidget

from gui.theme import readable

#: the ring's width in pixels, and the gap between it and the control
WIDTH = 2
GAP = 1


class FocusRing(QWidget):
    """The ring itself: a transparent child of a window, painted around one control."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setObjectName("focusRing")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.target: QWidget | None = None
        self.hide()

    def follow(self, target: QWidget | None) -> None:
        """Surround ``target`` (None: hide)."""
        self.target = target
        self.place()

    def place(self) -> None:
        target = self.target
        window = self.parentWidget()
        if target is None or window is None or not target.isVisible():
            self.hide()
            return
        visible = target.visibleRegion().boundingRect()
        if visible.isEmpty():
            self.hide()
            return
        top_left = target.mapTo(window, visible.topLeft())
        margin = WIDTH + GAP
        rect = QRect(top_left, visible.size()).adjusted(-margin, -margin, margin, margin)
        self.setGeometry(rect.intersected(window.rect()))
        self.raise_()
        self.show()
        self.update()

    def paintEvent(self, event) -> None:
        palette = self.palette()
        colour = readable(
            palette.color(QPalette.ColorRole.Highlight),
            palette.color(QPalette.ColorRole.Window),
            3.0,
        )
        painter = QPainter(self)
        pen = QPen(colour)
        pen.setWidth(WIDTH)
        pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        painter.setPen(pen)
        half = WIDTH // 2
        painter.drawRect(self.rect().adjusted(half, half, -half - 1, -half - 1))
        painter.end()


class FocusRings(QObject):
    """Keeps one :class:`FocusRing` per window on the control that has the focus."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self._rings: dict[int, FocusRing] = {}
        self._watched: QWidget | None = None
        app.focusChanged.connect(self._focus_changed)

    def ring(self, window: QWidget) -> FocusRing:
        ring = self._rings.get(id(window))
        if ring is None or ring.parentWidget() is not window:
            key = id(window)
            ring = self._rings[key] = FocusRing(window)
            window.destroyed.connect(partial(self._forget, key))
        return ring

    def _forget(self, key: int, *_args: object) -> None:
        self._rings.pop(key, None)

    def _focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        if self._watched is not None:
            with suppress(RuntimeError):  # the control may be gone already
                self._watched.removeEventFilter(self)
            self._watched = None
        for ring in list(self._rings.values()):
            try:
                if ring.target is old or ring.target is None:
                    ring.follow(None)
            except RuntimeError:
                continue
        if new is None or isinstance(new, (QMenu, QMenuBar)) or new.window() is new:
            return
        ring = self.ring(new.window())
        ring.follow(new)
        new.installEventFilter(self)
        self._watched = new

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (
            QEvent.Type.Move,
            QEvent.Type.Resize,
            QEvent.Type.Show,
            QEvent.Type.Hide,
        ) and isinstance(watched, QWidget):
            window = watched.window()
            ring = self._rings.get(id(window))
            if ring is not None and ring.target is watched:
                ring.place()
        return False


def install(app: QApplication) -> FocusRings:
    """Show a focus ring in every window of ``app`` (once per application)."""
    existing = app.findChild(FocusRings)
    return existing if existing is not None else FocusRings(app)
