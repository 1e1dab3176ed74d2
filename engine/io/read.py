"""Reading a table from a file: one entry point for CSV/TSV/TXT, workbooks and SPSS/Stata.

The file's first bytes decide how it is read, not only its name: a workbook saved as
``.csv`` is read as a workbook (and said so), binary data named ``.csv`` is refused with a
clear message.  The result is always the complete table or an :class:`InputError`.
"""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path

import pandas as pd

from engine.errors import InputError
from engine.i18n import _
from engine.io.codebook import Codebook, sidecar_codebook
from engine.io.delimited import read_delimited
from engine.io.excel import list_sheets
from engine.io.files import (
    check_memory,
    human_size,
    memory_budget,
    open_checked,
    too_large,
)
from engine.io.formats import ReadJob, format_for, format_of
from engine.io.info import ImportInfo, ImportResult, ReadOptions
from engine.io.parquet import is_parquet, read_parquet
from engine.io.textblocks import GZIP_MAGIC
from engine.progress import NO_TASK, Task
from engine.text import number

#: bytes in memory per byte of a CSV file, roughly (the text, its UTF-8 copy and the frame)
CSV_EXPANSION = 4
#: bytes unpacked from a gzip file between two checks of the memory they take
GZIP_BLOCK = 1 << 24

__all__ = ["ImportInfo", "ImportResult", "ReadOptions", "list_sheets", "read_table"]


def read_table(
    path: str | Path,
    *,
    sep: str | None = None,
    sheet: str | int | None = None,
    encoding: str | None = None,
    decimal: str | None = None,
    header_row: int | None = None,
    options: ReadOptions | None = None,
    memory_limit: int | None = None,
    task: Task = NO_TASK,
) -> ImportResult:
    """Read a CSV/TSV/TXT, Excel/OpenDocument or SPSS/Stata file into a DataFrame.

    Every argument left as None is guessed and the guess reported in ``info.guessed``:
    ``sep`` (one of , ; tab |), ``encoding``, ``decimal`` ('.' or ','; for workbooks, how
    numbers stored as text are read), ``sheet`` (name or 0-based index; by default the sheet
    that looks most like a data table), ``header_row`` (0-based; rows above it are title
    lines).  A caller that keeps these settings together (the import page, a project file)
    passes them as one :class:`ReadOptions` in ``options`` instead.  ``memory_limit`` (bytes)
    replaces the measured free memory in the check that refuses files too large to read.
    Raises InputError (never a partial table) and CancelledError when the task is
    cancelled.  A Parquet dataset folder is read whole, its parts in name order.
    """
    given = ReadOptions(
        sep=sep, sheet=sheet, encoding=encoding, decimal=decimal, header_row=header_row
    )
    if options is None:
        options = given
    elif given != ReadOptions():
        raise TypeError("read_table: give the reading settings as keywords or as options, not both")
    if Path(path).is_dir() and is_parquet(Path(path)):
        return _read_folder(Path(path), memory_limit, task)
    path, head, size = open_checked(path)
    task.step(0.0, _("Reading {name}").format(name=path.name))
    suffix = path.suffix.lower()
    info = ImportInfo(path, suffix.lstrip(".") or "csv", size=size)
    try:
        data = _read_any(ReadJob(path, head, size, info, options, memory_limit, task))
    except MemoryError as exc:
        raise InputError(
            _(
                "{name}: the computer ran out of memory while reading it "
                "({size} on disk). Close other programs, or split the file and "
                "import the parts."
            ).format(name=path.name, size=human_size(size))
        ) from exc
    data = data.reset_index(drop=True)
    info.n_rows, info.n_columns = data.shape
    task.step(
        1.0,
        _("Read {n_rows} rows × {n_columns} columns").format(
            n_rows=number(info.n_rows), n_columns=info.n_columns
        ),
    )
    return ImportResult(data, info)


