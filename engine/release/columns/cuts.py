"""Public, rounded cut points: the numbers a release may print instead of people's values.

A bucket label or a range that ends at an observed value publishes that person's value (the
top earner's exact income, say).  Every boundary the engine prints is therefore a *round*
number chosen from a gap between observed values, never a value itself:

* **Numbers** (:func:`separator`): the cut between two adjacent groups whose largest value
  below is ``a`` and smallest value above is ``c`` is the coarsest number of the 1–2–5 series
  that lies in (a, c]: the largest step s ∈ {…, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, …} one of
  whose multiples falls in the gap, and that multiple (0 when the gap holds 0; of two
  multiples, the one nearer the middle of the gap).  Between 11,153.20 and 11,187.90 this is
  11,180; between 34,023.45 and 34,024.10 it is 34,024.  Everything below the cut is < x and
  everything above is ≥ x, so labels are half-open intervals [x_j, x_{j+1}).
* **Dates** (:func:`date_separator`): the coarsest calendar unit that separates: the first
  of January of a year (a year divisible by 1000, 500, 100, 50, … first), else the first of a
  month (July, then April and October, then any month), else a day.

The rounding is deterministic and depends only on the two neighbouring values, so it adds no
randomness; what it removes is the exact value, and :func:`inner_range` keeps every printed
number inside the central 99 % of the column (its 0.5 and 99.5 percentiles), where a number is
not one outlier's.

Category names are the codebook, not a person's value, and are printed as they are; a set or
range of them (:class:`NameList`) quotes every name of a column as soon as one of its names
holds the separator, a quote or a bracket ("Installation, Maintenance, and Repair"), so a
released set can always be read back into its names.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

import numpy as np
import pandas as pd

#: the mantissas of the 1–2–5 series, coarsest first
STEPS = (5, 2, 1)
#: the share of records beyond which a value counts as an outlier, at each end
OUTLIER_SHARE = 0.005
_EPOCH = pd.Timestamp("1970-01-01")


def format_number(value: float) -> str:
    """A number as a short label: integers without a decimal point, others with ≤ 10 digits."""
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.10g}"


def decimal_places(values: np.ndarray) -> int:
    """Decimal places the values are recorded with (0 for whole numbers, at most 6)."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    for places in range(7):
        if np.allclose(x, np.round(x, places), rtol=0, atol=1e-9):
            return places
    return 6


def round_to(value: float, places: int) -> int | float:
    """``value`` rounded to ``places`` decimals (an int for 0 places)."""
    rounded = round(float(value), places)
    return int(rounded) if places == 0 else rounded


def round_inward(value: float, up: bool, digits: int = 2) -> float:
    """``value`` rounded to ``digits`` significant digits towards the inside of a range.

    ``up`` for a lower limit (rounded up), else down: 87,915 becomes 87,000 as an upper
    limit and 0.37 becomes 0.37 as a lower one.
    """
    if value == 0 or not math.isfinite(value):
        return float(value)
    step = Decimal(1).scaleb(math.floor(math.log10(abs(value))) - digits + 1)
    return outward(value, float(step), up)


def _dec(x: float) -> Decimal:
    return Decimal(repr(float(x)))


def _multiples(lo: Decimal, hi: Decimal, step: Decimal, lo_open: bool) -> list[Decimal]:
    """The (at most two) multiples of ``step`` in (lo, hi] (or [lo, hi]), largest last."""
    top = (hi / step).to_integral_value(rounding=ROUND_FLOOR) * step
    out = []
    for x in (top - step, top):
        if x <= hi and (x > lo if lo_open else x >= lo):
            out.append(x)
    return out


