"""Households and sampling weights: the survey generator, the release of a household survey,
the verifier's household checks, and the parameters and messages that go with them."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from engine import anonymize, plan
from engine.errors import InfeasibleError, InputError
from engine.params import ReleaseParams
from engine.release import (
    find_households,
    household_codes,
    merge_for_households,
    separate_members,
    table_risk,
    verify_release,
)
from engine.release.columns import step_at_least
from engine.release.households import households_per_class, recode_ids, shared_classes
from tests.cli_support import tclose
from tests.survey_data import household_survey

#: the QIs of a household survey as agencies hold one (commune is household-level)
SURVEY_QI = ("commune", "age", "sex", "married", "educ")


def survey_params(**fields) -> ReleaseParams:
    values = {
        "qi": SURVEY_QI,
        "confidential": ("illness_days",),
        "household": "household",
        "weight": "weight",
        "t": 3.0,
        "k": 3,
        **fields,
    }
    return ReleaseParams(**values)


@pytest.fixture(scope="module")
def survey() -> pd.DataFrame:
    return household_survey(250, seed=7)


@pytest.fixture(scope="module")
def release(survey):
    return anonymize(survey, survey_params())


# -- the generator -------------------------------------------------------------------------


def test_generator_makes_households_of_1_to_12_with_stratified_weights(survey):
    sizes = survey.groupby("household").size()
    assert sizes.min() >= 1 and sizes.max() <= 12
    assert (survey.groupby("household")["hh_size"].first() == sizes).all()
    for col in ("region", "commune", "hh_size", "dwelling", "expenditure", "weight"):
        assert (survey.groupby("household")[col].nunique() == 1).all(), col
    assert (survey.groupby("household")["age"].nunique() > 1).any()
    # weights follow the region's sampling rate, within the ±15 % non-response adjustment
    spread = survey.groupby("region")["weight"].agg(["min", "max"])
    assert (spread["max"] / spread["min"] < 1.15 / 0.85 + 1e-9).all()
    assert survey["weight"].nunique() > survey["region"].nunique()
    assert household_survey(250, seed=7).equals(survey)
    assert not household_survey(250, seed=8).equals(survey)


# -- the bar: a household survey released at t = 3, k = 3 ------------------------------------


def test_household_ids_are_recoded_and_still_group_the_members(survey, release):
    table = release.table
    original = survey["household"].to_numpy()[release.source_rows]
    released = table["household"]
    given = released.notna().to_numpy()
    assert not set(released.dropna()) & set(survey["household"])  # no id links back
    # one released id per household and one household per released id
    pairs = pd.DataFrame({"o": original[given], "r": released[given]}).drop_duplicates()
    assert pairs["o"].is_unique and pairs["r"].is_unique
    assert set(released.dropna()) == set(range(1, len(pairs) + 1))
    # the households released without an id are counted, and are few
    homes = release.summary.households
    assert (
        homes.records_without_id == int((~given).sum()) == (release.verification.records_without_id)
    )
    lacking = pd.Series(original[~given]).nunique()
    assert homes.households_without_id == lacking
    assert given.mean() >= 0.9


def test_members_share_one_released_commune_and_classes_hold_k_households(release):
    table = release.table
    assert (table.groupby("household")["commune"].nunique() == 1).all()
    v = verify_release(table, SURVEY_QI, ["illness_days"], t=3.0, k=3,
                       household="household", household_level=["commune"])  # fmt: skip
    assert v.ok, v.message
    assert v.households_k >= 3 and v.split_households == 0
    # the table alone counts every record without an id as a household of its own
    assert v.households_k >= release.summary.households.households_k >= 3
    # following the ids: every pattern shared by 3 households, and t still holds
    assert v.pattern_k >= 3 and v.linking_t <= 3.0 * (1 + 1e-9)
    assert release.summary.households.pattern_k == v.pattern_k


def test_weights_are_class_means_and_keep_each_class_population(survey, release):
    table = release.table
    w = survey["weight"].to_numpy()[release.source_rows]
    released = table["weight"].to_numpy()
    classes = release.classes[release.source_rows]
    frame = pd.DataFrame({"c": classes, "w": w, "r": released})
    # one weight per class: the weight never splits a class (two classes whose released
    # values coincide may hold two weights: each part still holds k records, checked below)
    assert (frame.groupby("c")["r"].nunique() == 1).all()
    # Σ w per class kept to the weights' own cents
    sums = frame.groupby("c")[["w", "r"]].sum()
    assert np.allclose(sums["w"].round(2), sums["r"].round(2), rtol=0, atol=0.005 + 1e-9)
    # with the weight as a key the release is still k-anonymous and t-close
    v = verify_release(table, SURVEY_QI, ["illness_days"], t=3.0, k=3, weight="weight")
    assert v.ok and v.weight_k == v.k and v.weight_t == pytest.approx(v.t)
    assert release.summary.weight.output == "class" and release.summary.weight.k == v.k


def test_weighted_totals_are_reported_with_the_released_weights(survey, release):
    rows = release.source_rows
    w = survey["weight"].to_numpy()
    original = float((w * survey["illness_days"]).sum())
    released = float((release.table["weight"] * release.table["illness_days"]).sum())
    totals = release.summary.weighted_totals["illness_days"]
    assert totals["original"] == pytest.approx(original)
    assert totals["released"] == pytest.approx(released)
    # the bucket means are weighted by the released weights: the release's weighted total
    # is that of the original values with those weights, up to the rounding of each mean to
    # the step one record can move it by within the bucket's public limits
    weights = release.table["weight"].to_numpy()
    days = survey["illness_days"].to_numpy()[rows]
    mine = float((weights * days).sum())
    codes = release.buckets.codes[rows]
    slack = 0.0
    for j, stats in enumerate(release.buckets.stats):
        low, high = stats[0].limits
        w_j = weights[codes == j]
        slack += w_j.sum() * step_at_least(w_j.max() * (high - low) / w_j.sum()) / 2
    assert abs(released - mine) <= slack + 1e-6
    assert abs(released - mine) / mine < 0.05
    # the other numeric columns move by the covariance of weight and value within classes
    age = release.summary.weighted_totals["age"]
    assert age["original"] == pytest.approx(float((w * survey["age"]).sum()))
    assert age["relative_error"] < 0.05


def test_summary_carries_risk_before_and_after(release):
    summary = json.loads(json.dumps(release.summary.to_dict()))
    before, after = (summary["expected_reidentifications"][key] for key in ("before", "after"))
    assert 0 < after < before
    risk = summary["household_risk"]
    assert 0 <= risk["after"] < risk["before"] <= 1
    detail = summary["risk"]["after"]
    assert detail["weighted"] and detail["linked"] and summary["risk"]["before"]["linked"]
    # the released ids, each record without one a household of its own
    homes = release.summary.households
    assert detail["n_households"] == 250 - homes.households_without_id + (homes.records_without_id)
    assert detail["max_risk"] <= 1 / 3 + 1e-12  # every cell an intruder can reach holds ≥ 3
    assert summary["households"]["household_level"] == ["commune"]
    # computed from the release alone: its QIs, its weights and its ids, following the ids
    again = table_risk(release.table, SURVEY_QI, ["illness_days"], weight="weight",
                       household="household")  # fmt: skip
    assert again.expected_reidentifications == pytest.approx(detail["expected_reidentifications"])
    assert again.household_risk == pytest.approx(detail["household_risk"])


# -- household-level QIs ---------------------------------------------------------------------


def test_household_level_qis_are_detected_and_declared(survey):
    clean = survey[["commune", "age", "hh_size"]]
    found = find_households(survey["household"], clean, ["commune", "age", "hh_size"])
    assert found.detected == ("commune", "hh_size") and found.level == found.detected
    assert found.n_households == 250 and found.n_missing == 0
    # a slip in one household of ~180: still household-level; in 5 %: named, not taken
    noisy = clean.copy()
    noisy.loc[noisy.index[1], "commune"] = "elsewhere"
    found = find_households(survey["household"], noisy, ["commune", "age"])
    assert found.level == ("commune",) and found.promoted == ("commune",)
    assert found.varied == {"commune": 1}
    several = survey.groupby("household").filter(lambda g: len(g) > 1)["household"].unique()
    slips = survey["household"].isin(several[:9]) & (survey["person"] == 2)
    noisy.loc[slips, "commune"] = "elsewhere"
    found = find_households(survey["household"], noisy, ["commune", "age"])
    assert found.level == () and 0.95 <= found.nearly["commune"] < 0.99
    declared = find_households(survey["household"], noisy, ["commune", "age"], ["commune"])
    assert declared.level == ("commune",) and declared.varied == {"commune": 9}


def test_declared_household_level_column_is_released_alike(survey):
    data = survey.copy()
    data.loc[data.index[1], "commune"] = "elsewhere"  # a data-entry slip in one household
    params = survey_params(household_level=("commune",))
    planned = plan(data, params)
    assert any("differs between the members of 1 household" in w for w in planned.review_warnings)
    release = anonymize(data, params, plan=planned)
    assert (release.table.groupby("household")["commune"].nunique() == 1).all()


def test_persons_only_qis_still_give_k_households_per_class(survey):
    params = survey_params(qi=("age", "sex", "educ"), confidential=(), t=None, k=4)
    release = anonymize(survey, params)
    v = verify_release(release.table, params.qi, [], k=4, household="household")
    assert v.ok and v.households_k >= 4


def test_noise_route_nests_households_too(survey):
    params = survey_params(
        mechanism="laplace", t=None, epsilon=1.0, bounds={"illness_days": (0, 60)}
    )
    release = anonymize(survey, params)
    table = release.table
    assert (table.groupby("household")["commune"].nunique() == 1).all()
    v = verify_release(table, SURVEY_QI, [], k=3, household="household")
    assert v.ok and v.households_k >= 3


def test_weights_kept_unchanged_warn_and_report_k_and_t_with_the_weight(survey):
    planned = plan(survey, survey_params(weight_output="keep"))
    assert any("released unchanged" in w for w in planned.warnings)
    release = anonymize(survey, planned.params, plan=planned)
    w = survey["weight"].to_numpy()[release.source_rows]
    assert (release.table["weight"].to_numpy() == w).all()
    v = verify_release(release.table, SURVEY_QI, ["illness_days"], weight="weight")
    weight = release.summary.weight
    assert weight.output == "keep" and weight.k == v.weight_k and weight.t == v.weight_t
    assert weight.k < release.summary.k_achieved  # near-unique weights split the classes
    assert "weight" in release.summary.public_dict()


def test_household_and_weight_can_be_left_out(survey):
    release = anonymize(survey, survey_params(household_output="none", weight_output="none"))
    assert "household" not in release.table.columns
    assert "weight" not in release.table.columns
    assert release.verification.households_k >= 3  # checked on the ids held beside the table
    assert release.summary.households.output == "none"


# -- pieces ----------------------------------------------------------------------------------


def test_household_codes_read_ids_as_text_and_missing_ids_alone():
    codes, n, missing = household_codes(pd.Series([7, "7", None, 8.0, None, "8"]))
    assert n == 5 and missing == 2
    assert codes[0] == codes[1] and codes[2] != codes[4]
    assert codes[3] != codes[5]  # 8.0 and "8" are different texts


def test_recoded_ids_are_a_fresh_numbering():
    hh = np.array([0, 0, 1, 2, 2, 2])
    a = recode_ids(hh, 3, np.random.default_rng(1))
    assert sorted(set(a)) == [1, 2, 3]
    assert a[0] == a[1] and len({a[0], a[2], a[3]}) == 3
    draws = {tuple(recode_ids(hh, 3, np.random.default_rng(s))) for s in range(20)}
    assert len(draws) > 1
    # households numbered 1, 2, 3 already: the new numbers are no input id
    given = pd.Series([3, 3, 1, 2, 2, 2])
    shifted = recode_ids(hh, 3, np.random.default_rng(1), given)
    assert sorted(set(shifted)) == [11, 12, 13] and not set(shifted) & set(given)
    assert sorted(set(recode_ids(hh, 3, np.random.default_rng(1), given + 500))) == [1, 2, 3]


def test_classes_with_too_few_households_join_their_nearest():
    X = np.array([[0.0], [0.1], [0.2], [5.0], [5.1], [5.2], [9.0], [9.1]])
    classes = np.array([0, 0, 0, 1, 1, 1, 2, 2])
    hh = np.array([0, 1, 2, 3, 3, 4, 5, 6])  # class 1: two households; class 2: two
    merged = merge_for_households(X, classes, hh, 3)
    assert (households_per_class(merged, hh) >= 3).all()
    assert merged[0] == merged[1] == merged[2]  # class 0 is left alone
    assert merged[3] == merged[6]  # 1 and 2 are each other's nearest
    # a fence keeps a class from joining a class of another fence
    fence = np.array([0, 0, 0, 1, 1, 1, 1, 1])
    fenced = merge_for_households(X, classes, hh, 3, fence=fence)
    assert fenced[3] == fenced[6] and fenced[0] != fenced[3]


# -- the verifier's household checks -------------------------------------------------------


def test_verifier_counts_households_per_class_and_split_households():
    table = pd.DataFrame(
        {
            "q": ["a"] * 4 + ["b"] * 4,
            "region": ["N", "N", "N", "N", "S", "S", "N", "N"],
            "hh": [1, 1, 2, 3, 4, 4, 5, 5],
        }
    )
    v = verify_release(table, ["q"], [], k=3, household="hh", household_level=["region"])
    assert not v.ok
    assert v.households_k == 2 and v.n_households == 5 and v.split_households == 0
    assert "only 2 households" in v.message
    table.loc[5, "region"] = "N"  # household 4 now spans two regions
    v = verify_release(table, ["q"], [], k=2, household="hh", household_level=["region"])
    assert not v.ok and v.split_households == 1 and "'region'" in v.message
    with pytest.raises(InputError, match="no column 'zone'"):
        verify_release(table, ["q"], [], household="hh", household_level=["zone"])


def test_verify_command_checks_households(tmp_path, release):
    path = tmp_path / "release.csv"
    release.table.to_csv(path, index=False)
    qi = ",".join(SURVEY_QI)
    line = f"verify {{path}} --qi {qi} --confidential illness_days --t 3 --household household"
    assert tclose(line + " --k 3 --household-level commune", path=path) == 0
    assert tclose(line + " --k 40", path=path) == 4
    assert tclose(f"verify {{path}} --qi {qi} --household-level commune", path=path) == 2


# -- parameters and bad input ----------------------------------------------------------------


def test_params_round_trip_and_refuse_mixed_roles():
    params = survey_params(household_level=("commune",), household_output="none")
    assert ReleaseParams.from_dict(params.to_dict()) == params
    with pytest.raises(InputError, match="only one role: 'age'"):
        survey_params(household="age")
    with pytest.raises(InputError, match="only one role: 'weight'"):
        survey_params(keep=("weight",))
    with pytest.raises(InputError, match="'dwelling' is not one"):
        survey_params(household_level=("dwelling",))
    with pytest.raises(InputError, match="only with a household column"):
        survey_params(household=None, household_level=("commune",))
    with pytest.raises(InputError, match="weight_output"):
        survey_params(weight=None, weight_output="none")


@pytest.mark.parametrize(
    ("value", "shown"),
    [(-2.5, "-2.5"), (0, "0"), ("heavy", "'heavy'"), (None, "an empty cell")],
)
def test_a_bad_weight_names_its_record(survey, value, shown):
    data = survey.astype({"weight": object})
    data.loc[data.index[6], "weight"] = value
    with pytest.raises(InputError, match=f"record 7 holds {shown}"):
        plan(data, survey_params())


def test_bad_weight_exits_2_on_the_command_line(tmp_path, survey):
    data = survey.copy()
    data.loc[data.index[3], "weight"] = -1
    src, out = tmp_path / "survey.csv", tmp_path / "out.csv"
    data.to_csv(src, index=False)
    line = (
        "anonymize {src} -o {out} --qi commune,age --confidential illness_days "
        "--household household --weight weight --t 3 --k 3"
    )
    assert tclose(line, src=src, out=out) == 2
    assert not out.exists()


def test_k_above_the_number_of_households_is_refused():
    data = household_survey(4, seed=1)
    with pytest.raises(InfeasibleError, match="file has 4 households") as caught:
        plan(data, survey_params(k=5))
    assert caught.value.exit_code == 3
    assert caught.value.alternatives[0].params == {"k": 4}


# -- household-level confidential values ------------------------------------------------------


def test_members_are_exchanged_apart_keeping_sizes_and_buckets():
    # two classes of four; household 0 has two members (bucket 1) in class 0
    X = np.array([[0.0], [0.1], [0.2], [0.3], [1.0], [1.1], [1.2], [1.3]])
    classes = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    codes = np.array([1, 1, 0, 0, 1, 0, 1, 0])
    hh = np.array([0, 0, 1, 2, 3, 4, 5, 6])
    apart = separate_members(X, classes, codes, hh)
    assert shared_classes(classes, hh) == 1 and shared_classes(apart, hh) == 0
    assert (np.bincount(apart) == np.bincount(classes)).all()
    for c in (0, 1):  # every class holds the same buckets as before
        assert sorted(codes[apart == c]) == sorted(codes[classes == c])
    # the partner is of the same bucket and the nearest to class 0 of those that fit
    moved = np.flatnonzero(apart != classes)
    assert len(moved) == 2 and codes[moved[0]] == codes[moved[1]] == 1
    # nothing to exchange with: the members stay, and are counted
    alone = separate_members(X[:4], classes[:4], codes[:4], hh[:4])
    assert (alone == classes[:4]).all()


def test_household_level_confidential_keeps_members_apart(survey):
    params = survey_params(confidential=("expenditure",))
    planned = plan(survey, params)
    assert planned.households.confidential_level == ("expenditure",)
    release = anonymize(survey, params, plan=planned)
    homes = release.summary.households
    assert homes.confidential_level == ("expenditure",)
    assert homes.shared_classes == release.verification.shared_classes
    # a few classes too few to part a large household (without the exchanges: over 20 %)
    assert homes.shared_classes <= 0.1 * release.summary.n_classes
    v = verify_release(release.table, SURVEY_QI, ["expenditure"], t=3.0, k=3,
                       household="household", household_level=["commune"])  # fmt: skip
    # the table alone sees the households with an id (those without one count alone)
    assert v.ok and v.shared_classes <= homes.shared_classes


# -- what is published -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["survey.csv", "survey.xlsx"])
def test_published_household_facts_come_from_the_release(tmp_path, survey, name):
    """``published-safe`` on a survey: every number of the published files (households,
    household-level QIs, the risk of the release with its weights and re-coded household ids)
    is computable from the released file and the public parameters; no statistic of the
    original illness days, no original household count or risk, and no seed is printed."""
    from engine.cli import main
    from tests.published import (
        computable,
        leaks,
        published_numbers,
        published_text,
        read_release,
        unexplained,
    )

    path = tmp_path / "input.csv"
    survey.to_csv(path, index=False)
    target, review = tmp_path / name, tmp_path / f"{name}.review.json"
    argv = ["anonymize", str(path), "-o", str(target), "--qi", ",".join(SURVEY_QI),
            "--confidential", "illness_days", "--household", "household", "--weight", "weight",
            "--t", "3", "--k", "3", "--seed", "4242", "--review", str(review)]  # fmt: skip
    assert main(argv) == 0
    assert "4242" not in published_text(target)
    params = survey_params(seed=None)
    table = read_release(target)
    types = {"commune": "nominal", "age": "numeric", "sex": "nominal", "married": "nominal",
             "educ": "ordinal", "illness_days": "numeric"}  # fmt: skip
    printed = published_numbers(target)
    unknown = unexplained(printed, computable(table, params, types))
    assert not unknown, [(p.where, p.text) for p in unknown]
    if name.endswith(".xlsx"):  # the About sheet names the survey's figures for people
        import openpyxl

        sheet = openpyxl.load_workbook(target)["About this release"]
        labels = {str(r[0]) for r in sheet.iter_rows(values_only=True) if r[0]}
        assert not [label for label in labels if "›" in label]  # no raw key paths
        assert {"Households", "fewest households in a class", "expected re-identifications",
                "households unique on their members' quasi-identifiers"} <= labels  # fmt: skip
    # the original's figures stay in the review record
    record = json.loads(review.read_text(encoding="utf-8"))
    before, after = record["risk"]["before"], record["risk"]["after"]
    statistics = {  # (the bucket shares, alike before and after, are public by design)
        f"risk before {key}": float(value)
        for key, value in before.items()
        if isinstance(value, float) and value not in (0.0, 1.0, after[key])
    }
    days = survey["illness_days"].to_numpy(dtype=float)
    weights = survey["weight"].to_numpy(dtype=float)
    statistics.update(
        {"mean": days.mean(), "sd": days.std(), "sd (n-1)": days.std(ddof=1),
         "total": days.sum(), "weighted mean": float((weights * days).sum() / weights.sum())}
    )  # fmt: skip
    statistics["weighted total"] = record["weighted_totals"]["illness_days"]["original"]
    found = leaks(printed, statistics)
    assert not found, [(s, p.where, p.text) for s, p in found]
    assert record["households"]["n_households"] == 250
    assert "expected_reidentifications" in record and "household_risk" in record
