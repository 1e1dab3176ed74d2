"""Buckets of the confidential values from exact counts, on a cluster (KBS 2015 §6.1).

The one-machine split (:mod:`engine.release.buckets`) needs only the distinct values and
their multiplicities, so every partition counts its values (:func:`value_counts`), the
counts are summed, and the same functions cut them (``split_sorted`` for ordered values,
``_group_categories`` for categories, ``_split_vectors`` for several columns jointly).  The
result equals ``make_buckets`` on the whole file, labels and representatives included
(tested).  The counts of the codes actually assigned drive the layout.

A numeric column with more distinct values than :data:`DISTINCT_LIMIT` is cut on t-digest
quantiles instead (crick; Dask's own quantiles are off by up to 20 % in rank): the
deduplicated quantiles are used as value thresholds, so ties are never split, and one exact
pass counts the records between consecutive thresholds; those intervals are then cut like
distinct values.  The representative (bucket median) is then the digest's estimate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import InputError
from engine.release.buckets import _group_categories, _split_vectors, format_number, split_sorted
from engine.release.encode import category_order, numeric_values
from engine.release.result import Buckets
from engine.roles import ColumnType

#: above this many distinct values a numeric confidential column is cut on t-digest quantiles
DISTINCT_LIMIT = 10_000_000
#: quantiles per bucket taken from the digest (the intervals the buckets are made of)
DIGEST_RESOLUTION = 1000
_EPOCH = pd.Timestamp("1970-01-01")


def _keys(data: pd.DataFrame, col: str, ctype: ColumnType) -> pd.Series:
    """The values a column is counted by: numbers for numeric/date, texts otherwise."""
    if ctype in (ColumnType.NUMERIC, ColumnType.DATE):
        return pd.Series(numeric_values(data[col], ctype), index=data.index, name=col)
    text = data[col].astype("string")
    return text.astype(object).where(text.notna(), None).rename(col)


def value_counts(
    data: pd.DataFrame, confidential: Sequence[str], types: Mapping[str, ColumnType]
) -> tuple[pd.DataFrame, int]:
    """(distinct present value rows with a count column ``n``, records with a missing value)."""
    keys = pd.concat([_keys(data, c, types[c]) for c in confidential], axis=1)
    missing = keys.isna().any(axis=1)
    present = keys[~missing.to_numpy()]
    counts = present.value_counts(sort=False).rename("n").reset_index()
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
    #: distinct key rows (one column per confidential column) and the bucket of each
    keys: pd.DataFrame | None
    codes: np.ndarray
    missing_bucket: int | None
    #: t-digest path: value thresholds (interval i holds thr[i-1] < x ≤ thr[i]) and the
    #: bucket of every interval
    thresholds: np.ndarray | None = None

    def __call__(self, data: pd.DataFrame) -> np.ndarray:
        keys = pd.concat([_keys(data, c, self.types[c]) for c in self.columns], axis=1)
        missing = keys.isna().any(axis=1).to_numpy()
        out = np.full(len(data), -1, dtype=np.int64)
        if self.thresholds is not None:
            x = keys.iloc[:, 0].to_numpy(dtype=float)
            interval = np.searchsorted(self.thresholds, x[~missing], side="left")
            out[~missing] = self.codes[interval]
        else:
            assert self.keys is not None
            if len(self.columns) == 1:
                index = pd.Index(self.keys.iloc[:, 0])
                pos = index.get_indexer(keys.iloc[:, 0][~missing])
            else:
                index = pd.MultiIndex.from_frame(self.keys)
                pos = index.get_indexer(pd.MultiIndex.from_frame(keys[~missing]))
            if (pos < 0).any():  # not reached: every value was counted
                raise RuntimeError("a confidential value was not counted")
            out[~missing] = self.codes[pos]
        if missing.any():
            out[missing] = self.missing_bucket
        return out


def _sort_key(values: pd.Series, ctype: ColumnType, order: Sequence[Any] | None) -> np.ndarray:
    if ctype == ColumnType.NOMINAL:
        return pd.factorize(values.astype(str), sort=True)[0].astype(float)
    if ctype == ColumnType.ORDINAL:
        lookup = {str(c): i for i, c in enumerate(order or [])}
        return np.array([lookup[str(v)] for v in values], dtype=float)
    return values.to_numpy(dtype=float)


def _weighted_at(values: np.ndarray, weights: np.ndarray, positions: Sequence[int]) -> list:
    """The values at the given positions of the sorted multiset (values sorted, weights ≥ 1)."""
    cum = np.cumsum(weights)
    return [values[int(np.searchsorted(cum, p, side="right"))] for p in positions]


def _describe(values: pd.Series, weights: np.ndarray, ctype: ColumnType, order) -> tuple:
    """(label, bounds, representative) of a bucket's values with multiplicities, as
    :func:`engine.release.buckets._describe` gives them for the records themselves."""
    total = int(weights.sum())
    if ctype in (ColumnType.NUMERIC, ColumnType.DATE):
        nums = values.to_numpy(dtype=float)
        o = np.argsort(nums, kind="stable")
        nums, w = nums[o], weights[o]
        lo, hi = float(nums[0]), float(nums[-1])
        a, b = _weighted_at(nums, w, [(total - 1) // 2, total // 2])
        med = float((a + b) / 2)
        if ctype == ColumnType.DATE:

            def fmt(x: float) -> str:
                return (_EPOCH + pd.Timedelta(days=x)).date().isoformat()

            rep: Any = fmt(round(med))
        else:
            fmt = format_number
            rep = med if not med.is_integer() else int(med)
        label = fmt(lo) if lo == hi else f"[{fmt(lo)}, {fmt(hi)}]"
        return label, (lo, hi), rep
    if ctype == ColumnType.ORDINAL:
        ranks = {str(c): i for i, c in enumerate(order)}
        text = values.astype(str).to_numpy()
        r = np.array([ranks[v] for v in text])
        o = np.argsort(r, kind="stable")
        text, w = text[o], weights[o]
        lo, hi = text[0], text[-1]
        rep = _weighted_at(text, w, [(total - 1) // 2])[0]
        label = lo if lo == hi else f"[{lo}, {hi}]"
        return label, (lo, hi), rep
    text = values.astype(str)
    mass = pd.Series(weights, index=text.to_numpy()).groupby(level=0).sum().sort_index()
    cats = sorted(mass.index)
    rep = str(mass.idxmax())
    label = cats[0] if len(cats) == 1 else "{" + ", ".join(cats) + "}"
    return label, frozenset(cats), rep


def make_buckets_from_counts(
    counts: pd.DataFrame,
    n_missing: int,
    confidential: Sequence[str],
    types: Mapping[str, ColumnType],
    n_buckets: int,
    *,
    joint: bool = True,
    orders: Mapping[str, Sequence[Any]] | None = None,
) -> tuple[Buckets, BucketLookup]:
    """The buckets :func:`engine.release.buckets.make_buckets` forms, from summed counts.

    Returns the buckets (``codes`` empty: each partition finds its own with the lookup) and
    the :class:`BucketLookup`.
    """
    confidential = list(confidential)
    orders = dict(orders or {})
    if len(confidential) > 1 and not joint:
        raise InputError(
            "Per-column t-closeness is not available on a cluster yet; use joint buckets "
            "(the default) or compute on this computer."
        )
    ctypes = {c: types[c] for c in confidential}
    for c in confidential:
        if ctypes[c] == ColumnType.ORDINAL:
            orders[c] = category_order(pd.Series(counts[c].unique(), name=c), orders.get(c))
    weights = counts["n"].to_numpy(dtype=np.int64)
    keycols = np.column_stack(
        [_sort_key(counts[c], ctypes[c], orders.get(c)) for c in confidential]
    ) if len(counts) else np.zeros((0, len(confidential)))  # fmt: skip
    # distinct rows in lexicographic order, as np.unique(axis=0) orders them
    order = np.lexsort(keycols.T[::-1]) if len(counts) else np.zeros(0, dtype=np.int64)
    counts = counts.iloc[order].reset_index(drop=True)
    keycols, weights = keycols[order], weights[order]
    if len(counts) == 0:
        group = np.zeros(0, dtype=np.int64)
    elif len(confidential) == 1:
        col = confidential[0]
        if ctypes[col] == ColumnType.NOMINAL:
            group = _group_categories(weights, n_buckets)
        else:
            ends = split_sorted(weights, n_buckets)
            group = np.searchsorted(np.asarray(ends), np.arange(len(weights)), side="right")
    else:
        nominal = [ctypes[c] == ColumnType.NOMINAL for c in confidential]
        group = _split_vectors(keycols, weights.astype(float), nominal, n_buckets)
    used = np.unique(group)
    remap = np.full(int(used.max()) + 1 if used.size else 1, -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    codes = remap[group] if len(group) else group
    n_value = len(used)
    missing_bucket = n_value if n_missing else None
    n_total = n_value + (missing_bucket is not None)
    bucket_counts = np.bincount(codes, weights=weights, minlength=n_total).astype(np.int64)
    if missing_bucket is not None:
        bucket_counts[missing_bucket] = n_missing
    labels, bounds, reps, column_labels = [], [], [], []
    for j in range(n_total):
        if j == missing_bucket:
            labels.append("")
            bounds.append(None)
            reps.append(tuple(None for _ in confidential))
            column_labels.append(tuple("" for _ in confidential))
            continue
        members = codes == j
        parts = [
            _describe(counts[c][members], weights[members], ctypes[c], orders.get(c))
            for c in confidential
        ]
        column_labels.append(tuple(p[0] for p in parts))
        labels.append(parts[0][0] if len(parts) == 1 else "; ".join(p[0] for p in parts))
        bounds.append(parts[0][1] if len(parts) == 1 else None)
        reps.append(tuple(p[2] for p in parts))
    buckets = Buckets(
        labels=labels,
        codes=np.zeros(0, dtype=np.int64),
        counts=bucket_counts,
        bounds=bounds,
        representatives=reps,
        missing_bucket=missing_bucket,
        columns=tuple(confidential),
        column_labels=column_labels,
    )
    keys = counts[confidential].copy()
    for c in confidential:
        if ctypes[c] not in (ColumnType.NUMERIC, ColumnType.DATE):
            keys[c] = keys[c].astype(object)
    lookup = BucketLookup(tuple(confidential), ctypes, keys, codes, missing_bucket)
    return buckets, lookup


# ----------------------------------------------------------------------------- t-digest


def digest(data: pd.DataFrame, col: str, ctype: ColumnType) -> Any:
    """A crick t-digest of one partition's present values of a numeric column."""
    from crick import TDigest

    x = numeric_values(data[col], ctype)
    d = TDigest()
    d.update(x[~np.isnan(x)])
    return d


