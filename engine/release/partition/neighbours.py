"""The classes nearest to each class: the neighbour lists of the refinement.

The refinement (:mod:`engine.release.partition.refine`) exchanges and moves records between
a class and the few classes whose centroids lie nearest to it.  Any list of neighbours keeps
the guarantee (k and t are checked on every exchange and move); nearer ones refine more, and
the search must cost no more than a sweep over the records, or the refinement's budget goes
to the search instead of the classes.

* **A k-d tree** (scipy's ``cKDTree``) on the centroids' principal axes finds them exactly, or
  within a factor 1 + :data:`NEIGHBOUR_EPS` of the nearest from :data:`APPROXIMATE_MIN_VALUES`
  coordinates on.  It is fast in the few columns of numeric and small categorical QIs.
* **Random-projection trees and the partition's own order** take over when there are many
  centroids in many columns (:data:`FOREST_MIN_VALUES`, :data:`FOREST_MIN_COLUMNS`): a QI with
  a hundred categories (a commune) puts class centroids, which mix a few of them, in a hundred
  dimensions, where a k-d tree must visit nearly every leaf (200,000 households, 87,418
  classes in 111 columns: 28 s per search, against 1.5 s for a sweep over the 524,512
  records).  Each tree halves its points recursively across the hyperplane that bisects two
  of them drawn at random (the split Annoy uses; Dasgupta & Freund, STOC 2008, for random
  projection trees), down to leaves of :data:`FOREST_LEAF`; the block route numbers its classes
  along its k-d split of the records, so classes near in number are near in space, and each
  run of :data:`WINDOW` of them is compared with its neighbours in number.  Every candidate's
  distance is computed exactly and the nearest are kept.  The trees are drawn from a fixed
  seed, so the lists, and the classes, are the same at every run.
"""

from __future__ import annotations

import numpy as np

#: neighbours are searched within a factor 1 + this of the nearest (the k-d tree's ``eps``) ...
NEIGHBOUR_EPS = 1.0
#: ... when the centroids hold at least this many values (classes × columns); fewer are
#: searched exactly, at a cost that is small beside the sweeps
APPROXIMATE_MIN_VALUES = 200_000
#: from this many values and ...
FOREST_MIN_VALUES = 1_000_000
#: ... more columns than this, the trees and the window search instead of the k-d tree
FOREST_MIN_COLUMNS = 16
#: random-projection trees drawn
FOREST_TREES = 2
#: the most points in a tree's leaf (every pair of a leaf is compared)
FOREST_LEAF = 256
#: centroids compared in a run by their number: each with the run before and after it
WINDOW = 256
#: the seed of the trees (fixed: the neighbour lists, hence the classes, are reproducible)
FOREST_SEED = 0


def nearest_points(points: np.ndarray, reach: int) -> np.ndarray:
    """The ``reach`` points nearest to each point (itself among them), nearest first
    (module doc: a k-d tree, or trees of random projections and a window over the points'
    order when there are many points in many columns)."""
    points = np.asarray(points, dtype=np.float64)
    reach = min(reach, len(points))
    if points.shape[1] > FOREST_MIN_COLUMNS and points.size >= FOREST_MIN_VALUES:
        return _forest_neighbours(points, reach)
    return _tree_neighbours(points, reach)


def _tree_neighbours(points: np.ndarray, reach: int) -> np.ndarray:
    """The neighbours by a k-d tree on the points' principal axes.

    The points are first turned onto their principal axes: a rotation keeps every distance,
    but a k-d tree splits one coordinate at a time, and class centroids of QIs with many
    categories spread thinly over each column, so on the principal axes a split separates
    far more.  The search stops at neighbours within a factor 1 + :data:`NEIGHBOUR_EPS` of
    the nearest (``eps`` of the tree's query) when there are at least
    :data:`APPROXIMATE_MIN_VALUES` coordinates, exactly below.
    """
    from scipy.spatial import cKDTree

    centred = points - points.mean(axis=0)
    _, axes = np.linalg.eigh(centred.T @ centred)
    rotated = centred @ axes[:, ::-1]
    eps = NEIGHBOUR_EPS if points.size >= APPROXIMATE_MIN_VALUES else 0.0
    found = cKDTree(rotated).query(rotated, k=reach, eps=eps)[1]
    return np.asarray(found, dtype=np.int64).reshape(len(points), reach)


