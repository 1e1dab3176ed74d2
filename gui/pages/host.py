"""What a wizard page needs from the wizard that holds it (so pages never import the wizard),
and the base class every page of the wizard is."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtWidgets import QWizardPage

from gui.state import Session
from gui.worker import TaskRunner


class Host(Protocol):
    """The wizard as a page sees it: the shared session, the task runner, the current page."""

    session: Session
    runner: TaskRunner

    def currentPage(self) -> QWizardPage | None: ...


class Page(QWizardPage):
    """A page of the wizard: it sees the wizard only as a :class:`Host`, and the session the
    wizard holds (``docs/development.md``, "Adding a page")."""

    def __init__(self, wizard: Host) -> None:
        super().__init__()
        self._wizard = wizard
        self.session = wizard.session
