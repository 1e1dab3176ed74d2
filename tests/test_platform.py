"""What can be emulated on Linux of the users' Windows and macOS machines.

* A Windows console whose output is piped or redirected writes in the ANSI code page
  (cp1252): every command and its ``--help`` must run there, with ``PYTHONIOENCODING=cp1252``
  and output on a pipe, without a traceback.
* Folders with spaces and accents (``C:\\Users\\Zoë\\Mes données``) for input and output.
* The ``spawn`` start method (Windows' and macOS's) for the GUI's engine helper process.
* The CI workflow that runs all this on real Windows and macOS machines passes a YAML linter.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engine.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
#: a folder name as a user's might be: spaces, accents, a letter cp1252 lacks
AWKWARD = "Mes données d'été ε"


def registered_commands() -> list[str]:
    """The sub-commands ``tclose --help`` lists, whatever they are."""
    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    return list(sub.choices)


def write_survey(path: Path, n: int = 300, seed: int = 7) -> Path:
    """A small survey table: three quasi-identifiers and an income."""
    rng = np.random.default_rng(seed)
    table = pd.DataFrame(
        {
            "age": rng.integers(18, 90, n),
            "sex": rng.choice(["F", "M"], n),
            "region": rng.choice(["Nord", "Süd", "Île", "Østfold"], n),
            "income": rng.lognormal(10, 0.6, n).round(0).astype(int),
        }
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(path, index=False, encoding="utf-8")
    return path


def tclose_cp1252(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """``tclose ARGS`` as on a Windows console whose output is redirected: cp1252, piped."""
    env = {**os.environ, "PYTHONIOENCODING": "cp1252", "MPLBACKEND": "Agg"}
    env.pop("PYTHONUTF8", None)
    env.pop("TCLOSE_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "engine", *map(str, args)],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,  # both are pipes: not a console
        timeout=600,
        check=False,
    )


def assert_clean(done: subprocess.CompletedProcess[bytes]) -> tuple[str, str]:
    """Exit 0, no traceback, and output that is valid cp1252; returns (stdout, stderr)."""
    out, err = done.stdout.decode("cp1252"), done.stderr.decode("cp1252")
    assert done.returncode == 0, err
    assert "Traceback" not in err and "Error" not in err, err
    return out, err


# --- the cp1252 console -------------------------------------------------------------------


@pytest.mark.parametrize("command", [None, *registered_commands()])
def test_help_of_every_command_on_a_cp1252_pipe(command: str | None, tmp_path: Path) -> None:
    done = tclose_cp1252(*([command] if command else []), "--help", cwd=tmp_path)
    out, _ = assert_clean(done)
    assert out.startswith("usage: tclose")
    if command in (None, "anonymize", "convert", "sweep"):
        assert "eps" in out and "?" not in out.replace("[-h]", "")  # ε written as eps, never ?


def _survey_in_awkward_folder(tmp: Path) -> Path:
    return write_survey(tmp / AWKWARD / "enquête 2024.csv")


def _anonymize(tmp: Path) -> list[str | Path]:
    data = _survey_in_awkward_folder(tmp)
    out = tmp / AWKWARD / "sortie publiée"
    out.mkdir(exist_ok=True)
    return [
        "anonymize", data, "-o", out / "publié ε.xlsx", "--qi", "age,sex,region",
        "--confidential", "income", "--epsilon", "1.4", "--k", "5", "--seed", "3",
        "--report", out / "rapport.html", "--summary", out / "résumé.json",
    ]  # fmt: skip


def _plan(tmp: Path) -> list[str | Path]:
    data = _survey_in_awkward_folder(tmp)
    return [
        "plan", data, "--qi", "age,sex,region", "--confidential", "income", "--t", "2", "--k", "5"
    ]  # fmt: skip


def _verify(tmp: Path) -> list[str | Path]:
    from engine.cli import main

    args = _anonymize(tmp)
    assert main([str(a) for a in args]) == 0
    return ["verify", args[3], "--qi", "age,sex,region", "--confidential", "income", "--k", "5"]


def _convert(tmp: Path) -> list[str | Path]:
    return ["convert", "--epsilon", "0.7", "--k", "5", "--n", "300", "--mechanism", "laplace"]


def _sweep(tmp: Path) -> list[str | Path]:
    data = _survey_in_awkward_folder(tmp)
    return [
        "sweep", data, "--qi", "age,sex", "--confidential", "income", "--epsilon", "0.5,2",
        "--k", "5,10", "-o", tmp / AWKWARD / "courbe ε.csv", "--plot", tmp / AWKWARD / "c.png",
    ]  # fmt: skip


def _run(tmp: Path) -> list[str | Path]:
    from engine.params import ReleaseParams
    from engine.project import new_project, save_project

    data = _survey_in_awkward_folder(tmp)
    params = ReleaseParams(qi=("age", "sex"), confidential=("income",), k=5, t=2.0, seed=1)
    project = new_project(data, params, output=tmp / AWKWARD / "rejoué.csv")
    return ["run", save_project(project, tmp / AWKWARD / "projet ε.json")]


#: one valid invocation of each command (a new command needs one here)
VALID_RUNS = {
    "anonymize": _anonymize,
    "plan": _plan,
    "verify": _verify,
    "convert": _convert,
    "sweep": _sweep,
    "run": _run,
}


@pytest.mark.parametrize("command", registered_commands())
def test_every_command_runs_on_a_cp1252_pipe(command: str, tmp_path: Path) -> None:
    if command not in VALID_RUNS:
        pytest.fail(f"tests/test_platform.py: add a valid invocation of 'tclose {command}'")
    args = VALID_RUNS[command](tmp_path)
    out, _ = assert_clean(tclose_cp1252(*args, cwd=tmp_path))
    assert out.strip()


def test_text_output_uses_ascii_stand_ins_and_json_stays_exact(tmp_path: Path) -> None:
    out, _ = assert_clean(tclose_cp1252(*_anonymize(tmp_path), cwd=tmp_path))
    # "t = exp(ε/2)" and the path's "ε" (é is in cp1252 and stays)
    assert "t = exp(eps/2)" in out and f"{AWKWARD[:-1]}eps" in out
    out, _ = assert_clean(tclose_cp1252("convert", "--epsilon", "1", "--json", cwd=tmp_path))
    names = [g["name"] for g in json.loads(out)["guarantees"]]
    assert any(name.startswith("ε-differential privacy") for name in names)  # \u03b5, exactly


def test_anonymize_round_trip_in_folders_with_spaces_and_accents(tmp_path: Path) -> None:
    from engine.io import read_table

    args = _anonymize(tmp_path)
    assert_clean(tclose_cp1252(*args, cwd=tmp_path))
    release = Path(args[3])
    assert release.is_file() and (release.parent / "rapport.html").is_file()
    summary = json.loads((release.parent / "résumé.json").read_text(encoding="utf-8"))
    assert summary["input"] == "enquête 2024.csv"
    table = read_table(release).data
    regions = " ".join(table["region"].astype(str))
    assert len(table) == 300 and all(name in regions for name in ("Süd", "Île", "Østfold"))
    done = tclose_cp1252(
        "verify", release, "--qi", "age,sex,region", "--confidential", "income", "--k", "5",
        cwd=tmp_path,
    )  # fmt: skip
    out, _ = assert_clean(done)
    assert json.loads(out)["ok"] is True
    # nothing but the three outputs was written beside the input
    assert sorted(p.name for p in release.parent.iterdir()) == sorted(
        ["publié ε.xlsx", "rapport.html", "résumé.json"]
    )


# --- the spawn start method ---------------------------------------------------------------

SPAWN_SCRIPT = '''
"""Run the wizard's three engine calls in the helper process, as on Windows and macOS."""
import multiprocessing
import sys


