"""Construction B end to end: real data, k verified, noise as claimed, summary complete."""

from __future__ import annotations

import argparse
import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from engine import Task
from engine.cli.noise_args import add_noise_arguments, noise_config_kwargs
from engine.errors import CancelledError, InfeasibleError, InputError
from engine.params import ReleaseParams
from engine.privacy import stochastic_t
from engine.release import BoundsRequiredError, anonymize
from engine.release.noise import MAX_DRAWS
from tests.factories import SUMMARY_KEYS, laplace_params

#: and what its noise part says
NOISE_KEYS = {
    "bounds",
    "noise_scale",
    "stochastic_t",
    "draws",
    "epsilon_spent",
    "epsilon_local",
    "epsilon_per_column",
    "columns",
}


@pytest.fixture(scope="module")
def acs(data_dir) -> pd.DataFrame:
    """A deterministic slice of the ACS sample, read as the product reads it (N/A is text)."""
    df = pd.read_csv(data_dir / "acs-census-sample.csv.gz", sep=";", keep_default_na=False)
    return df.iloc[::9].reset_index(drop=True)


@pytest.fixture(scope="module")
def adult(data_dir) -> pd.DataFrame:
    df = pd.read_csv(data_dir / "adult.csv.gz", sep=";", keep_default_na=False)
    return df.iloc[::3].reset_index(drop=True)


def acs_config(**over) -> ReleaseParams:
    base = {
        "qi": ("Age", "Sex", "Marital status"),
        "confidential": ("Income",),
        "bounds": {"Income": (0.0, 250_000.0)},
        "missing": ("N/A",),
        "column_missing": {"Income": ("-10000",)},
        "seed": 7,
    }
    return laplace_params(**{**base, **over})


def class_sizes_of(table: pd.DataFrame, qi: list[str]) -> np.ndarray:
    return table.astype("string").fillna("<NA>").groupby(qi).size().to_numpy()


@pytest.fixture(scope="module")
def acs_release(acs):
    return anonymize(acs, acs_config())


def test_acs_laplace_end_to_end(acs, acs_release) -> None:
    release, config = acs_release, acs_config()
    table = release.table
    assert list(table.columns) == ["Age", "Sex", "Income", "Marital status"]
    assert len(table) == len(acs)
    # k verified by the independent checker and again here from the table alone
    assert release.verification.ok and release.verification.k >= 5
    assert class_sizes_of(table, list(config.qi)).min() >= 5
    # missing stays missing; the sentinel never appears in the release
    n_missing = int((acs["Income"] == -10000).sum())
    assert n_missing > 0 and int(table["Income"].isna().sum()) == n_missing
    assert not (table["Income"] == -10000).any()
    # released incomes are whole numbers like the input
    assert str(table["Income"].dtype) == "Int64"
    summary = release.summary.to_dict()
    noise = summary["noise"]
    assert set(summary) >= set(SUMMARY_KEYS) and set(noise) >= NOISE_KEYS
    assert summary["mechanism"] == "laplace" and noise["draws"] == 1
    assert noise["bounds"] == {"Income": [0.0, 250_000.0]}
    assert noise["noise_scale"]["Income"] == pytest.approx(250_000, rel=1e-6)
    assert noise["stochastic_t"] == pytest.approx(
        stochastic_t(1.0, release.verification.k, len(acs))
    )
    assert summary["parameters"]["k"] == 5 and summary["n_records"] == len(acs)
    loss = summary["information_loss"]
    assert 0 <= loss["qi_sse_sst"] < 0.05
    income = acs["Income"].to_numpy(dtype=float)
    income = income[income != -10000]
    # Laplace noise of scale b = 250,000, the result clamped to [0, 250,000] again: SSE/SST
    # is E[(clip(x + L) − x)²] / var(income), here by simulation
    rng = np.random.default_rng(0)
    simulated = np.clip(income + stats.laplace(scale=250_000).rvs(income.size, rng), 0, 250_000)
    expected = ((simulated - income) ** 2).mean() / income.var()
    assert loss["confidential_sse_sst"] == pytest.approx(expected, rel=0.1)
    released = table["Income"].dropna().to_numpy(dtype=float)
    assert released.min() >= 0 and released.max() <= 250_000
    assert summary["n_classes"] == release.verification.n_classes
    assert all(g["assumption"] and g["source"] for g in summary["guarantees"])
    assert "only as private as the seed is secret" in summary["seed_policy"]
    json.dumps(summary, allow_nan=False)


