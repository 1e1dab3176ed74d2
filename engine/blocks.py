"""Scalable k-anonymous t-close partitions for large files (SPEC §3.2).

The exact partition (:func:`engine.partition.tclose_partition`, bucket-capped MDAV) costs
O(N²/k); a million records need another route that keeps its guarantee and most of its
quality.

**Stratified k-d split.**  The whole file's balanced layout (:mod:`engine.feasibility`) says
how many records of each bucket each of the C classes holds; it is valid when the parameters
are feasible at all.  The classes are numbered 0..C−1 and a node of the k-d tree owns a range
of them, hence an exact number of records of every bucket.  A node splits its class range in
two halves and gives the lower half, bucket by bucket, the records of that bucket that lie
lowest along the node's widest QI coordinate — exactly as many as the lower classes own.  So
every node keeps the global bucket mix (to within one record per class and bucket), every block
is feasible against the whole file's shares p_j, and, split all the way down, every leaf is a
valid class by construction.  Each level is one integer sort: O(N log N) per level.

Two finishes:

* ``method="blocks"``: stop at blocks of at most ``block_size`` records and run the exact
  partition inside every block with the global shares (the quality of the exact path, at
  O(N · block_size / k) cost);
* ``method="kd"``: split down to single classes, then improve them with exchanges of records
  between neighbouring classes and moves that keep every class within its bucket bounds
  (fast enough for millions of records).
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from engine.feasibility import BoundRates, check_feasible
from engine.microaggregation import LARGE, ClassBounds, improve_classes
from engine.partition import layout_counts, tclose_partition
from engine.progress import CancelFn, ProgressFn, scaled, step

Method = Literal["blocks", "kd"]

#: records per block for ``method="blocks"``
DEFAULT_BLOCK_SIZE = 3000


def stratified_split(
    X: np.ndarray,
    codes: np.ndarray,
    per_class: np.ndarray,
    *,
    max_records: int = 1,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
) -> np.ndarray:
    """Node of every record after splitting the class layout ``per_class`` (C × b) k-d style.

    A node is identified by the first class of its range; nodes stop splitting when they own
    one class or at most ``max_records`` records.  With ``max_records=1`` the result is a
    class label per record whose bucket counts are exactly the rows of ``per_class``.
    """
    n, d = X.shape
    n_classes, n_b = per_class.shape
    cum = np.zeros((n_classes + 1, n_b), dtype=np.int64)
    cum[1:] = np.cumsum(per_class, axis=0)
    size_cum = cum.sum(axis=1)
    # ranks along every coordinate, computed once: a level then sorts integers only
    ranks = np.empty((d, n), dtype=np.int64)
    for j in range(d):
        ranks[j, np.argsort(X[:, j], kind="stable")] = np.arange(n)
    lo = np.zeros(n, dtype=np.int64)  # first class of the record's node
    hi = np.full(n, n_classes, dtype=np.int64)  # one past its last class
    total_levels = max(1, int(np.ceil(np.log2(max(n_classes, 2)))))
    level = 0
    while True:
        step(progress, cancel, min(level / total_levels, 1.0), "Splitting into blocks")
        live = (hi - lo > 1) & (size_cum[hi] - size_cum[lo] > max_records)
        if not live.any():
            break
        rows = np.flatnonzero(live)
        node = lo[rows]
        # the widest coordinate of every node, by variance (bincount sums, no sort)
        uniq, inv = np.unique(node, return_inverse=True)
        cnt = np.bincount(inv).astype(np.float64)
        spread = np.empty((len(uniq), d))
        for j in range(d):
            x = X[rows, j]
            s1 = np.bincount(inv, weights=x)
            s2 = np.bincount(inv, weights=x * x)
            spread[:, j] = s2 / cnt - (s1 / cnt) ** 2
        dim = np.argmax(spread, axis=1)[inv]
        # sort by (node, bucket, rank along the node's coordinate)
        key = (inv * n_b + codes[rows]) * n + ranks[dim, rows]
        order = np.argsort(key, kind="stable")
        rows_sorted = rows[order]
        group = (inv * n_b + codes[rows])[order]
        starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
        pos = np.arange(len(rows_sorted)) - np.repeat(starts, np.diff(np.r_[starts, len(group)]))
        r_lo = lo[rows_sorted]
        r_hi = hi[rows_sorted]
        mid = (r_lo + r_hi) // 2
        bucket = codes[rows_sorted]
        lower_share = cum[mid, bucket] - cum[r_lo, bucket]
        upper = pos >= lower_share
        lo[rows_sorted] = np.where(upper, mid, r_lo)
        hi[rows_sorted] = np.where(upper, r_hi, mid)
        level += 1
    return lo


def tclose_blocks(
    X: np.ndarray,
    codes: np.ndarray,
    k: int,
    t: float,
    *,
    shares: np.ndarray | None = None,
    method: Method = "blocks",
    block_size: int = DEFAULT_BLOCK_SIZE,
    improve: bool = True,
    seed: int | None = None,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
) -> np.ndarray:
    """Class label of every record: k-anonymous, t-close classes for a large file (module doc).

    Same contract as :func:`engine.partition.tclose_partition`; raises
    :class:`~engine.errors.InfeasibleError` when no valid partition exists.
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim == 1:
        X = X[:, None]
    codes = np.asarray(codes, dtype=np.int64)
    n = len(codes)
    n_b = int(codes.max()) + 1 if n else 0
    if shares is not None:
        shares = np.asarray(shares, dtype=np.float64)
        n_b = max(n_b, len(shares))
    counts = np.bincount(codes, minlength=n_b).astype(np.int64)
    if shares is None:
        shares = counts / max(n, 1)
    n_classes = check_feasible(counts, t, k, shares)
    per_class = layout_counts(counts, n_classes)
    step(progress, cancel, 0.0, "Splitting into blocks")
    if method == "kd":
        labels = stratified_split(
            X, codes, per_class, progress=scaled(progress, 0.0, 0.3), cancel=cancel
        )
        if improve:
            labels = _improve(X, labels, codes, shares, t, k, scaled(progress, 0.3, 1.0), cancel)
        step(progress, cancel, 1.0, "Classes formed")
        return _dense(labels)
    node = stratified_split(
        X,
        codes,
        per_class,
        max_records=block_size,
        progress=scaled(progress, 0.0, 0.1),
        cancel=cancel,
    )
    order = np.argsort(node, kind="stable")
    bounds = np.flatnonzero(np.r_[True, node[order][1:] != node[order][:-1], True])
    labels = np.empty(n, dtype=np.int64)
    offset = 0
    n_blocks = len(bounds) - 1
    for i in range(n_blocks):
        step(progress, cancel, 0.1 + 0.9 * i / n_blocks, "Forming classes")
        members = order[bounds[i] : bounds[i + 1]]
        sub = tclose_partition(X[members], codes[members], k, t, shares=shares, seed=seed)
        labels[members] = sub + offset
        offset += int(sub.max()) + 1
    if improve:
        labels = _improve(X, labels, codes, shares, t, k, scaled(progress, 0.9, 1.0), cancel)
    step(progress, cancel, 1.0, "Classes formed")
    return _dense(labels)


