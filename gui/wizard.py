"""The main window: the five-step wizard, its menu, and the progress panel beneath it."""

from __future__ import annotations

import importlib
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QAction, QCloseEvent, QDesktopServices, QKeySequence
from PySide6.QtWidgets import (
    QMainWindow,
    QMessageBox,
    QVBoxLayout,
    QWidget,
    QWizard,
)

from engine.version import __version__
from gui import settings
from gui.errors import log_path
from gui.pages.export_page import ExportPage
from gui.pages.import_page import ImportPage
from gui.pages.preview_page import PreviewPage
from gui.pages.privacy_page import PrivacyPage
from gui.pages.tag_page import TagPage
from gui.state import Session
from gui.widgets import ProgressPanel
from gui.worker import TaskRunner

PAGE_IMPORT, PAGE_TAG, PAGE_PRIVACY, PAGE_PREVIEW, PAGE_EXPORT = range(5)


class TcloseWizard(QWizard):
    """Import → tag → privacy level → preview → export, over one :class:`Session`."""

    def __init__(self, session: Session, runner: TaskRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.runner = runner
        self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setOption(QWizard.WizardOption.NoCancelButton, True)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
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
        self.setButtonText(QWizard.WizardButton.FinishButton, "&Close")
        self.button(QWizard.WizardButton.NextButton).setToolTip("Go to the next step (Alt+N)")
        self.button(QWizard.WizardButton.BackButton).setToolTip("Go back one step (Alt+B)")
        self.import_page.loaded.connect(self._data_loaded)
        runner.busy_changed.connect(self._busy_changed)

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


class MainWindow(QMainWindow):
    """The wizard plus a menu bar (File, Tools, Help) and the progress panel."""

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle(f"tclose {__version__} — publish microdata safely")
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
        geometry = settings.geometry()
        if geometry is None or not self.restoreGeometry(geometry):
            self.resize(1100, 760)

    def _build_menu(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        open_action = QAction("&Open…", self)
        open_action.setShortcut(QKeySequence.StandardKey.Open)
        open_action.triggered.connect(self._open)
        sample_action = QAction("Open the &sample", self)
        sample_action.triggered.connect(self._open_sample)
        file_menu.addAction(open_action)
        file_menu.addAction(sample_action)
        self.recent_menu = file_menu.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        file_menu.addSeparator()
        self._add_optional(file_menu, "gui.project_io")
        file_menu.addSeparator()
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)

        tools_menu = self.menuBar().addMenu("&Tools")
        self._add_optional(tools_menu, "gui.sweep_dialog")
        if tools_menu.isEmpty():
            placeholder = QAction("(no tools in this build)", self)
            placeholder.setEnabled(False)
            tools_menu.addAction(placeholder)

        help_menu = self.menuBar().addMenu("&Help")
        log_action = QAction("Open the &log folder", self)
        log_action.triggered.connect(
            lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(log_path().parent)))
        )
        about_action = QAction("&About tclose", self)
        about_action.triggered.connect(self._about)
        help_menu.addAction(log_action)
        help_menu.addAction(about_action)

    def _add_optional(self, menu, module_name: str) -> None:
        """Let an optional module add its actions: ``install_menu(window, menu)``."""
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            return
        install = getattr(module, "install_menu", None)
        if install is not None:
            install(self, menu)

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
            none = self.recent_menu.addAction("(none yet)")
            none.setEnabled(False)

    def open_file(self, path: Path) -> None:
        self.wizard.restart()
        self.wizard.import_page.open_path(Path(path))

    def _about(self) -> None:
        QMessageBox.about(
            self,
            "About tclose",
            f"<b>tclose {__version__}</b><p>Publish microdata with k-anonymity, t-closeness and "
            "ε-differential privacy for the confidential columns; every release is checked by an "
            "independent verifier before it can be written.</p>"
            f"<p>Log file: {log_path()}</p>",
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.runner.busy:
            self.runner.cancel()
            self.runner.wait(3000)
        settings.save_geometry(self.saveGeometry())
        super().closeEvent(event)
