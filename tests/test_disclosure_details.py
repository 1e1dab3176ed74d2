"""Privacy in the details: no released label, boundary or representative is one person's value,
and Laplace noise never takes its bounds from the data.

The data are skewed on purpose: lognormal incomes with a few huge outliers (and a couple of
tiny ones), the case where an observed minimum or maximum is one identifiable person.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import openpyxl
import pandas as pd
import pytest

from engine.cli import main
from engine.errors import InputError
from engine.io import write_release
from engine.mechanisms import bounds as private
from engine.mechanisms.laplace import expected_abs_error, insensitive_release, laplace_release
from engine.mechanisms.sampling import Seeded
from engine.params import ReleaseParams
from engine.project import new_project, save_project
from engine.release import (
    MEAN_SLACK,
    BoundsRequiredError,
    Scale,
    anonymize,
    make_buckets,
    recode_qi,
    verify_release,
)
from engine.release.columns import grid_step, separator, step_at_least
from engine.release.noise import expected_errors, require_bounds
from engine.report.html import write_report
from engine.roles import ColumnType
from tests.factories import laplace_params

NUM = ColumnType.NUMERIC
#: a number inside a label: "< 18000", "[18000, 40000)", "≥ 40000"
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
#: the outliers planted in every skewed column
HUGE = [563_569.08, 1_234_567.89, 2_500_000.0, 9_876_543.21]
TINY = [0.37, 1.11]


def skewed(n: int, seed: int = 2024, mu: float = 10.2) -> np.ndarray:
    """Lognormal amounts in cents with four huge and two tiny outliers."""
    rng = np.random.default_rng(seed)
    x = np.round(rng.lognormal(mu, 0.9, n), 2)
    x[rng.choice(n, 6, replace=False)] = [*HUGE, *TINY]
    return x


def central(x: np.ndarray) -> tuple[float, float]:
    """The 0.5 and 99.5 percentiles: nothing printed may lie beyond them."""
    lo, hi = np.quantile(x[~np.isnan(x)], [0.005, 0.995])
    return float(lo), float(hi)


def numbers(label: str) -> list[float]:
    return [float(x) for x in NUMBER.findall(label)]


def interval(label: str) -> tuple[float, float, bool]:
    """(lo, hi, hi_closed) of a numeric label; open ends are ±inf."""
    if label.startswith("< "):
        return -math.inf, float(label[2:]), False
    if label.startswith("≥ "):
        return float(label[2:]), math.inf, True
    if label.startswith("["):
        lo, hi = label[1:-1].split(", ")
        return float(lo), float(hi), label.endswith("]")
    value = float(label)
    return value, value, True


def inside(values: np.ndarray, label: str) -> np.ndarray:
    lo, hi, closed = interval(label)
    return (values >= lo) & ((values <= hi) if closed else (values < hi))


@pytest.fixture(scope="module")
def income() -> np.ndarray:
    return skewed(20_000)


# -- bucket labels ------------------------------------------------------------------------


@pytest.mark.parametrize("b", [2, 3, 5, 10])
def test_numeric_labels_use_round_cut_points_inside_the_central_99_percent(income, b) -> None:
    buckets = make_buckets(pd.DataFrame({"income": income}), ["income"], {"income": NUM}, b)
    labels = buckets.labels
    assert len(labels) == b and len(set(labels)) == b  # one label per bucket, all distinct
    assert labels[0].startswith("< ") and labels[-1].startswith("≥ ")  # open-ended outer buckets
    assert all(lab.startswith("[") and lab.endswith(")") for lab in labels[1:-1])
    lo, hi = central(income)
    cuts = [x for lab in labels for x in numbers(lab)]
    assert all(lo <= x <= hi for x in cuts), (cuts, lo, hi)
    # public round numbers: at most three significant digits, none of them anyone's income
    assert all(x == float(f"{x:.3g}") for x in cuts), cuts
    assert not set(cuts) & set(income)
    # the summary's bounds are the same cut points, open ends null
    assert buckets.bounds[0][0] is None and buckets.bounds[-1][1] is None
    assert [hi for _, hi in buckets.bounds[:-1]] == [lo for lo, _ in buckets.bounds[1:]]
    # every record's income lies in the interval its label states
    for j, label in enumerate(labels):
        assert inside(income[buckets.codes == j], label).all(), label
    reps = [r[0] for r in buckets.representatives]
    assert all(lo <= r <= hi for r in reps)


def test_a_dense_median_gets_a_round_cut_not_a_neighbouring_value(income) -> None:
    """Between two incomes a cent apart the only separator is almost the value itself; the
    boundary moves by a few records to where a round number separates."""
    buckets = make_buckets(pd.DataFrame({"income": income}), ["income"], {"income": NUM}, 2)
    (cut,) = numbers(buckets.labels[0])
    ordered = np.sort(income)
    balanced = separator(ordered[len(income) // 2 - 1], ordered[len(income) // 2])
    assert cut == float(f"{cut:.2g}") and balanced != float(f"{balanced:.4g}")
    shares = buckets.counts / buckets.counts.sum()
    assert abs(shares[0] - 0.5) <= 0.5 * 0.05 + 1e-9  # moved by at most 5 % of a bucket


def test_outlier_buckets_merge_and_representatives_are_guarded(income) -> None:
    """With many buckets the top one would be a handful of outliers: it joins its neighbours
    until its mean lies inside the central 99 %, and a median beyond it would be clipped to a
    round number inside."""
    buckets = make_buckets(pd.DataFrame({"income": income}), ["income"], {"income": NUM}, 200)
    lo, hi = central(income)
    assert len(buckets.labels) < 200  # outer buckets beyond the percentiles merged inward
    cuts = [x for lab in buckets.labels for x in numbers(lab)]
    reps = [r[0] for r in buckets.representatives]
    means = [s[0].mean for s in buckets.stats]
    assert all(lo <= x <= hi for x in cuts + reps)
    # a mean may lie beyond the percentiles by at most 1 % of their distance (a bucket of
    # many values just above the two tiny outliers): no one's value, and it keeps the total
    slack = MEAN_SLACK * (hi - lo)
    assert all(lo - slack <= x <= hi + slack for x in means)
    top = buckets.codes[np.argmax(income)]
    members = income[buckets.codes == top]
    assert np.sort(income)[-50:].mean() > hi  # what a small top bucket's mean would print
    # merged: the mean of the whole bucket, its values held within the central 99 % rounded
    # outward and rounded to a step that one record cannot cross
    scale = Scale.of(income, False, None)
    low, high = scale.limits(members, *buckets.bounds[top])
    step = step_at_least((high - low) / len(members))
    assert len(members) > 50 and abs(means[top] - np.clip(members, low, high).mean()) <= step / 2
    assert len(set(buckets.labels)) == len(buckets.labels)
    # a median beyond the central 99 % goes to a round limit inside it
    rep = scale.representative(np.sort(income)[-10:])
    assert np.median(np.sort(income)[-10:]) > hi and lo <= rep <= hi
    assert rep == float(f"{rep:.2g}")


def test_date_buckets_are_cut_at_calendar_boundaries() -> None:
    rng = np.random.default_rng(3)
    days = rng.integers(0, 9000, 5000)
    dates = pd.Timestamp("1990-01-01") + pd.to_timedelta(days, unit="D")
    dates = pd.Series(dates)
    dates.iloc[:3] = pd.to_datetime(["1901-05-17", "1899-12-31", "2087-03-02"])
    buckets = make_buckets(pd.DataFrame({"since": dates}), ["since"], {"since": "date"}, 4)
    stamps = [
        pd.Timestamp(t) for lab in buckets.labels for t in re.findall(r"\d{4}-\d\d-\d\d", lab)
    ]
    assert buckets.labels[0].startswith("< ") and buckets.labels[-1].startswith("≥ ")
    assert all(s.day == 1 for s in stamps)  # first of a year or month, never someone's date
    lo, hi = dates.quantile([0.005, 0.995])
    assert all(lo <= s <= hi for s in stamps)
    reps = [pd.Timestamp(r[0]) for r in buckets.representatives]
    assert all(lo <= r <= hi for r in reps)


@pytest.mark.parametrize("joint", [True, False])
def test_joint_and_per_column_labels_follow_the_same_rule(joint) -> None:
    n = 8000
    rng = np.random.default_rng(8)
    data = pd.DataFrame(
        {
            "income": skewed(n, seed=1),
            "wealth": skewed(n, seed=2, mu=11.0),
            "sector": rng.choice(["farming", "industry", "services"], n),
        }
    )
    types = {"income": NUM, "wealth": NUM, "sector": ColumnType.NOMINAL}
    buckets = make_buckets(data, ["income", "wealth", "sector"], types, 6, joint=joint)
    assert len(set(buckets.column_labels)) == len(buckets.column_labels)
    for i, col in enumerate(["income", "wealth"]):
        lo, hi = central(data[col].to_numpy())
        for j, labels in enumerate(buckets.column_labels):
            label = labels[i]
            assert all(lo <= x <= hi for x in numbers(label)), (col, label)
            if label != "all":
                assert inside(data[col].to_numpy()[buckets.codes == j], label).all()
    # categories are the codebook: their names are released as they are
    assert {lab[2].strip("{}") for lab in buckets.column_labels} <= {
        "farming",
        "industry",
        "services",
        *(f"{a}, {b}" for a in ("farming", "industry") for b in ("industry", "services") if a < b),
        "farming, industry, services",
    }
    release = anonymize(
        data.assign(age=rng.integers(18, 90, n)),
        ReleaseParams(
            qi=("age",), confidential=("income", "wealth", "sector"), k=10, t=4, joint=joint
        ),
    )
    assert release.verification.ok


def test_public_bounds_cap_the_outer_labels(income) -> None:
    data = pd.DataFrame({"income": income})
    buckets = make_buckets(data, ["income"], {"income": NUM}, 3, bounds={"income": (0, 1e6)})
    assert buckets.labels[0].startswith("[0, ") and buckets.labels[-1].endswith(", 1000000]")
    assert buckets.bounds[0][0] == 0 and buckets.bounds[-1][1] == 1e6
    for bad, needle in [
        ({"income": (0, 20_000)}, "leave no room"),
        ({"income": (2e7, 3e7)}, "do not overlap"),
        ({"wealth": (0, 1)}, "not a confidential column"),
        ({"income": (5, 1)}, "LO < HI"),
    ]:
        with pytest.raises(InputError, match=needle):
            make_buckets(data, ["income"], {"income": NUM}, 3, bounds=bad)
    with pytest.raises(InputError, match="numeric columns only"):
        make_buckets(data.assign(s="a"), ["s"], {"s": ColumnType.NOMINAL}, 2, bounds={"s": (0, 1)})


# -- what a release, its summary, report and About sheet show -------------------------------


@pytest.fixture(scope="module")
def survey() -> pd.DataFrame:
    n = 4000
    rng = np.random.default_rng(11)
    return pd.DataFrame(
        {
            "age": rng.integers(18, 90, n),
            "region": rng.choice(["north", "south", "east", "west"], n),
            "assets": skewed(n, seed=5, mu=11.5),
            "income": skewed(n, seed=6),
        }
    )


def extreme_texts(x: np.ndarray) -> list[str]:
    """How the column's smallest and largest values could be printed."""
    out = []
    for v in (float(np.min(x)), float(np.max(x))):
        out += [f"{v:g}", f"{v:.2f}", f"{v:,.2f}", repr(v)]
    return out