def _improve(
    X: np.ndarray,
    labels: np.ndarray,
    codes: np.ndarray,
    shares: np.ndarray,
    t: float,
    k: int,
    progress: ProgressFn | None,
    cancel: CancelFn | None,
) -> np.ndarray:
    """Exchanges and moves between neighbouring classes that keep every class t-close."""
    largest = int(np.bincount(labels).max())
    bounds = bucket_bounds(codes, shares, t, k, max(2 * k - 1, 2 * largest - 1))
    large = len(labels) > LARGE
    return improve_classes(
        X,
        labels,
        k,
        bounds=bounds,
        n_near=2 if large else 4,
        swap_slack=1.0 if large else np.inf,
        tol=1e-3 if large else 0.0,
        progress=progress,
        cancel=cancel,
    )


def bucket_bounds(
    codes: np.ndarray, shares: np.ndarray, t: float, k: int, max_size: int
) -> ClassBounds:
    """The t-closeness bounds as a :class:`ClassBounds` table for classes up to ``max_size``.

    A class of m ≥ k records may hold between ceil(m·p_j/t) and floor(m·p_j·t) records of
    bucket j (SPEC §3.2, with the feasibility module's rounding); sizes below k are ruled out.
    """
    sizes = np.arange(max_size + 1)
    low, high = BoundRates(shares, t)(sizes[:, None].astype(np.float64))
    low[sizes < k] = max_size + 1  # no count fits: too small a class
    return ClassBounds(codes=np.asarray(codes, dtype=np.int64), low=low, high=high)


def _dense(labels: np.ndarray) -> np.ndarray:
    _, inv = np.unique(labels, return_inverse=True)
    return inv.astype(np.int64)


__all__ = ["DEFAULT_BLOCK_SIZE", "bucket_bounds", "stratified_split", "tclose_blocks"]
