"""anonymize(): the whole bucket construction, verified on its own output."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from engine.errors import InfeasibleError, InputError, VerificationError
from engine.params import ReleaseParams
from engine.release import anonymize, verify_release
from tests.factories import SUMMARY_KEYS


@pytest.fixture
def people() -> pd.DataFrame:
    rng = np.random.default_rng(7)
    n = 400
    return pd.DataFrame(
        {
            "name": [f"person {i}" for i in range(n)],
            "age": rng.integers(18, 90, n),
            "sex": rng.choice(["F", "M"], n),
            "region": rng.choice(["north", "south", "east", "west"], n),
            "income": np.where(rng.random(n) < 0.4, 0, rng.integers(1000, 90000, n)),
            "note": rng.choice(["x", "y"], n),
        }
    )


def config(**kw) -> ReleaseParams:
    base = dict(
        qi=("age", "sex", "region"), confidential=("income",), k=5, t=2.0, identifiers=("name",)
    )
    base.update(kw)
    return ReleaseParams(**base)


def test_release_verifies_and_has_the_right_columns(people):
    release = anonymize(people, config(keep=("note",), seed=1))
    table = release.table
    assert list(table.columns) == ["age", "sex", "region", "income", "note"]
    assert len(table) == len(people)
    v = verify_release(table, ["age", "sex", "region"], ["income"], t=2.0, k=5)
    assert v.ok and v.k >= 5 and v.t <= 2.0
    assert release.summary.k_achieved == v.k
    # keep columns travel with their record; the multiset is unchanged
    assert sorted(table["note"]) == sorted(people["note"])


def test_rows_are_shuffled_and_seed_makes_it_reproducible(people):
    a = anonymize(people, config(seed=3)).table
    b = anonymize(people, config(seed=3)).table
    c = anonymize(people, config(seed=4)).table
    pd.testing.assert_frame_equal(a, b)
    assert not a.equals(c)
    # records are not in input order: released ages do not track the input's
    direct = anonymize(people, config(seed=3, k=1, t=1000.0, n_buckets=2))
    ordered = direct.table["age"].to_numpy()
    assert not np.array_equal(ordered, people["age"].to_numpy())


def test_summary_has_the_contract_keys(people):
    s = anonymize(people, config(seed=1)).summary.to_dict()
    assert set(SUMMARY_KEYS) <= set(s)
    assert s["parameters"]["k"] == 5 and s["parameters"]["t"] == 2.0
    assert s["epsilon"] == pytest.approx(2 * np.log(2.0))
    assert {"label", "count", "bounds", "share", "representative"} <= set(s["buckets"][0])
    assert 0 <= s["information_loss"]["qi_sse_sst"] < 1
    assert 0 <= s["information_loss"]["confidential_sse_sst"] < 1
    json.dumps(s, allow_nan=False)  # plain JSON, no NaN or Infinity


def test_epsilon_means_t_is_exp_half_epsilon(people):
    release = anonymize(people, config(t=None, epsilon=2 * np.log(3.0), seed=1))
    assert release.summary.t == pytest.approx(3.0)
    assert release.verification.t <= 3.0 + 1e-9


def test_range_and_representative_outputs(people):
    release = anonymize(
        people, config(qi_output="range", confidential_output="representative", seed=1)
    )
    table = release.table
    assert table["age"].astype(str).str.contains("–").any()
    assert pd.api.types.is_numeric_dtype(table["income"])
    assert verify_release(table, ["age", "sex", "region"], ["income"], t=2.0, k=5).ok


def test_missing_codes_become_their_own_bucket(people):
    data = people.copy()
    data.loc[::7, "income"] = -10000
    release = anonymize(data, config(missing=("-10000",), seed=1))
    assert release.buckets.missing_bucket is not None
    assert release.table["income"].isna().sum() == (data["income"] == -10000).sum()
    assert release.verification.ok


def test_no_confidential_column_is_plain_k_anonymity(people):
    release = anonymize(people, ReleaseParams(qi=("age", "sex"), confidential=(), k=7))
    assert release.verification.k >= 7
    assert release.verification.t is None


def test_failed_verification_raises(people, monkeypatch):
    from engine.release import verify_release as real

    def broken(table, qi, confidential, *, t=None, k=None):
        v = real(table, qi, confidential, t=t, k=k)
        v.ok = False
        return v

    monkeypatch.setattr("engine.release.stages.tail.verify_release", broken)  # every route's check
    with pytest.raises(VerificationError):
        anonymize(people, config())


def test_bad_input_is_a_clear_error(people):
    with pytest.raises(InputError, match="salary"):
        anonymize(people, config(confidential=("salary",)))
    with pytest.raises(InfeasibleError, match="needs at least 401 records") as caught:
        anonymize(people, config(k=401))
    (fix,) = caught.value.alternatives
    assert 1 < fix.params["k"] < 400 and "at least 2 classes" in fix.description


def test_figure2_end_to_end_reaches_distance_one_point_five():
    """KBS 2015 Figure 2: twelve values, three buckets of four, three classes: d = 1.5."""
    values = np.arange(1, 13) * 10
    data = pd.DataFrame({"qi": values, "conf": values})
    release = anonymize(data, ReleaseParams(qi=("qi",), confidential=("conf",), k=4, t=1.5))
    assert release.buckets.counts.tolist() == [4, 4, 4]
    assert release.verification.n_classes == 3
    assert release.verification.t == pytest.approx(1.5)
    assert release.summary.epsilon == pytest.approx(2 * np.log(1.5))


def test_ordinal_and_date_columns(people):
    from engine.roles import ColumnType

    rng = np.random.default_rng(5)
    data = people.copy()
    order = ("none", "primary", "secondary", "tertiary")
    data["school"] = rng.choice(order, len(data))
    data["born"] = pd.to_datetime("1950-01-01") + pd.to_timedelta(
        rng.integers(0, 20000, len(data)), unit="D"
    )
    data["visit"] = (
        pd.to_datetime("2020-01-01") + pd.to_timedelta(rng.integers(0, 365, len(data)), unit="D")
    ).astype(str)
    types = {"school": ColumnType.ORDINAL, "born": ColumnType.DATE, "visit": ColumnType.DATE}
    dates = dict(qi=("school", "born"), confidential=("visit",), types=types, seed=2)
    dates["orders"] = {"school": order}
    cfg = config(**dates, confidential_output="label")
    release = anonymize(data, cfg)
    table = release.table
    assert set(table["school"]) <= set(order)
    assert pd.api.types.is_datetime64_any_dtype(table["born"])
    # date buckets are cut at public calendar boundaries, open at both ends
    assert table["visit"].str.match(r"^(< 2020-|≥ 2020-|\[2020-\d\d-\d\d, 2020-)").all()
    assert table["visit"].str.startswith("< ").any() and table["visit"].str.startswith("≥ ").any()
    # the default releases each bucket's mean date, a day of 2020
    means = anonymize(data, cfg.replace(confidential_output="mean")).table["visit"]
    assert means.str.fullmatch(r"2020-\d\d-\d\d").all()
    ranged = anonymize(data, config(**dates, qi_output="range")).table
    assert ranged["school"].str.match(r"^(none|primary|secondary|tertiary)(–|$)").all()
    assert verify_release(ranged, ["school", "born"], ["visit"], t=2.0, k=5).ok
    # a value outside the declared order is a clear error
    bad = data.assign(school=data["school"].replace("none", "kindergarten"))
    with pytest.raises(InputError, match="kindergarten"):
        anonymize(bad, cfg)


def test_class_size_candidates_and_best_partition():
    from engine.release import best_partition, sse_sst, tclose_partition
    from engine.release.partition import class_size_candidates

    assert class_size_candidates(np.array([75, 25]), 5, 3.0) == [5, 8, 12]
    assert class_size_candidates(np.array([50, 50]), 5, 2.0) == [5]  # t/p_min = 4 ≤ k
    rng = np.random.default_rng(9)
    X = rng.normal(size=(900, 2))
    codes = (rng.random(900) < 0.2).astype(np.int64)
    best = best_partition(X, codes, 4, 3.0)
    assert np.bincount(best).min() >= 4
    assert sse_sst(X, best) <= sse_sst(X, tclose_partition(X, codes, 4, 3.0)) + 1e-12
