"""What a wizard page needs from the wizard that holds it (so pages never import the wizard)."""

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
