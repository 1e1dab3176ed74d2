"""Guessing how a text file is written: encoding, separator, title lines, decimal comma.

Each guess is a small pure function of the file's bytes or text, so that it can be tested on
its own and overridden by the caller; :mod:`engine.io.delimited` reports what was guessed.
"""

from __future__ import annotations

import codecs
import re
from collections import Counter
from dataclasses import dataclass

from engine.i18n import N_, _

#: separators we look for, in the order that breaks ties
SEPARATORS = (",", ";", "\t", "|")
#: each separator's name, translated when it is said (:func:`separator_name`)
SEPARATOR_NAMES = {
    ",": N_("comma"), ";": N_("semicolon"), "\t": N_("tab"), "|": N_("vertical bar")
}  # fmt: skip
#: how much of the file the guesses look at
SAMPLE_BYTES = 1 << 16
SAMPLE_RECORDS = 200

_COMMA_DECIMAL = re.compile(
    r"^[+-]?\d{1,3}(?:\.\d{3})+,\d+$|^[+-]?\d+,\d{1,2}$|^[+-]?\d+,\d{4,}$|^[+-]?\d{4,},\d+$"
)
_DOT_DECIMAL = re.compile(r"^[+-]?\d+\.\d{1,2}$|^[+-]?\d+\.\d{4,}$|^[+-]?\d{4,}\.\d+$")


def separator_name(sep: str) -> str:
    """The separator as a reader says it ("semicolon", "punto y coma"), or its repr when it
    has no name."""
    return _(SEPARATOR_NAMES[sep]) if sep in SEPARATOR_NAMES else repr(sep)


class NotText(ValueError):
    """The bytes are not text in any encoding we know (binary data)."""


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    #: what the user should know about the guess (empty when the file was plain UTF-8)
    note: str = ""


def looks_binary(head: bytes) -> bool:
    """True for bytes no text file contains: NULs outside UTF-16, or many control bytes."""
    if not head:
        return False
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or _wide_without_bom(head):
        return False
    if b"\x00" in head:
        return True
    control = sum(head.count(bytes([c])) for c in range(32) if c not in (9, 10, 12, 13, 27))
    return control > 0.02 * len(head)


def _wide_without_bom(head: bytes) -> str | None:
    """The UTF-32 or UTF-16 encoding the bytes look like without a BOM, else None."""
    return _utf32_without_bom(head) or _utf16_without_bom(head)


def _utf32_without_bom(head: bytes) -> str | None:
    """``"utf-32-le"``/``"utf-32-be"`` when three bytes in four are zero, in the places UTF-32
    text (of characters below U+10000, with many ASCII ones) puts them."""
    sample = head[: SAMPLE_BYTES - SAMPLE_BYTES % 4]
    if len(sample) < 8:
        return None
    lanes = [sample[i::4] for i in range(4)]
    zero = [lane.count(0) / len(lane) for lane in lanes]
    if zero[2] > 0.99 and zero[3] > 0.99 and zero[1] > 0.6 and zero[0] < 0.1:
        return "utf-32-le"
    if zero[0] > 0.99 and zero[1] > 0.99 and zero[2] > 0.6 and zero[3] < 0.1:
        return "utf-32-be"
    return None


def _utf16_without_bom(head: bytes) -> str | None:
    """``"utf-16-le"``/``"utf-16-be"`` when the bytes look like UTF-16 text without a BOM."""
    sample = head[: SAMPLE_BYTES - SAMPLE_BYTES % 2]
    if len(sample) < 4:
        return None
    even, odd = sample[0::2], sample[1::2]
    if odd.count(0) > 0.6 * len(odd) and even.count(0) < 0.1 * len(even):
        return "utf-16-le"
    if even.count(0) > 0.6 * len(even) and odd.count(0) < 0.1 * len(odd):
        return "utf-16-be"
    return None


