"""Buckets of the confidential values from exact counts, on a cluster (KBS 2015 §6.1).

The one-machine buckets (:func:`engine.release.buckets.make_buckets`) depend on the multiset
of confidential values only, never on which record holds which.  So every partition counts
its distinct values (:func:`value_counts`), the counts are summed, and ``make_buckets`` runs on
the distinct values repeated by their counts (8 bytes per record and numeric column, on the
client): the buckets, public cut points, labels and representatives are those of the one
machine by construction (tested), and each partition finds its records' buckets by looking
up their values.  The counts of the codes actually assigned drive the layout.

A numeric column with more distinct values than :data:`DISTINCT_LIMIT` is cut on t-digest
quantiles instead (crick; Dask's own quantiles are off by up to 20 % in rank): between two
consecutive quantiles the column's public rounding rule (:class:`~engine.release.buckets.Scale`)
picks a round cut, the cuts are used as value thresholds (ties are never split, and every
bucket limit is a public round number, never a person's value), one exact pass counts the
records between consecutive cuts, and those intervals are grouped like distinct values.  The
representative (bucket median) is then the digest's estimate.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from engine.release import (
    BucketInput,
    Buckets,
    BucketValues,
    ConfidentialValues,
    Scale,
    confidential_loss,
    held_by_enough,
    numeric_values,
    split_sorted,
)
from engine.roles import ColumnType

#: above this many distinct values a numeric confidential column is cut on t-digest quantiles
DISTINCT_LIMIT = 10_000_000
#: quantiles per bucket taken from the digest (the intervals the buckets are made of)
DIGEST_RESOLUTION = 1000


def _raw(data: pd.DataFrame, confidential: Sequence[str]) -> tuple[pd.DataFrame, np.ndarray]:
    """The confidential columns as they are, and which records miss a value."""
    frame = data[list(confidential)]
    return frame, frame.isna().any(axis=1).to_numpy()


def value_counts(
    data: pd.DataFrame, confidential: Sequence[str], types: Mapping[str, ColumnType]
) -> tuple[pd.DataFrame, int]:
    """(distinct present value rows with a count column ``n``, records with a missing value)."""
    del types  # counted as they are: make_buckets reads them as the one machine does
    frame, missing = _raw(data, confidential)
    counts = frame[~missing].value_counts(sort=False).rename("n").reset_index()
    return counts, int(missing.sum())


def merge_counts(parts: Sequence[tuple[pd.DataFrame, int]]) -> tuple[pd.DataFrame, int]:
    """Sum the partitions' :func:`value_counts`."""
    frames = [p[0] for p in parts if len(p[0])]
    n_missing = sum(p[1] for p in parts)
    if not frames:
        return parts[0][0], n_missing
    allc = pd.concat(frames, ignore_index=True)
    cols = [c for c in allc.columns if c != "n"]
    merged = allc.groupby(cols, sort=False, dropna=False)["n"].sum().reset_index()
    return merged, n_missing


@dataclass
class BucketLookup:
    """How a partition finds the bucket of each record from its confidential values."""

    columns: tuple[str, ...]
    types: dict[str, ColumnType]
    #: distinct value rows (one column per confidential column) and the bucket of each
    keys: pd.DataFrame | None
    codes: np.ndarray
    missing_bucket: int | None
    #: t-digest path: the cuts (interval i holds cut[i-1] ≤ x < cut[i]) and the bucket of
    #: every interval
    thresholds: np.ndarray | None = None

    def __call__(self, data: pd.DataFrame) -> np.ndarray:
        frame, missing = _raw(data, self.columns)
        out = np.full(len(data), -1, dtype=np.int64)
        if self.thresholds is not None:
            col = self.columns[0]
            x = numeric_values(frame[col], self.types[col])
            interval = np.searchsorted(self.thresholds, x[~missing], side="right")
            out[~missing] = self.codes[interval]
        else:
            assert self.keys is not None
            present = frame[~missing]
            if len(self.columns) == 1:
                pos = pd.Index(self.keys.iloc[:, 0]).get_indexer(present.iloc[:, 0])
            else:
                index = pd.MultiIndex.from_frame(self.keys)
                pos = index.get_indexer(pd.MultiIndex.from_frame(present))
            if (pos < 0).any():  # not reached: every value was counted
                raise RuntimeError("a confidential value was not counted")
            out[~missing] = self.codes[pos]
        if missing.any():
            out[missing] = self.missing_bucket
        return out