@pytest.mark.parametrize("output", ["label", "median", "mean"])
def test_release_summary_report_and_about_sheet_print_no_extreme_value(
    survey, tmp_path, output
) -> None:
    config = ReleaseParams(
        qi=("age", "region"),
        confidential=("income",),
        k=5,
        t=3.0,
        confidential_output=output,
        seed=4,
    )
    release = anonymize(survey, config)
    assert release.verification.ok
    income = survey["income"].to_numpy()
    lo, hi = central(income)
    released = release.table["income"]
    if output == "label":
        assert set(released) == set(release.buckets.labels)
        printed = [x for lab in set(released) for x in numbers(lab)]
    else:
        printed = [float(v) for v in set(released)]
    assert printed and all(lo <= x <= hi for x in printed)
    for row in release.summary.to_dict()["buckets"]:
        for x in [*row["bounds"], *row["representative"], *row["mean"], *row["median"]]:
            assert x is None or lo <= x <= hi
    # the xlsx About sheet (the published summary, as written) and the report
    write_release(release.table, tmp_path / "r.xlsx", metadata=release.summary.public_dict())
    about = openpyxl.load_workbook(tmp_path / "r.xlsx", read_only=True)["About this release"]
    cells = [str(c) for row in about.iter_rows(values_only=True) for c in row if c is not None]
    assert {row.label for row in release.summary.buckets} <= {c.strip() for c in cells}
    html = write_report(release, tmp_path / "r.html").read_text(encoding="utf-8")
    for text in extreme_texts(income):
        assert not any(text in c for c in cells), text
        assert text not in html, text


