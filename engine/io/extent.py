"""How far a workbook's sheets really reach, found before any cell is read.

calamine builds every sheet as one dense grid from its first to its last cell.  One cell at
the sheet's far corner (``XFD1048576``) under a small table makes that grid 1,048,576 ×
16,384 cells, hundreds of gigabytes: the process aborts.  A stray value a few hundred
thousand rows below a table makes as many blank records.  So the sheet XML of an .xlsx is
scanned first, from the cell references themselves (the ``<dimension>`` element is written
by whoever made the file and is not to be trusted), and

* a few cells far away from the table (beyond a gap of :data:`ROW_GAP` empty rows or
  :data:`COL_GAP` empty columns) are left out of a trimmed copy of the workbook, with a note
  naming them;
* a sheet whose grid would still be too large is refused with a message that says where its
  cells are and what to do.

The scan is a byte-level pass over the decompressed XML (a quarter of calamine's own reading
time on a full sheet); the exact cell-by-cell pass runs only when the quick one finds the
sheet suspiciously sparse.
"""

from __future__ import annotations

import html
import re
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO

import numpy as np

from engine.i18n import _
from engine.text import number

#: rows of nothing that separate a stray cell from the table
ROW_GAP = 1_000
#: columns of nothing that separate a stray cell from the table
COL_GAP = 100
#: at most this many cells (or this share of a sheet's cells) are ever trimmed away
MAX_STRAY = 20
MAX_STRAY_SHARE = 0.001
#: a grid this much larger than its filled cells (and larger than :data:`DENSE_FREE`) is
#: looked at cell by cell
SPARSE_FACTOR = 4
DENSE_FREE = 250_000
#: bytes in memory per cell of the dense grid (calamine's cell plus the Python value)
BYTES_PER_CELL = 48
_CHUNK = 1 << 22
#: the longest tag a sheet may hold (attributes included); a longer one means a damaged part
MAX_TAG = 1 << 24
#: the largest part that only lists other parts (the workbook, relationships)
MAX_LIST_PART = 64 << 20
#: a trimmed copy stays in memory up to this size, then spills to a temporary file
SPOOL_BYTES = 64 << 20
#: relationship types (their last word) of the parts a reader of the cells needs
_CELL_PARTS = frozenset({"worksheet", "styles", "sharedStrings"})
#: column numbers three letters can spell (A..ZZZ); Excel stops at XFD (16,384)
_COLUMN_SLOTS = 26 + 26**2 + 26**3

_SHEET_TAG = re.compile(rb"<(?:\w+:)?sheet\s([^>]*?)/?>")
_ATTR = re.compile(rb'([\w:]+)\s*=\s*"([^"]*)"')
_REL_TAG = re.compile(rb"<(?:\w+:)?Relationship\s([^>]*?)/?>")
_ROOT_PREFIX = re.compile(rb"<(\w+:)?worksheet[\s>]")


@dataclass
class SheetExtent:
    """Where the cells of one worksheet are (0-based rows and columns, inclusive)."""

    name: str
    part: str
    n_cells: int = 0
    first_row: int = 0
    last_row: int = -1
    first_col: int = 0
    last_col: int = -1
    #: cells far from the table that a trimmed copy leaves out: (row, col)
    stray: list[tuple[int, int]] = field(default_factory=list)
    #: the bounding box of every cell, before trimming (for messages)
    full: tuple[int, int, int, int] | None = None

    @property
    def n_rows(self) -> int:
        return max(self.last_row - self.first_row + 1, 0)

    @property
    def n_cols(self) -> int:
        return max(self.last_col - self.first_col + 1, 0)

    @property
    def area(self) -> int:
        """Cells in the dense grid calamine will build."""
        return self.n_rows * self.n_cols


def cell_name(row: int, col: int) -> str:
    """``(0, 0)`` -> ``"A1"``."""
    letters = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(65 + rem) + letters
    return f"{letters}{row + 1}"


def range_name(first_row: int, first_col: int, last_row: int, last_col: int) -> str:
    return f"{cell_name(first_row, first_col)}:{cell_name(last_row, last_col)}"


def _col_number(letters: bytes) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + (ch - 64)
    return n - 1


def _attrs(tag: bytes) -> dict[bytes, str]:
    return {k.split(b":")[-1]: html.unescape(v.decode("utf-8", "replace")) for k, v in
            _ATTR.findall(tag)}  # fmt: skip


