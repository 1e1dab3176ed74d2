"""Disclosure-risk figures on hand-built tables whose answers are counted by hand."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from engine.errors import InputError
from engine.params import ReleaseParams
from engine.release import Release, Verification
from engine.release.measures import household_pattern_uniques, household_risks, individual_risk
from engine.report.risk import class_ids, disclosure_risk, release_risk, table_risk
from tests.factories import disease_buckets, summary_for


@pytest.fixture
def table() -> pd.DataFrame:
    """10 records in 4 QI classes of sizes 1, 2, 3, 4; the class of 4 all share one disease."""
    rows = [
        (30, "M", "A", "flu"),  # unique
        (40, "F", "B", "flu"),
        (40, "F", "B", "cold"),
        (50, "M", "C", "flu"),
        (50, "M", "C", "flu"),
        (50, "M", "C", "cold"),
        (60, "F", "D", "cancer"),
        (60, "F", "D", "cancer"),
        (60, "F", "D", "cancer"),
        (60, "F", "D", "cancer"),
    ]
    return pd.DataFrame(rows, columns=["age", "sex", "zip", "disease"])


def test_uniques_and_reidentification_risk(table: pd.DataFrame) -> None:
    r = table_risk(table, ["age", "sex", "zip"], ["disease"], threshold=0.3)
    assert r.n_records == 10
    assert r.n_classes == 4
    assert r.n_unique == 1
    assert r.share_unique == pytest.approx(0.1)
    assert r.max_risk == 1.0
    # mean of 1/|E| over records = number of classes / N
    assert r.mean_risk == pytest.approx((1 * 1 + 2 * 0.5 + 3 / 3 + 4 / 4) / 10)
    # risk > 0.3: classes of size 1, 2 and 3 (1/3 > 0.3) -> 6 records
    assert r.n_above == 6
    assert r.share_above == pytest.approx(0.6)


def test_threshold_is_strict(table: pd.DataFrame) -> None:
    r = table_risk(table, ["age", "sex", "zip"], threshold=0.5)
    assert r.n_above == 1  # only the unique record; risk 0.5 is not above 0.5
    assert r.max_attribute_share is None and r.prior_max_share is None


def test_attribute_disclosure(table: pd.DataFrame) -> None:
    r = table_risk(table, ["age", "sex", "zip"], ["disease"])
    # the unique record is a class of one that takes one value (share 1) and so is the
    # cancer class of four; argmax takes the first, but the share is what matters
    assert r.max_attribute_share == 1.0
    assert r.prior_max_share == pytest.approx(0.4)  # flu and cancer both 4/10
    coarse = table_risk(table, ["sex"], ["disease"])
    # sex=M: flu 3 of 4; sex=F: cancer 4 of 6
    assert coarse.max_attribute_share == pytest.approx(0.75)
    assert coarse.attribute_class_size == 4
    assert coarse.n_unique == 0 and coarse.max_risk == pytest.approx(1 / 4)


def test_joint_confidential_columns_are_tuples() -> None:
    df = pd.DataFrame({"q": [1, 1, 1, 1], "a": ["x", "x", "y", "y"], "b": [1, 2, 1, 2]})
    joint = table_risk(df, ["q"], ["a", "b"])
    assert joint.max_attribute_share == pytest.approx(0.25)
    assert table_risk(df, ["q"], ["a"]).max_attribute_share == pytest.approx(0.5)


def test_missing_qi_values_form_a_class() -> None:
    df = pd.DataFrame({"age": [30.0, np.nan, np.nan, 30.0], "sex": ["M", None, None, "M"]})
    ids = class_ids(df, ["age", "sex"])
    assert len(set(ids)) == 2
    r = table_risk(df, ["age", "sex"])
    assert r.n_unique == 0 and r.n_classes == 2


def test_bad_input_is_a_clear_error(table: pd.DataFrame) -> None:
    with pytest.raises(InputError, match="not in the table: postcode"):
        table_risk(table, ["postcode"])
    with pytest.raises(InputError, match="threshold"):
        disclosure_risk(np.zeros(3), threshold=0)
    with pytest.raises(InputError, match="no records"):
        disclosure_risk(np.zeros(0))


def _hand_release(table: pd.DataFrame) -> Release:
    """A release of ``table`` made by hand: two classes of five, disease in two buckets."""
    cfg = ReleaseParams(qi=("age", "sex", "zip"), confidential=("disease",), k=5, t=2.0)
    released = pd.DataFrame(
        {
            "age": [40.0] * 5 + [58.0] * 5,
            "sex": ["M"] * 5 + ["F"] * 5,
            "zip": ["A-C"] * 5 + ["C-D"] * 5,
            "disease": [*["{flu}", "{flu}", "{cold}", "{flu}", "{flu}"], "{cold}"]
            + ["{cancer}"] * 4,
        }
    )
    codes = table["disease"].map({"flu": 0, "cold": 1, "cancer": 2}).to_numpy(np.int64)
    buckets = disease_buckets(codes)
    ver = Verification(5, None, 10, 2, np.array([5, 5]), True, "ok")
    return Release(
        table=released,
        params=cfg,
        summary=summary_for(cfg, ver),
        verification=ver,
        classes=np.repeat([0, 1], 5),
        data=table,
        buckets=buckets,
    )


def test_release_risk_before_and_after(table: pd.DataFrame) -> None:
    risk = release_risk(_hand_release(table))
    before, after = risk["before"], risk["after"]
    assert (before.n_unique, before.max_risk, before.n_classes) == (1, 1.0, 4)
    assert (after.n_unique, after.max_risk, after.n_classes) == (0, 0.2, 2)
    assert after.n_above == 0
    assert before.max_attribute_share == 1.0
    assert after.max_attribute_share == pytest.approx(0.8)
    assert before.prior_max_share == after.prior_max_share == pytest.approx(0.4)


def test_comparison_rows_for_people(table: pd.DataFrame) -> None:
    from engine.report.risk import comparison_rows

    risk = release_risk(_hand_release(table))
    rows = {label: (b, a) for label, b, a in comparison_rows(risk["before"], risk["after"])}
    assert rows["records unique on their QI values"] == ("1 (10.0 %)", "0 (0.0 %)")
    assert rows["records with risk above 0.2 (in classes under 5)"] == (
        "10 (100.0 %)",
        "0 (0.0 %)",
    )
    assert rows["re-identification risk (1 in the class size): largest"] == ("1", "0.2")


def test_noisy_numbers_have_no_attribute_figures(table: pd.DataFrame) -> None:
    """Without buckets, shares of exact numeric values would be noise; they are left out."""
    from dataclasses import replace

    release = _hand_release(table)
    release.data = table.assign(disease=np.arange(10.0))
    release.table = release.table.assign(disease=np.arange(10.0) + 0.5)
    release.buckets = None
    release.params = replace(release.params, t=None, epsilon=1.0, mechanism="laplace")
    risk = release_risk(release)
    assert risk["before"].max_attribute_share is None
    assert risk["after"].max_attribute_share is None
    assert risk["after"].n_classes == 2  # identity-disclosure figures are still there


# -- sampling weights and households (sdcMicro measure_risk / indivRisk) -------------------


def test_individual_risk_matches_sdcmicro_worked_numbers() -> None:
    """sdcMicro's own test of ``indivRisk(freqCalc(..., w = 4), method = "approx")``
    (tests/testthat/test_indivRisk.R): eight records, three key variables, weights."""
    keys = pd.DataFrame(
        {
            "A": [2, 3, 2, 2, 3, 3, 1, 2],
            "B": [3, 3, 3, 3, 3, 3, 4, 3],
            "C": [1, 3, 1, 2, 1, 1, 1, 1],
        }
    )
    weights = np.array([18.0, 45.5, 39.0, 17.0, 92.0, 8.0, 123.5, 51])
    risk = individual_risk(class_ids(keys, ["A", "B", "C"]), weights)
    expected = [0.01369863, 0.08579129, 0.01369863, 0.17707583, 0.01877883, 0.01877883,
                0.03931625, 0.01369863]  # fmt: skip
    assert risk == pytest.approx(expected, abs=5e-9)
    # without weights the same records score 1/f, as sdcMicro's survey = FALSE
    unweighted = individual_risk(class_ids(keys, ["A", "B", "C"]))
    assert unweighted == pytest.approx([1 / 3, 1, 1 / 3, 1, 1 / 2, 1 / 2, 1, 1 / 3])


def test_individual_risk_hand_computed() -> None:
    """p = f / Σw = 1/2 in every class: f = 1 gives ln 2, f = 2 gives 1 − ln 2, f = 3 gives
    p / (f − 1 + p) = 0.2; a class that is its whole population (Σw = f) gives 1/f."""
    classes = np.array([0, 1, 1, 2, 2, 2, 3, 3])
    weights = np.array([2.0, 2, 2, 2, 2, 2, 1, 1])
    risk = individual_risk(classes, weights)
    assert risk[0] == pytest.approx(math.log(2))
    assert risk[1:3] == pytest.approx(1 - math.log(2))
    assert risk[3:6] == pytest.approx(0.2)
    assert risk[6:] == pytest.approx(0.5)
    # weights below 1 do not make a population smaller than its sample
    assert individual_risk(np.array([0, 0]), np.array([0.2, 0.3])) == pytest.approx(0.5)


def test_household_risk_and_household_uniques_hand_computed() -> None:
    classes = np.array([0, 1, 0, 1, 2, 3])
    households = np.array([10, 10, 11, 11, 12, 12])
    risk = np.array([0.5, 0.2, 0.5, 0.2, 1.0, 0.1])
    home = household_risks(risk, pd.factorize(households)[0])
    assert home[:4] == pytest.approx(1 - 0.5 * 0.8)  # 0.6 for both households
    assert home[4:] == pytest.approx(1.0)  # one member certain: the household too
    # households 10 and 11 share the pattern {0, 1}; household 12 is unique
    assert household_pattern_uniques(classes, pd.factorize(households)[0]) == (1, 3)
    summary = disclosure_risk(classes, households=households, weights=np.full(6, 2.0))
    assert summary.n_households == 3 and summary.n_household_unique == 1
    assert summary.expected_reidentifications == pytest.approx(summary.mean_risk * 6)
    r = individual_risk(classes, np.full(6, 2.0))
    expected = np.mean([1 - (1 - r[0]) * (1 - r[1])] * 4 + [1 - (1 - r[4]) * (1 - r[5])] * 2)
    assert summary.household_risk == pytest.approx(expected)
    assert summary.household_expected_reidentifications == pytest.approx(6 * expected)


def test_release_risk_reads_the_runs_weights_and_households(table: pd.DataFrame) -> None:
    release = _hand_release(table)
    release.weights = np.full(10, 50.0)
    release.households = np.array([0, 0, 1, 2, 2, 3, 4, 4, 5, 5])
    risk = release_risk(release)
    assert risk["before"].weighted and risk["after"].weighted
    assert risk["after"].max_risk < 0.2  # a class of 5 standing for 250 people
    assert risk["before"].n_households == risk["after"].n_households == 6
    from engine.report.risk import comparison_rows

    labels = [row[0] for row in comparison_rows(risk["before"], risk["after"])]
    assert "households unique on their members' QI values" in labels
    assert any("Benedetti–Franconi" in label for label in labels)
