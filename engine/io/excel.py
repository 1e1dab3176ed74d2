"""Reading workbooks (.xlsx, .xlsm, .xls, .ods) with python-calamine.

calamine reads the cells' cached values (so formulas give what Excel last showed) and turns
date-formatted serial numbers into dates.  Around it: sheet choice, title lines above the
header, merged header cells, blank trailing rows and columns, and clear messages for damaged,
encrypted or oversized workbooks.
"""

from __future__ import annotations

import datetime as dt
import math
import zipfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import python_calamine

from engine.errors import InputError
from engine.io.columns import type_text_column, unique_names
from engine.io.files import OLE_MAGIC, ZIP_MAGIC, check_memory, human_size, open_checked
from engine.io.info import ImportInfo
from engine.progress import CancelFn, ProgressFn, step

EXCEL_SUFFIXES = {".xlsx", ".xlsm", ".xls", ".ods"}
#: bytes of Python objects per byte of sheet XML, roughly (measured on numeric sheets)
_XML_EXPANSION = 2.5
#: bytes in memory per byte of a legacy .xls file
_XLS_EXPANSION = 12
#: rows looked at when searching the header below title lines
_HEADER_SEARCH = 30
#: Excel's day zero for serial numbers (1900 date system, after its 1900 leap-year bug)
_EXCEL_EPOCH = dt.datetime(1899, 12, 30)
_MAX_SERIAL = 2_958_465  # 9999-12-31


def _damaged(path: Path, detail: str = "") -> InputError:
    extra = f" ({detail})" if detail else ""
    return InputError(
        f"{path.name} is damaged or incomplete and cannot be read as a workbook{extra}. Open it "
        "in Excel or LibreOffice and save it again, or export the sheet as CSV."
    )


def _password(path: Path) -> InputError:
    return InputError(
        f"{path.name} is protected with a password (encrypted), so it cannot be read. Open it "
        "in Excel, remove the password (File > Info > Protect Workbook) and save a copy, then "
        "import the copy."
    )


def estimate_memory(path: Path, head: bytes, size: int) -> int:
    """Bytes the cells of ``path`` will take in memory, from the workbook's own directory.

    An .xlsx is a ZIP archive: the uncompressed sizes of its sheet XML are exact and cheap to
    read, and they (not the compressed file size) decide the memory needed.
    """
    if head.startswith(ZIP_MAGIC):
        try:
            with zipfile.ZipFile(path) as archive:
                xml = sum(
                    i.file_size
                    for i in archive.infolist()
                    if i.filename.startswith("xl/worksheets/")
                    or i.filename in ("xl/sharedStrings.xml", "content.xml")
                )
        except (zipfile.BadZipFile, OSError, EOFError) as exc:
            raise _damaged(path, "its ZIP structure is broken") from exc
        return int(xml * _XML_EXPANSION)
    return size * _XLS_EXPANSION


def open_workbook(
    path: Path, head: bytes, size: int, memory_limit: int | None = None
) -> python_calamine.CalamineWorkbook:
    """Open ``path`` with calamine, or raise the InputError that explains why not."""
    if not head.startswith((ZIP_MAGIC, OLE_MAGIC)):
        if not head.strip():
            raise InputError(f"{path.name} is empty: there is nothing to import.")
        raise _damaged(path, "it is not an Excel or OpenDocument file")
    check_memory(path, estimate_memory(path, head, size), memory_limit)
    try:
        with path.open("rb") as fh:
            return python_calamine.CalamineWorkbook.from_filelike(fh)
    except python_calamine.PasswordError as exc:
        raise _password(path) from exc
    except Exception as exc:  # calamine raises several unrelated types for broken files
        raise _damaged(path) from exc


def list_sheets(path: str | Path) -> list[str]:
    """Names of the worksheets of a workbook, in order (chart sheets left out)."""

    path, head, size = open_checked(path)
    book = open_workbook(path, head, size)
    try:
        return _worksheets(book)
    finally:
        book.close()


def _worksheets(book: python_calamine.CalamineWorkbook) -> list[str]:
    names = []
    for meta in book.sheets_metadata:
        if str(meta.typ).endswith("WorkSheet"):
            names.append(meta.name)
    return names or list(book.sheet_names)