def test_acs_noise_has_the_claimed_law(acs, acs_release) -> None:
    """Released − clamped, over the released multiset (rows are shuffled, so compare sorted
    multisets through a KS test of the released values against clamped + Laplace)."""
    income = acs["Income"].to_numpy(dtype=float)
    clamped = np.clip(income[income != -10000], 0, 250_000)
    released = acs_release.table["Income"].dropna().to_numpy(dtype=float)
    rng = np.random.default_rng(0)

    def simulate(scale: float) -> np.ndarray:
        noise = stats.laplace(scale=scale).rvs(size=clamped.size, random_state=rng)
        return np.clip(clamped + noise, 0, 250_000)  # clamped again after the noise

    assert stats.ks_2samp(released, simulate(250_000)).pvalue > 1e-3
    assert stats.ks_2samp(released, simulate(400_000)).pvalue < 1e-6


def test_input_order_is_not_released(acs, acs_release) -> None:
    ages = acs_release.table["Age"].to_numpy(dtype=float)
    assert abs(stats.spearmanr(ages, acs["Age"].to_numpy(dtype=float)).statistic) < 0.2


def test_seed_makes_the_release_reproducible(acs) -> None:
    small = acs.iloc[::12]
    a = anonymize(small, acs_config(seed=3))
    b = anonymize(small, acs_config(seed=3))
    c = anonymize(small, acs_config(seed=None))
    pd.testing.assert_frame_equal(a.table, b.table)
    assert not a.table["Income"].equals(c.table["Income"])
    assert "cannot be reproduced" in c.summary.seed_policy


def test_insensitive_variant_has_less_noise(acs, acs_release) -> None:
    release = anonymize(acs, acs_config(insensitive=True))
    s = release.summary.to_dict()
    noise = s["noise"]
    assert noise["noise_scale"]["Income"] == pytest.approx(250_000 / 5, rel=1e-3)
    plain_mae = acs_release.summary.noise.columns["Income"].mean_absolute_error
    assert noise["columns"]["Income"]["mean_absolute_error"] < plain_mae / 3
    # per record the bound is weaker: Proposition 1 uses k·ε
    assert noise["epsilon_local"] == pytest.approx(5.0)
    expected_t = stochastic_t(5.0, release.verification.k, len(acs))
    assert noise["stochastic_t"] == pytest.approx(expected_t)
    assert any("linked" in g["assumption"] for g in s["guarantees"])
    assert release.verification.ok


def test_laplace_never_takes_its_bounds_from_the_data(acs) -> None:
    with pytest.raises(BoundsRequiredError, match="'Income' needs public bounds") as err:
        anonymize(acs.iloc[::12], acs_config(bounds={}))
    assert err.value.columns == ["Income"] and err.value.exit_code == 2
    assert "--bounds" not in err.value.message  # the engine speaks to every front end


def test_adult_salary_by_randomized_response(adult) -> None:
    config = laplace_params(
        ("age", "sex", "race"),
        ("salary-class",),
        k=10,
        keep=("education",),
        seed=11,
        categories={"salary-class": ("<=50K", ">50K")},
    )
    release = anonymize(adult, config)
    assert list(release.table.columns) == ["sex", "age", "race", "education", "salary-class"]
    assert sorted(release.table["education"]) == sorted(adult["education"])  # kept unchanged
    assert release.verification.ok and release.verification.k >= 10
    assert class_sizes_of(release.table, ["age", "sex", "race"]).min() >= 10
    s = release.summary.to_dict()
    assert set(s) >= set(SUMMARY_KEYS)
    detail = s["noise"]["columns"]["salary-class"]
    assert detail["mechanism"] == "randomized_response"
    assert detail["described"] == "randomized response"
    p = detail["keep_probability"]
    assert math.exp(detail["epsilon"]) == pytest.approx(1 + 2 * p / (1 - p))
    assert detail["epsilon"] == pytest.approx(1.0, abs=1e-9)
    # released shares = prior · channel
    prior = adult["salary-class"].value_counts(normalize=True).reindex(detail["categories"])
    channel = p * np.eye(2) + (1 - p) / 2
    expected = prior.to_numpy() @ channel * len(adult)
    observed = release.table["salary-class"].value_counts().reindex(detail["categories"])
    assert stats.chisquare(observed.to_numpy(), expected).pvalue > 1e-3
    assert detail["share_changed"] == pytest.approx((1 - p) / 2, abs=0.02)
    assert set(release.table["salary-class"].dropna()) <= {"<=50K", ">50K"}