def _forest_neighbours(points: np.ndarray, reach: int) -> np.ndarray:
    """The nearest among the candidates of the window and of the trees (module doc)."""
    centred = points - points.mean(axis=0)
    square = np.einsum("ij,ij->i", centred, centred)
    rng = np.random.default_rng(FOREST_SEED)
    found = [_window_candidates(centred, square, reach)]
    leaf = max(FOREST_LEAF, 2 * reach)
    for _ in range(FOREST_TREES):
        found.append(_leaf_candidates(centred, square, reach, _leaves(centred, leaf, rng)))
    ids = np.concatenate([f[0] for f in found], axis=1)
    dist = np.concatenate([f[1] for f in found], axis=1)
    return _nearest_of(ids, dist, reach)


def _window_candidates(
    P: np.ndarray, square: np.ndarray, reach: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each point's ``reach`` nearest among the points numbered within :data:`WINDOW` of its
    run (its own run, the one before and the one after)."""
    n = len(P)
    ids = np.empty((n, reach), dtype=np.int64)
    dist = np.empty((n, reach))
    for start in range(0, n, WINDOW):
        rows = slice(start, min(n, start + WINDOW))
        lo, hi = max(0, start - WINDOW), min(n, start + 2 * WINDOW)
        d = square[rows, None] - 2.0 * (P[rows] @ P[lo:hi].T) + square[None, lo:hi]
        ids[rows], dist[rows] = _smallest(d, reach, offset=lo)
    return ids, dist


def _leaves(P: np.ndarray, leaf: int, rng: np.random.Generator) -> list[np.ndarray]:
    """The leaves of one random-projection tree: the points halved, recursively, at the
    median of their projection on the difference of two of them drawn at random."""
    out: list[np.ndarray] = []
    stack = [np.arange(len(P))]
    while stack:
        idx = stack.pop()
        if len(idx) <= leaf:
            out.append(idx)
            continue
        a, b = rng.choice(len(idx), 2, replace=False)
        normal = P[idx[a]] - P[idx[b]]
        if not normal.any():  # two equal points: a random direction instead
            normal = rng.standard_normal(P.shape[1])
        order = np.argsort(P[idx] @ normal, kind="stable")
        half = len(idx) // 2
        stack += [idx[order[:half]], idx[order[half:]]]
    return out


def _leaf_candidates(
    P: np.ndarray, square: np.ndarray, reach: int, leaves: list[np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """Each point's ``reach`` nearest within its leaf (padded with −1 at an infinite
    distance when the leaf is smaller)."""
    n = len(P)
    ids = np.full((n, reach), -1, dtype=np.int64)
    dist = np.full((n, reach), np.inf)
    for idx in leaves:
        Q = P[idx]
        d = square[idx, None] - 2.0 * (Q @ Q.T) + square[None, idx]
        near, far = _smallest(d, min(reach, len(idx)))
        ids[idx, : near.shape[1]] = idx[near]
        dist[idx, : near.shape[1]] = far
    return ids, dist


def _smallest(d: np.ndarray, reach: int, offset: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``d``, the columns (plus ``offset``) of its ``reach`` smallest values, and
    those values."""
    cols = np.argpartition(d, reach - 1, axis=1)[:, :reach]
    return cols + offset, np.take_along_axis(d, cols, axis=1)


def _nearest_of(ids: np.ndarray, dist: np.ndarray, reach: int) -> np.ndarray:
    """Per row, the ``reach`` distinct candidates of least distance, nearest first (ties by
    index); −1 candidates are none."""
    order = np.argsort(ids, axis=1, kind="stable")  # a candidate found twice: kept once
    ids = np.take_along_axis(ids, order, axis=1)
    dist = np.take_along_axis(dist, order, axis=1).copy()
    repeated = np.zeros(ids.shape, dtype=bool)
    repeated[:, 1:] = ids[:, 1:] == ids[:, :-1]
    dist[repeated | (ids < 0)] = np.inf
    # nearest first, ties by index (the candidates are in index order: a stable sort keeps it)
    best = np.argsort(dist, axis=1, kind="stable")[:, :reach]
    return np.take_along_axis(ids, best, axis=1)


__all__ = [
    "APPROXIMATE_MIN_VALUES",
    "FOREST_MIN_COLUMNS",
    "FOREST_MIN_VALUES",
    "NEIGHBOUR_EPS",
    "nearest_points",
]
