"""The main window: the five-step wizard, its menu, and the progress panel beneath it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDesktopServices,
    QFileOpenEvent,
    QKeyEvent,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QApplication,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
    QWizard,
)
from shiboken6 import Shiboken

from engine import TcloseError
from engine.version import __version__
from gui import focus, project_io, settings
from gui.engine_process import shared_engine
from gui.errors import log_path, report_error
from gui.help import open_guide
from gui.pages.export_page import ExportPage
from gui.pages.import_page import ImportPage
from gui.pages.preview_page import PreviewPage
from gui.pages.privacy_page import PrivacyPage
from gui.pages.tag_page import TagPage
from gui.settings_dialog import SettingsDialog
from gui.state import Session
from gui.sweep_dialog import SweepDialog
from gui.widgets import ProgressPanel
from gui.worker import TaskRunner

log = logging.getLogger(__name__)


PAGE_IMPORT, PAGE_TAG, PAGE_PRIVACY, PAGE_PREVIEW, PAGE_EXPORT = range(5)
#: the user guide's section of each page (the slug of its heading in docs/user-guide.md)
PAGE_SECTIONS = {
    PAGE_IMPORT: "step-1-import",
    PAGE_TAG: "step-2-tag-the-columns",
    PAGE_PRIVACY: "step-3-privacy-level",
    PAGE_PREVIEW: "step-4-preview",
    PAGE_EXPORT: "step-5-export",
}
#: files opened as a tclose project rather than as data
PROJECT_SUFFIXES = {".json"}


class TcloseWizard(QWizard):
    """Import → tag → privacy level → preview → export, over one :class:`Session`."""

    def __init__(self, session: Session, runner: TaskRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.runner = runner
        self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setOption(QWizard.WizardOption.NoCancelButton, True)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        # Enter belongs to the control that has the focus: with a default button, Enter in a
        # check box, a list or a spin box would press Next, or Close on the last page and
        # quit the app (Alt+N, Alt+B and Alt+C reach the buttons from anywhere)
        self.setOption(QWizard.WizardOption.NoDefaultButton, True)
        self.import_page = ImportPage(self)
        self.tag_page = TagPage(self)
        self.privacy_page = PrivacyPage(self)
        self.preview_page = PreviewPage(self)
        self.export_page = ExportPage(self)
        for pid, page in enumerate(
            (
                self.import_page,
                self.tag_page,
                self.privacy_page,
                self.preview_page,
                self.export_page,
            )
        ):
            self.setPage(pid, page)
        self.setButtonText(QWizard.WizardButton.FinishButton, self.tr("&Close"))
        for which in (
            QWizard.WizardButton.NextButton,
            QWizard.WizardButton.BackButton,
            QWizard.WizardButton.FinishButton,
        ):
            button = self.button(which)
            if isinstance(button, QPushButton):
                # a focused push button of a dialog takes Enter (autoDefault); Close must
                # not: Enter never quits the app, Space or Alt+C does
                button.setAutoDefault(which != QWizard.WizardButton.FinishButton)
        self.button(QWizard.WizardButton.NextButton).setToolTip(
            self.tr("Go to the next step (Alt+N)")
        )
        self.button(QWizard.WizardButton.BackButton).setToolTip(self.tr("Go back one step (Alt+B)"))
        self.import_page.loaded.connect(self._data_loaded)
        runner.busy_changed.connect(self._busy_changed)
        self.currentIdChanged.connect(self._focus_first_input)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_changed)

    def _focus_changed(self, old: QWidget | None, _new: QWidget | None) -> None:
        """QWizard hides its pages for a moment when it lays out its buttons again (a task
        ends and Next is enabled): the focus would fall to "< Back".  A control of the page
        that lost the focus only by being hidden gets it back once the page is shown again;
        a control the user left (Tab, a click) is visible when it loses the focus."""
        page = self.currentPage()
        if (
            old is None
            or page is None
            or not Shiboken.isValid(old)
            or old.isVisible()
            or not page.isAncestorOf(old)
        ):
            return

        def restore() -> None:
            if Shiboken.isValid(old) and old.isVisible() and old.isEnabled():
                focused = QApplication.focusWidget()
                if focused is None or not page.isAncestorOf(focused):
                    old.setFocus(Qt.FocusReason.OtherFocusReason)

        QTimer.singleShot(0, self, restore)

    def _focus_first_input(self, _page_id: int) -> None:
        """A page shown starts with the focus on its first input, not on "?" or "< Back"
        (where QWizard leaves it); after QWizard's own handling of the change."""

        def focus() -> None:
            page = self.currentPage()
            first = getattr(page, "first_input", None)
            if first is not None and page is not None and page.isVisible():
                first().setFocus(Qt.FocusReason.TabFocusReason)

        QTimer.singleShot(0, self, focus)

    def _busy_changed(self, busy: bool) -> None:
        self.button(QWizard.WizardButton.BackButton).setEnabled(not busy and self.currentId() > 0)
        page = self.currentPage()
        if page is not None:
            page.completeChanged.emit()

    def _data_loaded(self) -> None:
        self.export_page.path.clear()
        self.session.exported = []

    def done(self, result: int) -> None:
        """Finishing the wizard closes the main window (the wizard is embedded in it)."""
        window = self.window()
        if window is not self:
            window.close()
        else:
            super().done(result)

    def reject(self) -> None:
        """Escape (a dialog's "cancel") does nothing: the wizard has no Cancel, and Escape
        must not quit the app; a running task's Cancel button takes Escape instead."""

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Enter that no control took stops here: it never presses a wizard button
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()
            return
        super().keyPressEvent(event)


