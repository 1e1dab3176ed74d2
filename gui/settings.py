"""What the app remembers between sessions: recent files, folders, window geometry, language."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, QStandardPaths

ORGANIZATION = "tclose"
APPLICATION = "tclose"
MAX_RECENT = 8


def settings() -> QSettings:
    """The app's settings, in ``QSettings.defaultFormat()`` (tests and screenshots switch it to
    INI files in a throwaway folder; ``QSettings(org, app)`` alone would ignore that)."""
    return QSettings(
        QSettings.defaultFormat(), QSettings.Scope.UserScope, ORGANIZATION, APPLICATION
    )


def recent_files() -> list[Path]:
    """Recently opened files that still exist, newest first."""
    raw = settings().value("recent_files", [])
    if isinstance(raw, str):
        raw = [raw]
    return [Path(p) for p in (raw or []) if p and Path(p).is_file()]


def add_recent_file(path: Path) -> None:
    path = Path(path).resolve()
    files = [path, *(p for p in recent_files() if p.resolve() != path)][:MAX_RECENT]
    s = settings()
    s.setValue("recent_files", [str(p) for p in files])
    s.setValue("last_folder", str(path.parent))


def last_folder() -> str:
    value = settings().value("last_folder", "")
    return str(value) if value and Path(str(value)).is_dir() else str(Path.home())


def set_last_folder(folder: Path) -> None:
    settings().setValue("last_folder", str(folder))


def geometry() -> QByteArray | None:
    value = settings().value("geometry")
    return value if isinstance(value, QByteArray) else None


def save_geometry(value: QByteArray) -> None:
    settings().setValue("geometry", value)


def documents_folder() -> Path:
    """The user's Documents folder (QStandardPaths); the home folder if there is none."""
    found = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    folder = Path(found) if found else Path.home()
    return folder if folder.is_dir() else Path.home()


def export_folder() -> Path:
    """Where a release is saved by default: the folder of the last export, else Documents.

    Never the folder of the input: that may be the app's own install folder (the sample) or
    a read-only share.
    """
    value = settings().value("export_folder", "")
    if value and Path(str(value)).is_dir():
        return Path(str(value))
    return documents_folder()


def set_export_folder(folder: Path) -> None:
    settings().setValue("export_folder", str(folder))


def language() -> str:
    """The language chosen in the settings dialog ("" = follow the system)."""
    return str(settings().value("language", "") or "")


def set_language(code: str) -> None:
    settings().setValue("language", code)


def color_scheme() -> str:
    """The colour scheme chosen in the settings dialog ("" = follow the system)."""
    return str(settings().value("color_scheme", "") or "")


def set_color_scheme(scheme: str) -> None:
    settings().setValue("color_scheme", scheme)
