"""Reading CSV/TSV/TXT files: pandas' C parser after the layout has been sniffed.

The C parser does the heavy lifting (a million rows in about a second); around it we decide
the encoding, separator, title lines and decimal mark, keep columns with leading zeros as
text, and turn the parser's errors into messages that name the line and say what to do.
"""

from __future__ import annotations

import csv
import io
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from engine.errors import InputError
from engine.i18n import N_, _, ngettext
from engine.io.columns import type_text_column, unique_names
from engine.io.info import ImportInfo, ReadOptions
from engine.io.sniff import (
    SAMPLE_BYTES,
    SEPARATORS,
    NotText,
    count_fields,
    decode,
    records,
    separator_name,
    sniff_decimal,
    sniff_layout,
)
from engine.progress import NO_TASK, Task
from engine.text import number

#: rows per chunk handed to the parser between two progress reports
CHUNK_ROWS = 100_000
#: after this many leading-zero cells the whole file is typed cell by cell (slow but exact)
_MAX_ZERO_MATCHES = 200_000
_FIELDS_ERROR = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")
#: a text protected against formula injection by a leading apostrophe
_GUARDED = re.compile(r"^'[=+\-@\t\r]")
#: Excel's optional first line naming the separator
SEP_HINT = re.compile(r"sep=([,;\t|])[ \t]*\r?\n", re.IGNORECASE)
_EOF_IN_QUOTE = re.compile(r"EOF inside string starting at row (\d+)")

#: the messages said in more than one place (marked here, translated where they are raised)
BINARY_TEXT = N_(
    "{name} does not look like a text (CSV) file: it contains binary data. If it is a "
    "spreadsheet, open it in its program and save it as .xlsx or CSV."
)
CANNOT_PARSE = N_(
    "{name}: cannot be read as {sep}-separated text ({reason}). Check the separator and the "
    "encoding."
)
TOO_MANY_FIELDS = N_(
    "{name}, line {line}: {n} fields where the header has {expected}. A value probably "
    "contains the separator ({sep}) without quotes: fix that line, or choose another separator."
)


def _no_rows(name: str) -> str:
    return _("{name} has a header but no data rows: add the data below the header line.").format(
        name=name
    )


def read_delimited(
    path: Path,
    data: bytes,
    info: ImportInfo,
    options: ReadOptions,
    *,
    task: Task = NO_TASK,
) -> pd.DataFrame:
    """Parse the bytes of a delimited text file; fills ``info`` with what was guessed.

    ``options.sheet`` does not apply; every other setting left as None is guessed.
    """
    name = path.name
    options.check(name, text=True)
    text = _line_ends(_decode(path, data, options.encoding, info), info)
    task.step(0.05, _("Reading {name}").format(name=name))
    if not text.strip():
        raise InputError(_("{name} is empty: there is nothing to import.").format(name=name))
    text, sep, header_row = _layout(text, options.sep, options.header_row, info)

    sample_recs = records(text[:SAMPLE_BYTES])
    if header_row >= len(sample_recs):
        raise InputError(
            _("{name}: there is no line {line} to use as the header.").format(
                name=name, line=header_row + 1
            )
        )
    header_cells = record_fields(sample_recs[header_row], sep)
    names, renamed, notes = unique_names(header_cells)
    body = sample_recs[header_row + 1 :]
    if not any(r.strip() for r in body) and len(text) <= SAMPLE_BYTES:
        raise InputError(_no_rows(name))
    decimal = _decimal_mark(name, body, sep, options.decimal, info)

    skip_lines = sum(r.count("\n") + 1 for r in sample_recs[:header_row])
    encoded = text.encode("utf-8")
    frame = _read_frame(path, text, encoded, names, sep, decimal, skip_lines, task)
    _report_short_rows(encoded, sep, skip_lines, len(names), info)
    frame = _drop_blank_rows(frame, info)
    if frame.empty:
        raise InputError(_no_rows(name))
    frame = _type_columns(frame, decimal, info, task)
    frame = _drop_blank_unnamed(frame, renamed, info)
    info.renamed.update({k: v for k, v in renamed.items() if k in frame.columns})
    info.notes[:0] = [note for new, note in notes.items() if new in frame.columns]
    return frame