def test_epsilon_is_split_over_columns(adult) -> None:
    ages = {"age": (17, 90)}
    config = laplace_params(
        ("sex", "race"),
        ("age", "salary-class"),
        k=20,
        epsilon=2.0,
        bounds=ages,
        categories={"salary-class": "<=50K|>50K"},
        seed=1,
    )
    noise = anonymize(adult.iloc[:2000], config).summary.noise
    assert noise.epsilon_per_column == {"age": 1.0, "salary-class": 1.0}
    assert noise.noise_scale["age"] == pytest.approx(73.0, rel=1e-6)
    assert noise.epsilon_local == pytest.approx(2.0, abs=1e-9)


def _synthetic(n: int = 240) -> pd.DataFrame:
    rng = np.random.default_rng(5)
    return pd.DataFrame(
        {"x": rng.normal(size=n), "y": rng.uniform(0, 100, size=n).round(1)},
    )


def _resampled(**fields) -> ReleaseParams:
    """Laplace noise on ``_synthetic``'s y (public bounds 0 to 100), resampled until t-close."""
    return laplace_params(("x",), ("y",), bounds={"y": (0, 100)}, seed=2, **fields)


def test_resample_until_t_reaches_an_actually_t_close_release() -> None:
    # released values are clamped to [0, 100] after the noise: with much smaller ε nearly
    # all of them sit on a bound and no draw has three buckets in every class
    config = _resampled(k=60, epsilon=0.5, resample_until_t=2.0)
    release = anonymize(_synthetic(), config)
    s = release.summary.to_dict()
    s.update(s["noise"])
    assert 1 < s["draws"] <= MAX_DRAWS
    assert s["epsilon_spent"] == pytest.approx(0.5 * s["draws"])
    assert s["t_achieved"] <= 2.0 and s["t_kind"] == "actual (resampled)"
    # a checker with the table alone finds the same t on quantile buckets of the release
    table = release.table
    classes = table.groupby("x", sort=False).ngroup().to_numpy()
    y = table["y"].to_numpy(dtype=float)
    edges = np.quantile(y, np.linspace(0, 1, s["resample_buckets"] + 1)[1:-1])
    codes = np.searchsorted(edges, y, side="right")
    sizes = np.bincount(classes)
    shares = np.bincount(codes) / len(y)
    worst = 1.0
    for c in range(sizes.size):
        in_class = np.bincount(codes[classes == c], minlength=shares.size) / sizes[c]
        ratio = in_class / shares
        worst = max(worst, ratio.max(), (1 / ratio).max())
    assert worst <= 2.0 + 1e-9


def test_resample_gives_up_with_a_clear_message(monkeypatch) -> None:
    monkeypatch.setattr("engine.release.noise.draw.MAX_DRAWS", 3)
    config = _resampled(resample_until_t=1.01)
    with pytest.raises(InfeasibleError, match="None of 3 draws"):
        anonymize(_synthetic(), config)


@pytest.mark.parametrize(
    ("over", "needle"),
    [
        ({"bounds": {"Age": (0, 99)}}, "'Age' is not one"),
        (
            {"confidential": ("Citizenship",), "bounds": {"Citizenship": (0, 1)}},
            "numeric columns only",
        ),
        ({"k": 10**6}, "needs at least"),
        ({"qi": ("Nope",)}, "No column named"),
        ({"confidential": (), "bounds": {}}, "tag at least one column as confidential"),
    ],
)
def test_bad_configurations_are_clear_errors(acs, over, needle) -> None:
    with pytest.raises((InputError, InfeasibleError), match=needle):
        anonymize(acs.iloc[::30], acs_config(**over))