def expand_counts(
    counts: pd.DataFrame, n_missing: int, confidential: Sequence[str]
) -> pd.DataFrame:
    """The distinct values repeated by their counts, then the missing ones (the multiset)."""
    confidential = list(confidential)
    weights = counts["n"].to_numpy(dtype=np.int64)
    keys = counts[confidential].reset_index(drop=True)
    expanded = keys.iloc[np.repeat(np.arange(len(keys)), weights)].reset_index(drop=True)
    if n_missing:
        gap = pd.DataFrame({c: pd.Series([None] * n_missing, dtype=object) for c in confidential})
        expanded = pd.concat([expanded, gap], ignore_index=True)
    return expanded


def _bucket_expanded(
    source: BucketInput, counts: pd.DataFrame, n_buckets: int, *, joint: bool = True
) -> tuple[Buckets, BucketLookup]:
    """One machine's buckets of the multiset ``source`` (codes in its order) and the lookup by
    value (``counts``: the distinct values, in the multiset's order, with their counts)."""
    confidential = source.confidential
    buckets = source.buckets(n_buckets, joint=joint)
    weights = counts["n"].to_numpy(dtype=np.int64)
    keys = counts[confidential].reset_index(drop=True)
    first = np.r_[0, np.cumsum(weights)[:-1]].astype(np.int64)
    codes = buckets.codes[first] if len(keys) else np.zeros(0, dtype=np.int64)
    types = {c: source.ctypes[c] for c in confidential}
    lookup = BucketLookup(tuple(confidential), types, keys, codes, buckets.missing_bucket)
    return buckets, lookup


def make_buckets_from_counts(
    counts: pd.DataFrame,
    n_missing: int,
    confidential: Sequence[str],
    types: Mapping[str, ColumnType],
    n_buckets: int,
    *,
    joint: bool = True,
    orders: Mapping[str, Sequence[Any]] | None = None,
    bounds: Mapping[str, tuple[float, float]] | None = None,
) -> tuple[Buckets, BucketLookup]:
    """The buckets ``make_buckets`` forms on the whole file, from its summed value counts.

    Returns the buckets (``codes`` empty: each partition finds its own with the lookup) and
    the :class:`BucketLookup`.
    """
    expanded = expand_counts(counts, n_missing, confidential)
    types = {c: types[c] for c in confidential}
    source = BucketInput(expanded, confidential, types, orders=orders, bounds=bounds)
    buckets, lookup = _bucket_expanded(source, counts, n_buckets, joint=joint)
    return replace(buckets, codes=np.zeros(0, dtype=np.int64)), lookup


def _codes_at(
    fetched: np.ndarray, sample: pd.DataFrame, lookup: BucketLookup, rows: np.ndarray
) -> np.ndarray:
    """The bucket codes of ``rows`` (sorted row numbers) among the fetched sample's rows."""
    at = np.searchsorted(fetched, rows)
    if not np.array_equal(fetched[np.minimum(at, len(fetched) - 1)], rows):
        raise ValueError("rows outside the fetched sample")
    return lookup(sample.iloc[at])