def _read_any(job: ReadJob) -> pd.DataFrame:
    """Dispatch on the file's content first and on its name second (the format table,
    :func:`engine.io.formats.format_for`), to the reader the format registers."""
    path, info = job.path, job.info
    fmt, overruled = format_for(path.name, job.head)
    if overruled:
        if fmt.reader == "workbook":
            note = _("{name} is a workbook despite its name; read as one.")
        else:
            note = _("{name} is a {format} file despite its name; read as one.")
        info.notes.append(note.format(name=path.name, format=fmt.label))
        info.format = fmt.suffixes[0].lstrip(".")
    return fmt.reader_function()(job)


def read_text(job: ReadJob) -> pd.DataFrame:
    """Delimited text (CSV, TSV, TXT), unpacked first when it is gzip-compressed."""
    path, size, info, memory_limit = job.path, job.size, job.info, job.memory_limit
    info.format = "csv"
    if job.head.startswith(GZIP_MAGIC):
        content = _gunzip(path, size, memory_limit)
        info.notes.append(
            _("{name} is gzip-compressed; it was unpacked in memory.").format(name=path.name)
        )
    else:
        check_memory(path, size * CSV_EXPANSION, memory_limit)
        content = path.read_bytes()
    data = read_delimited(path, content, info, job.options, task=job.task)
    info.codebook = _sidecar_codebook(path)
    return data


def read_codebook(path: str | Path) -> Codebook:
    """The labels a file carries, without reading its data (a cluster reads the data part
    by part): an SPSS or Stata file's own, a text release's JSON sidecar's; an empty
    codebook for any other file."""
    path = Path(path)
    fmt = format_of(path.name)
    if fmt is not None and fmt.reader == "stats" and path.is_file():
        from engine.io.stats import read_codebook as stats_codebook

        return stats_codebook(path)
    if fmt is not None and fmt.delimited and path.is_file():
        return _sidecar_codebook(path)
    return Codebook()


def _sidecar_codebook(path: Path) -> Codebook:
    """The labels a release tclose wrote keeps beside it (``out.csv`` → ``out.json``)."""
    side = path.with_suffix(".json")
    if side == path or not side.is_file():
        return Codebook()
    try:
        return sidecar_codebook(json.loads(side.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return Codebook()


def _gunzip(path: Path, size: int, memory_limit: int | None) -> bytes | bytearray:
    """The unpacked bytes of a gzip-compressed text file (``.csv.gz``), checked for memory.

    The gzip trailer states the unpacked size modulo 4 GiB (a file of 4 GiB + 100 bytes
    claims 100), and deflate packs at most about 1032:1, so the trailer refuses a file before
    it is unpacked only when it already claims too much; the unpacking itself then counts
    every byte against the memory there is and stops as soon as the text would not fit.
    """
    with path.open("rb") as fh:
        fh.seek(max(size - 4, 0))
        unpacked = int.from_bytes(fh.read(4), "little")
    unpacked = min(max(unpacked, size), size * 1032)
    check_memory(path, unpacked * CSV_EXPANSION, memory_limit)
    budget = memory_budget(memory_limit)
    limit = None if budget is None else budget // CSV_EXPANSION
    out = bytearray()
    try:
        with gzip.open(path, "rb") as fh:
            while block := fh.read(GZIP_BLOCK):
                out += block
                if limit is not None and len(out) > limit:
                    raise too_large(path, len(out) * CSV_EXPANSION, budget or 0, more=True)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(
            _(
                "{name} is a damaged or truncated gzip file, so it cannot be read. Unpack "
                "it with another program to check it, or compress the CSV again."
            ).format(name=path.name)
        ) from exc
    return out


def _read_folder(path: Path, memory_limit: int | None, task: Task) -> ImportResult:
    """A Parquet dataset folder (the only kind of folder that holds one table)."""
    task.step(0.0, _("Reading {name}").format(name=path.name))
    notes: list[str] = []
    data = read_parquet(path, memory_limit=memory_limit, notes=notes)
    info = ImportInfo(path, "parquet", n_rows=len(data), n_columns=data.shape[1], notes=notes)
    task.step(
        1.0,
        _("Read {n_rows} rows × {n_columns} columns").format(
            n_rows=number(info.n_rows), n_columns=info.n_columns
        ),
    )
    return ImportResult(data, info)
