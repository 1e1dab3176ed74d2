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
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import InputError
from engine.release.encode import category_order, numeric_values, resolve_columns
from engine.release.result import Buckets
from engine.roles import ColumnType


def optimal_bucket_count(t: float) -> int:
    """b = t + 1 (KBS 2015 §6.1), rounded to the nearest whole number (halves up), at least 2.

    For t = 1.5 this gives 3, the paper's Figure 2 example.
    """
    if not (t >= 1 and math.isfinite(t)):
        raise InputError(f"t must be a number ≥ 1, not {t}.")
    return max(2, math.floor(t + 1.5))


def bucket_count(t: float, k: int, n_buckets: int | None = None) -> int:
    """The b a run aims at: the user's ``n_buckets``, else b = t + 1 capped at k.

    Every class holds every bucket, so more buckets than k would force classes larger than
    k (the paper's b ≤ k).  This is the one place the rule lives: the plan, the run, the
    privacy page and the sweep all call it.
    """
    if n_buckets is not None:
        return int(n_buckets)
    return min(optimal_bucket_count(t), max(2, int(k)))


def format_number(value: float) -> str:
    """A number as a short label: integers without a decimal point, others with ≤ 10 digits."""
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.10g}"


def _max_groups(cum: np.ndarray, threshold: float) -> np.ndarray:
    """f[s]: most groups of mass ≥ threshold that values s.. can form (f[n] = 0)."""
    n_values = len(cum)
    before = np.concatenate([[0.0], cum[:-1]])
    # end (exclusive) of the shortest group starting at s with mass ≥ threshold
    end = np.searchsorted(cum, before + threshold - 1e-9) + 1
    f = np.zeros(n_values + 1, dtype=np.int64)
    for s in range(n_values - 1, -1, -1):
        f[s] = 0 if end[s] > n_values else 1 + f[end[s]]
    return f


def split_sorted(weights: np.ndarray, b: int) -> list[int]:
    """End positions (exclusive) of b consecutive groups of near-equal total weight.

    ``weights`` are the multiplicities of the distinct sorted values; a group never splits a
    value.  The smallest group is made as large as possible first (it caps the number of
    classes, KBS 2015 §6.2): a heavy tie such as an income of 0 for most people takes one group
    and its small neighbours join it rather than forming a tiny group.  Within that, each
    cut aims at an equal share of the mass still to split.
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
        if _max_groups(cum, mid)[0] >= b:
            lo_t = mid
        else:
            hi_t = mid
    if _max_groups(cum, hi_t)[0] >= b:
        lo_t = hi_t
    f = _max_groups(cum, lo_t)
    ends: list[int] = []
    start = 0
    for i in range(b - 1):
        before = cum[start - 1] if start > 0 else 0.0
        target = before + (total - before) / (b - i)
        first = int(np.searchsorted(cum, before + lo_t - 1e-9)) + 1
        ok = np.flatnonzero(f[first : n_values + 1] >= b - i - 1)
        last = first + int(ok.max()) if ok.size else first
        candidates = np.arange(first, last + 1)
        best = int(candidates[np.argmin(np.abs(cum[candidates - 1] - target))])
        ends.append(best)
        start = best
    ends.append(n_values)
    return ends


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


def _best_cut(keys: np.ndarray, weights: np.ndarray, nominal: bool, frac: float):
    """Rows going left in the split of one column closest to a ``frac`` share of the mass.

    Numeric/ordinal keys are cut between two distinct values; nominal categories are
    assigned, heaviest first, to whichever side brings the left mass nearer its target.
    None when the column has a single value here.
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
        return left[inverse]
    cum = np.cumsum(mass)[:-1]
    cut = int(np.argmin(np.abs(cum - target)))
    return inverse <= cut


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


