"""Turning raw cells into typed columns without losing anything.

A column becomes numeric only when every non-empty cell is a number and no cell carries a
leading zero (``01234`` is a code, not the number 1234).  A column that is mostly numbers but
holds a few texts (``N/A``, ``-``) stays text and is *reported*, so that the user can declare
those texts as missing codes instead of having them silently turned into NaN.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from engine.i18n import N_, _
from engine.text import number, percent

#: a number with a leading zero that would be lost: 007, -01, 0123.5 (not 0, 0.5, -0.25)
LEADING_ZERO = re.compile(r"^\s*[+-]?0\d")
#: decimal-comma numbers, optionally with dots (or spaces) grouping thousands: 1.234,56
_COMMA_NUMBER = re.compile(r"^\s*[+-]?(?:\d{1,3}(?:[. \u00a0]\d{3})+|\d+)(?:,\d+)?\s*$")
#: a dot-decimal number with commas grouping thousands: 1,234 or -12,345,678.25
_GROUPED_NUMBER = re.compile(r"^\s*[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?\s*$")
#: a whole number written out in digits (at most 19: larger ones do not fit in int64)
_INTEGER = re.compile(r"[+-]?\d{1,19}")
#: ISO dates, with an optional time: 2024-01-31, 2024-01-31 12:00, 2024-01-31T12:00:00
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$")
#: day/month/year or month/day/year with / . or - between the parts
_DMY_DATE = re.compile(r"^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$")

#: how many different texts of a mixed column are named in reports
MAX_REPORTED = 10
#: the note on whole numbers a double would round (CSV and workbook cells, Parquet integers)
BEYOND_64_BITS = N_(
    "Column '{name}' holds whole numbers beyond 2^53 and empty cells or numbers beyond 64 "
    "bits; it was read as text, digit for digit (as numbers, the last digits would be lost)."
)


@dataclass
class ColumnReport:
    """What happened while typing one column (collected into ``ImportInfo``)."""

    notes: list[str] = field(default_factory=list)
    #: texts found in a mostly numeric column, with their counts (missing-code candidates)
    mixed: dict[str, int] = field(default_factory=dict)


def unique_names(raw: Sequence[object]) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """Usable, unique column names from a header row.

    Blank headers become ``column_<position>`` (1-based), repeated ones get ``_2``, ``_3``...
    Returns the names, a map new name -> original header text for every renamed column, and
    a map new name -> its note (keyed by name, so that a reader that leaves a column out
    leaves its note out too, in any language).  No column is ever dropped.
    """
    names: list[str] = []
    renamed: dict[str, str] = {}
    notes: dict[str, str] = {}
    taken: set[str] = set()
    for pos, value in enumerate(raw, start=1):
        text = "" if _is_blank(value) else _header_text(value)
        base = text or f"column_{pos}"
        name, n = base, 1
        while name.casefold() in taken:
            n += 1
            name = f"{base}_{n}"
        taken.add(name.casefold())
        names.append(name)
        if name != text:
            renamed[name] = text
            if text:
                note = _("Column {pos} '{text}' repeats an earlier column's name; it is called "
                         "'{name}'.")  # fmt: skip
            else:
                note = _("Column {pos} (blank) had no name; it is called '{name}'.")
            notes[name] = note.format(pos=pos, text=text, name=name)
    return names, renamed, notes


def _header_text(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).split())


def is_number(text: str) -> bool:
    """Whether Python reads ``text`` as a number (a code of a value label, a type's hint)."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def _is_blank(value: object) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and np.isnan(value):
        return True
    return isinstance(value, str) and not value.strip()


def comma_to_dot(values: pd.Series) -> pd.Series:
    """``"1.234,56"`` -> ``"1234.56"`` for the cells that are decimal-comma numbers."""
    text = values.astype("str")
    fits = text.str.match(_COMMA_NUMBER.pattern).fillna(False).astype(bool)
    fixed = (
        text[fits]
        .str.strip()
        .str.replace(r"[. \u00a0]", "", regex=True)
        .str.replace(",", ".", regex=False)
    )
    out = text.copy()
    out[fits] = fixed
    return out


def type_text_column(
    values: pd.Series,
    name: str,
    *,
    decimal: str = ".",
    parse_dates: bool = True,
    factorized: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[pd.Series, ColumnReport]:
    """Give a column of texts (NaN = empty cell) the type its cells support.

    Numbers when every cell is a number (int64 without gaps, float64 otherwise); dates when
    every cell is a date in one unambiguous format; text otherwise.  Mostly-numeric columns
    with a few texts stay text and list those texts in the report.  ``factorized`` (codes
    per cell, distinct texts) saves the caller's work when it has them already.
    """
    report = ColumnReport()
    # every decision is taken once per distinct text, then spread to the cells
    cell_codes, uniques = factorized or pd.factorize(values, use_na_sentinel=True)
    present = cell_codes >= 0
    if not present.any():
        return _as_text(values), report
    text = pd.Series(uniques, dtype="object").map(str)
    counts = np.bincount(cell_codes[present], minlength=len(text))
    candidate, numbers, ok = _numbers_of(text, name, decimal, report)
    n_ok, n_present = int(counts[ok].sum()), int(counts.sum())
    if n_ok == n_present:
        typed = _all_numbers(values, name, text, candidate, numbers, cell_codes, report)
        return typed, report
    if parse_dates:
        dates = dates_from_text(text)
        if dates is not None:
            stamps = dates.to_numpy(dtype="datetime64[ns]")
            cells = np.full(len(values), np.datetime64("NaT"), dtype="datetime64[ns]")
            cells[present] = stamps[cell_codes[present]]
            return pd.Series(cells, index=values.index), report
    if n_ok >= 0.5 * n_present:
        _report_mixed(name, text, ok, counts, report)
        if decimal == ",":
            # the number cells are kept in the canonical dot form so that declaring the texts
            # as missing later turns the column into numbers
            canonical = np.where(ok, candidate.str.strip().to_numpy(object), text.to_numpy(object))
            cells = np.full(len(values), None, dtype=object)
            cells[present] = canonical[cell_codes[present]]
            return pd.Series(cells, index=values.index).astype("str"), report
    return _as_text(values), report


def _numbers_of(
    text: pd.Series, name: str, decimal: str, report: ColumnReport
) -> tuple[pd.Series, np.ndarray, np.ndarray]:
    """Each distinct text as it is read as a number (comma decimals turned to dots, and, when
    every other text is a number, thousands commas dropped), its value and whether it is
    one."""
    candidate = comma_to_dot(text) if decimal == "," else text
    numbers = pd.to_numeric(candidate.str.strip(), errors="coerce").to_numpy(float, na_value=np.nan)
    ok = np.isfinite(numbers)
    if decimal == "." and not ok.all():
        grouped = text.str.match(_GROUPED_NUMBER.pattern).to_numpy(bool)
        if grouped.any() and (ok | grouped).all():
            # every other cell is a number written with thousands commas: 1,234,567.5
            candidate = text.where(~grouped, text.str.replace(",", "", regex=False))
            numbers = pd.to_numeric(candidate.str.strip(), errors="coerce").to_numpy(float)
            ok = np.isfinite(numbers)
            report.notes.append(
                _("Column '{name}' has thousands separators (1,234); read as numbers.").format(
                    name=name
                )
            )
    return candidate, numbers, ok


def _all_numbers(
    values: pd.Series,
    name: str,
    text: pd.Series,
    candidate: pd.Series,
    numbers: np.ndarray,
    cell_codes: np.ndarray,
    report: ColumnReport,
) -> pd.Series:
    """A column whose every cell is a number: numbers, unless leading zeros make it a code
    (text) or whole numbers beyond 2^53 must keep every digit (int64, or else text).
    ``cell_codes`` says which distinct text each cell holds (−1: empty)."""
    present = cell_codes >= 0
    zeros = text.str.match(LEADING_ZERO.pattern).to_numpy(bool)
    if zeros.any():
        example = text[zeros].iloc[0].strip()
        report.notes.append(
            _(
                "Column '{name}' keeps leading zeros (e.g. '{example}'), so it was read as "
                "text (a code such as a postcode), not as a number."
            ).format(name=name, example=example)
        )
        return _as_text(values)
    if _beyond_exact(candidate.str.strip()):  # whole numbers, kept digit for digit
        exact = _exact_integers(candidate.str.strip()) if present.all() else None
        if exact is not None:
            return pd.Series(exact[cell_codes], index=values.index)
        report.notes.append(_(BEYOND_64_BITS).format(name=name))
        return _as_text(values)
    cells = np.full(len(values), np.nan)
    cells[present] = numbers[cell_codes[present]]
    return _as_number(cells, present, values.index)


def _report_mixed(
    name: str, text: pd.Series, ok: np.ndarray, counts: np.ndarray, report: ColumnReport
) -> None:
    """A mostly-numeric column kept as text: its texts, most frequent first, in the report."""
    n_ok, n_present = int(counts[ok].sum()), int(counts.sum())
    order = np.argsort(-counts[~ok], kind="stable")
    bad_text = text[~ok].to_numpy()[order]
    bad_counts = counts[~ok][order]
    report.mixed = {
        str(t): int(c) for t, c in zip(bad_text[:MAX_REPORTED], bad_counts, strict=False)
    }
    shown = ", ".join(f"'{k}' ({number(v)}×)" for k, v in report.mixed.items())
    extra = len(bad_text) - MAX_REPORTED
    if extra > 0:
        shown = _("{shown} and {n} more").format(shown=shown, n=number(extra))
    report.notes.append(
        _(
            "Column '{name}' is {share} numbers but also holds text: {shown}. It was kept as "
            "text; declare these values as missing codes to use it as numbers."
        ).format(name=name, share=percent(n_ok / n_present), shown=shown)
    )


def _beyond_exact(texts: pd.Series) -> bool:
    """Whether every text is a whole number and one is beyond 2^53 (a double drops digits)."""
    if not texts.str.fullmatch(r"[+-]?\d{1,400}").all():
        return False
    return any(abs(int(t)) > 2**53 for t in texts)


def _exact_integers(texts: pd.Series) -> np.ndarray | None:
    """int64 values of integer texts when one of them is too large for a float to hold
    exactly (an ID such as 4611686018427387905); None otherwise."""
    if not texts.str.fullmatch(_INTEGER.pattern).all():
        return None
    try:
        ints = [int(t) for t in texts]
        if all(abs(i) <= 2**53 for i in ints):
            return None
        return np.array(ints, dtype=np.int64)
    except (OverflowError, ValueError):
        return None


def _as_text(values: pd.Series) -> pd.Series:
    return values.astype("str")


def _as_number(cells: np.ndarray, present: np.ndarray, index: pd.Index) -> pd.Series:
    """int64 when every cell is a whole number (and none is missing), float64 otherwise."""
    if present.all() and np.all(np.floor(cells) == cells) and np.abs(cells).max() < 2**53:
        return pd.Series(cells.astype(np.int64), index=index)
    return pd.Series(cells, index=index)


#: the dates tclose computes with (those a nanosecond timestamp holds, a day to spare):
#: others are kept as text by the readers and refused by the release
DATE_MIN, DATE_MAX = pd.Timestamp("1677-09-23"), pd.Timestamp("2262-04-10")


def in_date_range(dates: pd.Series) -> pd.Series:
    """Which of ``dates`` (missing ones included) lie within :data:`DATE_MIN`..:data:`DATE_MAX`."""
    return dates.isna() | ((dates >= DATE_MIN) & (dates <= DATE_MAX))


def dates_from_text(text: pd.Series) -> pd.Series | None:
    """Dates when every cell is one (within the dates tclose computes with): ISO, or
    day/month/year when the day is told apart."""
    stripped = text.str.strip()
    if stripped.str.match(_ISO_DATE.pattern).all():
        parsed = pd.to_datetime(stripped, errors="coerce", format="ISO8601")
        ok = parsed.notna().all() and in_date_range(parsed).all()
        return parsed if ok else None
    parts = stripped.str.extract(_DMY_DATE.pattern)
    if parts.isna().any().any():
        return None
    first, second = parts[0].astype(int), parts[1].astype(int)
    if (first > 12).any() and (second <= 12).all():
        dayfirst = True
    elif (second > 12).any() and (first <= 12).all():
        dayfirst = False
    else:
        return None  # 03/04/2024 could be either: leave as text, the user decides
    day, month = (first, second) if dayfirst else (second, first)
    parsed = pd.to_datetime(
        pd.DataFrame({"year": parts[2].astype(int), "month": month, "day": day}),
        errors="coerce",
    )
    return parsed if parsed.notna().all() and in_date_range(parsed).all() else None