class TooLarge(ValueError):
    """A part of the workbook is larger than it can be (or than memory allows)."""


def _read_small(archive: zipfile.ZipFile, name: str) -> bytes:
    """A part that only lists other parts (the workbook, its relationships): refused beyond
    :data:`MAX_LIST_PART` (its size in the archive's directory bounds what the archive
    unpacks), so that a padded one never fills memory."""
    size = archive.getinfo(name).file_size
    if size > MAX_LIST_PART:
        raise TooLarge(
            _(
                "its part {name} unpacks to {size} bytes, far more than a list of sheets takes"
            ).format(name=name, size=number(size))
        )
    return archive.read(name)


def _relationships(archive: zipfile.ZipFile, name: str) -> list[dict[bytes, str]]:
    return [_attrs(tag) for tag in _REL_TAG.findall(_read_small(archive, name))]


def workbook_parts(archive: zipfile.ZipFile) -> tuple[str, dict[str, str], set[str]]:
    """The workbook part, its worksheets (name -> part, through the workbook's
    relationships) and every part a reader of the cells needs (the workbook, its
    relationships, styles, shared strings, sheets): nothing else (pictures, embedded files,
    drawings) is ever unpacked."""
    names = set(archive.namelist())
    book = "xl/workbook.xml"
    needed = {n for n in ("[Content_Types].xml", "_rels/.rels") if n in names}
    if "_rels/.rels" in names:
        for attrs in _relationships(archive, "_rels/.rels"):
            if attrs.get(b"Type", "").endswith("/officeDocument"):
                book = attrs.get(b"Target", book).lstrip("/")
    folder = PurePosixPath(book).parent
    rels_name = str(folder / "_rels" / (PurePosixPath(book).name + ".rels"))
    targets: dict[str, str] = {}
    if rels_name in names:
        needed.add(rels_name)
        for attrs in _relationships(archive, rels_name):
            target = attrs.get(b"Target", "")
            part = target.lstrip("/") if target.startswith("/") else str(folder / target)
            targets[attrs.get(b"Id", "")] = part
            if attrs.get(b"Type", "").rsplit("/", 1)[-1] in _CELL_PARTS and part in names:
                needed.add(part)
    out: dict[str, str] = {}
    if book in names:
        needed.add(book)
        for tag in _SHEET_TAG.findall(_read_small(archive, book)):
            attrs = _attrs(tag)
            part = targets.get(attrs.get(b"id", ""), "")
            if part in names and attrs.get(b"name"):
                out[attrs[b"name"]] = part
    return book, out, needed | set(out.values())


def sheet_parts(archive: zipfile.ZipFile) -> dict[str, str]:
    """Worksheet name -> its XML part inside the archive (through the workbook's rels)."""
    return workbook_parts(archive)[1]


def _chunks(archive: zipfile.ZipFile, part: str) -> Iterator[bytes]:
    """The part's bytes in pieces that never split a tag (each ends before a ``<`` or after
    a ``>``), each read once: text between tags (a sheet padded with spaces) passes through
    in pieces of its own size, and a tag longer than :data:`MAX_TAG` is a damaged part."""
    tail = b""
    with archive.open(part) as fh:
        while True:
            chunk = fh.read(_CHUNK)
            if not chunk:
                break
            data = tail + chunk if tail else chunk
            cut = data.rfind(b"<")
            if cut < 0 or data.find(b">", cut) >= 0:
                tail = b""  # no tag left open: everything can go
                yield data
                continue
            if len(data) - cut > MAX_TAG:
                raise TooLarge(f"its part {part} holds a tag longer than {MAX_TAG:,} bytes")
            if cut:
                yield data[:cut]
            tail = data[cut:]
    if tail:
        yield tail


def _find_all(a: np.ndarray, pattern: bytes) -> np.ndarray:
    """Start positions of ``pattern`` in the byte array ``a`` (vectorised, no Python loop)."""
    n = len(a) - len(pattern) + 1
    if n <= 0:
        return np.empty(0, dtype=np.int64)
    mask = a[:n] == pattern[0]
    for k in range(1, len(pattern)):
        mask &= a[k : n + k] == pattern[k]
    return np.flatnonzero(mask)


