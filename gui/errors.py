"""Showing errors to the user and logging the unexpected ones.

An engine :class:`~engine.errors.TcloseError` is the user's to fix: a dialog shows its message,
with the longer explanation under "Show Details…".  Any other exception is a bug in tclose: it is
written with its traceback to a log file in the user's data folder, the dialog says where, and
the app carries on.
"""

from __future__ import annotations

import logging
import sys
import traceback
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QCoreApplication, QStandardPaths
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from engine import TcloseError

log = logging.getLogger("tclose")
translate = QCoreApplication.translate

_log_file: Path | None = None


def log_path() -> Path:
    """The log file in the user's data folder (created on first use)."""
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    base = Path(folder) if folder else Path.home() / ".tclose"
    base.mkdir(parents=True, exist_ok=True)
    return base / "tclose.log"


def setup_logging() -> Path:
    """Send log records of level INFO and above to :func:`log_path`; returns the file."""
    global _log_file
    if _log_file is None:
        _log_file = log_path()
        handler = logging.FileHandler(_log_file, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root = logging.getLogger()
        root.addHandler(handler)
        if root.level > logging.INFO or root.level == logging.NOTSET:
            root.setLevel(logging.INFO)
    return _log_file


def error_box(
    parent: QWidget | None, title: str, err: BaseException, detail: str = ""
) -> QMessageBox:
    """The dialog for ``err`` (not yet shown): message on top, detail expandable."""
    box = QMessageBox(parent)
    box.setWindowTitle(title)
    if isinstance(err, TcloseError):
        box.setIcon(QMessageBox.Icon.Warning)
        box.setText(err.message)
        extra = err.detail or ""
    else:
        box.setIcon(QMessageBox.Icon.Critical)
        box.setText(
            translate(
                "Errors", "Something went wrong inside tclose; this is a bug, not your mistake."
            )
            + f"\n{type(err).__name__}: {err}"
        )
        where = _log_file or log_path()
        box.setInformativeText(
            translate(
                "Errors", "The details were written to {path}. The app keeps working."
            ).format(path=where)
        )
        extra = detail or "".join(traceback.format_exception(err))
    if extra:
        box.setDetailedText(extra)
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    return box


def report_error(
    parent: QWidget | None, title: str, err: BaseException, detail: str = ""
) -> QMessageBox:
    """Log ``err`` if unexpected and show it in a window-modal dialog; returns the dialog."""
    if not isinstance(err, TcloseError):
        log.error(
            "%s: unexpected error\n%s", title, detail or "".join(traceback.format_exception(err))
        )
    box = error_box(parent, title, err, detail)
    box.setWindowModality(box.windowModality().WindowModal)
    box.open()
    return box


def install_excepthook() -> None:
    """Log uncaught exceptions (e.g. in a slot) and show them instead of aborting."""

    def hook(kind: type[BaseException], err: BaseException, tb: TracebackType | None) -> None:
        detail = "".join(traceback.format_exception(kind, err, tb))
        log.error("uncaught exception\n%s", detail)
        app = QApplication.instance()
        if app is not None and not isinstance(err, KeyboardInterrupt):
            report_error(QApplication.activeWindow(), "tclose", err, detail)
        else:
            sys.__excepthook__(kind, err, tb)

    sys.excepthook = hook