def _layout(
    text: str, sep: str | None, header_row: int | None, info: ImportInfo
) -> tuple[str, str, int]:
    """The text of the table (without Excel's "sep=;" line), its separator and its header
    line: those given, or those the sniffer finds (and ``info`` says were guessed)."""
    hint = SEP_HINT.match(text)
    if hint:
        # Excel's "sep=;" first line names the separator; it is not part of the table
        text = text[hint.end() :]
        if sep is None:
            sep = hint.group(1)
            info.notes.append(
                _("The first line names the separator ('{line}').").format(
                    line=hint.group(0).strip()
                )
            )
    layout = sniff_layout(_from_record(text[:SAMPLE_BYTES], header_row), sep)
    info.separator = layout.separator
    if sep is None:
        info.guessed.append("separator")
        if layout.n_fields < 2:
            info.notes.append(
                _(
                    "No separator ({separators}) was found: the file was read as a single "
                    "column. Choose the separator if this is wrong."
                ).format(separators=", ".join(separator_name(s) for s in SEPARATORS))
            )
    if header_row is None:
        header_row = layout.header_row
        info.guessed.append("header_row")
        if header_row:
            info.notes.append(
                ngettext(
                    "{n} line at the top looks like a title and was skipped; the header is "
                    "line {line}.",
                    "{n} lines at the top look like a title and were skipped; the header is "
                    "line {line}.",
                    header_row,
                ).format(n=number(header_row), line=header_row + 1)
            )
    info.header_row = header_row
    return text, layout.separator, header_row


def _decimal_mark(
    name: str, body: list[str], sep: str, decimal: str | None, info: ImportInfo
) -> str:
    """The decimal mark: the one given, or the one the first 200 records' cells use (a point
    when the separator is a comma).  A comma cannot be both."""
    if decimal is None:
        cells = [c for rec in body[:200] for c in record_fields(rec, sep)]
        decimal = sniff_decimal(cells) if sep != "," else "."
        info.guessed.append("decimal")
        if decimal == ",":
            info.notes.append(_("Numbers use a decimal comma (1.234,56); they were read as such."))
    if decimal == "," and sep == ",":
        raise InputError(
            _("{name}: the decimal mark and the separator cannot both be a comma.").format(
                name=name
            )
        )
    info.decimal = decimal
    return decimal


def _read_frame(
    path: Path,
    text: str,
    encoded: bytes,
    names: list[str],
    sep: str,
    decimal: str,
    skip_lines: int,
    task: Task,
) -> pd.DataFrame:
    """The parsed table, with columns whose leading zeros matter kept as text, and read
    again as text where a number would lose digits (an ID beyond 2^53)."""
    as_text = _leading_zero_columns(text, sep, len(names), encoded)
    dtype = {names[i]: "str" for i in as_text if i < len(names)} if as_text else None
    if as_text == "all":
        dtype = dict.fromkeys(names, "str")
    frame = _parse(
        path, encoded, text.count("\n"), names, sep=sep, decimal=decimal,
        skip_lines=skip_lines, dtype=dtype, task=task,
    )  # fmt: skip
    inexact = _inexact_columns(frame)
    if inexact:  # read those again as text: every digit of an ID beyond 2^53 is kept
        dtype = {**(dtype or {}), **dict.fromkeys(inexact, "str")}
        frame = _parse(
            path, encoded, text.count("\n"), names, sep=sep, decimal=decimal,
            skip_lines=skip_lines, dtype=dtype, task=task.silent(),
        )  # fmt: skip
    return frame


def _decode(path: Path, data: bytes, encoding: str | None, info: ImportInfo) -> str:
    try:
        decoded = decode(data, encoding)
    except LookupError as exc:
        raise InputError(
            _(
                "{name}: '{encoding}' is not an encoding tclose knows; try utf-8, cp1252, "
                "latin-1 or utf-16."
            ).format(name=path.name, encoding=encoding)
        ) from exc
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        if encoding is None:  # a byte-order mark or the zero bytes of UTF-16 misled us
            raise InputError(
                _(
                    "{name}, line {line}: the text looks like {encoding} but is "
                    "not valid {encoding} (byte 0x{byte:02X}). Choose "
                    "the file's encoding, or save it again as UTF-8."
                ).format(
                    name=path.name,
                    line=line,
                    encoding=exc.encoding.upper(),
                    byte=data[exc.start],
                )
            ) from exc
        raise InputError(
            _(
                "{name}, line {line}: the text is not valid {encoding} (byte "
                "0x{byte:02X}). Choose another encoding (e.g. cp1252 or utf-16), or "
                "leave it empty to let tclose guess."
            ).format(name=path.name, line=line, encoding=encoding, byte=data[exc.start])
        ) from exc
    except NotText as exc:
        raise InputError(_(BINARY_TEXT).format(name=path.name)) from exc
    info.encoding = decoded.encoding
    if encoding is None:
        info.guessed.append("encoding")
    if decoded.note:
        info.notes.append(decoded.note)
    return decoded.text