def _quick_scan(archive: zipfile.ZipFile, part: str, extent: SheetExtent) -> bool:
    """Bounds from the cell references, at numpy speed (no Python work per cell).

    Returns False when the file does not follow the usual layout (a cell without a leading
    ``r`` reference), or when the cells leave a long run of empty rows or columns: then the
    exact scan decides.  Cells holding only formatting count here (an over-estimate).
    """
    prefix = b""
    first = True
    n_tags = 0
    used_cols = np.zeros(_COLUMN_SLOTS, dtype=bool)
    row_sets: list[np.ndarray] = []
    for chunk in _chunks(archive, part):
        if first:
            root = _ROOT_PREFIX.search(chunk)
            prefix = (root.group(1) or b"") if root else b""
            first = False
        tag = b"<" + prefix + b"c"
        a = np.frombuffer(chunk + b"\0" * 16, dtype=np.uint8)
        at = _find_all(a[:-16], tag) + len(tag)
        after = a[at]
        at = at[(after == 32) | (after == 62) | (after == 47) | ((after >= 9) & (after <= 13))]
        n_tags += len(at)
        has_ref = (a[at] == 32) & (a[at + 1] == 114) & (a[at + 2] == 61) & (a[at + 3] == 34)
        if not has_ref.all():
            return False
        at = at + 4  # the first letter of the reference
        col = np.zeros(len(at), dtype=np.int64)
        n_letters = np.zeros(len(at), dtype=np.int64)
        going = np.ones(len(at), dtype=bool)
        for k in range(3):
            x = a[at + k].astype(np.int64)
            going &= (x >= 65) & (x <= 90)
            col = np.where(going, col * 26 + x - 64, col)
            n_letters += going
        row = np.zeros(len(at), dtype=np.int64)
        going = np.ones(len(at), dtype=bool)
        n_digits = np.zeros(len(at), dtype=np.int64)
        for k in range(7):
            x = a[at + n_letters + k].astype(np.int64)
            going &= (x >= 48) & (x <= 57)
            row = np.where(going, row * 10 + x - 48, row)
            n_digits += going
        if (n_letters == 0).any() or (n_digits == 0).any() or (row == 0).any():
            return False
        used_cols[col - 1] = True
        row_sets.append(np.unique(row - 1))
    extent.n_cells = n_tags
    if not n_tags:
        return True
    row_numbers = np.unique(np.concatenate(row_sets))
    col_numbers = np.flatnonzero(used_cols)
    extent.first_row, extent.last_row = int(row_numbers[0]), int(row_numbers[-1])
    extent.first_col, extent.last_col = int(col_numbers[0]), int(col_numbers[-1])
    if len(row_numbers) > 1 and np.diff(row_numbers).max() > ROW_GAP:
        return False
    return not (len(col_numbers) > 1 and np.diff(col_numbers).max() > COL_GAP)


#: one whole cell element with its reference (self-closing, or up to its closing tag)
_CELL_ELEMENT = re.compile(
    rb'<(?:\w+:)?c\s[^>]*?\br="([A-Z]{1,3}\d{1,7})"[^>]*?(?:/>|>.*?</(?:\w+:)?c>)', re.DOTALL
)
_TOKEN = re.compile(rb"<(?:\w+:)?(row|c)(\s[^>]*?)?(/?)>")
_REF = re.compile(rb'\sr="([A-Z]{1,3})(\d{1,7})"')
_ROW_REF = re.compile(rb'\sr="(\d{1,7})"')


