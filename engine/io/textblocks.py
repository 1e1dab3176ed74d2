"""Reading a large text file in blocks, each as the one-machine reader would read it.

A cluster reads a text file of many gigabytes in blocks cut at line ends, one block per
task.  :func:`text_layout` finds, once and on the first lines, what
:mod:`engine.io.delimited` finds for a whole file (encoding, separator, title lines, header,
decimal mark); :func:`read_text_block` then reads any block with it and refuses what the
one-machine reader refuses.  The cells stay text: the types are decided from a sample of the
whole file, as for every partition.
"""

from __future__ import annotations

import codecs
import io
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from engine.errors import InputError
from engine.i18n import _
from engine.io.columns import unique_names
from engine.io.delimited import BINARY_TEXT, SEP_HINT, record_fields
from engine.io.files import OLE_MAGIC, ZIP_MAGIC
from engine.io.info import ReadOptions
from engine.io.sniff import SAMPLE_BYTES, NotText, decode, records, sniff_decimal, sniff_layout

#: first bytes of a gzip stream (not cut into blocks)
GZIP_MAGIC = b"\x1f\x8b"
#: encodings a text file may have to be cut into blocks at its line ends (one byte per
#: character, or UTF-8, where a line end is always the byte 0x0A)
BLOCK_ENCODINGS = frozenset({"utf-8", "utf-8-sig", "ascii", "cp1252", "latin-1", "iso8859-1"})
#: a number written with a decimal comma, grouped by dots or not (1.234,5 or 12,5)
_COMMA_NUMBER = re.compile(r"^[+-]?(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?$")
#: the one-machine reader's sentence for binary data in a text file


@dataclass(frozen=True)
class TextLayout:
    """How every block of a text file is read: found once, on its first lines."""

    name: str
    encoding: str
    sep: str
    decimal: str
    #: physical lines before the first record (title lines, the header, Excel's sep= line)
    skip_lines: int
    names: tuple[str, ...]


def text_layout(path: Path, head: bytes, options: ReadOptions) -> TextLayout | None:
    """The layout of a plain text file from its first :data:`SAMPLE_BYTES`, or None when it
    cannot be cut into blocks (a workbook or another binary format, compressed, UTF-16/32:
    then it is read whole, by :func:`engine.io.read_table`)."""
    if head.startswith((ZIP_MAGIC, OLE_MAGIC, GZIP_MAGIC)):
        return None
    options.check(path.name, text=True)
    with path.open("rb") as fh:
        sample = fh.read(SAMPLE_BYTES)
    cut = sample.rfind(b"\n")
    sample = sample[: cut + 1] if cut > 0 else sample
    try:
        decoded = decode(sample, options.encoding)
    except (UnicodeDecodeError, NotText, LookupError):
        return None  # the one-machine reader says what is wrong
    if codecs.lookup(decoded.encoding).name not in BLOCK_ENCODINGS:
        return None
    text = decoded.text.replace("\r\n", "\n")
    skip = 0
    sep = options.sep
    hint = SEP_HINT.match(text)
    if hint:
        text = text[hint.end() :]
        skip = 1
        sep = sep or hint.group(1)
    layout = sniff_layout(text, sep)
    header_row = layout.header_row if options.header_row is None else options.header_row
    recs = records(text)
    if header_row >= len(recs):
        return None
    skip += sum(r.count("\n") + 1 for r in recs[: header_row + 1])
    names = tuple(unique_names(record_fields(recs[header_row], layout.separator))[0])
    decimal = options.decimal
    if decimal is None:
        body = recs[header_row + 1 : header_row + 201]
        cells = [c for r in body for c in record_fields(r, layout.separator)]
        decimal = sniff_decimal(cells) if layout.separator != "," else "."
    encoding = "utf-8" if decoded.encoding == "utf-8-sig" else decoded.encoding
    return TextLayout(path.name, encoding, layout.separator, decimal, skip, names)


def read_text_block(
    data: bytes, layout: TextLayout, first: bool, columns: list[str] | None = None
) -> pd.DataFrame:
    """One block of the file (whole lines) as text cells; ``first`` skips the lines above
    the first record.  Refused as the one-machine reader refuses a file: NUL bytes are
    binary data, a byte the encoding lacks is named."""
    if b"\x00" in data:
        raise InputError(_(BINARY_TEXT).format(name=layout.name))
    if first and data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        text = data.decode(layout.encoding)
    except UnicodeDecodeError as exc:
        raise InputError(
            _(
                "{name}: a part of it is not valid {encoding} (byte "
                "0x{byte:02X}). Give the file's encoding, or save it again as UTF-8."
            ).format(name=layout.name, encoding=layout.encoding, byte=data[exc.start])
        ) from exc
    try:
        frame = pd.read_csv(
            io.StringIO(text), sep=layout.sep, header=None, names=list(layout.names),
            dtype=str, keep_default_na=False, na_values=[""],
            skiprows=layout.skip_lines if first else 0, quotechar='"', engine="c",
        )  # fmt: skip
    except (pd.errors.ParserError, ValueError) as exc:
        raise InputError(
            _(
                "{name}: a line does not have the {n} fields of the "
                "header ({reason}). A value probably contains the separator "
                "without quotes: fix that line, or choose another separator."
            ).format(name=layout.name, n=len(layout.names), reason=str(exc).splitlines()[0])
        ) from exc
    frame = frame.dropna(how="all")
    if layout.decimal == ",":
        for col in frame.columns:
            cells = frame[col].str.strip()
            numbers = cells.str.match(_COMMA_NUMBER.pattern, na=False)
            if numbers.any():
                fixed = cells[numbers].str.replace(".", "", regex=False)
                frame.loc[numbers, col] = fixed.str.replace(",", ".", regex=False)
    if columns is not None:
        frame = frame[list(columns)]
    return frame.reset_index(drop=True)