def choose_sheet(path: Path, sheets: list[str], sheet: str | int | None) -> tuple[str, str]:
    """The sheet to read and a note about the choice ("" when the user named it exactly)."""
    if not sheets:
        raise InputError(f"{path.name} contains no worksheet.")
    listing = ", ".join(f"'{s}'" for s in sheets)
    if sheet is None:
        return sheets[0], ""
    if isinstance(sheet, int) and not isinstance(sheet, bool):
        if 0 <= sheet < len(sheets):
            return sheets[sheet], ""
        raise InputError(
            f"{path.name} has {len(sheets)} sheet(s), so there is no sheet number {sheet + 1}; "
            f"its sheets are: {listing}."
        )
    if sheet in sheets:
        return sheet, ""
    folded = [s for s in sheets if s.casefold() == str(sheet).strip().casefold()]
    if len(folded) == 1:
        return folded[0], f"Sheet '{sheet}' was taken to mean '{folded[0]}'."
    raise InputError(
        f"{path.name} has no sheet named '{sheet}'; its sheets are: {listing}. Choose one of them."
    )


def read_workbook(
    path: Path,
    head: bytes,
    size: int,
    info: ImportInfo,
    *,
    sheet: str | int | None = None,
    header_row: int | None = None,
    memory_limit: int | None = None,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
) -> pd.DataFrame:
    """Read one sheet of a workbook into typed columns; fills ``info``."""
    book = open_workbook(path, head, size, memory_limit)
    step(progress, cancel, 0.1, f"Opened {path.name}")
    try:
        info.sheets = _worksheets(book)
        name, note = choose_sheet(path, info.sheets, sheet)
        if sheet is None:
            info.guessed.append("sheet")
        if note:
            info.notes.append(note)
        rows, merged = _read_sheet(path, book, name)
        if sheet is None and not _has_cells(rows):
            # the first sheet is empty (a cover sheet): take the first sheet that has data
            for other in info.sheets[1:]:
                other_rows, other_merged = _read_sheet(path, book, other)
                if _has_cells(other_rows):
                    info.notes.append(f"Sheet '{name}' is empty; sheet '{other}' was read instead.")
                    name, rows, merged = other, other_rows, other_merged
                    break
    finally:
        book.close()
    info.sheet = name
    step(progress, cancel, 0.5, f"Read sheet '{name}'")
    return _to_frame(path, name, rows, merged, info, header_row, progress, cancel)


def _read_sheet(
    path: Path, book: python_calamine.CalamineWorkbook, name: str
) -> tuple[list[list[object]], list[tuple[tuple[int, int], tuple[int, int]]]]:
    """The cells of sheet ``name`` (with its absolute coordinates) and its merged ranges."""
    try:
        grid = book.get_sheet_by_name(name)
        rows = grid.to_python(skip_empty_area=False)
        merged = list(grid.merged_cell_ranges or [])
    except python_calamine.PasswordError as exc:
        raise _password(path) from exc
    except Exception as exc:  # see open_workbook
        raise _damaged(path, f"sheet '{name}' cannot be read") from exc
    return rows, merged


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _has_cells(rows: Sequence[Sequence[object]]) -> bool:
    return any(not _blank(v) for row in rows for v in row)


