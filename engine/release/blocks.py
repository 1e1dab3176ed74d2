"""Scalable k-anonymous t-close partitions for large files (KBS 2015 §6.2).

The exact partition (:func:`engine.release.partition.tclose_partition`, bucket-capped MDAV) costs
O(N²/k); a million records need another route that keeps its guarantee and most of its
quality.

**Stratified k-d split.**  The whole file's balanced layout (:mod:`engine.release.feasibility`) says
how many records of each bucket each of the C classes holds; it is valid when the parameters
are feasible at all.  The classes are numbered 0..C−1 and a node of the k-d tree owns a range
of them, hence an exact number of records of every bucket.  A node splits its class range in
two halves and gives the lower half, bucket by bucket, the records of that bucket that lie
lowest along the node's widest QI coordinate — exactly as many as the lower classes own.  So
every node keeps the global bucket mix (to within one record per class and bucket), every block
is feasible against the whole file's shares p_j, and, split all the way down, every leaf is a
valid class by construction.  Each level is one integer sort: O(N log N) per level.

**Classes inside blocks.**  The split stops at blocks of at most ``block_size`` records.
Inside each block the rule of the exact partition applies (a class of m records takes its
lo_j nearest records of each bucket j, then the nearest records whose bucket is below hi_j,
with a reserve that keeps the rest feasible), run in all blocks at once by
:func:`capped_mdav` so that the Python loop runs block_size / k times in all.  The exact
function itself, one call per block, is available as ``method="exact"`` (the reference).

**Improvement.**  Finally records are exchanged and moved between neighbouring classes
(:func:`engine.release.improve.improve_classes`) whenever that lowers the QI SSE and keeps
both classes within their bucket bounds: this repairs the block borders and uses up the
allowance t.  Every class therefore satisfies ceil(|E|·p_j/t) ≤ n_Ej ≤ floor(|E|·p_j·t) and
|E| ≥ k at every stage, and the release verifier checks it again.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Literal

import numpy as np
from scipy.sparse import coo_array

from engine.progress import NO_TASK, Task
from engine.release.feasibility import BoundRates, check_feasible
from engine.release.improve import ClassBounds, improve_classes
from engine.release.partition import layout_counts, tclose_partition

Method = Literal["lockstep", "exact"]

#: records per block: larger blocks give better classes and cost linearly more
DEFAULT_BLOCK_SIZE = 2000
#: files larger than this may take the block path (see :func:`use_blocks`)
BLOCKS_THRESHOLD = 20_000
#: ... when they have more distinct QI points than this, or more records than LARGE_FILE
POINTS_THRESHOLD = 20_000
LARGE_FILE = 200_000


def use_blocks(X: np.ndarray) -> bool:
    """Whether a file should take the block path rather than the exact partition.

    The exact partition works on distinct QI points: its cost grows with their number squared
    plus a fixed cost per class.  Census files with a few categorical QIs (acs: 68,725 records
    on a few thousand points) stay exact and fast; files with many distinct points, or
    millions of records, take the blocks.
    """
    n = len(X)
    if n <= BLOCKS_THRESHOLD:
        return False
    if n > LARGE_FILE:
        return True
    X = np.ascontiguousarray(X, dtype=np.float64).reshape(n, -1)
    rows = X.view(np.dtype((np.void, X.dtype.itemsize * X.shape[1]))).ravel()
    return len(np.unique(rows)) > POINTS_THRESHOLD


#: spreads are compared after rounding to this many decimals (QIs are standardised, so 1e-9
#: is far below any real difference), then the lowest dimension wins a tie
SPREAD_DECIMALS = 9


def widest_dimension(spread: np.ndarray) -> np.ndarray:
    """The dimension each row of ``spread`` (nodes × d variances) splits along.

    Deterministic: with z-scored QIs every spread is 1.0 at the root up to rounding noise, and
    sums taken in another order (partition by partition on a cluster) differ in the last bits;
    rounding first and taking the lowest index among equals makes both paths agree.
    """
    return np.argmax(np.round(spread, SPREAD_DECIMALS), axis=1)


def binary_columns(X: np.ndarray) -> np.ndarray:
    """Per column, its one non-zero value if it takes at most one, a positive one (one-hot and
    missing indicators: 0 or v > 0), else NaN.  Such a column needs no sort and no Σx²."""
    out = np.full(X.shape[1], np.nan)
    for j in range(X.shape[1]):
        x = X[:, j]
        nz = x[x != 0]
        if nz.size == 0:
            out[j] = 0.0
        elif nz[0] > 0 and (nz == nz[0]).all():
            out[j] = nz[0]
    return out


def node_spreads(
    X: np.ndarray, node: np.ndarray, n_nodes: int, binary: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(count, Σx, Σx²) of the rows of every node: the sums a spread is made of.

    Sums can be added across pieces of a node (the distributed path adds them over
    partitions); :func:`spreads_from_sums` turns them into variances.  Σx is one sparse
    product that reads X row by row (22 strided column reads took 40 % of the split);
    Σx² of a binary column (``binary``, from :func:`binary_columns`) is v·Σx.
    """
    n, d = X.shape
    cnt = np.bincount(node, minlength=n_nodes).astype(np.float64)
    members = coo_array((np.ones(n), (node, np.arange(n))), shape=(n_nodes, n)).tocsr()
    s1 = np.asarray(members @ X).reshape(n_nodes, d)
    if binary is None:
        binary = np.full(d, np.nan)
    s2 = s1 * np.nan_to_num(binary)[None, :]
    for j in np.flatnonzero(np.isnan(binary)):
        x = X[:, j]
        s2[:, j] = np.bincount(node, weights=x * x, minlength=n_nodes)
    return cnt, s1, s2


