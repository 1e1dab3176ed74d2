"""An intruder who follows the released household ids, or reads the weight as a key.

Household ids let anyone group a household's members: the release must leave every id's
pattern of classes shared by k households and every member's bucket t-close to an intruder
who follows it; a weight is a key like any QI.  Checked independently here (pandas groupings
of the released table, not the engine's verifier) on the synthetic survey, by hand on small
tables, and over random weights for the numbers the weights make.
"""

from __future__ import annotations

import json
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import anonymize, plan
from engine.params import ReleaseParams
from engine.release import disclosure_risk, verify_release
from engine.release.columns import decimal_places
from engine.release.households import class_weights
from tests.cli_support import tclose
from tests.survey_data import household_survey

QI = ("commune", "age", "sex", "married", "educ")


def linking_attack(table: pd.DataFrame, qi, confidential, household: str) -> pd.DataFrame:
    """Per released record with an id: how many households share its household's pattern of
    classes, and its bucket's share among the records its pattern and class leave over the
    bucket's share in the whole release (posterior / prior), computed with plain pandas."""
    frame = pd.DataFrame(
        {
            "cls": table.groupby(list(qi), dropna=False).ngroup(),
            "bucket": table.groupby(list(confidential), dropna=False).ngroup(),
            "home": table[household],
        }
    )
    prior = frame["bucket"].value_counts(normalize=True)
    linked = frame[frame["home"].notna()].copy()
    pattern = linked.groupby("home")["cls"].agg(lambda s: tuple(sorted(s)))
    linked["pattern"] = linked["home"].map(pattern)
    linked["sharing"] = linked["home"].map(pattern.map(pattern.value_counts()))
    cell = linked.groupby(["pattern", "cls"])["bucket"]
    share = cell.transform(lambda s: s.map(s.value_counts(normalize=True)))
    linked["ratio"] = share / linked["bucket"].map(prior)
    return linked


@pytest.fixture(scope="module")
def survey() -> pd.DataFrame:
    return household_survey(1500, seed=11)


@pytest.fixture(scope="module")
def release(survey):
    params = ReleaseParams(qi=QI, confidential=("illness_days",), t=2.0, k=5,
                           household="household", weight="weight")  # fmt: skip
    return anonymize(survey, params)


def test_every_released_id_is_shared_and_teaches_no_more_than_t(release):
    attack = linking_attack(release.table, QI, ["illness_days"], "household")
    assert attack["sharing"].min() >= 5  # every pattern shared by k households
    assert attack["ratio"].max() <= 2.0 * (1 + 1e-9)  # and following it stays t-close
    # almost everybody keeps an id; those who do not are counted in the summary
    assert len(attack) >= 0.9 * len(release.table)
    homes = release.summary.households
    assert homes.records_without_id == len(release.table) - len(attack)
    assert homes.pattern_k == release.verification.pattern_k >= 5
    assert homes.linking_t == pytest.approx(release.verification.linking_t)


def test_persons_classed_without_households_would_be_found():
    """The attack itself: classes of persons, ids released as they were before."""
    data = household_survey(1500, seed=11)
    params = ReleaseParams(qi=QI, confidential=("illness_days",), t=2.0, k=5,
                           household="household", household_output="none")  # fmt: skip
    release = anonymize(data, params)
    table = release.table.assign(household=data["household"].to_numpy()[release.source_rows])
    attack = linking_attack(table, QI, ["illness_days"], "household")
    assert attack["sharing"].min() < 5 and attack["ratio"].max() > 2.0
    v = verify_release(table, QI, ["illness_days"], t=2.0, k=5, household="household")
    assert not v.ok and v.pattern_k < 5 and v.linking_t > 2.0
    assert "pattern of classes" in v.message