def _line_ends(text: str, info: ImportInfo) -> str:
    """The text with ``\\n`` line ends only.

    Windows line ends (CR LF) become LF.  A file whose lines end with a bare CR (classic Mac
    OS, some exports) has its CRs read as line ends; otherwise a bare CR is part of a value
    (the parser is told that only LF ends a line), as a spreadsheet keeps it.
    """
    if "\r" not in text:
        return text
    n_crlf = text.count("\r\n")
    if n_crlf:
        text = text.replace("\r\n", "\n")
    bare = text.count("\r")
    if not bare:
        return text
    if bare > text.count("\n"):
        info.notes.append(
            _(
                "Lines end with a carriage return only (as on classic Mac OS); they were read "
                "as line ends."
            )
        )
        return text.replace("\r", "\n")
    info.notes.append(
        ngettext(
            "{n} carriage return inside a value was kept as part of that value.",
            "{n} carriage returns inside values were kept as part of those values.",
            bare,
        ).format(n=number(bare))
    )
    return text


def record_fields(record: str, sep: str) -> list[str]:
    """The cells of one record, as the parser will see them (for names and guesses only)."""
    try:
        return next(csv.reader([record], delimiter=sep, quotechar='"'), [])
    except csv.Error:
        # a value longer than the csv module allows, or a stray line break: a plain split
        # is good enough for naming columns and guessing the decimal mark
        return [f.strip('"') for f in record.replace("\r", " ").split(sep)]


def _from_record(sample: str, header_row: int | None) -> str:
    """The sample from the given header record on (the caller told us where it is)."""
    if not header_row:
        return sample
    recs = records(sample)
    return "\n".join(recs[header_row:])


def _inexact_columns(frame: pd.DataFrame) -> list[str]:
    """Float columns holding whole numbers beyond 2^53, where the parser may have dropped
    digits (a column of IDs with an empty cell is parsed as floats)."""
    out = []
    for name in frame.columns:
        col = frame[name]
        if col.dtype == np.float64:
            values = col.to_numpy()
            big = np.abs(values) >= 2**53
            if big.any() and np.all(np.floor(values[big]) == values[big]):
                out.append(name)
    return out


def _leading_zero_columns(
    text: str, sep: str, n_columns: int, encoded: bytes | None = None
) -> set[int] | str:
    """Indices of columns with a cell such as ``007`` (the parser would make it 7).

    A scan of the whole text for a separator or line break followed by an optional quote and
    ``0<digit>``.  (Signed codes such as ``-007`` are not looked for: nobody writes them.)
    The column of a hit is the number of separators before it on its line (quotes are not
    followed, so a quoted separator may pick a wrong column, which only costs speed: that
    column is typed cell by cell and still comes out right).  With the text's UTF-8 bytes
    (``encoded``) and a one-byte separator, the scan is a few numpy comparisons over the
    bytes, in slices (a regular expression per pattern went over the text four times).
    """
    if encoded is not None and len(sep.encode("utf-8")) == 1:
        return _leading_zero_bytes(encoded, sep, n_columns)
    found: set[int] = set()
    n = 0
    for start in (sep, "\n"):
        for prefix in ("", '"'):
            pattern = re.compile(re.escape(start + prefix + "0") + r"\d")
            for match in pattern.finditer(text):
                n += 1
                if n > _MAX_ZERO_MATCHES:
                    return "all"
                pos = match.start()
                line_start = text.rfind("\n", 0, pos + (start == "\n")) + 1
                if start == "\n":
                    found.add(0)
                else:
                    found.add(text.count(sep, line_start, pos) + 1)
                if len(found) >= n_columns:
                    return found
    return found


#: bytes per slice of the scans over a file's bytes (a few times this in temporaries)
_SCAN_BYTES = 1 << 22


