"""The verifier and the distance of KBS 2015 Definition 4 on hand-computed cases."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from engine.errors import InputError, VerificationError
from engine.release import class_distances, group_ids, verify_release


def figure2_release() -> pd.DataFrame:
    """KBS 2015 Figure 2: 12 values, buckets B1–B3 of four, classes E1–E3 of four.

    E_i holds two records of B_i and one of each other bucket.
    """
    rows = []
    for e in range(3):
        for b in range(3):
            rows += [(f"E{e + 1}", f"B{b + 1}")] * (2 if b == e else 1)
    return pd.DataFrame(rows, columns=["qi", "conf"])


def test_figure2_is_exactly_one_point_five_close():
    v = verify_release(figure2_release(), ["qi"], ["conf"], t=1.5, k=4)
    assert v.ok
    assert v.k == 4 and v.n_classes == 3
    assert v.t == pytest.approx(1.5)
    # p_E = 1/2 vs 1/3 gives 1.5; 1/4 vs 1/3 gives 4/3
    assert not verify_release(figure2_release(), ["qi"], ["conf"], t=1.49).ok


def test_hand_computed_distance_and_infinite_for_a_missing_bucket():
    classes = np.array([0, 0, 0, 0, 1, 1, 1, 1, 1, 1])
    buckets = np.array([0, 0, 0, 1, 1, 1, 1, 1, 1, 0])
    # overall: p0 = 4/10, p1 = 6/10; class 0: 3/4, 1/4; class 1: 1/6, 5/6
    d = class_distances(classes, buckets)
    assert d[0] == pytest.approx(max(0.75 / 0.4, 0.6 / 0.25))
    assert d[1] == pytest.approx(max((5 / 6) / 0.6, 0.4 / (1 / 6)))
    table = pd.DataFrame({"q": [1, 1, 2, 2], "c": ["a", "b", "a", "a"]})
    v = verify_release(table, ["q"], ["c"], t=100)
    assert math.isinf(v.t) and not v.ok
    assert v.worst_class == {"q": 2}


def test_identical_distributions_are_at_distance_one():
    table = pd.DataFrame({"q": [1, 1, 2, 2], "c": ["a", "b", "a", "b"]})
    v = verify_release(table, ["q"], ["c"], t=1.0, k=2)
    assert v.t == pytest.approx(1.0) and v.ok


def test_missing_values_are_values_of_their_own():
    table = pd.DataFrame({"q": [1, 1, None, None], "c": ["a", None, "a", None]})
    v = verify_release(table, ["q"], ["c"], t=1.0, k=2)
    assert v.n_classes == 2 and v.ok


def test_joint_confidential_columns_form_the_bucket():
    table = pd.DataFrame({"q": [1, 1, 2, 2], "c1": ["a", "a", "a", "a"], "c2": [1, 2, 1, 2]})
    assert verify_release(table, ["q"], ["c1", "c2"], t=1.0).ok
    table["c2"] = [1, 1, 2, 2]
    assert math.isinf(verify_release(table, ["q"], ["c1", "c2"]).t)


def test_k_failure_names_the_small_class():
    table = pd.DataFrame({"q": [1, 1, 1, 2], "c": ["a"] * 4})
    v = verify_release(table, ["q"], ["c"], k=2)
    assert not v.ok and v.k == 1
    assert "only 1 records" in v.message
    assert v.worst_class == {"q": 2}
    with pytest.raises(VerificationError, match="only 1 records"):
        v.raise_if_failed()
    verify_release(table, ["q"], ["c"], k=1).raise_if_failed()  # a release that holds passes


def test_no_qi_means_one_class_and_missing_column_is_an_input_error():
    table = pd.DataFrame({"c": ["a", "b"]})
    v = verify_release(table, [], ["c"], t=1.0, k=2)
    assert v.ok and v.n_classes == 1
    with pytest.raises(InputError):
        verify_release(table, ["q"], ["c"])


def test_worst_class_and_bucket_are_named():
    table = pd.DataFrame({"q": [1, 1, 1, 1, 2, 2, 2, 2], "c": list("aaab") + list("abbb")})
    v = verify_release(table, ["q"], ["c"])
    # class 1 holds b at 1/4 against 1/2 overall: distance 2 (a gives only 3/4 : 1/2 = 1.5)
    assert v.t == pytest.approx(2.0)
    assert v.worst_class == {"q": 1} and v.worst_bucket == {"c": "b"}
    lacking = pd.DataFrame({"q": [1, 1, 2, 2], "c": ["a", "b", "b", "b"]})
    assert verify_release(lacking, ["q"], ["c"]).worst_bucket == {"c": "a"}


def test_groups_are_those_of_the_cells_as_text():
    """Rows group as their cells read as text (missing a value of its own), numbered in the
    order they first occur: floats by their shortest text (0.0 and −0.0 apart, every NaN
    missing), objects of mixed types by their text (1 and "1" together, 1.0 apart)."""
    rng = np.random.default_rng(2)
    n = 400
    table = pd.DataFrame(
        {
            "int": rng.integers(0, 3, n),
            "float": rng.choice([0.0, -0.0, np.nan, 1.5, 1e16, 1e16 + 2, np.inf], n),
            "text": pd.Series(rng.choice(["a", "b", "", "\x00NA", None], n), dtype="str"),
            "object": pd.Series(rng.choice([1, "1", 1.0, True, None], n), dtype=object),
            "nullable": pd.Series(rng.choice([1, 2, None], n), dtype="Int64"),
            "flag": rng.random(n) < 0.5,
            "single": rng.choice([0.25, np.nan], n).astype(np.float32),
        }
    )
    for columns in (["int"], ["float"], ["text", "object"], list(table.columns)):
        text = table[columns].astype("string").fillna("\x00NA")
        expected = text.groupby(columns, sort=False).ngroup().to_numpy()
        assert group_ids(table, columns).tolist() == expected.tolist()
