"""The checks every route runs (``engine/checks.py``): one function per fact, the same
verdict on a whole column and on its partitions combined, and the sentences users read."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.checks import (
    check_columns,
    check_type,
    first_problem,
    named_columns,
    read_weights,
    type_problem,
    weight_problem,
)
from engine.errors import InputError
from engine.params import ReleaseParams
from engine.roles import ColumnType


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ([1.5, 2, 0, 3], "record 3 holds 0; every weight must be a number > 0 (1 record(s)"),
        ([1, "abc", 2], "record 2 holds 'abc'; every weight must be a number > 0"),
        ([1, None, -2], "record 2 holds an empty cell; every weight must be a number > 0 (2"),
        ([1, -5, 2], "record 2 holds -5; every weight must be a number > 0"),
        (
            [1, 1e308, 2],
            "record 2 holds 1e+308; every weight must be a number > 0 and at most 1 × 10¹⁵⁰",
        ),
        ([float("inf")], "record 1 holds inf; every weight must be a number > 0 and at most"),
        ([1, 2**80 * 10**140], "holds 1.20893e+164; every weight must be a number > 0 and at"),
    ],
)
def test_a_bad_weight_names_its_rule_its_record_and_a_short_value(values, message) -> None:
    series = pd.Series(values, name="w", dtype=object)
    with pytest.raises(InputError) as err:
        read_weights(series)
    assert message in err.value.message and len(err.value.message) < 200


def test_good_weights_are_read_as_floats() -> None:
    assert read_weights(pd.Series(["1.5", 2, 3.25])).tolist() == [1.5, 2.0, 3.25]


def test_the_record_number_counts_the_input_rows() -> None:
    with pytest.raises(InputError, match="record 11 holds 0"):
        read_weights(pd.Series([1.0, 0.0], name="w"), rows=np.array([3, 10]))


@pytest.mark.parametrize(
    ("values", "ctype", "message"),
    [
        ([2450, 3100], "date", "Column 'c' is declared a date, but it holds numbers (2450 is"),
        (["2024-01-02", 7], "date", "holds numbers (7 is not a date)"),
        (["2024-01-02", "soon"], "date", "Column 'c' is a date column but 'soon' is not a date"),
        (["1", "N"], "numeric", "Column 'c' is numeric but 'N' is not a number"),
    ],
)
def test_a_type_that_cannot_read_a_value_names_the_first(values, ctype, message) -> None:
    with pytest.raises(InputError) as err:
        check_type(pd.Series(values, name="c", dtype=object), ctype)
    assert message in err.value.message


@pytest.mark.parametrize(
    ("values", "ctype"),
    [
        (["20240131", "19991231", None], "date"),  # texts of digits read as written
        ([1, 2.5, None], "numeric"),
        (["a", 1], "nominal"),
    ],
)
def test_values_the_type_reads_pass(values, ctype) -> None:
    check_type(pd.Series(values, dtype=object), ctype)


WEIGHTS = st.lists(
    st.one_of(st.floats(0.5, 10), st.sampled_from([0, -1, "x", None, 1e200, float("inf")])),
    max_size=30,
)


@given(values=WEIGHTS, cuts=st.lists(st.integers(0, 30), max_size=4))
def test_the_partitions_combined_find_what_the_whole_column_finds(values, cuts) -> None:
    """A cluster checks every partition and combines the findings in file order: the
    first bad value, its place, its rule and the count are those of the whole column."""
    series = pd.Series(values, dtype=object)
    edges = sorted({0, len(series), *(min(c, len(series)) for c in cuts)})
    parts = [(a, series.iloc[a:b]) for a, b in itertools.pairwise(edges)]
    for check in (weight_problem, lambda s: type_problem(s, ColumnType.NUMERIC)):
        whole = check(series)
        combined = first_problem((a, check(part)) for a, part in reversed(parts))
        if whole is None:
            assert combined is None
        else:
            assert combined is not None
            assert (combined.position, combined.count) == (whole.position, whole.count)
            assert repr(combined.value) == repr(whole.value)


def test_every_named_column_must_be_in_the_input() -> None:
    params = ReleaseParams(
        qi=("age",), confidential=("income",), k=5, t=2.0,
        types={"nope": ColumnType.NUMERIC}, orders={"grade": ("a", "b")},
        column_missing={"x" * 5000: ("-9",)},
    )  # fmt: skip
    assert named_columns(params)[:2] == ["age", "income"]
    with pytest.raises(InputError) as err:
        check_columns(params, ["age", "income", "y" * 100_000])
    message = err.value.message
    assert message.startswith("No column named 'nope', 'grade', 'xxx")
    assert len(message) < 300 and "yyy…" in message
    check_columns(params.replace(types={}, orders={}, column_missing={}), ["age", "income"])
