"""File > Save project / Open project: the wizard's choices as a project file and back.

The file format and its checks live in :mod:`engine.project`; this module turns the wizard's
:class:`~gui.state.Session` into a :class:`~engine.project.Project` and back, and asks the
user the questions a file brings up (where to save, which file to open, what to do when the
input file changed or moved).  Every function takes the ``parent`` widget for its dialogs;
given a ``path`` it asks nothing unless something is wrong, which is how the tests use it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from engine import InputError, TcloseError
from engine.io import ImportResult, OutputError, read_table
from engine.progress import NO_TASK, Task
from engine.project import (
    InputChangedError,
    Project,
    check_input,
    load_project,
    new_project,
    save_project,
    with_input,
)
from gui import settings
from gui.errors import report_error
from gui.state import Session

translate = QCoreApplication.translate


def _filter() -> str:
    return translate("Project", "tclose project (*.json)")


def project_from_session(session: Session, *, output: str | Path | None = None) -> Project:
    """The project describing the wizard's current choices (InputError when incomplete)."""
    info = session.info
    if session.path is None or session.data is None or info is None:
        raise InputError(translate("Project", "Open a data file before saving a project."))
    return new_project(
        session.path,
        session.params,
        sheet=session.sheet,
        separator=info.separator,
        encoding=info.encoding,
        decimal=info.decimal,
        header_row=info.header_row,
        output=output
        if output is not None
        else (session.exported[0] if session.exported else None),
    )


def save_project_file(
    parent: QWidget | None, session: Session, path: str | Path | None = None
) -> Path | None:
    """Save the session as a project; asks for a file name when ``path`` is None.

    The file starts in the export folder (the last one used, else Documents: never the app's
    own folder, where the sample lives).  An existing JSON file that tclose did not write is
    replaced only when the user says so.  Returns the file written, or None when the user
    cancelled or an error was shown.
    """
    title = translate("Project", "Save project")
    if path is None:
        name = f"{session.path.stem}.json" if session.path else "project.json"
        start = str(settings.export_folder() / name)
        chosen, _ = QFileDialog.getSaveFileName(parent, title, start, _filter())
        if not chosen:
            return None
        path = chosen
    replace_foreign = False
    while True:
        try:
            return save_project(
                project_from_session(session), path, replace_foreign=replace_foreign
            )
        except OutputError as err:
            if err.reason != "not_ours" or replace_foreign:
                report_error(parent, title, err)
                return None
            answer = QMessageBox.question(
                parent,
                title,
                err.message + "\n\n" + translate("Project", "Replace it anyway?"),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel,
            )
            if answer != QMessageBox.StandardButton.Yes:
                return None
            replace_foreign = True
        except TcloseError as err:
            report_error(parent, title, err)
            return None


def open_project_file(parent: QWidget | None, path: str | Path | None = None) -> Project | None:
    """Read a project and check its input file; None when cancelled or unusable.

    A changed input file (checksum differs) is explained and the user chooses: use it anyway
    (the project then records the new checksum) or cancel.  A missing input file can be
    located by hand; its checksum must match.
    """
    title = translate("Project", "Open project")
    if path is None:
        chosen, _ = QFileDialog.getOpenFileName(
            parent, title, str(settings.export_folder()), _filter()
        )
        if not chosen:
            return None
        path = chosen
    try:
        project = load_project(path)
    except TcloseError as err:
        report_error(parent, title, err)
        return None
    while True:
        try:
            check_input(project)
            return project
        except InputChangedError as err:
            answer = QMessageBox.question(
                parent,
                translate("Project", "Input file changed"),
                err.message.replace(" (tclose run --accept-changed-input)", "")
                + "\n\n"
                + translate("Project", "Use the changed file anyway?"),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel,
            )
            if answer != QMessageBox.StandardButton.Yes:
                return None
            return with_input(project, project.input.path)
        except TcloseError as err:  # the input file is gone: let the user find it
            answer = QMessageBox.question(
                parent,
                translate("Project", "Input file not found"),
                err.message + "\n\n" + translate("Project", "Locate the file now?"),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Yes,
            )
            if answer != QMessageBox.StandardButton.Yes:
                return None
            located, _ = QFileDialog.getOpenFileName(
                parent,
                translate("Project", "Locate {name}").format(name=Path(project.input.path).name),
            )
            if not located:
                return None
            project = replace(project, input=replace(project.input, path=Path(located)))


def read_project_input(project: Project, *, task: Task = NO_TASK) -> ImportResult:
    """Read the project's input as the project says (call it on the wizard's worker)."""
    return read_table(project.input.path, options=project.input.options, task=task)


def apply_project(session: Session, project: Project, imported: ImportResult) -> None:
    """Put the project's data and parameters into the session (the wizard then refreshes).

    The parameters are the project's own object, whole (roles, types, missing codes, the
    privacy level, public bounds, the redraw target, the seed …): nothing is copied field by
    field, so nothing can be left behind.  Columns the project does not name stay untagged.
    """
    session.set_data(imported.data, imported.info)
    session.adopt(project.params)