def spreads_from_sums(cnt: np.ndarray, s1: np.ndarray, s2: np.ndarray) -> np.ndarray:
    """Variance of every node along every dimension from :func:`node_spreads` sums."""
    c = np.maximum(cnt, 1.0)[:, None]
    return s2 / c - (s1 / c) ** 2


def split_nodes(
    X: np.ndarray,
    codes: np.ndarray,
    per_class: np.ndarray,
    *,
    max_records: int = 1,
    start: tuple[np.ndarray, np.ndarray] | None = None,
    task: Task = NO_TASK,
) -> tuple[np.ndarray, np.ndarray]:
    """Every record's node after splitting the class layout ``per_class`` (C × b) k-d style.

    A node is a range of classes, returned per record as (first class, one past the last);
    nodes stop splitting when they own one class or at most ``max_records`` records.  With
    ``max_records=1`` the first classes are a class label per record whose bucket counts are
    exactly the rows of ``per_class``.  ``start`` gives every record's node when the split
    continues from nodes formed elsewhere (a cluster splits the top levels); by default every
    record starts in the root node that owns all classes.

    Within a (node, bucket), records go to the lower half by rank along the node's widest
    coordinate, ties in value broken by row position: the caller's row order must be the
    file's so that every path (one machine, or the nodes of a cluster) gives the same split.
    """
    n, d = X.shape
    n_classes, n_b = per_class.shape
    cum = np.zeros((n_classes + 1, n_b), dtype=np.int64)
    cum[1:] = np.cumsum(per_class, axis=0)
    size_cum = cum.sum(axis=1)
    if start is None:
        lo = np.zeros(n, dtype=np.int64)  # first class of the record's node
        hi = np.full(n, n_classes, dtype=np.int64)  # one past its last class
    else:
        lo = np.array(start[0], dtype=np.int64)
        hi = np.array(start[1], dtype=np.int64)
    if n == 0:
        return lo, hi
    # ranks along the coordinates that need a sort, computed once; a binary coordinate is
    # ordered by (value, position) directly.  A level then sorts integers only.
    binary = binary_columns(X)
    sorted_dims = np.flatnonzero(np.isnan(binary))
    slot = np.zeros(d, dtype=np.int64)
    slot[sorted_dims] = np.arange(len(sorted_dims))
    ranks = np.empty((len(sorted_dims), n), dtype=np.int32 if n < 2**31 else np.int64)
    for i, j in enumerate(sorted_dims):
        ranks[i, np.argsort(X[:, j], kind="stable")] = np.arange(n)
    total_levels = max(1, int(np.ceil(np.log2(max(n_classes, 2)))))
    level = 0
    all_rows = np.arange(n)
    while True:
        task.step(min(level / total_levels, 1.0), "Splitting into blocks")
        live = (hi - lo > 1) & (size_cum[hi] - size_cum[lo] > max_records)
        if not live.any():
            break
        everything = bool(live.all())
        rows = all_rows if everything else np.flatnonzero(live)
        node = lo if everything else lo[rows]  # a node is named by its first class
        Xr = X if everything else X[rows]
        dims = widest_dimension(spreads_from_sums(*node_spreads(Xr, node, n_classes, binary)))
        dim = dims[node]
        # sort by (node, bucket, value along the node's coordinate, position)
        group = node * n_b + codes[rows]
        is_bin = ~np.isnan(binary[dim])
        sub = np.empty(len(rows), dtype=np.int64)
        sr = ~is_bin
        if sr.any():
            sub[sr] = ranks.ravel()[slot[dim[sr]] * n + rows[sr]]
        sub[is_bin] = (X.ravel()[rows[is_bin] * d + dim[is_bin]] != 0) * n + rows[is_bin]
        order = np.argsort(group * (2 * n) + sub)  # keys are distinct: any sort is stable
        del sub, is_bin, sr
        rows_sorted = rows[order]
        group = group[order]
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
    return lo, hi


