"""Every kind of file tclose reads or writes, registered in one table: :data:`FORMATS`.

Each entry (a :class:`FileFormat`) names the format (its label and suffixes), the function
that reads it and the function that writes a release in it, the bytes a file of it starts
with, its priority when a file's content matches several, whether it holds its published
metadata inside, and whether the app and a cluster offer it.  The readers
(:func:`engine.io.read.read_table`), the writers (:func:`engine.io.write.write_release`),
the cluster and the app all read this table and call the functions it names, so a new
format is one entry here and its two functions (the model is glue's ``DataFactoryRegistry``
and ``DataExporterRegistry``: a function, a label, an identifier and a priority).

The functions are named as ``"module:function"`` and imported when first called, so that
importing the table stays cheap and the optional packages (pyarrow, pyreadstat) are needed
only by the formats that use them.  A reader is called as ``read(job)`` with a
:class:`ReadJob` and returns the table (its labels, if the format carries any, go to
``job.info.codebook``); a writer as ``write(job)`` with a :class:`WriteJob`.

The labels are marked for the app's translation files (context ``formats``): the app
shows them translated; the engine's messages keep them in English.

:func:`engine.io.read.read_table` dispatches on a file's content first (a workbook named
``.csv`` is read as a workbook) and on its name second.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.io.info import ImportInfo, ReadOptions
    from engine.progress import Task


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name Qt's lupdate knows
    """Mark ``text`` for the app's translation files (context ``formats``); no Qt here."""
    return text


@dataclass(frozen=True)
class FileFormat:
    """One kind of file (module doc)."""

    # what the file dialogs call it (in English; the app translates it)
    label: str
    # the names it goes by, lower case; a release is written with the first
    suffixes: tuple[str, ...]
    # the module that reads it: "delimited", "workbook", "stats" or "parquet"
    reader: str
    # a release can be written in it (tclose anonymize -o, the app's export)
    writes: bool = False
    # its published metadata is inside the file (the About sheet) rather than in a JSON
    # file beside it
    metadata_inside: bool = False
    # the app offers it when a release is exported
    exported_by_app: bool = False
    # a cluster reads it (partition by partition) / writes a release in it
    cluster_reads: bool = False
    cluster_writes: bool = False
    #: the function that reads it ("module:function"; module doc)
    read: str = ""
    #: the function that writes a release in it ("module:function"; "" = not written)
    write: str = ""
    #: the bytes a file of this format starts with (its content decides before its name)
    magic: tuple[bytes, ...] = ()
    #: when a file's first bytes match several formats, the highest priority reads it
    priority: int = 0

    def reader_function(self) -> Callable[[ReadJob], Any]:
        """The function that reads this format (imported on first use)."""
        return _function(self.read)

    def writer_function(self) -> Callable[[WriteJob], None]:
        """The function that writes a release in this format (imported on first use)."""
        return _function(self.write)

    def matches(self, head: bytes) -> bool:
        """Whether a file starting with ``head`` is of this format by its content."""
        return bool(self.magic) and head.startswith(self.magic)

    @property
    def patterns(self) -> str:
        """Its names as a file dialog's patterns: "*.parquet *.pq *.parq"."""
        return " ".join(f"*{s}" for s in self.suffixes)

    @property
    def delimited(self) -> bool:
        """Written as delimited text, so a separator, a decimal mark and a byte-order mark
        are the writer's options."""
        return self.reader == "delimited"


@dataclass
class ReadJob:
    """What a reader is given: the file (its first bytes and size, read once when it was
    opened and checked), the import's report to fill in, the reading settings, the memory
    it may use and the task to report progress to."""

    path: Path
    #: the first bytes (what the format was recognised by)
    head: bytes
    size: int
    #: what the import found and guessed, filled in by the reader
    info: ImportInfo
    options: ReadOptions
    #: bytes the reader may use instead of the measured free memory (None: measure)
    memory_limit: int | None
    task: Task


@dataclass
class WriteJob:
    """What a writer is given: the released table, the staged file to write it to, the
    published metadata, the release's codebook, and for text the CSV settings."""

    table: Any  # pandas.DataFrame
    #: the staged file (renamed onto the target when every output is written)
    target: Path
    #: the suffix the release is named with (".sav" or ".zsav" for one writer)
    suffix: str
    #: the published metadata (``RunSummary.public_dict()``), with the software and time
    metadata: dict[str, Any]
    #: the release's labels (:class:`engine.io.codebook.Codebook`)
    codebook: Any
    #: separator, decimal mark and byte-order mark of a text release
    csv_format: Any
    #: a new scratch file beside the target (a workbook spools its sheets there)
    scratch: Callable[[], Path]
    task: Any


def _function(spec: str) -> Callable[..., Any]:
    module, _, name = spec.partition(":")
    if not module or not name:
        raise ValueError(f"format function {spec!r}: name it as 'module:function'")
    return getattr(importlib.import_module(module), name)


_ZIP = b"PK\x03\x04"
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_TEXT = {"read": "engine.io.read:read_text", "write": "engine.io.write:write_text"}
_BOOK = {"read": "engine.io.excel:read_workbook"}
_STATS = {"read": "engine.io.stats:read_file", "write": "engine.io.stats:write_file"}