def _exact_cells(archive: zipfile.ZipFile, part: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows and columns (0-based) of every cell with content, and whether each such cell
    carries its own reference (a trimmed copy can only leave out those)."""
    rows: list[int] = []
    cols: list[int] = []
    refs: list[bool] = []
    row, col = -1, -1
    for chunk in _chunks(archive, part):
        for kind, attrs, closed in _TOKEN.findall(chunk):
            if kind == b"row":
                ref = _ROW_REF.search(attrs or b"")
                row = int(ref.group(1)) - 1 if ref else row + 1
                col = -1
                continue
            ref = _REF.search(attrs or b"")
            if ref:
                col = _col_number(ref.group(1))
                row = int(ref.group(2)) - 1
            else:
                col += 1
            if closed:
                continue  # <c r="B2" s="1"/>: formatting only, no value
            rows.append(row)
            cols.append(col)
            refs.append(ref is not None)
    as_int = np.int64
    return np.asarray(rows, as_int), np.asarray(cols, as_int), np.asarray(refs, dtype=bool)


def _core(values: np.ndarray, gap: int) -> tuple[int, int]:
    """The run of ``values`` (separated by more than ``gap``) holding most of them."""
    uniq, counts = np.unique(values, return_counts=True)
    cuts = np.flatnonzero(np.diff(uniq) > gap) + 1
    starts = np.concatenate(([0], cuts))
    ends = np.concatenate((cuts, [len(uniq)]))
    sizes = np.add.reduceat(counts, starts)
    best = int(np.argmax(sizes))
    return int(uniq[starts[best]]), int(uniq[ends[best] - 1])


def measure(archive: zipfile.ZipFile, name: str, part: str) -> SheetExtent:
    """The extent of one worksheet, with the cells to trim when a few lie far away."""
    extent = SheetExtent(name, part)
    quick = _quick_scan(archive, part, extent)
    if quick and extent.area <= max(DENSE_FREE, SPARSE_FACTOR * extent.n_cells):
        return extent
    rows, cols, has_ref = _exact_cells(archive, part)
    extent.n_cells = len(rows)
    if not len(rows):
        extent.last_row = extent.last_col = -1
        return extent
    full = (int(rows.min()), int(cols.min()), int(rows.max()), int(cols.max()))
    extent.full = full
    r0, r1 = _core(rows, ROW_GAP)
    in_rows = (rows >= r0) & (rows <= r1)
    c0, c1 = _core(cols[in_rows], COL_GAP)
    inside = in_rows & (cols >= c0) & (cols <= c1)
    n_out = int((~inside).sum())
    few = n_out <= max(MAX_STRAY, MAX_STRAY_SHARE * len(rows))
    if n_out and few and has_ref[~inside].all():
        extent.stray = list(zip(rows[~inside].tolist(), cols[~inside].tolist(), strict=True))
        extent.first_row, extent.first_col, extent.last_row, extent.last_col = r0, c0, r1, c1
    else:
        extent.first_row, extent.first_col, extent.last_row, extent.last_col = full
    return extent


def measure_workbook(path: Path) -> dict[str, SheetExtent]:
    """The extent of every worksheet of an .xlsx/.xlsm (name -> extent)."""
    with zipfile.ZipFile(path) as archive:
        return {name: measure(archive, name, part) for name, part in sheet_parts(archive).items()}


def _strip_cells(xml: bytes, stray: set[bytes]) -> bytes:
    """The sheet XML without the cells whose reference is in ``stray``."""
    return _CELL_ELEMENT.sub(lambda m: b"" if m.group(1) in stray else m.group(0), xml)


def trimmed_copy(
    path: Path, extents: dict[str, SheetExtent], budget: int | None = None
) -> IO[bytes]:
    """A copy of the workbook without the stray cells of ``extents``, holding only the parts
    a reader of the cells needs (:func:`workbook_parts`): a picture or an embedded file is
    never unpacked.  Each part is streamed, and the bytes copied count against ``budget``
    (the memory allowed; :class:`TooLarge` beyond it).  The copy stays in memory while it is
    small and spills to a temporary file beyond :data:`SPOOL_BYTES`."""
    trims = {e.part: {cell_name(r, c).encode() for r, c in e.stray} for e in extents.values()
             if e.stray}  # fmt: skip
    out = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)  # noqa: SIM115 - returned open
    copied = 0
    try:
        with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as dst:
            _, _, needed = workbook_parts(src)
            for item in src.infolist():
                if item.filename not in needed:
                    continue
                if item.filename in trims:
                    copied += item.file_size
                    _check_budget(path, copied, budget)
                    data = _strip_cells(src.read(item.filename), trims[item.filename])
                    dst.writestr(item.filename, data)
                    continue
                with src.open(item) as fh, dst.open(item.filename, "w") as target:
                    while block := fh.read(_CHUNK):
                        copied += len(block)
                        _check_budget(path, copied, budget)
                        target.write(block)
    except BaseException:
        out.close()
        raise
    out.seek(0)
    return out


def _check_budget(path: Path, copied: int, budget: int | None) -> None:
    if budget is not None and copied > budget:
        raise TooLarge(_("its sheets unpack to more than {size} bytes").format(size=number(copied)))