def _to_frame(
    path: Path,
    sheet: str,
    rows: list[list[object]],
    merged: list[tuple[tuple[int, int], tuple[int, int]]],
    info: ImportInfo,
    header_row: int | None,
    progress: ProgressFn | None,
    cancel: CancelFn | None,
) -> pd.DataFrame:
    where = f"{path.name}, sheet '{sheet}'"
    # blank trailing rows and columns (formatting that reaches far beyond the data) go
    while rows and all(_blank(v) for v in rows[-1]):
        rows.pop()
    if not rows:
        raise InputError(f"{where} is empty: there is nothing to import. Choose another sheet.")
    widths = set(map(len, rows))
    full_width = max(widths)
    if len(widths) > 1:
        rows = [list(row) + [""] * (full_width - len(row)) for row in rows]
    cols = list(zip(*rows, strict=True))  # transposed once: columns are what we build
    # a column is used when any cell has a value; the scan stops at the first one
    used = [j for j, col in enumerate(cols) if any(not _blank(v) for v in col)]
    first_col, width = used[0], used[-1] + 1
    if first_col or width < full_width:
        rows = [row[first_col:width] for row in rows]
        cols = cols[first_col:width]
    merged = [((r0, c0 - first_col), (r1, c1 - first_col)) for (r0, c0), (r1, c1) in merged]

    if header_row is None:
        header_row = _find_header(rows)
        info.guessed.append("header_row")
        if header_row:
            info.notes.append(
                f"Rows 1–{header_row} of sheet '{sheet}' look like a title and were skipped; "
                f"the header is row {header_row + 1}."
            )
    elif header_row >= len(rows):
        raise InputError(f"{where} has no row {header_row + 1} to use as the header.")
    info.header_row = header_row

    header = _fill_merged(rows, merged, header_row)
    n_header = 1
    sub = _sub_header(rows, merged, header_row)
    if sub is not None:
        header = [
            " ".join(dict.fromkeys(p for p in (str(a).strip(), str(b).strip()) if p))
            for a, b in zip(header, sub, strict=True)
        ]
        n_header = 2
        info.notes.append(
            f"Rows {header_row + 1}–{header_row + 2} form a two-line header (merged group "
            "cells above sub-headings); the column names join both lines."
        )
    first_body = header_row + n_header
    filled = _fill_merged_body(rows, merged, first_body)
    if filled:
        cols = list(zip(*rows, strict=True))
        info.notes.append(
            f"{filled} merged cell range(s) in the data were spread to every row and column "
            "they cover (a merged cell shows one value for all of them)."
        )
    body = rows[first_body:]
    if not body:
        raise InputError(
            f"{where} has a header but no data rows: add the data below the header row."
        )
    names, renamed, notes = unique_names(header)
    columns = [col[first_body:] for col in cols]
    data: dict[str, pd.Series] = {}
    kept_renamed: dict[str, str] = {}
    for j, (name, cells) in enumerate(zip(names, columns, strict=True)):
        series, col_notes, mixed = _column(cells, name)
        if name in renamed and renamed[name] == "" and series.isna().all():
            continue  # no header and no value: nothing to keep
        data[name] = series
        info.notes.extend(col_notes)
        if mixed:
            info.mixed[name] = mixed
        if name in renamed:
            kept_renamed[name] = renamed[name]
        step(progress, cancel, 0.5 + 0.45 * (j + 1) / len(names), f"Column '{name}'")
    if not data:
        raise InputError(f"{where} has no column with data.")
    info.renamed.update(kept_renamed)
    info.notes[:0] = [n for n in notes if any(n.endswith(f"called '{c}'.") for c in data)]
    return pd.DataFrame(data)


def _find_header(rows: list[list[object]]) -> int:
    """Index of the header: the first row about as wide as the table (titles are narrower).

    A title, a source line or a blank row fills one or two cells (a merged title keeps its
    value in one); the header names (nearly) every column.
    """
    search = rows[:_HEADER_SEARCH]
    counts = [sum(not _blank(v) for v in row) for row in rows[:100]]
    widest = max(counts, default=0)
    if widest <= 1:
        return next((i for i, c in enumerate(counts) if c), 0)
    need = max(2, math.ceil(0.5 * widest))
    for i in range(len(search)):
        if counts[i] >= need:
            return i
    return 0


def _fill_merged(
    rows: list[list[object]],
    merged: list[tuple[tuple[int, int], tuple[int, int]]],
    r: int,
) -> list[object]:
    """Row ``r`` with every merged cell showing the value of its range's top-left cell."""
    out = list(rows[r])
    for (r0, c0), (r1, c1) in merged:
        if r0 <= r <= r1 and 0 <= c0 < len(out):
            value = rows[r0][c0]
            for c in range(max(c0, 0), min(c1, len(out) - 1) + 1):
                out[c] = value
    return out


def _fill_merged_body(
    rows: list[list[object]],
    merged: list[tuple[tuple[int, int], tuple[int, int]]],
    first_body: int,
) -> int:
    """Copy each merged range's value into all its cells below the header; returns how many
    ranges were filled."""
    n = 0
    for (r0, c0), (r1, c1) in merged:
        if r0 < first_body or r0 >= len(rows) or not 0 <= c0 < len(rows[r0]):
            continue
        value = rows[r0][c0]
        for r in range(r0, min(r1, len(rows) - 1) + 1):
            for c in range(max(c0, 0), min(c1, len(rows[r]) - 1) + 1):
                rows[r][c] = value
        n += 1
    return n


