"""The scalable t-close path: stratified k-d split, lockstep capped MDAV, bounded improvement."""

from __future__ import annotations

import importlib.util

import numpy as np
import pandas as pd
import pytest

from benchmarks.synthetic import generate
from engine.errors import InfeasibleError
from engine.params import ReleaseParams
from engine.progress import NO_TASK
from engine.release import (
    anonymize,
    check_feasible,
    choose_class_size,
    class_distances,
    encode_qi,
    form_classes,
    improve_within_bounds,
    layout_counts,
    nominal_runs,
    resolve_columns,
    split_nodes,
    sse_sst,
    tclose_blocks,
    tclose_partition,
    use_blocks,
    verify_release,
)
from engine.release.partition import (
    TRIAL_PASSES,
    bucket_bounds,
    capped_mdav,
    compiled_kernels,
    refine_classes,
)
from engine.roles import ColumnType
from tests.factories import toy_partition_input


def _valid(labels: np.ndarray, codes: np.ndarray, k: int, t: float) -> bool:
    return np.bincount(labels).min() >= k and class_distances(labels, codes).max() <= t * (1 + 1e-9)


def test_split_to_single_classes_reproduces_the_layout():
    X, codes = toy_partition_input(5000, 4)
    counts = np.bincount(codes)
    n_classes = check_feasible(counts, 2.0, 10)
    per_class = layout_counts(counts, n_classes)
    labels, _ = split_nodes(X, codes, per_class)
    got = np.zeros_like(per_class)
    np.add.at(got, (labels, codes), 1)
    assert np.array_equal(got, per_class)
    assert _valid(labels, codes, 10, 2.0)


def test_blocks_keep_the_global_mix_and_respect_the_size_limit():
    X, codes = toy_partition_input(20_000, 4)
    counts = np.bincount(codes)
    per_class = layout_counts(counts, check_feasible(counts, 1.5, 8))
    node, _ = split_nodes(X, codes, per_class, max_records=1500)
    shares = counts / counts.sum()
    firsts = np.unique(node)
    ranges = np.diff(np.r_[firsts, len(per_class)])
    for first, n_classes in zip(firsts, ranges, strict=True):
        inside = node == first
        assert inside.sum() <= 1500
        got = np.bincount(codes[inside], minlength=4)
        # exactly the layout rows of its classes: within one record per class of the mix
        assert np.array_equal(got, per_class[first : first + n_classes].sum(axis=0))
        assert (np.abs(got - shares * inside.sum()) <= n_classes).all()
        check_feasible(got, 1.5, 8, shares)  # a block is feasible against the global shares


