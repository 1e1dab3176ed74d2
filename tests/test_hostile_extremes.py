"""Numeric extremes through the engine's own API (what the GUI and scripts call).

The command line's cases are in ``tests/hostile.py``; here the functions underneath: every
extreme gives an :class:`~engine.errors.InputError` with one clear sentence, or a result,
never an OverflowError or a cast error from numpy or pandas.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from engine import InputError, ReleaseParams, anonymize, plan
from engine.mechanisms.laplace import check_bounds, laplace_release
from engine.mechanisms.sampling import MAX_SCALE, Seeded, integer_scale
from engine.params import MAX_MAGNITUDE, MIN_NOISE_EPSILON
from engine.release import size_candidates, verify_release
from engine.release.partition import class_size_candidates, top_size


def survey(n: int = 120, **columns) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    data = pd.DataFrame({"age": rng.integers(18, 80, n), "income": rng.integers(10, 90, n) * 50})
    for name, values in columns.items():
        data[name] = values
    return data


BUCKETS = ReleaseParams(qi=("age",), confidential=("income",), k=5, t=3.0, seed=1)


@pytest.mark.parametrize("t", [1e200, 1e308])
def test_a_huge_t_is_one_class_at_worst_never_an_overflow(t) -> None:
    counts = np.array([1, 50, 69])
    assert top_size(counts, t) == 120  # t / p_min is infinite: N is the ceiling
    assert class_size_candidates(counts, 5, t)[0] == 5
    assert size_candidates(counts, 5, t)[0] == 5
    params = BUCKETS.replace(t=t)
    planned = plan(survey(), params)
    assert planned.feasibility.ok
    release = anonymize(survey(), params)
    assert release.summary.k_achieved >= 5


def test_the_largest_epsilon_of_the_buckets_is_a_release() -> None:
    release = anonymize(survey(), BUCKETS.replace(t=None, epsilon=700.0))
    assert release.summary.t == pytest.approx(math.exp(350.0))


def test_bounds_and_noise_epsilon_have_limits_in_the_one_validator() -> None:
    noise = {"qi": ("age",), "confidential": ("income",), "k": 5, "mechanism": "laplace"}
    with pytest.raises(InputError, match=r"numbers between -1e\+150 and 1e\+150"):
        ReleaseParams(**noise, epsilon=1.0, bounds={"income": (-1e308, 1e308)})
    assert ReleaseParams(**noise, epsilon=1.0, bounds={"income": (0.0, MAX_MAGNITUDE)})
    with pytest.raises(InputError, match=r"laplace mechanism takes ε ≥ 1e-06, not 1e-07"):
        ReleaseParams(**noise, epsilon=1e-7, bounds={"income": (0.0, 1.0)})
    assert ReleaseParams(**noise, epsilon=MIN_NOISE_EPSILON, bounds={"income": (0.0, 1.0)})
    # the buckets turn a tiny ε into t = exp(ε/2) ≈ 1: allowed
    assert ReleaseParams(qi=("age",), confidential=("income",), k=5, epsilon=1e-300).bucket_t == 1


def test_noise_scales_beyond_exact_arithmetic_are_refused() -> None:
    assert integer_scale(3.0, 1.0) == 3
    assert integer_scale(MAX_SCALE, 1.0) == MAX_SCALE
    with pytest.raises(InputError, match=r"ε = 1e-300 is too small for Laplace noise"):
        integer_scale(1.0, 1e-300, "Laplace noise")
    with pytest.raises(InputError, match="too far apart"):
        check_bounds(-1e308, 1e308)
    with pytest.raises(InputError, match="too small for Laplace noise"):
        laplace_release(np.array([1.0, 2.0]), 0.0, 1e150, 1e-200, Seeded(1))


def test_an_integer_column_with_bounds_beyond_int64_is_released_as_numbers() -> None:
    params = ReleaseParams(
        qi=("age",), confidential=("income",), k=5, epsilon=1.0, mechanism="laplace",
        bounds={"income": (0.0, 1e30)}, seed=4,
    )  # fmt: skip
    release = anonymize(survey(), params)
    income = pd.to_numeric(release.table["income"])
    assert income.between(0, 1e30).all() and income.max() > 2**63


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (math.inf, r"Column 'age' holds 1 infinite value\(s\); correct them or declare 'inf'"),
        (-math.inf, r"declare '-inf' missing-value codes"),
        (1e308, r"value\(s\) such as 1e\+308 that tclose cannot compute with"),
        (-1e151, r"such as -1e\+151"),
        (5e-324, r"such as 4\.94066e-324"),
    ],
)
def test_numbers_beyond_computation_are_named(value, message) -> None:
    data = survey()
    data["age"] = data["age"].astype(float)
    data.loc[17, "age"] = value
    with pytest.raises(InputError, match=message):
        plan(data, BUCKETS)
    params = ReleaseParams(
        qi=("income",), confidential=("age",), k=5, epsilon=1.0, mechanism="laplace",
        bounds={"age": (0.0, 100.0)},
    )  # fmt: skip
    with pytest.raises(InputError, match=message):
        plan(data, params)


def test_large_but_computable_numbers_and_zero_are_released() -> None:
    data = survey()
    data["age"] = data["age"] * 1e140
    data.loc[3, "age"] = 0.0
    release = anonymize(data, BUCKETS.replace(qi_output="range"))
    assert release.summary.k_achieved >= 5


def test_infinite_values_declared_missing_are_missing() -> None:
    data = survey()
    data["age"] = data["age"].astype(float)
    data.loc[[3, 9], "age"] = [math.inf, -math.inf]
    release = anonymize(data, BUCKETS.replace(missing=("inf", "-inf")))
    assert release.summary.n_released == 120


def test_huge_k_and_buckets_are_infeasible_or_capped_not_overflowing() -> None:
    planned = plan(survey(), BUCKETS.replace(k=2**63))
    assert not planned.feasibility.ok and planned.feasibility.fixes[0].changes["k"] <= 120
    release = anonymize(survey(), BUCKETS.replace(n_buckets=10**30))
    assert len(release.buckets.counts) <= 120


def test_verify_refuses_a_column_named_twice() -> None:
    table = pd.DataFrame({"age": [1, 1], "income": ["a", "a"]})
    with pytest.raises(InputError, match="named only once: 'age'"):
        verify_release(table, ["age", "age"], ["income"])
    with pytest.raises(InputError, match="named only once: 'age'"):
        verify_release(table, ["age"], ["age"])


def test_an_integer_column_with_bounds_narrower_than_one_unit_keeps_fractions() -> None:
    data = survey()
    data["income"] = np.arange(120) % 2  # whole numbers, 0 and 1
    params = ReleaseParams(
        qi=("age",), confidential=("income",), k=5, epsilon=1.0, mechanism="laplace",
        bounds={"income": (0.25, 0.75)}, seed=4,
    )  # fmt: skip
    income = pd.to_numeric(anonymize(data, params).table["income"])
    assert income.between(0.25, 0.75).all()
