"""Buckets of the confidential values (KBS 2015 §6.1).

Raw confidential values make t-closeness unattainable as soon as a class lacks one of them, so
they are coarsened into b buckets of near-equal mass whose values are as similar as possible:

* numeric, date and ordinal columns: consecutive ranges of the sorted values.  Ties are never
  split (every copy of a value lands in the same bucket), so a heavy tie such as an income of 0
  for most people gives one big bucket and the other buckets share the rest evenly;
* nominal columns: whole categories grouped into b sets of near-equal mass;
* several columns together (``joint=True``, the default and the stronger guarantee, KBS 2015 §4):
  the standardised value vectors are clustered into b groups of near-equal mass, identical
  vectors always together; with ``joint=False`` each column is bucketed on its own and the
  bucket of a record is the tuple of its column buckets;
* a record with a missing confidential value goes to a bucket of its own, released as empty.

Labels never print a person's value (:mod:`engine.release.cuts`).  Numeric and date buckets
are intervals between public cut points, the coarsest round number (1–2–5 series; calendar
boundaries for dates) in the gap between two neighbouring buckets: "< 18000",
"[18000, 40000)", "≥ 40000".  In dense data that gap is a cent wide, so a boundary may move
by up to 5 % of the smaller of its two buckets to where a rounder cut falls.  The outer
buckets are open-ended, or end at the user's public bounds ("[0, 18000)", "[40000, 250000]";
values beyond them count as the bound).  An outer bucket that lies wholly beyond the 0.5 or
99.5 percentile (a few outliers) joins its neighbour, so every cut lies in the central 99 %
of the column; so does an outer bucket whose mean lies well beyond it (a small top bucket of
large incomes), so that its mean can be released as it is.  A bucket whose records share one
value inside that range is labelled with it (a value a whole bucket shares is not one
person's).  Ordinal and nominal labels are
category names and sets: the categories are the codebook, not a person's value (quoted when a
name holds a comma, so that a set reads back into its names).

Every bucket also gets its statistics over the whole file (:class:`BucketStat`): the median,
and for numbers the mean and standard deviation.  The released mean is what
``confidential_output="mean"`` publishes: it keeps totals, and it is as public as the label,
being a fixed function of the whole bucket (never of a class×bucket cell, which can hold one
person).  Like a cell of a magnitude table it obeys the p%-rule (:data:`P_RULE`, p = 10 %):
measured from the bucket's public lower cut, when the records other than the two largest
contributions add up to less than p of the largest one, those two could be told apart from
the mean, and the bucket's median is released instead.  Means are rounded to the column's
precision; a mean (rare) or a median beyond the central 99 % goes to a round limit inside it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import InputError
from engine.i18n import _
from engine.release.columns import (
    NameList,
    category_order,
    coarsest,
    date_separator,
    decimal_places,
    format_date,
    format_number,
    guard_range,
    inner_range,
    multiple_of,
    nice_outward,
    numeric_values,
    precision,
    resolve_columns,
    round_inward,
    step_at_least,
)
from engine.release.model import P_RULE, Buckets, BucketStat
from engine.roles import ColumnType


def paper_bucket_count(t: float) -> int:
    """b = t + 1 (KBS 2015 §6.1), rounded to the nearest whole number (halves up), at least 2.

    The largest b where one bucket can hold a class's emphasis (a class may hold up to t
    times a bucket's share); not a utility optimum in general: any b keeps the guarantee,
    with classes of at least b records.  For t = 1.5 this gives 3, the paper's Figure 2.
    """
    if not (t >= 1 and math.isfinite(t)):
        raise InputError(_("t must be a number ≥ 1, not {t}.").format(t=t))
    return max(2, math.floor(t + 1.5))


def bucket_count(t: float, k: int, n_buckets: int | None = None) -> int:
    """The b of the paper's layout: the user's ``n_buckets``, else b = t + 1 capped at k.

    More buckets than k would force classes larger than k, since every class holds every
    bucket.  This is where the search of b starts (:func:`engine.release.plan.plan`) and
    what a noise run's redraw check uses.
    """
    if n_buckets is not None:
        return int(n_buckets)
    return min(paper_bucket_count(t), max(2, int(k)))


def dominated(contributions: np.ndarray, p: float = P_RULE) -> bool:
    """The p%-rule: do the other records add up to less than p of the largest contribution?

    ``contributions`` are non-negative (values measured from the bucket's lower limit).
    When the total minus the two largest is below p times the largest, the second largest
    contributor could estimate the largest to within p from the total (Hundepool et al.,
    *Statistical Disclosure Control*, 2012, §4.2).
    """
    c = np.sort(np.asarray(contributions, dtype=float))[::-1]
    if len(c) == 0 or c[0] <= 0:
        return False
    rest = float(c.sum() - c[: min(2, len(c))].sum())
    return rest < p * float(c[0])


def _two_digits(x: float) -> float:
    return float(f"{x:.2g}")


def _first_group_end(cum: np.ndarray, before: float, threshold: float) -> int:
    """End (exclusive) of the shortest group of mass ≥ threshold after the mass ``before``.

    Every group end of :func:`split_sorted` is this one float expression, so that the counts
    from one start and the ends of all starts at once (:func:`_last_starts`) agree to the bit.
    """
    return int(np.searchsorted(cum, before + threshold - 1e-9)) + 1


def _count_groups(cum: np.ndarray, threshold: float, enough: int) -> int:
    """Greedy number of groups of mass ≥ threshold from the first value, at most ``enough``.

    Greedy shortest groups from the left give the most groups; counting stops as soon as
    ``enough`` are found, so a call costs at most ``enough`` binary searches.
    """
    n_values = len(cum)
    start, found = 0, 0
    while found < enough and start < n_values:
        end = _first_group_end(cum, float(cum[start - 1]) if start else 0.0, threshold)
        if end > n_values:
            break
        found += 1
        start = end
    return found


def _last_starts(cum: np.ndarray, threshold: float, levels: int) -> np.ndarray:
    """last[m] (m = 0..levels): the largest start s from which m groups of mass ≥ threshold
    can still be formed out of values s.. (last[0] = n; −1 when none).

    f(s), the most groups from s, never increases with s (the greedy end of a group is
    monotone in its start, rounding included), so {s : f(s) ≥ m} is a prefix 0..last[m].
    f(s) ≥ m + 1 exactly when the first group from s ends at or before last[m], and group
    ends are sorted: per level, a binary search over the starts, each step one group end
    (:func:`_first_group_end`), O(log² n) instead of the ends of all n starts.
    """
    n_values = len(cum)

    def end(s: int) -> int:
        return _first_group_end(cum, float(cum[s - 1]) if s else 0.0, threshold)

    last = np.full(levels + 1, -1, dtype=np.int64)
    last[0] = n_values
    for m in range(levels):
        if last[m] < 0:
            break
        # the largest s with end(s) ≤ last[m] (−1 when none)
        lo, hi = -1, n_values - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if end(mid) <= last[m]:
                lo = mid
            else:
                hi = mid - 1
        last[m + 1] = lo
    return last


def split_sorted(weights: np.ndarray, b: int) -> list[int]:
    """End positions (exclusive) of b consecutive groups of near-equal total weight.

    ``weights`` are the multiplicities of the distinct sorted values; a group never splits a
    value.  The smallest group is made as large as possible first (it caps the number of
    classes, KBS 2015 §6.2): a heavy tie such as an income of 0 for most people takes one group
    and its small neighbours join it rather than forming a tiny group.  Within that, each
    cut aims at an equal share of the mass still to split.

    One function for one machine and a cluster's client (which splits interval counts).  It
    costs O(n log n) once plus O(b log n) per step of the threshold's binary search, however
    many distinct values there are (a real income column has nearly one per record).
    """
    weights = np.asarray(weights, dtype=float)
    n_values = len(weights)
    b = max(1, min(int(b), n_values))
    cum = np.cumsum(weights)
    total = float(cum[-1])
    # the largest threshold T such that b groups of mass ≥ T exist (binary search on T)
    lo_t, hi_t = float(weights.min()), total / b
    while hi_t - lo_t > 0.5:
        mid = (lo_t + hi_t) / 2
        if _count_groups(cum, mid, b) >= b:
            lo_t = mid
        else:
            hi_t = mid
    if _count_groups(cum, hi_t, b) >= b:
        lo_t = hi_t
    last = _last_starts(cum, lo_t, b)
    ends: list[int] = []
    start = 0
    for i in range(b - 1):
        before = cum[start - 1] if start > 0 else 0.0
        target = before + (total - before) / (b - i)
        first = _first_group_end(cum, float(before), lo_t)
        # the cut may go anywhere from first to the last start that leaves b − i − 1 groups
        last_ok = int(last[b - i - 1])
        stop = last_ok if last_ok >= first else first
        best = _nearest(cum, first, stop, target)
        ends.append(best)
        start = best
    ends.append(n_values)
    return ends


def _nearest(cum: np.ndarray, first: int, last: int, target: float) -> int:
    """The first c in first..last whose cum[c − 1] lies nearest to ``target``.

    ``cum`` is sorted, so the distance falls up to the insertion point and rises after it:
    the nearest is one of the two around it, or an earlier entry that ties it (equal masses),
    which only a long run of ties makes the whole segment worth scanning for.
    """
    seg = cum[first - 1 : last]
    i = int(np.searchsorted(seg, target, side="left"))
    stop = min(i + 1, len(seg))
    start = max(i - 17, 0)
    j = int(np.argmin(np.abs(seg[start:stop] - target)))
    if j == 0 and start > 0:  # a run of ties reaches further back: look at all of them
        start = 0
        j = int(np.argmin(np.abs(seg[:stop] - target)))
    return first + start + j


def _group_categories(counts: np.ndarray, b: int) -> np.ndarray:
    """Group index of every category: largest first into the lightest group (LPT)."""
    b = max(1, min(b, len(counts)))
    load = np.zeros(b)
    group = np.empty(len(counts), dtype=np.int64)
    for i in np.argsort(-counts, kind="stable"):
        g = int(np.argmin(load))
        group[i] = g
        load[g] += counts[i]
    return group


def _best_cut(
    keys: np.ndarray, weights: np.ndarray, nominal: bool, frac: float, scale: Scale | None = None
):
    """The split of one column closest to a ``frac`` share of the mass, or None.

    Returns (rows going left, cut): numeric/ordinal keys are cut between two distinct values
    (for a numeric or date column with its ``scale``, moved a little to the roundest public
    cut nearby, which is returned; else the cut is None); nominal categories are assigned,
    heaviest first, to whichever side brings the left mass nearer its target.  None when the
    column has a single value here.
    """
    distinct, inverse = np.unique(keys, return_inverse=True)
    if len(distinct) < 2:
        return None
    mass = np.bincount(inverse, weights=weights)
    target = frac * mass.sum()
    if nominal:
        left = np.zeros(len(distinct), dtype=bool)
        load = 0.0
        for i in np.argsort(-mass, kind="stable"):
            if abs(load + mass[i] - target) < abs(load - target):
                left[i] = True
                load += mass[i]
        if left.all() or not left.any():
            left[:] = False
            left[np.argmax(mass)] = True
        return left[inverse], None
    cum = np.cumsum(mass)
    pos = int(np.argmin(np.abs(cum[:-1] - target))) + 1  # distinct[:pos] go left
    if scale is None:
        return inverse < pos, None
    pos, cut = _rounder_boundary(distinct, cum, pos, 0, len(distinct), scale)
    return inverse < pos, cut


def _features(keys: np.ndarray, weights: np.ndarray, nominal: list[bool]) -> np.ndarray:
    """Distinct key rows as vectors whose per-column total sum of squares is the same.

    Numeric keys are standardised; nominal ones become indicators scaled by the column's
    Gini impurity, so that explaining any one column fully is worth the same.
    """
    total = weights.sum()
    blocks = []
    for col, is_nominal in enumerate(nominal):
        x = keys[:, col]
        if is_nominal:
            cats, inv = np.unique(x, return_inverse=True)
            share = np.bincount(inv, weights=weights) / total
            gini = 1.0 - (share**2).sum()
            onehot = np.zeros((len(x), len(cats)))
            onehot[np.arange(len(x)), inv] = 1.0
            blocks.append(onehot / np.sqrt(gini) if gini > 0 else onehot * 0)
        else:
            mean = (x * weights).sum() / total
            std = np.sqrt(((x - mean) ** 2 * weights).sum() / total)
            blocks.append(((x - mean) / std if std > 0 else x * 0)[:, None])
    return np.column_stack(blocks)


def _sse(features: np.ndarray, weights: np.ndarray) -> float:
    w = weights.sum()
    if w == 0:
        return 0.0
    s = (features * weights[:, None]).sum(axis=0)
    return float((features**2 * weights[:, None]).sum() - (s**2).sum() / w)


#: one split on the way to a joint bucket: (column, went below the cut, the public cut)
Split = tuple[int, bool, float]


def _split_vectors(
    keys: np.ndarray,
    weights: np.ndarray,
    nominal: list[bool],
    b: int,
    scales: Sequence[Scale | None] | None = None,
) -> tuple[np.ndarray, list[list[Split]]]:
    """Group of every distinct key row: b groups of near-equal mass by recursive bisection.

    Each step cuts one column, like a k-d tree, so every bucket is a product of per-column
    ranges or category sets and its label stays short.  Among the cuts that leave each side
    at least half its fair share of the mass, the one that makes the two sides most
    homogeneous (largest drop of the standardised sum of squares over all columns) wins;
    if none is balanced enough, the most balanced.  Identical rows are one weighted row, so
    they are never split.  Also returns, per group, the public cuts of the numeric and date
    columns (``scales``) on its path: the cell's walls, from which its labels are made.
    """
    scales = list(scales) if scales is not None else [None] * keys.shape[1]
    features = _features(keys, weights, nominal)
    group = np.zeros(len(keys), dtype=np.int64)
    paths: list[list[Split]] = []

    def leaf(rows: np.ndarray, path: list[Split]) -> None:
        group[rows] = len(paths)
        paths.append(path)

    def split(rows: np.ndarray, parts: int, path: list[Split]) -> None:
        if parts <= 1 or len(rows) <= 1:
            leaf(rows, path)
            return
        frac = (parts // 2) / parts
        w = weights[rows]
        f = features[rows]
        parent = _sse(f, w)
        best = None  # (balanced, gain or -imbalance), left, column, edge
        for col in range(keys.shape[1]):
            found = _best_cut(keys[rows, col], w, nominal[col], frac, scales[col])
            if found is None:
                continue
            left, edge = found
            share = w[left].sum() / w.sum()
            balanced = min(share / frac, (1 - share) / (1 - frac)) >= 0.5
            gain = parent - _sse(f[left], w[left]) - _sse(f[~left], w[~left])
            score = (balanced, gain if balanced else -abs(share - frac))
            if best is None or score > best[0]:
                best = (score, left, col, edge)
        if best is None:
            leaf(rows, path)
            return
        _, left, col, edge = best
        share = w[left].sum() / w.sum()
        left_parts = int(min(max(round(parts * share), 1), parts - 1))
        below = [*path, (col, True, edge)] if edge is not None else path
        above = [*path, (col, False, edge)] if edge is not None else path
        split(rows[left], left_parts, below)
        split(rows[~left], parts - left_parts, above)

    split(np.arange(len(keys)), b, [])
    return group, paths


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

    def describe(
        self,
        keys: np.ndarray,
        lo: float | None,
        hi: float | None,
        *,
        distinct: np.ndarray | None = None,
    ) -> tuple:
        """(label, bounds, :class:`BucketStat`) of a bucket between the cuts ``lo`` and ``hi``.

        None is an open end (the public bound when there is one).  A bucket whose records all
        share one value inside the central 99 % is labelled with that value: a value a whole
        bucket shares is not one person's.  ``distinct``: the sorted distinct ``keys`` when
        the caller has them.
        """
        closed = False
        if self.public is not None:
            if lo is None:
                lo = self.public[0]
            if hi is None:
                hi, closed = self.public[1], True
        if distinct is None:
            distinct = np.unique(keys)
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
        return label, bounds, self.stat(keys, lo, hi)

    def stat(self, keys: np.ndarray, lo: float | None, hi: float | None = None) -> BucketStat:
        """The bucket's released mean (p%-rule, measured from ``lo``), median and spread.

        The mean is a sum query: it is taken over the values held within the bucket's range
        (:meth:`limits`) and rounded to a step that one record cannot cross
        (:meth:`_released`).  Without a lower cut (the bottom bucket) contributions are
        measured from the bucket's own smallest value, which only makes the p%-rule stricter.
        """
        keys = np.asarray(keys, dtype=float)
        low, high = self.limits(keys, lo, hi)
        held = np.clip(keys, low, high)
        median = self.representative(keys, lo, hi)
        base = float(lo) if lo is not None else float(held.min())
        withheld = dominated(np.maximum(held - base, 0.0))
        # a value the whole bucket shares is no one's: kept as it is
        step = self.mean_step(low, high, len(keys)) if np.ptp(held) > 0 else self.unit
        mean = median if withheld else self._released(float(held.mean()), low, high, step)
        sd: float | None = None
        if len(keys) > 1 and not withheld:
            spread = (keys - keys.mean()) ** 2
            if not dominated(spread):
                sd = _two_digits(float(np.sqrt(spread.sum() / (len(keys) - 1))))
        return BucketStat(len(keys), mean, median, sd, withheld)

    def limits(self, keys: np.ndarray, lo: float | None, hi: float | None) -> tuple[float, float]:
        """The range a record of the bucket ``keys`` counts within for its mean: between the
        public cut points (or bounds); an open end at :meth:`open_end`."""
        keys = np.asarray(keys, dtype=float)
        low = float(lo) if lo is not None else self.open_end(keys, self.outer[1], up=False)
        high = float(hi) if hi is not None else self.open_end(keys, low, up=True)
        return min(low, high), max(low, high)

    def open_end(self, keys: np.ndarray, other: float, *, up: bool) -> float:
        """Where an open-ended bucket ends for its mean (its other end at ``other``): a round
        number, never a value.

        The central 99 % rounded outward (:attr:`outer`), values beyond it counting as that
        limit; or, when those values hold more beyond it than the coarser rounding step of
        the wider range costs the bucket's sum (a quarter of a step per record), the extreme
        value rounded strictly beyond on the 1–2–5 series (a top-coded income of 246,000
        that hundreds share: 500,000; one income of 9,876,543: 10,000,000).
        """
        near = self.outer[1] if up else self.outer[0]
        beyond = keys[keys > near] - near if up else near - keys[keys < near]
        if self.date or not beyond.size:
            return near
        far = nice_outward(float(keys.max() if up else keys.min()), up)

        def rounding(end: float) -> float:
            width = abs(end - other)
            return len(keys) * (step_at_least(width / len(keys)) if width > 0 else 0.0) / 4

        return far if beyond.sum() + rounding(near) > rounding(far) else near

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
        [200, 300) to tens), finer only where needed to stay inside the bucket: never one
        person's exact value.  A value the whole bucket shares stays as it is."""
        med = float(np.clip(np.median(keys), *self.guard))
        if not self.date and len(keys) and np.ptp(keys) > 0:
            med = self._rounded_median(med, lo, hi)
        if self.date:
            return format_date(round(med))
        return int(med) if med.is_integer() else med

    def _rounded_median(self, med: float, lo: float | None, hi: float | None) -> float:
        cuts = [p for p in (precision(c) for c in (lo, hi) if c is not None) if p is not None]
        step = min(cuts) / 10 if cuts else 10.0 ** (math.floor(math.log10(abs(med) or 1)) - 1)
        while step > self.unit:
            rounded = multiple_of(med, step)
            if (lo is None or rounded >= lo) and (hi is None or rounded < hi or rounded == med):
                return rounded
            step /= 10
        return multiple_of(med, self.unit)


def _describe(
    series: pd.Series, ctype: ColumnType, order: Sequence[str] | None, names: NameList
) -> tuple:
    """(label, bounds, :class:`BucketStat`) of a group of ordinal or nominal values.

    Categories are the column's codebook, not a person's value, so their names are the label
    (printed by ``names``, the column's :class:`~engine.release.cuts.NameList`).
    """
    values = series.dropna()
    if ctype == ColumnType.ORDINAL:
        cats = category_order(series, order)
        ranks = {str(c): i for i, c in enumerate(cats)}
        present = sorted({str(v) for v in values}, key=lambda v: ranks[v])
        lo, hi = present[0], present[-1]
        sorted_vals = sorted((str(v) for v in values), key=lambda v: ranks[v])
        rep = sorted_vals[(len(sorted_vals) - 1) // 2]
        return names.range(lo, hi), (lo, hi), BucketStat(len(values), rep, rep, None)
    cats = sorted({str(v) for v in values})
    rep = str(values.astype(str).value_counts().sort_index(kind="stable").idxmax())
    return names.set(cats), frozenset(cats), BucketStat(len(values), rep, rep, None)


def _names(series: pd.Series) -> NameList:
    """How the sets and ranges of a category column's buckets are printed."""
    return NameList({str(v) for v in series.dropna()})


def _sort_keys(series: pd.Series, ctype: ColumnType, order: Sequence[str] | None) -> np.ndarray:
    """Numbers that order a column's (non-missing) values: value, date, rank or category."""
    if ctype == ColumnType.NOMINAL:
        return pd.factorize(series.astype(str), sort=True)[0].astype(float)
    if ctype == ColumnType.ORDINAL:
        cats = category_order(series, order)
        lookup = {str(c): i for i, c in enumerate(cats)}
        return np.array([lookup[str(v)] for v in series], dtype=float)
    return numeric_values(series, ctype)


def _merge_outliers(distinct: np.ndarray, ends: list[int], inner: tuple[float, float]) -> list:
    """Group ends with every outer group that lies wholly beyond the central 99 % merged inward.

    A cut between two such groups would have to lie beyond the 0.5 or 99.5 percentile and
    print an outlier's value (almost); merging buckets keeps t-closeness.
    """
    ends = list(ends)
    while len(ends) > 1 and distinct[ends[0] - 1] < inner[0]:
        ends.pop(0)
    while len(ends) > 1 and distinct[ends[-2]] > inner[1]:
        ends.pop(-2)
    return ends


#: an outer bucket's mean may lie this share of the central 99 %'s width beyond it before the
#: bucket merges with its neighbour (a mean closer than that is clipped)
MEAN_SLACK = 0.01


def _merge_extreme_means(
    distinct: np.ndarray, weights: np.ndarray, ends: list[int], inner: tuple[float, float]
) -> list:
    """Group ends with every outer group whose mean lies well beyond the central 99 % merged
    inward.

    A small top bucket of large incomes can have a mean far above the 99.5 percentile;
    merged with its neighbour, its mean is no extreme and is released as it is, so the
    column's total stays exact (a clipped mean would lose much of it).  A mean just beyond,
    by less than :data:`MEAN_SLACK` of the central 99 %'s width, keeps its bucket and is
    released as it is (a few negative incomes in a bucket of zeros: the mean is no one's
    value and far from any outlier).  Merging buckets keeps t-closeness.
    """
    ends = list(ends)
    mass = distinct * weights

    def mean(start: int, stop: int) -> float:
        return float(mass[start:stop].sum() / weights[start:stop].sum())

    slack = MEAN_SLACK * (inner[1] - inner[0])
    while len(ends) > 1 and mean(ends[-2], ends[-1]) > inner[1] + slack:
        ends.pop(-2)
    while len(ends) > 1 and mean(0, ends[0]) < inner[0] - slack:
        ends.pop(0)
    return ends


#: a boundary may move by this share of the smaller of its two buckets to land on a rounder cut
ROUNDING_SLACK = 0.05


def _rounder_boundary(
    distinct: np.ndarray, cum: np.ndarray, pos: int, start: int, stop: int, scale: Scale
) -> tuple[int, float]:
    """The boundary near ``pos`` with the roundest cut, and that cut.

    ``distinct`` are sorted values with cumulative counts ``cum``; the boundary at ``pos``
    puts ``distinct[:pos]`` below it, between the neighbouring boundaries ``start`` and
    ``stop``.  In dense data the gap at the balanced boundary is a cent wide and its cut
    would be (almost) a person's value, so the boundary may move while the records it moves
    stay within :data:`ROUNDING_SLACK` of the smaller bucket: the cut is then the coarsest
    round number anywhere in that window, and the boundary goes where it falls.  Ties stay
    whole (the boundary is still between two distinct values).
    """

    def below(p: int) -> float:
        return float(cum[p - 1]) if p > 0 else 0.0

    slack = ROUNDING_SLACK * min(below(pos) - below(start), below(stop) - below(pos))
    first = int(np.searchsorted(cum, below(pos) - slack, side="left")) + 1
    last = int(np.searchsorted(cum, below(pos) + slack, side="right"))
    first, last = max(first, start + 1, 1), min(last, stop - 1)
    if first > pos or last < pos:  # no room: keep the balanced boundary
        first = last = pos
    cut = scale.cut(distinct[first - 1], distinct[last])
    return int(np.searchsorted(distinct, cut, side="left")), cut


def _check_public(column: str, keys: np.ndarray, cuts: list[float], scale: Scale) -> None:
    """Public bounds must overlap the values and lie outside every cut point."""
    if scale.public is None:
        return
    lo, hi = scale.public
    if hi < np.nanmin(keys) or lo > np.nanmax(keys):
        raise InputError(
            _(
                "The public bounds {lo}:{hi} of {column} do not overlap its values at all; "
                "check them."
            ).format(lo=format_number(lo), hi=format_number(hi), column=repr(column))
        )
    inside = [x for x in cuts if not lo < x < hi]
    if inside:
        raise InputError(
            _(
                "The public bounds {lo}:{hi} of {column} leave no "
                "room for its buckets (a cut point falls at {cut}); widen them."
            ).format(
                lo=format_number(lo),
                hi=format_number(hi),
                column=repr(column),
                cut=scale.fmt(inside[0]),
            )
        )


@dataclass(frozen=True)
class _SortedColumn:
    """What one column's buckets read that does not depend on b (computed once per column).

    ``keys`` are the present values as numbers in file order (values, days or ranks; the
    sorted category codes of a nominal column), ``distinct``/``inverse``/``weights`` their
    ``np.unique`` (None for a nominal column).
    """

    mask: np.ndarray
    keys: np.ndarray
    distinct: np.ndarray | None = None
    inverse: np.ndarray | None = None
    weights: np.ndarray | None = None


def _sorted_column(
    series: pd.Series, ctype: ColumnType, order: Sequence[str] | None
) -> _SortedColumn:
    mask = series.notna().to_numpy()
    present = series[mask]
    if ctype == ColumnType.NOMINAL:
        return _SortedColumn(mask, pd.factorize(present.astype(str), sort=True)[0])
    if ctype in (ColumnType.NUMERIC, ColumnType.DATE):
        keys = numeric_values(present, ctype)
    else:
        cats = category_order(series, order)
        lookup = {str(c): i for i, c in enumerate(cats)}
        keys = np.array([lookup[str(v)] for v in present], dtype=float)
    distinct, inverse, weights = np.unique(keys, return_inverse=True, return_counts=True)
    return _SortedColumn(mask, keys, distinct, inverse, weights)


def _by_group(codes: np.ndarray, n_groups: int) -> list[np.ndarray]:
    """Positions of each group's members, in file order (as ``codes == j`` selects them)."""
    # a stable sort of small integers is a radix sort: ten times faster than of int64
    narrow = codes.astype(np.int16) if n_groups < 2**15 else codes
    order = np.argsort(narrow, kind="stable")
    starts = np.searchsorted(narrow[order], np.arange(n_groups + 1), side="left")
    return [order[starts[j] : starts[j + 1]] for j in range(n_groups)]


def _column_buckets(
    series: pd.Series,
    ctype: ColumnType,
    b: int,
    order: Sequence[str] | None,
    scale: Scale | None,
    column: _SortedColumn | None = None,
    names: NameList | None = None,
) -> tuple[np.ndarray, list[tuple]]:
    """Bucket of every value of one column (−1 where missing) and each bucket's description.

    Buckets are numbered in ascending order of their values (numeric, date, ordinal).
    ``column`` (and ``names`` of a category column) are what does not depend on ``b``, when
    the caller keeps them for several b (:class:`BucketInput`).
    """
    codes = np.full(len(series), -1, dtype=np.int64)
    if column is None:
        if not series.notna().any():
            return codes, []
        column = _sorted_column(series, ctype, order)
    mask = column.mask
    if not mask.any():
        return codes, []
    present = series[mask]
    if ctype in (ColumnType.NUMERIC, ColumnType.DATE):
        assert scale is not None and column.distinct is not None
        keys, distinct, weights = column.keys, column.distinct, column.weights
        ends = _merge_outliers(distinct, split_sorted(weights, b), scale.inner)
        ends = _merge_extreme_means(distinct, weights, ends, scale.inner)
        cum = np.cumsum(weights)
        cuts = []
        for i in range(len(ends) - 1):
            start = ends[i - 1] if i else 0
            ends[i], cut = _rounder_boundary(distinct, cum, ends[i], start, ends[i + 1], scale)
            cuts.append(cut)
        _check_public(str(series.name), keys, cuts, scale)
        value_group = np.searchsorted(np.asarray(ends), np.arange(len(distinct)), side="right")
        codes[mask] = value_group[column.inverse]
        walls = [None, *cuts, None]
        firsts = [0, *ends[:-1]]
        members = _by_group(codes[mask], len(ends))
        described = [
            scale.describe(
                keys[members[j]], walls[j], walls[j + 1], distinct=distinct[firsts[j] : ends[j]]
            )
            for j in range(len(ends))
        ]
        return codes, described
    if ctype == ColumnType.NOMINAL:
        cat_codes = column.keys
        group = _group_categories(np.bincount(cat_codes), b)
        codes[mask] = group[cat_codes]
    else:
        assert column.distinct is not None
        ends = split_sorted(column.weights, b)
        value_group = np.searchsorted(
            np.asarray(ends), np.arange(len(column.distinct)), side="right"
        )
        codes[mask] = value_group[column.inverse]
    # renumber so that codes are 0..g-1 in order of first bucket
    used = np.unique(codes[mask])
    remap = np.full(used.max() + 1, -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    codes[mask] = remap[codes[mask]]
    names = _names(present) if names is None else names
    described = [
        _describe(present[codes[mask] == j], ctype, order, names) for j in range(len(used))
    ]
    return codes, described


def _joint_describe(
    frame: pd.DataFrame,
    columns: list[str],
    ctypes: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
    scales: Mapping[str, Scale],
    names: Mapping[str, NameList],
    path: list[Split],
) -> list[tuple]:
    """(label, bounds, :class:`BucketStat`) of every column of one joint bucket (a k-d cell)."""
    out = []
    for i, col in enumerate(columns):
        ctype = ctypes[col]
        if ctype not in (ColumnType.NUMERIC, ColumnType.DATE):
            out.append(_describe(frame[col], ctype, orders.get(col), names[col]))
            continue
        scale = scales[col]
        lo = hi = None
        for column, below, cut in path:
            if column == i:
                if below:
                    hi = cut
                else:
                    lo = cut
        out.append(scale.describe(numeric_values(frame[col], ctype), lo, hi))
    return out


def make_buckets(
    data: pd.DataFrame,
    confidential: Sequence[str],
    types: Mapping[str, ColumnType] | None,
    n_buckets: int,
    *,
    joint: bool = True,
    orders: Mapping[str, Sequence[str]] | None = None,
    bounds: Mapping[str, tuple[float, float]] | None = None,
) -> Buckets:
    """Split the confidential values of ``data`` into ``n_buckets`` buckets (module doc).

    Fewer buckets result when a column has fewer distinct values (a binary column gives at
    most two) or when an outer bucket lies wholly among the outliers and joins its neighbour;
    the missing bucket comes on top and is always last.  ``bounds`` are public bounds of
    numeric columns: the outer labels end at them instead of being open.  Buckets of several
    b on the same columns: :class:`BucketInput`.
    """
    if not list(confidential):
        raise InputError(_("Tag at least one column as confidential to form buckets."))
    _check_count(n_buckets)
    source = BucketInput(data, confidential, types, orders=orders, bounds=bounds)
    return source.buckets(n_buckets, joint=joint)


def _check_count(n_buckets: int) -> None:
    if int(n_buckets) != n_buckets or n_buckets < 1:
        raise InputError(
            _("The number of buckets must be a whole number ≥ 1, not {n}.").format(n=n_buckets)
        )


class BucketInput:
    """The confidential columns of a file as its buckets read them, for any number of b.

    The search of b (:mod:`engine.release.bucket_search`) forms the buckets of several b on
    one file: what does not depend on b (each column's numbers, their sorted distinct values
    and counts, its :class:`Scale`, the missing values) is computed here once.  The buckets
    of each b are :func:`make_buckets`'s, bit for bit.
    """

    def __init__(
        self,
        data: pd.DataFrame,
        confidential: Sequence[str],
        types: Mapping[str, ColumnType] | None,
        *,
        orders: Mapping[str, Sequence[str]] | None = None,
        bounds: Mapping[str, tuple[float, float]] | None = None,
    ) -> None:
        confidential = list(confidential)
        if not confidential:
            raise InputError(_("Tag at least one column as confidential to form buckets."))
        ctypes, orders = resolve_columns(data, confidential, types, orders)
        bounds = dict(bounds or {})
        unknown = sorted(set(bounds) - set(confidential))
        if unknown:
            raise InputError(
                _("Bounds were given for {columns}, which is not a confidential column.").format(
                    columns=", ".join(map(repr, unknown))
                )
            )
        for col in bounds:
            if ctypes[col] != ColumnType.NUMERIC:
                raise InputError(
                    _("Bounds apply to numeric columns only; {column} is {type}.").format(
                        column=repr(col), type=ctypes[col]
                    )
                )
        frame = data[confidential]
        self.confidential, self.ctypes, self.orders, self.bounds = (
            confidential,
            ctypes,
            orders,
            bounds,
        )
        self.frame = frame
        self.scales = {
            col: Scale.of(
                numeric_values(frame[col], ctypes[col]),
                ctypes[col] == ColumnType.DATE,
                _public(col, bounds),
            )
            for col in confidential
            if ctypes[col] in (ColumnType.NUMERIC, ColumnType.DATE) and frame[col].notna().any()
        }
        self.missing = frame.isna().any(axis=1).to_numpy()
        self._columns: dict[str, _SortedColumn] = {}
        self._names: dict[str, NameList] = {}

    def _column(self, col: str) -> tuple[_SortedColumn | None, NameList | None]:
        series = self.frame[col]
        if not series.notna().any():
            return None, None
        if col not in self._columns:
            self._columns[col] = _sorted_column(series, self.ctypes[col], self.orders.get(col))
        if col not in self.scales and col not in self._names:
            self._names[col] = _names(series[self._columns[col].mask])
        return self._columns[col], self._names.get(col)

    def buckets(self, n_buckets: int, *, joint: bool = True) -> Buckets:
        """The buckets of ``n_buckets`` asked for (:func:`make_buckets`)."""
        _check_count(n_buckets)
        confidential, frame, missing = self.confidential, self.frame, self.missing
        codes = np.full(len(frame), -1, dtype=np.int64)
        present = ~missing
        described: list[list[tuple]] = []
        if len(confidential) == 1:
            col = confidential[0]
            column, names_of = self._column(col)
            codes, parts = _column_buckets(
                frame[col], self.ctypes[col], n_buckets, self.orders.get(col),
                self.scales.get(col), column, names_of,
            )  # fmt: skip
            described = [[p] for p in parts]
        elif present.any():
            sub = frame[present]
            if joint:
                codes[present], described = self._joint_buckets(sub, n_buckets)
            else:
                codes[present], described = self._combined_buckets(sub, n_buckets)
        return _bucket_table(described, codes, missing, confidential)

    def _joint_buckets(self, sub: pd.DataFrame, n_buckets: int) -> tuple[np.ndarray, list]:
        """Buckets of the records ``sub`` (no value missing) on the tuple of confidential
        columns split together: (the bucket of every record, every bucket's description)."""
        confidential, ctypes, orders, scales = (
            self.confidential,
            self.ctypes,
            self.orders,
            self.scales,
        )
        keys = np.column_stack([_sort_keys(sub[c], ctypes[c], orders.get(c)) for c in confidential])
        rows, inverse, weights = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
        nominal = [ctypes[c] == ColumnType.NOMINAL for c in confidential]
        group, paths = _split_vectors(
            rows, weights.astype(float), nominal, n_buckets, [scales.get(c) for c in confidential]
        )
        sub_codes = group[inverse.ravel()]
        for i, col in enumerate(confidential):
            if col in self.bounds:
                cuts = [cut for p in paths for j, _, cut in p if j == i]
                _check_public(col, numeric_values(sub[col], ctypes[col]), cuts, scales[col])
        names = {c: _names(sub[c]) for c in confidential if c not in scales}
        described = [
            _joint_describe(
                sub[sub_codes == j], confidential, ctypes, orders, scales, names, paths[j]
            )
            for j in range(int(sub_codes.max()) + 1)
        ]
        return sub_codes, described

    def _combined_buckets(self, sub: pd.DataFrame, n_buckets: int) -> tuple[np.ndarray, list]:
        """Buckets of the records ``sub`` (no value missing) as the combinations of every
        column's own buckets: (the bucket of every record, every bucket's description)."""
        per_col = []
        per_col_parts = []
        for c in self.confidential:
            col_codes, parts = _column_buckets(
                sub[c], self.ctypes[c], n_buckets, self.orders.get(c), self.scales.get(c)
            )
            per_col.append(col_codes)
            per_col_parts.append(parts)
        combos, inverse = np.unique(np.column_stack(per_col), axis=0, return_inverse=True)
        sub_codes = inverse.ravel()
        described = [
            [per_col_parts[i][combos[j][i]] for i in range(len(combos[j]))]
            for j in range(int(sub_codes.max()) + 1)
        ]
        return sub_codes, described


def _bucket_table(
    described: list[list[tuple]],
    codes: np.ndarray,
    missing: np.ndarray,
    confidential: Sequence[str],
) -> Buckets:
    """The :class:`Buckets` of the value buckets ``described`` (per bucket, a (label, bounds,
    stat) per column) and, when a record has a missing value, a last bucket of its own."""
    n_value_buckets = len(described)
    missing_bucket = None
    if missing.any():
        missing_bucket = n_value_buckets
        codes[missing] = missing_bucket
    n_total = n_value_buckets + (missing_bucket is not None)
    counts = np.bincount(codes, minlength=n_total).astype(np.int64)

    labels: list[str] = []
    bucket_bounds: list[Any] = []
    reps: list[tuple[Any, ...]] = []
    column_labels: list[tuple[str, ...]] = []
    stats: list[tuple[BucketStat | None, ...]] = []
    for parts in described:
        column_labels.append(tuple(p[0] for p in parts))
        labels.append(parts[0][0] if len(parts) == 1 else "; ".join(p[0] for p in parts))
        bucket_bounds.append(parts[0][1] if len(parts) == 1 else None)
        reps.append(tuple(p[2].median for p in parts))
        stats.append(tuple(p[2] for p in parts))
    if missing_bucket is not None:
        labels.append("")
        bucket_bounds.append(None)
        reps.append(tuple(None for _ in confidential))
        column_labels.append(tuple("" for _ in confidential))
        stats.append(tuple(None for _ in confidential))
    return Buckets(
        labels=labels,
        codes=codes,
        counts=counts,
        bounds=bucket_bounds,
        representatives=reps,
        missing_bucket=missing_bucket,
        columns=tuple(confidential),
        column_labels=column_labels,
        stats=stats,
    )


def _public(column: str, bounds: Mapping[str, tuple[float, float]]) -> tuple[float, float] | None:
    if column not in bounds:
        return None
    lo, hi = (float(x) for x in bounds[column])
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise InputError(
            _("The bounds of {column} must be two numbers LO < HI, not {lo}:{hi}.").format(
                column=repr(column), lo=lo, hi=hi
            )
        )
    return lo, hi
