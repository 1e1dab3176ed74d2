"""QI encoding: standardised numeric, rank-scaled ordinal, 0/1 nominal at unit distance."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from engine.errors import InputError
from engine.release import encode_qi, numeric_values
from engine.roles import ColumnType


def test_nominal_categories_are_at_squared_distance_one():
    X = encode_qi(pd.DataFrame({"c": ["a", "b", "a", "c"]}), ["c"], {"c": ColumnType.NOMINAL})
    assert ((X[0] - X[1]) ** 2).sum() == pytest.approx(1.0)
    assert ((X[0] - X[2]) ** 2).sum() == 0


def test_numeric_is_standardised_and_missing_gets_an_indicator():
    X = encode_qi(pd.DataFrame({"x": [1.0, 2.0, 3.0, None]}), ["x"], {"x": ColumnType.NUMERIC})
    assert X.shape == (4, 2)
    assert X[:3, 0].mean() == pytest.approx(0) and X[:3, 0].std() == pytest.approx(1)
    assert X[:, 1].tolist() == [0, 0, 0, 1]


def test_ordinal_uses_the_rank_in_the_declared_order():
    data = pd.DataFrame({"o": ["high", "low", "mid", "low"]})
    X = encode_qi(data, ["o"], {"o": ColumnType.ORDINAL}, {"o": ("low", "mid", "high")})
    ranks = np.array([2, 0, 1, 0])
    z = (ranks - ranks.mean()) / ranks.std()
    assert X[:, 0] == pytest.approx(z)


def test_bad_numbers_are_clear_errors():
    with pytest.raises(InputError, match="abc"):
        encode_qi(pd.DataFrame({"x": ["1", "abc"]}), ["x"], {"x": ColumnType.NUMERIC})


def test_a_value_that_does_not_parse_is_named_with_its_column():
    numbers = pd.Series(["1", "abc", "def"], name="x")
    with pytest.raises(InputError, match=r"^Column 'x' is numeric but 'abc' is not a number; "):
        numeric_values(numbers, ColumnType.NUMERIC)
    dates = pd.Series(["2020-01-31", None, "soon"], name="d")
    with pytest.raises(InputError, match=r"^Column 'd' is a date column but 'soon' is not a date"):
        numeric_values(dates, ColumnType.DATE)
    assert np.isnan(numeric_values(pd.Series(["2", None]), ColumnType.NUMERIC)[1])