# -- quasi-identifier ranges ----------------------------------------------------------------


def range_ends(text: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    parts = text.str.split("–", regex=False)
    lo = parts.str[0].astype(float).to_numpy()
    hi = parts.str[-1].astype(float).to_numpy()
    return lo, hi


def test_qi_range_ends_are_public_round_numbers(survey) -> None:
    config = ReleaseParams(  # b fixed: the classes of outliers depend on it
        qi=("age", "assets"),
        confidential=("income",),
        k=5,
        t=3.0,
        n_buckets=4,
        qi_output="range",
        seed=2,
    )
    release = anonymize(survey, config)
    assert release.verification.ok
    assert verify_release(release.table, ["age", "assets"], ["income"], t=3.0, k=5).ok
    assets = survey["assets"].to_numpy()
    lo, hi = range_ends(release.table["assets"])
    ends = np.concatenate([lo, hi])
    # no range end is anyone's exact value; every one is on the grid or a 1–2–5 number
    assert not set(ends) & set(assets)
    step = grid_step(*central(assets))
    nice = {m * 10.0**e for e in range(-3, 9) for m in (1, 2, 5)}
    on_grid = np.isclose(ends / step, np.round(ends / step), rtol=0, atol=1e-6)
    assert all(g or e in nice for g, e in zip(on_grid, ends, strict=True))
    # the outliers show only as the next 1–2–5 number strictly beyond them, whichever end
    # of a range they are (a class of outliers has both ends beyond the central 99 %)
    c_lo, c_hi = central(assets)
    beyond = ends[(ends < c_lo) | (ends > c_hi)]
    assert beyond.size and all(e in nice or e == 0 for e in beyond), sorted(set(beyond))
    assert hi.max() == 10_000_000 and lo.min() == 0
    top = release.table["assets"][hi == hi.max()].iloc[0]
    assert top.startswith(("1000000–", "2000000–", "5000000–")), top
    for v in HUGE + TINY:
        assert f"{v:g}" not in set(release.table["assets"])
    # every record lies in the range released for its class (recoded before the shuffle)
    ranged = recode_qi(release.data, ["assets"], {"assets": NUM}, {}, release.classes, "range")
    own_lo, own_hi = range_ends(ranged["assets"])
    assert ((assets >= own_lo) & (assets <= own_hi)).all()


def test_classes_whose_rounded_ranges_coincide_merge_and_still_verify() -> None:
    rng = np.random.default_rng(4)
    n = 3000
    data = pd.DataFrame(
        {"x": np.round(rng.uniform(0, 100, n), 2), "y": rng.choice(["a", "b", "c"], n)}
    )
    config = ReleaseParams(qi=("x",), confidential=("y",), k=5, t=2.0, qi_output="range", seed=1)
    release = anonymize(data, config)
    s = release.summary
    assert s.n_classes < s.n_partition_classes  # e.g. 31.5–32 holds several classes
    assert release.verification.ok and release.verification.k >= 5
    assert verify_release(release.table, ["x"], ["y"], t=2.0, k=5).ok
    lo, hi = range_ends(release.table["x"])  # the grid of x (0 … 100) is 0.5
    assert np.allclose(lo * 2, np.round(lo * 2)) and np.allclose(hi * 2, np.round(hi * 2))
    assert lo.min() == 0 and hi.max() == 100
    # each released class is the union of whole partition classes, at least k records
    released = release.table.groupby("x").size()
    assert released.min() >= 5 and released.sum() == n


# -- Laplace needs public (or private) bounds -----------------------------------------------


def wages(n: int = 3000, seed: int = 9) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "age": rng.integers(18, 90, n),
            "sex": rng.choice(["F", "M"], n),
            "wage": np.round(rng.lognormal(7.5, 0.8, n), 2),
            "smoker": rng.choice(["yes", "no"], n),
        }
    )