def capped_mdav(
    X: np.ndarray,
    codes: np.ndarray,
    node: np.ndarray,
    per_class: np.ndarray,
    shares: np.ndarray,
    t: float,
    k: int,
    *,
    node_end: np.ndarray | None = None,
    task: Task = NO_TASK,
) -> np.ndarray:
    """Bucket-capped MDAV inside every block, all blocks in lockstep.

    The rule is :func:`engine.release.partition.tclose_partition`'s: a class of m records (⌊n/C⌋ or
    ⌈n/C⌉ of the n records left for the C classes still to form) takes, for each bucket j, its
    ``lo_j`` nearest records of bucket j and then the nearest records whose bucket is below
    ``hi_j``, where (lo, hi) keep the reserve that lets the remaining classes be formed.  Seeds
    alternate as in MDAV: the live record farthest from the live centroid, then the one
    farthest from that seed.  Every step forms one class in every block with numpy operations
    over all blocks at once, so the Python loop runs block_size / k times in all.

    ``node`` is the first class of every record's block (:func:`split_nodes`); the blocks
    tile the classes of the layout ``per_class``, whose block sums are feasible for ``shares``.
    ``node_end`` (one past every record's last class, from :func:`split_nodes`) is needed when
    the records are only some of the blocks (one partition of a cluster); the labels are
    always the layout's class numbers, so blocks formed apart never share one.
    """
    n, d = X.shape
    n_classes, n_b = per_class.shape
    rates = BoundRates(shares, t)
    firsts = np.unique(node)
    n_blocks = len(firsts)
    block_of = np.searchsorted(firsts, node)
    if node_end is None:
        classes_left = np.diff(np.r_[firsts, n_classes]).astype(np.int64)
    else:
        ends = np.zeros(n_blocks, dtype=np.int64)
        ends[block_of] = node_end
        classes_left = ends - firsts
    labels = np.full(n, -1, dtype=np.int64)
    rows_b = np.arange(n_blocks)
    remaining = np.bincount(block_of * n_b + codes, minlength=n_blocks * n_b).reshape(n_blocks, n_b)
    n_left = remaining.sum(axis=1)
    total = np.stack(
        [np.bincount(block_of, weights=X[:, j], minlength=n_blocks) for j in range(d)], 1
    )
    sqn = (X * X).sum(axis=1)
    # per bucket: (blocks × width) record indices, coordinates, squared norms, live flags
    order = np.lexsort((block_of, codes))
    parts = []
    for j in range(n_b):
        members = order[codes[order] == j]
        blk = block_of[members]
        sizes = np.bincount(blk, minlength=n_blocks)
        width = int(sizes.max(initial=0))
        starts = np.r_[0, np.cumsum(sizes)[:-1]]
        idx = np.full((n_blocks, width), -1, dtype=np.int64)
        idx[blk, np.arange(len(members)) - starts[blk]] = members
        parts.append(_Lanes(idx, X, sqn))
    label_next = firsts.copy()
    steps = int(classes_left.max())
    seed = np.zeros((n_blocks, d))
    for s in range(2 * steps):
        on = classes_left > 0
        if not on.any():
            break
        task.step(s / (2 * steps), "Forming classes")
        # the seed: farthest from the live centroid, or (every other step) from the last seed
        ref = total / np.maximum(n_left, 1)[:, None] if s % 2 == 0 else seed.copy()
        best = np.full(n_blocks, -np.inf)
        for lane in parts:
            far, value = lane.farthest(ref)
            better = value > best
            best[better] = value[better]
            seed[better] = X[lane.idx[rows_b[better], far[better]]]
        lo, hi, m = _limits(remaining, n_left, classes_left, rates, k)
        lo[~on] = 0
        hi[~on] = 0
        m[~on] = 0
        # each bucket's nearest records to the seed, up to hi_j of them, nearest first
        near: list[tuple[np.ndarray, np.ndarray]] = []
        for j, lane in enumerate(parts):
            near.append(lane.nearest(seed, int(hi[:, j].max(initial=0))))
        # mandatory: the first lo_j of bucket j; optional: the next ones up to hi_j
        opt_d, opt_j, opt_p = [], [], []
        for j, (pos, dist) in enumerate(near):
            rank = np.arange(pos.shape[1])[None, :]
            opt = (rank >= lo[:, j : j + 1]) & (rank < hi[:, j : j + 1]) & np.isfinite(dist)
            opt_d.append(np.where(opt, dist, np.inf))
            opt_j.append(np.full(pos.shape, j))
            opt_p.append(rank + np.zeros_like(pos))
        opt_d_all = np.concatenate(opt_d, axis=1)
        rank_opt = np.argsort(opt_d_all, axis=1, kind="stable")
        need = m - lo.sum(axis=1)
        chosen = np.zeros(opt_d_all.shape, dtype=bool)
        chosen[rows_b[:, None], rank_opt] = np.arange(rank_opt.shape[1])[None, :] < need[:, None]
        offsets = np.cumsum([0] + [p.shape[1] for p, _ in near])
        for j, ((pos, _), lane) in enumerate(zip(near, parts, strict=True)):
            rank = np.arange(pos.shape[1])[None, :]
            take = (rank < lo[:, j : j + 1]) | chosen[:, offsets[j] : offsets[j + 1]]
            tb, tc = np.nonzero(take)
            if len(tb) == 0:
                continue
            cols = pos[tb, tc]
            rec = lane.idx[tb, cols]
            labels[rec] = label_next[tb]
            lane.kill(tb, cols)
            np.subtract.at(total, tb, X[rec])
            got = np.bincount(tb, minlength=n_blocks)
            remaining[:, j] -= got
        n_left -= m
        label_next += on
        classes_left -= on
    if (labels < 0).any():  # not reached: the reserve invariant always leaves a valid class
        raise RuntimeError("capped MDAV left records without a class")
    return labels