FORMATS: tuple[FileFormat, ...] = (
    FileFormat(QT_TRANSLATE_NOOP("formats", "CSV text"), (".csv",), "delimited",
               writes=True, exported_by_app=True, cluster_reads=True, cluster_writes=True,
               **_TEXT),
    FileFormat(QT_TRANSLATE_NOOP("formats", "Tab-separated text"), (".tsv",), "delimited",
               writes=True, cluster_reads=True, cluster_writes=True, **_TEXT),
    FileFormat(QT_TRANSLATE_NOOP("formats", "Text"), (".txt",), "delimited",
               writes=True, cluster_reads=True, cluster_writes=True, **_TEXT),
    FileFormat(QT_TRANSLATE_NOOP("formats", "Excel workbook"), (".xlsx",), "workbook",
               writes=True, metadata_inside=True, exported_by_app=True, cluster_writes=True,
               write="engine.io.write:write_xlsx", magic=(_ZIP,), priority=2, **_BOOK),
    FileFormat(QT_TRANSLATE_NOOP("formats", "Excel workbook with macros"), (".xlsm",),
               "workbook", magic=(_ZIP,), priority=1, **_BOOK),
    FileFormat(QT_TRANSLATE_NOOP("formats", "Excel 97–2003 workbook"), (".xls",), "workbook",
               magic=(_OLE,), priority=1, **_BOOK),
    FileFormat(QT_TRANSLATE_NOOP("formats", "OpenDocument spreadsheet"), (".ods",),
               "workbook", magic=(_ZIP,), **_BOOK),
    FileFormat(QT_TRANSLATE_NOOP("formats", "Parquet"), (".parquet", ".pq", ".parq"),
               "parquet", writes=True, cluster_reads=True, cluster_writes=True,
               read="engine.io.parquet:read_file", write="engine.io.parquet:write_file",
               magic=(b"PAR1",), priority=3),
    FileFormat(QT_TRANSLATE_NOOP("formats", "SPSS data"), (".sav",), "stats",
               writes=True, metadata_inside=True, exported_by_app=True, cluster_writes=True,
               magic=(b"$FL2",), **_STATS),
    FileFormat(QT_TRANSLATE_NOOP("formats", "SPSS compressed data"), (".zsav",), "stats",
               writes=True, metadata_inside=True, cluster_writes=True, magic=(b"$FL3",),
               **_STATS),
    FileFormat(QT_TRANSLATE_NOOP("formats", "Stata data"), (".dta",), "stats",
               writes=True, metadata_inside=True, exported_by_app=True, cluster_writes=True,
               magic=(b"<stata_dta>",), **_STATS),
)  # fmt: skip


def suffixes(formats: Iterable[FileFormat] = FORMATS) -> tuple[str, ...]:
    """Every name of ``formats``, in table order."""
    return tuple(s for f in formats for s in f.suffixes)


def read_by(reader: str) -> tuple[str, ...]:
    """The suffixes read by ``reader`` ("delimited", "workbook", "stats", "parquet")."""
    return suffixes(f for f in FORMATS if f.reader == reader)


def format_of(name: str) -> FileFormat | None:
    """The format a file name (or a bare suffix) goes by; None for an unknown one."""
    dot = name.lower().rfind(".")
    suffix = name.lower()[dot:] if dot >= 0 else ""
    return next((f for f in FORMATS if suffix in f.suffixes), None)


def format_by_content(head: bytes) -> FileFormat | None:
    """The format a file's first bytes say it is (the highest priority among those whose
    ``magic`` they start with); None when no format recognises them."""
    found = [f for f in FORMATS if f.matches(head)]
    return max(found, key=lambda f: f.priority) if found else None


def format_for(name: str, head: bytes) -> tuple[FileFormat, bool]:
    """The format a file is read as, and whether its content overruled its name.

    A name whose own format recognises the content wins; otherwise the content decides
    (a workbook named ``.csv``); a content no format recognises is read by its name, and a
    name no format knows as delimited text (CSV).
    """
    named = format_of(name)
    if named is not None and named.matches(head):
        return named, False
    found = format_by_content(head)
    if found is not None:
        return found, named is None or named.reader != found.reader
    return (named or FORMATS[0]), False


def release_suffixes() -> tuple[str, ...]:
    """What a release can be written as (its first name: ".parquet", not ".pq"), read from
    the table when asked, so that a format added to it is written."""
    return tuple(f.suffixes[0] for f in FORMATS if f.writes)


#: what a release can be written as (as the table stands on import)
RELEASE_SUFFIXES = release_suffixes()
#: what the app offers first when it exports a release
DEFAULT_EXPORT = ".xlsx"


def export_formats() -> tuple[FileFormat, ...]:
    """What the app offers when it exports a release: every ``exported_by_app`` format, the
    default (:data:`DEFAULT_EXPORT`) first and the others in table order.  Read when asked,
    so that a format added to :data:`FORMATS` is offered."""
    offered = [f for f in FORMATS if f.exported_by_app]
    return tuple(sorted(offered, key=lambda f: f.suffixes[0] != DEFAULT_EXPORT))


#: what the app offers when it exports a release (as the table stands on import)
EXPORT_SUFFIXES = tuple(f.suffixes[0] for f in export_formats())
#: what a cluster writes a release as ("" = a name without a suffix, a Parquet dataset folder)
CLUSTER_SUFFIXES = (*(f.suffixes[0] for f in FORMATS if f.cluster_writes), "")


def open_patterns() -> str:
    """The patterns of every readable file, for an open dialog: "*.csv *.tsv …"."""
    return " ".join(f.patterns for f in FORMATS)


__all__ = [
    "CLUSTER_SUFFIXES",
    "DEFAULT_EXPORT",
    "EXPORT_SUFFIXES",
    "FORMATS",
    "QT_TRANSLATE_NOOP",
    "RELEASE_SUFFIXES",
    "FileFormat",
    "ReadJob",
    "WriteJob",
    "export_formats",
    "format_by_content",
    "format_for",
    "format_of",
    "open_patterns",
    "read_by",
    "release_suffixes",
    "suffixes",
]