def test_an_all_missing_column_is_a_clear_error() -> None:
    data = pd.DataFrame({"x": range(10), "y": ["N/A"] * 10})
    config = ReleaseParams(
        qi=("x",), confidential=("y",), k=2, epsilon=1.0, mechanism="laplace", missing=("N/A",)
    )
    with pytest.raises(InputError, match="all are missing"):
        anonymize(data, config)


def test_cancel_stops_the_run(acs) -> None:
    seen: list[float] = []
    with pytest.raises(CancelledError):
        anonymize(
            acs.iloc[::20], acs_config(), task=Task(lambda f, m: seen.append(f), lambda: True)
        )
    calls: list[float] = []
    anonymize(acs.iloc[::20], acs_config(), task=Task(lambda f, m: calls.append(f)))
    assert calls[0] == 0.0 and calls[-1] == 1.0 and all(0 <= f <= 1 for f in calls)
    assert seen == []  # cancelled before anything was reported


# --- command-line flags ---------------------------------------------------------------------


def parse(*argv: str) -> dict:
    parser = argparse.ArgumentParser()
    add_noise_arguments(parser)
    return noise_config_kwargs(parser.parse_args(list(argv)))


def test_noise_flags_become_config_arguments() -> None:
    kwargs = parse(
        "--mechanism",
        "laplace",
        "--bounds",
        "Income=0:250000",
        "--bounds",
        "Age=-1.5:1e2",
        "--insensitive",
        "--resample-until-t",
        "3",
    )
    assert kwargs == {
        "mechanism": "laplace",
        "bounds": {"Income": (0.0, 250000.0), "Age": (-1.5, 100.0)},
        "private_bounds": None,
        "categories": {},
        "insensitive": True,
        "resample_until_t": 3.0,
        "transform": "none",
    }
    config = ReleaseParams(qi=("Sex",), confidential=("Income", "Age"), k=2, epsilon=1.0, **kwargs)
    assert config.bounds["Income"] == (0.0, 250000.0)
    assert parse() == {
        "mechanism": "buckets",
        "bounds": {},
        "private_bounds": None,
        "categories": {},
        "insensitive": False,
        "resample_until_t": None,
        "transform": "none",
    }
    # private bounds: the default share of ε, a fraction, or a percentage
    assert parse("--mechanism", "laplace", "--bounds", "private")["private_bounds"] == 0.1
    assert parse("--mechanism", "laplace", "--bounds", "private=0.25")["private_bounds"] == 0.25
    both = parse("--mechanism", "laplace", "--bounds", "private=5%", "--bounds", "Age=0:99")
    assert both["private_bounds"] == pytest.approx(0.05) and both["bounds"] == {"Age": (0, 99)}
    # public bounds also cap the outer labels of the buckets mechanism
    assert parse("--bounds", "Income=0:250000")["bounds"] == {"Income": (0.0, 250000.0)}


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--mechanism", "laplace", "--bounds", "Income"], "COLUMN=LO:HI"),
        (["--mechanism", "laplace", "--bounds", "Income=a:b"], "must be numbers"),
        (["--mechanism", "laplace", "--bounds", "Income=5:1"], "low < high"),
        (["--mechanism", "laplace", "--bounds", "I=0:1", "--bounds", "I=0:2"], "twice"),
        (["--insensitive"], "only apply to a noise mechanism"),
        (["--bounds", "private"], "only apply to a noise mechanism"),
        (
            ["--mechanism", "laplace", "--bounds", "private=1.5"],
            "private_bounds must be a number > 0 and < 1",
        ),
        (
            ["--mechanism", "laplace", "--bounds", "private=x"],
            "private_bounds must be a number > 0 and < 1",
        ),
        (["--mechanism", "laplace", "--bounds", "private", "--bounds", "private"], "twice"),
        (["--mechanism", "laplace", "--resample-until-t", "0.5"], "≥ 1"),
        (["--transform", "log"], "only apply to a noise mechanism"),
        (["--mechanism", "laplace", "--bounds", "Income=-5:9", "--transform", "log"], "≥ 0"),
    ],
)
def test_bad_noise_flags(argv, needle) -> None:
    with pytest.raises(InputError, match=needle):
        # the flags' syntax is read by the parser, their values checked by ReleaseParams
        ReleaseParams(k=5, epsilon=1.0, confidential=("Income",), **parse(*argv))
