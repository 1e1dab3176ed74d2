"""Noise that drowns the values is said before the release and in it (issue 28, item 3).

Data: the CASC census file of ``tests/data`` (1,080 US tax records): wages ``WSALVAL`` (the
middle half of the values spans 30,000) and interest ``INTVAL`` (skewed: most values are
small, a few reach 49,425).  The plan compares the expected error with the spread of the
column's middle half (it is read by whoever holds the data, before the release); the release
itself only says what its own values and the public noise scale show.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from engine import ReleaseParams, anonymize, plan
from engine.release import plan_words
from engine.report import plots
from engine.text import loss, number, percent
from tests.cli_support import tclose

QI = ("AGI", "PTOTVAL")


@pytest.fixture(scope="module")
def census(data_dir) -> pd.DataFrame:
    return pd.read_csv(data_dir / "casc-census.csv.gz")


def laplace(column: str, epsilon: float, hi: float = 100_000.0, **fields) -> ReleaseParams:
    return ReleaseParams(
        qi=QI,
        confidential=(column,),
        k=5,
        epsilon=epsilon,
        mechanism="laplace",
        bounds={column: (0.0, hi)},
        **fields,
    )


def spread(values: pd.Series, log: bool = False) -> float:
    x = np.clip(values.to_numpy(float), 0, 100_000)
    x = np.log1p(x) if log else x
    q1, q3 = np.quantile(x, [0.25, 0.75])
    return float(q3 - q1)


@pytest.mark.parametrize("epsilon", [2.0, 3.0, 3.5, 5.0])
def test_the_plan_warns_exactly_when_the_error_exceeds_the_columns_spread(census, epsilon):
    planned = plan(census, laplace("WSALVAL", epsilon))
    column = planned.noise[0]
    error = 100_000 / epsilon
    assert column.error_ratio == pytest.approx(error / spread(census["WSALVAL"]))
    drowned = error > spread(census["WSALVAL"])  # 30,000: ε below 3.33 drowns the wages
    assert bool(planned.review_warnings) == drowned
    words = " ".join(p.text() for p in plan_words(planned))
    assert ("mostly noise" in words) == drowned
    if drowned:
        text = planned.review_warnings[0]
        assert f"about ±{number(error, 3)} per value" in text
        assert "averaging in groups of k = 5" in text and "a larger ε" in text
        # never among the warnings that go into the published metadata
        assert not any("drown" in w for w in planned.warnings)
        fixes = {tuple(f.changes) for f in planned.feasibility.fixes}
        assert fixes == {("insensitive",), ("epsilon",)}
        better = next(f for f in planned.feasibility.fixes if "epsilon" in f.changes)
        assert plan(census, better.apply(planned.params)).noise[0].error_ratio <= 1


def test_the_log_scale_compares_on_the_log_scale(census):
    planned = plan(census, laplace("INTVAL", 2.0, transform="log"))
    column = planned.noise[0]
    scale = np.log1p(100_000) / 2.0
    assert column.error_ratio == pytest.approx(scale / spread(census["INTVAL"], log=True))
    assert column.error_ratio > 1 and "about a factor" in planned.review_warnings[0]


def test_tclose_plan_prints_the_warning_and_its_json_carries_the_ratio(census, tmp_path, capsys):
    path = tmp_path / "census.csv"
    census.to_csv(path, index=False)
    line = (
        "plan {src} --qi AGI,PTOTVAL --confidential WSALVAL --mechanism laplace --epsilon 1 "
        "--k 5 --bounds WSALVAL=0:100000"
    )
    assert tclose(line, src=path) == 0
    out = capsys.readouterr().out
    assert "warning: The noise would drown the values of 'WSALVAL'" in out
    assert "The noise is 3.3 times the spread of the middle half of the values (30,000" in out
    assert "suggested: average in groups of k = 5 before the noise" in out
    assert tclose(line + " --json", src=path) == 0
    planned = json.loads(capsys.readouterr().out)
    assert planned["noise"][0]["error_ratio"] == pytest.approx(100_000 / 30_000, rel=0.01)
    assert planned["review_warnings"]


def test_the_release_says_so_from_its_own_values_and_publishes_no_statistic(census):
    drowned = anonymize(census, laplace("WSALVAL", 1.0, seed=1))
    share = drowned.summary.noise.columns["WSALVAL"].noise_share
    assert share >= 0.5
    said = [w for w in drowned.summary.warnings if "mostly noise" in w]
    assert len(said) == 1 and percent(share) in said[0]
    # what the published warnings say is computable from the release: no spread of the data
    assert not any(number(spread(census["WSALVAL"]), 3) in w for w in drowned.summary.warnings)
    assert not any("drown" in w for w in drowned.summary.warnings)
    fine = anonymize(census, laplace("WSALVAL", 20.0, seed=1))
    assert fine.summary.noise.columns["WSALVAL"].noise_share < 0.5
    assert not any("mostly noise" in w for w in fine.summary.warnings)


def test_the_noise_plot_draws_the_released_range(census):
    release = anonymize(census, laplace("WSALVAL", 1.0, hi=1_000_000.0, seed=2))
    figure = plots.qi_before_after(release, "WSALVAL")
    ax = figure.axes[0]
    released = release.table["WSALVAL"].astype(float)
    assert ax.get_xlim()[1] >= released.max() > census["WSALVAL"].max()
    assert "beyond the central 99 %" in ax.get_xlabel()  # the original's outliers are cut


def test_numbers_read_plainly_and_a_loss_above_100_percent_is_explained():
    assert number(22030.5) == "22,030" and number(2.203e4, 4) == "22,030"
    assert number(5.164e21) == "5.164 × 10²¹" and number(7.61e-10, 3) == "7.61 × 10⁻¹⁰"
    assert number(0.000761) == "0.000761" and number(2.459) == "2.459"
    assert percent(485.0) == "48,500 %" and percent(7.61e-12) == "< 0.001 %"
    assert percent(0.1234) == "12.3 %" and percent(0.0025) == "0.25 %"
    assert loss(0.2) == "20 %"
    assert loss(485.0).startswith("48,500 % (above 100 %: the released values are farther")
    for value in (1e20, 1e-9, 123456.789, 0.5, 3e15):
        assert "e+" not in number(value) and "e-" not in number(value)
        assert "e+" not in percent(value) and "e-" not in percent(value)


def test_the_closeness_map_counts_the_released_classes(data_dir):
    adult = pd.read_csv(data_dir / "adult.csv.gz", sep=";").iloc[:3000]
    release = anonymize(
        adult,
        ReleaseParams(qi=("age", "sex", "education"), confidential=("salary-class",), k=5, t=1.5),
    )
    assert release.summary.n_partition_classes > release.summary.n_classes  # classes merged
    ratio, _ = plots.closeness_matrix(release)
    assert len(ratio) == release.summary.n_classes
    ax = plots.closeness_heatmap(release).axes[0]
    assert ax.get_ylabel() == f"classes ({release.summary.n_classes:,})"