def coarsest(lo: float, hi: float, *, lo_open: bool = True) -> float:
    """The coarsest number of the 1–2–5 series in (lo, hi] (``lo_open``) or [lo, hi].

    0 if the interval holds it; else the multiple of the largest step s ∈ {1, 2, 5}·10^n that
    falls in the interval (of two, the one nearer the middle, the lower on a tie).
    """
    lo, hi = float(lo), float(hi)
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi < lo or (lo_open and hi == lo):
        raise ValueError(f"no number lies in the interval ({lo}, {hi}]")
    if (lo < 0 <= hi) or (not lo_open and lo <= 0 <= hi):
        return 0.0
    a, c = _dec(lo), _dec(hi)
    middle = (a + c) / 2
    exponent = math.floor(math.log10(max(abs(lo), abs(hi)))) + 1
    while True:
        for mantissa in STEPS:
            step = Decimal(mantissa).scaleb(exponent)
            found = _multiples(a, c, step, lo_open)
            if found:
                best = min(found, key=lambda x: (abs(x - middle), x))
                return float(best)
        exponent -= 1


def separator(a: float, c: float) -> float:
    """The public cut between a group whose largest value is ``a`` and one starting at ``c``."""
    return coarsest(a, c, lo_open=True)


def outward(value: float, step: float, up: bool) -> float:
    """``value`` rounded to a multiple of ``step`` away from the inside of a range."""
    v, s = _dec(value), _dec(step)
    q = (v / s).to_integral_value(rounding=ROUND_CEILING if up else ROUND_FLOOR)
    return float(q * s)


def nice_step(width: float) -> float:
    """The largest number of the 1–2–5 series that is at most ``width`` (> 0)."""
    exponent = math.floor(math.log10(width))
    for mantissa in STEPS:
        step = mantissa * 10.0**exponent
        if step <= width * (1 + 1e-12):
            return float(_dec(step))
    return float(Decimal(1).scaleb(exponent))


def step_at_least(width: float) -> float:
    """The smallest number of the 1–2–5 series that is at least ``width`` (> 0)."""
    exponent = math.floor(math.log10(width))
    for mantissa in (1, 2, 5, 10):
        step = Decimal(mantissa).scaleb(exponent)
        if float(step) >= width * (1 - 1e-12):
            return float(step)
    return float(Decimal(1).scaleb(exponent + 1))


def multiple_of(value: float, step: float) -> float:
    """``value`` rounded to the nearest multiple of ``step``, printed without float noise."""
    s = _dec(step)
    return float((_dec(value) / s).to_integral_value() * s)


def precision(value: float) -> float | None:
    """The largest power of ten that ``value`` is a multiple of (None for 0): 24,000 → 1,000,
    12,500 → 100, 0.25 → 0.01; what a label printing ``value`` is precise to."""
    if value == 0 or not math.isfinite(value):
        return None
    d = _dec(value).normalize()
    exponent = d.as_tuple().exponent
    assert isinstance(exponent, int)
    return float(Decimal(1).scaleb(exponent))


def nice_outward(value: float, up: bool) -> float:
    """The next number of the 1–2–5 series (…, 10, 20, 50, 100, …) strictly beyond ``value``.

    Up for an upper end, down for a lower one, the sign kept (0 stays 0): 563,569.08 becomes
    1,000,000 going up, 17 becomes 10 going down and an outlier of exactly 1,000,000 becomes
    2,000,000, so the printed end is never the value itself.
    """
    if value == 0:
        return 0.0
    magnitude = abs(float(value))
    grow = (value > 0) == up  # moving away from zero
    exponent = math.floor(math.log10(magnitude))
    series = [
        float(Decimal(m).scaleb(e)) for e in range(exponent - 1, exponent + 3) for m in (1, 2, 5)
    ]
    if grow:
        chosen = min(x for x in series if x > magnitude)
    else:
        smaller = [x for x in series if x < magnitude]
        chosen = max(smaller) if smaller else 0.0
    return math.copysign(chosen, value) if chosen else 0.0