def test_a_household_of_a_size_no_other_shares_is_released_without_an_id(survey):
    big = survey[survey["household"] == survey["household"].iloc[0]].copy()
    big = pd.concat([big] * (13 // len(big) + 1), ignore_index=True).iloc[:13]
    big["household"] = -1
    big["hh_size"] = 13
    big["age"] = np.arange(13) * 5 + 3
    data = pd.concat([survey, big], ignore_index=True)
    params = ReleaseParams(qi=QI, confidential=("illness_days",), t=2.0, k=5,
                           household="household", weight="weight", n_buckets=2)  # fmt: skip
    release = anonymize(data, params)
    rows = release.source_rows
    of_big = data["household"].to_numpy()[rows] == -1
    assert release.table["household"][of_big].isna().all()
    homes = release.summary.households
    assert homes.records_without_id >= 13 and homes.households_without_id >= 1
    assert release.verification.ok


def test_the_verifier_follows_ids_and_reads_the_weight_as_a_key(tmp_path):
    # six households of two: classes a, b, c hold 4 records each; households 1-2 have
    # pattern (a, b), 3-4 (a, c), 5-6 (b, c): each pattern shared by 2 households
    table = pd.DataFrame(
        {
            "q": list("ababacacbcbc"),
            "y": ["lo", "hi", "lo", "hi", "lo", "hi", "hi", "lo", "lo", "hi", "hi", "lo"],
            "hh": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6],
            "w": [10.0] * 12,
        }
    )
    v = verify_release(table, ["q"], ["y"], t=2.0, k=2, household="hh", weight="w")
    assert v.pattern_k == 2 and v.households_below_k == 0 and v.weight_k == 4
    # pattern (a, b) leaves member a of households 1-2 with "lo" only: the bucket is sure,
    # though every class holds either value
    assert v.t <= 2.0 and v.linking_t == np.inf
    assert not v.ok and "follows the household ids" in v.message
    table.loc[[2, 3], "y"] = ["hi", "lo"]  # household 2 the other way round
    v = verify_release(table, ["q"], ["y"], t=2.0, k=2, household="hh", weight="w")
    assert v.ok and v.linking_t == pytest.approx(1.0)
    # k = 3: every pattern is shared by only two households
    v = verify_release(table, ["q"], ["y"], k=3, household="hh")
    assert not v.ok and v.households_below_k == 6 and "fewer than 3 households" in v.message
    # an empty id is a record nobody can link: it is left out of the patterns
    table.loc[[0, 1], "hh"] = None
    v = verify_release(table, ["q"], ["y"], k=1, household="hh")
    assert v.records_without_id == 2 and v.pattern_k == 1
    # a weight of its own splits a class: k with the weight as a key falls
    table.loc[5, "w"] = 11.0
    v = verify_release(table, ["q"], ["y"], k=2, weight="w")
    assert v.weight_k == 1 and not v.ok and "weight as a key" in v.message
    path = tmp_path / "release.csv"
    table.to_csv(path, index=False)
    line = "verify {path} --qi q --confidential y --k 2"
    assert tclose(line, path=path) == 0
    assert tclose(line + " --weight w", path=path) == 4
    assert tclose(line + " --household hh --t 2", path=path) == 4


def test_verify_command_reports_what_following_the_ids_leaves(tmp_path, release, capsys):
    path = tmp_path / "release.csv"
    release.table.to_csv(path, index=False)
    line = (f"verify {{path}} --qi {','.join(QI)} --confidential illness_days --t 2 --k 5 "
            "--household household --weight weight")  # fmt: skip
    capsys.readouterr()
    assert tclose(line, path=path) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pattern_k"] >= 5 and out["linking_t"] <= 2.0 and out["weight_k"] >= 5
    assert out["records_without_id"] == release.summary.households.records_without_id


def test_the_risk_after_follows_the_ids():
    # households 1 and 2 share pattern (a, b); household 3 is alone on (a, c)
    classes = np.array([0, 1, 0, 1, 0, 2, 0, 1, 2])
    homes = np.array([1, 1, 2, 2, 3, 3, None, None, None], dtype=object)
    plain = disclosure_risk(classes, households=homes)
    linked = disclosure_risk(classes, households=homes, linked=True)
    assert plain.max_risk == pytest.approx(1 / 2)  # class c holds 2 records
    # following the ids, household 3's two members are each alone in their cell
    assert linked.linked and linked.max_risk == 1.0
    assert linked.expected_reidentifications > plain.expected_reidentifications
    assert linked.n_household_unique == plain.n_household_unique


# -- the numbers the weights make ------------------------------------------------------------


def _is_clean(value: float, places: int) -> bool:
    """``value`` prints as at most ``places`` decimals (no floating-point residue)."""
    return -Decimal(repr(float(value))).as_tuple().exponent <= max(places, 0)


@settings(max_examples=40, deadline=None)
@given(
    weights=st.lists(st.floats(0.5, 5000.0), min_size=60, max_size=60),
    scale=st.sampled_from([1.0, 0.1, 0.01, 100.0]),
)
def test_released_numbers_carry_no_floating_point_residue(weights, scale):
    rng = np.random.default_rng(len(weights))
    data = pd.DataFrame(
        {
            "g": rng.integers(0, 6, 60),
            "y": np.round(rng.gamma(2.0, 30.0, 60) / scale) * scale,
            "w": np.round(np.asarray(weights), 2),
        }
    )
    data.loc[:9, "y"] = 7 * scale  # a bucket that may hold one value only
    params = ReleaseParams(qi=("g",), confidential=("y",), t=3.0, k=5, weight="w",
                           n_buckets=3)  # fmt: skip
    planned = plan(data, params)
    step_places = max(0, -Decimal(repr(scale)).as_tuple().exponent)
    for stats in planned.bucket_data.stats:
        stat = stats[0]
        low, high = stat.limits
        w = data["w"].to_numpy()
        # a mean is a multiple of its rounding step, which prints with few digits, inside
        # the bucket (else withheld: the median)
        assert _is_clean(stat.mean, step_places + 8), stat.mean
        assert low - 1e-9 <= float(stat.mean) <= high + 1e-9 or stat.dominated
        assert len(repr(float(stat.mean)).replace("-", "").lstrip("0.")) <= 14
    released = class_weights(data["w"].to_numpy(), data["g"].to_numpy())
    places = decimal_places(data["w"].to_numpy())
    assert all(_is_clean(x, places + 2) for x in released)  # classes of fewer than 100
    for g in np.unique(data["g"]):  # Σ w per class kept to the weights' own precision
        inside = data["g"].to_numpy() == g
        assert abs(released[inside].sum() - w[inside].sum()) <= 0.5 * 10.0**-places + 1e-9


def test_a_weighted_mean_is_rounded_by_its_bucket_public_limits_not_its_values():
    # a bucket [50, 100): its own values span 55.5 to 84.8, but the step is set by its
    # public width: one record moves the mean by at most w_max · 50 / Σw
    y = np.r_[np.full(30, 10.0), np.linspace(55.5, 84.8, 30), np.full(30, 150.0)]
    data = pd.DataFrame({"g": np.arange(90) % 9, "y": y, "w": np.r_[np.full(89, 2.0), 20.0]})
    params = ReleaseParams(qi=("g",), confidential=("y",), t=3.0, k=5, weight="w",
                           n_buckets=3, bounds={"y": (0, 200)})  # fmt: skip
    stats = plan(data, params).bucket_data.stats
    middle = stats[1][0]
    low, high = middle.limits
    assert low <= 55.5 and high >= 84.8
    w = data["w"].to_numpy()[30:60]
    step = Decimal(repr(float(_step(float(w.max()) * (high - low) / w.sum()))))
    assert Decimal(repr(float(middle.mean))) % step == 0
    # a bucket of one value releases that value, exactly
    assert stats[0][0].mean == 10 and repr(float(stats[0][0].mean)) == "10.0"


def _step(width: float) -> float:
    from engine.release.columns import step_at_least

    return step_at_least(width)