def _leading_zero_bytes(encoded: bytes, sep: str, n_columns: int) -> set[int] | str:
    """:func:`_leading_zero_columns` on the bytes of the text (a one-byte separator): every
    ``0`` followed by a digit, then those after a separator or line break (and an optional
    quote), taken in the order the patterns of the text scan take them."""
    raw = np.frombuffer(encoded, dtype=np.uint8)
    s, nl, quote = ord(sep), ord("\n"), ord('"')
    hits: list[np.ndarray] = []
    for lo in range(1, max(len(raw) - 1, 1), _SCAN_BYTES):
        hi = min(lo + _SCAN_BYTES, len(raw) - 1)  # a '0' at lo..hi−1, its digit after it
        digit = (raw[lo + 1 : hi + 1] - ord("0")) <= 9  # uint8: below '0' wraps around
        hits.append(np.flatnonzero((raw[lo:hi] == ord("0")) & digit) + lo)
    pos = np.concatenate(hits) if hits else np.zeros(0, dtype=np.int64)
    before = raw[pos - 1]
    quoted = (before == quote) & (pos >= 2)
    start = np.where(quoted, raw[np.maximum(pos - 2, 0)], before)
    keep = (start == s) | (start == nl)
    # the patterns in the order of the text scan: separator, separator and quote, line
    # break, line break and quote; each in the order of the text
    pattern = 2 * (start[keep] == nl) + quoted[keep]
    pos = pos[keep][np.argsort(pattern, kind="stable")]
    if len(pos) > _MAX_ZERO_MATCHES:  # the scan gives up there, unless all columns were found
        pos = pos[: _MAX_ZERO_MATCHES + 1]
    columns: set[int] = set()
    for n, at in enumerate(pos.tolist(), start=1):
        if n > _MAX_ZERO_MATCHES:
            return "all"
        mark = at - 1 - (encoded[at - 1] == quote)  # the separator or line break
        if encoded[mark] == nl:
            columns.add(0)
        else:
            line_start = encoded.rfind(b"\n", 0, mark) + 1
            columns.add(encoded.count(sep.encode("utf-8"), line_start, mark) + 1)
        if len(columns) >= n_columns:
            return columns
    return columns


def _parse(
    path: Path,
    encoded: bytes,
    n_lines: int,
    names: list[str],
    *,
    sep: str,
    decimal: str,
    skip_lines: int,
    dtype: dict[str, str] | None,
    task: Task,
) -> pd.DataFrame:
    total = max(n_lines, 1)
    buffer = io.BytesIO(encoded)
    chunks: list[pd.DataFrame] = []
    done = 0
    try:
        reader = pd.read_csv(
            buffer,
            sep=sep,
            names=names,
            header=0,
            skiprows=skip_lines,
            index_col=False,
            dtype=dtype,
            keep_default_na=False,
            na_values=[""],
            decimal=decimal,
            quotechar='"',
            encoding="utf-8",
            engine="c",
            lineterminator="\n",
            chunksize=CHUNK_ROWS,
        )
        with reader, warnings.catch_warnings():
            # the parser only warns when the first data row is longer than the header, and
            # drops its extra cells: that is an error here, as for any other row
            warnings.simplefilter("error", pd.errors.ParserWarning)
            for chunk in reader:
                chunks.append(chunk)
                done += len(chunk)
                task.step(
                    0.05 + 0.8 * done / total, _("Read {done} rows").format(done=number(done))
                )
    except pd.errors.ParserWarning as exc:
        raise _long_row(path, encoded, sep, skip_lines, len(names)) from exc
    except pd.errors.ParserError as exc:
        raise _parser_error(path, sep, str(exc)) from exc
    except (ValueError, OverflowError) as exc:
        raise InputError(
            _(CANNOT_PARSE).format(name=path.name, sep=separator_name(sep), reason=exc)
        ) from exc
    if not chunks:
        return pd.DataFrame(columns=names)
    return pd.concat(chunks, ignore_index=True) if len(chunks) > 1 else chunks[0]


