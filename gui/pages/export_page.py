"""Step 5: write the release (and its description) where the user wants it."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from engine.io import write_release
from engine.progress import scaled, step
from engine.report.html import write_report
from gui import settings
from gui.errors import report_error
from gui.pages.host import Host
from gui.widgets import Hint

FORMATS = {"Excel workbook (.xlsx)": ".xlsx", "CSV text (.csv)": ".csv"}
CSV_SEPARATORS = {"comma ,": ",", "semicolon ;": ";", "tab": "\t"}


class ExportPage(QWizardPage):
    """File type, location and options; refuses to overwrite the input; shows what was written."""

    def __init__(self, wizard: Host) -> None:
        super().__init__()
        self._wizard = wizard
        self.session = wizard.session
        self.setTitle("5. Export")
        self.setSubTitle(
            "Write the release. Only the protected table is written, with a description of how "
            "it was made; the original file is never changed."
        )
        self.format = QComboBox()
        self.format.addItems(list(FORMATS))
        self.format.setToolTip("Excel keeps the description on a second sheet; CSV beside it")
        self.format.currentIndexChanged.connect(self._format_changed)
        self.separator = QComboBox()
        self.separator.addItems(list(CSV_SEPARATORS))
        self.separator.setToolTip("The character between values in the CSV file")
        self.decimal = QComboBox()
        self.decimal.addItems(["point .", "comma ,"])
        self.decimal.setToolTip("The decimal mark of numbers in the CSV file")
        self.bom = QCheckBox("Mark the file as UTF-8 so that Excel shows accents right")
        self.bom.setChecked(True)
        self.bom.setToolTip("Starts the CSV with a byte-order mark; some older tools dislike it")
        self.report = QCheckBox("Also write the release report (HTML) beside it")
        self.report.setChecked(True)
        self.report.setToolTip(
            "A self-contained page for the disclosure review board: parameters, guarantees with "
            "their assumptions, buckets, class sizes, the preview's plots, information loss"
        )
        self.what = Hint()
        self.path = QLineEdit()
        self.path.setToolTip("Where the release is written")
        self.path.textChanged.connect(self._path_changed)
        browse = QPushButton("&Browse…")
        browse.setToolTip("Choose the file to write")
        browse.clicked.connect(self.browse)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path, 1)
        path_row.addWidget(browse)
        path_widget = QWidget()
        path_row.setContentsMargins(0, 0, 0, 0)
        path_widget.setLayout(path_row)
        self.export_button = QPushButton("&Export")
        self.export_button.setToolTip("Write the release now")
        self.export_button.clicked.connect(self.export)
        self.problem = Hint(warning=True)
        self.result = Hint()
        self.result.setOpenExternalLinks(False)
        self.result.linkActivated.connect(lambda url: QDesktopServices.openUrl(QUrl(url)))
        self.result.setTextInteractionFlags(
            self.result.textInteractionFlags().TextBrowserInteraction
        )

        box = QGroupBox("Release file")
        form = QFormLayout(box)
        form.addRow("File type:", self.format)
        form.addRow("CSV separator:", self.separator)
        form.addRow("CSV decimal mark:", self.decimal)
        form.addRow("", self.bom)
        form.addRow("Save as:", path_widget)
        form.addRow("", self.report)
        layout = QVBoxLayout(self)
        layout.addWidget(self.what)
        layout.addWidget(box)
        layout.addWidget(self.problem)
        buttons = QHBoxLayout()
        buttons.addWidget(self.export_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        layout.addWidget(self.result)
        layout.addStretch(1)

    # --- wizard protocol ---------------------------------------------------------------
    def initializePage(self) -> None:
        s = self.session
        if not self.path.text() and s.path is not None:
            folder = Path(settings.last_folder()) if s.path.parent == Path() else s.path.parent
            if not _writable(folder):
                folder = Path(settings.last_folder())
            self.path.setText(str(folder / f"{s.path.stem}-release{self.suffix}"))
        self._format_changed()
        self.result.setText("")
        if s.release is not None:
            table = s.release.table
            self.what.setText(
                f"The release has {len(table):,} rows and {table.shape[1]} columns: "
                + ", ".join(map(str, table.columns))
                + ". Rows are shuffled; identifiers and untagged columns are left out."
            )

    def isComplete(self) -> bool:
        return bool(self.session.exported) and not self._wizard.runner.busy

    @property
    def suffix(self) -> str:
        return FORMATS[self.format.currentText()]

    # --- actions -------------------------------------------------------------------------
    def browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Save the release", self.path.text(), f"{self.format.currentText()}"
        )
        if path:
            self.path.setText(path)

    def _format_changed(self) -> None:
        for widget in (self.separator, self.decimal, self.bom):
            widget.setEnabled(self.suffix == ".csv")
        text = self.path.text()
        if text:
            p = Path(text)
            if p.suffix.lower() != self.suffix:
                self.path.setText(str(p.with_suffix(self.suffix)))
        self._path_changed()

    def target_problem(self) -> str:
        """Why the chosen path cannot be written, or ""."""
        text = self.path.text().strip()
        if not text:
            return "Choose where to save the release."
        target = Path(text)
        s = self.session
        if s.path is not None and target.resolve() == Path(s.path).resolve():
            return "That is the input file; tclose never overwrites it. Choose another name."
        if target.suffix.lower() not in FORMATS.values():
            return "The file name must end in .xlsx or .csv."
        if not target.parent.is_dir():
            return f"The folder {target.parent} does not exist."
        return ""

    def _path_changed(self) -> None:
        problem = self.target_problem()
        self.problem.setText(problem)
        self.problem.setVisible(bool(problem))
        exists = not problem and Path(self.path.text()).exists()
        self.export_button.setText("&Replace the existing file" if exists else "&Export")
        self.export_button.setEnabled(not problem and self.session.release is not None)

    def export(self) -> None:
        s = self.session
        if self._wizard.runner.busy or s.release is None or self.target_problem():
            return
        target = Path(self.path.text().strip())
        table = s.release.table
        metadata = s.release.summary.to_dict()
        sep = CSV_SEPARATORS[self.separator.currentText()]
        input_path = s.path
        options = {"decimal": self.decimal.currentText()[-1], "bom": self.bom.isChecked()}
        if options["decimal"] == "," and sep == ",":
            self.problem.setText("With a decimal comma, choose ';' or tab as the separator.")
            self.problem.setVisible(True)
            return

        release, info = s.release, s.info
        with_report = self.report.isChecked()

        def work(progress, cancel) -> list[Path]:
            written = write_release(
                table,
                target,
                metadata=metadata,
                sep=sep,
                input_path=input_path,
                **options,
                progress=scaled(progress, 0.0, 0.8 if with_report else 1.0),
                cancel=cancel,
            )
            if with_report:
                step(progress, cancel, 0.8, "Writing the report")
                report_path = target.with_name(f"{target.stem}-report.html")
                try:
                    written.append(write_report(release, report_path, input_info=info))
                except BaseException:
                    for path in written:  # all or nothing
                        Path(path).unlink(missing_ok=True)
                    raise
            return written

        self.export_button.setEnabled(False)
        self.result.setText(f"Writing {target.name}…")
        self._wizard.runner.start(
            work,
            title=f"Writing {target.name}",
            on_finished=self._written,
            on_failed=self._failed,
            on_cancelled=self._cancelled,
        )
        self.completeChanged.emit()

    def _written(self, files: list[Path]) -> None:
        self.session.exported = [Path(f) for f in files]
        settings.set_last_folder(Path(files[0]).parent)
        items = "".join(f"<li>{html.escape(str(f))}</li>" for f in files)
        folder = QUrl.fromLocalFile(str(Path(files[0]).parent)).toString()
        self.result.setText(
            f"<b>Written:</b><ul>{items}</ul><a href='{folder}'>Open the folder</a>"
        )
        self._path_changed()
        self.completeChanged.emit()

    def _failed(self, err: BaseException, detail: str) -> None:
        self.result.setText("Nothing was written.")
        self._path_changed()
        report_error(self, "Export", err, detail)
        self.completeChanged.emit()

    def _cancelled(self) -> None:
        self.result.setText("Export cancelled; nothing was written.")
        self._path_changed()
        self.completeChanged.emit()


def _writable(folder: Path) -> bool:
    import os

    return folder.is_dir() and os.access(folder, os.W_OK)
