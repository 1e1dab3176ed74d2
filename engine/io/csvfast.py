"""A fast CSV writer on pyarrow, with the same safety as the pandas one in :mod:`engine.io.write`.

pandas' ``to_csv`` formats every cell in Python and took about a third of a million-row run;
pyarrow's C++ writer is many times faster.  The columns are prepared first, each distinct
value once (a released column holds a few hundred distinct values): text cells that a
spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``, tab, CR first) get a leading
apostrophe, missing values become empty cells, dates are written as pandas writes them
(``2020-01-02``, or with the time when a column has one) and booleans as ``True``/``False``.
Numbers are written by pyarrow: integers as they are, floats in the shortest form that reads
back to the same double (``1e-07`` becomes ``1e-7``).  Text cells are always quoted (RFC 4180
"needed" quoting in pyarrow's sense), which every spreadsheet and CSV reader accepts.

Used when pyarrow is installed (``tclose[parquet]`` or ``tclose[distributed]``) and the
decimal mark is ``.``; otherwise :func:`write_csv` returns False and the caller writes with
pandas.
"""

from __future__ import annotations

import csv
import importlib.util
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from engine.errors import InputError
from engine.i18n import _
from engine.progress import NO_TASK, Task
from engine.text import number

if TYPE_CHECKING:
    import pyarrow as pa

#: first characters that make Excel or LibreOffice treat a typed text as a formula
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
#: rows per pyarrow batch between two progress reports / cancellation checks
BATCH_ROWS = 200_000


@dataclass(frozen=True)
class CsvFormat:
    """How a release is laid out as text; both CSV writers (this one and pandas') follow it.

    The settings travel together from :func:`~engine.io.write_release` to the writer that
    formats the cells, so that they are checked once and named in one place.
    """

    #: the separator between cells: one character such as , ; | or tab
    sep: str = ","
    #: the decimal mark of numbers, '.' or ','
    decimal: str = "."
    #: start with a UTF-8 byte-order mark, so that Excel shows accented letters right
    bom: bool = True

    def check(self, name: str) -> None:
        """Raise InputError, naming the file ``name``, for a separator no reader could split
        on (the decimal mark included)."""
        if len(self.sep) != 1 or self.sep in "\"'\r\n" or self.sep == self.decimal:
            raise InputError(
                _(
                    "{name}: the separator must be one character other than the decimal mark "
                    "'{decimal}', such as , ; | or tab."
                ).format(name=name, decimal=self.decimal)
            )


def available() -> bool:
    """Whether pyarrow is installed (the fast writer can be used)."""
    return importlib.util.find_spec("pyarrow") is not None


def _guard(text: str) -> str:
    return "'" + text if text.startswith(FORMULA_TRIGGERS) else text


def _text_array(texts: list[str | None], codes: np.ndarray) -> pa.Array:
    """A string column from its distinct (already guarded) texts and every row's code."""
    import pyarrow as pa

    return pa.array(texts, type=pa.string()).take(pa.array(codes, mask=codes < 0))


def column_array(col: pd.Series) -> pa.Array:
    """One column as the pyarrow array the writer formats (see the module doc)."""
    import pyarrow as pa

    dtype = col.dtype
    if pd.api.types.is_bool_dtype(dtype):
        codes, uniques = pd.factorize(col, use_na_sentinel=True)
        return _text_array(["True" if bool(u) else "False" for u in uniques], codes)
    if pd.api.types.is_integer_dtype(dtype) or pd.api.types.is_float_dtype(dtype):
        return pa.array(col, from_pandas=True)
    if pd.api.types.is_datetime64_any_dtype(dtype):
        codes, uniques = pd.factorize(col, use_na_sentinel=True)
        return _text_array(pd.Index(uniques).astype(str).tolist(), codes)
    codes, uniques = pd.factorize(col, use_na_sentinel=True)
    # only texts are guarded: a number in a mixed column (-3) stays a number
    texts = [None if _missing(u) else _guard(u) if isinstance(u, str) else str(u) for u in uniques]
    return _text_array(texts, codes)


def _missing(value: object) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, float | np.floating) and bool(np.isnan(value))


def write_csv(
    table: pd.DataFrame,
    tmp: Path,
    csv_format: CsvFormat,
    *,
    task: Task = NO_TASK,
) -> bool:
    """Write ``table`` to ``tmp`` as UTF-8 CSV (CRLF lines); False when pyarrow cannot.

    The header is written by the csv module (minimal quoting, guarded like any text); the rows
    by pyarrow in batches, with a progress report and a cancellation check between batches.
    """
    if csv_format.decimal != "." or not available():
        return False
    return write_csv_parts(
        [table], list(table.columns), tmp, sep=csv_format.sep, bom=csv_format.bom,
        n_rows=len(table), task=task,
    )  # fmt: skip


def write_csv_parts(
    tables: Iterable[pd.DataFrame],
    columns: list,
    tmp: Path,
    *,
    sep: str,
    bom: bool,
    n_rows: int | None = None,
    task: Task = NO_TASK,
) -> bool:
    """Write the parts of one table (same columns, in order) one after the other: a release
    computed on a cluster is written as its parts arrive, never whole in memory."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    options = pacsv.WriteOptions(
        include_header=False, delimiter=sep, quoting_style="needed", eol="\r\n"
    )
    written = 0
    with tmp.open("wb") as fh:  # an OSError (disk full) reaches the caller as it is
        head = _header_line([str(c) for c in columns], sep)
        fh.write(("\ufeff" if bom else "").encode("utf-8") + head.encode("utf-8"))
        for table in tables:
            n = len(table)
            if table.shape[1] == 0:
                fh.write(b"\r\n" * n)
                continue
            names = [f"c{i}" for i in range(table.shape[1])]
            data = pa.table([column_array(table.iloc[:, i]) for i in range(table.shape[1])],
                            names=names)  # fmt: skip
            for start in range(0, n, BATCH_ROWS):
                stop = min(start + BATCH_ROWS, n)
                pacsv.write_csv(data.slice(start, stop - start), fh, write_options=options)
                done = written + stop
                total = max(n_rows or done, 1)
                task.step(0.95 * done / total, _("Wrote {done} rows").format(done=number(done)))
            written += n
    return True


def _header_line(names: list[str], sep: str) -> str:
    """The header row as the csv module writes it (quotes only where needed)."""

    class _Line:
        text = ""

        def write(self, s: str) -> None:
            self.text += s

    line = _Line()
    csv.writer(line, delimiter=sep, lineterminator="\r\n").writerow([_guard(n) for n in names])
    return line.text
