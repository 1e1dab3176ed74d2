"""Small widgets shared by the pages: progress with Cancel, embedded figures, hints."""

from __future__ import annotations

from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
from matplotlib.figure import Figure
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from gui.worker import TaskRunner


class ProgressPanel(QFrame):
    """A progress bar, what is being done, and Cancel; hidden while nothing long runs."""

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = QLabel()
        self.message = QLabel()
        self.message.setMinimumWidth(200)
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setTextVisible(True)
        self.bar.setFormat("%p%")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop the running task; nothing is written (Esc)")
        self.cancel_button.setShortcut(Qt.Key.Key_Escape)
        self.cancel_button.clicked.connect(self._cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.bar, 1)
        layout.addWidget(self.message, 1)
        layout.addWidget(self.cancel_button)
        runner.show_progress.connect(self._show)
        runner.progress.connect(self._update)
        runner.busy_changed.connect(self._busy)
        self.hide()

    def _show(self, title: str) -> None:
        self.title.setText(f"<b>{title}</b>")
        self.cancel_button.setEnabled(True)
        self.cancel_button.setText("Cancel")
        self.show()

    def _update(self, fraction: float, message: str) -> None:
        self.bar.setValue(round(fraction * 1000))
        if message:
            self.message.setText(message)

    def _busy(self, busy: bool) -> None:
        if busy:
            self.bar.setValue(0)
            self.message.setText("")
        else:
            self.hide()

    def _cancel(self) -> None:
        self.cancel_button.setEnabled(False)
        self.cancel_button.setText("Cancelling…")
        self.runner.cancel()


class FigureView(QWidget):
    """A matplotlib figure embedded in Qt (``backend_qtagg``), replaceable in place."""

    def __init__(self, parent: QWidget | None = None, placeholder: str = "") -> None:
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.canvas: FigureCanvasQTAgg | None = None
        self.placeholder = QLabel(placeholder)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self._layout.addWidget(self.placeholder)
        self.setMinimumHeight(260)

    @property
    def figure(self) -> Figure | None:
        return None if self.canvas is None else self.canvas.figure

    def set_figure(self, figure: Figure | None) -> None:
        if self.canvas is not None:
            self._layout.removeWidget(self.canvas)
            self.canvas.setParent(None)
            self.canvas.deleteLater()
            self.canvas = None
        if figure is None:
            self.placeholder.show()
            return
        self.placeholder.hide()
        self.canvas = FigureCanvasQTAgg(figure)
        self.canvas.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self._layout.addWidget(self.canvas)


def rich_text_css(widget: QWidget) -> str:
    """A stylesheet for the engine's HTML fragments, in the colours of ``widget``'s palette.

    The guarantees and summaries use the classes ``guarantee``, ``vals``, ``assume``,
    ``source`` and ``caveats``; their colours come from palette roles, so the text stays
    readable in a dark colour scheme.
    """
    pal = widget.palette()
    muted = pal.color(QPalette.ColorRole.PlaceholderText).name()
    accent = pal.color(QPalette.ColorRole.Link).name()
    return (
        f"h3 {{ color: {accent}; margin-bottom: 2px; }}"
        f".vals, .source, .assume, .muted {{ color: {muted}; }}"
        ".source, .vals { font-size: small; }"
        ".guarantee { margin-bottom: 10px; }"
    )


class Hint(QLabel):
    """A word-wrapped explanatory line, or a warning, in the palette's colours."""

    changed = Signal()

    def __init__(self, text: str = "", warning: bool = False) -> None:
        super().__init__(text)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.set_warning(warning)

    def set_warning(self, warning: bool) -> None:
        """A warning is bold in the text colour; a hint is in the muted placeholder colour."""
        self.setForegroundRole(
            QPalette.ColorRole.WindowText if warning else QPalette.ColorRole.PlaceholderText
        )
        font = self.font()
        font.setBold(warning)
        self.setFont(font)