def main() -> None:
    from engine import ReleaseParams, plan
    from gui.engine_process import EngineProcess
    from gui.previews import build_preview
    from gui.state import read_and_analyse
    from resources import SAMPLE_WORKBOOK

    helper = EngineProcess()
    try:
        result, analysis = helper.call(read_and_analyse, SAMPLE_WORKBOOK)
        data = result.data
        params = ReleaseParams(qi=("age", "sex", "region"), confidential=("income",), k=5, t=2.0)
        planned = helper.call(plan, data, params)
        counted = sum(row.count for row in planned.buckets)
        preview = helper.call(build_preview, data, params, size_px=(640, 480))
        qt = helper.call(qt_modules_loaded)
        print(len(data), counted, preview.release.verification.ok, qt, helper._proc.pid)
    finally:
        helper.stop()


def qt_modules_loaded(*, task=None) -> int:
    return sum(name.startswith("PySide6") for name in sys.modules)


if __name__ == "__main__":
    multiprocessing.set_start_method("spawn")
    main()
'''


def test_engine_helper_process_works_under_spawn_from_a_script(tmp_path: Path) -> None:
    """The helper re-imports the main script (as ``__mp_main__``) and unpickles its tasks."""
    script = tmp_path / AWKWARD / "lancer tclose.py"
    script.parent.mkdir()
    script.write_text(SPAWN_SCRIPT, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    n, counted, verified, qt_modules, pid = done.stdout.split()
    assert int(n) == 400 and int(counted) == 400 and verified == "True"
    assert qt_modules == "0"  # the helper never loads Qt
    assert int(pid) != 0


def test_engine_process_uses_spawn_everywhere() -> None:
    """Linux would fork by default; the helper must behave as it does on Windows and macOS."""
    from gui.engine_process import EngineProcess

    assert EngineProcess()._ctx.get_start_method() == "spawn"


# --- the CI workflow ----------------------------------------------------------------------


def test_workflows_pass_yamllint() -> None:
    done = subprocess.run(
        [
            sys.executable, "-m", "yamllint", "--strict", "--format", "parsable",
            "-c", str(ROOT / ".github" / "yamllint.yml"), str(ROOT / ".github"),
        ],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_workflow_tests_and_builds_on_windows_macos_and_linux() -> None:
    import yaml

    workflow = yaml.safe_load(
        (ROOT / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8")
    )
    jobs = workflow["jobs"]
    assert {entry["os"] for entry in jobs["tests"]["strategy"]["matrix"]["include"]} == {
        "windows", "macos", "linux",
    }  # fmt: skip
    steps = {step.get("name"): step for step in jobs["tests"]["steps"]}
    suite = steps["Test suite (Qt offscreen)"]
    assert (
        suite["env"]["QT_QPA_PLATFORM"] == "offscreen"
        and suite["run"] == "python -m pytest -n auto --dist worksteal"
    )
    assert steps["Install"]["run"] == 'python -m pip install -e ".[test]"'
    builds = jobs["installers"]
    assert {(e["os"], e["arch"]) for e in builds["strategy"]["matrix"]["include"]} == {
        ("windows", "x64"), ("macos", "arm64"), ("macos", "x86_64"), ("linux", "x86_64"),
    }  # fmt: skip
    # every build script the workflow runs exists and runs the smoke test
    scripts = [
        found for step in builds["steps"]
        for found in re.findall(r"installer/build_\w+\.(?:sh|ps1)", step.get("run", ""))
    ]  # fmt: skip
    assert sorted(Path(s).name for s in scripts) == [
        "build_linux.sh", "build_macos.sh", "build_windows.ps1",
    ]  # fmt: skip
    for script in scripts:
        assert "--smoke-test" in (ROOT / script).read_text(encoding="utf-8")