class CountedValues(ConfidentialValues):
    """:class:`~engine.release.buckets.search.ConfidentialValues` from summed value counts.

    What a plan on a cluster reads: the buckets of any b are those of one machine (the same
    ``make_buckets`` on the same multiset), the confidential loss is exact (it depends on the
    multiset and the buckets only), and the buckets of the fetched sample records (``rows``,
    file positions, and their confidential columns ``sample``) come from the lookup every
    partition uses.
    """

    def __init__(
        self,
        counts: pd.DataFrame,
        n_missing: int,
        confidential: Sequence[str],
        types: Mapping[str, ColumnType],
        orders: Mapping[str, Sequence[Any]] | None,
        rows: np.ndarray,
        sample: pd.DataFrame,
        *,
        joint: bool = True,
        bounds: Mapping[str, tuple[float, float]] | None = None,
    ) -> None:
        self.counts, self.n_missing, self.confidential = counts, n_missing, list(confidential)
        self.types = {c: types[c] for c in confidential}
        self.orders, self.joint, self.bounds = orders, joint, bounds
        self.rows, self.sample = np.asarray(rows), sample.reset_index(drop=True)
        self.n = int(counts["n"].sum()) + n_missing
        self._made: dict[int, tuple[Buckets, Buckets, BucketLookup]] = {}
        self._expanded: pd.DataFrame | None = None
        self._input: BucketInput | None = None  # what every b reads, made at the first

    def _made_for(self, buckets: Buckets) -> tuple[Buckets, Buckets, BucketLookup]:
        for made in self._made.values():
            if made[0] is buckets:
                return made
        raise ValueError("buckets not made here")

    def buckets(self, b: int) -> Buckets:
        if b not in self._made:
            if self._input is None:
                self._expanded = expand_counts(self.counts, self.n_missing, self.confidential)
                self._input = BucketInput(
                    self._expanded, self.confidential, self.types,
                    orders=self.orders, bounds=self.bounds,
                )  # fmt: skip
            full, lookup = _bucket_expanded(self._input, self.counts, b, joint=self.joint)
            self._made[b] = (replace(full, codes=np.zeros(0, dtype=np.int64)), full, lookup)
        return self._made[b][0]

    def lookup(self, buckets: Buckets) -> BucketLookup:
        """How a partition finds its records' buckets among ``buckets``."""
        return self._made_for(buckets)[2]

    def held(self, b: int) -> bool:
        self.buckets(b)  # the input every b reads
        assert self._input is not None
        return self._input.held(b, joint=self.joint)

    def codes_at(self, buckets: Buckets, rows: np.ndarray) -> np.ndarray:
        return _codes_at(self.rows, self.sample, self.lookup(buckets), rows)

    def loss(self, buckets: Buckets, output: str) -> float:
        return self.loss_detail(buckets, output, detail=False)[0]

    def loss_detail(
        self, buckets: Buckets, output: str, *, detail: bool = True
    ) -> tuple[float, dict[str, dict[str, float]]]:
        """One machine's :func:`~engine.release.confidential_loss` of the released values,
        on the multiset (what the run summary reports; equal up to the order of the sums)."""
        assert self._expanded is not None
        full = self._made_for(buckets)[1]
        return confidential_loss(self._expanded, full, self.types, output, detail=detail)

    def outside(self, bounds: Mapping[str, tuple[float, float]]) -> dict[str, int]:
        out = {}
        weights = self.counts["n"].to_numpy(dtype=np.int64)
        for col, (lo, hi) in bounds.items():
            values = pd.to_numeric(self.counts[col], errors="coerce").to_numpy(dtype=float)
            out[col] = int(weights[(values < lo) | (values > hi)].sum())
        return out


# ----------------------------------------------------------------------------- t-digest


def digest(data: pd.DataFrame, col: str, ctype: ColumnType) -> Any:
    """A crick t-digest of one partition's present values of a numeric column."""
    from crick import TDigest

    x = numeric_values(data[col], ctype)
    d = TDigest()
    d.update(x[~np.isnan(x)])
    return d


def _merged(digests: Sequence[Any]) -> Any:
    from crick import TDigest

    merged = TDigest()
    merged.merge(*digests)
    return merged


def digest_scale(
    digests: Sequence[Any], ctype: ColumnType, public: tuple[float, float] | None, n_buckets: int
) -> tuple[Scale, np.ndarray]:
    """The column's labelling rule and a sample of its distribution, from the digests."""
    q = np.linspace(0.0, 1.0, DIGEST_RESOLUTION * max(n_buckets, 1) + 1)
    sample = _merged(digests).quantile(q)
    return Scale.of(sample, ctype == ColumnType.DATE, public), sample


def digest_thresholds(scale: Scale, sample: np.ndarray) -> np.ndarray:
    """Public round cuts between consecutive distinct quantiles (sorted, distinct)."""
    values = np.unique(sample)
    cuts = [scale.cut(a, c) for a, c in itertools.pairwise(values)]
    return np.unique(np.asarray(cuts, dtype=float))


