"""``tclose convert``: the calculator's table on the command line."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from engine.cli import main
from tests.conftest import ROOT


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(["convert", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def values_of(payload: dict, name: str) -> dict:
    return next(g for g in payload["guarantees"] if g["name"] == name)["values"]


def test_t_gives_epsilon_by_proposition_3(capsys) -> None:
    payload = run_json(capsys, "--t", "2")
    assert payload["inputs"] == {"t": 2.0, "mechanism": "buckets"}
    prop3 = values_of(payload, "ε-differential privacy (Proposition 3)")
    assert prop3["epsilon"] == pytest.approx(2 * math.log(2))


def test_worked_example_on_the_command_line(capsys) -> None:
    payload = run_json(capsys, "--t", "2", "--k", "5", "--n", "100")
    assert values_of(payload, "equivalent noise level")["epsilon"] == pytest.approx(0.72, abs=5e-3)
    payload = run_json(
        capsys, "--epsilon", "0.7191", "--k", "5", "--n", "100", "--mechanism", "laplace"
    )
    stochastic = values_of(payload, "stochastic t-closeness (Proposition 1)")
    assert stochastic["t"] == pytest.approx(2.0, abs=1e-3)
    assert all(g["assumption"] for g in payload["guarantees"])
    assert any(not g["holds"] for g in payload["guarantees"])


def test_epsilon_gives_t(capsys) -> None:
    payload = run_json(capsys, "--epsilon", "1")
    assert values_of(payload, "t-closeness")["t"] == pytest.approx(math.exp(0.5))


def test_table_names_assumptions_and_what_does_not_follow(capsys) -> None:
    assert main(["convert", "--t", "3", "--k", "4", "--n", "50"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("t = 3, k = 4, N = 50 (mechanism: buckets)")
    assert "Assumes: The intruder's prior knowledge" in out
    assert "[does not follow] t-closeness does not imply local DP" in out
    assert "Theorem 5" in out


def test_k_equal_n_is_json_clean(capsys) -> None:
    payload = run_json(capsys, "--t", "3", "--k", "7", "--n", "7")
    assert payload["guarantees"]  # no equivalent-noise line (any ε works), no NaN anywhere


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--t", "0.5"], "t must be a number ≥ 1"),
        (["--epsilon", "-1"], "ε must be a number ≥ 0"),
        (["--t", "2", "--mechanism", "laplace"], "give k and N"),
        (["--t", "2", "--k", "9", "--n", "5"], "between 1 and N"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, needle) -> None:
    assert main(["convert", *argv]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1


def test_t_and_epsilon_are_exclusive() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "convert", "--t", "2", "--epsilon", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "not allowed with argument" in proc.stderr and "Traceback" not in proc.stderr
