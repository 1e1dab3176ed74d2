"""Reading workbooks (.xlsx, .xlsm, .xls, .ods) with python-calamine.

calamine reads the cells' cached values (so formulas give what Excel last showed) and turns
date-formatted serial numbers into dates.  Around it, for workbooks as agencies lay them out:

* the sheet's real extent is measured first (:mod:`engine.io.extent`), so that a stray cell
  at the far corner never makes calamine build a gigantic grid;
* the sheet that looks like the data is read (not a cover or notes sheet), the others named;
* title lines above the header, two-level headers (a merged "Weekly wage" over "1987 |
  1988"), footnotes under a blank row, and blank rows inside the table are recognised and
  reported;
* numbers stored as text (``3.549,40``) become numbers, with the decimal mark guessed or
  given;
* damaged, encrypted or oversized workbooks get clear messages.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np
import pandas as pd
import python_calamine

from engine.errors import InputError, TcloseError
from engine.i18n import _, ngettext
from engine.io.codebook import Codebook
from engine.io.columns import (
    LEADING_ZERO,
    comma_to_dot,
    in_date_range,
    is_number,
    type_text_column,
    unique_names,
)
from engine.io.extent import (
    BYTES_PER_CELL,
    SheetExtent,
    TooLarge,
    cell_name,
    measure_workbook,
    range_name,
    trimmed_copy,
    workbook_parts,
)
from engine.io.files import (
    OLE_MAGIC,
    ZIP_MAGIC,
    available_memory,
    check_memory,
    human_size,
    open_checked,
)
from engine.io.formats import ReadJob, read_by
from engine.io.info import ImportInfo, ReadOptions
from engine.io.sniff import sniff_decimal
from engine.io.write import CODEBOOK_SHEET, metadata_sheet_names
from engine.progress import Task
from engine.text import number

EXCEL_SUFFIXES = frozenset(read_by("workbook"))
#: bytes of Python objects per byte of sheet XML, roughly (measured on numeric sheets)
_XML_EXPANSION = 2.5
#: bytes in memory per byte of a legacy .xls file
_XLS_EXPANSION = 12
#: rows looked at when searching the header below title lines
_HEADER_SEARCH = 30
#: Excel's day zero for serial numbers (1900 date system, after its 1900 leap-year bug)
_EXCEL_EPOCH = dt.datetime(1899, 12, 30)
_MAX_SERIAL = 2_958_465  # 9999-12-31
#: a sub-heading number under a merged group header is read as a label when it is a year
_YEARS = (1000, 2999)

#: a text that may be a number (digits with optional sign, grouping and decimal marks)
_NUMBER_LIKE = re.compile(r"^\s*[+-]?[\d.,\u00a0 ]*\d[\d.,\u00a0 ]*\s*$")
#: a dot-decimal number with commas grouping thousands: 1,234 or -12,345,678.25
_GROUPED = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?")
#: a merged range: ((first row, first column), (last row, last column)), 0-based
Merged = tuple[tuple[int, int], tuple[int, int]]


def _damaged(path: Path, detail: str = "") -> InputError:
    extra = f" ({detail})" if detail else ""
    return InputError(
        _(
            "{name} is damaged or incomplete and cannot be read as a workbook{extra}. Open it "
            "in Excel or LibreOffice and save it again, or export the sheet as CSV."
        ).format(name=path.name, extra=extra)
    )


def _no_rows(where: str) -> str:
    return _("{where} has a header but no data rows: add the data below the header row.").format(
        where=where
    )


def _password(path: Path) -> InputError:
    return InputError(
        _(
            "{name} is protected with a password (encrypted), so it cannot be read. Open "
            "it in Excel, remove the password (File > Info > Protect Workbook) and save a "
            "copy, then import the copy."
        ).format(name=path.name)
    )


def estimate_memory(path: Path, head: bytes, size: int) -> int:
    """Bytes the cells of ``path`` will take in memory, from the workbook's own directory.

    An .xlsx is a ZIP archive: the uncompressed sizes of its sheet XML are exact and cheap to
    read, and they (not the compressed file size) decide the memory needed.
    """
    if head.startswith(ZIP_MAGIC):
        try:
            with zipfile.ZipFile(path) as archive:
                if any(n.startswith("xl/") for n in archive.namelist()):
                    workbook_parts(archive)  # a padded list of sheets is refused here
                xml = sum(
                    i.file_size
                    for i in archive.infolist()
                    if i.filename.startswith("xl/worksheets/")
                    or i.filename in ("xl/sharedStrings.xml", "content.xml")
                )
        except TooLarge as exc:
            raise _damaged(path, str(exc)) from exc
        except (zipfile.BadZipFile, OSError, EOFError) as exc:
            raise _damaged(path, _("its ZIP structure is broken")) from exc
        return int(xml * _XML_EXPANSION)
    return size * _XLS_EXPANSION


def open_workbook(
    path: Path,
    head: bytes,
    size: int,
    memory_limit: int | None = None,
    source: IO[bytes] | None = None,
) -> python_calamine.CalamineWorkbook:
    """Open ``path`` (or ``source``, a trimmed copy of it) with calamine, or raise the
    InputError that explains why not."""
    if not head.startswith((ZIP_MAGIC, OLE_MAGIC)):
        if not head.strip():
            raise InputError(
                _("{name} is empty: there is nothing to import.").format(name=path.name)
            )
        raise _damaged(path, _("it is not an Excel or OpenDocument file"))
    check_memory(path, estimate_memory(path, head, size), memory_limit)
    try:
        if source is not None:
            return python_calamine.CalamineWorkbook.from_filelike(source)
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


def _visible_worksheets(book: python_calamine.CalamineWorkbook) -> list[str]:
    """The worksheets Excel shows (not hidden, not "very hidden": a workbook can keep a
    lookup table or a previous version there); all of them when every sheet is hidden."""
    names = _worksheets(book)
    shown = {m.name for m in book.sheets_metadata if str(m.visible).endswith(".Visible")}
    return [n for n in names if n in shown] or names


def _trimmed(
    path: Path,
    head: bytes,
    size: int,
    extents: dict[str, SheetExtent],
    memory_limit: int | None,
) -> IO[bytes] | None:
    """A copy of the workbook without its stray cells (None when it has none), checked
    against memory first and made within it (only the parts calamine reads are unpacked)."""
    if not any(e.stray for e in extents.values()):
        return None
    check_memory(path, estimate_memory(path, head, size), memory_limit)
    budget = available_memory() if memory_limit is None else memory_limit
    try:
        return trimmed_copy(path, extents, None if budget is None else budget // 2)
    except TooLarge as exc:
        raise InputError(
            _(
                "{name} is too large for the memory of this computer ({reason}). Close other "
                "programs, or split the workbook and import the parts."
            ).format(name=path.name, reason=exc)
        ) from exc
    except (zipfile.BadZipFile, OSError, EOFError, zlib.error, ValueError) as exc:
        raise _damaged(path, _("a part of it cannot be decompressed")) from exc


def choose_sheet(path: Path, sheets: list[str], sheet: str | int | None) -> tuple[str, str]:
    """The sheet to read and a note about the choice ("" when the user named it exactly)."""
    if not sheets:
        raise InputError(_("{name} contains no worksheet.").format(name=path.name))
    listing = ", ".join(f"'{s}'" for s in sheets)
    if sheet is None:
        return sheets[0], ""
    if isinstance(sheet, int) and not isinstance(sheet, bool):
        if 0 <= sheet < len(sheets):
            return sheets[sheet], ""
        raise InputError(
            _(
                "{name} has {n} sheet(s), so there is no sheet number {number}; "
                "its sheets are: {listing}."
            ).format(name=path.name, n=len(sheets), number=sheet + 1, listing=listing)
        )
    if sheet in sheets:
        return sheet, ""
    folded = [s for s in sheets if s.casefold() == str(sheet).strip().casefold()]
    if len(folded) == 1:
        note = _("Sheet '{sheet}' was taken to mean '{name}'.")
        return folded[0], note.format(sheet=sheet, name=folded[0])
    raise InputError(
        _(
            "{name} has no sheet named '{sheet}'; its sheets are: {listing}. Choose one of them."
        ).format(name=path.name, sheet=sheet, listing=listing)
    )


def measure_sheets(path: Path, head: bytes) -> dict[str, SheetExtent]:
    """The real extent of each sheet of an .xlsx/.xlsm (empty for other workbooks)."""
    if not head.startswith(ZIP_MAGIC):
        return {}
    try:
        with zipfile.ZipFile(path) as archive:
            if not any(n.startswith("xl/") for n in archive.namelist()):
                return {}  # OpenDocument
        return measure_workbook(path)
    except TooLarge as exc:
        raise _damaged(path, str(exc)) from exc
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, KeyError) as exc:
        raise _damaged(path, _("its ZIP structure is broken")) from exc
    except zlib.error as exc:
        raise _damaged(path, _("a part of it cannot be decompressed")) from exc


def check_extent(path: Path, extent: SheetExtent | None, memory_limit: int | None = None) -> None:
    """Refuse a sheet whose cells span a grid too large for memory, before calamine
    builds it, with a message that says where the cells are."""
    if extent is None or extent.area == 0:
        return
    needed = extent.area * BYTES_PER_CELL
    budget = available_memory() if memory_limit is None else memory_limit
    if budget is None or needed <= budget:
        return
    if extent.area > 4 * max(extent.n_cells, 1):
        span = range_name(extent.first_row, extent.first_col, extent.last_row, extent.last_col)
        last = cell_name(extent.last_row, extent.last_col)
        raise InputError(
            _(
                "{name}, sheet '{sheet}': its {cells} filled cells are "
                "spread over {span} ({rows} rows × {cols} columns), which "
                "would need about {needed} of memory to read. Delete the cells far "
                "from the table (the last one is {last}) or copy the table to a new sheet, then "
                "import again."
            ).format(
                name=path.name,
                sheet=extent.name,
                cells=number(extent.n_cells),
                span=span,
                rows=number(extent.n_rows),
                cols=number(extent.n_cols),
                needed=human_size(needed),
                last=last,
            )
        )
    check_memory(path, needed, memory_limit)


def read_workbook(job: ReadJob) -> pd.DataFrame:
    """The workbook formats' reader (:data:`engine.io.formats.FORMATS`): one sheet of a
    workbook as typed columns; fills ``job.info``.

    Without ``options.sheet`` the sheet that looks most like a data table is read (a cover
    sheet or a notes sheet is passed over) and the others are listed in a note.
    ``options.decimal`` (``.`` or ``,``; guessed when None) is how numbers stored as text are
    read; the separator and the encoding do not apply.  A file named as a workbook that is
    not one inside is refused as damaged, whatever reading settings were given (they are
    not checked against it).
    """
    path, head, info, memory_limit = job.path, job.head, job.info, job.memory_limit
    options = job.options if head.startswith((ZIP_MAGIC, OLE_MAGIC)) else ReadOptions()
    options.check(path.name, text=False)
    sheet = options.sheet
    extents = measure_sheets(path, head)
    source = _trimmed(path, head, job.size, extents, memory_limit)
    try:
        book = open_workbook(path, head, job.size, memory_limit, source)
    finally:
        if source is not None:
            source.close()  # calamine has read what it needs
    job.task.step(0.1, _("Opened {name}").format(name=path.name))
    try:
        info.sheets = _worksheets(book)
        visible = _visible_worksheets(book)
        if sheet is None and len(visible) > 1:
            name, rows, merged, origin = _best_sheet(
                path, book, info, extents, memory_limit, visible
            )
        else:
            name, note = choose_sheet(path, visible if sheet is None else info.sheets, sheet)
            if sheet is None:
                info.guessed.append("sheet")
            if note:
                info.notes.append(note)
            rows, merged, origin = _read_sheet(path, book, name, extents, memory_limit)
        info.codebook = _codebook_sheet(book, info.sheets)
        hidden = [s for s in info.sheets if s not in visible]
        if sheet is None and hidden:
            info.notes.append(
                ngettext(
                    "The hidden sheet {sheets} was not considered; choose it by name to read it.",
                    "The hidden sheets {sheets} were not considered; choose one by name to "
                    "read it.",
                    len(hidden),
                ).format(sheets=", ".join(f"'{s}'" for s in hidden))
            )
    finally:
        book.close()
    info.sheet = name
    extent = extents.get(name)
    if extent is not None and extent.stray:
        refs = [cell_name(r, c) for r, c in extent.stray]
        shown = ", ".join(refs[:3])
        if len(refs) > 3:
            shown = _("{shown} and {n} more").format(shown=shown, n=number(len(refs) - 3))
        table = range_name(extent.first_row, extent.first_col, extent.last_row, extent.last_col)
        info.notes.append(
            ngettext(
                "Sheet '{sheet}': {n} cell far from the table was left out ({shown}); the "
                "table is {table}.",
                "Sheet '{sheet}': {n} cells far from the table were left out ({shown}); the "
                "table is {table}.",
                len(refs),
            ).format(sheet=name, n=number(len(refs)), shown=shown, table=table)
        )
    job.task.step(0.5, _("Read sheet '{name}'").format(name=name))
    return _to_frame(
        path, name, rows, merged, origin, info, options.header_row, options.decimal, job.task,
    )  # fmt: skip


def _codebook_sheet(book: python_calamine.CalamineWorkbook, sheets: list[str]) -> Codebook:
    """The labels of a release tclose wrote (its "Codebook" sheet), so that they survive
    the release being read again; an empty codebook for any other workbook."""
    from engine.io.codebook import Variable

    names = [s for s in sheets if s in _names_of(CODEBOOK_SHEET)]
    if not names:
        return Codebook()
    rows = book.get_sheet_by_name(names[0]).to_python()
    variables: dict[str, dict] = {}
    for row in rows[1:]:
        cells = [*row, *[""] * 6][:6]
        name, label, measure, code, text, missing = (str(c) if c is not None else "" for c in cells)
        if not name:
            continue
        var = variables.setdefault(name, {"values": [], "missing": []})
        if label:
            var["label"] = label
        if measure:
            var["measure"] = measure
        if code:
            key = float(code) if is_number(code) else code
            if text:
                var["values"].append([key, text])
            if missing:
                var["missing"].append(key)
    return Codebook({n: Variable.from_dict(v) for n, v in variables.items()})


def _names_of(text: str) -> set[str]:
    from engine.io.write import _names

    return _names(text)


def _best_sheet(
    path: Path,
    book: python_calamine.CalamineWorkbook,
    info: ImportInfo,
    extents: dict[str, SheetExtent],
    memory_limit: int | None,
    candidates: list[str],
) -> tuple[str, list[list[object]], list[Merged], tuple[int, int]]:
    """The sheet among ``candidates`` with the most filled cells in a table shape, and a note
    that names it and the others (so that a cover sheet or a second table is never taken
    silently)."""
    info.guessed.append("sheet")
    best: tuple[float, str, list[list[object]], list[Merged], tuple[int, int]] | None = None
    scores: dict[str, int] = {}
    for name in candidates:
        rows, merged, origin = _read_sheet(path, book, name, extents, memory_limit)
        # the metadata sheet of tclose's own export is never the data
        score = -1.0 if name in metadata_sheet_names() else _table_score(rows)
        scores[name] = int(score)
        if best is None or score > best[0]:
            best = (score, name, rows, merged, origin)
    assert best is not None  # info.sheets is not empty here
    name, rows, merged, origin = best[1:]
    others = ", ".join(f"'{s}' ({number(max(scores[s], 0))})" for s in candidates if s != name)
    first = candidates[0]
    if name == first:
        why = _(
            "Sheet '{sheet}' was read: it holds the largest table ({n} filled cells in rows of "
            "a table)."
        )
    else:
        why = _(
            "Sheet '{sheet}' was read: it holds the largest table ({n} filled cells in rows of "
            "a table), while the first sheet, '{first}', looks like a cover or notes sheet."
        )
    others_said = _(
        "The other sheets (filled table cells): {others}. Choose another sheet if this is not "
        "the data."
    )
    info.notes.append(
        why.format(sheet=name, n=number(scores[name]), first=first)
        + " "
        + others_said.format(others=others)
    )
    return name, rows, merged, origin


def _table_score(rows: list[list[object]]) -> float:
    """Filled cells in rows that fill at least half the widest row (a table's rows); a
    sheet whose rows fill one cell each (a cover, notes) counts half its cells."""
    # list.count runs in C: calamine gives "" for an empty cell (a cell of spaces counts)
    counts = [len(row) - row.count("") - row.count(None) for row in rows]
    widest = max(counts, default=0)
    if widest <= 1:
        return 0.5 * sum(counts)
    need = max(2, math.ceil(0.5 * widest))
    return float(sum(c for c in counts if c >= need))


def _read_sheet(
    path: Path,
    book: python_calamine.CalamineWorkbook,
    name: str,
    extents: dict[str, SheetExtent] | None = None,
    memory_limit: int | None = None,
) -> tuple[list[list[object]], list[Merged], tuple[int, int]]:
    """The cells of sheet ``name`` from its first used row and column (which are returned
    as the origin: merged ranges are in absolute coordinates), and its merged ranges."""
    check_extent(path, (extents or {}).get(name), memory_limit)
    try:
        grid = book.get_sheet_by_name(name)
        # .xls and .ods are not measured beforehand; their grid is checked before Python
        # objects are made of it (the larger part of the memory)
        check_extent(path, _grid_extent(name, grid), memory_limit)
        rows = grid.to_python(skip_empty_area=True)
        merged = list(grid.merged_cell_ranges or [])
        origin = tuple(grid.start) if rows and grid.start is not None else (0, 0)
    except TcloseError:
        raise
    except python_calamine.PasswordError as exc:
        raise _password(path) from exc
    except Exception as exc:  # see open_workbook
        raise _damaged(path, f"sheet '{name}' cannot be read") from exc
    return rows, merged, (int(origin[0]), int(origin[1]))


def _grid_extent(name: str, grid: python_calamine.CalamineSheet) -> SheetExtent:
    start = grid.start or (0, 0)
    extent = SheetExtent(name, "", n_cells=grid.height * grid.width)
    extent.first_row, extent.first_col = int(start[0]), int(start[1])
    extent.last_row = extent.first_row + grid.height - 1
    extent.last_col = extent.first_col + grid.width - 1
    return extent


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _to_frame(
    path: Path,
    sheet: str,
    rows: list[list[object]],
    merged: list[Merged],
    origin: tuple[int, int],
    info: ImportInfo,
    header_row: int | None,
    decimal: str | None,
    task: Task,
) -> pd.DataFrame:
    """The table of a sheet's cells (``rows``, from ``origin``, its first used cell): the
    header found (or the one asked for), merged cells spread, footnotes and blank rows left
    out, each column typed.  What was guessed or left out is noted in ``info``."""
    where = _("{name}, sheet '{sheet}'").format(name=path.name, sheet=sheet)
    rows, merged = _used_cells(rows, merged, origin, where)
    row0 = origin[0]
    top = _header_top(rows, merged, row0, sheet, where, header_row, info)
    info.header_row = row0 + top
    header, n_header = _header(rows, merged, top, row0, info)
    body = _body(rows, merged, top + n_header, row0, sheet, info)
    if not body:
        raise InputError(_no_rows(where))
    return _typed_frame(header, body, where, decimal, info, task)


def _used_cells(
    rows: list[list[object]], merged: list[Merged], origin: tuple[int, int], where: str
) -> tuple[list[list[object]], list[Merged]]:
    """The rows without blank trailing rows (formatting that reaches far beyond the data)
    and blank outer columns, all of one width, and the merged ranges moved to match."""
    row0, col0 = origin
    while rows and all(_blank(v) for v in rows[-1]):
        rows.pop()
    if not rows:
        raise InputError(
            _("{where} is empty: there is nothing to import. Choose another sheet.").format(
                where=where
            )
        )
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
    shift_c = col0 + first_col
    merged = [((a - row0, b - shift_c), (c - row0, d - shift_c)) for (a, b), (c, d) in merged]
    return rows, merged


def _header_top(
    rows: list[list[object]],
    merged: list[Merged],
    row0: int,
    sheet: str,
    where: str,
    header_row: int | None,
    info: ImportInfo,
) -> int:
    """Which of ``rows`` names the columns: the one asked for (``header_row`` counts the
    sheet's rows, ``rows`` start at its row ``row0``), or the first under any title rows."""
    if header_row is None:
        top = _find_header(rows, merged)
        info.guessed.append("header_row")
        if top:
            if top == 1:
                note = _(
                    "Row {first} of sheet '{sheet}' looks like a title and was skipped; the "
                    "header is row {header}."
                )
            else:
                note = _(
                    "Rows {first}–{last} of sheet '{sheet}' look like a title and were "
                    "skipped; the header is row {header}."
                )
            info.notes.append(
                note.format(first=row0 + 1, last=row0 + top, sheet=sheet, header=row0 + top + 1)
            )
        return top
    top = header_row - row0
    if top < 0:
        raise InputError(
            _(
                "{where}: row {row} is empty (the cells start at row {first}); "
                "choose the row that names the columns."
            ).format(where=where, row=header_row + 1, first=row0 + 1)
        )
    if top >= len(rows):
        raise InputError(
            _("{where} has no row {row} to use as the header.").format(
                where=where, row=header_row + 1
            )
        )
    return top


def _header(
    rows: list[list[object]], merged: list[Merged], top: int, row0: int, info: ImportInfo
) -> tuple[list[object], int]:
    """The column names and how many rows they take: one, or two when merged group cells
    stand above sub-headings (the names then join both lines)."""
    header = _fill_merged(rows, merged, top)
    sub = _sub_header(rows, merged, top)
    if sub is None:
        return header, 1
    info.notes.append(
        _(
            "Rows {first}–{last} form a two-line header (merged group cells above "
            "sub-headings); the column names join both lines."
        ).format(first=row0 + top + 1, last=row0 + top + 2)
    )
    joined = [
        " ".join(dict.fromkeys(p for p in (_label(a), _label(b)) if p))
        for a, b in zip(header, sub, strict=True)
    ]
    return list(joined), 2


def _body(
    rows: list[list[object]],
    merged: list[Merged],
    first_body: int,
    row0: int,
    sheet: str,
    info: ImportInfo,
) -> list[list[object]]:
    """The data rows under the header: merged cells spread over what they cover, footnotes
    under the table left out (and kept in ``info.footnotes``)."""
    filled = _fill_merged_body(rows, merged, first_body)
    if filled:
        info.notes.append(
            ngettext(
                "{n} merged cell range in the data was spread to every row and column it "
                "covers (a merged cell shows one value for all of them).",
                "{n} merged cell ranges in the data were spread to every row and column they "
                "cover (a merged cell shows one value for all of them).",
                filled,
            ).format(n=number(filled))
        )
    body = rows[first_body:]
    notes_at = _footnotes(body)
    if notes_at is not None:
        texts = [str(r[0]).strip() for r in body[notes_at:] if not _blank(r[0])]
        first, last = row0 + first_body + notes_at + 1, row0 + first_body + len(body)
        shown = "; ".join(f"'{t[:60]}'" for t in texts[:2]) + (" …" if len(texts) > 2 else "")
        info.footnotes = texts
        if first == last:
            note = _(
                "Row {first} of sheet '{sheet}', under a blank row and with text in the first "
                "column only, looks like a footnote and was left out: {shown}."
            )
        else:
            note = _(
                "Rows {first}–{last} of sheet '{sheet}', under a blank row and with text in "
                "the first column only, look like footnotes and were left out: {shown}."
            )
        info.notes.append(note.format(first=first, last=last, sheet=sheet, shown=shown))
        body = body[:notes_at]
    return body


def _typed_frame(
    header: list[object],
    body: list[list[object]],
    where: str,
    decimal: str | None,
    info: ImportInfo,
    task: Task,
) -> pd.DataFrame:
    """The body's columns typed under unique names, blank rows and columns left out."""
    names, renamed, notes = unique_names(header)
    columns = [_prepare(cells) for cells in zip(*body, strict=True)]
    blank_rows = np.logical_and.reduce([c.blank for c in columns])
    n_blank = int(blank_rows.sum())
    if n_blank:
        if n_blank == len(body):
            raise InputError(_no_rows(where))
        info.blank_rows += n_blank
        info.notes.append(
            ngettext(
                "{n} blank row inside the table (no value in any column) was left out.",
                "{n} blank rows inside the table (no value in any column) were left out.",
                n_blank,
            ).format(n=number(n_blank))
        )
        columns = [c.without(blank_rows) for c in columns]
    if decimal is None:
        decimal = _sniff_text_decimal(columns)
        if decimal is not None:
            info.guessed.append("decimal")
    data: dict[str, pd.Series] = {}
    kept_renamed: dict[str, str] = {}
    for j, (name, column) in enumerate(zip(names, columns, strict=True)):
        series, col_notes, mixed = _column(column, name, decimal or ".")
        if name in renamed and renamed[name] == "" and series.isna().all():
            continue  # no header and no value: nothing to keep
        data[name] = series
        info.notes.extend(col_notes)
        if mixed:
            info.mixed[name] = mixed
        if name in renamed:
            kept_renamed[name] = renamed[name]
        task.step(0.5 + 0.45 * (j + 1) / len(names), _("Column '{name}'").format(name=name))
    if not data:
        raise InputError(_("{where} has no column with data.").format(where=where))
    if any(c.texts for c in columns):
        info.decimal = decimal or "."
    info.renamed.update(kept_renamed)
    info.notes[:0] = [note for new, note in notes.items() if new in data]
    return pd.DataFrame(data)


def _footnotes(body: Sequence[Sequence[object]]) -> int | None:
    """Where footnotes start under a table: a blank row followed only by rows with text in
    the first column and nothing else (and blank rows).  None when there are none."""

    def kind(row: Sequence[object]) -> str:
        filled = [j for j, v in enumerate(row) if not _blank(v)]
        if not filled:
            return "blank"
        return "note" if filled == [0] and isinstance(row[0], str) else "data"

    i = len(body)
    while i > 0 and kind(body[i - 1]) != "data":
        i -= 1
    for j in range(i, len(body)):
        if kind(body[j]) == "blank":
            return j if any(kind(r) == "note" for r in body[j + 1 :]) else None
    return None


def _find_header(rows: list[list[object]], merged: Sequence[Merged] = ()) -> int:
    """Index of the header: the first row about as wide as the table (titles are narrower).

    A title, a source line or a blank row fills one or two cells (a merged title keeps its
    value in one); the header names (nearly) every column.  A cell covered by a merged
    range counts as filled when the range has a value: a group header ("Weekly wage" over
    two columns) and a name merged down over two rows ("person_id" over A1:A2) fill every
    column they cover, as Excel shows them; but a row needs two values of its own, so that a
    title merged across the table stays a title.
    """
    search = rows[:_HEADER_SEARCH]
    values = [{j for j, v in enumerate(row) if not _blank(v)} for row in rows[:100]]
    filled = [set(cells) for cells in values]
    for (r0, c0), (r1, c1) in merged:
        if not 0 <= r0 < len(filled) or not 0 <= c0 < len(rows[r0]) or _blank(rows[r0][c0]):
            continue
        for r in range(r0, min(r1, len(filled) - 1) + 1):
            filled[r].update(range(max(c0, 0), min(c1 + 1, len(rows[r]))))
    counts = [len(cells) for cells in filled]
    widest = max(counts, default=0)
    if widest <= 1:
        return next((i for i, c in enumerate(counts) if c), 0)
    need = max(2, math.ceil(0.5 * widest))
    for i in range(len(search)):
        if counts[i] >= need and len(values[i]) >= 2:
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


def _sub_header(rows: list[list[object]], merged: list[Merged], r: int) -> list[object] | None:
    """The next row when the header groups columns under merged cells (two-line header).

    Under each merged group every cell names a sub-column: a text, or a year such as 1988
    ("Weekly wage" over "1987 | 1988").  Outside the groups a cell is blank (the name is in
    the header row alone, or in a cell merged down over both rows) or a text; a number
    there means the row is data, not a header.
    """
    groups = [m for m in merged if m[0][0] == r and m[1][0] == r and m[1][1] > m[0][1]]
    if not groups or r + 2 > len(rows) - 1:
        return None
    below = _fill_merged(rows, merged, r + 1)
    in_group: set[int] = set()
    for (_r0, c0), (_r1, c1) in groups:
        span = below[max(c0, 0) : c1 + 1]
        if not span or not all(_is_label(v) for v in span):
            return None
        in_group.update(range(max(c0, 0), c1 + 1))
    for j, v in enumerate(below):
        if j not in in_group and not (_blank(v) or isinstance(v, str)):
            return None
    return below


def _is_label(value: object) -> bool:
    if isinstance(value, str):
        return bool(value.strip())
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value).is_integer() and _YEARS[0] <= value <= _YEARS[1]
    return False


def _label(value: object) -> str:
    return "" if _blank(value) else _cell_text(value).strip()


@dataclass
class _Cells:
    """One column's cells, with what every later step asks of them computed once."""

    arr: np.ndarray
    #: empty cells (None, "" or only spaces)
    blank: np.ndarray
    kinds: set[type]
    #: the distinct non-blank texts
    texts: list[str]

    def without(self, rows: np.ndarray) -> _Cells:
        keep = ~rows
        return _Cells(self.arr[keep], self.blank[keep], self.kinds, self.texts)


def _prepare(cells: Sequence[object]) -> _Cells:
    arr = np.empty(len(cells), dtype=object)
    arr[:] = cells
    blank = (arr == "") | np.equal(arr, None)
    kinds = set(map(type, arr[~blank]))
    texts: list[str] = []
    if str in kinds:
        is_text = ~blank if kinds == {str} else np.frompyfunc(_is_str, 1, 1)(arr).astype(bool)
        distinct = pd.unique(arr[is_text & ~blank])
        spaces = [t for t in distinct if not t.strip()]
        if spaces:  # cells of spaces are empty, as a spreadsheet shows them
            blank = blank | np.isin(arr, np.array(spaces, dtype=object))
        texts = [t for t in distinct if t.strip()]
        kinds = set(map(type, arr[~blank]))
    return _Cells(arr, blank, kinds, texts)


def _is_str(value: object) -> bool:
    return isinstance(value, str)


def _sniff_text_decimal(columns: Sequence[_Cells]) -> str | None:
    """The decimal mark of the numbers stored as text in a sheet, or None when it has none.

    ``3.549,40`` votes for the comma, ``3549.40`` for the dot; ``1.234`` does not vote.
    """
    sample: list[str] = []
    for column in columns:
        sample.extend(column.texts[:200])
    numeric = [t for t in sample if _NUMBER_LIKE.match(t)]
    if not numeric:
        return None
    return sniff_decimal(numeric)


def _column(column: _Cells, name: str, decimal: str) -> tuple[pd.Series, list[str], dict[str, int]]:
    """Typed column from calamine cell values (floats, ints, bools, dates, texts, '').

    Vectorised where it matters: a sheet of 200,000 rows is mostly numbers and a few
    repeated category texts, so texts are converted once per distinct value.
    """
    arr, blank, kinds = column.arr, column.blank, column.kinds
    if not kinds:
        return pd.Series(np.full(len(arr), np.nan)), [], {}
    if kinds <= {float, int}:
        values = np.full(len(arr), np.nan)
        values[~blank] = arr[~blank].astype(float)
        if not blank.any() and np.all(np.floor(values) == values) and np.abs(values).max() < 2**53:
            return pd.Series(values.astype(np.int64)), [], {}
        return pd.Series(values), [], {}
    date_kinds = {dt.date, dt.datetime}
    if kinds <= date_kinds | {float, int}:
        dated = _date_column(arr, blank, name)
        if dated is not None:
            return dated[0], dated[1], {}
    if kinds <= {str, float, int}:
        numbers = _text_numbers(column, name, decimal)
        if numbers is not None:
            return numbers
    # texts (and mixtures): one conversion per distinct value
    codes, uniques = pd.factorize(arr, use_na_sentinel=True)
    texts = np.array([_cell_text(u) for u in uniques], dtype=object)
    empty = np.array([not t.strip() for t in texts], dtype=bool)
    codes = np.where((codes >= 0) & ~empty[np.maximum(codes, 0)], codes, -1)
    cells_text = np.full(len(arr), None, dtype=object)
    present = codes >= 0
    cells_text[present] = texts[codes[present]]
    typed, report = type_text_column(
        pd.Series(cells_text), name, decimal=decimal, factorized=(codes, texts)
    )
    return typed.reset_index(drop=True), report.notes, report.mixed


def _text_numbers(
    column: _Cells, name: str, decimal: str
) -> tuple[pd.Series, list[str], dict[str, int]] | None:
    """Numbers when every text of the column is a number (``3.549,40`` with a decimal
    comma, ``3,549.40`` or ``3549.4`` with a dot); None otherwise (codes with leading
    zeros, texts, or whole numbers too large for a float, which keep every digit as text)."""
    texts = pd.Series(column.texts, dtype=object).str.strip()
    if texts.empty or texts.str.match(LEADING_ZERO.pattern).any():
        return None
    if decimal == ",":
        candidate = comma_to_dot(texts)
    else:
        candidate = texts.where(
            ~texts.str.fullmatch(_GROUPED.pattern), texts.str.replace(",", "", regex=False)
        )
    parsed = pd.to_numeric(candidate, errors="coerce").to_numpy(float, na_value=np.nan)
    if not np.isfinite(parsed).all():
        return None
    if (np.abs(parsed) > 2**53).any() and candidate.str.fullmatch(r"[+-]?\d+").all():
        return None
    arr, blank = column.arr, column.blank
    lookup = dict(zip(column.texts, parsed.tolist(), strict=True))
    values = np.full(len(arr), np.nan)
    for i in np.flatnonzero(~blank):
        v = arr[i]
        values[i] = lookup[v] if isinstance(v, str) else float(v)
    n_text = int(sum(isinstance(v, str) for v in arr[~blank]))
    if decimal == ",":
        said = ngettext(
            "Column '{name}': {n} number stored as text (such as '{example}') was read as a "
            "number with a decimal comma.",
            "Column '{name}': {n} numbers stored as text (such as '{example}') were read as "
            "numbers with a decimal comma.",
            n_text,
        )
    else:
        said = ngettext(
            "Column '{name}': {n} number stored as text (such as '{example}') was read as a "
            "number.",
            "Column '{name}': {n} numbers stored as text (such as '{example}') were read as "
            "numbers.",
            n_text,
        )
    note = said.format(name=name, n=number(n_text), example=texts.iloc[0])
    whole = not blank.any() and np.all(np.floor(values) == values) and np.abs(values).max() < 2**53
    series = pd.Series(values.astype(np.int64) if whole else values)
    return series, [note], {}


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
    stamps = pd.to_datetime(pd.Series(list(arr[is_date]), dtype=object), errors="coerce")
    if not in_date_range(stamps).all():
        return None  # a year such as 9999: text, as tclose computes dates up to 2261
    out = pd.Series(pd.NaT, index=range(len(arr)), dtype="datetime64[ns]")
    out[is_date] = stamps.to_numpy(dtype="datetime64[ns]")  # within range: exact
    if not numbers.any():
        return out, []
    out[numbers] = _EXCEL_EPOCH + pd.to_timedelta(serials, unit="D")
    n = int(numbers.sum())
    note = ngettext(
        "Column '{name}' holds dates; {n} cell stored as a bare serial number was read as a "
        "date too.",
        "Column '{name}' holds dates; {n} cells stored as bare serial numbers were read as "
        "dates too.",
        n,
    ).format(name=name, n=number(n))
    return out, [note]


def _cell_text(value: object) -> str:
    """A cell as the text a user would type for it."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        # a whole number (a double's exact value, so also beyond 2^53) without ".0"
        return str(int(value)) if value.is_integer() and abs(value) < 2**63 else repr(value)
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ") if value.time() != dt.time() else value.date().isoformat()
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return str(value)


__all__ = ["EXCEL_SUFFIXES", "choose_sheet", "human_size", "list_sheets", "read_workbook"]