def digest_thresholds(digests: Sequence[Any], n_buckets: int) -> np.ndarray:
    """Deduplicated quantiles of the merged digests: the interval bounds (last one +inf)."""
    from crick import TDigest

    merged = TDigest()
    merged.merge(*digests)
    q = np.linspace(0.0, 1.0, DIGEST_RESOLUTION * max(n_buckets, 1) + 1)[1:-1]
    return np.r_[np.unique(merged.quantile(q)), np.inf]


def interval_counts(
    data: pd.DataFrame, col: str, ctype: ColumnType, thresholds: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(count, min, max) per interval between thresholds, and the missing count (exact)."""
    x = numeric_values(data[col], ctype)
    miss = np.isnan(x)
    x = x[~miss]
    interval = np.searchsorted(thresholds, x, side="left")
    m = len(thresholds)
    cnt = np.bincount(interval, minlength=m)
    lo = np.full(m, np.inf)
    hi = np.full(m, -np.inf)
    np.minimum.at(lo, interval, x)
    np.maximum.at(hi, interval, x)
    return cnt, lo, hi, int(miss.sum())


def buckets_from_intervals(
    parts: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray, int]],
    digests: Sequence[Any],
    thresholds: np.ndarray,
    col: str,
    ctype: ColumnType,
    n_buckets: int,
) -> tuple[Buckets, BucketLookup]:
    """Buckets of consecutive intervals, cut by their exact counts like distinct values."""
    from crick import TDigest

    cnt = sum(p[0] for p in parts)
    lo = np.min([p[1] for p in parts], axis=0)
    hi = np.max([p[2] for p in parts], axis=0)
    n_missing = sum(p[3] for p in parts)
    used = np.flatnonzero(cnt)
    ends = split_sorted(cnt[used], n_buckets)
    group_used = np.searchsorted(np.asarray(ends), np.arange(len(used)), side="right")
    interval_bucket = np.zeros(len(thresholds), dtype=np.int64)
    # empty intervals join the bucket of the next non-empty one (no record falls there)
    nxt = np.minimum(np.searchsorted(used, np.arange(len(thresholds))), len(used) - 1)
    interval_bucket[:] = group_used[nxt]
    n_value = int(group_used.max()) + 1
    missing_bucket = n_value if n_missing else None
    merged = TDigest()
    merged.merge(*digests)
    total = cnt.sum()
    labels, bounds, reps, counts = [], [], [], []
    before = 0
    fmt = format_number
    if ctype == ColumnType.DATE:

        def fmt(x: float) -> str:
            return (_EPOCH + pd.Timedelta(days=x)).date().isoformat()

    for j in range(n_value):
        members = used[group_used == j]
        c = int(cnt[members].sum())
        a, b = float(lo[members].min()), float(hi[members].max())
        med = float(merged.quantile((before + c / 2) / total))
        med = min(max(med, a), b)
        before += c
        counts.append(c)
        labels.append(fmt(a) if a == b else f"[{fmt(a)}, {fmt(b)}]")
        bounds.append((a, b))
        if ctype == ColumnType.DATE:
            reps.append((fmt(round(med)),))
        else:
            reps.append((med if not med.is_integer() else int(med),))
    if missing_bucket is not None:
        labels.append("")
        bounds.append(None)
        reps.append((None,))
        counts.append(n_missing)
    buckets = Buckets(
        labels=labels,
        codes=np.zeros(0, dtype=np.int64),
        counts=np.asarray(counts, dtype=np.int64),
        bounds=bounds,
        representatives=reps,
        missing_bucket=missing_bucket,
        columns=(col,),
        column_labels=[(lab,) for lab in labels],
    )
    lookup = BucketLookup(
        (col,), {col: ctype}, None, interval_bucket, missing_bucket, thresholds=thresholds
    )
    return buckets, lookup