def range_ends(lo: np.ndarray, hi: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Public ends for the ranges [lo, hi] of one numeric column's classes.

    Inside the central 99 % of ``values`` (the whole column) the ends are rounded outward to
    the grid of :func:`grid_step`, at least twice the column's precision (whole ages go to
    even numbers, so that an end is never known to be a person's age); an end beyond it
    (an outlier's value) goes to the next number of the 1–2–5 series strictly beyond it
    (:func:`nice_outward`), or to the grid point if that lies further out (0 rather than
    0.02 for 0.031 on a grid of 0.5).
    """
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    inner = inner_range(values)
    # never the column's own precision: on a grid of 0.5, whole ages would end where a
    # person's age does; at twice the precision an end leaves at least two values possible
    step = max(grid_step(*inner), 2.0 * 10.0 ** -decimal_places(values))
    places = max(0, -math.floor(math.log10(step))) + 1
    out_lo = np.round(np.floor(lo / step) * step, places)
    out_hi = np.round(np.ceil(hi / step) * step, places)
    for out, ends, up in ((out_lo, lo, False), (out_hi, hi, True)):
        beyond = (ends < inner[0]) | (ends > inner[1])
        for value in np.unique(ends[beyond]):
            rounded = nice_outward(value, up)  # never finer than the grid
            at = ends == value
            out[at] = max(rounded, out[at][0]) if up else min(rounded, out[at][0])
    return out_lo, out_hi


def grid_step(lo: float, hi: float) -> float:
    """The grid of range ends: the 1–2–5 step at most 1/100 of the central 99 % (lo..hi)."""
    width = (hi - lo) / 100 if hi > lo else max(abs(hi), 1.0) / 100
    return nice_step(width)


# ------------------------------------------------------------------------------------- dates


def to_date(days: float) -> pd.Timestamp:
    return _EPOCH + pd.Timedelta(days=float(days))


def to_days(date: pd.Timestamp) -> float:
    return float((date - _EPOCH) / pd.Timedelta(days=1))


def format_date(days: float) -> str:
    """A date as ISO text (with the time only when it is not midnight)."""
    stamp = to_date(days)
    if stamp == stamp.normalize():
        return stamp.date().isoformat()
    return stamp.isoformat(sep=" ")


def _year_start(year: int) -> float:
    return to_days(pd.Timestamp(year=int(year), month=1, day=1))


def _month_start(index: int) -> float:
    return to_days(pd.Timestamp(year=index // 12, month=index % 12 + 1, day=1))


def date_separator(a: float, c: float, *, lo_open: bool = True) -> float:
    """The coarsest calendar boundary in (a, c] (days since 1970): year, month or day start.

    Years go by the 1–2–5 series of their number (2000 before 2010 before 2012); months
    prefer July, then April and October; a day is the one nearest the middle of the gap.
    With ``lo_open=False`` the interval is [a, c].
    """
    start, stop = to_date(a), to_date(c)

    def inside(days: float) -> bool:
        return (days > a if lo_open else days >= a) and days <= c

    first_year = start.year if inside(_year_start(start.year)) else start.year + 1
    if first_year <= stop.year:
        year = int(coarsest(first_year, stop.year, lo_open=False))
        return _year_start(year)
    months = [
        m
        for m in range(start.year * 12 + start.month - 1, stop.year * 12 + stop.month)
        if inside(_month_start(m))
    ]
    if months:
        middle = (a + c) / 2
        for every in (6, 3, 1):
            found = [m for m in months if (m % 12) % every == 0]
            if found:
                return _month_start(min(found, key=lambda m: abs(_month_start(m) - middle)))
    days = [d for d in range(math.floor(a), math.floor(c) + 1) if inside(float(d))]
    if days:
        middle = (a + c) / 2
        return float(min(days, key=lambda d: (abs(d - middle), d)))
    return coarsest(a, c, lo_open=lo_open)


def date_range_ends(
    lo: np.ndarray, hi: np.ndarray, values: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Public ends (days since 1970) for the ranges [lo, hi] of one date column's classes.

    Inside the central 99 % the ends go outward to the calendar unit that is about 1/100 of
    its spread or coarser: years when it spans 50 years or more, months from about 4 years,
    else days; the lower end is the unit's first day, the upper end its last.  An end beyond
    the central 99 % goes strictly beyond the value to the next coarser unit (month for days,
    year for months, decade for years: 1 January 1890 for 1 January 1900).
    """
    inner = inner_range(values)
    spread = inner[1] - inner[0]
    freq = "Y" if spread >= 50 * 365.25 else "M" if spread >= 1500 else "D"

    def to_stamps(days: np.ndarray) -> pd.Series:
        return pd.Series(_EPOCH + pd.to_timedelta(np.asarray(days, dtype=float), unit="D"))

    def days_of(stamps: pd.Series) -> np.ndarray:
        return ((stamps - _EPOCH) / pd.Timedelta(days=1)).to_numpy(dtype=float, copy=True)

    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    out_lo = days_of(to_stamps(lo).dt.to_period(freq).dt.start_time)
    out_hi = days_of(to_stamps(hi).dt.to_period(freq).dt.end_time.dt.normalize())
    # an end beyond the central 99 % on either side (a class of outliers has both ends there)
    below = (lo < inner[0]) | (lo > inner[1])
    above = (hi < inner[0]) | (hi > inner[1])
    if freq == "Y":  # beyond: the decade strictly beyond the value
        if below.any():
            years = (to_stamps(lo[below] - 1).dt.year // 10) * 10
            out_lo[below] = [_year_start(y) for y in years]
        if above.any():
            years = (to_stamps(hi[above] + 1).dt.year // 10) * 10 + 10
            out_hi[above] = [_year_start(y) - 1 for y in years]
    else:  # beyond: the next coarser unit, strictly beyond the value
        coarser = "Y" if freq == "M" else "M"
        out_lo[below] = days_of(to_stamps(lo[below] - 1).dt.to_period(coarser).dt.start_time)
        out_hi[above] = days_of(
            to_stamps(hi[above] + 1).dt.to_period(coarser).dt.end_time.dt.normalize()
        )
    return out_lo, out_hi


# ------------------------------------------------------------------------------- outliers


def inner_range(values: np.ndarray) -> tuple[float, float]:
    """The 0.5 and 99.5 percentiles of the (non-missing) values: the central 99 %."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    lo, hi = np.quantile(x, [OUTLIER_SHARE, 1 - OUTLIER_SHARE])
    return float(lo), float(hi)


def guard_range(values: np.ndarray, date: bool = False) -> tuple[float, float]:
    """Round limits inside the central 99 % for a printed statistic such as a bucket median.

    The lower limit is the coarsest round number between the 0.5 and 1 percentiles, the upper
    one between the 99 and 99.5 percentiles (a calendar boundary for dates), so a clipped
    statistic is a public round number that no outlier pulls out of the central 99 %.
    """
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    q = np.quantile(x, [OUTLIER_SHARE, 2 * OUTLIER_SHARE, 1 - 2 * OUTLIER_SHARE, 1 - OUTLIER_SHARE])
    pick = date_separator if date else coarsest
    return pick(q[0], q[1], lo_open=False), pick(q[2], q[3], lo_open=False)


# ---------------------------------------------------------------------------- category names

#: characters that make a list of names ambiguous when a name holds one of them
_LIST_MARKS = ('"', "{", "}", "[", "]")


class NameList:
    """How the category sets and ranges of one column are printed, unambiguously.

    ``{A, B}`` and ``[A, B]`` (ordinal ranges ``A–B`` with ``separator="–"``) while no name of
    the column holds the separator, a quote or a bracket; otherwise every name is quoted,
    with quotes inside doubled: ``{"Installation, Maintenance, and Repair", "Sales"}``.
    """

    def __init__(self, names: Iterable[object], separator: str = ", ") -> None:
        self.separator = separator
        mark = separator.strip() or separator
        self.quote = any(mark in str(n) or any(c in str(n) for c in _LIST_MARKS) for n in names)

    def name(self, value: object) -> str:
        text = str(value)
        return '"' + text.replace('"', '""') + '"' if self.quote else text

    def set(self, names: Iterable[object]) -> str:
        """One name as itself, several as ``{A, B}``."""
        items = [self.name(n) for n in names]
        return items[0] if len(items) == 1 else "{" + self.separator.join(items) + "}"

    def range(self, lo: object, hi: object, brackets: bool = True) -> str:
        """``[lo, hi]`` (or ``lo–hi`` without brackets); one name when lo is hi."""
        if lo == hi:
            return self.name(lo)
        text = f"{self.name(lo)}{self.separator}{self.name(hi)}"
        return f"[{text}]" if brackets else text
