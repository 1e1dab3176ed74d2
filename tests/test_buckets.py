"""Buckets of confidential values: equal mass, ties kept together, categories grouped."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import InputError
from engine.release import make_buckets, paper_bucket_count, split_sorted
from engine.release.buckets import BucketInput
from engine.roles import ColumnType

NUM = {"c": ColumnType.NUMERIC}


def test_the_papers_bucket_count_is_t_plus_one():
    assert paper_bucket_count(1) == 2
    assert paper_bucket_count(1.5) == 3  # the paper's Figure 2: t = 1.5, three buckets
    assert paper_bucket_count(2) == 3
    assert paper_bucket_count(3) == 4
    assert paper_bucket_count(2.4) == 3
    with pytest.raises(InputError):
        paper_bucket_count(0.5)


def test_twelve_values_in_three_buckets_of_four():
    data = pd.DataFrame({"c": np.arange(12, 0, -1) * 10})
    b = make_buckets(data, ["c"], NUM, 3)
    assert b.counts.tolist() == [4, 4, 4]
    # public round cut points between the buckets (40 | 50 and 80 | 90), open at both ends
    assert b.labels == ["< 50", "[50, 90)", "≥ 90"]
    assert b.codes.tolist() == [2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0]
    assert b.bounds[0] == (None, 50.0)
    assert b.bounds[2] == (90.0, None)
    assert b.representatives[1] == (65.0,)


def test_ties_are_never_split_and_heavy_tie_takes_one_bucket():
    values = [0] * 70 + list(range(1, 31))
    data = pd.DataFrame({"c": values})
    b = make_buckets(data, ["c"], NUM, 3)
    zero_codes = set(b.codes[:70])
    assert len(zero_codes) == 1
    assert b.counts.tolist() == [70, 15, 15]
    # every value maps to exactly one bucket
    frame = pd.DataFrame({"v": values, "b": b.codes})
    assert (frame.groupby("v")["b"].nunique() == 1).all()


def test_tiny_tail_joins_the_heavy_tie_instead_of_forming_a_tiny_bucket():
    # like ACS income: a few negative values, most zero, a positive tail
    weights = np.array([157, 48057] + [10] * 960)
    ends = split_sorted(weights, 3)
    masses = np.add.reduceat(weights, [0, *ends[:-1]])
    assert masses.min() >= 4800


def test_missing_values_form_their_own_last_bucket():
    data = pd.DataFrame({"c": [1.0, 2.0, None, 4.0, None, 6.0]})
    b = make_buckets(data, ["c"], NUM, 2)
    assert b.missing_bucket == 2
    assert b.counts.tolist() == [2, 2, 2]
    assert b.codes[[2, 4]].tolist() == [2, 2]
    assert b.labels[2] == ""


def test_nominal_categories_grouped_into_near_equal_mass():
    data = pd.DataFrame({"c": list("a" * 5 + "b" * 4 + "c" * 3 + "d" * 2 + "e")})
    b = make_buckets(data, ["c"], {"c": ColumnType.NOMINAL}, 2)
    assert sorted(b.counts.tolist()) == [7, 8]
    # a category is never split
    frame = pd.DataFrame({"v": data["c"], "b": b.codes})
    assert (frame.groupby("v")["b"].nunique() == 1).all()
    assert all(lab.startswith("{") for lab in b.labels)


def test_binary_column_gives_at_most_two_buckets():
    data = pd.DataFrame({"c": ["y", "n", "n", "y", "n"]})
    b = make_buckets(data, ["c"], {"c": ColumnType.NOMINAL}, 5)
    assert sorted(b.labels) == ["n", "y"]


def test_ordinal_buckets_follow_the_declared_order():
    order = ("low", "mid", "high", "top")
    data = pd.DataFrame({"c": ["top", "low", "mid", "high"] * 3})
    b = make_buckets(data, ["c"], {"c": ColumnType.ORDINAL}, 2, orders={"c": order})
    assert b.labels == ["[low, mid]", "[high, top]"]
    assert b.counts.tolist() == [6, 6]


def test_joint_buckets_keep_identical_vectors_together():
    rng = np.random.default_rng(0)
    data = pd.DataFrame({"x": rng.integers(0, 5, 200), "y": rng.choice(list("abc"), 200)})
    types = {"x": ColumnType.NUMERIC, "y": ColumnType.NOMINAL}
    b = make_buckets(data, ["x", "y"], types, 4)
    assert len(b.counts) == 4
    assert b.counts.min() >= 25
    frame = data.assign(b=b.codes)
    assert (frame.groupby(["x", "y"])["b"].nunique() == 1).all()
    assert all(len(lab) == 2 for lab in b.column_labels)


def test_unknown_column_is_a_clear_error():
    with pytest.raises(InputError, match="nope"):
        make_buckets(pd.DataFrame({"c": [1]}), ["nope"], None, 2)


def _split_reference(weights: np.ndarray, b: int) -> list[int]:
    """The plain form of split_sorted: the most groups from every start, by a Python loop."""
    weights = np.asarray(weights, dtype=float)
    n = len(weights)
    b = max(1, min(int(b), n))
    cum = np.cumsum(weights)
    total = float(cum[-1])

    def most_groups(threshold: float) -> np.ndarray:
        before = np.concatenate([[0.0], cum[:-1]])
        end = np.searchsorted(cum, before + threshold - 1e-9) + 1
        f = np.zeros(n + 1, dtype=np.int64)
        for s in range(n - 1, -1, -1):
            f[s] = 0 if end[s] > n else 1 + f[end[s]]
        return f

    lo_t, hi_t = float(weights.min()), total / b
    while hi_t - lo_t > 0.5:
        mid = (lo_t + hi_t) / 2
        lo_t, hi_t = (mid, hi_t) if most_groups(mid)[0] >= b else (lo_t, mid)
    if most_groups(hi_t)[0] >= b:
        lo_t = hi_t
    f = most_groups(lo_t)
    ends, start = [], 0
    for i in range(b - 1):
        before = cum[start - 1] if start > 0 else 0.0
        target = before + (total - before) / (b - i)
        first = int(np.searchsorted(cum, before + lo_t - 1e-9)) + 1
        ok = np.flatnonzero(f[first : n + 1] >= b - i - 1)
        candidates = np.arange(first, first + int(ok.max()) + 1 if ok.size else first + 1)
        start = int(candidates[np.argmin(np.abs(cum[candidates - 1] - target))])
        ends.append(start)
    return [*ends, n]


@given(
    weights=st.lists(st.integers(1, 40), min_size=1, max_size=300),
    heavy=st.integers(0, 5_000),
    where=st.floats(0, 1),
    b=st.integers(1, 50),
)
def test_split_sorted_matches_the_plain_reference(weights, heavy, where, b):
    w = np.array(weights)
    w[int(where * (len(w) - 1))] += heavy  # a heavy tie somewhere (an income of 0)
    assert split_sorted(w, b) == _split_reference(w, b)


def test_split_sorted_matches_the_reference_on_real_looking_columns(data_dir):
    acs = pd.read_csv(data_dir / "acs-census-sample.csv.gz", sep=";", usecols=["Income"])
    casc = pd.read_csv(data_dir / "casc-census.csv.gz")
    rng = np.random.default_rng(3)  # incomes in cents: nearly every value distinct, 30 % zero
    cents = np.where(rng.random(5_000) < 0.3, 0.0, np.round(rng.lognormal(10, 1, 5_000), 2))
    columns = [acs["Income"], casc["INTVAL"], casc["AFNLWGT"], pd.Series(cents)]
    for column in columns:
        _, weights = np.unique(column.to_numpy(), return_counts=True)
        for b in (2, 4, 11, 45):
            assert split_sorted(weights, b) == _split_reference(weights, b)


def test_one_input_gives_every_b_the_buckets_of_a_plain_grouping(data_dir):
    """The search of b forms the buckets of several b from one :class:`BucketInput`: each b's
    buckets are those made afresh, and each bucket's label and statistics are those of its
    records selected one bucket at a time (in file order)."""
    casc = pd.read_csv(data_dir / "casc-census.csv.gz")
    rng = np.random.default_rng(5)
    cents = np.where(rng.random(4_000) < 0.3, 0.0, np.round(rng.lognormal(10, 1, 4_000), 2))
    cents[rng.random(4_000) < 0.05] = np.nan  # missing values: a bucket of their own
    for values in (casc["INTVAL"].to_numpy(dtype=float), cents):
        data = pd.DataFrame({"c": values})
        source = BucketInput(data, ["c"], NUM)
        scale = source.scales["c"]
        for b in (8, 2, 22, 4, 8):
            buckets = source.buckets(b)
            fresh = make_buckets(data, ["c"], NUM, b)
            assert buckets.labels == fresh.labels and buckets.stats == fresh.stats
            assert np.array_equal(buckets.codes, fresh.codes)
            for j in range(len(buckets.labels)):
                if j == buckets.missing_bucket:
                    continue
                described = scale.describe(values[buckets.codes == j], *buckets.bounds[j])
                assert described == (buckets.labels[j], buckets.bounds[j], buckets.stats[j][0])
