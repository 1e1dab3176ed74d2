"""Refining a t-close partition: exact exchanges, bounded moves and the transportation step."""

from __future__ import annotations

import importlib.util

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import InfeasibleError
from engine.params import ReleaseParams
from engine.release import anonymize, class_distances, sse_sst, tclose_partition, verify_release
from engine.release.partition import (
    compiled_kernels,
    refine_classes,
    refine_passes,
    sweeps,
    transport_step,
)
from tests.factories import toy_partition_input

HAS_NUMBA = importlib.util.find_spec("numba") is not None
needs_numba = pytest.mark.skipif(not HAS_NUMBA, reason="the transportation step is compiled")


def _mix(labels: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """(classes × buckets) counts, classes by label."""
    out = np.zeros((int(labels.max()) + 1, int(codes.max()) + 1), dtype=np.int64)
    np.add.at(out, (labels, codes), 1)
    return out


@st.composite
def partitions(draw):
    """A random file (QIs with repeated points, buckets), t, k and a valid t-close partition."""
    seed = draw(st.integers(0, 2**32 - 1))
    n = draw(st.integers(20, 300))
    d = draw(st.integers(1, 4))
    n_b = draw(st.integers(1, 5))
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if draw(st.booleans()):  # categorical-like QIs: many records on one point
        X = np.round(X)
    codes = rng.integers(0, n_b, n)
    codes = np.unique(codes, return_inverse=True)[1]
    t = draw(st.floats(1.0, 6.0))
    k = draw(st.integers(1, 12))
    try:
        labels = tclose_partition(X, codes, k, t)
    except InfeasibleError:
        labels = np.zeros(n, dtype=np.int64)
    if np.bincount(labels).min() < k:  # k above the file: one class of all
        labels = np.zeros(n, dtype=np.int64)
        k = min(k, n)
    return X, codes, labels, t, k


def _t_of(labels: np.ndarray, codes: np.ndarray) -> float:
    return float(class_distances(labels, codes).max())


@given(partitions(), st.integers(2, 4))
def test_refining_in_parts_keeps_k_and_t_and_does_not_depend_on_the_threads(case, parts):
    """Runs of consecutive labels refined apart, in threads: k and t kept, the loss never
    raised, each part's records kept in its part, and the classes the same on one core."""
    import os

    X, codes, labels, t, k = case
    before_t = _t_of(labels, codes)
    out = refine_classes(X, labels, codes, t=t, k=k, parts=parts)
    assert np.bincount(out).min() >= min(k, np.bincount(labels).min())
    assert _t_of(out, codes) <= max(t, before_t) * (1 + 1e-9)
    assert sse_sst(X, out) <= sse_sst(X, labels) + 1e-12
    m = int(labels.max()) + 1
    used = max(1, min(parts, m // 2))
    first = (np.arange(used + 1) * m) // used  # part p: classes first[p] .. first[p + 1] − 1
    part = np.searchsorted(first, np.unique(labels, return_inverse=True)[1], side="right")
    for c in np.unique(out):  # every class of the result lies in one part
        assert len(np.unique(part[out == c])) == 1
    cpu_count = os.cpu_count
    try:
        os.cpu_count = lambda: 1
        alone = refine_classes(X, labels, codes, t=t, k=k, parts=parts)
    finally:
        os.cpu_count = cpu_count
    assert np.array_equal(out, alone)


@needs_numba
@given(partitions())
def test_a_transportation_step_keeps_every_class_size_and_bucket_count(case):
    X, codes, labels, _, _ = case
    new, sse = transport_step(X, labels, codes, compiled_kernels(True))
    assert np.array_equal(_mix(new, codes), _mix(labels, codes))
    assert sse <= sse_sst(X, labels) * _sst(X) + 1e-9
    assert sse == pytest.approx(sse_sst(X, new) * _sst(X), abs=1e-9)


def _sst(X: np.ndarray) -> float:
    return float(((X - X.mean(axis=0)) ** 2).sum())


@given(partitions(), st.booleans())
def test_refining_keeps_k_and_t_and_never_raises_the_loss(case, compiled):
    X, codes, labels, t, k = case
    if compiled and not HAS_NUMBA:
        compiled = False
    before_t = _t_of(labels, codes)
    out = refine_classes(X, labels, codes, t=t, k=k, compiled=compiled)
    assert len(out) == len(labels)
    assert np.bincount(out).min() >= min(k, np.bincount(labels).min())
    # the classes were t-close, so they stay t-close (a change keeps the bounds of t)
    assert _t_of(out, codes) <= max(t, before_t) * (1 + 1e-9)
    assert sse_sst(X, out) <= sse_sst(X, labels) + 1e-12


@needs_numba
def test_records_go_to_the_class_whose_centroid_is_nearest_when_the_counts_allow():
    # two far groups; each class holds two records of each bucket, one of them from the far
    # group: a transportation step exchanges those two and both classes become homogeneous
    X = np.array([[0.0], [0.1], [0.2], [0.3], [10.0], [10.1], [10.2], [10.3]])
    codes = np.array([0, 1, 0, 1, 0, 1, 0, 1])
    labels = np.array([0, 0, 0, 1, 1, 1, 1, 0])
    out, _ = transport_step(X, labels, codes, compiled_kernels(True))
    assert len(set(out[:4])) == 1 and len(set(out[4:])) == 1 and out[0] != out[4]
    assert np.array_equal(_mix(out, codes), _mix(labels, codes))


@needs_numba
def test_refining_lowers_the_loss_of_bucket_capped_mdav():
    X, codes = toy_partition_input(3000, 4)
    labels = tclose_partition(X, codes, 10, 2.0)
    out = refine_classes(X, labels, codes, t=2.0, k=10)
    assert sse_sst(X, out) < 0.95 * sse_sst(X, labels)
    moved, _ = transport_step(X, labels, codes, compiled_kernels(True))
    assert sse_sst(X, moved) < 0.98 * sse_sst(X, labels)
    assert np.bincount(out).min() >= 10 and _t_of(out, codes) <= 2.0 + 1e-9


@given(st.integers(0, 2**32 - 1), st.booleans())
def test_records_never_leave_their_fence(seed, compiled):
    if compiled and not HAS_NUMBA:
        compiled = False
    rng = np.random.default_rng(seed)
    X, codes = toy_partition_input(600, 3, seed=seed % 1000)
    fence = rng.integers(0, 2, 600)
    labels = np.empty(600, dtype=np.int64)
    for f in (0, 1):  # classes formed inside each fence, each t-close to the whole file
        rows = np.flatnonzero(fence == f)
        shares = np.bincount(codes) / 600
        labels[rows] = 1000 * f + tclose_partition(X[rows], codes[rows], 8, 4.0, shares=shares)
    labels = np.unique(labels, return_inverse=True)[1]
    out = refine_classes(X, labels, codes, t=4.0, k=8, fence=fence, compiled=compiled)
    for c in np.unique(out):
        assert len(set(fence[out == c])) == 1


@needs_numba
@given(partitions())
def test_the_plain_loops_give_the_same_classes_as_the_compiled_ones(case):
    X, codes, labels, t, k = case
    compiled = refine_classes(X, labels, codes, t=t, k=k, compiled=True)
    plain = refine_classes(X, labels, codes, t=t, k=k, compiled=False)
    assert np.array_equal(compiled, plain)
    fast, fast_sse = transport_step(X, labels, codes, compiled_kernels(True))
    slow, slow_sse = transport_step(X, labels, codes, sweeps)
    assert np.array_equal(fast, slow) and fast_sse == slow_sse


def test_the_budget_falls_per_record_as_classes_grow_and_is_bounded():
    # the partition compares a record with about n / (2m) others: the refinement may spend a
    # share of that, at least a couple of passes and never more than its ceiling
    assert refine_passes(1_000, 10) > refine_passes(1_000, 40)
    assert refine_passes(100, 10) == refine_passes(50, 10)  # the floor
    assert refine_passes(10**7, 10) == refine_passes(10**8, 10)  # the ceiling
    assert refine_passes(10**7, 10, block=200) < refine_passes(10**7, 10)
    X, codes = toy_partition_input(500, 3)
    labels = tclose_partition(X, codes, 10, 2.0)
    assert np.array_equal(refine_classes(X, labels, codes, t=2.0, k=10, passes=0), labels)


@st.composite
def files(draw):
    """A random file of two numeric QIs, a nominal one and a skewed confidential column."""
    seed = draw(st.integers(0, 2**32 - 1))
    n = draw(st.integers(60, 400))
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(
        {
            "age": rng.integers(18, 90, n),
            "score": rng.normal(size=n).round(draw(st.integers(0, 2))),
            "region": rng.choice(list("abcde"), n),
            "income": rng.lognormal(10, 1, n).round(0),
        }
    )
    t = draw(st.sampled_from([1.5, 2.0, 3.0, 5.0]))
    k = draw(st.integers(2, 12))
    return frame, t, k


@given(files())
def test_every_released_table_keeps_k_and_t(case):
    # the refinement runs on every release: the released table alone shows k and t hold
    frame, t, k = case
    params = ReleaseParams(
        qi=("age", "score", "region"), confidential=("income",), k=k, t=t, seed=0
    )
    try:
        release = anonymize(frame, params)
    except InfeasibleError:
        return
    check = verify_release(release.table, ["age", "score", "region"], ["income"], t=t, k=k)
    assert check.ok, check


@pytest.mark.parametrize(
    "compiled", [pytest.param(True, marks=needs_numba), False], ids=["compiled", "numpy"]
)
def test_a_large_file_is_refined_in_place_and_its_qis_left_as_they_were(monkeypatch, compiled):
    """Above IN_PLACE_MIN_RECORDS the QIs are put in class order where they lie (by the
    compiled kernel or column by column in numpy): the classes are those of a copy, and the
    caller's array holds its own rows again afterwards."""
    from engine.release.partition import refine

    X, codes = toy_partition_input(3_000, 4, seed=5)
    labels = tclose_partition(X, codes, 5, 2.0)
    kept = X.copy()
    readonly = X.copy()
    readonly.flags.writeable = False  # refined from a copy
    want = refine_classes(readonly, labels, codes, t=2.0, k=5, compiled=compiled)
    monkeypatch.setattr(refine, "IN_PLACE_MIN_RECORDS", 1_000)
    got = refine_classes(X, labels, codes, t=2.0, k=5, compiled=compiled)
    assert np.array_equal(got, want)
    assert np.array_equal(X, kept)