def decode(data: bytes, encoding: str | None = None) -> Decoded:
    """The text of ``data``: the given encoding, else BOM, UTF-32, UTF-16, UTF-8, then
    Windows-1252.

    Raises ``UnicodeDecodeError`` when a given encoding does not fit, ``NotText`` for binary
    data, ``LookupError`` for an unknown encoding name.
    """
    if encoding:
        codecs.lookup(encoding)
        return Decoded(data.decode(encoding), encoding)
    if data.startswith(codecs.BOM_UTF8):
        return Decoded(data[len(codecs.BOM_UTF8) :].decode("utf-8"), "utf-8-sig")
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):  # before UTF-16: FF FE 00 00
        return Decoded(data.decode("utf-32"), "utf-32")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return Decoded(data.decode("utf-16"), "utf-16")
    wide = _wide_without_bom(data[:SAMPLE_BYTES])
    if wide:
        return Decoded(data.decode(wide), wide)
    if looks_binary(data[:SAMPLE_BYTES]) or b"\x00" in data:
        # NUL bytes anywhere (not only in the first lines) are binary data, not text
        raise NotText("binary data")
    try:
        return Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
    try:
        text = data.decode("cp1252")
        encoding = "cp1252"
    except UnicodeDecodeError:
        text = data.decode("latin-1")
        encoding = "latin-1"
    note = _(
        "The file is not UTF-8 (first non-UTF-8 byte on line {line}); it was read as "
        "{encoding} (Western European). If accented letters look wrong, choose the file's "
        "encoding."
    ).format(line=line, encoding="Windows-1252" if encoding == "cp1252" else "Latin-1")
    return Decoded(text, encoding, note)


def records(sample: str, quote: str = '"') -> list[str]:
    """Split text into records at newlines that are not inside quotes."""
    out: list[str] = []
    start, in_quotes = 0, False
    for i, ch in enumerate(sample):
        if ch == quote:
            in_quotes = not in_quotes
        elif ch == "\n" and not in_quotes:
            out.append(sample[start:i].rstrip("\r"))
            start = i + 1
    tail = sample[start:]
    if tail.strip():
        out.append(tail.rstrip("\r"))
    return out


def count_fields(record: str, sep: str, quote: str = '"') -> int:
    """Number of fields in one record (separators inside quotes do not count)."""
    n, in_quotes = 1, False
    for ch in record:
        if ch == quote:
            in_quotes = not in_quotes
        elif ch == sep and not in_quotes:
            n += 1
    return n


@dataclass(frozen=True)
class Layout:
    separator: str
    #: 0-based record index of the header (records before it are title lines)
    header_row: int
    n_fields: int


def sniff_layout(sample: str, sep: str | None = None) -> Layout:
    """The separator that splits the sample's records most consistently, and the header row.

    For each candidate the most common field count (> 1) is found; the candidate whose mode
    covers most records wins (ties: more fields, then the order of ``SEPARATORS``).  Leading
    records with another count (a title, a blank line) are title lines before the header.
    """
    recs = records(sample)[:SAMPLE_RECORDS]
    if not recs:
        return Layout(sep or ",", 0, 1)
    candidates = (sep,) if sep else SEPARATORS
    best: tuple[float, int, int, str, int] | None = None
    for cand in candidates:
        counts = [count_fields(r, cand) for r in recs if r.strip()]
        if not counts:
            continue
        mode, hits = Counter(counts).most_common(1)[0]
        if mode < 2 and not sep:
            continue
        header = next(i for i, r in enumerate(recs) if r.strip() and count_fields(r, cand) == mode)
        if header and not sep and _all_numbers(recs[header], cand):
            continue  # lines above a "header" of numbers: rather one column with decimal commas
        score = (hits / len(counts), mode, -SEPARATORS.index(cand) if cand in SEPARATORS else 0)
        if best is None or score > best[:3]:
            best = (*score, cand, header)
    if best is None:
        # one column: any separator that never occurs will do (not the comma, which may be
        # a decimal mark)
        unused = next((s for s in ("\t", "|", ";", ",") if s not in sample), "\x1f")
        return Layout(sep or unused, _first_nonblank(recs), 1)
    return Layout(best[3], best[4], best[1])


def _all_numbers(record: str, sep: str) -> bool:
    fields = [f.strip().strip('"') for f in record.split(sep)]
    return all(re.fullmatch(r"[+-]?\d+(?:[.,]\d+)?", f) for f in fields)


def _first_nonblank(recs: list[str]) -> int:
    return next((i for i, r in enumerate(recs) if r.strip()), 0)


def sniff_decimal(cells: list[str]) -> str:
    """``","`` when the numbers in ``cells`` use a decimal comma, else ``"."``.

    ``1,5`` or ``1.234,56`` vote for the comma, ``1.5`` or ``1234.5`` for the dot; ``1,234``
    and ``1.234`` are ambiguous and do not vote.
    """
    comma = sum(1 for c in cells if _COMMA_DECIMAL.match(c.strip()))
    dot = sum(1 for c in cells if _DOT_DECIMAL.match(c.strip()))
    return "," if comma > dot else "."
