"""Partition records into k-anonymous t-close classes (KBS 2015 §6.2–6.3).

:func:`tclose_partition` is MDAV (maximum distance to average vector) with per-bucket caps:

1. the remaining record farthest from the remaining centroid seeds a class, then the record
   farthest from that seed seeds the next one;
2. a class of m records takes, for every bucket j, its ``lo_j`` records of bucket j nearest to
   the seed, then fills up with the nearest records whose bucket is still below ``hi_j``.  The
   caps ``hi_j`` go up to floor(m·p_j·t): a class may emphasise the buckets its neighbours
   fall in, which is what buys QI homogeneity ("using up the allowance t");
3. ``lo_j``/``hi_j`` also hold a *reserve*: what remains after the class must still admit the
   balanced layout of :mod:`engine.release.partition.feasibility` with one class fewer.  That layout
   is valid at the start (this is the feasibility check), and removing one of its classes leaves a
   valid layout, so a class meeting the reserve always exists and the loop never gets stuck.  The
   last class takes what remains and meets the bounds by the same invariant.

Classes have ⌊n/C⌋ or ⌈n/C⌉ of the n remaining records for the C classes still to form, so
no leftover records need placing.  :func:`balanced_layout` builds the layout itself (classes
are chunks of every bucket along the first principal axis of the QIs): the witness, and the
fallback should the greedy step ever find no class.

The work is O(N²/k·d) in vectorised numpy, a few seconds for tens of thousands of records;
``engine.release.partition.blocks`` splits larger files and passes the whole file's ``shares``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from engine.i18n import _
from engine.progress import NO_TASK, Task
from engine.release.partition.feasibility import BoundRates, check_feasible


def principal_order(X: np.ndarray) -> np.ndarray:
    """Record order along the first principal axis (ties broken by position)."""
    n = len(X)
    if n <= 1:
        return np.arange(n)
    centred = X - X.mean(axis=0)
    cov = centred.T @ centred
    _, vecs = np.linalg.eigh(cov)
    axis = vecs[:, -1]
    # fix the sign so the order does not flip between platforms
    pivot = int(np.argmax(np.abs(axis)))
    if axis[pivot] < 0:
        axis = -axis
    proj = centred @ axis
    return np.lexsort((np.arange(n), np.round(proj, 12)))


def layout_counts(counts: np.ndarray, n_classes: int) -> np.ndarray:
    """(C, b) records of each bucket per class in the balanced layout (deal by bucket)."""
    counts = np.asarray(counts, dtype=np.int64)
    c = int(n_classes)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    ends = starts + counts
    i = np.arange(c)[:, None]

    def dealt(x: np.ndarray) -> np.ndarray:  # positions p < x with p ≡ i (mod C)
        return np.maximum(-(-(x[None, :] - i) // c), 0)

    return dealt(ends) - dealt(starts)


def balanced_layout(X: np.ndarray, codes: np.ndarray, n_classes: int) -> np.ndarray:
    """Class of every record in the balanced layout with ``n_classes`` classes.

    Inside every bucket, records are ordered along the first principal axis and class i
    takes the i-th chunk, so classes are homogeneous along that axis.
    """
    codes = np.asarray(codes, dtype=np.int64)
    n_b = int(codes.max()) + 1 if len(codes) else 0
    counts = np.bincount(codes, minlength=n_b)
    per_class = layout_counts(counts, n_classes)
    order = principal_order(X)
    labels = np.empty(len(codes), dtype=np.int64)
    for j in range(n_b):
        members = order[codes[order] == j]
        labels[members] = np.repeat(np.arange(n_classes), per_class[:, j])
    return labels


def _pick(
    dist: np.ndarray,
    weights: np.ndarray,
    weights_t: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    m: int,
    holders: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Records to take from each (point, bucket) cell for a class of m records.

    ``dist`` is the distance of every distinct QI point to the seed (inf for exhausted points),
    ``weights[p, j]`` the remaining records of bucket j at point p (``weights_t`` is its
    transpose, for fast per-bucket scans), ``holders[j]`` (optional) how many points still
    hold a record of bucket j.  Points are visited by distance, then by index: the class
    takes the lo_j records of bucket j nearest to the seed, then the nearest records whose
    bucket is still below hi_j.  Returns ``(points, takes)``: the points touched (nearest
    first) and a (len(points), b) array of records taken.
    """
    need = m - int(lo.sum())
    cand = None if holders is None else _nearest_candidates(dist, weights, hi, holders)
    if cand is None:
        cand = _holder_candidates(dist, weights_t, hi)
    order = cand[np.lexsort((cand, dist[cand]))]
    w = weights[order]
    before = np.cumsum(w, axis=0) - w
    mandatory = np.minimum(np.maximum(lo - before, 0), w)
    optional = np.maximum(np.minimum(before + w, hi) - np.maximum(before, lo), 0)
    flat = optional.ravel()
    taken_before = np.cumsum(flat) - flat
    extra = np.minimum(np.maximum(need - taken_before, 0), flat).reshape(optional.shape)
    takes = mandatory + extra
    rows = np.flatnonzero(takes.sum(axis=1))
    return order[rows], takes[rows]