@dataclass
class Intervals:
    """What the partitions found between consecutive cuts (the intervals a digest's buckets
    are made of), added up: per interval the count, the smallest and largest value, Σx, Σx²,
    the two largest and two smallest values, and beyond each of a few limits how many values
    lie and how far; the missing values, and the values beyond the public bounds."""

    count: np.ndarray
    low: np.ndarray
    high: np.ndarray
    s1: np.ndarray
    s2: np.ndarray
    #: per interval the two largest values (−inf where absent), and the two smallest (+inf)
    top: np.ndarray
    bottom: np.ndarray
    #: (limit, up) → per interval: how many values lie beyond the limit, their distance to it
    past: dict[tuple[float, bool], tuple[np.ndarray, np.ndarray]]
    missing: int
    outside: int

    @classmethod
    def merged(cls, parts: Sequence[Intervals]) -> Intervals:
        """The file's intervals from its partitions'."""
        top = np.sort(np.concatenate([p.top for p in parts], axis=1), axis=1)[:, ::-1][:, :2]
        bottom = np.sort(np.concatenate([p.bottom for p in parts], axis=1), axis=1)[:, :2]
        past = {
            key: (sum(p.past[key][0] for p in parts), sum(p.past[key][1] for p in parts))
            for key in parts[0].past
        }
        return cls(
            sum(p.count for p in parts), np.min([p.low for p in parts], axis=0),
            np.max([p.high for p in parts], axis=0), sum(p.s1 for p in parts),
            sum(p.s2 for p in parts), top, bottom, past, sum(p.missing for p in parts),
            sum(p.outside for p in parts),
        )  # fmt: skip


def _two(x: np.ndarray, interval: np.ndarray, m: int, *, up: bool) -> np.ndarray:
    """Per interval the two largest (``up``) or smallest values of ``x`` (±inf where absent)."""
    out = np.full((m, 2), -np.inf if up else np.inf)
    order = np.lexsort((-x if up else x, interval))
    ranked, values = interval[order], x[order]
    first = np.searchsorted(ranked, np.arange(m))
    for k in range(2):
        at = first + k
        ok = at < len(ranked)
        ok[ok] &= ranked[at[ok]] == np.arange(m)[ok]
        out[ok, k] = values[at[ok]]
    return out


def interval_counts(
    data: pd.DataFrame,
    col: str,
    ctype: ColumnType,
    thresholds: np.ndarray,
    bounds: tuple[float, float] | None = None,
    limits: Sequence[tuple[float, bool]] = (),
) -> Intervals:
    """One partition's :class:`Intervals` between the cuts ``thresholds``, with the values
    beyond each of the ``limits`` ((limit, up) pairs) and beyond the public ``bounds``."""
    x = numeric_values(data[col], ctype)
    miss = np.isnan(x)
    x = x[~miss]
    interval = np.searchsorted(thresholds, x, side="right")
    m = len(thresholds) + 1
    cnt = np.bincount(interval, minlength=m)
    lo = np.full(m, np.inf)
    hi = np.full(m, -np.inf)
    np.minimum.at(lo, interval, x)
    np.maximum.at(hi, interval, x)
    s1 = np.bincount(interval, weights=x, minlength=m)
    s2 = np.bincount(interval, weights=x * x, minlength=m)
    past = {}
    for limit, up in limits:
        distance = x - limit if up else limit - x
        beyond = distance > 0
        past[(limit, up)] = (
            np.bincount(interval[beyond], minlength=m),
            np.bincount(interval[beyond], weights=distance[beyond], minlength=m),
        )
    outside = 0 if bounds is None else int(((x < bounds[0]) | (x > bounds[1])).sum())
    top, bottom = _two(x, interval, m, up=True), _two(x, interval, m, up=False)
    return Intervals(cnt, lo, hi, s1, s2, top, bottom, past, int(miss.sum()), outside)


def digest_limits(scale: Scale) -> list[tuple[float, bool]]:
    """The limits a bucket's mean may clip its values to beyond its cuts (:meth:`Scale.limits`):
    the central 99 % rounded outward, and the public bounds."""
    limits = [(scale.outer[0], False), (scale.outer[1], True)]
    if scale.public is not None:
        limits += [(float(scale.public[0]), False), (float(scale.public[1]), True)]
    return limits


