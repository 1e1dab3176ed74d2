"""Missing quasi-identifier values stay missing in the release (issue 28, item 1).

Checked on the released file as a user gets it (written and read back), not only on the
summary: every value missing in the input is released empty, the count of empty cells per QI
is the input's plus the known values the run says it withheld, and the file still verifies.

Data: the ACS sample of ``tests/data`` (its real non-response and not-in-universe gaps in
Education, Workclass and Military service; every 20th record), the adult data set with
missing values injected completely at random (seeded, so that the patterns do not depend on
the confidential column; the file itself has none), and hypothesis-drawn tables with
numeric, ordinal, nominal and date QIs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine import ReleaseParams, anonymize, plan, read_table, verify_release, write_release
from engine.errors import InputError
from engine.release import recode_qi, summary_words
from engine.release.columns import pattern_groups, withhold_mixed
from engine.release.partition import max_classes
from engine.roles import ColumnType

ACS_QI = ("Age", "Sex", "Education", "Workclass", "Military service")
#: the ACS release: Income's code -10000 ("not applicable") declared missing
ACS_PARAMS = ReleaseParams(
    qi=ACS_QI, confidential=("Income",), k=5, t=2.0, column_missing={"Income": ("-10000",)}
)


@pytest.fixture(scope="module")
def acs(data_dir) -> pd.DataFrame:
    data = pd.read_csv(data_dir / "acs-census-sample.csv.gz", sep=";", low_memory=False)
    return data.iloc[::20].reset_index(drop=True)


@pytest.fixture(scope="module")
def adult_mcar(data_dir) -> pd.DataFrame:
    """2,000 adult records, 13 % of them with one QI missing, chosen at random: occupation
    (6 %), age (4 %) or education (3 %), as in a survey where an item is skipped now and then."""
    data = pd.read_csv(data_dir / "adult.csv.gz", sep=";").iloc[:2000].copy()
    rng = np.random.default_rng(28)
    draw = rng.random(len(data))
    data["occupation"] = data["occupation"].mask(draw < 0.06)
    data["age"] = data["age"].mask((draw >= 0.06) & (draw < 0.10))
    data["education"] = data["education"].mask((draw >= 0.10) & (draw < 0.13))
    return data


def released_file(release, tmp_path) -> pd.DataFrame:
    path = tmp_path / "release.csv"
    write_release(release.table, path, metadata=release.summary.public_dict())
    return read_table(path).data


def check_missing_kept(release, table: pd.DataFrame, qi) -> None:
    """Every missing value released empty; counts = input + withheld (module doc)."""
    source = release.data.iloc[release.source_rows].reset_index(drop=True)
    counts = release.summary.missing_qi
    for col in qi:
        was_missing = source[col].isna().to_numpy()
        is_empty = release.table[col].isna().to_numpy()
        assert not (was_missing & ~is_empty).any(), f"a missing {col} was filled in"
        before, after = int(was_missing.sum()), int(table[col].isna().sum())
        if before or after:
            assert (counts[col].input, counts[col].released) == (before, after)
            assert counts[col].withheld == after - before >= 0
        else:
            assert col not in counts


def test_missing_qis_stay_missing_in_the_acs_release(acs, tmp_path):
    params = ACS_PARAMS.replace(
        missing_confidential="drop",
        n_buckets=4,
        seed=1,
    )
    release = anonymize(acs, params)
    table = released_file(release, tmp_path)
    check_missing_kept(release, table, ACS_QI)
    counts = release.summary.missing_qi
    # the real gaps: 698 Workclass and 86 Military service among the 2,891 with an income
    assert (counts["Workclass"].input, counts["Military service"].input) == (698, 86)
    # only records whose missing pattern is rare or far off the income mix lend a value
    assert sum(c.withheld for c in counts.values()) <= 0.02 * len(table)
    words = " ".join(p.text() for p in summary_words(release.summary))
    assert "Workclass: the 698 missing values are released empty, none filled in" in words
    assert verify_release(table, ACS_QI, ["Income"], t=2.0, k=5).ok


def test_missing_at_random_is_released_exactly_as_missing(adult_mcar, tmp_path):
    """Missing values unrelated to the confidential column: before = after on every QI."""
    qi = ("age", "sex", "education", "occupation")
    for params in (
        ReleaseParams(qi=qi, confidential=("salary-class",), k=5, t=2.0, seed=3, qi_output="range"),
        ReleaseParams(qi=qi, k=3, seed=3),
    ):
        release = anonymize(adult_mcar, params)
        table = released_file(release, tmp_path)
        check_missing_kept(release, table, qi)
        for col in ("age", "education", "occupation"):
            assert table[col].isna().sum() == adult_mcar[col].isna().sum(), (params, col)
        assert verify_release(table, qi, params.confidential, t=params.t, k=params.k).ok


def test_the_noise_route_keeps_missing_qis_missing(adult_mcar, tmp_path):
    qi = ("age", "education", "occupation")
    data = adult_mcar.assign(hours=np.random.default_rng(5).integers(1, 80, len(adult_mcar)))
    params = ReleaseParams(
        qi=qi, confidential=("hours",), k=4, epsilon=1.0, mechanism="laplace",
        bounds={"hours": (0.0, 100.0)}, seed=5,
    )  # fmt: skip
    release = anonymize(data, params)
    table = released_file(release, tmp_path)
    check_missing_kept(release, table, qi)
    assert verify_release(table, qi, [], k=4).ok


def test_the_plan_says_which_values_will_be_withheld_and_offers_leaving_out(acs):
    """ACS: whether Income is 'not applicable' goes with Workclass being missing, so a
    class of those records alone would tell their Income bucket."""
    params = ACS_PARAMS.replace(n_buckets=4)
    planned = plan(acs, params)
    hidden = planned.missing_qi["Workclass"]
    assert hidden.withheld > 0 and hidden.released == hidden.input + hidden.withheld
    text = next(w for w in planned.warnings if "released empty" in w)
    assert f"{hidden.withheld:,} of 'Workclass'" in text
    assert "missing_confidential 'drop'" in text
    assert planned.to_dict()["missing_qi"]["Workclass"]["withheld"] == hidden.withheld
    # the run withholds what the plan said
    release = anonymize(acs, params, plan=planned)
    assert release.summary.missing_qi == planned.missing_qi


def test_a_rare_pattern_borrows_the_fewest_values_and_every_group_can_stand_alone():
    # 40 complete records, 30 missing a, 20 missing b, 2 missing a and b; k = 4
    missing = np.array([[0, 0]] * 40 + [[1, 0]] * 30 + [[0, 1]] * 20 + [[1, 1]] * 2, dtype=bool)
    groups, withheld = pattern_groups(missing, 4)
    assert withheld.sum() == 2  # two records of {a} or {b} lend their other value
    released = missing | withheld
    for g in np.unique(groups):
        members = released[groups == g]
        assert (members == members[0]).all() and len(members) >= 4
    assert not (withheld & missing).any()


def test_a_group_far_from_the_file_mix_takes_in_records_of_the_buckets_it_lacks():
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 3, 300)
    missing = np.zeros((300, 2), dtype=bool)
    lacking = np.flatnonzero(codes == 0)[:40]  # 40 missing 'a', all in bucket 0
    missing[lacking, 0] = True
    shares = np.bincount(codes) / 300
    groups, withheld = pattern_groups(missing, 5, codes=codes, shares=shares, t=2.0)
    # only column a is withheld, only for records of buckets 1 and 2
    assert withheld[:, 1].sum() == 0 and set(codes[withheld[:, 0]]) == {1, 2}
    assert 0 < withheld.sum() < 60
    for g in np.unique(groups):
        counts = np.bincount(codes[groups == g], minlength=3)
        assert max_classes(counts, 2.0, 5, shares) >= 1


def test_a_class_formed_elsewhere_that_mixes_patterns_is_withheld_not_filled_in():
    """The safety net of the recoding: a class whose records disagree on a missing QI."""
    data = pd.DataFrame({"age": [30.0, np.nan, 40.0, 50.0], "job": ["a", "b", None, "a"]})
    classes = np.array([0, 0, 1, 1])
    out = recode_qi(
        data, ["age", "job"], {"age": ColumnType.NUMERIC, "job": ColumnType.NOMINAL}, {}, classes
    )
    assert out["age"].isna().tolist() == [True, True, False, False]
    assert out["job"].isna().tolist() == [False, False, True, True]
    assert out["job"][0] == out["job"][1]  # one released class, its known category shared
    mask = withhold_mixed(data.isna().to_numpy(), classes)
    assert mask.tolist() == [[True, False], [True, False], [False, True], [False, True]]


def _table(n: int, seed: int, share: float) -> pd.DataFrame:
    """A table of ``n`` records, about ``share`` of every QI's values missing."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(
        {
            "num": rng.integers(18, 90, n).astype(float),
            "ord": rng.choice(["low", "mid", "high"], n).astype(object),
            "nom": rng.choice(["x", "y", "z", "w"], n).astype(object),
            "day": pd.to_datetime("2020-01-01") + pd.to_timedelta(rng.integers(0, 900, n), "D"),
            "conf": rng.choice(["a", "b", "c"], n).astype(object),
        }
    )
    for col in ("num", "ord", "nom", "day"):
        frame[col] = frame[col].mask(rng.random(n) < share)
    return frame


