"""Small widgets shared by the pages: progress with Cancel, embedded figures, hints, and the
lists of choices that several pages offer (built once, so that they read and translate alike)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd
from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
from matplotlib.figure import Figure
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeyEvent, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QBoxLayout,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QSizePolicy,
    QSpinBox,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from engine.report.plots import apply_theme
from gui.table_model import DataFrameModel
from gui.theme import attention_text, muted_text, plot_theme
from gui.worker import TaskRunner

translate = QCoreApplication.translate


#: what a setting shows when tclose detects or chooses it itself
AUTOMATIC = QT_TRANSLATE_NOOP("Choices", "automatic")
#: the characters between the values of a CSV file (None: detected when the file is read)
SEPARATOR_LABELS = {
    None: AUTOMATIC,
    ",": QT_TRANSLATE_NOOP("Choices", "comma ,"),
    ";": QT_TRANSLATE_NOOP("Choices", "semicolon ;"),
    "\t": QT_TRANSLATE_NOOP("Choices", "tab"),
    "|": QT_TRANSLATE_NOOP("Choices", "bar |"),
}
#: the decimal marks of the numbers in a CSV file (None: detected when the file is read)
DECIMAL_LABELS = {
    None: AUTOMATIC,
    ".": QT_TRANSLATE_NOOP("Choices", "point ."),
    ",": QT_TRANSLATE_NOOP("Choices", "comma ,"),
}


def choice_label(label: str) -> str:
    """A label of this module's tables (marked in the context "Choices") in the app's language.

    The import and the export page offer the same separators and decimal marks, and several
    settings can be "automatic": one context gives each label one translation.
    """
    return translate("Choices", label)


def translated_choices(values: Iterable[Any], labels: Mapping[Any, str]) -> dict[Any, str]:
    """``values`` with their labels in ``labels`` (one of this module's tables), translated."""
    return {value: choice_label(labels[value]) for value in values}


def choice_box(choices: Mapping[Any, str], tip: str) -> QComboBox:
    """A combo box offering the keys of ``choices`` (an item's data) by their labels."""
    box = QComboBox()
    for value, label in choices.items():
        box.addItem(label, value)
    box.setToolTip(tip)
    return box


def check_box(text: str, tip: str, *, checked: bool = False) -> QCheckBox:
    """A check box with its tooltip (what ticking it does), ticked or not to begin with."""
    box = QCheckBox(text)
    box.setChecked(checked)
    box.setToolTip(tip)
    return box


def explained_choice_box(choices: Mapping[Any, tuple[str, str]], tip: str) -> QComboBox:
    """A combo box offering the keys of ``choices`` by their labels; each item's tooltip
    explains it (``choices`` maps a value to its label and its explanation)."""
    box = choice_box({value: label for value, (label, _) in choices.items()}, tip)
    for index, (_, explanation) in enumerate(choices.values()):
        box.setItemData(index, explanation, Qt.ItemDataRole.ToolTipRole)
    return box


def add_with_label(layout: QBoxLayout, text: str, field: QWidget) -> None:
    """Add ``field`` to ``layout`` after a label; the label's accelerator (``&`` in ``text``)
    moves the focus to the field."""
    label = QLabel(text)
    label.setBuddy(field)
    layout.addWidget(label)
    layout.addWidget(field)


def radio_buttons(parent: QObject, *choices: tuple[str, str]) -> list[QRadioButton]:
    """One radio button per (label, tooltip) of ``choices``, tied so that one at a time is
    checked wherever they are laid out (by a button group that ``parent`` keeps)."""
    group = QButtonGroup(parent)
    buttons = []
    for label, tip in choices:
        button = QRadioButton(label)
        button.setToolTip(tip)
        group.addButton(button)
        buttons.append(button)
    return buttons


def mnemonic_of(text: str) -> str:
    """The letter of a label's keyboard shortcut (the one after a single "&"), lower case;
    "" when it has none ("&&" is a plain "&")."""
    found = re.search(r"(?<!&)(?:&&)*&([^&\s])", text)
    return found.group(1).lower() if found else ""


def mnemonics_under(root: QWidget) -> set[str]:
    """The shortcut letters of ``root``'s labels and buttons, and of those within it."""
    widgets = [root, *root.findChildren(QLabel), *root.findChildren(QAbstractButton)]
    return {
        letter
        for w in widgets
        if isinstance(w, QLabel | QAbstractButton) and (letter := mnemonic_of(w.text()))
    }


def with_mnemonic(text: str, taken: set[str]) -> str:
    """``text`` with a keyboard shortcut on its first letter not in ``taken`` (as it was when
    it has one already, or when every letter is taken)."""
    if mnemonic_of(text):
        return text
    for i, char in enumerate(text):
        if char.isalnum() and char.lower() not in taken:
            return text[:i] + "&" + text[i:]
    return text


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
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop the running task; nothing is written (Esc)"))
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
        self.title.setText(f"<b>{html.escape(title)}</b>")
        self.cancel_button.setEnabled(True)
        self.cancel_button.setText(self.tr("Cancel"))
        self.show()

    def _update(self, fraction: float, message: str) -> None:
        self.bar.setValue(round(fraction * 1000))
        if message:
            # the app's own steps are marked for translation in the context "Progress"; the
            # engine's stay in English
            self.message.setText(QCoreApplication.translate("Progress", message))

    def _busy(self, busy: bool) -> None:
        # Esc cancels from whichever control has the focus: while a task runs, the panel
        # sees the key before the control does (a text field, a spin box, a table or a
        # browser would otherwise take Esc for itself, and the button's shortcut never fire)
        app = QApplication.instance()
        if busy:
            self.bar.setValue(0)
            self.message.setText("")
            self.cancel_button.setEnabled(True)  # a new task: the last one's "Cancelling…"
            self.cancel_button.setText(self.tr("Cancel"))  # is over
            if app is not None:
                app.installEventFilter(self)
        else:
            if app is not None:
                app.removeEventFilter(self)
            self.hide()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Esc in this panel's window cancels the running task (a popup list or menu that
        is open takes it first, to close)."""
        if (
            event.type() in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress)
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
            and event.modifiers() == Qt.KeyboardModifier.NoModifier
            and isinstance(watched, QWidget)
            and watched.window() is self.window()
            and QApplication.activePopupWidget() is None
            and self.runner.busy
        ):
            if event.type() == QEvent.Type.KeyPress and self.cancel_button.isEnabled():
                self._cancel()
            event.accept()
            return True
        return False

    def _cancel(self) -> None:
        self.cancel_button.setEnabled(False)
        self.cancel_button.setText(self.tr("Cancelling…"))
        self.runner.cancel()


@dataclass(frozen=True)
class FigureText:
    """What a plot says without its picture: its name, its point, and its data.

    A screen reader announces ``title`` and ``description`` when the plot takes the focus;
    ``table`` holds the numbers drawn (a column per series), which the view shows as a
    table at the press of a button, in the reader's number conventions.
    """

    title: str
    description: str
    table: pd.DataFrame | None = None


class FigureView(QWidget):
    """A matplotlib figure embedded in Qt (``backend_qtagg``), replaceable in place, with its
    text alternative: an accessible name and description (:class:`FigureText`) and its data
    as a table ("Show the data as a table" switches between the two)."""

    def __init__(self, parent: QWidget | None = None, placeholder: str = "") -> None:
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.canvas: FigureCanvasQTAgg | None = None
        self.text: FigureText | None = None
        self.placeholder = QLabel(placeholder)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.table_button = QToolButton()
        self.table_button.setText(self.tr("Show the data as a table"))
        self.table_button.setCheckable(True)
        self.table_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.table_button.toggled.connect(self._show_table)
        self.table_button.hide()
        self.table_model = DataFrameModel()
        self.table = QTableView()
        self.table.setModel(self.table_model)
        self.table.setTabKeyNavigation(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.horizontalHeader().setResizeContentsPrecision(50)
        self.sizer = ColumnSizer(self.table)
        self.table.setAccessibleName(self.tr("Data of the plot"))
        self.table.hide()
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addStretch(1)
        top.addWidget(self.table_button)
        self._layout.addLayout(top)
        self._layout.addWidget(self.placeholder, 1)
        self._layout.addWidget(self.table, 1)
        self.setAccessibleName(placeholder)
        self.setAccessibleDescription(placeholder)
        self.setMinimumHeight(260)

    @property
    def figure(self) -> Figure | None:
        return None if self.canvas is None else self.canvas.figure

    @property
    def has_table(self) -> bool:
        """Whether the plot's data can be read as a table."""
        return self.text is not None and self.text.table is not None

    def set_figure(self, figure: Figure | None, text: FigureText | None = None) -> None:
        """Show ``figure`` (None: the placeholder), in the colours of this widget's palette,
        with ``text`` as its name, description and data."""
        if self.canvas is not None:
            self._layout.removeWidget(self.canvas)
            self.canvas.setParent(None)
            self.canvas.deleteLater()
            self.canvas = None
        self.text = text if figure is not None else None
        name = self.text.title if self.text else self.placeholder.text()
        description = self.text.description if self.text else self.placeholder.text()
        self.setAccessibleName(name)
        self.setAccessibleDescription(description)
        self.table_model.set_frame(self.text.table if self.text else None)
        self.table.setAccessibleName(self.tr("Data of the plot: {title}").format(title=name))
        self.table_button.setVisible(self.has_table)
        self.table_button.setAccessibleDescription(description)
        if figure is None:
            self.table_button.setChecked(False)
            self.table.hide()
            self.placeholder.show()
            return
        self.placeholder.hide()
        apply_theme(figure, plot_theme(self.palette()))
        self.canvas = FigureCanvasQTAgg(figure)
        self.canvas.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        # the plot takes the focus, so that a screen reader says what it shows
        self.canvas.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.canvas.setAccessibleName(name)
        self.canvas.setAccessibleDescription(description)
        self._layout.insertWidget(1, self.canvas, 1)
        self._show_table(self.table_button.isChecked() and self.has_table)

    def _show_table(self, shown: bool) -> None:
        if self.canvas is not None:
            self.canvas.setVisible(not shown)
        self.table.setVisible(shown)
        # the button says what pressing it does next
        self.table_button.setText(
            self.tr("Show the plot") if shown else self.tr("Show the data as a table")
        )

    def changeEvent(self, event: QEvent) -> None:
        # the system switched between light and dark: the figure follows
        if event.type() == QEvent.Type.PaletteChange and self.canvas is not None:
            apply_theme(self.canvas.figure, plot_theme(self.palette()))
            self.canvas.draw_idle()
        super().changeEvent(event)


