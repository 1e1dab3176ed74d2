"""The bucket-capped MDAV partition: always k-anonymous and t-close, and QI-homogeneous."""

from __future__ import annotations

import numpy as np
import pytest

from engine.release import sse_sst, tclose_partition
from engine.release.partition import _pick, balanced_layout, class_bounds
from engine.release.partition.exact import _nearest_candidates


def assert_valid(labels, codes, k, t, shares=None):
    """Every class has ≥ k records and bucket counts within ceil(m p/t) .. floor(m p t)."""
    assert (labels >= 0).all()
    n_b = len(shares) if shares is not None else codes.max() + 1
    counts = np.bincount(codes, minlength=n_b)
    shares = counts / counts.sum() if shares is None else shares
    sizes = np.bincount(labels)
    assert sizes[sizes > 0].min() >= k
    for c in np.flatnonzero(sizes):
        n_e = np.bincount(codes[labels == c], minlength=n_b)
        lower, upper = class_bounds(sizes[c], shares, t)
        assert (n_e >= lower).all() and (n_e <= upper).all(), (c, n_e, lower, upper)


@pytest.mark.parametrize(("t", "k"), [(1.0, 3), (1.5, 4), (2.0, 5), (3.0, 10), (5.0, 2)])
def test_partition_is_valid_on_random_data(t, k):
    rng = np.random.default_rng(int(t * 10) + k)
    X = rng.normal(size=(600, 3))
    codes = rng.choice(4, size=600, p=[0.4, 0.3, 0.2, 0.1])
    labels = tclose_partition(X, codes, k, t)
    assert_valid(labels, codes, k, t)


def test_figure2_twelve_records_three_classes():
    # the QI follows the confidential value, so the best classes emphasise one bucket each
    X = np.arange(12, dtype=float)[:, None]
    codes = np.repeat([0, 1, 2], 4)
    labels = tclose_partition(X, codes, 4, 1.5)
    assert_valid(labels, codes, 4, 1.5)
    assert len(np.unique(labels)) == 3
    for c in range(3):
        assert sorted(np.bincount(codes[labels == c], minlength=3)) == [1, 1, 2]


def test_correlated_qi_uses_the_allowance_and_beats_the_layout():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(2000, 2))
    codes = np.digitize(X[:, 0] + 0.3 * rng.normal(size=2000), [-0.7, 0, 0.7])
    mdav = tclose_partition(X, codes, 5, 3.0)
    assert_valid(mdav, codes, 5, 3.0)
    layout = balanced_layout(X, codes, len(np.unique(mdav)))
    assert_valid(layout, codes, 5, 3.0)
    assert sse_sst(X, mdav) < sse_sst(X, layout)


def test_given_shares_bound_a_block_against_the_whole_file():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(300, 2))
    codes = rng.choice(2, size=300, p=[0.45, 0.55])
    shares = np.array([0.5, 0.5])
    labels = tclose_partition(X, codes, 5, 2.0, shares=shares)
    assert_valid(labels, codes, 5, 2.0, shares)


def test_duplicate_points_and_single_bucket():
    X = np.repeat(np.arange(5.0), 20)[:, None]
    labels = tclose_partition(X, np.zeros(100, dtype=np.int64), 7, 1.0)
    assert np.bincount(labels).min() >= 7
    # homogeneous classes where possible: most classes hold one QI value
    pure = sum(len(np.unique(X[labels == c])) == 1 for c in np.unique(labels))
    assert pure >= len(np.unique(labels)) // 2


def test_deterministic():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 2))
    codes = rng.choice(3, size=400)
    assert (tclose_partition(X, codes, 4, 2.0) == tclose_partition(X, codes, 4, 2.0)).all()


