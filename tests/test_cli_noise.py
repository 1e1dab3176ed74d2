"""``tclose anonymize --mechanism laplace``: the noise route end to end on the command line."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from engine.cli import main
from engine.io import read_table
from engine.release import verify_release
from tests.cli_support import cli_words


@pytest.fixture
def survey(tmp_path):
    rng = np.random.default_rng(5)
    n = 400
    frame = pd.DataFrame(
        {
            "age": rng.integers(18, 80, n),
            "sex": rng.choice(["F", "M"], n),
            "income": rng.integers(0, 90_000, n),
            "smoker": rng.choice(["yes", "no"], n),
        }
    )
    path = tmp_path / "survey.csv"
    frame.to_csv(path, index=False)
    return path


def run(survey, tmp_path, *extra: str) -> tuple[int, dict, pd.DataFrame]:
    out, summary = tmp_path / "release.csv", tmp_path / "summary.json"
    line = (
        "anonymize {survey} -o {out} --qi age,sex --confidential income,smoker --epsilon 1"
        " --k 5 --mechanism laplace --summary {summary} --seed 7"
    )
    code = main([*cli_words(line, survey=survey, out=out, summary=summary), *extra])
    if code != 0:
        return code, {}, pd.DataFrame()
    return code, json.loads(summary.read_text(encoding="utf-8")), read_table(out).data


def test_laplace_with_public_bounds(survey, tmp_path, capsys):
    code, summary, table = run(survey, tmp_path, "--bounds", "income=0:100000")
    assert code == 0
    assert "stochastic t" in capsys.readouterr().out
    assert summary["mechanism"] == "laplace"
    assert summary["noise"]["bounds"]["income"] == [0.0, 100000.0]
    assert summary["epsilon"] == 1.0
    assert verify_release(table, ["age", "sex"], [], k=5).ok
    assert set(table["smoker"].dropna()) <= {"yes", "no"}
    # noise of scale Δ/ε = 100,000 moves the incomes far from any bucket label
    assert pd.api.types.is_numeric_dtype(table["income"])


def test_laplace_without_bounds_is_refused(survey, tmp_path, capsys):
    """The data's own min/max are never the bounds: exit 2, one line that says what to give."""
    code, _, _ = run(survey, tmp_path)
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'income' needs public bounds" in err
    assert "--bounds income=LO:HI" in err and "--bounds private" in err
    assert not (tmp_path / "release.csv").exists()


def test_bad_bounds_are_one_line_errors(survey, tmp_path, capsys):
    code, _, _ = run(survey, tmp_path, "--bounds", "income=10:1")
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "low < high, not [10, 1]" in err
