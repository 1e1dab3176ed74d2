"""Every kind of file tclose reads or writes, in one table: :data:`FORMATS`.

Each row says which names (suffixes) the format goes by, which reader reads it, whether a
release can be written in it, what the app's file dialogs call it and whether a cluster
reads or writes it.  The readers, the writers, the cluster and the app all take their
suffix sets from here (the model is glue's ``data_factory`` / ``data_exporter``
registries), so a format is added in one place.

The reader names the module that reads it: ``delimited`` (:mod:`engine.io.delimited`,
which also unpacks gzip), ``workbook`` (:mod:`engine.io.excel`), ``stats``
(:mod:`engine.io.stats`, the optional pyreadstat) and ``parquet``
(:mod:`engine.io.parquet`).  :func:`engine.io.read.read_table` dispatches on a file's
content first (a workbook named ``.csv`` is read as a workbook) and on its name second.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class FileFormat:
    """One kind of file (module doc)."""

    #: what the file dialogs call it
    label: str
    #: the names it goes by, lower case; a release is written with the first
    suffixes: tuple[str, ...]
    #: the module that reads it: "delimited", "workbook", "stats" or "parquet"
    reader: str
    #: a release can be written in it (tclose anonymize -o, the app's export)
    writes: bool = False
    #: its published metadata is inside the file (the About sheet) rather than in a JSON
    #: file beside it
    metadata_inside: bool = False
    #: the app offers it when a release is exported
    exported_by_app: bool = False
    #: a cluster reads it (partition by partition) / writes a release in it
    cluster_reads: bool = False
    cluster_writes: bool = False


FORMATS: tuple[FileFormat, ...] = (
    FileFormat("CSV text", (".csv",), "delimited", writes=True, exported_by_app=True,
               cluster_reads=True, cluster_writes=True),
    FileFormat("Tab-separated text", (".tsv",), "delimited", writes=True, cluster_reads=True,
               cluster_writes=True),
    FileFormat("Text", (".txt",), "delimited", writes=True, cluster_reads=True,
               cluster_writes=True),
    FileFormat("Excel workbook", (".xlsx",), "workbook", writes=True, metadata_inside=True,
               exported_by_app=True, cluster_writes=True),
    FileFormat("Excel workbook with macros", (".xlsm",), "workbook"),
    FileFormat("Excel 97–2003 workbook", (".xls",), "workbook"),
    FileFormat("OpenDocument spreadsheet", (".ods",), "workbook"),
    FileFormat("Parquet", (".parquet", ".pq", ".parq"), "parquet", writes=True,
               cluster_reads=True, cluster_writes=True),
    FileFormat("SPSS data", (".sav", ".zsav"), "stats"),
    FileFormat("Stata data", (".dta",), "stats"),
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
#: what the app offers when it exports a release
EXPORT_SUFFIXES = tuple(f.suffixes[0] for f in FORMATS if f.exported_by_app)
#: what a cluster writes a release as ("" = a name without a suffix, a Parquet dataset folder)
CLUSTER_SUFFIXES = (*(f.suffixes[0] for f in FORMATS if f.cluster_writes), "")


def open_patterns() -> str:
    """The patterns of every readable file, for an open dialog: "*.csv *.tsv …"."""
    return " ".join(f"*{s}" for s in suffixes())


__all__ = [
    "CLUSTER_SUFFIXES",
    "EXPORT_SUFFIXES",
    "FORMATS",
    "RELEASE_SUFFIXES",
    "FileFormat",
    "format_of",
    "open_patterns",
    "read_by",
    "suffixes",
]