class _Lanes:
    """The live records of one bucket in every block: a (blocks × width) padded table."""

    def __init__(self, idx: np.ndarray, X: np.ndarray, sqn: np.ndarray) -> None:
        self.idx = idx
        self.alive = idx >= 0
        safe = np.maximum(idx, 0)
        self.Z = X[safe]
        self.sq = np.where(self.alive, sqn[safe], 0.0)

    def _dist(self, ref: np.ndarray) -> np.ndarray:
        # batched matrix product (BLAS): about 1.5× faster than the equivalent einsum
        d2 = self.sq - 2.0 * np.matmul(self.Z, ref[:, :, None])[..., 0]
        return d2 + (ref * ref).sum(axis=1)[:, None]

    def farthest(self, ref: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.Z.shape[1] == 0:
            return np.zeros(len(ref), dtype=np.int64), np.full(len(ref), -np.inf)
        d2 = np.where(self.alive, self._dist(ref), -np.inf)
        far = np.argmax(d2, axis=1)
        return far, d2[np.arange(len(ref)), far]

    def nearest(self, ref: np.ndarray, h: int) -> tuple[np.ndarray, np.ndarray]:
        """Columns of the h nearest live records per block (nearest first) and distances."""
        width = self.Z.shape[1]
        h = min(h, width)
        if h == 0:
            return np.zeros((len(ref), 0), dtype=np.int64), np.zeros((len(ref), 0))
        d2 = np.where(self.alive, self._dist(ref), np.inf)
        cand = np.argpartition(d2, h - 1, axis=1)[:, :h] if h < width else np.argsort(d2, axis=1)
        cd = np.take_along_axis(d2, cand, axis=1)
        o = np.argsort(cd, axis=1, kind="stable")
        return np.take_along_axis(cand, o, axis=1), np.take_along_axis(cd, o, axis=1)

    def kill(self, rows: np.ndarray, cols: np.ndarray) -> None:
        self.alive[rows, cols] = False
        live = self.alive.sum(axis=1)
        top = int(live.max(initial=0))
        if top * 2 < self.alive.shape[1]:  # drop dead columns: live records first
            keep = np.argsort(~self.alive, axis=1, kind="stable")[:, :top]
            self.idx = np.take_along_axis(self.idx, keep, axis=1)
            self.Z = np.take_along_axis(self.Z, keep[:, :, None], axis=1)
            self.sq = np.take_along_axis(self.sq, keep, axis=1)
            self.alive = np.take_along_axis(self.alive, keep, axis=1)


def _limits(
    remaining: np.ndarray, n_left: np.ndarray, classes_left: np.ndarray, rates: BoundRates, k: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per block: (lo, hi) per bucket and size m of the next class, keeping the reserve.

    The vectorised form of :func:`engine.release.partition._class_limits`: m is ⌊n/C⌋ when that
    admits a class, else ⌈n/C⌉.
    """
    c = np.maximum(classes_left, 1)
    out_lo = np.zeros_like(remaining)
    out_hi = np.zeros_like(remaining)
    out_m = np.zeros_like(n_left)
    done = np.zeros(len(n_left), dtype=bool)
    for m in (n_left // c, -(-n_left // c)):
        low_m, up_m = rates(m[:, None].astype(np.float64))
        after = classes_left - 1
        rest = n_left - m
        a = np.maximum(after, 1)
        low_rest, _ = rates((-(-rest // a))[:, None].astype(np.float64))
        _, up_rest = rates((rest // a)[:, None].astype(np.float64))
        last = after[:, None] == 0
        lo = np.where(
            last, np.maximum(low_m, remaining), np.maximum(low_m, remaining - a[:, None] * up_rest)
        )
        hi = np.where(
            last, np.minimum(up_m, remaining), np.minimum(up_m, remaining - a[:, None] * low_rest)
        )
        ok = np.where(after == 0, rest == 0, rest // a >= k)
        ok &= (lo <= hi).all(axis=1) & (lo.sum(axis=1) <= m) & (hi.sum(axis=1) >= m)
        use = ok & ~done
        out_lo[use], out_hi[use], out_m[use] = lo[use], hi[use], m[use]
        done |= ok
    live = classes_left > 0
    if (live & ~done).any():  # not reached by the invariant (see engine.release.partition)
        raise RuntimeError("no valid class size in a block")
    return out_lo, out_hi, out_m


def tclose_blocks(
    X: np.ndarray,
    codes: np.ndarray,
    k: int,
    t: float,
    *,
    shares: np.ndarray | None = None,
    method: Method = "lockstep",
    block_size: int | None = None,
    improve_rounds: int | None = None,
    workers: int | None = None,
    seed: int | None = None,
    task: Task = NO_TASK,
) -> np.ndarray:
    """Class label of every record: k-anonymous, t-close classes for a large file (module doc).

    Same contract as :func:`engine.release.partition.tclose_partition`; raises
    :class:`~engine.errors.InfeasibleError` when no valid partition exists.  ``method``:
    ``"lockstep"`` (default) runs the bucket-capped MDAV in all blocks at once,
    ``"exact"`` calls :func:`~engine.release.partition.tclose_partition` block by block (the same
    rule, one Python call per block: the reference, slower on millions of records).
    ``improve_rounds`` bounds the improvement pass and ``block_size`` the blocks (None: by
    file size; 0 rounds: no improvement).  ``workers`` threads form the classes of disjoint
    groups of blocks (None: one per core); the classes do not depend on it.
    The result does not depend on ``seed`` (accepted for a uniform call).
    """
    del seed  # deterministic by construction
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
    if improve_rounds is None:
        improve_rounds = default_rounds(n)
    if block_size is None:  # smaller blocks halve the time on millions of records
        block_size = DEFAULT_BLOCK_SIZE if n <= LARGE_FILE else DEFAULT_BLOCK_SIZE // 2
    task.step(0.0, "Splitting into blocks")
    node, end = split_nodes(
        X,
        codes,
        per_class,
        max_records=block_size,
        task=task.sub(0.0, 0.1),
    )
    form = task.sub(0.1, 0.6 if improve_rounds else 1.0)
    if method == "lockstep":
        labels = form_classes(
            X, codes, node, end, per_class, shares, t, k, workers=workers, task=form,
        )  # fmt: skip
    else:
        order = np.argsort(node, kind="stable")
        cuts = np.flatnonzero(np.r_[True, node[order][1:] != node[order][:-1], True])
        labels = np.empty(n, dtype=np.int64)
        offset = 0
        for i in range(len(cuts) - 1):
            form.step(i / (len(cuts) - 1), "Forming classes")
            members = order[cuts[i] : cuts[i + 1]]
            sub = tclose_partition(X[members], codes[members], k, t, shares=shares)
            labels[members] = sub + offset
            offset += int(sub.max()) + 1
    if improve_rounds:
        labels = improve_within_bounds(
            X, labels, codes, shares, t, k, improve_rounds, task.sub(0.6, 1.0)
        )
    task.step(1.0, "Classes formed")
    return _dense(labels)


def form_classes(
    X: np.ndarray,
    codes: np.ndarray,
    node: np.ndarray,
    end: np.ndarray,
    per_class: np.ndarray,
    shares: np.ndarray,
    t: float,
    k: int,
    *,
    workers: int | None = None,
    task: Task = NO_TASK,
) -> np.ndarray:
    """:func:`capped_mdav` on the blocks ``[node, end)``, run by ``workers`` threads.

    Above :data:`WORKER_MIN_RECORDS` records the blocks are cut into :data:`GROUPS` groups of
    about equal size along the class numbers and each group runs the lockstep MDAV on its own;
    numpy releases the interpreter lock in the distance products and the partial sorts, most
    of the work, so two cores nearly halve the time.  The grouping is fixed (it does not follow
    the number of cores): a partial sort breaks ties by the layout of its array, so the same
    file and seed give the same classes on every machine.
    """
    n = len(codes)
    workers = max(1, int(workers or os.cpu_count() or 1))
    firsts = np.unique(node)
    if len(firsts) < 2 * GROUPS or n < WORKER_MIN_RECORDS:
        return capped_mdav(
            X, codes, node, per_class, shares, t, k, node_end=end, task=task,
        )  # fmt: skip
    # cut the blocks into groups of about n / workers records, at block boundaries
    order = np.argsort(node, kind="stable")
    sizes = np.bincount(np.searchsorted(firsts, node), minlength=len(firsts))
    cut = np.searchsorted(np.cumsum(sizes), np.arange(1, GROUPS) * n / GROUPS)
    bounds = np.r_[0, np.unique(np.clip(cut + 1, 1, len(firsts) - 1)), len(firsts)]
    starts = np.r_[0, np.cumsum(sizes)][bounds]
    groups = [order[starts[i] : starts[i + 1]] for i in range(len(starts) - 1)]
    labels = np.empty(n, dtype=np.int64)

    def run(i: int) -> None:
        rows = groups[i]
        labels[rows] = capped_mdav(
            X[rows], codes[rows], node[rows], per_class, shares, t, k, node_end=end[rows],
            task=task if i == 0 else task.silent(),
        )  # fmt: skip

    with ThreadPoolExecutor(max_workers=min(workers, len(groups))) as pool:
        for future in [pool.submit(run, i) for i in range(len(groups))]:
            future.result()
    return labels


#: fewer records than this are not worth a second thread
WORKER_MIN_RECORDS = 100_000
#: groups of blocks formed apart above WORKER_MIN_RECORDS (fixed: see form_classes)
GROUPS = 8


def default_rounds(n: int) -> int:
    """Improvement rounds by file size: thorough up to 60,000 records, none for millions.

    A round costs about 0.2 s per 50,000 records on one core (more with many QI dimensions)
    and its gains shrink quickly; on a million records even two rounds would triple the time.
    """
    if n <= 60_000:
        return 20
    if n <= LARGE_FILE:
        return 3
    return 0


def improve_within_bounds(
    X: np.ndarray,
    labels: np.ndarray,
    codes: np.ndarray,
    shares: np.ndarray,
    t: float,
    k: int,
    rounds: int,
    task: Task,
    *,
    fence: np.ndarray | None = None,
) -> np.ndarray:
    """Exchanges and moves between neighbouring classes that keep every class t-close (and,
    with a ``fence`` per record, inside its fence: :class:`~engine.release.improve.ClassBounds`)."""
    largest = int(np.bincount(labels).max())
    bounds = bucket_bounds(codes, shares, t, k, max(2 * k - 1, 2 * largest - 1))
    if fence is not None:
        bounds = ClassBounds(bounds.codes, bounds.low, bounds.high, fence=fence)
    return improve_classes(
        X,
        labels,
        k,
        bounds=bounds,
        n_near=2,
        swap_slack=1.0,
        tol=1e-3,
        max_rounds=rounds,
        task=task,
    )


def bucket_bounds(
    codes: np.ndarray, shares: np.ndarray, t: float, k: int, max_size: int
) -> ClassBounds:
    """The t-closeness bounds as a :class:`ClassBounds` table for classes up to ``max_size``.

    A class of m ≥ k records may hold between ceil(m·p_j/t) and floor(m·p_j·t) records of
    bucket j (KBS 2015 §6.2, with the feasibility module's rounding); sizes below k are ruled out.
    """
    sizes = np.arange(max_size + 1)
    low, high = BoundRates(shares, t)(sizes[:, None].astype(np.float64))
    low[sizes < k] = max_size + 1  # no count fits: too small a class
    return ClassBounds(codes=np.asarray(codes, dtype=np.int64), low=low, high=high)


def _dense(labels: np.ndarray) -> np.ndarray:
    _, inv = np.unique(labels, return_inverse=True)
    return inv.astype(np.int64)


__all__ = [
    "BLOCKS_THRESHOLD",
    "DEFAULT_BLOCK_SIZE",
    "LARGE_FILE",
    "POINTS_THRESHOLD",
    "bucket_bounds",
    "capped_mdav",
    "form_classes",
    "split_nodes",
    "tclose_blocks",
    "use_blocks",
]