def rich_text_css(widget: QWidget) -> str:
    """A stylesheet for the engine's HTML fragments, in the colours of ``widget``'s palette.

    The guarantees and summaries use the classes ``guarantee``, ``vals``, ``assume``,
    ``source`` and ``caveats``; their colours come from palette roles, so the text stays
    readable in a dark colour scheme.
    """
    pal = widget.palette()
    muted = muted_text(pal).name()
    accent = attention_text(pal).name()
    return (
        f"h3 {{ color: {accent}; margin-bottom: 2px; }}"
        f".vals, .source, .assume, .muted {{ color: {muted}; }}"
        ".source, .vals { font-size: small; }"
        ".guarantee { margin-bottom: 10px; }"
        ".plain { font-size: large; }"
    )


def _inherited_palette(widget: QWidget) -> QPalette:
    """The palette ``widget`` would have without colours of its own (its parent's)."""
    parent = widget.parentWidget()
    return parent.palette() if parent is not None else QApplication.palette(widget)


class Hint(QLabel):
    """A word-wrapped explanatory line, or a warning, in colours derived from the palette.

    A hint is in a muted text colour (between text and window, but with a readable contrast);
    a warning is bold in the text colour.  Both follow a change of colour scheme.
    """

    changed = Signal()

    def __init__(self, text: str = "", warning: bool = False) -> None:
        super().__init__(text)
        self._warning = warning
        self._recolouring = False
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.set_warning(warning)

    @property
    def warning(self) -> bool:
        return self._warning

    def set_warning(self, warning: bool) -> None:
        """Show the text as a warning (bold, full contrast) or as a hint (muted)."""
        self._warning = warning
        font = self.font()
        font.setBold(warning)
        self.setFont(font)
        self._recolour()

    def _recolour(self) -> None:
        if self._recolouring:
            return
        self._recolouring = True
        try:
            inherited = _inherited_palette(self)
            palette = self.palette()
            colour = (
                inherited.color(QPalette.ColorRole.WindowText)
                if self._warning
                else muted_text(inherited)
            )
            palette.setColor(QPalette.ColorRole.WindowText, colour)
            palette.setColor(QPalette.ColorRole.Text, colour)
            self.setPalette(palette)
        finally:
            self._recolouring = False

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ParentChange):
            self._recolour()
        super().changeEvent(event)


