"""``tclose anonymize`` and ``tclose verify``: the command-line contract and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from engine.cli import main
from tests.cli_support import tclose
from tests.factories import SUMMARY_KEYS


@pytest.fixture
def survey(tmp_path):
    rng = np.random.default_rng(11)
    n = 300
    frame = pd.DataFrame(
        {
            "id": np.arange(n),
            "age": rng.integers(18, 80, n),
            "sex": rng.choice(["F", "M"], n),
            "income": np.where(rng.random(n) < 0.2, -10000, rng.integers(0, 50000, n)),
        }
    )
    path = tmp_path / "survey.csv"
    frame.to_csv(path, index=False, sep=";")
    return path


def test_anonymize_then_verify(survey, tmp_path, capsys):
    out = tmp_path / "release.csv"
    summary, review = tmp_path / "summary.json", tmp_path / "review.json"
    before = survey.read_bytes()
    code = tclose(
        "anonymize {survey} -o {out} --qi age,sex --confidential income --identifier id"
        " --t 2 --k 5 --missing=-10000 --seed 1 --summary {summary} --review {review}",
        survey=survey,
        out=out,
        summary=summary,
        review=review,
    )
    assert code == 0
    assert survey.read_bytes() == before
    released = pd.read_csv(out)
    assert "id" not in released.columns
    s = json.loads(review.read_text(encoding="utf-8"))
    assert set(SUMMARY_KEYS) <= set(s)
    assert s["parameters"]["missing"] == ["-10000"] and s["parameters"]["seed"] == 1
    assert s["information_loss"]["qi_sse_sst"] >= 0
    # --summary is what the release publishes (its sidecar), without the seed or losses
    published = json.loads(summary.read_text(encoding="utf-8"))
    sidecar = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert {k: v for k, v in sidecar.items() if k not in ("written", "columns")} == published
    assert "seed" not in published["parameters"] and "information_loss" not in published
    capsys.readouterr()
    code = main(
        ["verify", str(out), "--qi", "age,sex", "--confidential", "income", "--t", "2", "--k", "5"]
    )
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["k"] >= 5 and report["t"] <= 2
    code = tclose(
        f"verify {{out}} --qi age,sex --confidential income --k {report['k'] + 1}", out=out
    )
    assert code == 4


def test_epsilon_is_reported_as_t(survey, tmp_path, capsys):
    out = tmp_path / "release.xlsx"
    line = "anonymize {survey} -o {out} --qi age --confidential income --epsilon 1.3862943611198906"
    code = tclose(line + " --k 4", survey=survey, out=out)
    assert code == 0
    assert "t = exp(ε/2) = 2" in capsys.readouterr().out
    assert out.exists()


def test_exit_codes_for_bad_input_and_infeasible(survey, tmp_path, capsys):
    out = str(tmp_path / "r.csv")
    base = ["anonymize", str(survey), "-o", out, "--confidential", "income", "--t", "2"]
    assert main([*base, "--qi", "nope", "--k", "3"]) == 2
    assert "nope" in capsys.readouterr().err
    assert main([*base, "--qi", "age", "--k", "100000"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs at least 100,000 records" in err
    assert (
        main(["anonymize", str(tmp_path / "missing.csv"), "-o", out, "--qi", "age", "--k", "2"])
        == 2
    )


def test_module_entry_point_runs_without_traceback(survey, tmp_path, project_root):
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "verify", str(survey), "--qi", "nope"],
        capture_output=True,
        text=True,
        cwd=project_root,
        check=False,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "nope" in proc.stderr


def test_report_is_written(survey, tmp_path):
    out = tmp_path / "release.csv"
    report = tmp_path / "report.html"
    line = "anonymize {survey} -o {out} --qi age,sex --confidential income --t 3 --k 5"
    code = tclose(line + " --report {report}", survey=survey, out=out, report=report)
    assert code == 0
    text = report.read_text(encoding="utf-8")
    assert "<html" in text.lower() and "income" in text
    pdf = tmp_path / "r.pdf"
    line = "anonymize {survey} -o {out} --qi age --k 5 --report {pdf}"
    assert tclose(line, survey=survey, out=out, pdf=pdf) == 2