def _report_short_rows(
    encoded: bytes, sep: str, skip_lines: int, n_fields: int, info: ImportInfo
) -> None:
    """Note rows with fewer fields than the header (the parser leaves their cells empty).

    A short row often means a value with a line break that was not quoted, which splits one
    record in two.  Counted with numpy on the bytes (separators per line); files with quotes
    are skipped, since a quoted separator would be miscounted.
    """
    if n_fields < 2 or b'"' in encoded:
        return
    if _every_line_full(encoded, sep, skip_lines, n_fields):
        return
    raw = np.frombuffer(encoded, dtype=np.uint8)
    breaks = np.flatnonzero(raw == ord("\n"))
    starts = np.concatenate(([0], breaks + 1))
    ends = np.concatenate((breaks, [len(raw)]))
    # separators per line: between the positions of its start and the next line's start
    seps = np.flatnonzero(raw == ord(sep))
    per_line = np.diff(np.searchsorted(seps, np.append(starts, len(raw))))
    blank = (ends - starts) <= 1  # empty lines (or a lone carriage return) are skipped anyway
    short = np.flatnonzero((per_line < n_fields - 1) & ~blank)
    short = short[short > skip_lines]  # title lines and the header are not data
    if len(short):
        info.notes.append(
            ngettext(
                "{n} row has fewer fields than the header (line {line}); its missing cells "
                "were left empty. If a value contains a line break, it must be quoted.",
                "{n} rows have fewer fields than the header (first: line {line}); their "
                "missing cells were left empty. If a value contains a line break, it must be "
                "quoted.",
                len(short),
            ).format(n=number(len(short)), line=int(short[0]) + 1)
        )


def _every_line_full(encoded: bytes, sep: str, skip_lines: int, n_fields: int) -> bool:
    """Whether every line from the header on holds n_fields − 1 separators, counted in two
    passes over the bytes (a tenth of the line-by-line count of a million rows).

    The parser has already refused a line with more, so the total separators equal that many
    per line only when no line has fewer (and none is blank).
    """
    mark = sep.encode("utf-8")
    if len(mark) != 1:
        return False
    start = 0
    for _line in range(skip_lines):  # title lines above the header
        start = encoded.find(b"\n", start) + 1
        if start == 0:
            return False
    lines = encoded.count(b"\n", start) + (not encoded.endswith(b"\n"))
    return encoded.count(mark, start) == (n_fields - 1) * lines


def _long_row(path: Path, encoded: bytes, sep: str, skip_lines: int, n_fields: int) -> InputError:
    """The error for a data row with more fields than the header (found by a scan of the
    records, which is slow but only happens on this error)."""
    sep_name = separator_name(sep)
    text = encoded.decode("utf-8")
    line = 1
    for i, rec in enumerate(records(text)):
        n = count_fields(rec, sep)
        if i > skip_lines and n > n_fields:
            return InputError(
                _(TOO_MANY_FIELDS).format(
                    name=path.name, line=line, n=n, expected=n_fields, sep=sep_name
                )
            )
        line += rec.count("\n") + 1
    return InputError(
        _(
            "{name}: a row has more fields than the header ({expected}). A value probably "
            "contains the separator ({sep}) without quotes: fix it, or choose another "
            "separator."
        ).format(name=path.name, expected=n_fields, sep=sep_name)
    )


def _parser_error(path: Path, sep: str, message: str) -> InputError:
    sep_name = separator_name(sep)
    fields = _FIELDS_ERROR.search(message)
    if fields:
        expected, line, saw = (int(g) for g in fields.groups())
        return InputError(
            _(TOO_MANY_FIELDS).format(
                name=path.name, line=line, n=saw, expected=expected, sep=sep_name
            )
        )
    eof = _EOF_IN_QUOTE.search(message)
    if eof:
        return InputError(
            _(
                '{name}: a quote (") opened near row {row} is never closed. Fix '
                "the quoting in that row and import again."
            ).format(name=path.name, row=eof.group(1))
        )
    return InputError(_(CANNOT_PARSE).format(name=path.name, sep=sep_name, reason=message.strip()))


def _type_columns(
    frame: pd.DataFrame,
    decimal: str,
    info: ImportInfo,
    task: Task = NO_TASK,
) -> pd.DataFrame:
    """Text columns (and columns the chunks disagreed on) get the type their cells support."""
    out: dict[str, pd.Series] = {}
    for j, name in enumerate(frame.columns):
        task.step(0.85 + 0.14 * j / frame.shape[1], _("Column '{name}'").format(name=name))
        col = frame[name]
        if pd.api.types.is_bool_dtype(col):
            col = col.map({True: "True", False: "False"}).astype("str")
        if pd.api.types.is_numeric_dtype(col):
            out[name] = col
            continue
        raw, factorized = _guarded_text(col, str(name), decimal, info)
        typed, report = type_text_column(raw, str(name), decimal=decimal, factorized=factorized)
        out[name] = typed
        info.notes.extend(report.notes)
        if report.mixed:
            info.mixed[str(name)] = report.mixed
    return pd.DataFrame(out, index=frame.index)