class StaleCover(QWidget):
    """A translucent cover over results that no longer match the settings ("out of date").

    It is laid over ``target`` (and follows its size); the results stay visible, greyed by
    the window colour, and stay scrollable: the cover lets the mouse through.
    """

    def __init__(self, target: QWidget) -> None:
        super().__init__(target)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.label = QLabel(self)
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setWordWrap(True)
        font = self.label.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.3)
        self.label.setFont(font)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label, 0, Qt.AlignmentFlag.AlignCenter)
        target.installEventFilter(self)
        self.setGeometry(target.rect())
        self.hide()

    def show_text(self, text: str) -> None:
        self.label.setText(text)
        self.setGeometry(self.parentWidget().rect())
        self.raise_()
        self.show()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.parentWidget() and event.type() == QEvent.Type.Resize:
            self.setGeometry(self.parentWidget().rect())
        return False

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        window = self.palette().color(QPalette.ColorRole.Window)
        cover = QColor(window)
        cover.setAlphaF(0.72)
        painter.fillRect(self.rect(), cover)
        painter.end()


class ColumnSizer(QObject):
    """Sizes a table view's columns to their contents as they come into view.

    ``resizeColumnsToContents`` measures every column: a file with 10,000 columns kept the
    window frozen for most of a minute.  Here only the columns inside the viewport are
    measured (from a sample of rows, see ``setResizeContentsPrecision``), each once, when
    the table is shown, resized or scrolled sideways.  ``measured`` counts them.
    """

    def __init__(self, view: QAbstractItemView, max_width: int = 320, padding: int = 16) -> None:
        super().__init__(view)
        self.max_width = max_width
        self.padding = padding
        self.sized: set[int] = set()
        self.measured = 0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.size_visible)
        view.horizontalScrollBar().valueChanged.connect(lambda _value: self._timer.start())
        view.viewport().installEventFilter(self)
        self._model = None
        self.watch_model()

    @property
    def view(self) -> QAbstractItemView:
        """The view sized: Qt's parent of this object, not held here, so the two make no
        reference cycle for Python's collector to break in an unlucky order."""
        return self.parent()

    def watch_model(self) -> None:
        """Follow the view's model (call again after ``setModel``)."""
        model = self.view.model()
        if model is self._model or model is None:
            return
        self._model = model
        model.modelReset.connect(self.reset)
        model.layoutChanged.connect(self.reset)

    def reset(self) -> None:
        """The columns changed: forget what was sized and size what is in view."""
        self.sized.clear()
        self._timer.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            self._timer.start()
        return False

    def size_visible(self) -> int:
        """Size the columns in view not sized yet; returns how many were measured now."""
        view = self.view
        header = view.horizontalHeader()
        model = view.model()
        count = model.columnCount() if model is not None else 0
        if count == 0:
            return 0
        first = header.logicalIndexAt(0)
        visual = header.visualIndex(first) if first >= 0 else 0
        x = header.sectionViewportPosition(header.logicalIndex(visual))
        width = view.viewport().width()
        done = 0
        while visual < count and x < width:
            logical = header.logicalIndex(visual)
            if logical not in self.sized and not header.isSectionHidden(logical):
                view.resizeColumnToContents(logical)
                view.setColumnWidth(
                    logical, min(view.columnWidth(logical) + self.padding, self.max_width)
                )
                self.sized.add(logical)
                done += 1
            x += header.sectionSize(logical)
            visual += 1
        self.measured += done
        return done


