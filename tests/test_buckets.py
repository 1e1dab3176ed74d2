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
    # the median of 50..80 (65) rounded to the step one of its 4 records cannot cross,
    # (90 - 50) / 4 = 10: a bucket of a few records never prints a median of theirs finely
    assert b.representatives[1] == (60,)


def test_ties_are_never_split_and_heavy_tie_takes_one_bucket():
    values = [0] * 70 + list(range(1, 31))
    data = pd.DataFrame({"c": values})
    b = make_buckets(data, ["c"], NUM, 3)
    zero_codes = set(b.codes[:70])
    assert len(zero_codes) == 1
    # the balanced cuts (16, 31) would lie between whole numbers held by one record each,
    # and tell both: the boundaries move to round ones
    assert b.counts.tolist() == [79, 10, 11]
    assert b.labels == ["< 10", "[10, 20)", "≥ 20"]
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
    data = pd.DataFrame({"c": [10.0, 20.0, None, 30.0, 40.0, None, 50.0, 60.0]})
    b = make_buckets(data, ["c"], NUM, 2)
    assert b.missing_bucket == 2
    assert b.counts.tolist() == [3, 3, 2]
    assert b.codes[[2, 5]].tolist() == [2, 2]
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
    data = pd.DataFrame({"c": ["y", "n", "n", "y", "n", "y"]})
    b = make_buckets(data, ["c"], {"c": ColumnType.NOMINAL}, 5)
    assert sorted(b.labels) == ["n", "y"]


@pytest.mark.parametrize(
    ("values", "kind", "b"),
    [
        ([21000, 23500, 38000, 52000, 61000, 75500], ColumnType.NUMERIC, 6),
        (["y", "n", "n", "y", "n"], ColumnType.NOMINAL, 2),
        (list(range(1, 12)), ColumnType.ORDINAL, 6),
    ],
)
def test_no_bucket_holds_fewer_than_the_threshold_rule(values, kind, b):
    """A bucket's label and mean are printed for each of its records: a bucket of one or two
    records would print a person's value, so fewer buckets are formed."""
    from engine.release import MIN_BUCKET

    data = pd.DataFrame({"c": values})
    order = {"c": [str(v) for v in values]} if kind == ColumnType.ORDINAL else None
    made = make_buckets(data.astype(str) if order else data, ["c"], {"c": kind}, b, orders=order)
    assert made.counts.min() >= MIN_BUCKET
    assert len(made.counts) == min(b, len(values) // MIN_BUCKET)
    if kind == ColumnType.NUMERIC:  # a mean or median of a few records is none of theirs
        for stat in (s[0] for s in made.stats):
            assert stat.mean not in values and stat.median not in values


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
    if lo_t < 3 and b > 1 and most_groups(3)[0] < b:  # the threshold rule: fewer groups
        return _split_reference(weights, max(int(most_groups(3)[0]), 1))
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


def test_a_cut_never_tells_the_values_beside_it():
    """Thirty incomes in cents where the balanced cuts of three buckets fall between values a
    cent apart (23456.78 | 23456.79 and 41234.56 | 41234.57): a cut there would be the upper
    one and tell both.  The boundaries move to round cuts; none is a value, none is in cents.
    The same for admission dates a day apart: the cuts are the first of a month."""
    incomes = [
        39300.28, 53673.85, 23456.79, 41234.56, 30890.05, 41234.57, 47371.22, 17568.11,
        42026.82, 54531.89, 47268.97, 11223.67, 20416.57, 59522.28, 16227.67, 28547.22,
        32267.84, 12076.61, 47651.75, 13078.54, 35805.40, 11113.44, 33388.78, 52532.93,
        58050.80, 23456.78, 19549.50, 30259.65, 25818.75, 15630.65,
    ]  # fmt: skip
    made = make_buckets(pd.DataFrame({"income": incomes}), ["income"], NUM, 3)
    cuts = sorted({x for bounds in made.bounds for x in bounds if x is not None})
    assert len(cuts) == 2 and not set(cuts) & set(incomes)
    assert all(float(x) == round(float(x)) for x in cuts)  # coarser than a cent
    days = pd.to_datetime(
        ["2021-04-20", "2021-04-21", "2021-06-29", "2021-06-30"] * 2
        + [f"2021-0{m}-{d:02d}" for m in (3, 5, 7, 8) for d in (3, 9, 14, 22, 27)]
    )
    dated = make_buckets(
        pd.DataFrame({"admitted": days}), ["admitted"], {"admitted": ColumnType.DATE}, 3
    )
    walls = sorted({x for bounds in dated.bounds for x in bounds if x is not None})
    assert walls and all(str(x).endswith("-01") for x in walls)