def _sub_header(
    rows: list[list[object]],
    merged: list[tuple[tuple[int, int], tuple[int, int]]],
    r: int,
) -> list[object] | None:
    """The next row when the header groups columns under merged cells (two-line header)."""
    groups = [m for m in merged if m[0][0] == r and m[1][0] == r and m[1][1] > m[0][1]]
    if not groups or r + 2 > len(rows) - 1:
        return None
    below = _fill_merged(rows, merged, r + 1)
    for (_r0, c0), (_r1, c1) in groups:
        span = below[c0 : c1 + 1]
        if not all(isinstance(v, str) and v.strip() for v in span):
            return None
    if not all(isinstance(v, str) for v in below):
        return None
    return below


def _column(cells: Sequence[object], name: str) -> tuple[pd.Series, list[str], dict[str, int]]:
    """Typed column from calamine cell values (floats, ints, bools, dates, texts, '').

    Vectorised where it matters: a sheet of 200,000 rows is mostly numbers and a few
    repeated category texts, so texts are converted once per distinct value.
    """
    arr = np.empty(len(cells), dtype=object)
    arr[:] = cells
    blank = (arr == "") | np.equal(arr, None)
    kinds = set(map(type, arr[~blank]))
    if not kinds:
        return pd.Series(np.full(len(cells), np.nan)), [], {}
    if kinds <= {float, int}:
        values = np.full(len(cells), np.nan)
        values[~blank] = arr[~blank].astype(float)
        if not blank.any() and np.all(np.floor(values) == values) and np.abs(values).max() < 2**53:
            return pd.Series(values.astype(np.int64)), [], {}
        return pd.Series(values), [], {}
    date_kinds = {dt.date, dt.datetime}
    if kinds <= date_kinds | {float, int}:
        dated = _date_column(arr, blank, name)
        if dated is not None:
            return dated[0], dated[1], {}
    # texts (and mixtures): one conversion per distinct value
    codes, uniques = pd.factorize(arr, use_na_sentinel=True)
    texts = np.array([_cell_text(u) for u in uniques], dtype=object)
    empty = np.array([not t.strip() for t in texts], dtype=bool)
    codes = np.where((codes >= 0) & ~empty[np.maximum(codes, 0)], codes, -1)
    cells_text = np.full(len(arr), None, dtype=object)
    present = codes >= 0
    cells_text[present] = texts[codes[present]]
    typed, report = type_text_column(pd.Series(cells_text), name, factorized=(codes, texts))
    return typed.reset_index(drop=True), report.notes, report.mixed


def _date_column(
    arr: np.ndarray, blank: np.ndarray, name: str
) -> tuple[pd.Series, list[str]] | None:
    """Dates, when date cells outnumber bare numbers and those fit Excel's serial range."""
    date_kinds = (dt.date, dt.datetime)
    is_date = np.fromiter((isinstance(v, date_kinds) for v in arr), dtype=bool, count=len(arr))
    numbers = ~blank & ~is_date
    serials = arr[numbers].astype(float) if numbers.any() else np.array([])
    fits = bool(((serials >= 1) & (serials <= _MAX_SERIAL)).all()) if len(serials) else True
    if not fits or is_date.sum() < numbers.sum():
        return None
    out = pd.Series(pd.NaT, index=range(len(arr)), dtype="datetime64[ns]")
    out[is_date] = pd.to_datetime(list(arr[is_date]))
    if not numbers.any():
        return out, []
    out[numbers] = _EXCEL_EPOCH + pd.to_timedelta(serials, unit="D")
    note = (
        f"Column '{name}' holds dates; {int(numbers.sum())} cell(s) stored as bare serial "
        "numbers were read as dates too."
    )
    return out, [note]


def _cell_text(value: object) -> str:
    """A cell as the text a user would type for it."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ") if value.time() != dt.time() else value.date().isoformat()
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return str(value)


__all__ = ["EXCEL_SUFFIXES", "choose_sheet", "human_size", "list_sheets", "read_workbook"]
