"""Step 1: open a spreadsheet and check that it was read as intended."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QTextDocumentFragment
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QStyle,
    QTableView,
    QVBoxLayout,
    QWidget,
)

import engine.io
from engine import Task
from engine.io import ImportResult, ReadOptions
from engine.io.formats import FORMATS, open_patterns, read_by
from gui import settings
from gui.accessibility import announce
from gui.engine_process import run_engine
from gui.errors import report_error
from gui.help import HelpButton
from gui.i18n import format_label
from gui.numbers import number
from gui.pages.host import Host, Page
from gui.state import ColumnAnalysis, read_and_analyse
from gui.table_model import DataFrameModel
from gui.widgets import (
    AUTOMATIC,
    DECIMAL_LABELS,
    SEPARATOR_LABELS,
    ColumnSizer,
    Hint,
    choice_box,
    choice_label,
    translated_choices,
)
from resources import SAMPLE_WORKBOOK

WORKBOOK_SUFFIXES = frozenset(read_by("workbook"))
#: what the reader takes for each choice (None: detect)
SEPARATORS = (None, ",", ";", "\t", "|")
ENCODINGS = (None, "utf-8", "cp1252", "latin-1", "utf-16")
DECIMALS = (None, ".", ",")
#: widest a column of the preview starts (pixels); the user can widen it
MAX_COLUMN_WIDTH = 320


class ImportPage(Page):
    """Open dialog, drag and drop, recent files, the sample; reading options; a preview."""

    loaded = Signal()

    def __init__(self, wizard: Host) -> None:
        super().__init__(wizard)
        self.setTitle(self.tr("1. Import"))
        self.setSubTitle(
            self.tr(
                "Open the spreadsheet that holds one row per person (CSV, Excel, "
                "OpenDocument, Parquet, SPSS, Stata). You can also drop a file on this window."
            )
        )
        self.setAcceptDrops(True)
        # the widgets are made in the order the keyboard reaches them
        self._open_widgets()
        self._reading_options()
        self.info = Hint(self.tr("No file open yet; Next is enabled once a table has been read."))
        self.info.setTextFormat(Qt.TextFormat.RichText)
        self._rows_table()
        layout = QVBoxLayout(self)
        layout.addLayout(self._top_row())
        layout.addWidget(self.info)
        layout.addWidget(self._drop_zone_or_rows(), 1)
        self._refresh_recent()
        self._update_options()

    # --- building ------------------------------------------------------------------------
    def _open_widgets(self) -> None:
        """Open file…, Open the sample, and the recent files."""
        # Ctrl+O belongs to File › Open… alone: bound here too, Qt would call the shortcut
        # ambiguous and do nothing on this page
        self.open_button = QPushButton(self.tr("&Open file…"))
        self.open_button.setToolTip(self.tr("Choose a CSV or Excel file to anonymize (Ctrl+O)"))
        self.open_button.clicked.connect(self.choose_file)
        self.sample_button = QPushButton(self.tr("Open the &sample"))
        self.sample_button.setToolTip(
            self.tr("Open a small made-up survey (400 people) to try tclose without your own data")
        )
        self.sample_button.clicked.connect(self.open_sample)
        style = self.style()
        self.open_button.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_DialogOpenButton))
        self.sample_button.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_FileIcon))
        for button in (self.open_button, self.sample_button):
            button.setMinimumHeight(34)
            button.setMinimumWidth(170)
        self.recent = QListWidget()
        self.recent.setToolTip(
            self.tr("Recently opened files; press Enter or double-click to open one")
        )
        self.recent.setMaximumHeight(90)
        self.recent.itemActivated.connect(self._open_recent)

    def _reading_options(self) -> None:
        """How the file is read: sheet, separator, encoding, decimal mark, header row."""
        self.sheet = QComboBox()
        self.sheet.setToolTip(self.tr("The worksheet of the workbook to read"))
        self.sheet.activated.connect(lambda _index: self.read_again())
        self.separator = choice_box(
            translated_choices(SEPARATORS, SEPARATOR_LABELS),
            self.tr("The character between values in a text file"),
        )
        self.encoding = choice_box(
            {value: value or choice_label(AUTOMATIC) for value in ENCODINGS},
            self.tr("How the text file's characters are stored"),
        )
        self.decimal = choice_box(
            translated_choices(DECIMALS, DECIMAL_LABELS),
            self.tr(
                "The decimal mark of numbers in a text file, or of numbers stored as text in a "
                "workbook (3.549,40)"
            ),
        )
        self.header_row = QSpinBox()
        self.header_row.setRange(0, 1000)
        self.header_row.setSpecialValueText(choice_label(AUTOMATIC))
        self.header_row.setToolTip(
            self.tr("The row that holds the column names (1 = first row); rows above it are titles")
        )
        self.reread = QPushButton(self.tr("&Read again"))
        self.reread.setToolTip(self.tr("Read the file again with the options chosen here"))
        self.reread.clicked.connect(self.read_again)

    def _rows_table(self) -> None:
        """The rows of the file, in a table that formats only what is in view."""
        self.table = QTableView()
        self.table.setAccessibleName(self.tr("Rows of the file"))
        self.table.setToolTip(
            self.tr("All rows can be scrolled; only the visible ones are formatted.")
        )
        self.model = DataFrameModel()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        # Tab leaves the table (to Next and the other controls) instead of walking its cells
        self.table.setTabKeyNavigation(False)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(22)
        for header in (self.table.horizontalHeader(), self.table.verticalHeader()):
            header.setResizeContentsPrecision(50)  # size columns by a sample, not every row
        self.table.horizontalHeader().setStretchLastSection(True)
        # only the columns in view are sized, as they scroll in: a file of 10,000 columns
        # would otherwise keep the window frozen while every column is measured
        self.sizer = ColumnSizer(self.table, MAX_COLUMN_WIDTH)

    def _top_row(self) -> QHBoxLayout:
        """The open buttons, the recent files, how the file is read, and help."""
        top = QHBoxLayout()
        buttons = QVBoxLayout()
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.sample_button)
        buttons.addStretch(1)
        top.addLayout(buttons)
        recent_box = QGroupBox(self.tr("Recent files"))
        QVBoxLayout(recent_box).addWidget(self.recent)
        top.addWidget(recent_box, 2)
        options = QGroupBox(self.tr("How the file is read"))
        form = QFormLayout(options)
        form.addRow(self.tr("Sheet:"), self.sheet)
        form.addRow(self.tr("Separator:"), self.separator)
        form.addRow(self.tr("Encoding:"), self.encoding)
        form.addRow(self.tr("Decimal mark:"), self.decimal)
        form.addRow(self.tr("Header row:"), self.header_row)
        form.addRow(self.reread)
        top.addWidget(options, 2)
        top.addWidget(HelpButton("step-1-import", self), 0, Qt.AlignmentFlag.AlignTop)
        return top

    def _drop_zone_or_rows(self) -> QStackedWidget:
        """Where a file can be dropped until one is read, then its rows."""
        self.empty = Hint(
            self.tr(
                "Drop a CSV or Excel file here, click <b>Open file…</b>,<br>"
                "or try tclose on the bundled sample with <b>Open the sample</b>."
            )
        )
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setObjectName("dropZone")  # resources/style.qss draws its dashed border
        larger = self.empty.font()
        larger.setPointSizeF(larger.pointSizeF() * 1.2)  # relative: the system's size scales it
        self.empty.setFont(larger)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.table)
        return self.stack

    # --- wizard protocol ---------------------------------------------------------------
    def first_input(self) -> QWidget:
        """The control the focus starts on when the page is shown."""
        return self.open_button

    def isComplete(self) -> bool:
        return self.session.data is not None and not self._wizard.runner.busy

    # --- actions -------------------------------------------------------------------------
    def choose_file(self) -> None:
        filters = ";;".join(
            (
                self.tr("Tables") + f" ({open_patterns()})",
                *(f"{format_label(f)} ({f.patterns})" for f in FORMATS),
                self.tr("All files") + " (*)",
            )
        )
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Open a table"), settings.last_folder(), filters
        )
        if path:
            self.open_path(Path(path))

    def open_sample(self) -> None:
        self.open_path(SAMPLE_WORKBOOK)

    def _open_recent(self, item: QListWidgetItem) -> None:
        path = item.data(Qt.ItemDataRole.UserRole)
        if path:
            self.open_path(Path(path))

    def read_again(self) -> None:
        if self.session.path is not None:
            options = ReadOptions(
                sheet=self.sheet.currentText() or None,
                sep=self.separator.currentData(),
                encoding=self.encoding.currentData(),
                decimal=self.decimal.currentData(),
                header_row=self.header_row.value() - 1 if self.header_row.value() else None,
            )
            self.open_path(self.session.path, options)

    def open_path(self, path: Path, options: ReadOptions | None = None) -> None:
        """Read ``path`` on the worker thread; the page updates when it is done.

        Without ``options`` every reading setting is detected.
        """
        if self._wizard.runner.busy:
            return
        path = Path(path)

        def work(task: Task):
            return run_engine(read_and_analyse, path, options=options, task=task)

        self.info.setText(self.tr("Reading {name}…").format(name=html.escape(path.name)))
        self.info.set_warning(False)
        self._wizard.runner.start(
            work,
            title=self.tr("Reading {name}").format(name=path.name),
            on_finished=self._loaded,
            on_failed=self._failed,
            on_cancelled=lambda: self.info.setText(self.tr("Reading was cancelled.")),
        )
        self.completeChanged.emit()

    def _loaded(self, loaded: tuple[ImportResult, ColumnAnalysis]) -> None:
        result, analysis = loaded
        self.session.set_data(result.data, result.info, analysis)
        if Path(result.info.path).resolve() != SAMPLE_WORKBOOK.resolve():
            settings.add_recent_file(Path(result.info.path))
        self.show_session()
        self.loaded.emit()

    def show_session(self) -> None:
        """Show the session's table (after a read, or after a project was opened)."""
        if self.session.data is None:
            return
        self.model.set_frame(self.session.data)
        self.stack.setCurrentWidget(self.table)
        self.table.horizontalScrollBar().setValue(0)
        self.sizer.size_visible()
        self._refresh_recent()
        self._update_options()
        self._describe()
        announce(self, QTextDocumentFragment.fromHtml(self.info.text()).toPlainText())
        self.completeChanged.emit()

    def _failed(self, err: BaseException, detail: str) -> None:
        self.info.setText(
            self.tr("The file could not be read: {error}").format(error=html.escape(str(err)))
        )
        self.info.set_warning(True)
        report_error(self, self.tr("Import"), err, detail)
        self.completeChanged.emit()

    # --- display -------------------------------------------------------------------------
    def describe_settings(self) -> list[str]:
        """What was read, setting by setting, with "(detected)" where tclose guessed it."""
        info = self.session.info
        if info is None:
            return []
        guessed = set(info.guessed)
        detected = self.tr("{setting} (detected)")

        def setting(name: str, text: str) -> str:
            return detected.format(setting=text) if name in guessed else text

        details = [self.tr("format {format}").format(format=info.format)]
        if info.sheet:
            details.append(setting("sheet", self.tr("sheet “{sheet}”").format(sheet=info.sheet)))
        if info.separator:
            shown = (
                choice_label(SEPARATOR_LABELS["\t"])
                if info.separator == "\t"
                else repr(info.separator)
            )
            details.append(
                setting("separator", self.tr("separator {separator}").format(separator=shown))
            )
        if info.encoding:
            details.append(
                setting("encoding", self.tr("encoding {encoding}").format(encoding=info.encoding))
            )
        if info.decimal:
            details.append(
                setting("decimal", self.tr("decimal mark {mark}").format(mark=repr(info.decimal)))
            )
        if info.header_row:
            details.append(
                setting(
                    "header_row",
                    self.tr("header on row {row}").format(row=number(info.header_row + 1)),
                )
            )
        return details

    def _describe(self) -> None:
        info = self.session.info
        if info is None:
            return
        name = html.escape(Path(info.path).name)
        text = "<b>{name}</b>: {shape} — {details}".format(
            name=name,
            shape=self.tr("{rows} rows × {columns} columns").format(
                rows=number(info.n_rows), columns=number(info.n_columns)
            ),
            details=html.escape(", ".join(self.describe_settings())),
        )
        notes = list(info.notes)  # the readers say each renamed column, in the reader's language
        if notes:
            text += "<br>" + "<br>".join(f"• {html.escape(note)}" for note in notes)
        self.info.setText(text)
        self.info.set_warning(False)

    def _refresh_recent(self) -> None:
        self.recent.clear()
        for path in settings.recent_files():
            item = QListWidgetItem(path.name)
            item.setToolTip(str(path))
            item.setData(Qt.ItemDataRole.UserRole, str(path))
            self.recent.addItem(item)
        if self.recent.count() == 0:
            item = QListWidgetItem(self.tr("(none yet)"))
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.recent.addItem(item)

    def _update_options(self) -> None:
        """Show the reading options that apply to the open file and select what was detected.

        Separator and encoding apply to text files; the decimal mark to text files and to
        numbers stored as text in a workbook; the sheet to workbooks with several sheets.
        """
        info = self.session.info
        path = self.session.path
        is_book = path is not None and path.suffix.lower() in WORKBOOK_SUFFIXES
        sheets: list[str] = list(info.sheets) if info is not None else []
        if is_book and not sheets:
            try:
                sheets = list(engine.io.list_sheets(path))
            except Exception:
                sheets = []
        self.sheet.blockSignals(True)
        self.sheet.clear()
        self.sheet.addItems(sheets)
        if info is not None and info.sheet in sheets:
            self.sheet.setCurrentText(info.sheet)
        self.sheet.blockSignals(False)
        self.sheet.setEnabled(is_book and len(sheets) > 1)
        is_text = path is not None and not is_book
        for box in (self.separator, self.encoding):
            box.setEnabled(is_text)
        self.decimal.setEnabled(path is not None)
        self.reread.setEnabled(path is not None)
        if info is not None and is_text:
            index = self.separator.findData(info.separator)
            if info.separator and index >= 0:
                self.separator.setCurrentIndex(index)
            index = self.encoding.findData((info.encoding or "").lower())
            if index >= 0:
                self.encoding.setCurrentIndex(index)
        if info is not None and info.decimal:
            index = self.decimal.findData(info.decimal)
            if index >= 0:
                self.decimal.setCurrentIndex(index)
        self.header_row.setEnabled(path is not None)
        if info is not None:
            self.header_row.setValue(info.header_row + 1)

    # --- drag and drop -------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile():
            event.acceptProposedAction()
            self.open_path(Path(urls[0].toLocalFile()))
