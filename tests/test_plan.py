"""The plan says what the run will do, and the run does it.

The privacy page, the preview, the sweep and ``tclose plan`` show :func:`engine.plan`; these
tests hold the plan to the run: the same b, the same feasibility, the same guarantees, and
class sizes explained when they exceed k.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from engine import InfeasibleError, ReleaseParams, anonymize, plan
from engine.cli import main
from tests.bucket_choices import eligible
from tests.factories import laplace_params


def people(n: int = 600, seed: int = 5, missing: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    income = rng.lognormal(10, 0.8, n).round(-2)
    frame = pd.DataFrame(
        {
            "age": rng.integers(18, 90, n),
            "sex": rng.choice(["F", "M"], n),
            "region": rng.choice(list("ABCDE"), n),
            "income": income,
        }
    )
    if missing:
        frame.loc[rng.choice(n, missing, replace=False), "income"] = np.nan
    return frame


def params(**over) -> ReleaseParams:
    base = {"qi": ("age", "sex", "region"), "confidential": ("income",), "k": 5, "t": 2.0}
    base.update(over)
    return ReleaseParams(**base)


@pytest.mark.parametrize(("t", "k"), [(5.0, 3), (1.5, 5), (2.0, 10), (3.0, 2), (10.0, 25)])
def test_the_plan_has_the_runs_buckets_and_feasibility(t, k) -> None:
    data = people()
    p = params(t=t, k=k, seed=1)
    planned = plan(data, p)
    release = anonymize(data, p)
    assert planned.feasibility.ok
    # b is searched from the paper's t + 1 (capped at k) up; the plan's choice is the run's
    tried = [c.b for c in planned.bucket_choices]
    assert tried[0] == max(2, min(math.floor(t + 1.5), k)) and tried == sorted(tried)
    (chosen,) = [c for c in planned.bucket_choices if c.chosen]
    assert planned.n_buckets == chosen.b
    # the least score among the b within the paper's count's QI loss (and its tolerance)
    # whose regression on the sample is no worse than the paper's count's
    assert chosen.score == min(c.score for c in eligible(planned.bucket_choices))
    assert [b.label for b in planned.buckets] == list(release.buckets.labels)
    assert [b.count for b in planned.buckets] == release.buckets.counts.tolist()
    assert tuple(planned.buckets) == release.summary.buckets
    assert release.verification.k >= planned.class_sizes.smallest >= 1


def test_t5_k3_plans_and_runs_three_buckets() -> None:
    """b = t + 1 = 6 is capped at k = 3 where the search starts, and a b given by the user
    is planned and run exactly."""
    data = people()
    planned = plan(data, params(t=5.0, k=3))
    assert planned.bucket_choices[0].b == 3
    given = params(t=5.0, k=3, n_buckets=3)
    planned = plan(data, given)
    release = anonymize(data, given.replace(seed=2))
    assert planned.n_buckets == 3 == len(release.buckets.counts)
    assert planned.bucket_choices == ()  # nothing searched


def test_k_above_n_is_infeasible_with_a_useful_fix() -> None:
    data = people(n=50)
    planned = plan(data, params(k=80))
    assert not planned.feasibility.ok and "50" in planned.feasibility.message
    (fix,) = planned.feasibility.fixes
    assert fix.changes["k"] < 50 and "n_buckets" not in fix.changes
    fixed = fix.apply(planned.params)
    assert plan(data, fixed).feasibility.ok
    assert anonymize(data, fixed.replace(seed=1)).verification.n_classes >= 2
    with pytest.raises(InfeasibleError):
        anonymize(data, params(k=80))


def test_a_huge_t_is_feasible_with_one_bucket_per_class_allowance() -> None:
    planned = plan(people(), params(t=1e200, k=5))
    assert planned.feasibility.ok
    assert planned.bucket_choices[0].b == 5
    release = anonymize(people(), params(t=1e200, k=5, seed=1))
    assert release.verification.ok and release.verification.k >= 5


def test_rare_missing_values_explain_large_classes() -> None:
    data = people(n=400, missing=4)
    planned = plan(data, params(t=2.0, k=5))
    forecast = planned.class_sizes
    assert forecast.smallest > 5 and forecast.max_classes <= 4
    assert "missing" in forecast.reason and "at most" in forecast.reason
    assert forecast.reason in planned.warnings
    release = anonymize(data, params(t=2.0, k=5, seed=1))
    assert release.verification.k >= forecast.smallest


def test_laplace_insensitive_guarantees_match_the_runs() -> None:
    data = people()
    bounds = {"income": (0.0, 200_000.0)}
    p = laplace_params(("age", "sex"), ("income",), k=10, bounds=bounds, insensitive=True, seed=3)
    planned = plan(data, p)
    release = anonymize(data, p)
    (column,) = planned.noise
    assert column.mechanism == "insensitive" and column.epsilon_local == pytest.approx(10.0)
    assert column.expected_abs_error == pytest.approx(200_000 / 10)
    local = {g.name: g for g in planned.guarantees}["per-record (local) ε"]
    assert local.values["epsilon_local"] == pytest.approx(10.0)
    assert release.summary.noise.epsilon_local == pytest.approx(10.0)
    if release.verification.k == p.k:  # the run's classes are the planned ones: same words
        assert tuple(planned.guarantees) == release.summary.guarantees
    stochastic = {g.name: g for g in release.summary.guarantees}[
        "stochastic t-closeness (Proposition 1)"
    ]
    assert stochastic.values["t"] == pytest.approx(release.summary.noise.stochastic_t)


def test_the_plan_pickles_without_the_data() -> None:
    import pickle

    planned = plan(people(), params())
    assert planned.prepared is not None
    back = pickle.loads(pickle.dumps(planned))
    assert back.prepared is None and back.bucket_data is None
    assert back.params == planned.params and back.buckets == planned.buckets


def test_tclose_plan_prints_text_and_json(tmp_path, capsys) -> None:
    path = tmp_path / "people.csv"
    people().to_csv(path, index=False)
    base = ["plan", str(path), "--qi", "age,sex", "--confidential", "income", "--t", "2"]
    assert main([*base, "--k", "5"]) == 0
    out = capsys.readouterr().out
    assert "Feasible." in out and "Buckets of income" in out and "What does not follow" in out
    assert main([*base, "--k", "5", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["feasibility"]["ok"] and doc["parameters"]["k"] == 5
    assert main([*base, "--k", "100000"]) == 3
    assert "Infeasible" in capsys.readouterr().out
