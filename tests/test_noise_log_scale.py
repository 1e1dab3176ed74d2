"""Laplace noise on log(1 + value) (``transform="log"``): an error that grows with the value.

On a skewed column a fixed ±error swamps the small values and hardly touches the large
ones; on the log scale half of the values stay within the plan's stated factor of their true
value, small and large alike, and everything released stays within the public bounds.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from engine import InputError, ReleaseParams, anonymize, plan
from tests.cli_support import tclose

BOUNDS = (0.0, 1_000_000.0)


@pytest.fixture(scope="module")
def incomes() -> pd.DataFrame:
    """4,000 people with incomes from about 100 to 100,000 (log-normal) and a row number
    kept unchanged, so released values can be matched with the true ones."""
    rng = np.random.default_rng(11)
    n = 4_000
    return pd.DataFrame(
        {
            "row": np.arange(n),
            "age": rng.integers(18, 80, n),
            "income": np.round(np.exp(rng.uniform(np.log(100), np.log(100_000), n))),
        }
    )


def laplace(transform: str, epsilon: float = 20.0, **extra) -> ReleaseParams:
    return ReleaseParams(
        qi=("age",),
        confidential=("income",),
        keep=("row",),
        allow_identifier=("row",),  # a record number kept on purpose: it matches the records
        k=5,
        epsilon=epsilon,
        mechanism="laplace",
        bounds={"income": BOUNDS},
        transform=transform,
        seed=4,
        **extra,
    )


def relative_errors(data: pd.DataFrame, params: ReleaseParams) -> tuple[np.ndarray, np.ndarray]:
    """|log((1 + released) / (1 + true))| of every record, and the true values."""
    table = anonymize(data, params).table.sort_values("row")
    true = data.sort_values("row")["income"].to_numpy(float)
    released = table["income"].astype(float).to_numpy()
    assert ((released >= BOUNDS[0]) & (released <= BOUNDS[1])).all()
    return np.abs(np.log1p(released) - np.log1p(true)), true


def test_half_the_values_stay_within_the_planned_factor(incomes) -> None:
    params = laplace("log")
    (column,) = plan(incomes, params).noise
    width = math.log1p(BOUNDS[1]) - math.log1p(BOUNDS[0])
    assert column.expected_abs_error is None  # the error is relative, not in income units
    assert column.typical_factor == pytest.approx(2 ** (width / 20.0))
    errors, _ = relative_errors(incomes, params)
    within = float(np.mean(errors <= math.log(column.typical_factor)))
    assert 0.45 < within < 0.58  # 1/2 in law; the clamp can only bring values closer


def test_small_and_large_values_get_the_same_relative_error(incomes) -> None:
    log_errors, true = relative_errors(incomes, laplace("log"))
    small, large = true < 1_000, true > 10_000
    ratio = np.median(log_errors[small]) / np.median(log_errors[large])
    assert 0.7 < ratio < 1.4
    # on the column's own scale the same ε swamps the small values
    raw_errors, _ = relative_errors(incomes, laplace("none"))
    assert np.median(raw_errors[small]) > 3 * np.median(raw_errors[large])


def test_the_summary_names_the_scale(incomes) -> None:
    release = anonymize(incomes, laplace("log", insensitive=True))
    details = release.summary.noise.columns["income"]
    assert details.transform == "log"
    (dp,) = [g for g in release.summary.guarantees if g.name.startswith("ε-differential")]
    assert "log(1 + value)" in dp.assumption
    assert details.described.endswith("on log(1 + value)")
    assert details.typical_factor > 1
    assert release.verification.ok


def test_private_bounds_on_the_log_scale_start_at_zero(incomes) -> None:
    data = incomes.assign(income=incomes["income"] - 500)  # some incomes negative (losses)
    params = laplace("log").replace(bounds={}, private_bounds=0.1)
    table = anonymize(data, params).table
    assert (table["income"].astype(float) >= 0).all()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"mechanism": "buckets", "epsilon": None, "t": 2.0, "bounds": {}}, "noise mechanism"),
        ({"bounds": {"income": (-10.0, 100.0)}}, "must be ≥ 0"),
        ({"transform": "sqrt"}, "transform"),
    ],
)
def test_bad_log_scale_settings_are_refused(changes, message) -> None:
    base = laplace("log").to_dict()
    with pytest.raises(InputError, match=message):
        ReleaseParams.from_dict({**base, **changes})


def test_command_line_plan_and_release(incomes, tmp_path, capsys) -> None:
    src, out = tmp_path / "incomes.csv", tmp_path / "released.csv"
    incomes.to_csv(src, index=False)
    options = (
        "--qi age --confidential income --keep row --allow-identifier row --k 5 --epsilon 20 "
        "--mechanism laplace "
        "--bounds income=0:1000000 --transform log --seed 4"
    )
    assert tclose(f"plan {{src}} {options}", src=src) == 0
    assert "on log(1 + value)" in capsys.readouterr().out
    assert tclose(f"anonymize {{src}} -o {{out}} {options}", src=src, out=out) == 0
    assert tclose(f"anonymize {{src}} -o {{out}} {options} --bounds x=-1:5", src=src, out=out) == 2