def laplace(**over) -> ReleaseParams:
    base = {
        "qi": ("age", "sex"),
        "confidential": ("wage", "smoker"),
        "categories": {"smoker": ("yes", "no")},
        "seed": 3,
    }
    return laplace_params(**{**base, **over})


def test_laplace_never_runs_on_bounds_from_the_data() -> None:
    data = wages()
    with pytest.raises(BoundsRequiredError, match="'wage' needs public bounds"):
        anonymize(data, laplace())
    types = {"wage": NUM, "smoker": ColumnType.NOMINAL}
    with pytest.raises(BoundsRequiredError):
        require_bounds(laplace(), types)
    require_bounds(laplace(bounds={"wage": (0, 5000)}), types)
    require_bounds(laplace(private_bounds=0.1), types)
    require_bounds(laplace(confidential=("smoker",)), types)  # randomized response: no bounds
    with pytest.raises(InputError, match="do not overlap"):
        anonymize(data, laplace(bounds={"wage": (1e7, 2e7)}))


def test_tclose_run_of_a_project_without_bounds_exits_2(tmp_path, capsys) -> None:
    source = tmp_path / "wages.csv"
    wages().to_csv(source, index=False)
    project = save_project(
        new_project(source, laplace(), output=tmp_path / "out.csv"), tmp_path / "p.json"
    )
    assert main(["run", str(project), "-q"]) == 2
    assert "needs public bounds" in capsys.readouterr().err
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.parametrize("insensitive", [False, True])
def test_released_noisy_values_lie_within_the_bounds(insensitive) -> None:
    release = anonymize(wages(), laplace(bounds={"wage": (0, 5000)}, insensitive=insensitive))
    wage = release.table["wage"].dropna().to_numpy(dtype=float)
    assert wage.min() >= 0 and wage.max() <= 5000
    assert (wage == 0).any() or (wage == 5000).any()  # the clamp did bind (Δ/ε = 5000)
    # bounds finer than the column's precision: rounding to whole numbers stays inside them
    whole = wages().assign(wage=lambda d: d["wage"].round())
    narrow = anonymize(whole, laplace(bounds={"wage": (0.5, 4999.5)}))
    wage = narrow.table["wage"].dropna().to_numpy(dtype=float)
    assert wage.min() == 1 and wage.max() == 4999 and (wage == np.round(wage)).all()