def _commune_file(categories: int = 64, per_category: int = 100, seed: int = 7):
    """A nominal QI of many equally common categories (one-hot, scaled as encode_qi scales
    it), after a numeric QI of little spread, and two buckets, half of every category in
    each, the records in random order."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(categories * per_category)
    category = np.repeat(np.arange(categories), per_category)[order]
    codes = np.tile(np.arange(per_category) % 2, categories)[order]
    onehot = np.eye(categories)[category] / np.sqrt(2.0)
    X = np.column_stack([0.01 * rng.standard_normal(len(category)), onehot])
    return X, codes, category


def test_a_nominal_qi_of_many_categories_splits_as_one_coordinate():
    """``nominal``: its categories go to either half, in their order, and blocks of 200
    records hold two categories each.  Column by column, a category's share is all its
    column spreads: the split peels one category off at a time and mixes the rest in every
    block (50 to 62 of the 64 categories)."""
    X, codes, category = _commune_file()
    assert nominal_runs(X) == ((1, 65),)
    counts = np.bincount(codes)
    per_class = layout_counts(counts, len(X) // 100)
    node, _ = split_nodes(X, codes, per_class, max_records=200, compiled=False, nominal=True)
    held = [len(np.unique(category[node == first])) for first in np.unique(node)]
    assert len(held) == 32 and set(held) == {2}
    if importlib.util.find_spec("numba") is not None:
        fast, _ = split_nodes(X, codes, per_class, max_records=200, compiled=True, nominal=True)
        assert np.array_equal(fast, node)
    columns, _ = split_nodes(X, codes, per_class, max_records=200, compiled=False)
    assert min(len(np.unique(category[columns == first])) for first in np.unique(columns)) > 40


@pytest.mark.parametrize("k", [3, 10])
def test_the_class_size_trials_keep_the_split_the_sample_loses_less_with(k):
    # a file on the block route with a nominal QI of many categories: the size chosen is
    # tried both ways, and the split kept is the one whose refined classes lose less
    X, codes, _ = _commune_file(categories=48, per_category=250, seed=k)
    X[:, 0] = np.random.default_rng(k).standard_normal(len(X))  # a numeric QI that matters
    counts = np.bincount(codes)
    size, _labels, nominal = choose_class_size(X, codes, counts, k, 2.0, blocks=True)
    losses = {}
    for split in (False, True):
        labels = tclose_blocks(X, codes, size, 2.0, refine=0, nominal=split)
        labels = refine_classes(X, labels, codes, t=2.0, k=k, passes=TRIAL_PASSES)
        losses[split] = sse_sst(X, labels)
    assert losses[nominal] <= losses[not nominal]


def test_nominal_runs_are_the_nominal_qis_of_the_encoding():
    # a run per nominal QI (a missing value one more category); numeric, ordinal and their
    # missing indicators are none; two nominal QIs side by side are two runs
    data = pd.DataFrame(
        {
            "age": [30.0, 41.0, None, 52.0, 28.0, 61.0],
            "sex": ["f", "m", "f", "m", "m", "f"],
            "region": ["n", "s", "e", None, "w", "n"],
            "educ": ["low", "mid", "high", "mid", "low", "high"],
        }
    )
    types = {
        "age": ColumnType.NUMERIC,
        "sex": ColumnType.NOMINAL,
        "region": ColumnType.NOMINAL,
        "educ": ColumnType.ORDINAL,
    }
    X = encode_qi(data, list(data.columns), types, {"educ": ["low", "mid", "high"]})
    # age and its missing indicator, sex (2), region (4 and missing), educ
    assert X.shape[1] == 2 + 2 + 5 + 1
    assert nominal_runs(X) == ((2, 4), (4, 9))


@pytest.mark.parametrize(("t", "k"), [(1.5, 5), (2.0, 10), (3.0, 10), (5.0, 25)])
def test_lockstep_capped_mdav_is_valid(t, k):
    X, codes = toy_partition_input(12_000, 4, seed=int(t * 10) + k)
    counts = np.bincount(codes)
    per_class = layout_counts(counts, check_feasible(counts, t, k))
    node, _ = split_nodes(X, codes, per_class, max_records=1000)
    labels = capped_mdav(X, codes, node, per_class, counts / counts.sum(), t, k)
    assert _valid(labels, codes, k, t)
    # classes never straddle blocks
    assert all(len(np.unique(node[labels == c])) == 1 for c in np.unique(labels)[:200])


def test_lockstep_matches_the_exact_rule_inside_one_block():
    # one block: the lockstep version and engine.release.partition form classes by the same rule
    X, codes = toy_partition_input(1500, 3)
    lock = tclose_blocks(X, codes, 10, 2.0, block_size=5000, refine=0)
    exact = tclose_partition(X, codes, 10, 2.0)
    assert _valid(lock, codes, 10, 2.0)
    assert sse_sst(X, lock) <= 1.1 * sse_sst(X, exact)


def test_improvement_keeps_bounds_and_lowers_the_sse():
    X, codes = toy_partition_input(8000, 4)
    base = tclose_blocks(X, codes, 10, 3.0, block_size=500, refine=0)
    better = tclose_blocks(X, codes, 10, 3.0, block_size=500, refine=None)
    assert _valid(better, codes, 10, 3.0)
    assert sse_sst(X, better) < 0.9 * sse_sst(X, base)


def test_bucket_bounds_table():
    b = bucket_bounds(np.zeros(3, dtype=np.int64), np.array([0.25, 0.75]), 2.0, 4, 12)
    assert b.low[10].tolist() == [2, 4] and b.high[10].tolist() == [5, 15]
    assert (b.low[:4] > 12).all()  # classes below k are ruled out


def test_infeasible_parameters_raise_like_the_exact_path():
    X, codes = toy_partition_input(3000, 4)
    with pytest.raises(InfeasibleError):
        tclose_blocks(X, codes, 3001, 2.0)


def test_dispatch_by_records_and_distinct_points():
    rng = np.random.default_rng(0)
    assert not use_blocks(rng.normal(size=(20_000, 2)))
    assert use_blocks(rng.normal(size=(30_000, 2)))
    few_points = rng.integers(0, 20, size=(30_000, 2)).astype(float)
    assert not use_blocks(few_points)  # 400 distinct points: the exact path is fast


def test_anonymize_takes_the_block_path_on_30k_records_and_verifies():
    data = generate(30_000, seed=4)
    # exact ages (years and days): nearly every record is a distinct QI point
    data["age"] = data["age"] + np.random.default_rng(4).integers(0, 365, len(data)) / 365
    config = ReleaseParams(
        qi=("age", "hours", "region", "sector"), confidential=("income",), k=10, t=3.0, seed=1
    )
    qi = list(config.qi)
    types, orders = resolve_columns(data[qi], qi, {}, {})
    assert use_blocks(encode_qi(data[qi], qi, types, orders))
    release = anonymize(data, config)
    assert release.verification.ok
    assert release.verification.k >= 10 and release.verification.t <= 3.0
    check = verify_release(release.table, config.qi, config.confidential, t=3.0, k=10)
    assert check.ok and check.n_records == 30_000
    assert isinstance(release.table, pd.DataFrame)


def _adult_blocks(data_dir, n: int = 6000):
    """Encoded adult QIs (age and four category columns: distances tie all the time)."""
    data = pd.read_csv(data_dir / "adult.csv.gz", sep=";", dtype=str, nrows=n)
    qi = ["age", "sex", "race", "marital-status", "education"]
    types, orders = resolve_columns(data, qi)
    X = encode_qi(data, qi, types, orders)
    codes = (data["salary-class"] == ">50K").to_numpy().astype(np.int64)
    return X, codes


@pytest.mark.parametrize(
    ("case", "t", "k", "block"),
    [("adult", 2.0, 10, 500), ("adult", 1.3, 5, 800), ("toy", 3.0, 10, 1000), ("toy", 1.5, 7, 300)],
)
def test_compiled_kernel_gives_the_numpy_classes(data_dir, case, t, k, block):
    if importlib.util.find_spec("numba") is None:  # Intel Macs: numpy is the only path
        assert compiled_kernels() is None
        return
    X, codes = _adult_blocks(data_dir) if case == "adult" else toy_partition_input(6000, 4, seed=k)
    counts = np.bincount(codes)
    shares = counts / counts.sum()
    per_class = layout_counts(counts, check_feasible(counts, t, k))
    node, end = split_nodes(X, codes, per_class, max_records=block)
    numpy_path = capped_mdav(X, codes, node, per_class, shares, t, k, compiled=False)
    compiled = capped_mdav(X, codes, node, per_class, shares, t, k, compiled=True)
    assert np.array_equal(compiled, numpy_path)
    assert _valid(compiled, codes, k, t)
    # and through form_classes, in groups of blocks on threads, as a large file runs
    grouped = form_classes(X, codes, node, end, per_class, shares, t, k, compiled=True)
    assert np.array_equal(grouped, numpy_path)


def test_the_environment_can_force_the_numpy_path(monkeypatch):
    monkeypatch.setenv("TCLOSE_COMPILED", "0")
    assert compiled_kernels() is None
    assert compiled_kernels(False) is None


@pytest.mark.parametrize("case", ["adult", "toy"])
def test_compiled_split_gives_the_numpy_nodes(data_dir, case):
    if importlib.util.find_spec("numba") is None:  # Intel Macs: numpy is the only path
        assert compiled_kernels() is None
        return
    X, codes = _adult_blocks(data_dir) if case == "adult" else toy_partition_input(6000, 4)
    counts = np.bincount(codes)
    per_class = layout_counts(counts, check_feasible(counts, 2.0, 5))
    for max_records in (1, 400):
        numpy_path = split_nodes(X, codes, per_class, max_records=max_records, compiled=False)
        compiled = split_nodes(X, codes, per_class, max_records=max_records, compiled=True)
        assert all(np.array_equal(a, b) for a, b in zip(compiled, numpy_path, strict=True))


def test_the_split_in_two_threads_gives_the_same_nodes():
    X, codes = toy_partition_input(
        120_000, 4
    )  # above WORKER_MIN_RECORDS: the root's halves go on apart
    counts = np.bincount(codes)
    per_class = layout_counts(counts, check_feasible(counts, 2.0, 10))
    one = split_nodes(X, codes, per_class, max_records=2000, workers=1, compiled=False)
    two = split_nodes(X, codes, per_class, max_records=2000, workers=2, compiled=False)
    assert all(np.array_equal(a, b) for a, b in zip(one, two, strict=True))
    if importlib.util.find_spec("numba") is not None:
        fast = split_nodes(X, codes, per_class, max_records=2000, workers=2, compiled=True)
        assert all(np.array_equal(a, b) for a, b in zip(one, fast, strict=True))


@pytest.mark.parametrize("bounded", [False, True])
def test_the_checked_pass_makes_only_exact_gains_within_the_limits(bounded):
    # the changes the greedy batch leaves out are judged again one by one: each one made must
    # lower the SSE by exactly its recomputed gain and keep sizes (and bounds)
    from engine.release.partition import _Classes

    X, codes = toy_partition_input(3000, 3, seed=4)
    k, t = 8, 2.5
    labels = tclose_blocks(X, codes, k, t, block_size=400, refine=0)
    top = max(2 * k - 1, int(np.bincount(labels).max()))
    bounds = None
    if bounded:
        top += 4
        bounds = bucket_bounds(codes, np.bincount(codes) / len(codes), t, k, top)
    state = _Classes(X, labels, cap=top, bounds=bounds)
    rng = np.random.default_rng(1)
    rows = rng.integers(0, len(X), 4000)
    dst = rng.integers(0, state.m, 4000)
    partner = np.where(rng.random(4000) < 0.5, -1, rng.integers(0, len(X), 4000))
    # a partner must sit in the target class: take a member of it
    swap = partner >= 0
    partner[swap] = state.members[dst[swap], 0]
    src = state.labels[rows]
    before = state.sse()
    touched = np.zeros(state.m, dtype=bool)
    made = state.apply_checked(rows, dst, partner, src, k, touched)
    assert made > 0
    after = state.sse()
    assert after < before
    sizes = np.bincount(state.labels, minlength=state.m)
    assert (sizes == state.sizes).all() and sizes.min() >= k
    if bounded:
        assert _valid(state.labels, codes, k, t)
    assert sizes.max() <= top
    # the incremental sums are the partition's
    exact = sum(
        ((X[state.labels == c] - X[state.labels == c].mean(axis=0)) ** 2).sum()
        for c in range(state.m)
    )
    assert after == pytest.approx(exact, rel=1e-9)
    assert touched.sum() >= 1


def _one_fence_per_class(labels: np.ndarray, fence: np.ndarray) -> bool:
    return int(pd.Series(fence).groupby(labels).nunique().max()) == 1


def test_fences_hold_in_the_round_and_in_the_checked_pass():
    # classes formed inside fences (household groups) must stay inside them: the round's
    # moves and exchanges, and the left-out changes the checked pass judges again
    from engine.release.partition import ClassBounds, _Classes

    X, codes = toy_partition_input(3000, 3, seed=4)
    k, t = 8, 2.5
    labels = tclose_blocks(X, codes, k, t, block_size=400, refine=0)
    fence = labels % 2  # neighbouring classes fall in different fences
    shares = np.bincount(codes) / len(codes)
    free = improve_within_bounds(X, labels, codes, shares, t, k, 8, NO_TASK)
    assert not _one_fence_per_class(free, fence)  # without the fence, classes mix
    fenced = improve_within_bounds(X, labels, codes, shares, t, k, 8, NO_TASK, fence=fence)
    assert _one_fence_per_class(fenced, fence) and _valid(fenced, codes, k, t)
    assert not np.array_equal(fenced, labels)  # it still improved inside the fences
    # the checked pass alone, given changes across fences as well as inside them
    top = max(2 * k - 1, int(np.bincount(labels).max())) + 4
    plain = bucket_bounds(codes, shares, t, k, top)
    bounds = ClassBounds(plain.codes, plain.low, plain.high, fence=fence)
    state = _Classes(X, labels, cap=top, bounds=bounds)
    rng = np.random.default_rng(1)
    rows = rng.integers(0, len(X), 4000)
    dst = rng.integers(0, state.m, 4000)
    partner = np.where(rng.random(4000) < 0.5, -1, state.members[dst, 0])
    touched = np.zeros(state.m, dtype=bool)
    made = state.apply_checked(rows, dst, partner, state.labels[rows], k, touched)
    assert made > 0
    assert _one_fence_per_class(state.labels, fence) and _valid(state.labels, codes, k, t)
