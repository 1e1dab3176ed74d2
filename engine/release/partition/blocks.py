"""Scalable k-anonymous t-close partitions for large files (KBS 2015 §6.2).

The exact partition (:func:`engine.release.tclose_partition`, bucket-capped MDAV) costs
O(N²/k); a million records need another route that keeps its guarantee and most of its
quality.

**Stratified k-d split.**  The whole file's balanced layout
(:mod:`engine.release.partition.feasibility`) says how many records of each bucket each of the C
classes holds; it is valid when the parameters are feasible at all.  The classes are numbered 0..C−1
and a node of the k-d tree owns a range of them, hence an exact number of records of every bucket.
A node splits its class range in two halves and gives the lower half, bucket by bucket, the records
of that bucket that lie lowest along the node's widest QI coordinate — exactly as many as the lower
classes own.  So every node keeps the global bucket mix (to within one record per class and bucket),
every block is feasible against the whole file's shares p_j, and, split all the way down, every leaf
is a valid class by construction.  Each level is one integer sort: O(N log N) per level.
A nominal QI is one coordinate (:func:`split_spreads`): its categories in their order, its
spread the sum of its indicator columns'.

**Classes inside blocks.**  The split stops at blocks of at most ``block_size`` records.
Inside each block the rule of the exact partition applies (a class of m records takes its
lo_j nearest records of each bucket j, then the nearest records whose bucket is below hi_j,
with a reserve that keeps the rest feasible), run in all blocks at once by
:func:`capped_mdav` so that the Python loop runs block_size / k times in all.  The exact
function itself, one call per block, is available as ``method="exact"`` (the reference).

**Improvement.**  Finally records are exchanged and moved between neighbouring classes
(:func:`engine.release.partition.improve.improve_classes`) whenever that lowers the QI SSE and keeps
both classes within their bucket bounds: this repairs the block borders and uses up the
allowance t.  Every class therefore satisfies ceil(|E|·p_j/t) ≤ n_Ej ≤ floor(|E|·p_j·t) and
|E| ≥ k at every stage, and the release verifier checks it again.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Literal

import numpy as np
from scipy.sparse import coo_array

from engine.i18n import _
from engine.progress import NO_TASK, Task
from engine.release.partition.exact import layout_counts, tclose_partition
from engine.release.partition.feasibility import BoundRates, check_feasible
from engine.release.partition.jit import KernelRoute, kernel_route, load_kernels
from engine.release.partition.kernels import compiled_kernels
from engine.release.partition.refine import refine_classes, refine_passes
from engine.release.partition.sizes import LARGE_FILE
from engine.release.partition.sizes import block_size as file_block_size

Method = Literal["lockstep", "exact"]

#: files larger than this may take the block path (see :func:`use_blocks`)
BLOCKS_THRESHOLD = 20_000
#: ... when they have more distinct QI points than this, or more records than LARGE_FILE
POINTS_THRESHOLD = 20_000


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
    if X.shape[0] == 0:
        out[:] = 0.0
        return out
    # the smallest and largest non-zero value of every column, a slice of rows at a time
    low = np.full(X.shape[1], np.inf)
    high = np.full(X.shape[1], -np.inf)
    step = max(1, (1 << 20) // max(X.shape[1], 1))
    with np.errstate(invalid="ignore"):
        for start in range(0, X.shape[0], step):
            part = X[start : start + step]
            zero = part == 0
            low = np.minimum(low, np.where(zero, np.inf, part).min(axis=0))
            high = np.maximum(high, np.where(zero, -np.inf, part).max(axis=0))
    out[np.isinf(low) & np.isinf(high)] = 0.0  # no non-zero value
    one = (low == high) & (low > 0) & np.isfinite(low)
    out[one] = low[one]
    return out


def nominal_runs(X: np.ndarray, binary: np.ndarray | None = None) -> tuple[tuple[int, int], ...]:
    """The column ranges (start, stop) of the nominal QIs in ``X``: runs of two or more
    adjacent indicator columns of one value (``binary``, from :func:`binary_columns`, computed
    when not given; columns all zero may lie among them) of which no record has two non-zero.

    :func:`engine.release.columns.encode_qi` writes a nominal QI as one such run (a missing
    value is one more category) and a hierarchy as one run per level; the next QI's first
    indicator breaks a run, since every record has one non-zero in every nominal QI.
    """
    if binary is None:
        binary = binary_columns(X)
    runs: list[tuple[int, int]] = []
    d = X.shape[1]
    j = 0
    while j < d:
        value = binary[j]
        if np.isnan(value) or value == 0:
            j += 1
            continue
        start, seen = j, X[:, j] != 0
        j += 1
        while j < d and (binary[j] == value or binary[j] == 0):
            nonzero = X[:, j] != 0
            if (seen & nonzero).any():
                break
            seen |= nonzero
            j += 1
        if j - start >= 2:
            runs.append((start, j))
    return tuple(runs)


def run_keys(X: np.ndarray, run: tuple[int, int]) -> np.ndarray:
    """Every record's category in a nominal run: 1 + the position of its non-zero column in
    it (0: none), the coordinate the k-d split orders the records by."""
    start, stop = run
    key = np.zeros(len(X), dtype=np.int64)
    for i, j in enumerate(range(start, stop)):
        key[X[:, j] != 0] = i + 1
    return key


def split_spreads(spread: np.ndarray, runs: Sequence[tuple[int, int]]) -> np.ndarray:
    """The spreads (nodes × columns) the split compares, one more column per nominal run:
    the sum of its columns' spreads (its share of the squared distances), its columns masked
    (−1), so that a nominal QI splits as one coordinate, its categories to either half.

    A QI of many categories spreads little in each of its columns (a category's share), and
    split column by column it would never be chosen: every block would mix all of a
    commune's hundred values, and so would every class.
    """
    if not runs:
        return spread
    out = np.concatenate([spread, np.zeros((len(spread), len(runs)))], axis=1)
    for i, (start, stop) in enumerate(runs):
        out[:, spread.shape[1] + i] = spread[:, start:stop].sum(axis=1)
        out[:, start:stop] = -1.0
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
    compiled: bool | None = None,
    workers: int | None = None,
    nominal: bool = False,
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
    ``compiled`` chooses the route as for :func:`capped_mdav` (the compiled one selects
    each half instead of sorting a level; the nodes are the same).  From
    :data:`WORKER_MIN_RECORDS` records on, the two halves of the root go on in two threads
    (unless ``workers`` is 1); they share nothing, so the nodes do not depend on it.
    """
    n = len(X)
    n_classes = per_class.shape[0]
    if start is None:
        lo = np.zeros(n, dtype=np.int64)  # first class of the record's node
        hi = np.full(n, n_classes, dtype=np.int64)  # one past its last class
    else:
        lo = np.array(start[0], dtype=np.int64)
        hi = np.array(start[1], dtype=np.int64)
    if n == 0:
        return lo, hi
    splitter = _Splitter(
        X, codes, per_class, lo, hi, max_records, compiled_kernels(compiled), start is None,
        nominal,
    )  # fmt: skip
    forever = 64 * splitter.total_levels + 64
    workers = max(1, int(workers or os.cpu_count() or 1))
    if start is not None or workers < 2 or n < WORKER_MIN_RECORDS:
        splitter.levels(None, forever, task)
        return lo, hi
    # the two halves of the root split nothing between them: each goes on in a thread of
    # its own (the compiled kernel and numpy's sorts run without the interpreter lock)
    splitter.levels(None, 1, task)
    middle = n_classes // 2
    halves = [np.flatnonzero(lo < middle), np.flatnonzero(lo >= middle)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        jobs = [
            pool.submit(splitter.levels, half, forever, task if i == 0 else task.silent())
            for i, half in enumerate(halves)
        ]
        for job in jobs:
            job.result()
    return lo, hi


class _Splitter:
    """The k-d split of :func:`split_nodes` under way: every record's node (``lo``, ``hi``,
    updated in place level by level) and the tables a level reads.

    The ranks along the coordinates that need a sort are computed once; a binary coordinate
    is ordered by (value, position) directly, so a level sorts integers only.  With the
    compiled kernels and a split from the root (``segments``), the records are also kept
    node by node in class order, each node bucket by bucket, so that a level rearranges
    every node's stretch in place (``split_segments``) with no sort at all.
    """

    def __init__(
        self,
        X: np.ndarray,
        codes: np.ndarray,
        per_class: np.ndarray,
        lo: np.ndarray,
        hi: np.ndarray,
        max_records: int,
        kernels,
        segments: bool,
        nominal: bool = False,
    ) -> None:
        n, d = X.shape
        n_classes, n_b = per_class.shape
        self.X, self.codes, self.lo, self.hi = X, codes, lo, hi
        self.n_classes, self.n_b, self.max_records, self.kernels = (
            n_classes,
            n_b,
            max_records,
            kernels,
        )
        self.cum = np.zeros((n_classes + 1, n_b), dtype=np.int64)
        self.cum[1:] = np.cumsum(per_class, axis=0)
        self.size_cum = self.cum.sum(axis=1)
        self.binary = binary_columns(X)
        sorted_dims = np.flatnonzero(np.isnan(self.binary))
        self.slot = np.zeros(d, dtype=np.int64)
        self.slot[sorted_dims] = np.arange(len(sorted_dims))
        # a nominal QI is one more coordinate, ordered by category: sorted like a numeric one
        self.runs = nominal_runs(X, self.binary) if nominal else ()
        keys = [X[:, j] for j in sorted_dims] + [run_keys(X, run) for run in self.runs]
        self.ranks = np.empty((len(keys), n), dtype=np.int32 if n < 2**31 else np.int64)
        for i, key in enumerate(keys):
            self.ranks[i, np.argsort(key, kind="stable")] = np.arange(n)
        # the split's coordinates: the columns, then the runs (sorted, their ranks last)
        self.split_binary = np.r_[self.binary, np.full(len(self.runs), np.nan)]
        self.slot = np.r_[self.slot, len(sorted_dims) + np.arange(len(self.runs))]
        self.total_levels = max(1, int(np.ceil(np.log2(max(n_classes, 2)))))
        self.all_rows = np.arange(n)
        self.perm = self.keys = self.spare = self.nonzero = self.bin_slot = None
        if kernels is not None and segments:
            self.perm = np.argsort(codes, kind="stable").astype(np.int64)
            self.keys = np.empty(n, dtype=np.int64)
            self.spare = np.empty(n, dtype=np.int64)
            binary_dims = np.flatnonzero(~np.isnan(self.binary))
            self.nonzero = np.zeros((max(len(binary_dims), 1), n), dtype=np.bool_)
            for i, j in enumerate(binary_dims):
                self.nonzero[i] = X[:, j] != 0
            # one slot table for both kinds: ranks for sorted dimensions, nonzero for binary ones
            self.bin_slot = self.slot.copy()
            self.bin_slot[binary_dims] = np.arange(len(binary_dims))

    def levels(self, scope: np.ndarray | None, most: int, task: Task) -> None:
        """Split the nodes of the records ``scope`` (None: all) for at most ``most`` levels."""
        lo, hi, size_cum, max_records = self.lo, self.hi, self.size_cum, self.max_records
        for level in range(most):
            task.step(min(level / self.total_levels, 1.0), _("Splitting into blocks"))
            if scope is None:
                live = (hi - lo > 1) & (size_cum[hi] - size_cum[lo] > max_records)
                everything = bool(live.all())
                rows = self.all_rows if everything else np.flatnonzero(live)
            else:
                s_lo, s_hi = lo[scope], hi[scope]
                live = (s_hi - s_lo > 1) & (size_cum[s_hi] - size_cum[s_lo] > max_records)
                everything = False
                rows = scope[live]
            if len(rows) == 0:
                return
            self.split_level(rows, everything)

    def nodes_of(self, rows: np.ndarray) -> np.ndarray:
        """The distinct (first, one past last class) nodes of ``rows``, by first class."""
        last_of = np.full(self.n_classes + 1, -1, dtype=np.int64)
        last_of[self.lo[rows]] = self.hi[rows]  # a scatter, no sort: every record of a node agrees
        firsts = np.flatnonzero(last_of >= 0)
        return np.column_stack([firsts, last_of[firsts]])

    def split_level(self, rows: np.ndarray, everything: bool) -> None:
        """Split every node of ``rows`` (``everything``: all records) along its widest
        coordinate, one level down."""
        X, lo, hi, kernels, binary = self.X, self.lo, self.hi, self.kernels, self.binary
        node = lo if everything else lo[rows]  # a node is named by its first class
        if kernels is None:
            Xr = X if everything else X[rows]
            sums = node_spreads(Xr, node, self.n_classes, binary)
        else:
            sums = _node_spreads_compiled(kernels, X, rows, node, self.n_classes, binary)
        dims = widest_dimension(split_spreads(spreads_from_sums(*sums), self.runs))
        binary = self.split_binary
        if self.perm is not None:
            kernels.split_segments(
                self.nonzero, self.ranks, self.bin_slot, binary, dims, self.cum, self.size_cum,
                self.nodes_of(rows), self.perm, lo, hi, self.keys, self.spare,
            )  # fmt: skip
            return
        if kernels is not None:
            kernels.split_level(
                X, self.codes, self.ranks, self.slot, binary, dims, self.cum, rows, lo, hi
            )
            return
        self._split_level_numpy(rows, node, dims)

    def _split_level_numpy(self, rows: np.ndarray, node: np.ndarray, dims: np.ndarray) -> None:
        """One level in numpy: sort by (node, bucket, value along the node's coordinate,
        position) and give each (node, bucket)'s first records, as many as the node's lower
        classes own, to the lower half."""
        X, codes, lo, hi, cum = self.X, self.codes, self.lo, self.hi, self.cum
        binary = self.split_binary
        n, d = X.shape
        dim = dims[node]
        group = node * self.n_b + codes[rows]
        is_bin = ~np.isnan(binary[dim])
        sub = np.empty(len(rows), dtype=np.int64)
        sr = ~is_bin
        if sr.any():
            sub[sr] = self.ranks.ravel()[self.slot[dim[sr]] * n + rows[sr]]
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


def _node_spreads_compiled(
    kernels, X: np.ndarray, rows: np.ndarray, node: np.ndarray, n_nodes: int, binary: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`node_spreads` of ``X[rows]`` by the compiled kernel: the same sums, in row order."""
    cnt = np.bincount(node, minlength=n_nodes).astype(np.float64)
    square = np.isnan(binary)
    s1, s2 = kernels.node_sums(np.ascontiguousarray(X), rows, node, n_nodes, square)
    s2[:, ~square] = s1[:, ~square] * binary[None, ~square]
    return cnt, s1, s2


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
    compiled: bool | None = None,
    task: Task = NO_TASK,
) -> np.ndarray:
    """Bucket-capped MDAV inside every block.

    The rule is :func:`engine.release.tclose_partition`'s: a class of m records (⌊n/C⌋ or
    ⌈n/C⌉ of the n records left for the C classes still to form) takes, for each bucket j, its
    ``lo_j`` nearest records of bucket j and then the nearest records whose bucket is below
    ``hi_j``, where (lo, hi) keep the reserve that lets the remaining classes be formed.  Seeds
    alternate as in MDAV: the live record farthest from the live centroid, then the one
    farthest from that seed.

    Two implementations give the same classes bit for bit (their shared arithmetic and tie
    rules are in :mod:`engine.release.partition.compiled`): the compiled kernel, block by block,
    when numba is installed (``compiled`` None or True), and numpy, where every step forms
    one class in every block with numpy operations over all blocks at once, so that the
    Python loop runs block_size / k times in all (``compiled=False``, or the environment
    variable ``TCLOSE_COMPILED=0``).

    ``node`` is the first class of every record's block (:func:`split_nodes`); the blocks
    tile the classes of the layout ``per_class``, whose block sums are feasible for ``shares``.
    ``node_end`` (one past every record's last class, from :func:`split_nodes`) is needed when
    the records are only some of the blocks (one partition of a cluster); the labels are
    always the layout's class numbers, so blocks formed apart never share one.
    """
    n_classes, n_b = per_class.shape
    rates = BoundRates(shares, t)
    firsts, block_of, classes_left = _blocks_of(node, node_end, n_classes)
    kernels = compiled_kernels(compiled)
    if kernels is not None:
        task.step(0.0, _("Forming classes"))
        widest = int(np.bincount(block_of, minlength=len(firsts)).max(initial=0))
        low_tab, up_tab = rates(np.arange(widest + 1, dtype=np.float64)[:, None])
        return kernels.label_blocks(X, codes, block_of, classes_left, firsts, low_tab, up_tab, k)
    return _capped_mdav_lockstep(X, codes, n_b, block_of, firsts, classes_left, rates, k, task)


def _capped_mdav_lockstep(
    X: np.ndarray,
    codes: np.ndarray,
    n_b: int,
    block_of: np.ndarray,
    firsts: np.ndarray,
    classes_left: np.ndarray,
    rates: BoundRates,
    k: int,
    task: Task,
) -> np.ndarray:
    """:func:`capped_mdav` in numpy: every step forms one class in every block still forming
    (``classes_left`` of them, numbered from ``firsts``), over all blocks at once."""
    n, d = X.shape
    n_blocks = len(firsts)
    labels = np.full(n, -1, dtype=np.int64)
    remaining = np.bincount(block_of * n_b + codes, minlength=n_blocks * n_b).reshape(n_blocks, n_b)
    n_left = remaining.sum(axis=1)
    total = np.stack(
        [np.bincount(block_of, weights=X[:, j], minlength=n_blocks) for j in range(d)], 1
    )
    lanes = _lanes_by_bucket(X, codes, block_of, n_blocks, n_b)
    label_next = firsts.copy()
    steps = int(classes_left.max(initial=0))
    seed = np.zeros((n_blocks, d))
    for s in range(2 * steps):
        on = classes_left > 0
        if not on.any():
            break
        task.step(s / (2 * steps), _("Forming classes"))
        # the seed: farthest from the live centroid, or (every other step) from the last seed
        ref = total / np.maximum(n_left, 1)[:, None] if s % 2 == 0 else seed.copy()
        seed = _farthest_records(lanes, ref, X, seed)
        lo, hi, m = _limits(remaining, n_left, classes_left, rates, k)
        lo[~on] = 0
        hi[~on] = 0
        m[~on] = 0
        # each bucket's nearest records to the seed, up to hi_j of them, by (distance, row)
        near = [lane.nearest(seed, int(hi[:, j].max(initial=0))) for j, lane in enumerate(lanes)]
        for j, (lane, take) in enumerate(zip(lanes, _taken(near, lo, hi, m), strict=True)):
            tb, tc = np.nonzero(take)
            if len(tb) == 0:
                continue
            cols = near[j][0][tb, tc]
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


def _blocks_of(
    node: np.ndarray, node_end: np.ndarray | None, n_classes: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the first class of every block, every record's block 0..B−1, the classes every block
    forms) from every record's first class (and, ``node_end``, one past its last; without it
    the blocks tile all ``n_classes``)."""
    firsts = np.unique(node)
    block_of = np.searchsorted(firsts, node)
    if node_end is None:
        classes_left = np.diff(np.r_[firsts, n_classes]).astype(np.int64)
    else:
        ends = np.zeros(len(firsts), dtype=np.int64)
        ends[block_of] = node_end
        classes_left = ends - firsts
    return firsts, block_of, classes_left


def _lanes_by_bucket(
    X: np.ndarray, codes: np.ndarray, block_of: np.ndarray, n_blocks: int, n_b: int
) -> list[_Lanes]:
    """Per bucket, its records in every block as :class:`_Lanes`, each block's in row order."""
    order = np.lexsort((block_of, codes))
    lanes = []
    for j in range(n_b):
        members = order[codes[order] == j]
        blk = block_of[members]
        sizes = np.bincount(blk, minlength=n_blocks)
        width = int(sizes.max(initial=0))
        starts = np.r_[0, np.cumsum(sizes)[:-1]]
        idx = np.full((n_blocks, width), -1, dtype=np.int64)
        idx[blk, np.arange(len(members)) - starts[blk]] = members
        lanes.append(_Lanes(idx, X))
    return lanes


def _farthest_records(
    lanes: list[_Lanes], ref: np.ndarray, X: np.ndarray, seed: np.ndarray
) -> np.ndarray:
    """Per block, the live record farthest from ``ref`` (ties: the lowest bucket, then the
    first row); a block with no live record keeps its ``seed``."""
    seed = seed.copy()
    best = np.full(len(ref), -np.inf)
    rows_b = np.arange(len(ref))
    for lane in lanes:
        far, value = lane.farthest(ref)
        better = value > best
        best[better] = value[better]
        seed[better] = X[lane.idx[rows_b[better], far[better]]]
    return seed


def _taken(
    near: list[tuple[np.ndarray, np.ndarray]], lo: np.ndarray, hi: np.ndarray, m: np.ndarray
) -> list[np.ndarray]:
    """Per bucket j, which of its nearest records (``near``: positions and distances by
    rank) every block's next class takes: the first lo_j (mandatory), then of the next ones up
    to hi_j the nearest by (distance, bucket, rank) until the class holds m."""
    n_blocks = len(m)
    opt_d = []
    for j, (pos, dist) in enumerate(near):
        rank = np.arange(pos.shape[1])[None, :]
        opt = (rank >= lo[:, j : j + 1]) & (rank < hi[:, j : j + 1]) & np.isfinite(dist)
        opt_d.append(np.where(opt, dist, np.inf))
    opt_d_all = np.concatenate(opt_d, axis=1)
    rank_opt = np.argsort(opt_d_all, axis=1, kind="stable")
    need = m - lo.sum(axis=1)
    chosen = np.zeros(opt_d_all.shape, dtype=bool)
    rows_b = np.arange(n_blocks)
    chosen[rows_b[:, None], rank_opt] = np.arange(rank_opt.shape[1])[None, :] < need[:, None]
    offsets = np.cumsum([0] + [p.shape[1] for p, _rows in near])
    takes = []
    for j, (pos, _dist) in enumerate(near):
        rank = np.arange(pos.shape[1])[None, :]
        takes.append((rank < lo[:, j : j + 1]) | chosen[:, offsets[j] : offsets[j + 1]])
    return takes


class _Lanes:
    """The live records of one bucket in every block: a (blocks × width) padded table, each row
    in row order; coordinates are kept (d × blocks × width) for the distance sums."""

    def __init__(self, idx: np.ndarray, X: np.ndarray) -> None:
        self.idx = idx
        self.alive = idx >= 0
        self.Z = np.moveaxis(X[np.maximum(idx, 0)], 2, 0).copy()

    def _dist(self, ref: np.ndarray) -> np.ndarray:
        # Σ_c (z_c − r_c)², coordinates in order: the compiled kernel's arithmetic exactly
        out = np.zeros(self.Z.shape[1:])
        for c in range(self.Z.shape[0]):
            diff = self.Z[c] - ref[:, c : c + 1]
            out += diff * diff
        return out

    def farthest(self, ref: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.Z.shape[2] == 0:
            return np.zeros(len(ref), dtype=np.int64), np.full(len(ref), -np.inf)
        d2 = np.where(self.alive, self._dist(ref), -np.inf)
        far = np.argmax(d2, axis=1)  # the first of equals: the earliest row
        return far, d2[np.arange(len(ref)), far]

    def nearest(self, ref: np.ndarray, h: int) -> tuple[np.ndarray, np.ndarray]:
        """Columns of the h nearest live records per block, by (distance, row), and distances."""
        width = self.Z.shape[2]
        h = min(h, width)
        if h == 0:
            return np.zeros((len(ref), 0), dtype=np.int64), np.zeros((len(ref), 0))
        d2 = np.where(self.alive, self._dist(ref), np.inf)
        if h < width:
            # the h smallest by (distance, column): all below the h-th distance, then the
            # first columns among those equal to it (dead records are inf: they fill up)
            kth = np.partition(d2, h - 1, axis=1)[:, h - 1 : h]
            below = d2 < kth
            tie = d2 == kth
            room = h - below.sum(axis=1, keepdims=True)
            pick = below | (tie & (np.cumsum(tie, axis=1) <= room))
            cand = np.nonzero(pick)[1].reshape(len(ref), h)
        else:
            cand = np.broadcast_to(np.arange(width), (len(ref), width))
        cd = np.take_along_axis(d2, cand, axis=1)
        o = np.argsort(cd, axis=1, kind="stable")
        return np.take_along_axis(cand, o, axis=1), np.take_along_axis(cd, o, axis=1)

    def kill(self, rows: np.ndarray, cols: np.ndarray) -> None:
        self.alive[rows, cols] = False
        live = self.alive.sum(axis=1)
        top = int(live.max(initial=0))
        if top * 2 < self.alive.shape[1]:  # drop dead columns: live records first, in order
            keep = np.argsort(~self.alive, axis=1, kind="stable")[:, :top]
            self.idx = np.take_along_axis(self.idx, keep, axis=1)
            self.Z = np.take_along_axis(self.Z, keep[None, :, :], axis=2)
            self.alive = np.take_along_axis(self.alive, keep, axis=1)


def _limits(
    remaining: np.ndarray, n_left: np.ndarray, classes_left: np.ndarray, rates: BoundRates, k: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per block: (lo, hi) per bucket and size m of the next class, keeping the reserve.

    The vectorised form of :func:`engine.release.partition.exact._class_limits`: m is ⌊n/C⌋ when
    that admits a class, else ⌈n/C⌉.
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
    refine: float | None = None,
    workers: int | None = None,
    compiled: bool | None = None,
    nominal: bool = False,
    seed: int | None = None,
    task: Task = NO_TASK,
) -> np.ndarray:
    """Class label of every record: k-anonymous, t-close classes for a large file (module doc).

    Same contract as :func:`engine.release.tclose_partition`; raises
    :class:`~engine.errors.InfeasibleError` when no valid partition exists.  ``method``:
    ``"lockstep"`` (default) runs the bucket-capped MDAV in all blocks at once,
    ``"exact"`` calls :func:`~engine.release.tclose_partition` block by block (the same
    rule, one Python call per block: the reference, slower on millions of records).
    ``refine`` is the work the refinement of the classes may spend, in passes over the
    records (:func:`~engine.release.partition.refine.refine_classes`; None: its budget for
    blocks of ``block_size`` records, 0: no refinement), ``block_size`` the blocks (None: by
    file size).  ``workers`` threads form the classes of disjoint
    groups of blocks (None: one per core); the classes do not depend on it, nor on
    ``compiled`` (None: the compiled kernels from :data:`COMPILED_MIN_RECORDS` records on,
    when numba is installed; see :func:`form_classes`).
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
    if block_size is None:
        block_size = file_block_size(n)
    if compiled is None and n < COMPILED_MIN_RECORDS:
        compiled = False
    task.step(0.0, _("Splitting into blocks"))
    node, end = split_nodes(
        X,
        codes,
        per_class,
        max_records=block_size,
        compiled=compiled,
        nominal=nominal,
        task=task.sub(0.0, 0.1),
    )
    if refine is None:
        refine = refine_passes(n, n / max(n_classes, 1), block=block_size)
    form = task.sub(0.1, 0.6 if refine else 1.0)
    if method == "lockstep":
        labels = form_classes(
            X, codes, node, end, per_class, shares, t, k, workers=workers, compiled=compiled,
            task=form,
        )  # fmt: skip
    else:
        labels = _exact_in_blocks(X, codes, node, k, t, shares, form)
    if refine:
        labels = refine_classes(
            X, labels, codes, t=t, k=k, shares=shares, passes=refine, task=task.sub(0.6, 1.0),
        )  # fmt: skip
    task.step(1.0, _("Classes formed"))
    return _dense(labels)


def _exact_in_blocks(
    X: np.ndarray,
    codes: np.ndarray,
    node: np.ndarray,
    k: int,
    t: float,
    shares: np.ndarray,
    task: Task,
) -> np.ndarray:
    """Class label of every record, formed by the exact partition block by block (``node``:
    every record's block), numbered on from block to block (``method="exact"``)."""
    order = np.argsort(node, kind="stable")
    cuts = np.flatnonzero(np.r_[True, node[order][1:] != node[order][:-1], True])
    labels = np.empty(len(codes), dtype=np.int64)
    offset = 0
    for i in range(len(cuts) - 1):
        task.step(i / (len(cuts) - 1), _("Forming classes"))
        members = order[cuts[i] : cuts[i + 1]]
        sub = tclose_partition(X[members], codes[members], k, t, shares=shares)
        labels[members] = sub + offset
        offset += int(sub.max()) + 1
    return labels


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
    compiled: bool | None = None,
    task: Task = NO_TASK,
) -> np.ndarray:
    """:func:`capped_mdav` on the blocks ``[node, end)``, run by ``workers`` threads.

    Above :data:`WORKER_MIN_RECORDS` records the blocks are cut into :data:`GROUPS` groups of
    about equal size along the class numbers and each group runs on its own; the compiled
    kernel runs without the interpreter lock, and numpy releases it in most of its work, so
    two cores nearly halve the time.  Blocks are independent, so the classes depend neither on
    the grouping nor on the number of cores.

    ``compiled`` None uses the compiled kernel from :data:`COMPILED_MIN_RECORDS` records on,
    when numba is installed: below that numpy is fast enough, and a fresh installation need
    not compile first (about 7 CPU-seconds once; loading the cached kernel takes 0.6).
    """
    n = len(codes)
    workers = max(1, int(workers or os.cpu_count() or 1))
    if compiled is None and n < COMPILED_MIN_RECORDS:
        compiled = False
    firsts = np.unique(node)
    if len(firsts) < 2 * GROUPS or n < WORKER_MIN_RECORDS:
        return capped_mdav(
            X, codes, node, per_class, shares, t, k, node_end=end, compiled=compiled, task=task,
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
            compiled=compiled, task=task if i == 0 else task.silent(),
        )  # fmt: skip

    with ThreadPoolExecutor(max_workers=min(workers, len(groups))) as pool:
        for future in [pool.submit(run, i) for i in range(len(groups))]:
            future.result()
    return labels


#: fewer records than this are not worth a second thread
WORKER_MIN_RECORDS = 100_000
#: from this many records on, classes are formed by the compiled kernel when numba is there
COMPILED_MIN_RECORDS = 100_000
#: groups of blocks formed apart above WORKER_MIN_RECORDS (fixed: see form_classes)
GROUPS = 8


def _dense(labels: np.ndarray) -> np.ndarray:
    _, inv = np.unique(labels, return_inverse=True)
    return inv.astype(np.int64)


def kernel_check(n: int = 3_000) -> tuple[KernelRoute, int, bool]:
    """Run the compiled route on ``n`` seeded records and compare it with the numpy route:
    (this process's route, the classes formed, True when both routes formed the same
    classes, or when only the numpy route is here).  What an installation's smoke test
    runs, since a small release never needs the kernels."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 3))
    codes = rng.integers(0, 4, n)
    counts = np.bincount(codes, minlength=4)
    per_class = layout_counts(counts, n // 10)
    shares = counts / n

    def classes(compiled: bool) -> np.ndarray:
        node, end = split_nodes(X, codes, per_class, max_records=500, compiled=compiled)
        return form_classes(X, codes, node, end, per_class, shares, 3.0, 5, compiled=compiled)

    numpy_route = classes(False)
    kernels = load_kernels()
    route = kernel_route()
    assert route is not None
    if kernels is None:
        return route, int(numpy_route.max()) + 1, True
    compiled_route = classes(True)
    same = bool(np.array_equal(compiled_route, numpy_route))
    return route, int(compiled_route.max()) + 1, same


__all__ = [
    "BLOCKS_THRESHOLD",
    "POINTS_THRESHOLD",
    "capped_mdav",
    "form_classes",
    "kernel_check",
    "split_nodes",
    "tclose_blocks",
    "use_blocks",
]