def test_expected_absolute_error_is_the_laplace_scale() -> None:
    assert expected_abs_error(0, 5000, 0.5) == pytest.approx(10_000)
    assert expected_abs_error(0, 5000, 0.5, k=5) == pytest.approx(2_000)
    x = skewed(50_000, seed=3) / 100
    out = laplace_release(x, 0, 5000, 0.5, Seeded(1))
    assert np.abs(out.noisy - out.clamped).mean() == pytest.approx(10_000, rel=0.03)
    grouped = insensitive_release(x, 0, 5000, 0.5, 5, Seeded(2))
    means = pd.Series(grouped.clamped).groupby(grouped.groups).mean()
    noise = pd.Series(grouped.noisy).groupby(grouped.groups).first() - means
    assert np.abs(noise).mean() == pytest.approx(2_000, rel=0.05)
    types = {"wage": NUM, "smoker": ColumnType.NOMINAL}
    config = laplace(bounds={"wage": (0, 5000)})
    assert expected_errors(config, types) == {"wage": pytest.approx(10_000)}  # ε/2 per column
    assert expected_errors(laplace(private_bounds=0.1), types) == {"wage": None}
    with pytest.raises(InputError):
        expected_abs_error(5, 1, 1.0)


# -- private bounds -------------------------------------------------------------------------


