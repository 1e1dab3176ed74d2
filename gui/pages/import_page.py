"""Step 1: open a spreadsheet and check that it was read as intended."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QStyle,
    QTableView,
    QVBoxLayout,
    QWizardPage,
)

import engine.io
from engine.io import ImportResult
from gui import settings
from gui.engine_process import run_engine
from gui.errors import report_error
from gui.pages.host import Host
from gui.state import ColumnAnalysis, read_and_analyse
from gui.table_model import DataFrameModel
from gui.widgets import Hint
from resources import SAMPLE_WORKBOOK

FILE_FILTER = (
    "Tables (*.csv *.tsv *.txt *.xlsx *.xlsm *.xls *.ods *.sav *.dta *.sas7bdat);;All files (*)"
)
WORKBOOK_SUFFIXES = {".xlsx", ".xlsm", ".xls", ".ods"}
AUTO = "automatic"
SEPARATORS = {AUTO: None, "comma ,": ",", "semicolon ;": ";", "tab": "\t", "bar |": "|"}
ENCODINGS = [AUTO, "utf-8", "cp1252", "latin-1", "utf-16"]
DECIMALS = {AUTO: None, "point .": ".", "comma ,": ","}
PREVIEW_ROWS_NOTE = "All rows can be scrolled; only the visible ones are formatted."


class ImportPage(QWizardPage):
    """Open dialog, drag and drop, recent files, the sample; reading options; a preview."""

    loaded = Signal()

    def __init__(self, wizard: Host) -> None:
        super().__init__()
        self._wizard = wizard
        self.session = wizard.session
        self.setTitle("1. Import")
        self.setSubTitle(
            "Open the spreadsheet that holds one row per person (CSV, Excel, SPSS, Stata, SAS). "
            "You can also drop a file on this window."
        )
        self.setAcceptDrops(True)

        self.open_button = QPushButton("&Open file…")
        self.open_button.setShortcut(QKeySequence.StandardKey.Open)
        self.open_button.setToolTip("Choose a CSV or Excel file to anonymize (Ctrl+O)")
        self.open_button.clicked.connect(self.choose_file)
        self.sample_button = QPushButton("Open the &sample")
        self.sample_button.setToolTip(
            "Open a small made-up survey (400 people) to try tclose without your own data"
        )
        self.sample_button.clicked.connect(self.open_sample)
        self.recent = QListWidget()
        self.recent.setToolTip("Recently opened files; press Enter or double-click to open one")
        self.recent.setMaximumHeight(90)
        self.recent.itemActivated.connect(self._open_recent)

        self.sheet = QComboBox()
        self.sheet.setToolTip("The worksheet of the workbook to read")
        self.sheet.activated.connect(lambda _index: self.read_again())
        self.separator = QComboBox()
        self.separator.addItems(list(SEPARATORS))
        self.separator.setToolTip("The character between values in a text file")
        self.encoding = QComboBox()
        self.encoding.addItems(ENCODINGS)
        self.encoding.setToolTip("How the text file's characters are stored")
        self.decimal = QComboBox()
        self.decimal.addItems(list(DECIMALS))
        self.decimal.setToolTip("The decimal mark of numbers in a text file")
        self.header_row = QSpinBox()
        self.header_row.setRange(0, 1000)
        self.header_row.setSpecialValueText("automatic")
        self.header_row.setToolTip(
            "The row that holds the column names (1 = first row); rows above it are titles"
        )
        self.reread = QPushButton("&Read again")
        self.reread.setToolTip("Read the file again with the options chosen here")
        self.reread.clicked.connect(self.read_again)
        self.info = Hint("No file open yet; Next is enabled once a table has been read.")
        style = self.style()
        self.open_button.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_DialogOpenButton))
        self.sample_button.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_FileIcon))
        for button in (self.open_button, self.sample_button):
            button.setMinimumHeight(34)
            button.setMinimumWidth(170)

        self.table = QTableView()
        self.table.setToolTip(PREVIEW_ROWS_NOTE)
        self.model = DataFrameModel()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(22)
        for header in (self.table.horizontalHeader(), self.table.verticalHeader()):
            header.setResizeContentsPrecision(50)  # size columns by a sample, not every row
        self.table.horizontalHeader().setStretchLastSection(True)

        top = QHBoxLayout()
        buttons = QVBoxLayout()
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.sample_button)
        buttons.addStretch(1)
        top.addLayout(buttons)
        recent_box = QGroupBox("Recent files")
        QVBoxLayout(recent_box).addWidget(self.recent)
        top.addWidget(recent_box, 2)
        options = QGroupBox("How the file is read")
        form = QFormLayout(options)
        form.addRow("Sheet:", self.sheet)
        form.addRow("Separator:", self.separator)
        form.addRow("Encoding:", self.encoding)
        form.addRow("Decimal mark:", self.decimal)
        form.addRow("Header row:", self.header_row)
        form.addRow(self.reread)
        top.addWidget(options, 2)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.info)
        self.empty = QLabel(
            "Drop a CSV or Excel file here, click <b>Open file…</b>,<br>"
            "or try tclose on the bundled sample with <b>Open the sample</b>."
        )
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setStyleSheet(
            "color: #666; font-size: 15px; border: 2px dashed #bbb; border-radius: 8px;"
        )
        self.stack = QStackedWidget()
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.table)
        layout.addWidget(self.stack, 1)
        self._refresh_recent()
        self._update_options()

    # --- wizard protocol ---------------------------------------------------------------
    def isComplete(self) -> bool:
        return self.session.data is not None and not self._wizard.runner.busy

    # --- actions -------------------------------------------------------------------------
    def choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Open a table", settings.last_folder(), FILE_FILTER
        )
        if path:
            self.open_path(Path(path))

    def open_sample(self) -> None:
        self.open_path(SAMPLE_WORKBOOK)

    def _open_recent(self, item: QListWidgetItem) -> None:
        self.open_path(Path(item.data(Qt.ItemDataRole.UserRole)))

    def read_again(self) -> None:
        if self.session.path is not None:
            self.open_path(
                self.session.path,
                sheet=self.sheet.currentText() or None,
                sep=SEPARATORS[self.separator.currentText()],
                encoding=None
                if self.encoding.currentText() == AUTO
                else self.encoding.currentText(),
                decimal=DECIMALS[self.decimal.currentText()],
                header_row=self.header_row.value() - 1 if self.header_row.value() else None,
            )

    def open_path(
        self,
        path: Path,
        *,
        sheet: str | None = None,
        sep: str | None = None,
        encoding: str | None = None,
        decimal: str | None = None,
        header_row: int | None = None,
    ) -> None:
        """Read ``path`` on the worker thread; the page updates when it is done."""
        if self._wizard.runner.busy:
            return
        path = Path(path)

        options = {"sep": sep, "sheet": sheet, "encoding": encoding, "decimal": decimal}
        if header_row is not None:
            options["header_row"] = header_row

        def work(progress, cancel):
            return run_engine(read_and_analyse, path, **options, progress=progress, cancel=cancel)

        self.info.setText(f"Reading {path.name}…")
        self.info.set_warning(False)
        self._wizard.runner.start(
            work,
            title=f"Reading {path.name}",
            on_finished=self._loaded,
            on_failed=self._failed,
            on_cancelled=lambda: self.info.setText("Reading was cancelled."),
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
        self.table.resizeColumnsToContents()
        for col in range(self.model.columnCount()):
            self.table.setColumnWidth(col, min(self.table.columnWidth(col) + 16, 320))
        self._refresh_recent()
        self._update_options()
        self._describe()
        self.completeChanged.emit()

    def _failed(self, err: BaseException, detail: str) -> None:
        self.info.setText(f"The file could not be read: {err}")
        self.info.set_warning(True)
        report_error(self, "Import", err, detail)
        self.completeChanged.emit()

    # --- display -------------------------------------------------------------------------
    def _describe(self) -> None:
        info = self.session.info
        if info is None:
            return
        guessed = set(info.guessed)

        def setting(name: str, text: str) -> str:
            return f"{text} (detected)" if name in guessed else text

        details = [f"format {info.format}"]
        if info.sheet:
            details.append(setting("sheet", f"sheet “{info.sheet}”"))
        if info.separator:
            shown = "tab" if info.separator == "\t" else repr(info.separator)
            details.append(setting("separator", f"separator {shown}"))
        if info.encoding:
            details.append(setting("encoding", f"encoding {info.encoding}"))
        if info.decimal:
            details.append(setting("decimal", f"decimal mark {info.decimal!r}"))
        if info.header_row:
            details.append(setting("header_row", f"header on row {info.header_row + 1}"))
        name = html.escape(Path(info.path).name)
        text = f"<b>{name}</b>: {info.n_rows:,} rows × {info.n_columns} columns — " + html.escape(
            ", ".join(details)
        )
        notes = list(info.notes)
        renamed = info.renamed
        if renamed and not any("renamed" in n.lower() for n in notes):
            pairs = ", ".join(f"“{old}” → {new}" for new, old in renamed.items())
            notes.append(f"Columns renamed: {pairs}")
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
            item = QListWidgetItem("(none yet)")
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.recent.addItem(item)

    def _update_options(self) -> None:
        """Show the reading options that apply to the open file and select what was detected."""
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
        for box in (self.separator, self.encoding, self.decimal):
            box.setEnabled(is_text)
        self.reread.setEnabled(path is not None)
        if info is not None and is_text:
            for label, sep in SEPARATORS.items():
                if sep is not None and sep == info.separator:
                    self.separator.setCurrentText(label)
            if info.encoding and info.encoding.lower() in ENCODINGS:
                self.encoding.setCurrentText(info.encoding.lower())
            for label, mark in DECIMALS.items():
                if mark is not None and mark == info.decimal:
                    self.decimal.setCurrentText(label)
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