class IntervalValues(BucketValues):
    """A bucket's values as its statistics read them (:class:`~engine.release.Scale`), from
    the :class:`Intervals` it is made of (``members``)."""

    def __init__(self, intervals: Intervals, members: np.ndarray) -> None:
        self.i, self.members = intervals, members
        self.count = int(intervals.count[members].sum())
        self.total = float(intervals.s1[members].sum())
        self.top = np.sort(intervals.top[members].ravel())[::-1][:2]
        self.bottom = np.sort(intervals.bottom[members].ravel())[:2]

    def extreme(self, up: bool) -> float:
        return float(self.i.high[self.members].max() if up else self.i.low[self.members].min())

    def beyond(self, near: float, up: bool) -> tuple[int, float]:
        if (near, up) not in self.i.past:  # a limit beyond every value of the bucket
            assert (near >= self.extreme(True)) if up else (near <= self.extreme(False))
            return 0, 0.0
        counts, distances = self.i.past[(near, up)]
        return int(counts[self.members].sum()), float(distances[self.members].sum())

    def held(self, low: float, high: float) -> tuple[float, bool, float]:
        held = self.total - self.beyond(high, True)[1] + self.beyond(low, False)[1]
        smallest = float(np.clip(self.extreme(False), low, high))
        return held / self.count, float(np.clip(self.extreme(True), low, high)) > smallest, smallest

    def _values(self) -> np.ndarray:
        """The extreme values, each record once: the two smallest and the two largest."""
        if self.count <= 4:
            return np.r_[self.bottom[: min(2, self.count)], self.top[: max(self.count - 2, 0)]]
        return np.r_[self.bottom, self.top]

    def contributions(self, low: float, high: float, base: float) -> tuple[float, float, float]:
        held = self.held(low, high)[0] * self.count
        top = np.maximum(np.clip(self.top[: min(2, self.count)], low, high) - base, 0.0)
        return held - self.count * base, float(top[0]), float(top[1]) if len(top) > 1 else 0.0

    def spread(self) -> tuple[float, float, float, float]:
        mean = self.total / self.count
        plain = max(float(self.i.s2[self.members].sum()) - self.count * mean * mean, 0.0)
        squares = np.sort((self._values() - mean) ** 2)[::-1]
        return plain, float(squares[0]), float(squares[1]) if len(squares) > 1 else 0.0, plain


def buckets_from_intervals(
    intervals: Intervals,
    scale: Scale,
    sample: np.ndarray,
    thresholds: np.ndarray,
    col: str,
    ctype: ColumnType,
    n_buckets: int,
) -> tuple[Buckets, BucketLookup]:
    """Buckets of consecutive intervals, cut by their exact counts like distinct values.

    A bucket's limits are cuts (public round numbers; the outer ends open, or the public
    bounds); its mean and spread are one machine's (:meth:`~engine.release.Scale.stat_of`) on
    the intervals' sums, its median that of the digest's sample inside it.
    """
    cnt, lo, hi = intervals.count, intervals.low, intervals.high
    used = np.flatnonzero(cnt)
    ends = split_sorted(cnt[used], n_buckets)
    group_used = np.searchsorted(np.asarray(ends), np.arange(len(used)), side="right")
    # empty intervals join the bucket of the next non-empty one (no record falls there)
    m = len(thresholds) + 1
    nxt = np.minimum(np.searchsorted(used, np.arange(m)), len(used) - 1)
    interval_bucket = group_used[nxt]
    n_value = int(group_used.max()) + 1
    missing_bucket = n_value if intervals.missing else None
    labels, bounds, reps, counts, stats = [], [], [], [], []
    public = scale.public or (None, None)
    for j in range(n_value):
        members = used[group_used == j]
        first, last = int(members.min()), int(members.max())
        lo_cut = None if j == 0 else float(thresholds[first - 1])
        hi_cut = None if j == n_value - 1 else float(thresholds[last])
        a, b = float(lo[members].min()), float(hi[members].max())
        inside = sample[(sample >= a) & (sample <= b)]
        keys = np.array([a]) if a == b else (inside if len(inside) else np.array([a, b]))
        label, bound, estimated = scale.describe(keys, lo_cut, hi_cut)
        stat = scale.stat_of(
            IntervalValues(intervals, members),
            public[0] if lo_cut is None else lo_cut,
            public[1] if hi_cut is None else hi_cut,
            estimated.median,
        )
        labels.append(label)
        bounds.append(bound)
        reps.append((stat.median,))
        stats.append((stat,))
        counts.append(int(cnt[members].sum()))
    if missing_bucket is not None:
        labels.append("")
        bounds.append(None)
        reps.append((None,))
        stats.append((None,))
        counts.append(intervals.missing)
    buckets = Buckets(
        labels=labels,
        codes=np.zeros(0, dtype=np.int64),
        counts=np.asarray(counts, dtype=np.int64),
        bounds=bounds,
        representatives=reps,
        missing_bucket=missing_bucket,
        columns=(col,),
        column_labels=[(lab,) for lab in labels],
        stats=stats,
    )
    lookup = BucketLookup(
        (col,), {col: ctype}, None, interval_bucket, missing_bucket, thresholds=thresholds
    )
    return buckets, lookup