def test_private_bounds_spend_and_report_their_share(income, tmp_path) -> None:
    data = pd.DataFrame({"age": np.arange(income.size) % 70 + 18, "income": income})
    config = laplace_params(("age",), ("income",), private_bounds=0.1, seed=5)
    release = anonymize(data, config)
    s = release.summary.to_dict()["noise"]
    assert s["bounds_epsilon"] == pytest.approx(0.1)
    assert s["epsilon_per_column"] == {"income": pytest.approx(1.0)}
    assert s["epsilon_noise_per_column"] == {"income": pytest.approx(0.9)}
    assert s["epsilon_spent"] == pytest.approx(1.0)
    source = s["columns"]["income"]["bounds_source"]
    assert source.startswith("private (DP quantiles") and "ε = 0.1" in source
    lo, hi = s["bounds"]["income"]
    # plausible: near the extreme percentiles of the column, far from the outliers
    assert 0 <= lo <= np.quantile(income, 0.1) and np.quantile(income, 0.9) <= hi
    assert hi <= 2 * np.quantile(income, 0.999) and hi < HUGE[0]
    assert lo in private.candidate_grid() and hi in private.candidate_grid()
    assert s["noise_scale"]["income"] == pytest.approx((hi - lo) / 0.9, rel=1e-6)
    wage = release.table["income"].to_numpy(dtype=float)
    assert wage.min() >= lo and wage.max() <= hi
    # a seeded run reproduces its private bounds
    assert anonymize(data, config).summary.to_dict()["noise"]["bounds"] == s["bounds"]
    html = write_report(release, tmp_path / "r.html").read_text(encoding="utf-8")
    assert "ε for private bounds" in html and "private (DP quantiles" in html


def test_private_bounds_only_for_columns_without_public_ones(income) -> None:
    data = pd.DataFrame(
        {"age": np.arange(income.size) % 70 + 18, "income": income, "rent": income / 10}
    )
    rent = {"rent": (0, 20_000)}
    config = laplace_params(
        ("age",), ("income", "rent"), epsilon=2.0, bounds=rent, private_bounds=0.2, seed=6
    )
    s = anonymize(data, config).summary.to_dict()["noise"]
    assert s["columns"]["rent"]["bounds_source"] == "public"
    assert s["bounds"]["rent"] == [0, 20_000]
    assert s["bounds_epsilon"] == pytest.approx(0.2 * 1.0)  # 20 % of income's ε = 1
    assert s["epsilon_noise_per_column"] == {
        "income": pytest.approx(0.8),
        "rent": pytest.approx(1.0),
    }


