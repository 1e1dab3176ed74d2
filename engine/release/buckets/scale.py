"""How a numeric or date column's buckets are labelled and their means released (:class:`Scale`).

Labels never print a person's value (:mod:`engine.release.columns.cuts`).  Numeric and date
buckets are intervals between public cut points, the coarsest round number (1–2–5 series;
calendar boundaries for dates) in the gap between two neighbouring buckets: "< 18000",
"[18000, 40000)", "≥ 40000".  In dense data that gap is a cent wide, so a boundary may move
by up to 5 % of the smaller of its two buckets to where a rounder cut falls.  The outer
buckets are open-ended, or end at the user's public bounds ("[0, 18000)", "[40000, 250000]";
values beyond them count as the bound).  A bucket whose records share one value inside the
central 99 % of the column is labelled with it (a value a whole bucket shares is not one
person's).

Every bucket also gets its statistics over the whole file: the median, and for numbers the
mean and standard deviation.  The released mean is what ``confidential_output="mean"``
publishes: it keeps totals, and it is as public as the label, being a fixed function of the
whole bucket (never of a class×bucket cell, which can hold one person).  Like a cell of a
magnitude table it obeys the p%-rule (:func:`dominated`, p = 10 %): measured from the
bucket's public lower cut, when the records other than the two largest contributions add up
to less than p of the largest one, those two could be told apart from the mean, and the
bucket's median is released instead.  Means are rounded to the column's precision; a mean
(rare) or a median beyond the central 99 % goes to a round limit inside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from engine.release.columns import (
    coarsest,
    date_separator,
    decimal_places,
    format_date,
    format_number,
    guard_range,
    inner_range,
    multiple_of,
    nice_outward,
    precision,
    round_inward,
    step_at_least,
)
from engine.release.model import P_RULE, BucketStat


def dominated(contributions: np.ndarray, p: float = P_RULE) -> bool:
    """The p%-rule: do the other records add up to less than p of the largest contribution?

    ``contributions`` are non-negative (values measured from the bucket's lower limit).
    When the total minus the two largest is below p times the largest, the second largest
    contributor could estimate the largest to within p from the total (Hundepool et al.,
    *Statistical Disclosure Control*, 2012, §4.2).
    """
    return p_rule(*largest(contributions), p=p)


def largest(values: np.ndarray) -> tuple[float, float, float]:
    """(the total, the largest and the second largest) of ``values`` (0 where absent): what
    the p%-rule reads of them (:func:`p_rule`)."""
    c = np.sort(np.asarray(values, dtype=float))[::-1]
    if len(c) == 0:
        return 0.0, 0.0, 0.0
    return float(c.sum()), float(c[0]), float(c[1]) if len(c) > 1 else 0.0


def p_rule(total: float, first: float, second: float, *, p: float = P_RULE) -> bool:
    """:func:`dominated` of contributions known by their ``total`` and their ``first`` and
    ``second`` largest (a cluster adds these up over its partitions)."""
    if first <= 0:
        return False
    return total - (first + second) < p * first


class BucketValues:
    """The values of one bucket as its statistics read them (:meth:`Scale.stat_of`).

    One machine holds them in memory (:class:`TableValues`); a cluster adds up what each
    partition found of them, so the statistics ask for sums and extremes only.
    """

    count: int

    def extreme(self, up: bool) -> float:
        """The largest value (``up``) or the smallest."""
        raise NotImplementedError

    def beyond(self, near: float, up: bool) -> tuple[int, float]:
        """How many values lie beyond ``near`` (above it when ``up``), and their distance to
        it added up."""
        raise NotImplementedError

    def held(self, low: float, high: float) -> tuple[float, bool, float]:
        """Of the values clipped to [low, high]: their mean, whether they differ, the
        smallest."""
        raise NotImplementedError

    def contributions(self, low: float, high: float, base: float) -> tuple[float, float, float]:
        """:func:`largest` of the clipped values measured from ``base``."""
        raise NotImplementedError

    def spread(self) -> tuple[float, float, float, float]:
        """:func:`largest` of the squared deviations from the mean, and their plain sum."""
        raise NotImplementedError


class TableValues(BucketValues):
    """A bucket's values held in memory as its sorted distinct ``values``, held ``counts``
    times each: sums weighted by the counts and the largest contributions found in the
    table, so a bucket of a million records is read from its distinct values."""

    def __init__(self, values: np.ndarray, counts: np.ndarray) -> None:
        self.values = np.asarray(values, dtype=float)
        self.counts = np.asarray(counts, dtype=np.int64)
        self.count = int(self.counts.sum())

    @classmethod
    def of(cls, keys: np.ndarray) -> TableValues:
        """The table of a bucket's values ``keys``."""
        values, counts = np.unique(np.asarray(keys, dtype=float), return_counts=True)
        return cls(values, counts)

    def extreme(self, up: bool) -> float:
        return float(self.values[-1] if up else self.values[0])

    def beyond(self, near: float, up: bool) -> tuple[int, float]:
        outside = self.values > near if up else self.values < near
        n = int(self.counts[outside].sum())
        if not n:
            return 0, 0.0
        return n, _weighted_sum(np.abs(self.values[outside] - near), self.counts[outside])

    def held(self, low: float, high: float) -> tuple[float, bool, float]:
        held = np.clip(self.values, low, high)
        return (
            _weighted_sum(held, self.counts) / self.count,
            bool(held[-1] > held[0]),
            float(held[0]),
        )

    def contributions(self, low: float, high: float, base: float) -> tuple[float, float, float]:
        above = np.maximum(np.clip(self.values, low, high) - base, 0.0)
        return largest_counted(above, self.counts)

    def spread(self) -> tuple[float, float, float, float]:
        squares = np.square(self.values - _weighted_sum(self.values, self.counts) / self.count)
        return (*largest_counted(squares, self.counts), _weighted_sum(squares, self.counts))


def largest_counted(values: np.ndarray, counts: np.ndarray) -> tuple[float, float, float]:
    """:func:`largest` of ``values`` held ``counts`` times each, found without sorting (the
    second largest is the largest again when two records hold it)."""
    values = np.asarray(values, dtype=float)
    if len(values) == 0:
        return 0.0, 0.0, 0.0
    top = int(np.argmax(values))
    first = float(values[top])
    if counts[top] >= 2:
        second = first
    else:  # the largest of the others (no copy of the table without it)
        second = max(
            float(values[:top].max()) if top else 0.0,
            float(values[top + 1 :].max()) if top + 1 < len(values) else 0.0,
        )
    return _weighted_sum(values, counts), first, second


def _weighted_sum(values: np.ndarray, counts: np.ndarray) -> float:
    """Σ values × counts, summed pairwise by numpy (the same on every machine, unlike a BLAS
    dot product, whose threads also cost more than the sum on a busy machine)."""
    return float(np.multiply(values, counts, dtype=float).sum())


def _weighted_median(values: np.ndarray, counts: np.ndarray) -> float:
    """``np.median`` of ``values`` (sorted, distinct) held ``counts`` times each."""
    ends = np.cumsum(counts)
    n = int(ends[-1])
    upper = values[np.searchsorted(ends, n // 2, side="right")]
    if n % 2:
        return float(upper)
    lower = values[np.searchsorted(ends, n // 2 - 1, side="right")]
    return float(np.mean([lower, upper]))


def _plain(x: float) -> int | float:
    """A number as released: an int when it is whole."""
    return int(x) if float(x).is_integer() else x


def _two_digits(x: float) -> float:
    return float(f"{x:.2g}")


@dataclass(frozen=True)
class Scale:
    """How one numeric or date column's buckets are labelled (the rule of the module doc).

    Built from the whole column: its central 99 % (``inner``), the round limits that keep a
    representative inside it (``guard``) and the user's public bounds, if any.
    """

    date: bool
    inner: tuple[float, float]
    guard: tuple[float, float]
    public: tuple[float, float] | None = None
    #: the decimal places the column is recorded with (means are rounded to them)
    places: int = 0
    #: the limits of a released mean: the central 99 % rounded inward to 2 digits
    mean_limits: tuple[float, float] = (-math.inf, math.inf)
    #: where an open-ended bucket may end for its mean (:meth:`open_end`): the central 99 %
    #: rounded outward to 2 digits
    outer: tuple[float, float] = (-math.inf, math.inf)

    @classmethod
    def of(cls, keys: np.ndarray, date: bool, public: tuple[float, float] | None) -> Scale:
        keys = np.asarray(keys, dtype=float)
        keys = keys[~np.isnan(keys)]
        inner, guard = inner_range(keys), guard_range(keys, date)
        places, limits, outer = 0, guard, (math.floor(inner[0]), math.ceil(inner[1]))
        if not date:
            places = decimal_places(keys)
            low, high = round_inward(inner[0], up=True), round_inward(inner[1], up=False)
            if low <= high:
                limits = (low, high)
            # round_inward rounds up for a lower limit: used the other way round, outward
            outer = (round_inward(inner[0], up=False), round_inward(inner[1], up=True))
        return cls(date, inner, guard, public, places, limits, outer)

    def fmt(self, x: float) -> str:
        return format_date(x) if self.date else format_number(x)

    def cut(self, a: float, c: float) -> float:
        """The public cut between values ≤ a and values ≥ c, inside the central 99 % if it can."""
        pick = date_separator if self.date else coarsest
        lo_q, hi_q = self.inner
        if a < hi_q and c >= lo_q:
            if lo_q > a:
                return pick(lo_q, min(c, hi_q), lo_open=False)
            return pick(a, min(c, hi_q), lo_open=True)
        return pick(a, c, lo_open=True)

    def pins(self, cut: float) -> bool:
        """Is ``cut`` printed at the column's own precision (a cent, a day)?  Then the gap it
        was chosen in held no rounder number: the values on either side of it are the cut's
        neighbours on the column's grid, and the label tells them."""
        if self.date:
            day = pd.Timestamp("1970-01-01") + pd.Timedelta(days=float(cut))
            return day.day != 1
        step = precision(cut)
        return step is not None and step <= self.unit

    def describe(
        self,
        keys: np.ndarray | None,
        lo: float | None,
        hi: float | None,
        *,
        distinct: np.ndarray | None = None,
        counts: np.ndarray | None = None,
    ) -> tuple:
        """(label, bounds, :class:`BucketStat`) of a bucket between the cuts ``lo`` and ``hi``.

        None is an open end (the public bound when there is one).  A bucket whose records all
        share one value inside the central 99 % is labelled with that value: a value a whole
        bucket shares is not one person's.  The bucket is its values ``keys``, or (what the
        buckets of a large file pass) its sorted ``distinct`` values held ``counts`` times
        each: the same figures either way.
        """
        if counts is None or distinct is None:
            distinct, counts = np.unique(np.asarray(keys, dtype=float), return_counts=True)
        closed = False
        if self.public is not None:
            if lo is None:
                lo = self.public[0]
            if hi is None:
                hi, closed = self.public[1], True
        if len(distinct) == 1 and self.inner[0] <= distinct[0] <= self.inner[1]:
            label = self.fmt(distinct[0])
        elif lo is None and hi is None:
            label = "all"
        elif lo is None:
            label = f"< {self.fmt(hi)}"
        elif hi is None:
            label = f"≥ {self.fmt(lo)}"
        else:
            label = f"[{self.fmt(lo)}, {self.fmt(hi)}{']' if closed else ')'}"
        if self.date:
            bounds = tuple(None if x is None else format_date(x) for x in (lo, hi))
        else:
            bounds = (lo, hi)
        return label, bounds, self.stat_counted(distinct, counts, lo, hi)

    def stat(self, keys: np.ndarray, lo: float | None, hi: float | None = None) -> BucketStat:
        """The bucket's released mean (p%-rule, measured from ``lo``), median and spread, of
        its values ``keys`` (:meth:`stat_of`)."""
        values, counts = np.unique(np.asarray(keys, dtype=float), return_counts=True)
        return self.stat_counted(values, counts, lo, hi)

    def stat_of(
        self, values: BucketValues, lo: float | None, hi: float | None, median: Any
    ) -> BucketStat:
        """The bucket's released mean (p%-rule, measured from ``lo``) and spread, and its
        ``median`` (:meth:`representative`), from what the statistics read of its values.

        The mean is a sum query: it is taken over the values held within the bucket's range
        (:meth:`limits`) and rounded to a step that one record cannot cross
        (:meth:`_released`).  Without a lower cut (the bottom bucket) contributions are
        measured from the bucket's own smallest value, which only makes the p%-rule stricter.
        """
        low, high = self.limits(values, lo, hi)
        held_mean, varies, held_min = values.held(low, high)
        base = float(lo) if lo is not None else held_min
        withheld = p_rule(*values.contributions(low, high, base))
        # a value the whole bucket shares is no one's: kept as it is
        step = self.mean_step(low, high, values.count) if varies else self.unit
        mean = median if withheld else self._released(held_mean, low, high, step)
        sd: float | None = None
        if values.count > 1 and not withheld:
            total, first, second, plain = values.spread()
            if not p_rule(total, first, second):
                sd = _two_digits(float(np.sqrt(plain / (values.count - 1))))
        return BucketStat(values.count, mean, median, sd, withheld, (low, high))

    def stat_counted(
        self, values: np.ndarray, counts: np.ndarray, lo: float | None, hi: float | None = None
    ) -> BucketStat:
        """:meth:`stat` of the sorted distinct ``values`` held ``counts`` times each
        (:class:`TableValues`), so that no bucket's records are sorted again."""
        median = self._representative(values, counts, lo, hi)
        return self.stat_of(TableValues(values, counts), lo, hi, median)

    def limits(
        self, keys: np.ndarray | BucketValues, lo: float | None, hi: float | None
    ) -> tuple[float, float]:
        """The range a record of the bucket ``keys`` counts within for its mean: between the
        public cut points (or bounds); an open end at :meth:`open_end`."""
        values = keys if isinstance(keys, BucketValues) else TableValues.of(keys)
        low = float(lo) if lo is not None else self.open_end(values, self.outer[1], up=False)
        high = float(hi) if hi is not None else self.open_end(values, low, up=True)
        return min(low, high), max(low, high)

    def open_end(self, values: BucketValues, other: float, *, up: bool) -> float:
        """Where an open-ended bucket ends for its mean (its other end at ``other``): a round
        number, never a value.

        The central 99 % rounded outward (:attr:`outer`), values beyond it counting as that
        limit; or, when those values hold more beyond it than the coarser rounding step of
        the wider range costs the bucket's sum (a quarter of a step per record), the extreme
        value rounded strictly beyond on the 1–2–5 series (a top-coded income of 246,000
        that hundreds share: 500,000; one income of 9,876,543: 10,000,000).
        """
        near = self.outer[1] if up else self.outer[0]
        n_beyond, beyond = values.beyond(near, up)
        if self.date or not n_beyond:
            return near
        far = nice_outward(values.extreme(up), up)
        count = values.count

        def rounding(end: float) -> float:
            width = abs(end - other)
            return count * (step_at_least(width / count) if width > 0 else 0.0) / 4

        return far if beyond + rounding(near) > rounding(far) else near

    @property
    def unit(self) -> float:
        """The finest step a released number takes: the column's precision (a day)."""
        return 1.0 if self.date else 10.0**-self.places

    def mean_step(self, low: float, high: float, count: int) -> float:
        """The rounding step of a mean of ``count`` values held within [low, high].

        One record changed (or left out) moves such a mean by at most (high − low) / count:
        the step is the smallest number of the 1–2–5 series at least that large, and no finer
        than the column's precision.  Two releases that differ in one record then tell its
        value only to within about the bucket's width, which its label says anyway.
        """
        if high <= low:
            return self.unit
        return max(step_at_least((high - low) / count), self.unit)

    def weighted_mean(
        self, keys: np.ndarray, weights: np.ndarray, limits: tuple[float, float]
    ) -> Any:
        """The mean of ``keys`` weighted by ``weights``, held within the bucket's public
        ``limits`` (:attr:`BucketStat.limits`) and rounded as :meth:`stat` rounds the mean.

        One record moves a weighted mean by at most wᵢ · (high − low) / Σw, so the step is
        the smallest number of the 1–2–5 series at least max wᵢ · (high − low) / Σw: the
        bucket's public range sets it, never its own values, so two releases that differ in
        one record tell its value no better than the unweighted mean does.  Unlike the
        unweighted mean it may be finer than the column's precision, so that the weighted
        total survives (a count column's mean of 2.27 released as 2 would lose an eighth of
        its total).
        """
        low, high = limits
        keys = np.clip(np.asarray(keys, dtype=float), low, high)
        weights = np.asarray(weights, dtype=float)
        total = float(weights.sum())
        value = float(np.dot(weights, keys) / total)
        if high <= low or np.ptp(keys) == 0:
            step = self.unit
        else:
            step = step_at_least(float(weights.max()) * (high - low) / total)
        return self._released(value, low, high, step)

    def _released(self, value: float, low: float, high: float, step: float) -> Any:
        """A bucket mean as released: rounded to ``step`` (:meth:`mean_step`), inside the
        bucket's range [low, high].  A mean beyond the central 99 % by more than
        :data:`MEAN_SLACK` of its width (possible only in a range between cut points beyond
        it) goes to the 0.5 or 99.5 percentile rounded inward first.
        """
        slack = MEAN_SLACK * (self.inner[1] - self.inner[0])
        if not self.inner[0] - slack <= value <= self.inner[1] + slack:
            value = float(np.clip(value, *self.mean_limits))
        rounded = multiple_of(value, step)
        while rounded > high and rounded - step >= low:
            rounded = multiple_of(rounded - step, step)
        while rounded < low and rounded + step <= high:
            rounded = multiple_of(rounded + step, step)
        if self.date:
            return format_date(round(rounded))
        return int(rounded) if float(rounded).is_integer() else rounded

    def representative(
        self, keys: np.ndarray, lo: float | None = None, hi: float | None = None
    ) -> Any:
        """The bucket's median, clipped to the round limits inside the central 99 % and, for
        numbers, rounded one digit finer than the bucket's cut points print (a median of
        [200, 300) to tens), finer only where needed to stay inside the bucket, and never
        finer than the step one record cannot cross (:meth:`mean_step`: a median of three
        records is one of them).  A value the whole bucket shares stays as it is."""
        values, counts = np.unique(np.asarray(keys, dtype=float), return_counts=True)
        return self._representative(values, counts, lo, hi)

    def _representative(
        self, values: np.ndarray, counts: np.ndarray, lo: float | None, hi: float | None
    ) -> Any:
        med = float(np.clip(_weighted_median(values, counts), *self.guard))
        if len(values) == 1:  # a value the whole bucket shares is no one's: kept as it is
            return self._as_released(med)
        # a median is one record's value: rounded at least to the step one record cannot
        # cross (as the mean is), so a bucket of a few records never prints a person's value
        low, high = self.limits(TableValues(values, counts), lo, hi)
        least = self.mean_step(low, high, int(counts.sum()))
        if not self.date:
            rounded, step = self._rounded_median(med, lo, hi)
            if step >= least:
                return _plain(rounded)
        # held inside the round limits of the central 99 % as well as the bucket's range
        low, high = max(low, self.guard[0]), min(high, self.guard[1])
        if low > high:  # the bucket lies beyond them: their round limit
            return self._as_released(med)
        if least >= high - low:  # one record could move it anywhere: the roundest inside
            pick = date_separator if self.date else coarsest
            value = pick(low, high, lo_open=False)
            return self._as_released(value)
        return self._released(med, low, high, least)

    def _as_released(self, value: float) -> Any:
        """A representative as released: a date, or a number (an int when it is whole)."""
        return format_date(round(value)) if self.date else _plain(value)

    def _rounded_median(
        self, med: float, lo: float | None, hi: float | None
    ) -> tuple[float, float]:
        """The median rounded one digit finer than the cuts print, finer where it must to
        stay inside the bucket, and the step it was rounded to."""
        cuts = [p for p in (precision(c) for c in (lo, hi) if c is not None) if p is not None]
        step = min(cuts) / 10 if cuts else 10.0 ** (math.floor(math.log10(abs(med) or 1)) - 1)
        while step > self.unit:
            rounded = multiple_of(med, step)
            if (lo is None or rounded >= lo) and (hi is None or rounded < hi or rounded == med):
                return rounded, step
            step /= 10
        return multiple_of(med, self.unit), self.unit


#: an outer bucket's mean may lie this share of the central 99 %'s width beyond it before the
#: bucket merges with its neighbour (a mean closer than that is clipped)
MEAN_SLACK = 0.01