def _guarded_text(
    col: pd.Series, name: str, decimal: str, info: ImportInfo
) -> tuple[pd.Series, tuple[np.ndarray, np.ndarray]]:
    """The column as text, with our export's formula guard (``'=x``) taken off again, and
    cells holding only spaces read as empty (as a spreadsheet shows them).

    Works on the distinct values: a million cells rarely hold more than a few thousand.
    """
    codes, uniques = pd.factorize(col, use_na_sentinel=True)
    texts = pd.Series([_as_cell_text(v, decimal) for v in uniques], dtype="object")
    spaces = np.array([not t.strip() for t in texts], dtype=bool)
    if spaces.any():
        is_space = np.isin(codes, np.flatnonzero(spaces))
        n = int(is_space.sum())
        info.notes.append(
            ngettext(
                "Column '{name}': {n} cell holding only spaces was read as empty.",
                "Column '{name}': {n} cells holding only spaces were read as empty.",
                n,
            ).format(name=name, n=number(n))
        )
        codes = np.where(is_space, -1, codes)
    guarded = texts.str.match(_GUARDED.pattern).to_numpy(bool)
    # a column of the text dtype is already right; others (chunks that disagreed) are rebuilt
    changed = not isinstance(col.dtype, pd.StringDtype)
    if guarded.any():
        n = int(np.isin(codes, np.flatnonzero(guarded)).sum())
        texts[guarded] = texts[guarded].str.slice(1)
        info.notes.append(
            ngettext(
                "Column '{name}': {n} cell started with an apostrophe protecting a "
                "formula-like text (such as '=x); the apostrophe was removed.",
                "Column '{name}': {n} cells started with an apostrophe protecting a "
                "formula-like text (such as '=x); the apostrophes were removed.",
                n,
            ).format(name=name, n=number(n))
        )
        changed = True
    values = texts.to_numpy(object)
    if not changed and not spaces.any():
        return col, (codes, values)
    cells = np.full(len(col), None, dtype=object)
    present = codes >= 0
    cells[present] = values[codes[present]]
    return pd.Series(cells, index=col.index), (codes, values)


def _as_cell_text(value: object, decimal: str) -> str:
    """A cell back as text (chunks may have parsed part of a column into numbers)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    text = str(value)
    return text.replace(".", ",") if decimal == "," and isinstance(value, float) else text


def _drop_blank_rows(frame: pd.DataFrame, info: ImportInfo) -> pd.DataFrame:
    """Rows with no value in any column (``,,,``) go, and are counted: such a row cannot be
    told apart from a blank line, and a record needs at least one value."""
    blank = np.ones(len(frame), dtype=bool)
    for name in frame.columns:
        if not blank.any():
            return frame
        col = frame[name]
        empty = col.isna().to_numpy(bool)
        if not pd.api.types.is_numeric_dtype(col) and not empty[blank].all():
            rows = np.flatnonzero(blank & ~empty)
            texts = col.iloc[rows].astype(str).str.strip().eq("").to_numpy(bool)
            empty = empty.copy()
            empty[rows] = texts
        blank &= empty
    n = int(blank.sum())
    if not n:
        return frame
    info.blank_rows += n
    info.notes.append(
        ngettext(
            "{n} blank row (no value in any column) was left out.",
            "{n} blank rows (no value in any column) were left out.",
            n,
        ).format(n=number(n))
    )
    return frame.loc[~blank].reset_index(drop=True)


def _drop_blank_unnamed(
    frame: pd.DataFrame, renamed: dict[str, str], info: ImportInfo
) -> pd.DataFrame:
    """Columns with no header and no value (a separator at the end of every line) go."""
    empty = [c for c in frame.columns if renamed.get(c) == "" and frame[c].isna().all()]
    if empty:
        info.notes.append(
            ngettext(
                "{n} column without a name or any value was left out (the lines probably end "
                "with a separator).",
                "{n} columns without a name or any value were left out (the lines probably "
                "end with a separator).",
                len(empty),
            ).format(n=number(len(empty)))
        )
        frame = frame.drop(columns=empty)
    return frame