def test_private_bounds_on_the_command_line(tmp_path, capsys) -> None:
    source, out, summary = tmp_path / "w.csv", tmp_path / "o.csv", tmp_path / "s.json"
    wages(6000).to_csv(source, index=False)
    argv = ["anonymize", str(source), "-o", str(out), "--qi", "age,sex", "--confidential"]
    argv += ["wage,smoker", "--epsilon", "2", "--k", "5", "--mechanism", "laplace"]
    argv += ["--bounds", "private=0.2", "--seed", "1", "--summary", str(summary)]
    argv += ["--categories", "smoker=yes|no"]
    assert main(argv) == 0
    assert "spent on private bounds" in capsys.readouterr().out
    s = json.loads(summary.read_text(encoding="utf-8"))
    assert s["noise"]["bounds_epsilon"] == pytest.approx(0.2 * 1.0)  # ε/2 per column, 20 % of it


class ZeroNoise:
    """A noise source without noise: the selection then returns the best-scored candidate."""

    def discrete_laplace(self, scale: int, size: int, **_: object) -> np.ndarray:
        assert scale >= 1
        return np.zeros(size, dtype=np.int64)


def test_the_quantile_selection_and_its_public_candidates() -> None:
    x = np.arange(1.0, 1001.0)
    assert private.dp_quantile(x, 0.5, 1.0, ZeroNoise()) == 500
    assert private.dp_quantile(x, 0.1, 1.0, ZeroNoise()) == 100
    assert private.dp_quantile(x, 0.9, 1.0, ZeroNoise()) == 900
    assert private.dp_quantile(x, 0.9, 1.0, ZeroNoise(), centre=500) == 900
    # every candidate from 100 up to 9·10^12 scores alike for the 96th percentile of 0 … 100;
    # leaning towards the median picks the first of them, not one at random
    u = np.linspace(0, 99.9, 2400)
    assert private.dp_quantile(u, 0.96, 0.4, ZeroNoise(), centre=50) == 100
    assert private.dp_quantile(u + 1000, 0.04, 0.4, ZeroNoise(), centre=1050) == 1000
    grid = private.candidate_grid()
    assert len(grid) == 577 and list(grid) == sorted(grid) and 0.0 in grid
    assert 123.456 not in grid  # never the data's own values
    # α grows as the budget shrinks and is flagged when too few records support it
    assert private.quantile_alpha(20_000, 0.5) == (0.01, False)
    alpha, coarse = private.quantile_alpha(300, 0.05)
    assert alpha == 0.25 and coarse
    with pytest.raises(InputError):
        private.private_bounds(np.array([np.nan]), 0.1, Seeded(0))


def test_private_bounds_of_a_small_uniform_column_stay_near_it() -> None:
    u = np.random.default_rng(5).uniform(0, 100, 2400).round(1)
    for seed in range(5):
        found = private.private_bounds(u, 0.4, Seeded(seed))
        assert 0 <= found.lo <= 10 and 90 <= found.hi <= 130, found


def test_a_fresh_private_bound_draw_is_noisy_but_plausible(income) -> None:
    """Without a seed (OpenDP's sampler on OS entropy) the bounds still bracket the bulk."""
    from engine.mechanisms.sampling import noise_source

    found = private.private_bounds(income, 0.5, noise_source(None))
    assert found.lo <= np.quantile(income, 0.1) and found.hi >= np.quantile(income, 0.9)
    assert found.hi < HUGE[0] and found.epsilon == 0.5


def test_project_files_carry_private_bounds(tmp_path: Path) -> None:
    source = tmp_path / "wages.csv"
    wages(200).to_csv(source, index=False)
    config = laplace(private_bounds=0.15)
    path = save_project(new_project(source, config), tmp_path / "p.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["params"]["private_bounds"] == 0.15
    from engine.project import load_project

    assert load_project(path).params.private_bounds == 0.15