def _holder_candidates(dist: np.ndarray, weights_t: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The points a class may take from, by a scan of every bucket's holders.

    A holder of bucket j farther than its hi_j nearest holders can give that bucket nothing,
    so the union over buckets of the hi_j nearest holders (with every holder tied with the
    last of them: ties go by index, as the class takes them) is an exact candidate set.  The
    holders of every bucket come from one scan; a bucket with no more holders than hi_j
    gives them all.
    """
    wanted = np.flatnonzero(hi > 0)
    bucket, holder = np.nonzero(weights_t[wanted])  # by bucket, then point: ascending
    per_bucket = np.bincount(bucket, minlength=len(wanted))
    keep = np.zeros(len(dist), dtype=bool)
    keep[holder[(per_bucket <= hi[wanted])[bucket]]] = True
    starts = np.cumsum(per_bucket) - per_bucket
    for i in np.flatnonzero(per_bucket > hi[wanted]):
        cap = int(hi[wanted[i]])
        near = dist[holder[starts[i] : starts[i] + per_bucket[i]]]
        last = np.partition(near, cap - 1)[cap - 1]
        keep[holder[starts[i] : starts[i] + per_bucket[i]][near <= last]] = True
    return np.flatnonzero(keep)


def _nearest_candidates(
    dist: np.ndarray, weights: np.ndarray, hi: np.ndarray, holders: np.ndarray
) -> np.ndarray | None:
    """The same candidates' superset without a scan of the buckets: the points nearest to
    the seed (all those as near as the farthest of them), once they hold hi_j points of
    every bucket j or all its holders; None when a few hundred nearest points do not.

    A class of m records reaches a few times m points, so the nearest 4·Σhi + 16 (and four
    times more, twice) nearly always suffice, and a class then costs a selection among the
    points instead of a scan of points × buckets.  Points beyond every bucket's hi_j nearest
    holders give nothing (:func:`_holder_candidates`), so the class is the same.
    """
    size = 4 * int(hi.sum()) + 16
    for _attempt in range(3):
        if size >= len(dist):
            return None
        last = np.partition(dist, size - 1)[size - 1]
        if not np.isfinite(last):
            return None
        near = np.flatnonzero(dist <= last)
        held = np.count_nonzero(weights[near], axis=0)
        if ((held >= hi) | (held >= holders)).all():
            return near
        size *= 4
    return None


def _class_limits(
    remaining: np.ndarray, n_left: int, classes_left: int, m: int, bounds: BoundRates, k: int
) -> tuple[np.ndarray, np.ndarray] | None:
    """Per-bucket (lo, hi) for the next class of m records, keeping the reserve; None if none."""
    low_m, up_m = bounds(m)
    after = classes_left - 1
    rest = n_left - m
    if after == 0:
        if rest != 0:
            return None
        lo, hi = np.maximum(low_m, remaining), np.minimum(up_m, remaining)
    else:
        if rest // after < k:
            return None
        low_rest, _ = bounds(-(-rest // after))
        _, up_rest = bounds(rest // after)
        lo = np.maximum(low_m, remaining - after * up_rest)
        hi = np.minimum(up_m, remaining - after * low_rest)
    if (lo > hi).any() or lo.sum() > m or hi.sum() < m:
        return None
    return lo, hi


def tclose_partition(
    X: np.ndarray,
    codes: np.ndarray,
    k: int,
    t: float,
    *,
    shares: np.ndarray | None = None,
    seed: int | None = None,
    task: Task = NO_TASK,
) -> np.ndarray:
    """Class label (0, 1, …) of every record; classes are k-anonymous and t-close.

    ``X`` is the encoded QI matrix (:func:`engine.release.encode_qi`), ``codes`` the
    bucket of every record.  ``shares`` are the p_j the bounds refer to: by default the shares of
    ``codes``; a caller partitioning one block of a larger file passes the whole file's.
    The result does not depend on ``seed`` (MDAV is deterministic; ties go to the earlier
    record); the argument is accepted for callers that pass one seed everywhere.
    Raises :class:`~engine.errors.InfeasibleError` when no valid partition exists.
    """
    del seed  # deterministic by construction
    X, codes, shares, counts = _checked_input(X, codes, shares)
    n = len(codes)
    classes_left = check_feasible(counts, t, k, shares)
    labels = np.full(n, -1, dtype=np.int64)
    total_classes = classes_left
    bounds = _Memo(BoundRates(shares, t))
    state = _Points(X, codes, counts, classes_left)
    while state.classes_left > 1:
        task.step(1.0 - state.classes_left / total_classes, _("Forming classes"))
        state.drop_exhausted()
        dist = state.grow(state.farthest(), bounds, k)
        if dist is None:
            break
        if state.classes_left > 1:
            dist[state.point_count == 0] = -np.inf
            if state.grow(int(np.argmax(dist)), bounds, k) is None:
                break
    if state.taken:
        _assign(labels, state.cell, state.taken)
    label = len(state.taken)
    rest = np.flatnonzero(labels < 0)
    if state.classes_left == 1:
        labels[rest] = label
    elif state.classes_left > 1:  # not reached by the invariant; the layout is the safe fallback
        labels[rest] = label + balanced_layout(X[rest], codes[rest], state.classes_left)
    task.step(1.0, _("Classes formed"))
    return labels


def _checked_input(
    X: np.ndarray, codes: np.ndarray, shares: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(X as a float matrix, codes, the shares p_j, the count of every bucket), checked to
    describe the same records; the shares are the codes' own unless given."""
    X = np.asarray(X, dtype=float)
    if X.ndim == 1:
        X = X[:, None]
    codes = np.asarray(codes, dtype=np.int64)
    n = len(codes)
    if len(X) != n:
        raise ValueError("X and codes must have one row per record")
    n_b = int(codes.max()) + 1 if n else 0
    if shares is not None:
        shares = np.asarray(shares, dtype=float)
        if len(shares) < n_b:
            raise ValueError("shares must cover every bucket code")
        n_b = len(shares)
    counts = np.bincount(codes, minlength=n_b).astype(np.int64)
    if shares is None:
        shares = counts / max(n, 1)
    return X, codes, shares, counts


class _Points:
    """The records not yet in a class, on the distinct QI points, while classes are formed.

    Records with equal QIs are interchangeable, and categorical QIs repeat a lot (adult:
    30,162 records on 6,072 points), so the partition works on points with a count of every
    bucket.  Each class taken is kept as (cell, class, records) of every take, turned into
    record labels at the end (:func:`_assign`).
    """

    def __init__(
        self, X: np.ndarray, codes: np.ndarray, counts: np.ndarray, classes_left: int
    ) -> None:
        n_b = len(counts)
        self.n_b = n_b
        points, inverse = _distinct_rows(X)
        n_points = len(points)
        self.points = points
        self.product = _product(points)
        #: the (point, bucket) cell of every record
        self.cell = inverse * n_b + codes
        cell_sizes = np.bincount(self.cell, minlength=n_points * n_b)
        self.weights = cell_sizes.reshape(n_points, n_b).copy()
        self.weights_t = self.weights.T.copy()  # a copy even when the transpose is contiguous
        #: per bucket, the points still holding one of its records
        self.holders = np.count_nonzero(self.weights, axis=0)
        self.point_count = self.weights.sum(axis=1)
        self.sq = np.einsum("ij,ij->i", points, points)
        self.remaining = counts.copy()
        self.n_left = len(codes)
        self.classes_left = classes_left
        self.total = (points * self.point_count[:, None]).sum(axis=0)
        #: working position -> distinct point (after dropping exhausted ones)
        self.point_id = np.arange(n_points)
        self.taken: list[tuple[np.ndarray, int, np.ndarray]] = []

    def drop_exhausted(self) -> None:
        """Drop the points with no record left, once they are the majority."""
        if 2 * np.count_nonzero(self.point_count) < len(self.point_count):
            live = self.point_count > 0
            self.points, self.sq = self.points[live], self.sq[live]
            self.product = _product(self.points)
            self.point_id = self.point_id[live]
            self.weights, self.point_count = self.weights[live], self.point_count[live]
            self.weights_t = np.ascontiguousarray(self.weights_t[:, live])

    def farthest(self) -> int:
        """The live point farthest from the centroid of the records left."""
        far = self.sq - 2.0 * (self.product @ (self.total / self.n_left))
        far[self.point_count == 0] = -np.inf
        return int(np.argmax(far))

    def grow(self, seed_point: int, bounds: _Memo, k: int) -> np.ndarray | None:
        """Form the class around ``seed_point``; returns distances to it, None if stuck."""
        sq = self.sq
        dist = sq - 2.0 * (self.product @ self.points[seed_point]) + sq[seed_point]
        dist[self.point_count == 0] = np.inf
        n_left, classes_left = self.n_left, self.classes_left
        for m in dict.fromkeys((n_left // classes_left, -(-n_left // classes_left))):
            limits = _class_limits(self.remaining, n_left, classes_left, m, bounds, k)
            if limits is None:
                continue
            touched, takes = _pick(
                dist, self.weights, self.weights_t, limits[0], limits[1], m, self.holders
            )
            self._take(touched, takes, m)
            return dist
        return None

    def _take(self, touched: np.ndarray, takes: np.ndarray, m: int) -> None:
        """Take ``takes`` records (points ``touched`` × buckets) as the next class of m."""
        rows, cols = np.nonzero(takes)
        cells = self.point_id[touched[rows]] * self.n_b + cols
        self.taken.append((cells, len(self.taken), takes[rows, cols]))
        self.weights[touched] -= takes
        self.weights_t[:, touched] -= takes.T
        self.holders -= np.count_nonzero((self.weights[touched] == 0) & (takes > 0), axis=0)
        per_point = takes.sum(axis=1)
        self.point_count[touched] -= per_point
        self.remaining[:] -= takes.sum(axis=0)
        self.total = self.total - per_point @ self.points[touched]
        self.n_left -= m
        self.classes_left -= 1


#: a QI matrix at most this dense (share of non-zero values) and at least this wide is
#: multiplied as a sparse matrix (one column per category of a nominal QI: a 100-commune QI
#: leaves 99 of its columns zero in every row)
SPARSE_DENSITY = 0.25
SPARSE_MIN_COLUMNS = 16


def _product(points: np.ndarray):
    """``points`` as the left operand of the distance products: a CSR matrix when wide and
    mostly zero (every product then costs its non-zeros, not rows × columns), else itself."""
    if points.shape[1] < SPARSE_MIN_COLUMNS or not len(points):
        return points
    if np.count_nonzero(points) > SPARSE_DENSITY * points.size:
        return points
    from scipy.sparse import csr_array

    return csr_array(points)


class _Memo:
    """L(m), U(m) of :class:`BoundRates`, each m computed once: a partition asks for the
    same few class sizes thousands of times (the arrays are never written to)."""

    def __init__(self, rates: BoundRates) -> None:
        self.rates = rates
        self.seen: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def __call__(self, m: int) -> tuple[np.ndarray, np.ndarray]:
        if m not in self.seen:
            self.seen[m] = self.rates(m)
        return self.seen[m]


def _distinct_rows(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct rows in lexicographic order, row index of every record): np.unique(axis=0),
    computed by a pandas group-by, which is several times faster on wide float data."""
    frame = pd.DataFrame(X + 0.0)  # + 0.0 turns -0.0 into 0.0
    grouped = frame.groupby(list(frame.columns), sort=True, dropna=False)
    inverse = grouped.ngroup().to_numpy(np.int64)
    points = np.empty((int(inverse.max()) + 1, X.shape[1]))
    points[inverse] = frame.to_numpy()
    return points, inverse


def _assign(labels: np.ndarray, cell: np.ndarray, taken: list) -> None:
    """Label records from the takes: within a cell, classes take records in input order."""
    cells = np.concatenate([c for c, _, _ in taken])
    classes = np.concatenate([np.full(len(c), i) for c, i, _ in taken])
    counts = np.concatenate([r for _, _, r in taken])
    order = np.argsort(cells, kind="stable")  # stable: earlier classes first within a cell
    cells, classes, counts = cells[order], classes[order], counts[order]
    # records of every cell, in input order
    rec_order = np.argsort(cell, kind="stable")
    cell_start = np.searchsorted(cell[rec_order], cells)
    first_of_cell = np.r_[True, cells[1:] != cells[:-1]]
    before = np.cumsum(counts) - counts
    group_base = np.maximum.accumulate(np.where(first_of_cell, before, 0))
    offset = cell_start + (before - group_base)  # first record position of each take
    positions = np.repeat(offset - before, counts) + np.arange(counts.sum())
    labels[rec_order[positions]] = np.repeat(classes, counts)
