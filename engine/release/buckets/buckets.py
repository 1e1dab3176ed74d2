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

The cuts are made in :mod:`engine.release.buckets.split`; the labels and the released means
follow the column's :class:`~engine.release.buckets.scale.Scale`.  An outer bucket that lies
wholly beyond the 0.5 or 99.5 percentile (a few outliers) joins its neighbour, so every cut
lies in the central 99 % of the column; so does an outer bucket whose mean lies well beyond it
(a small top bucket of large incomes), so that its mean can be released as it is.  Ordinal and
nominal labels are category names and sets: the categories are the codebook, not a person's
value (quoted when a name holds a comma, so that a set reads back into its names).

:func:`make_buckets` returns the :class:`~engine.release.model.Buckets`, with every bucket's
statistics over the whole file (:class:`~engine.release.model.BucketStat`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import InputError, quoted
from engine.i18n import _
from engine.release.buckets.scale import MEAN_SLACK, Scale
from engine.release.buckets.split import (
    Split,
    _group_categories,
    _rounder_boundary,
    _split_vectors,
    split_sorted,
)
from engine.release.columns import (
    NameList,
    category_order,
    format_number,
    numeric_values,
    resolve_columns,
)
from engine.release.measures import counted_loss
from engine.release.model import MIN_BUCKET, Buckets, BucketStat
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
    bucket.  This is where the search of b starts (:func:`engine.release.plan`) and
    what a noise run's redraw check uses.
    """
    if n_buckets is not None:
        return int(n_buckets)
    return min(paper_bucket_count(t), max(2, int(k)))


def _describe(
    series: pd.Series, ctype: ColumnType, order: Sequence[str] | None, names: NameList
) -> tuple:
    """(label, bounds, :class:`BucketStat`) of a group of ordinal or nominal values.

    Categories are the column's codebook, not a person's value, so their names are the label
    (printed by ``names``, the column's :class:`~engine.release.columns.NameList`).
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
            ).format(lo=format_number(lo), hi=format_number(hi), column=quoted(column))
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
                column=quoted(column),
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


def _numeric_groups(
    column: _SortedColumn, b: int, scale: Scale, name: str
) -> tuple[np.ndarray, list[tuple]]:
    """The buckets of b of a numeric or date column, on its table of distinct values: the
    bucket of every distinct value, and each bucket's (label, bounds, statistics).

    Nothing here reads the records one by one: the cuts, the labels and every statistic
    (:meth:`Scale.stat_counted`) come from the sorted distinct values and their counts,
    so the search of b tries a b at the cost of the distinct values, and the records'
    codes are made once, for the b chosen (``value_group[column.inverse]``).
    """
    assert column.distinct is not None and column.weights is not None
    distinct, weights = column.distinct, column.weights
    ends = _merge_outliers(distinct, split_sorted(weights, b), scale.inner)
    ends = _merge_extreme_means(distinct, weights, ends, scale.inner)
    cum = np.cumsum(weights)
    cuts: list[float] = []
    i = 0
    while i < len(ends) - 1:
        start = ends[i - 1] if i else 0
        found = _rounder_boundary(distinct, cum, ends[i], start, ends[i + 1], scale)
        if found is None:  # no public cut between these two buckets: they merge
            ends.pop(i)
            continue
        ends[i], cut = found
        cuts.append(cut)
        i += 1
    _check_public(name, distinct, cuts, scale)
    value_group = np.searchsorted(np.asarray(ends), np.arange(len(distinct)), side="right")
    walls = [None, *cuts, None]
    firsts = [0, *ends[:-1]]
    described = [
        scale.describe(
            None,
            walls[j],
            walls[j + 1],
            distinct=distinct[firsts[j] : ends[j]],
            counts=weights[firsts[j] : ends[j]],
        )
        for j in range(len(ends))
    ]
    return value_group, described


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
    if ctype in (ColumnType.NUMERIC, ColumnType.DATE):
        assert scale is not None
        value_group, described = _numeric_groups(column, b, scale, str(series.name))
        codes[mask] = value_group[column.inverse]
        return codes, described
    present = series[mask]
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


def _most_held(most: int, held: Callable[[int], bool]) -> int:
    """The largest b ≤ ``most`` whose buckets all hold :data:`MIN_BUCKET` records, found by
    bisection (one bucket always does; finer buckets hold fewer records, so the test falls
    with b, but not strictly: where it does not, a smaller b that holds is kept)."""
    if held(most):
        return most
    lo, hi = 1, most - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if held(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def held_by_enough(buckets: Buckets) -> bool:
    """Does every bucket of values hold at least :data:`MIN_BUCKET` records?  (The bucket of
    missing values is no value of anyone's.)"""
    counts = np.asarray(buckets.counts)
    if buckets.missing_bucket is not None:
        counts = np.delete(counts, buckets.missing_bucket)
    return bool(len(counts) == 0 or counts.min() >= MIN_BUCKET)


def _check_count(n_buckets: int) -> None:
    if int(n_buckets) != n_buckets or n_buckets < 1:
        raise InputError(
            _("The number of buckets must be a whole number ≥ 1, not {n}.").format(n=n_buckets)
        )


@dataclass(frozen=True)
class _Counted:
    """The buckets of one b of a numeric or date column made on its distinct values: the
    buckets without the records' codes, and the bucket of every distinct value."""

    buckets: Buckets
    value_group: np.ndarray


class BucketInput:
    """The confidential columns of a file as its buckets read them, for any number of b.

    The search of b (:mod:`engine.release.buckets.search`) forms the buckets of several b on
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
                        column=quoted(col), type=ctypes[col]
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
        self._counted: dict[int, _Counted] = {}
        self._raw: dict[tuple[int, bool], Buckets] = {}  # the buckets of each b as cut
        self._rank: np.ndarray | None = None  # a record's position among the present ones

    def _column(self, col: str) -> tuple[_SortedColumn | None, NameList | None]:
        series = self.frame[col]
        if not series.notna().any():
            return None, None
        if col not in self._columns:
            self._columns[col] = _sorted_column(series, self.ctypes[col], self.orders.get(col))
        if col not in self.scales and col not in self._names:
            self._names[col] = _names(series[self._columns[col].mask])
        return self._columns[col], self._names.get(col)

    def _counted_column(self) -> str | None:
        """The column whose buckets are made on its distinct values (one numeric or date
        column with values); None when the buckets read the records."""
        if len(self.confidential) != 1 or self.confidential[0] not in self.scales:
            return None
        return self.confidential[0]

    def _table(self, n_buckets: int) -> _Counted:
        """The buckets of ``n_buckets`` of the one numeric or date column, on its distinct
        values (made once per b)."""
        if n_buckets not in self._counted:
            _check_count(n_buckets)
            col = self._counted_column()
            assert col is not None
            column, _ = self._column(col)
            assert column is not None and column.weights is not None
            value_group, parts = _numeric_groups(column, n_buckets, self.scales[col], col)
            counts = np.bincount(value_group, weights=column.weights, minlength=len(parts))
            buckets = _bucket_table(
                [[p] for p in parts],
                np.zeros(0, dtype=np.int64),
                self.missing,
                self.confidential,
                counts=counts.astype(np.int64),
            )
            self._counted[n_buckets] = _Counted(buckets, value_group)
        return self._counted[n_buckets]

    def candidate(self, n_buckets: int, *, joint: bool = True) -> Buckets:
        """The buckets of ``n_buckets`` as the search of b weighs them: counts, labels and
        statistics, and for one numeric or date column no codes (``codes`` empty; the
        records' buckets come from :meth:`codes_at`, the loss from :meth:`loss`), so that a
        b tried costs the table of distinct values, not a pass over every record."""
        if self._counted_column() is None:
            return self.buckets(n_buckets, joint=joint)
        return self._table(self._held_count(n_buckets)).buckets

    def held(self, n_buckets: int, *, joint: bool = True) -> bool:
        """Would every bucket of ``n_buckets`` hold :data:`MIN_BUCKET` records?  (False: fewer
        buckets are formed; the plan says why.)"""
        if self._counted_column() is not None:
            return held_by_enough(self._table(n_buckets).buckets)
        return held_by_enough(self._cut(n_buckets, joint))

    def _held_count(self, n_buckets: int) -> int:
        """The most buckets up to ``n_buckets`` of the one numeric or date column whose every
        bucket holds :data:`MIN_BUCKET` records (1 when none does)."""
        return _most_held(self._most(n_buckets), lambda b: held_by_enough(self._table(b).buckets))

    def _made_for(self, buckets: Buckets) -> _Counted | None:
        for counted in self._counted.values():
            if counted.buckets is buckets:
                return counted
        return None

    def codes_at(self, buckets: Buckets, rows: np.ndarray) -> np.ndarray:
        """The bucket of the records at positions ``rows`` among ``buckets`` (those of
        :meth:`candidate` or :meth:`buckets`)."""
        counted = self._made_for(buckets)
        if counted is None:
            return buckets.codes[rows]
        col = self._counted_column()
        assert col is not None
        column = self._columns[col]
        assert column.inverse is not None
        if self._rank is None:
            self._rank = np.cumsum(column.mask) - 1
        rows = np.asarray(rows, dtype=np.int64)
        present = column.mask[rows]
        codes = np.full(len(rows), -1 if buckets.missing_bucket is None else buckets.missing_bucket)
        codes[present] = counted.value_group[column.inverse[self._rank[rows[present]]]]
        return codes.astype(np.int64)

    def loss(self, buckets: Buckets, output: str) -> float | None:
        """Confidential SSE/SST of ``buckets`` released as ``output``, from the table of
        distinct values (the buckets of :meth:`candidate` of one numeric or date column);
        None for other buckets."""
        counted = self._made_for(buckets)
        if counted is None:
            return None
        col = self._counted_column()
        assert col is not None
        column = self._columns[col]
        assert column.distinct is not None and column.weights is not None
        released = pd.Series([r[0] for r in buckets.released(output)], dtype=object)
        numbers = numeric_values(released, self.ctypes[col])
        return counted_loss(column.distinct, column.weights, numbers[counted.value_group])

    def buckets(self, n_buckets: int, *, joint: bool = True) -> Buckets:
        """The buckets of ``n_buckets`` asked for (:func:`make_buckets`), fewer when a bucket
        would hold fewer than :data:`MIN_BUCKET` records: its label and its mean would be
        one person's value (or a couple's), and no bucket is worth that."""
        _check_count(n_buckets)
        if self._counted_column() is not None:
            return self._buckets(self._held_count(n_buckets), joint)
        return self._cut(
            _most_held(self._most(n_buckets), lambda b: self.held(b, joint=joint)), joint
        )

    def _most(self, n_buckets: int) -> int:
        """``n_buckets``, or fewer when the records cannot fill that many buckets of
        :data:`MIN_BUCKET` (the search of b asks for up to 45 on files of any size)."""
        present = int((~self.missing).sum())
        return max(1, min(n_buckets, present // MIN_BUCKET))

    def _cut(self, n_buckets: int, joint: bool) -> Buckets:
        """:meth:`_buckets`, made once per b (the buckets of a b the threshold rule refuses
        are asked again for every larger b)."""
        key = (n_buckets, joint)
        if key not in self._raw:
            self._raw[key] = self._buckets(n_buckets, joint)
        return self._raw[key]

    def _buckets(self, n_buckets: int, joint: bool) -> Buckets:
        confidential, frame, missing = self.confidential, self.frame, self.missing
        col = self._counted_column()
        if col is not None:  # the records' codes from the table of distinct values
            counted = self._table(n_buckets)
            column = self._columns[col]
            assert column.inverse is not None
            codes = np.full(len(frame), -1, dtype=np.int64)
            codes[column.mask] = counted.value_group[column.inverse]
            if counted.buckets.missing_bucket is not None:
                codes[missing] = counted.buckets.missing_bucket
            return replace(counted.buckets, codes=codes)
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
    *,
    counts: np.ndarray | None = None,
) -> Buckets:
    """The :class:`Buckets` of the value buckets ``described`` (per bucket, a (label, bounds,
    stat) per column) and, when a record has a missing value, a last bucket of its own.

    ``counts``: the records of each value bucket, when ``codes`` are left out (empty)."""
    n_value_buckets = len(described)
    missing_bucket = None
    if missing.any():
        missing_bucket = n_value_buckets
        if len(codes):
            codes[missing] = missing_bucket
    n_total = n_value_buckets + (missing_bucket is not None)
    if counts is None:
        counts = np.bincount(codes, minlength=n_total).astype(np.int64)
    elif missing_bucket is not None:
        counts = np.append(counts, int(missing.sum())).astype(np.int64)

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
                column=quoted(column), lo=lo, hi=hi
            )
        )
    return lo, hi