@st.composite
def tables(draw):
    n = draw(st.integers(12, 70))
    seed = draw(st.integers(0, 2**32 - 1))
    return _table(n, seed, draw(st.sampled_from([0.05, 0.2, 0.5])))


def _looks_like_an_id(values: pd.Series) -> bool:
    """SPEC §1's identifier rule for column "num" (whole numbers, an identifier's name): at
    least 20 known values, at least 90 % of them distinct.  ord, nom (3–4 categories) and day
    (a date) can never be refused."""
    known = values.dropna()
    return len(known) >= 20 and known.nunique() >= 0.9 * len(known)


@settings(max_examples=10)
@given(
    frame=tables(),
    k=st.integers(2, 4),
    t=st.sampled_from([None, 1.6, 3.0]),
    qi_output=st.sampled_from(["centroid", "range"]),
)
# 22 distinct of 24 whole numbers in a column named "num": an identifier in disguise
@example(frame=_table(24, 3, 0.0), k=2, t=1.6, qi_output="centroid")
def test_any_table_keeps_its_missing_qis_and_verifies(frame, k, t, qi_output):
    qi = ("num", "ord", "nom", "day")
    params = ReleaseParams(
        qi=qi,
        confidential=("conf",) if t else (),
        k=k,
        t=t,
        qi_output=qi_output,
        types={"num": "numeric", "ord": "ordinal", "nom": "nominal", "day": "date"},
        orders={"ord": ("low", "mid", "high")},
        n_buckets=3 if t else None,
        seed=0,
    )
    if _looks_like_an_id(frame["num"]):  # refused clearly, whatever else the table holds
        with pytest.raises(InputError, match="Column 'num' looks like an identifier"):
            anonymize(frame, params)
        return
    release = anonymize(frame, params)
    check_missing_kept(release, release.table, qi)
    assert verify_release(release.table, qi, params.confidential, t=t, k=k).ok