def _split_vectors(keys: np.ndarray, weights: np.ndarray, nominal: list[bool], b: int):
    """Group of every distinct key row: b groups of near-equal mass by recursive bisection.

    Each step cuts one column, like a k-d tree, so every bucket is a product of per-column
    ranges or category sets and its label stays short.  Among the cuts that leave each side
    at least half its fair share of the mass, the one that makes the two sides most
    homogeneous (largest drop of the standardised sum of squares over all columns) wins;
    if none is balanced enough, the most balanced.  Identical rows are one weighted row, so
    they are never split.
    """
    features = _features(keys, weights, nominal)
    group = np.zeros(len(keys), dtype=np.int64)
    next_id = 0

    def split(rows: np.ndarray, parts: int) -> None:
        nonlocal next_id
        if parts <= 1 or len(rows) <= 1:
            group[rows] = next_id
            next_id += 1
            return
        frac = (parts // 2) / parts
        w = weights[rows]
        f = features[rows]
        parent = _sse(f, w)
        best = None  # (balanced, gain or -imbalance, left)
        for col in range(keys.shape[1]):
            left = _best_cut(keys[rows, col], w, nominal[col], frac)
            if left is None:
                continue
            share = w[left].sum() / w.sum()
            balanced = min(share / frac, (1 - share) / (1 - frac)) >= 0.5
            gain = parent - _sse(f[left], w[left]) - _sse(f[~left], w[~left])
            score = (balanced, gain if balanced else -abs(share - frac))
            if best is None or score > best[0]:
                best = (score, left)
        if best is None:
            group[rows] = next_id
            next_id += 1
            return
        left = best[1]
        share = w[left].sum() / w.sum()
        left_parts = int(min(max(round(parts * share), 1), parts - 1))
        split(rows[left], left_parts)
        split(rows[~left], parts - left_parts)

    split(np.arange(len(keys)), b)
    return group


def _describe(series: pd.Series, ctype: ColumnType, order: Sequence[str] | None) -> tuple:
    """(label, bounds, representative) of a group of values of one column."""
    values = series.dropna()
    if ctype in (ColumnType.NUMERIC, ColumnType.DATE):
        nums = numeric_values(values, ctype)
        lo, hi, med = float(nums.min()), float(nums.max()), float(np.median(nums))
        if ctype == ColumnType.DATE:

            def fmt(x: float) -> str:
                return (pd.Timestamp("1970-01-01") + pd.Timedelta(days=x)).date().isoformat()

            rep: Any = fmt(round(med))
        else:
            fmt = format_number
            rep = med if not med.is_integer() else int(med)
        label = fmt(lo) if lo == hi else f"[{fmt(lo)}, {fmt(hi)}]"
        return label, (lo, hi), rep
    if ctype == ColumnType.ORDINAL:
        cats = category_order(series, order)
        ranks = {str(c): i for i, c in enumerate(cats)}
        present = sorted({str(v) for v in values}, key=lambda v: ranks[v])
        lo, hi = present[0], present[-1]
        sorted_vals = sorted((str(v) for v in values), key=lambda v: ranks[v])
        rep = sorted_vals[(len(sorted_vals) - 1) // 2]
        label = lo if lo == hi else f"[{lo}, {hi}]"
        return label, (lo, hi), rep
    cats = sorted({str(v) for v in values})
    rep = str(values.astype(str).value_counts().sort_index(kind="stable").idxmax())
    label = cats[0] if len(cats) == 1 else "{" + ", ".join(cats) + "}"
    return label, frozenset(cats), rep


def _sort_keys(series: pd.Series, ctype: ColumnType, order: Sequence[str] | None) -> np.ndarray:
    """Numbers that order a column's (non-missing) values: value, date, rank or category."""
    if ctype == ColumnType.NOMINAL:
        return pd.factorize(series.astype(str), sort=True)[0].astype(float)
    if ctype == ColumnType.ORDINAL:
        cats = category_order(series, order)
        lookup = {str(c): i for i, c in enumerate(cats)}
        return np.array([lookup[str(v)] for v in series], dtype=float)
    return numeric_values(series, ctype)


def _column_codes(
    series: pd.Series, ctype: ColumnType, b: int, order: Sequence[str] | None
) -> np.ndarray:
    """Bucket of every non-missing value of one column (−1 where missing)."""
    mask = series.notna().to_numpy()
    codes = np.full(len(series), -1, dtype=np.int64)
    if not mask.any():
        return codes
    present = series[mask]
    if ctype == ColumnType.NOMINAL:
        text = present.astype(str)
        cat_codes, _ = pd.factorize(text, sort=True)
        group = _group_categories(np.bincount(cat_codes), b)
        codes[mask] = group[cat_codes]
    else:
        if ctype == ColumnType.ORDINAL:
            cats = category_order(series, order)
            lookup = {str(c): i for i, c in enumerate(cats)}
            keys = np.array([lookup[str(v)] for v in present], dtype=float)
        else:
            keys = numeric_values(present, ctype)
        distinct, inverse, weights = np.unique(keys, return_inverse=True, return_counts=True)
        ends = split_sorted(weights, b)
        value_group = np.searchsorted(np.asarray(ends), np.arange(len(distinct)), side="right")
        codes[mask] = value_group[inverse]
    # renumber so that codes are 0..g-1 in order of first bucket (numeric: ascending)
    used = np.unique(codes[mask])
    remap = np.full(used.max() + 1, -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    codes[mask] = remap[codes[mask]]
    return codes


def make_buckets(
    data: pd.DataFrame,
    confidential: Sequence[str],
    types: Mapping[str, ColumnType] | None,
    n_buckets: int,
    *,
    joint: bool = True,
    orders: Mapping[str, Sequence[str]] | None = None,
) -> Buckets:
    """Split the confidential values of ``data`` into ``n_buckets`` buckets (module doc).

    Fewer buckets result when a column has fewer distinct values (a binary column gives at
    most two); the missing bucket comes on top and is always last.
    """
    confidential = list(confidential)
    if not confidential:
        raise InputError("Tag at least one column as confidential to form buckets.")
    if int(n_buckets) != n_buckets or n_buckets < 1:
        raise InputError(f"The number of buckets must be a whole number ≥ 1, not {n_buckets}.")
    ctypes, orders = resolve_columns(data, confidential, types, orders)
    frame = data[confidential]
    missing = frame.isna().any(axis=1).to_numpy()
    n = len(frame)
    codes = np.full(n, -1, dtype=np.int64)
    present = ~missing
    if len(confidential) == 1:
        col = confidential[0]
        codes = _column_codes(frame[col], ctypes[col], n_buckets, orders.get(col))
    elif present.any():
        if joint:
            sub = frame[present]
            keys = np.column_stack(
                [_sort_keys(sub[c], ctypes[c], orders.get(c)) for c in confidential]
            )
            rows, inverse, weights = np.unique(
                keys, axis=0, return_inverse=True, return_counts=True
            )
            nominal = [ctypes[c] == ColumnType.NOMINAL for c in confidential]
            group = _split_vectors(rows, weights.astype(float), nominal, n_buckets)
            codes[present] = group[inverse.ravel()]
        else:
            per_col = np.column_stack(
                [
                    _column_codes(frame[c][present], ctypes[c], n_buckets, orders.get(c))
                    for c in confidential
                ]
            )
            _, inverse = np.unique(per_col, axis=0, return_inverse=True)
            codes[present] = inverse.ravel()
    # order buckets by their first member's position for numeric single columns this is
    # already ascending; make codes contiguous
    used = np.unique(codes[codes >= 0])
    remap = np.full(max(int(used.max()) + 1 if used.size else 0, 1), -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    codes = np.where(codes >= 0, remap[np.maximum(codes, 0)], -1)
    n_value_buckets = len(used)
    missing_bucket = None
    if missing.any():
        missing_bucket = n_value_buckets
        codes[missing] = missing_bucket
    n_total = n_value_buckets + (missing_bucket is not None)
    counts = np.bincount(codes, minlength=n_total).astype(np.int64)

    labels: list[str] = []
    bounds: list[Any] = []
    reps: list[tuple[Any, ...]] = []
    column_labels: list[tuple[str, ...]] = []
    for j in range(n_total):
        if j == missing_bucket:
            labels.append("")
            bounds.append(None)
            reps.append(tuple(None for _ in confidential))
            column_labels.append(tuple("" for _ in confidential))
            continue
        members = frame[codes == j]
        parts = [_describe(members[c], ctypes[c], orders.get(c)) for c in confidential]
        column_labels.append(tuple(p[0] for p in parts))
        labels.append(parts[0][0] if len(parts) == 1 else "; ".join(p[0] for p in parts))
        bounds.append(parts[0][1] if len(parts) == 1 else None)
        reps.append(tuple(p[2] for p in parts))
    return Buckets(
        labels=labels,
        codes=codes,
        counts=counts,
        bounds=bounds,
        representatives=reps,
        missing_bucket=missing_bucket,
        columns=tuple(confidential),
        column_labels=column_labels,
    )
