"""Refining a t-close partition without touching its guarantee: exact exchanges and bounded
moves between neighbouring classes, and the records of each bucket reassigned among the classes.

A partition made by bucket-capped MDAV (:mod:`engine.release.partition.exact`, or block by
block, :mod:`engine.release.partition.blocks`) forms its classes one after the other; the
last ones take what is left, and every class keeps records it took early that are nearer to
another class.  :func:`refine_classes` repairs that in rounds, each over the classes and the
few (:data:`NEIGHBOURS`) whose centroids lie nearest to each:

1. **Exact exchanges** (``exchange_sweep``): for a class a, a neighbour b and a bucket j, the
   records of j in a and b are shared out again, a keeping as many as it had, so that a takes
   those with the least |x − μa|² − |x − μb|²: the exact transportation problem of two
   classes.  Every class keeps its size and its count of every bucket, so k and t cannot
   change.
2. **Bounded moves** (``move_sweep``): a record moves to a neighbouring class when that lowers
   the QI sum of squares and both classes stay inside ceil(m·p_j/t) ≤ n_j ≤ floor(m·p_j·t)
   with m ≥ k (KBS 2015 §6.2), so class sizes may change, never k or t.
3. **Capacity-fixed Lloyd steps** (:func:`transport_step`, every other round): with the
   centroids fixed, the records of each bucket are reassigned among all the classes so that
   every class keeps exactly its count of the bucket, at the least total squared distance:
   a transportation problem per bucket, solved by an auction with ε-scaling over each
   record's own class and the classes nearest to it; kept only when it costs less.

The centroids follow every exchange and move at once (Gauss–Seidel).  The work is bounded in
*passes over the records* (an exchange or move sweep is about one, a transportation step about
:data:`TRANSPORT_PASSES`): :func:`refine_passes` allows a share (:data:`BUDGET`) of the work
per record of the partition itself, between :data:`MIN_PASSES` and :data:`MAX_PASSES`, and
the rounds stop earlier when one gains less than :data:`MIN_GAIN` of what the first gained.
The budget depends on the file's size and class size only, never on the clock, so a release
is reproducible.

Every loop is one plain-Python function (:mod:`engine.release.partition.sweeps`) that
:mod:`engine.release.partition.compiled` compiles with numba; without numba the same functions
run as they are (the same classes, slower).  :func:`improve_within_bounds` (the numpy exchange
pass of :mod:`engine.release.partition.improve`) stays for the household route.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from engine.i18n import _
from engine.progress import NO_TASK, Task
from engine.release.partition import sweeps
from engine.release.partition.feasibility import BoundRates
from engine.release.partition.improve import ClassBounds, improve_classes
from engine.release.partition.kernels import compiled_kernels
from engine.release.partition.neighbours import nearest_points

#: classes a record may go to: its own and this many whose centroids lie nearest to it
NEIGHBOURS = 8
#: the refinement may spend this share of the partition's work per record (refine_passes)
BUDGET = 0.25
#: the share of the block route, whose compiled partition costs far less per comparison:
#: blocks of 2,000 records and classes of 10 allow 8 passes, the 1,000-record blocks of a file
#: above LARGE_FILE 4 (a million synthetic records: 12.3 CPU-s in all, 20.2 with twice this
#: share, 94 with the exact route's share and its transportation steps)
BLOCK_BUDGET = 0.08
#: ... but at least this many passes over the records, and at most this many
MIN_PASSES = 2.0
MAX_PASSES = 16.0
#: the work a trial partition's refinement may spend (one round of exchanges and moves): the
#: choice of b and of the class size compares trials refined alike, the release gets the rest
TRIAL_PASSES = 2.0
#: transportation steps run on files of at most this many records: an auction over a bucket
#: of a hundred thousand records costs more than the whole partition, and on the real files
#: of tests/data the steps add less than 2 % to what the exchanges and moves gain
TRANSPORT_MAX_RECORDS = 50_000
#: a transportation step costs about this many passes (an exchange or a move sweep one)
TRANSPORT_PASSES = 3.0
#: steps go on while one gains at least this share of what the first one gained
MIN_GAIN = 0.1
#: the auction stops refining prices at this share of the spread of the costs
EPS_LAST = 1e-3
#: ε falls by this factor from one phase of the auction to the next
EPS_FACTOR = 6.0
#: the most bids per record before the auction gives up (the classes then stay as they are)
MAX_BIDS_PER_RECORD = 200
#: from this many records on, the QIs are put in class order in place (refine_classes)
IN_PLACE_MIN_RECORDS = 100_000
#: buckets of fewer records than this are reassigned in the calling thread
THREAD_MIN_RECORDS = 5_000


def refine_classes(
    X: np.ndarray,
    labels: np.ndarray,
    codes: np.ndarray,
    *,
    t: float,
    k: int,
    shares: np.ndarray | None = None,
    fence: np.ndarray | None = None,
    passes: float | None = None,
    compiled: bool | None = None,
    parts: int = 1,
    task: Task = NO_TASK,
) -> np.ndarray:
    """The classes ``labels`` of the records (QIs ``X``, buckets ``codes``) refined: every
    class k-anonymous and t-close as before, with a lower or equal QI sum of squares.

    ``shares`` are the p_j the bounds refer to (the codes' own by default; a group of a larger
    file passes the file's).  With a ``fence`` per record, records move only between classes
    of their own fence (classes must not straddle fences).  ``passes`` is the work allowed, in
    passes over the records (module doc; None: :func:`refine_passes` of a partition into
    classes of the present mean size, 0: none).  ``compiled`` False runs the loops in plain
    Python (the same classes; None: compiled when numba runs here).  ``parts`` > 1 refines
    that many runs of consecutive labels apart, each in a thread of its own (records move
    only within their part): the block route numbers its classes block by block along its
    k-d split, so the two halves of the labels are the two halves of the space, and 96 % of
    the neighbours of a million synthetic records' classes lie in their own half.  The parts
    do not depend on the threads, so neither do the classes.  Returns labels 0..C'−1
    (C' ≤ C: a class may empty).
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim == 1:
        X = X[:, None]
    labels = np.asarray(labels, dtype=np.int64)
    codes = np.asarray(codes, dtype=np.int64)
    n = len(labels)
    if n == 0 or int(labels.max()) < 1 or X.shape[1] == 0:
        return _dense(labels)
    if shares is None:
        shares = np.bincount(codes) / n
    # the compiled loops, or the very same ones in plain Python (module sweeps): the same
    # classes either way; jit says once when the compiled ones cannot run
    kernels = compiled_kernels(compiled) or sweeps
    labels = _dense(labels)
    if passes is None:
        passes = refine_passes(n, n / (int(labels.max()) + 1))
    # the records of each class side by side in memory: the sweeps visit them class by class,
    # and a million records read in the file's order spend most of their time waiting on memory
    order = np.argsort(labels, kind="stable")
    # a large file's QIs are put in class order where they lie, and back afterwards (a copy
    # would be the run's peak of memory: 88 MB for a million records of 11 columns)
    in_place = X.flags.writeable and X.flags.c_contiguous and n >= IN_PLACE_MIN_RECORDS
    if in_place:
        _permute_rows(X, order, kernels)
    else:
        X = X[order]

    def start(X, labels, codes, fence) -> _Refiner:  # one part's refiner
        return _Refiner(X, labels, codes, shares, t, k, fence, kernels)

    try:
        sorted_fence = None if fence is None else np.asarray(fence)[order]
        refined = _refine_in_parts(
            X, labels[order], codes[order], sorted_fence, start, parts=parts, passes=passes,
            task=task,
        )  # fmt: skip
    finally:
        if in_place:
            inverse = np.empty_like(order)
            inverse[order] = np.arange(n)
            _permute_rows(X, inverse, kernels)
    out = np.empty(n, dtype=np.int64)
    out[order] = refined
    return out


def _permute_rows(X: np.ndarray, order: np.ndarray, kernels) -> None:
    """``X[:] = X[order]`` in place: by the compiled kernel (cycle by cycle, 0.1 s for a
    million records of 11 columns), else a column at a time in numpy (0.3 s; the temporary is
    one column, not the matrix).  A permutation is exact: both give the same matrix."""
    if kernels is not sweeps:
        kernels.permute_rows(X, order)
        return
    for j in range(X.shape[1]):
        X[:, j] = X[order, j]


def _refine_in_parts(
    X: np.ndarray,
    labels: np.ndarray,
    codes: np.ndarray,
    fence: np.ndarray | None,
    start,
    *,
    parts: int,
    passes: float,
    task: Task,
) -> np.ndarray:
    """The labels of records already in class order refined in ``parts`` runs of consecutive
    classes apart, each in a thread: every part is a slice of the records, refined by
    ``start(X, labels, codes, fence)`` of its slices (labels from 0)."""
    m = int(labels[-1]) + 1
    parts = max(1, min(int(parts), m // 2))
    # part p holds the classes m·p//parts .. m·(p+1)//parts − 1, its records one slice
    cuts = np.searchsorted(labels, (np.arange(parts + 1) * m) // parts)

    def refine(p: int) -> np.ndarray:
        a, b = cuts[p], cuts[p + 1]
        own = None if fence is None else fence[a:b]
        work = start(X[a:b], labels[a:b] - labels[a], codes[a:b], own)
        return work.run(passes, task if p == 0 else task.silent())

    if parts == 1:
        return refine(0)
    with ThreadPoolExecutor(max_workers=min(parts, os.cpu_count() or 1)) as pool:
        done = list(pool.map(refine, range(parts)))
    offsets = np.cumsum([0] + [int(d.max()) + 1 for d in done[:-1]])
    return np.concatenate([d + o for d, o in zip(done, offsets, strict=True)])


def refine_passes(n: int, class_size: float, block: int | None = None) -> float:
    """The work the refinement may spend, in passes over the records: a share
    (:data:`BUDGET`) of the partition's own work per record, between :data:`MIN_PASSES` and
    :data:`MAX_PASSES`.

    Bucket-capped MDAV compares every record with about the records still free when its class
    is formed: n / (2·m) per class of m records on the whole file, ``block`` / (2·m) inside the
    blocks of the large-file route, whose compiled kernels make a comparison far cheaper
    (:data:`BLOCK_BUDGET`, a smaller share).  The refinement's steps cost about a pass each,
    so small files, whose exact partition costs most per record, are refined longest, and
    the cost per record of the whole partition falls, never rises, as a file grows.
    """
    if block is None:
        work = BUDGET * n / (2.0 * max(class_size, 1.0))
    else:
        work = BLOCK_BUDGET * min(n, block) / (2.0 * max(class_size, 1.0))
    return float(min(max(work, MIN_PASSES), MAX_PASSES))


class _Refiner:
    """The classes under refinement: labels, per-class sums, sizes and bucket counts, the
    t-closeness bounds by class size, and each class's neighbours."""

    def __init__(self, X, labels, codes, shares, t, k, fence, kernels) -> None:
        self.X, self.labels, self.codes, self.kernels = X, labels, codes, kernels
        self.t, self.k, self.shares = t, k, shares
        self.m = m = int(labels.max()) + 1
        self.n_b = n_b = max(int(codes.max()) + 1, len(shares))
        self.sizes = np.bincount(labels, minlength=m).astype(np.int64)
        self.sums = _sums(X, labels, m)
        self.counts = np.bincount(labels * n_b + codes, minlength=m * n_b).reshape(m, n_b)
        largest = int(self.sizes.max())
        bounds = bucket_bounds(codes, shares, t, k, max(2 * k - 1, 2 * largest - 1))
        self.low = np.ascontiguousarray(bounds.low, dtype=np.int64)
        self.high = np.ascontiguousarray(bounds.high, dtype=np.int64)
        self.fence, self.class_fence = fence, None
        if fence is not None:
            self.class_fence = np.zeros(m, dtype=np.int64)
            self.class_fence[labels] = np.asarray(fence, dtype=np.int64)
        # Σ|x|² once, without an n × d temporary (a million records' QIs are ~90 MB)
        self.quad = float(np.einsum("ij,ij->", X, X))
        self.eps = 1e-9 * max(self.quad / len(X), 1e-300)

    def sse(self) -> float:
        live = self.sizes > 0
        return self.quad - float(((self.sums[live] ** 2).sum(axis=1) / self.sizes[live]).sum())

    def neighbours(self) -> np.ndarray:
        """Each class's nearest classes by centroid, itself first (−1: none, or another
        fence's); empty classes have none."""
        live = np.flatnonzero(self.sizes > 0)
        reach = min(len(live), NEIGHBOURS + 1)
        near = np.full((self.m, max(reach, 1)), -1, dtype=np.int64)
        if reach < 2:
            near[live, 0] = live
            return near
        centroids = self.sums[live] / self.sizes[live][:, None]
        found = nearest_points(centroids, reach)
        near[live] = _own_first(live, live[found.reshape(len(live), reach)], self.class_fence)
        return near

    def run(self, passes: float, task: Task) -> np.ndarray:
        spent = 0.0
        sse = self.sse()
        first_gain = None
        step = 0
        while spent + 1.0 <= passes:
            task.step(min(spent / max(passes, 1.0), 1.0), _("Refining classes"))
            before = sse
            near = self.neighbours()
            self.exchange(near)
            self.move(near)
            spent += 2.0
            transport = len(self.labels) <= TRANSPORT_MAX_RECORDS
            if transport and spent + TRANSPORT_PASSES <= passes and step % 2 == 1:
                self.transport()
                spent += TRANSPORT_PASSES
            sse = self.sse()
            gain = before - sse
            first_gain = gain if first_gain is None else first_gain
            step += 1
            if gain <= MIN_GAIN * max(first_gain, 0.0) or gain <= self.eps:
                break
        task.step(1.0, _("Classes refined"))
        return _dense(self.labels)

    def exchange(self, near: np.ndarray) -> None:
        key = self.labels * self.n_b + self.codes
        perm = np.argsort(key, kind="stable").astype(np.int64)
        off = np.zeros(self.m * self.n_b + 1, dtype=np.int64)
        off[1:] = np.cumsum(np.bincount(key, minlength=self.m * self.n_b))
        kernels, sizes = self.kernels, self.sizes.astype(np.float64)
        kernels.exchange_sweep(self.X, self.labels, near, self.sums, sizes, perm, off, self.n_b)

    def move(self, near: np.ndarray) -> None:
        order = np.argsort(self.labels, kind="stable").astype(np.int64)
        self.kernels.move_sweep(
            self.X, self.labels, self.codes, near, self.sums, self.sizes, self.counts,
            self.low, self.high, order, self.eps,
        )  # fmt: skip

    def transport(self) -> None:
        labels, _ = transport_step(self.X, self.labels, self.codes, self.kernels, fence=self.fence)
        # the step keeps every class's size and bucket counts: only the sums move
        self.labels = labels
        self.sums = _sums(self.X, labels, self.m)


def transport_step(
    X: np.ndarray,
    labels: np.ndarray,
    codes: np.ndarray,
    kernels,
    *,
    fence: np.ndarray | None = None,
    neighbours: int = NEIGHBOURS,
) -> tuple[np.ndarray, float]:
    """One capacity-fixed Lloyd step (module doc): (the new labels, their QI sum of squares).

    The centroids are those of ``labels``; every bucket is one transportation problem, solved
    apart (in threads for large buckets: the kernel runs without the interpreter lock).
    """
    m = int(labels.max()) + 1
    sizes = np.bincount(labels, minlength=m)
    centroids = _sums(X, labels, m) / np.maximum(sizes, 1)[:, None]
    live = np.flatnonzero(sizes > 0)
    reach = min(len(live), neighbours + 1)
    near = np.full((m, reach), -1, dtype=np.int64)
    if reach > 1:
        class_fence = None
        if fence is not None:
            class_fence = np.zeros(m, dtype=np.int64)
            class_fence[labels] = np.asarray(fence, dtype=np.int64)
        found = nearest_points(centroids[live], reach)
        near[live] = _own_first(live, live[found.reshape(len(live), reach)], class_fence)
    else:
        near[live, 0] = live
    order = np.argsort(codes, kind="stable")
    cuts = np.searchsorted(codes[order], np.arange(int(codes.max()) + 2))
    problems = [order[cuts[j] : cuts[j + 1]] for j in range(len(cuts) - 1)]
    problems = [rows for rows in problems if len(rows)]

    def solve(rows: np.ndarray) -> np.ndarray | None:
        own = labels[rows]
        cap = np.bincount(own, minlength=m).astype(np.int64)
        cand = np.ascontiguousarray(near[own])
        new, after, before = kernels.transport(
            X, rows, centroids, cand, cap, EPS_LAST, EPS_FACTOR, MAX_BIDS_PER_RECORD * len(rows)
        )
        if new[0] < 0 or not after < before * (1.0 - 1e-12):
            return None
        return new

    big = [rows for rows in problems if len(rows) >= THREAD_MIN_RECORDS]
    workers = min(len(big), os.cpu_count() or 1)
    if workers > 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            solved = list(pool.map(solve, problems))
    else:
        solved = [solve(rows) for rows in problems]
    out = labels.copy()
    for rows, new in zip(problems, solved, strict=True):
        if new is not None:
            out[rows] = new
    return out, _sse(X, out)


def _own_first(ids: np.ndarray, found: np.ndarray, fence: np.ndarray | None) -> np.ndarray:
    """Each class's neighbour list with the class itself first (a tie of equal centroids may
    put another first) and, with fences, the classes of other fences as −1."""
    is_self = found == ids[:, None]
    missing = ~is_self.any(axis=1)
    is_self[missing, -1] = True  # drop the farthest instead
    others = found[~is_self].reshape(len(ids), found.shape[1] - 1)
    out = np.column_stack([ids, others])
    if fence is not None:
        out[:, 1:][fence[out[:, 1:]] != fence[ids][:, None]] = -1
    return out


def _sums(X: np.ndarray, labels: np.ndarray, m: int) -> np.ndarray:
    """Per class, the sum of its members' QIs."""
    columns = [np.bincount(labels, weights=X[:, j], minlength=m) for j in range(X.shape[1])]
    return np.stack(columns, 1) if columns else np.zeros((m, 0))


def _sse(X: np.ndarray, labels: np.ndarray) -> float:
    """Within-class sum of squares of ``labels``."""
    m = int(labels.max()) + 1
    sizes = np.maximum(np.bincount(labels, minlength=m), 1)
    sums = _sums(X, labels, m)
    return float(np.einsum("ij,ij->", X, X) - ((sums * sums).sum(axis=1) / sizes).sum())


def default_rounds(n: int) -> int:
    """Improvement rounds by file size: thorough up to 60,000 records, none for millions.

    A round costs about 0.2 s per 50,000 records on one core (more with many QI dimensions); on a
    million records even two rounds would triple the time.  Eight rounds that also make the changes
    a class's first change left out (:func:`engine.release.partition.improve.improve_classes`) lose
    less than twenty that did not, at about 40 % of their time (census-like file, t = 2, k = 50: QI
    SSE/SST 0.130 against 0.143; t = 1.05, k = 500: 0.240 against 0.251).
    """
    if n <= 60_000:
        return 8
    if n <= EXCHANGE_MAX_RECORDS:
        return 3
    return 0


#: files larger than this run no exchange pass by default (:func:`default_rounds`)
EXCHANGE_MAX_RECORDS = 200_000


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
    with a ``fence`` per record, inside its fence:
    :class:`~engine.release.partition.ClassBounds`)."""
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
    """Labels renumbered 0..C−1 keeping their order (empty classes dropped)."""
    return np.unique(labels, return_inverse=True)[1].astype(np.int64).reshape(-1)


__all__ = [
    "TRIAL_PASSES",
    "bucket_bounds",
    "default_rounds",
    "improve_within_bounds",
    "refine_classes",
    "refine_passes",
    "transport_step",
]
