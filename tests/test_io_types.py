"""Type guesses with confidences, missing-code suggestions, and declared missing codes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from engine.errors import InputError
from engine.io import apply_missing, infer_types
from engine.io.types import code_reason, infer_type
from engine.roles import ColumnType


def guess(values, **kwargs):
    return infer_type(pd.Series(values, **kwargs))


def test_numbers_are_numeric_with_full_confidence():
    g = guess(np.linspace(0, 100, 50))
    assert g.type == ColumnType.NUMERIC and g.confidence == 1.0


def test_few_whole_numbers_may_be_codes():
    g = guess([1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3])
    assert g.type == ColumnType.NUMERIC and g.confidence < 1.0
    assert "only 3 different values (1, 2, 3)" in g.note and "ordinal" in g.note


def test_sentinel_minimum_is_suggested_as_missing():
    values = [-10000] * 20 + list(range(0, 2000, 10)) + [-5200]
    g = guess(values)
    assert g.suggested_missing == ("-10000",)
    assert "-10000, appears 20 times" in g.note


def test_ordinary_negative_minimum_is_not_a_sentinel():
    assert guess([-3, -1, 0, 2, 5, 7, 9, -3, 4]).suggested_missing == ()
    assert guess([-17] * 5 + list(range(20))).suggested_missing == ()  # -17 is no code


def test_mixed_numbers_and_text_are_reported_with_the_texts():
    g = guess(["12", "40", "N/A", "33", "-", "50", "N/A", "8"])
    assert g.type == ColumnType.NUMERIC
    assert g.confidence == pytest.approx(5 / 8)
    assert g.suggested_missing == ("N/A", "-")
    assert "'N/A' (2×)" in g.note


def test_text_numbers_with_leading_zeros_are_codes():
    g = guess(["01234", "80331", "00100"])
    assert g.type == ColumnType.NOMINAL and "leading zeros" in g.note


def test_dates():
    assert guess(pd.to_datetime(["2020-01-01", "2021-05-06"])).type == ColumnType.DATE
    assert guess(["2020-01-01", "2021-05-06", "2022-12-31"]).type == ColumnType.DATE
    partial = guess(["2020-01-01"] * 9 + ["unknown"])
    assert partial.type == ColumnType.DATE and partial.confidence == pytest.approx(0.9)
    assert partial.suggested_missing == ("unknown",)


@pytest.mark.parametrize(
    ("values", "order"),
    [
        (["High", "Low", "Medium", "Low"], ("Low", "Medium", "High")),
        (["often", "never", "always", "sometimes"], ("never", "sometimes", "often", "always")),
        (
            ["Agree", "Strongly disagree", "Neutral", "Strongly agree"],
            ("Strongly disagree", "Neutral", "Agree", "Strongly agree"),
        ),
        (["S", "XL", "M", "L"], ("S", "M", "L", "XL")),
        (["3rd", "1st", "2nd", "4th"], ("1st", "2nd", "3rd", "4th")),
        (["30-39", "<20", "60+", "20-29"], ("<20", "20-29", "30-39", "60+")),
        (["Grade 10", "Grade 2", "Grade 1"], ("Grade 1", "Grade 2", "Grade 10")),
        (["alto", "bajo", "medio"], ("bajo", "medio", "alto")),
        (
            ["De acuerdo", "Totalmente en desacuerdo", "En desacuerdo"],
            ("Totalmente en desacuerdo", "En desacuerdo", "De acuerdo"),
        ),
        (["Moyen", "Élevé", "Faible"], ("Faible", "Moyen", "Élevé")),
        # education levels as the adult (CPS) and American Community Survey files write them
        (
            ["Bachelors", "HS-grad", "11th", "Masters", "Preschool", "Doctorate", "7th-8th",
             "Some-college", "Assoc-voc", "Prof-school", "1st-4th"],
            ("Preschool", "1st-4th", "7th-8th", "11th", "HS-grad", "Some-college", "Assoc-voc",
             "Bachelors", "Masters", "Prof-school", "Doctorate"),
        ),
        (
            ["High school", "Bachelor's degree", "College dropout (>1 year)", "No schooling",
             "Grade 12 (no diploma)", "GED", "Kindergarten", "Doctorate degree", "Grade 3",
             "College dropout (<1 year)", "Associate's degree", "Master's degree"],
            ("No schooling", "Kindergarten", "Grade 3", "Grade 12 (no diploma)", "High school",
             "GED", "College dropout (<1 year)", "College dropout (>1 year)",
             "Associate's degree", "Bachelor's degree", "Master's degree", "Doctorate degree"),
        ),
    ],
)  # fmt: skip
def test_ordinal_heuristic_proposes_an_order(values, order):
    g = guess(values)
    assert g.type == ColumnType.ORDINAL
    assert g.order == order
    assert " < ".join(order) in g.note


def test_an_education_column_with_a_missing_word_is_ordered_once_the_word_is_declared():
    """Until "N/A" is declared missing the levels are categories (an order has no place for
    it), and the note proposes the order; declared, the column is ordinal."""
    values = pd.DataFrame(
        {"school": ["N/A", "Master's degree", "High school", "Bachelor's degree", "N/A"]}
    )
    order = ("High school", "Bachelor's degree", "Master's degree")
    g = infer_type(values["school"])
    assert g.type == ColumnType.NOMINAL and g.suggested_missing == ("N/A",)
    assert g.order == order and " < ".join(order) in g.note and "'N/A'" in g.note
    declared = infer_types(apply_missing(values, ["N/A"]))["school"]
    assert declared.type == ColumnType.ORDINAL and declared.order == order


def test_integer_codes_named_like_codes_are_nominal_with_the_reason():
    rng = np.random.default_rng(3)
    communes = rng.integers(1, 300, 6000)
    g = infer_type(pd.Series(communes, name="commune"))
    assert g.type == ColumnType.NOMINAL
    assert "299 different values repeated about 20 times" in g.note and "'commune'" in g.note
    for name in ("REGION", "id_municipio", "naicsCode", "CodPostal", "departement"):
        assert infer_type(pd.Series(communes, name=name)).type == ColumnType.NOMINAL, name
    # quantities keep their type, whatever their repeats: the name is not a code's
    for name in ("age", "income", "hours", "children"):
        assert infer_type(pd.Series(communes, name=name)).type == ColumnType.NUMERIC, name
    # a code on few records each is an identifier's business, not a category
    assert code_reason("region_id", pd.Series(np.arange(500))) is None
    # fractions are never codes
    assert code_reason("region", pd.Series(rng.integers(1, 5, 100) + 0.5)) is None


def test_integer_codes_with_value_labels_are_codes_whatever_their_name():
    reason = code_reason("q17", pd.Series([1, 2, 2, 1, 3]), labelled=True)
    assert reason is not None and "value labels (3 different)" in reason
    assert code_reason("q17", pd.Series([1, 2, 2, 1, 3])) is None


def test_unordered_categories_are_nominal():
    g = guess(["red", "green", "blue", "red"])
    assert g.type == ColumnType.NOMINAL and g.order is None
    assert "3 different values" in g.note
    # categories with numbers that do not order them one to one are not ordinal
    assert guess(["Grade 1", "Grade 1 repeat", "Grade 2"]).type == ColumnType.NOMINAL


def test_missing_words_are_suggested_in_text_columns():
    g = guess(["Yes", "No", "N/A", "Yes"])
    assert g.type == ColumnType.NOMINAL and g.suggested_missing == ("N/A",)
    # ordered once N/A is declared missing; until then categories a release can take (an
    # ordinal guess would refuse the N/A it has no rank for)
    ordinal = guess(["Low", "High", "N/A", "Medium"])
    assert ordinal.type == ColumnType.NOMINAL and ordinal.suggested_missing == ("N/A",)
    assert ordinal.order == ("Low", "Medium", "High")


def test_all_different_values_look_like_an_identifier():
    g = guess([f"Person {i:03d}x" for i in range(30)])
    assert g.type == ColumnType.NOMINAL and "identifier" in g.note


def test_empty_column():
    g = guess([np.nan, np.nan], dtype=float)
    assert g.confidence == 0.0 and "empty" in g.note


def test_infer_types_covers_every_column():
    df = pd.DataFrame({"a": [1, 2], "b": ["x", "y"]})
    assert set(infer_types(df)) == {"a", "b"}


# --------------------------------------------------------------------------- missing codes


def test_apply_missing_on_text_and_numbers():
    df = pd.DataFrame(
        {
            "income": ["100", "N/A", "250", "-9"],
            "age": [30, -9, 40, 50],
            "name": ["a", ".", "c", "d"],
        }
    )
    out = apply_missing(df, ["N/A", -9, "."])
    assert out["income"].dtype == np.float64
    assert out["income"].isna().tolist() == [False, True, False, True]
    assert out["age"].isna().tolist() == [False, True, False, False]
    assert out["name"].isna().tolist() == [False, True, False, False]
    assert df["income"].iloc[1] == "N/A"  # the input is not changed


def test_apply_missing_per_column_and_numeric_text_equality():
    df = pd.DataFrame({"x": ["-9.0", "1", "2"], "y": ["-9", "3", "4"]})
    out = apply_missing(df, column_codes={"x": ["-9"]})
    assert out["x"].isna().tolist() == [True, False, False]
    assert out["y"].tolist() == ["-9", "3", "4"]


def test_apply_missing_keeps_codes_with_leading_zeros_as_text():
    out = apply_missing(pd.DataFrame({"zip": ["01234", "N/A", "80331"]}), ["N/A"])
    assert out["zip"].tolist()[0] == "01234"


def test_apply_missing_unknown_column():
    with pytest.raises(InputError, match="'nope'"):
        apply_missing(pd.DataFrame({"a": [1]}), column_codes={"nope": ["x"]})