class Lead(QLabel):
    """The sentence a page leads with: word-wrapped, a little larger than the body text."""

    def __init__(self, text: str = "") -> None:
        super().__init__(text)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        font = self.font()
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.setFont(font)


class DisclosureButton(QToolButton):
    """A "Details" line that folds a section in and out; its arrow points right while the
    section is folded and down while it shows.  The page connects ``toggled`` to the section."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setText(text)
        self.setCheckable(True)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.setAutoRaise(True)
        self._point_arrow(False)
        self.toggled.connect(self._point_arrow)

    def _point_arrow(self, shown: bool) -> None:
        self.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)


class GroupSizeSpin(QSpinBox):
    """The smallest group size k, as the privacy and the preview page let the user set it."""

    def __init__(self, tip: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRange(1, 1_000_000)
        self.setToolTip(tip)


class BucketSpin(QSpinBox):
    """The number of buckets b, or "automatic" (the engine searches b).

    "automatic" sits at 1, never a valid b (a bucket per class would say nothing), so that
    one step up from it is b = 2 and no value the box can show is refused by the engine.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRange(1, 1000)
        self.setSpecialValueText(choice_label(AUTOMATIC))
        self.setToolTip(
            self.tr(
                "How many buckets the confidential values are grouped into; 'automatic' lets "
                "the engine choose for t and k. More buckets keep more detail but need larger "
                "groups."
            )
        )

    def buckets(self) -> int | None:
        """b, or None for "automatic"."""
        return self.value() if self.value() >= 2 else None

    def set_buckets(self, b: int | None) -> None:
        self.setValue(b or 1)
