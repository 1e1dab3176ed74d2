"""``tclose-gui --smoke-test``: prove that an installed app works end to end (stub)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication


def run_smoke_test(app: QApplication) -> int:
    return 1
