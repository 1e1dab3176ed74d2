"""Every kind of file tclose reads or writes, in one table: :data:`FORMATS`.

Each row says which names (suffixes) the format goes by, which reader reads it, whether a
release can be written in it, what the app's file dialogs call it and whether a cluster
reads or writes it.  The readers, the writers, the cluster and the app all take their
suffix sets from here (the model is glue's ``data_factory`` / ``data_exporter``
registries), so a format is added in one place.

The labels are marked for the app's translation files (context ``formats``): the app
shows them translated; the engine's messages keep them in English.

The reader names the module that reads it: ``delimited`` (:mod:`engine.io.delimited`,
which also unpacks gzip), ``workbook`` (:mod:`engine.io.excel`), ``stats``
(:mod:`engine.io.stats`, the optional pyreadstat) and ``parquet``
(:mod:`engine.io.parquet`).  :func:`engine.io.read.read_table` dispatches on a file's
content first (a workbook named ``.csv`` is read as a workbook) and on its name second.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


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

    @property
    def patterns(self) -> str:
        """Its names as a file dialog's patterns: "*.parquet *.pq *.parq"."""
        return " ".join(f"*{s}" for s in self.suffixes)

    @property
    def delimited(self) -> bool:
        """Written as delimited text, so a separator, a decimal mark and a byte-order mark
        are the writer's options."""
        return self.reader == "delimited"


FORMATS: tuple[FileFormat, ...] = (
    FileFormat(QT_TRANSLATE_NOOP("formats", "CSV text"), (".csv",), "delimited",
               writes=True, exported_by_app=True, cluster_reads=True, cluster_writes=True),
    FileFormat(QT_TRANSLATE_NOOP("formats", "Tab-separated text"), (".tsv",), "delimited",
               writes=True, cluster_reads=True, cluster_writes=True),
    FileFormat(QT_TRANSLATE_NOOP("formats", "Text"), (".txt",), "delimited",
               writes=True, cluster_reads=True, cluster_writes=True),
    FileFormat(QT_TRANSLATE_NOOP("formats", "Excel workbook"), (".xlsx",), "workbook",
               writes=True, metadata_inside=True, exported_by_app=True, cluster_writes=True),
    FileFormat(QT_TRANSLATE_NOOP("formats", "Excel workbook with macros"), (".xlsm",),
               "workbook"),
    FileFormat(QT_TRANSLATE_NOOP("formats", "Excel 97–2003 workbook"), (".xls",), "workbook"),
    FileFormat(QT_TRANSLATE_NOOP("formats", "OpenDocument spreadsheet"), (".ods",),
               "workbook"),
    FileFormat(QT_TRANSLATE_NOOP("formats", "Parquet"), (".parquet", ".pq", ".parq"),
               "parquet", writes=True, cluster_reads=True, cluster_writes=True),
    FileFormat(QT_TRANSLATE_NOOP("formats", "SPSS data"), (".sav", ".zsav"), "stats"),
    FileFormat(QT_TRANSLATE_NOOP("formats", "Stata data"), (".dta",), "stats"),
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


#: what a release can be written as (its first name: ".parquet", not ".pq")
RELEASE_SUFFIXES = tuple(f.suffixes[0] for f in FORMATS if f.writes)
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
    "export_formats",
    "format_of",
    "open_patterns",
    "read_by",
    "suffixes",
]