@pytest.mark.parametrize(("t", "n"), [(2, 18), (3, 48)])
def test_table1_masses_emphasise_one_bucket_each(t, n):
    """KBS 2015 Table 1 (l = 1): t+1 classes of N/(t+1) records; class E_i holds bucket B_i
    with mass t/(t+1) and every other bucket with mass 1/(t(t+1))."""
    b = t + 1
    codes = np.repeat(np.arange(b), n // b)
    rng = np.random.default_rng(0)
    X = (codes + 0.1 * rng.random(n))[:, None]  # the QIs separate the buckets
    k = n // b
    labels = tclose_partition(X, codes, k, float(t))
    assert_valid(labels, codes, k, t)
    assert len(np.unique(labels)) == b
    for c in range(b):
        masses = np.bincount(codes[labels == c], minlength=b) / k
        assert sorted(masses) == pytest.approx(sorted([t / (t + 1)] + [1 / (t * (t + 1))] * t))


def _pick_over_every_point(dist, weights, weights_t, lo, hi, m):
    """What ``_pick`` must give, record by record: every point holding a record visited by
    distance, then index (no candidate set at all); at each, bucket by bucket, the records
    still owed to lo_j, then those below hi_j while the class has room beyond Σlo."""
    held = [p for p in range(len(dist)) if weights[p].sum() > 0]
    room = m - int(lo.sum())
    seen = [0] * len(lo)  # records of each bucket at the points visited before
    points, takes = [], []
    for p in sorted(held, key=lambda p: (dist[p], p)):
        row = []
        for j, w in enumerate(weights[p]):
            owed = min(max(lo[j] - seen[j], 0), w)
            free = max(min(seen[j] + w, hi[j]) - max(seen[j], lo[j]), 0)
            extra = min(free, room)
            room -= extra
            row.append(owed + extra)
            seen[j] += w
        if sum(row):
            points.append(p)
            takes.append(row)
    return np.array(points, dtype=np.int64), np.array(takes).reshape(len(points), len(lo))


def test_a_class_takes_what_a_visit_of_every_point_would_give_it():
    """The candidates, from a scan of the buckets' holders or from the points nearest to the
    seed, give the class a visit of every point by distance and index would give it, ties
    at a bucket's cap included (distances on a grid tie often)."""
    rng = np.random.default_rng(4)
    nearest = 0
    for _ in range(200):
        points, b = int(rng.integers(5, 400)), int(rng.integers(1, 8))
        weights = rng.integers(0, 3, (points, b)) * (rng.random((points, b)) < 0.6)
        dist = rng.integers(0, 6, points).astype(float)
        dist[weights.sum(axis=1) == 0] = np.inf
        hi = np.minimum(rng.integers(0, 6, b), weights.sum(axis=0))
        if hi.sum() == 0:
            continue
        lo = np.minimum(rng.integers(0, 2, b), hi)
        m = int(rng.integers(lo.sum(), hi.sum() + 1))
        weights_t = weights.T.copy()
        want = _pick_over_every_point(dist, weights, weights_t, lo, hi, m)
        holders = np.count_nonzero(weights, axis=0)
        for got in (
            _pick(dist, weights, weights_t, lo, hi, m),
            _pick(dist, weights, weights_t, lo, hi, m, holders),
        ):
            assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
        nearest += _nearest_candidates(dist, weights, hi, holders) is not None
    assert nearest > 50  # the nearest points sufficed in many of the 200 cases


def test_a_wide_nominal_qi_is_partitioned_as_well_through_its_sparse_columns(monkeypatch):
    """A QI of 40 categories (one column each) and an age: the distances come from a sparse
    product; the classes are valid and as homogeneous as the dense product's."""
    from engine.release.partition import exact

    rng = np.random.default_rng(7)
    n = 3_000
    commune = rng.choice(40, size=n, p=np.arange(40, 0, -1) / 820)
    X = np.zeros((n, 41))
    X[np.arange(n), commune] = np.sqrt(0.5)
    X[:, 40] = rng.normal(size=n)
    codes = rng.choice(4, size=n, p=[0.4, 0.3, 0.2, 0.1])
    assert exact._product(X) is not X  # this file takes the sparse route
    sparse = tclose_partition(X, codes, 5, 2.0)
    monkeypatch.setattr(exact, "SPARSE_MIN_COLUMNS", 10**9)
    dense = tclose_partition(X, codes, 5, 2.0)
    assert_valid(sparse, codes, 5, 2.0)
    assert_valid(dense, codes, 5, 2.0)
    assert sse_sst(X, sparse) == pytest.approx(sse_sst(X, dense), rel=0.01)
