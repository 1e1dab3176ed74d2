"""The refinement's neighbour search: exact where a k-d tree is cheap, and close to exact
where many centroids lie in many columns (random-projection trees and the window)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import cKDTree

from engine.release import sse_sst, tclose_partition
from engine.release.partition import nearest_points, refine_classes
from engine.release.partition import neighbours as neighbours_module


def _exact(points: np.ndarray, reach: int) -> np.ndarray:
    return cKDTree(points).query(points, k=reach)[1]


def _wide(n: int, d: int, seed: int) -> np.ndarray:
    """Centroids of classes that mix a few of many categories: a few non-zero shares per
    row in ``d - 1`` indicator columns, and one numeric column."""
    rng = np.random.default_rng(seed)
    shares = np.zeros((n, d - 1))
    for i in range(n):
        picked = rng.choice(d - 1, 3, replace=False)
        shares[i, picked] = rng.dirichlet(np.ones(3))
    return np.column_stack([shares / np.sqrt(2), rng.normal(size=n)])


def test_few_columns_are_searched_exactly():
    points = np.random.default_rng(1).normal(size=(3_000, 5))
    found = nearest_points(points, 9)
    exact = _exact(points, 9)
    dist = np.linalg.norm(points[found] - points[:, None, :], axis=2)
    want = np.linalg.norm(points[exact] - points[:, None, :], axis=2)
    assert np.allclose(np.sort(dist, axis=1), np.sort(want, axis=1))


def test_many_points_in_many_columns_find_near_neighbours(monkeypatch):
    # 4,000 centroids in 61 columns: the trees and the window (lowered threshold) instead of
    # the k-d tree; every list holds the point itself and distinct points, and the ninth
    # neighbour lies at most a fifth farther than the exact ninth on average
    monkeypatch.setattr(neighbours_module, "FOREST_MIN_VALUES", 10_000)
    points = _wide(4_000, 61, seed=2)
    order = np.random.default_rng(3).permutation(len(points))  # the window sees no order
    points = points[order]
    found = nearest_points(points, 9)
    assert found.shape == (4_000, 9)
    assert (found == np.arange(4_000)[:, None]).any(axis=1).all()
    assert all(len(set(row)) == 9 for row in found)
    ninth = np.linalg.norm(points[found[:, -1]] - points, axis=1)
    exact = np.linalg.norm(points[_exact(points, 9)[:, -1]] - points, axis=1)
    assert np.all(ninth >= exact - 1e-12)  # nearest first: the last is the farthest
    assert float(np.mean(ninth / exact)) <= 1.2
    # the trees are drawn from a fixed seed: the same lists at every run
    assert np.array_equal(found, nearest_points(points, 9))


def test_refining_with_the_approximate_search_keeps_k_and_t(monkeypatch):
    # the refinement of a partition in many columns, with the approximate search: every
    # class keeps k and its bucket bounds, and the QI loss falls
    monkeypatch.setattr(neighbours_module, "FOREST_MIN_VALUES", 1_000)
    rng = np.random.default_rng(4)
    n = 3_000
    commune = rng.integers(0, 40, n)
    X = np.column_stack([np.eye(40)[commune] / np.sqrt(2), rng.normal(size=n)])
    codes = rng.integers(0, 3, n)
    t, k = 2.0, 5
    labels = tclose_partition(X, codes, k, t)
    out = refine_classes(X, labels, codes, t=t, k=k)
    sizes = np.bincount(out)
    assert sizes.min() >= k
    shares = np.bincount(codes) / n
    mix = np.zeros((sizes.size, 3))
    np.add.at(mix, (out, codes), 1)
    within = mix / sizes[:, None]
    assert np.all(within <= shares * t + 1e-12) and np.all(within >= shares / t - 1e-12)
    assert sse_sst(X, out) < sse_sst(X, labels)


@pytest.mark.parametrize("reach", [1, 9])
def test_a_file_of_fewer_points_than_asked_lists_them_all(reach):
    points = np.random.default_rng(5).normal(size=(6, 3))
    found = nearest_points(points, reach)
    assert found.shape == (6, min(reach, 6))
    assert (found[:, 0] == np.arange(6)).all()
