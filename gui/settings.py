"""What the app remembers between sessions: recent files, folders, window geometry, language.

Every setting is declared once, as a :class:`Setting` (napari's settings model: a name, a
title and description for people, a default and a validator): a value read back that the
validator refuses (a file edited by hand, an older version's spelling) gives the default,
never an error, and a value is checked before it is stored.  The settings carry a schema
version (:data:`SCHEMA_VERSION`), written with every change, so that a later version can
tell which spelling a stored value has and convert it (:func:`migrate`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QT_TRANSLATE_NOOP, QByteArray, QSettings, QStandardPaths

from engine.i18n import LANGUAGES

ORGANIZATION = "tclose"
APPLICATION = "tclose"
MAX_RECENT = 8
#: the version of the stored settings' layout (1: the settings declared here)
SCHEMA_VERSION = 1
#: where the version is stored
VERSION_KEY = "schema_version"

T = TypeVar("T")


def settings() -> QSettings:
    """The app's settings, in ``QSettings.defaultFormat()`` (tests and screenshots switch it to
    INI files in a throwaway folder; ``QSettings(org, app)`` alone would ignore that)."""
    return QSettings(
        QSettings.defaultFormat(), QSettings.Scope.UserScope, ORGANIZATION, APPLICATION
    )


@dataclass(frozen=True)
class Setting(Generic[T]):
    """One remembered value: its key, its words for people, its default and its check."""

    #: the key in QSettings
    name: str
    #: what it is, for people (marked for translation in the context "Settings")
    title: str
    description: str
    default: T
    #: the value as stored → the value (ValueError when it is not one)
    validate: Callable[[Any], T]

    def get(self) -> T:
        """The stored value, or the default when none is stored or it is not valid."""
        raw = settings().value(self.name, None)
        if raw is None:
            return self.default
        try:
            return self.validate(raw)
        except (ValueError, TypeError):
            return self.default

    def set(self, value: T) -> None:
        """Store ``value`` (ValueError, and nothing stored, when it is not valid)."""
        checked = self.validate(value)
        store = settings()
        store.setValue(self.name, checked)
        store.setValue(VERSION_KEY, SCHEMA_VERSION)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"not a text: {value!r}")
    return value


def _one_of(*choices: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if _text(value) not in choices:
            raise ValueError(f"{value!r} is not one of {choices}")
        return value

    return check


#: the languages the app ships: the engine's one declared list
LANGUAGE_CODES = tuple(LANGUAGES)


def _texts(value: Any) -> list[str]:
    """A list of texts (QSettings gives a single text for a list of one, in INI files)."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"not a list of texts: {value!r}")
    return [v for v in value if v][:MAX_RECENT]


def _bytes(value: Any) -> QByteArray:
    if not isinstance(value, QByteArray):
        raise ValueError("not a window geometry")
    return value


RECENT_FILES = Setting(
    "recent_files",
    QT_TRANSLATE_NOOP("Settings", "Recent files"),
    QT_TRANSLATE_NOOP("Settings", "The files opened last, newest first (File › Open recent)."),
    [],
    _texts,
)
LAST_FOLDER = Setting(
    "last_folder",
    QT_TRANSLATE_NOOP("Settings", "Last folder"),
    QT_TRANSLATE_NOOP("Settings", "Where File › Open starts: the folder of the last file."),
    "",
    _text,
)
EXPORT_FOLDER = Setting(
    "export_folder",
    QT_TRANSLATE_NOOP("Settings", "Export folder"),
    QT_TRANSLATE_NOOP("Settings", "Where a release is saved by default: the last export's."),
    "",
    _text,
)
GEOMETRY = Setting(
    "geometry",
    QT_TRANSLATE_NOOP("Settings", "Window size and place"),
    QT_TRANSLATE_NOOP("Settings", "The main window as it was left."),
    None,
    _bytes,
)
LANGUAGE = Setting(
    "language",
    QT_TRANSLATE_NOOP("Settings", "Language"),
    QT_TRANSLATE_NOOP("Settings", "The language of the app (empty: the system's)."),
    "",
    _one_of("", *LANGUAGE_CODES),
)
COLOR_SCHEME = Setting(
    "color_scheme",
    QT_TRANSLATE_NOOP("Settings", "Colours"),
    QT_TRANSLATE_NOOP("Settings", "Light or dark (empty: as the system)."),
    "",
    _one_of("", "light", "dark"),
)
#: every setting the app keeps
SETTINGS: tuple[Setting[Any], ...] = (
    RECENT_FILES,
    LAST_FOLDER,
    EXPORT_FOLDER,
    GEOMETRY,
    LANGUAGE,
    COLOR_SCHEME,
)


def migrate() -> int:
    """Bring stored settings to :data:`SCHEMA_VERSION`; the version they had.

    Version 0 (no version stored) used the same keys and spellings as version 1, so there is
    nothing to convert yet; a value that does not validate is dropped here rather than read
    as the default again and again.
    """
    store = settings()
    try:
        found = int(store.value(VERSION_KEY, 0))
    except (TypeError, ValueError):
        found = 0
    if found < SCHEMA_VERSION:
        for setting in SETTINGS:
            raw = store.value(setting.name, None)
            if raw is None:
                continue
            try:
                setting.validate(raw)
            except (ValueError, TypeError):
                store.remove(setting.name)
        store.setValue(VERSION_KEY, SCHEMA_VERSION)
    return found


def recent_files() -> list[Path]:
    """Recently opened files that still exist, newest first."""
    return [Path(p) for p in RECENT_FILES.get() if Path(p).is_file()]


def add_recent_file(path: Path) -> None:
    path = Path(path).resolve()
    files = [path, *(p for p in recent_files() if p.resolve() != path)][:MAX_RECENT]
    RECENT_FILES.set([str(p) for p in files])
    LAST_FOLDER.set(str(path.parent))


def last_folder() -> str:
    value = LAST_FOLDER.get()
    return value if value and Path(value).is_dir() else str(Path.home())


def set_last_folder(folder: Path) -> None:
    LAST_FOLDER.set(str(folder))


def geometry() -> QByteArray | None:
    return GEOMETRY.get()


def save_geometry(value: QByteArray) -> None:
    GEOMETRY.set(value)


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
    value = EXPORT_FOLDER.get()
    if value and Path(value).is_dir():
        return Path(value)
    return documents_folder()


def set_export_folder(folder: Path) -> None:
    EXPORT_FOLDER.set(str(folder))


def language() -> str:
    """The language chosen in the settings dialog ("" = follow the system)."""
    return LANGUAGE.get()


def set_language(code: str) -> None:
    LANGUAGE.set(code)


def color_scheme() -> str:
    """The colour scheme chosen in the settings dialog ("" = follow the system)."""
    return COLOR_SCHEME.get()


def set_color_scheme(scheme: str) -> None:
    COLOR_SCHEME.set(scheme)