class FileOpenFilter(QObject):
    """Turns the system's "open this file" requests into :attr:`file_opened`.

    macOS sends a :class:`QFileOpenEvent` to the application when a file is double-clicked
    in Finder, dropped on the Dock icon or opened with "Open With"; there is no command line.
    """

    file_opened = Signal(Path)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.FileOpen and isinstance(event, QFileOpenEvent):
            name = event.file() or event.url().toLocalFile()
            if name:
                self.file_opened.emit(Path(name))
                return True
        return False


class MainWindow(QMainWindow):
    """The wizard plus a menu bar (File, Tools, Help) and the progress panel."""

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle(
            self.tr("tclose {version} — publish microdata safely").format(version=__version__)
        )
        self.session = Session()
        self.runner = TaskRunner(self)
        self.wizard = TcloseWizard(self.session, self.runner)
        self.wizard.setWindowFlags(Qt.WindowType.Widget)
        self.progress = ProgressPanel(self.runner)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.wizard, 1)
        layout.addWidget(self.progress)
        self.setCentralWidget(central)
        self._build_menu()
        app = QApplication.instance()
        if isinstance(app, QApplication):
            focus.install(app)  # a ring around the focused control, whatever the style
        self.file_open_filter = FileOpenFilter(self)
        self.file_open_filter.file_opened.connect(self.open_any)
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self.file_open_filter)
        try:  # start the engine process now, so its imports are done by the first preview
            shared_engine().start()
        except Exception:
            log.exception("the engine process could not start; the engine runs in the app")
        geometry = settings.geometry()
        if geometry is None or not self.restoreGeometry(geometry):
            self.resize(1100, 760)

    def _build_menu(self) -> None:
        keys, roles = QKeySequence.StandardKey, QAction.MenuRole
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        self._action(
            file_menu,
            self.tr("&Open…"),
            self._open,
            shortcut=keys.Open,
            tooltip=self.tr("Open a table to anonymize (Ctrl+O)"),
        )
        self._action(file_menu, self.tr("Open the &sample"), self._open_sample)
        self.recent_menu = file_menu.addMenu(self.tr("Open &recent"))
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        file_menu.addSeparator()
        self.save_project_action = self._action(
            file_menu,
            self.tr("&Save project…"),
            self.save_project,
            shortcut=keys.Save,
            tooltip=self.tr(
                "Save the file, tags and parameters so the release can be redone (tclose run)"
            ),
        )
        self.open_project_action = self._action(
            file_menu,
            self.tr("Open &project…"),
            self.open_project,
            tooltip=self.tr("Open a saved project and its data file"),
        )
        file_menu.addSeparator()
        self._action(
            file_menu, self.tr("&Quit"), self.close, shortcut=keys.Quit, role=roles.QuitRole
        )

        tools_menu = self.menuBar().addMenu(self.tr("&Tools"))
        self.sweep_action = self._action(
            tools_menu,
            self.tr("Privacy–utility &sweep…"),
            self.open_sweep,
            tooltip=self.tr(
                "Try a grid of privacy levels and k, compare the information lost, pick a point"
            ),
        )
        self._action(
            tools_menu, self.tr("S&ettings…"), self.open_settings, role=roles.PreferencesRole
        )

        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        self._action(
            help_menu,
            self.tr("&User guide"),
            self.open_guide,
            shortcut=keys.HelpContents,
            tooltip=self.tr("The user guide, at the step you are on (F1)"),
        )
        self._action(
            help_menu,
            self.tr("Open the &log folder"),
            lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(log_path().parent))),
        )
        self._action(help_menu, self.tr("&About tclose"), self._about, role=roles.AboutRole)

    def _action(
        self,
        menu: QMenu,
        text: str,
        slot: Callable[..., object],
        *,
        shortcut: QKeySequence.StandardKey | None = None,
        tooltip: str | None = None,
        role: QAction.MenuRole | None = None,
    ) -> QAction:
        """An entry of ``menu`` that calls ``slot``: with the platform's keys for a standard
        ``shortcut``, and a ``role`` where macOS moves it to the application menu."""
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        if tooltip is not None:
            action.setToolTip(tooltip)
        if role is not None:
            action.setMenuRole(role)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    # --- help and settings -----------------------------------------------------------------
    def open_guide(self, section: str | None = None):
        """Open the user guide at ``section`` (default: the current page's)."""
        if section is None:
            section = PAGE_SECTIONS.get(self.wizard.currentId(), "")
        try:
            return open_guide(self, section)
        except FileNotFoundError as err:
            report_error(self, self.tr("User guide"), TcloseError(str(err)))
            return None

    def open_settings(self) -> SettingsDialog:
        dialog = SettingsDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    # --- projects and the sweep ----------------------------------------------------------
    def save_project(self) -> Path | None:
        if self.session.tagging_problem():
            QMessageBox.information(
                self,
                self.tr("Save project"),
                self.tr("Nothing to save yet: {problem}").format(
                    problem=self.session.tagging_problem()
                ),
            )
            return None
        return project_io.save_project_file(self, self.session)

    def open_project(self, path: Path | None = None) -> None:
        if self.runner.busy:
            return
        project = project_io.open_project_file(self, path)
        if project is None:
            return
        title = self.tr("Open project")

        def loaded(imported) -> None:
            try:
                project_io.apply_project(self.session, project, imported)
            except TcloseError as err:
                report_error(self, title, err)
                return
            self.wizard.restart()
            self.wizard.import_page.show_session()

        self.runner.start(
            lambda task: project_io.read_project_input(project, task=task),
            title=self.tr("Reading the project's data"),
            on_finished=loaded,
            on_failed=lambda err, detail: report_error(self, title, err, detail),
        )

    def open_sweep(self) -> None:
        problem = self.session.tagging_problem()
        if problem:
            QMessageBox.information(
                self,
                self.tr("Privacy–utility sweep"),
                self.tr("First: {problem}").format(problem=problem),
            )
            return
        params = self.session.params
        dialog = SweepDialog(
            self.session.data, params, self, use_epsilon=params.epsilon is not None
        )
        dialog.point_chosen.connect(self.adopt_point)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        self.sweep_dialog = dialog

    def adopt_point(self, level: str, value: float, k: int) -> None:
        """Take the privacy level and k the user picked in the sweep."""
        level_changes = (
            {"epsilon": float(value), "t": None}
            if level == "epsilon"
            else {"t": float(value), "epsilon": None}
        )
        try:  # the pages are bound to the session: they show the point by themselves
            self.session.update(k=int(k), **level_changes)
        except TcloseError as err:
            report_error(self, self.tr("Privacy–utility sweep"), err)

    def _open(self) -> None:
        self.wizard.restart()
        self.wizard.import_page.choose_file()

    def _open_sample(self) -> None:
        self.wizard.restart()
        self.wizard.import_page.open_sample()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = settings.recent_files()
        for path in files:
            action = self.recent_menu.addAction(path.name)
            action.setToolTip(str(path))
            action.triggered.connect(lambda _checked=False, p=path: self.open_file(p))
        if not files:
            none = self.recent_menu.addAction(self.tr("(none yet)"))
            none.setEnabled(False)

    def open_file(self, path: Path) -> None:
        self.wizard.restart()
        self.wizard.import_page.open_path(Path(path))

    def open_any(self, path: Path) -> None:
        """Open ``path`` as the system asked: a project file (.json) or a table."""
        path = Path(path)
        if self.runner.busy:
            return
        self.raise_()
        self.activateWindow()
        if path.suffix.lower() in PROJECT_SUFFIXES:
            self.open_project(path)
        else:
            self.open_file(path)

    def _about(self) -> None:
        QMessageBox.about(
            self,
            self.tr("About tclose"),
            "<b>tclose {version}</b><p>{text}</p><p>{log}</p>".format(
                version=__version__,
                text=self.tr(
                    "Publish microdata with k-anonymity, t-closeness and ε-differential privacy "
                    "for the confidential columns; every release is checked by an independent "
                    "verifier before it can be written."
                ),
                log=self.tr("Log file: {path}").format(path=log_path()),
            ),
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        # every background task (the run, the privacy page's plan, …) stops before its
        # thread object can be destroyed: Qt aborts the process over a running QThread
        runners = [self.runner, *self.findChildren(TaskRunner)]
        for runner in runners:
            runner.cancel()
        for runner in runners:
            runner.shutdown()
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self.file_open_filter)
        settings.save_geometry(self.saveGeometry())
        super().closeEvent(event)
