"""Step 5: write the release (and its description) where the user wants it.

The target is checked by the engine's one output writer (:func:`engine.io.check_outputs`)
before Export is enabled, so the page says in one line why a name cannot be written (the
input file, a missing folder, a file Excel holds open, a JSON file tclose did not write …).
The release, its JSON metadata and the report are then written together: all or none.

The file types offered, their names, which of them take the CSV options and where each keeps
the description all come from the engine's format table (:func:`engine.io.formats.export_formats`),
so a format the table offers is offered here without a change to this page.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QObject, Qt, QTimer, QUrl
from PySide6.QtGui import QDesktopServices, QKeyEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine import Task, TcloseError
from engine.io import OutputError, check_outputs, release_outputs, write_outputs, write_release
from engine.io.ddi import ddi_path
from engine.io.formats import FileFormat, export_formats
from engine.report.html import write_report
from gui import settings
from gui.accessibility import announce
from gui.errors import report_error
from gui.help import HelpButton
from gui.i18n import format_label
from gui.numbers import number, reader_locale
from gui.pages.host import Host, Page
from gui.widgets import (
    DECIMAL_LABELS,
    SEPARATOR_LABELS,
    Hint,
    check_box,
    choice_box,
    translated_choices,
)

#: the reason of an OutputError that the user may override (replace a JSON file not ours)
NOT_OURS = "not_ours"
#: milliseconds between the last edit of the file name and checking it
CHECK_DELAY_MS = 250
#: what the CSV writer offers (the default follows the reader's decimal mark)
SEPARATORS = (",", ";", "\t")
DECIMALS = (".", ",")


class ExportPage(Page):
    """File type, location and options; the target checked first; shows what was written."""

    def __init__(self, wizard: Host) -> None:
        super().__init__(wizard)
        #: why the target cannot be written ("" when it can) and the writer's reason for it
        self._problem, self._reason = "", ""
        self.setTitle(self.tr("5. Export"))
        self.setSubTitle(
            self.tr(
                "Write the release. Only the protected table is written, with a description "
                "of how it was made; the original file is never changed."
            )
        )
        # the widgets are made in the order the keyboard reaches them
        self._file_options()
        self._report_options()
        self.what = Hint()
        path_widget = self._path_field()
        self._export_widgets()
        self._check_timer = QTimer(self)
        self._check_timer.setSingleShot(True)
        self._check_timer.setInterval(CHECK_DELAY_MS)
        self._check_timer.timeout.connect(self.check_target)
        self._lay_out(self._release_box(path_widget))

    # --- building ------------------------------------------------------------------------
    def _file_options(self) -> None:
        """The file type and, for delimited text, its separator, decimal mark and byte-order
        mark."""
        # the formats offered, the default first (read from the table when the page is made)
        self.formats = export_formats()
        self.format = choice_box(
            {f.suffixes[0]: f"{format_label(f)} ({f.suffixes[0]})" for f in self.formats},
            self._where_described(),
        )
        self.format.currentIndexChanged.connect(self._format_changed)
        self.separator = choice_box(
            translated_choices(SEPARATORS, SEPARATOR_LABELS),
            self.tr("The character between values in the CSV file"),
        )
        self.decimal = choice_box(
            translated_choices(DECIMALS, DECIMAL_LABELS),
            self.tr("The decimal mark of numbers in the CSV file"),
        )
        # the reader's spreadsheet opens a CSV in its own conventions: where the decimal mark
        # is a comma (es, fr), a semicolon separates the values
        comma = reader_locale().decimalPoint() == ","
        self.separator.setCurrentIndex(self.separator.findData(";" if comma else ","))
        self.decimal.setCurrentIndex(self.decimal.findData("," if comma else "."))
        self.bom = check_box(
            self.tr("Mark the file as UTF-8 so that Excel shows accents right"),
            self.tr("Starts the CSV with a byte-order mark; some older tools dislike it"),
            checked=True,
        )
        self._text_options_follow()

    def _where_described(self) -> str:
        """Where each offered format keeps the description of the release (the tooltip)."""
        parts = [
            (
                self.tr("{format} keeps the description inside the file")
                if f.metadata_inside
                else self.tr("{format} puts it in a JSON file beside it")
            ).format(format=format_label(f))
            for f in self.formats
        ]
        return self.tr("; ").join(parts)  # French spaces it: " ; "

    def _must_end(self) -> str:
        """The sentence that names every suffix the page writes."""
        names = [f.suffixes[0] for f in self.formats]
        if len(names) == 1:
            return self.tr("The file name must end in {name}.").format(name=names[0])
        return self.tr("The file name must end in {names} or {last}.").format(
            names=", ".join(names[:-1]), last=names[-1]
        )

    def _report_options(self) -> None:
        """Whether the review report is written, and whether the input's name is published."""
        self.report = check_box(
            self.tr("Also write the release report (HTML) beside it"),
            self.tr(
                "A self-contained page for the disclosure review board, not for publication: "
                "parameters, guarantees with their assumptions, buckets, class sizes, the "
                "preview's plots, information loss, the seed"
            ),
            checked=True,
        )
        self.ddi = check_box(
            self.tr("Also write a DDI codebook (XML) beside it"),
            self.tr(
                "A DDI-Codebook 2.5 description for a data catalogue (NADA, the Microdata "
                "Library): each released variable with its label, categories and released "
                "frequencies, and what was done to it; published facts only"
            ),
            checked=True,
        )
        for box in (self.report, self.ddi):
            box.toggled.connect(self._path_changed)
        self.anonymous = check_box(
            self.tr("Leave the input file's name out of the published files"),
            self.tr(
                "The description written with the release names the file it was made from "
                "unless this is ticked; the report (for the review) always names it"
            ),
        )

    def _path_field(self) -> QWidget:
        """Where the release is written, and Browse…"""
        self.path = QLineEdit()
        self.path.setToolTip(self.tr("Where the release is written; Enter exports"))
        self.path.textChanged.connect(self._path_changed)
        # Enter in the file name exports; it must never reach the wizard's default button
        # (Close, once something was exported), which would quit without writing.  The page
        # filters the field's keys itself: a filter object of its own, a child of the field
        # holding the page, made a reference cycle whose collection crashed Qt
        self.path.installEventFilter(self)
        browse = QPushButton(self.tr("&Browse…"))
        browse.setToolTip(self.tr("Choose the file to write"))
        browse.clicked.connect(self.browse)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path, 1)
        path_row.addWidget(browse)
        path_widget = QWidget()
        path_row.setContentsMargins(0, 0, 0, 0)
        path_widget.setLayout(path_row)
        return path_widget

    def _export_widgets(self) -> None:
        """Export, why it cannot, and what it wrote."""
        self.export_button = QPushButton(self.tr("&Export"))
        self.export_button.setToolTip(self.tr("Write the release now"))
        self.export_button.clicked.connect(self.export)
        self.problem = Hint(warning=True)
        self.result = Hint()
        self.result.setOpenExternalLinks(False)
        self.result.linkActivated.connect(lambda url: QDesktopServices.openUrl(QUrl(url)))
        # the keyboard reaches the result only while it holds a link (an empty, focusable
        # line would be announced as nothing)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

    def _release_box(self, path_widget: QWidget) -> QGroupBox:
        """The "Release file" box: every option of the file, in one form."""
        box = QGroupBox(self.tr("Release file"))
        form = QFormLayout(box)
        form.addRow(self.tr("File type:"), self.format)
        form.addRow(self.tr("CSV separator:"), self.separator)
        form.addRow(self.tr("CSV decimal mark:"), self.decimal)
        form.addRow("", self.bom)
        form.addRow(self.tr("Save as:"), path_widget)
        save_as = form.labelForField(path_widget)
        if isinstance(save_as, QLabel):
            # the label names the field (not the row around it), for screen readers too
            save_as.setBuddy(self.path)
            self.path.setAccessibleName(save_as.text().rstrip(":").strip())
        form.addRow("", self.report)
        form.addRow("", self.ddi)
        form.addRow("", self.anonymous)
        return box

    def _lay_out(self, box: QGroupBox) -> None:
        """What is written and help; the options; Export and what it did."""
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(self.what, 1)
        top.addWidget(HelpButton("step-5-export", self), 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(top)
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
            folder = settings.export_folder()
            self.path.setText(str(folder / f"{s.path.stem}-release{self.suffix}"))
        self._format_changed()
        self._set_result("")
        if s.release is not None:
            table = s.release.table
            self.what.setText(
                self.tr(
                    "The release has {rows} rows and {columns} columns: {names}. Rows are "
                    "shuffled; identifiers and untagged columns are left out."
                ).format(
                    rows=number(len(table)),
                    columns=number(table.shape[1]),
                    names=", ".join(map(str, table.columns)),
                )
            )
        self.check_target()

    def first_input(self) -> QWidget:
        """The control the focus starts on when the page is shown: the file type."""
        return self.format

    def isComplete(self) -> bool:
        return bool(self.session.exported) and not self._wizard.runner.busy

    @property
    def suffix(self) -> str:
        return str(self.format.currentData())

    @property
    def file_format(self) -> FileFormat:
        """The format chosen in "File type"."""
        return self.formats[max(self.format.currentIndex(), 0)]

    @property
    def report_path(self) -> Path | None:
        """The report written beside the release (None when not asked for)."""
        text = self.path.text().strip()
        if not text or not self.report.isChecked():
            return None
        target = Path(text)
        return target.with_name(f"{target.stem}-report.html")

    @property
    def ddi_path(self) -> Path | None:
        """The DDI codebook written beside the release (None when not asked for)."""
        text = self.path.text().strip()
        if not text or not self.ddi.isChecked():
            return None
        return ddi_path(Path(text))

    # --- checking the target -------------------------------------------------------------
    def _path_changed(self) -> None:
        """The name changed: check it a moment after the last keystroke (the check creates and
        removes a probe file in the folder)."""
        self._check_timer.start()
        self._show_problem()

    def check_target(self) -> str:
        """Check the target with the engine's writer; returns the problem ("" when none)."""
        self._check_timer.stop()
        self._problem, self._reason = self._target_problem()
        self._show_problem()
        return self._problem

    def _target_problem(self) -> tuple[str, str]:
        text = self.path.text().strip()
        if not text:
            return self.tr("Choose where to save the release."), "empty"
        target = Path(text)
        if target.suffix.lower() not in {f.suffixes[0] for f in self.formats}:
            return self._must_end(), "name"
        try:
            outputs = release_outputs(target, report=self.report_path, ddi=self.ddi_path)
            check_outputs(outputs, inputs=[self.session.path])
        except OutputError as err:
            return err.message, err.reason
        except TcloseError as err:
            return err.message, "name"
        return "", ""

    def target_problem(self) -> str:
        """Why the chosen path cannot be written, or "" (checked now)."""
        return self.check_target()

    def _show_problem(self) -> None:
        pending = self._check_timer.isActive()
        problem = "" if pending else self._problem
        self.problem.setText(problem)
        self.problem.setVisible(bool(problem))
        overridable = self._reason == NOT_OURS
        exists = not problem and Path(self.path.text().strip() or ".").is_file()
        if overridable:
            self.export_button.setText(self.tr("&Replace…"))
        elif exists:
            self.export_button.setText(self.tr("&Replace the existing file"))
        else:
            self.export_button.setText(self.tr("&Export"))
        ok = not pending and (not problem or overridable)
        self.export_button.setEnabled(ok and self.session.release is not None)

    # --- actions -------------------------------------------------------------------------
    def browse(self) -> None:
        fmt = self.file_format
        path, _ = QFileDialog.getSaveFileName(
            self,
            self.tr("Save the release"),
            self.path.text(),
            f"{format_label(fmt)} (*{fmt.suffixes[0]})",
        )
        if path:
            self.path.setText(path)

    def _text_options_follow(self) -> None:
        """The separator, decimal mark and byte-order mark apply to delimited text only."""
        for widget in (self.separator, self.decimal, self.bom):
            widget.setEnabled(self.file_format.delimited)

    def _format_changed(self) -> None:
        self._text_options_follow()
        text = self.path.text()
        if text:
            p = Path(text)
            if p.suffix.lower() != self.suffix:
                self.path.setText(str(p.with_suffix(self.suffix)))
        self._path_changed()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Return or Enter in the file name exports, and goes no further."""
        is_key = event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent)
        if watched is self.path and is_key and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self._enter_pressed()
            return True
        return super().eventFilter(watched, event)

    def _enter_pressed(self) -> None:
        if self.export_button.isEnabled():
            self.export()

    def export(self) -> None:
        s = self.session
        if self._wizard.runner.busy or s.release is None:
            return
        problem = self.check_target()
        replace_foreign = False
        if problem:
            if self._reason != NOT_OURS or not self._confirm_replace(problem):
                return
            replace_foreign = True
        target = Path(self.path.text().strip())
        sep = str(self.separator.currentData())
        decimal = str(self.decimal.currentData())
        if self.file_format.delimited and decimal == "," and sep == ",":
            self.problem.setText(
                self.tr("With a decimal comma, choose ';' or tab as the separator.")
            )
            self.problem.setVisible(True)
            return
        table = s.release.table
        # published with the release: never the seed or a statistic of the original data
        metadata = s.release.summary.public_dict(anonymous=self.anonymous.isChecked())
        input_path = s.path
        release, info = s.release, s.info
        report_path, ddi = self.report_path, self.ddi_path
        codebook = info.codebook if info is not None else None
        options = {"decimal": decimal, "bom": self.bom.isChecked()}

        def work(task: Task) -> list[Path]:
            outputs = release_outputs(
                target, report=report_path, ddi=ddi, replace_foreign=replace_foreign
            )
            with write_outputs(outputs, inputs=[input_path]) as stage:
                write_release(
                    table,
                    target,
                    metadata=metadata,
                    sep=sep,
                    input_path=input_path,
                    replace_foreign=replace_foreign,
                    codebook=codebook,
                    ddi=ddi,
                    stage=stage,
                    **options,
                    task=task.sub(0.0, 0.8 if report_path else 1.0),
                )
                if report_path is not None:
                    task.step(0.8, QT_TRANSLATE_NOOP("Progress", "Writing the report"))
                    write_report(
                        release,
                        report_path,
                        input_info=info,
                        stage=stage,
                        task=task.sub(0.8, 1.0),
                    )
            return [o.path for o in outputs]

        self.export_button.setEnabled(False)
        self._set_result(self.tr("Writing {name}…").format(name=target.name))
        self._wizard.runner.start(
            work,
            title=self.tr("Writing {name}").format(name=target.name),
            on_finished=self._written,
            on_failed=self._failed,
            on_cancelled=self._cancelled,
        )
        self.completeChanged.emit()

    def _confirm_replace(self, problem: str) -> bool:
        answer = QMessageBox.question(
            self,
            self.tr("Replace a file?"),
            problem + "\n\n" + self.tr("Replace it anyway?"),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Yes

    def _written(self, files: list[Path]) -> None:
        self.session.exported = [Path(f) for f in files]
        settings.set_export_folder(Path(files[0]).parent)
        items = "".join(f"<li>{html.escape(str(f))}</li>" for f in files)
        folder = QUrl.fromLocalFile(str(Path(files[0]).parent)).toString()
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.result.setText(
            "<b>{written}</b><ul>{items}</ul>{seed}<a href='{folder}'>{open}</a>".format(
                written=self.tr("Written:"),
                items=items,
                seed=self._seed_note(files),
                folder=folder,
                open=self.tr("Open the folder"),
            )
        )
        self.check_target()
        announce(self, self.tr("Written:") + " " + ", ".join(Path(f).name for f in files))
        self.completeChanged.emit()

    def _set_result(self, text: str) -> None:
        """A result without links: shown, selectable by mouse, not a stop of the Tab key."""
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result.setText(text)

    def _seed_note(self, files: list[Path]) -> str:
        """Where the seed went: never to the published files ("" without a seed)."""
        release = self.session.release
        seed = release.params.seed if release is not None else None
        if seed is None:
            return ""
        reports = [f for f in files if Path(f).suffix.lower() in (".html", ".htm")]
        if reports:
            text = self.tr(
                "The seed {seed} is not in the published files; it is in the report "
                "{report} (for the review, not for publication) and in the project when you "
                "save it."
            ).format(seed=seed, report=Path(reports[0]).name)
        else:
            text = self.tr(
                "The seed {seed} is not in the published files; save the project to keep it "
                "with the review record."
            ).format(seed=seed)
        return f"<p>{html.escape(text)}</p>"

    def _failed(self, err: BaseException, detail: str) -> None:
        self._set_result(self.tr("Nothing was written."))
        announce(self, self.tr("Nothing was written."), urgent=True)
        self.check_target()
        report_error(self, self.tr("Export"), err, detail)
        self.completeChanged.emit()

    def _cancelled(self) -> None:
        self._set_result(self.tr("Export cancelled; nothing was written."))
        self.check_target()
        self.completeChanged.emit()