class DigestValues(ConfidentialValues):
    """:class:`~engine.release.buckets.search.ConfidentialValues` of a column with too many
    distinct values to count: buckets of the intervals between t-digest cuts.

    The cuts are taken once, fine enough for the largest b the search may try; the buckets of
    any b group the same intervals by their exact counts.  The loss of the released values
    (the digest's bucket medians) is exact, from every interval's Σx and Σx².
    """

    def __init__(
        self,
        parts: Sequence[Intervals],
        scale: Scale,
        sample_q: np.ndarray,
        thresholds: np.ndarray,
        col: str,
        ctype: ColumnType,
        rows: np.ndarray,
        sample: pd.DataFrame,
    ) -> None:
        self.intervals = Intervals.merged(parts)
        self.scale, self.sample_q, self.thresholds = scale, sample_q, thresholds
        self.col, self.ctype = col, ctype
        self.rows, self.sample = np.asarray(rows), sample.reset_index(drop=True)
        self.cnt, self.s1, self.s2 = self.intervals.count, self.intervals.s1, self.intervals.s2
        self.n_missing = self.intervals.missing
        self.n = int(self.cnt.sum()) + self.n_missing
        self._made: dict[int, tuple[Buckets, BucketLookup]] = {}

    def buckets(self, b: int) -> Buckets:
        if b not in self._made:
            self._made[b] = buckets_from_intervals(
                self.intervals, self.scale, self.sample_q, self.thresholds, self.col, self.ctype, b
            )
        return self._made[b][0]

    def held(self, b: int) -> bool:
        """The intervals' buckets are cut by :func:`~engine.release.split_sorted`, which
        forms fewer rather than one of fewer than the threshold rule's records."""
        return held_by_enough(self.buckets(b))

    def lookup(self, buckets: Buckets) -> BucketLookup:
        for made, lookup in self._made.values():
            if made is buckets:
                return lookup
        raise ValueError("buckets not made here")

    def codes_at(self, buckets: Buckets, rows: np.ndarray) -> np.ndarray:
        return _codes_at(self.rows, self.sample, self.lookup(buckets), rows)

    def loss(self, buckets: Buckets, output: str) -> float:
        return self.loss_detail(buckets, output)[0]

    def loss_detail(
        self, buckets: Buckets, output: str
    ) -> tuple[float, dict[str, dict[str, float]]]:
        """The loss of the released values (``output``) and the column's statistics, from
        every interval's count, Σx and Σx² (the numbers :func:`~engine.release.confidential_loss`
        reports of a column held in memory)."""
        reps = np.array([float(r[0]) if r[0] is not None else np.nan
                         for r in buckets.released(output)])  # fmt: skip
        rep = reps[self.lookup(buckets).codes]  # per interval
        used = (self.cnt > 0) & ~np.isnan(rep)
        m, sx, sxx = float(self.cnt[used].sum()), self.s1[used].sum(), self.s2[used].sum()
        if not m:
            return 0.0, {}
        sy = float((self.cnt * rep)[used].sum())
        syy = float((self.cnt * rep * rep)[used].sum())
        sxy = float((self.s1 * rep)[used].sum())
        sse, sst = sxx - 2 * sxy + syy, sxx - sx * sx / m
        vx, vy = sxx / m - (sx / m) ** 2, syy / m - (sy / m) ** 2
        cov = sxy / m - sx * sy / m / m
        loss = float(sse / sst) if sst > 0 else 0.0
        column = {
            "sse_sst": loss,
            "mean_original": float(sx / m),
            "mean_released": float(sy / m),
            "variance_original": float(vx),
            "variance_released": float(vy),
            "correlation": float(cov / math.sqrt(vx * vy)) if vx > 0 and vy > 0 else 1.0,
        }
        return loss, {self.col: column}

    def outside(self, bounds: Mapping[str, tuple[float, float]]) -> dict[str, int]:
        return {self.col: self.intervals.outside} if self.col in bounds else {}
