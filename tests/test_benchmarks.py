"""The benchmark scripts still run against today's engine (their figures are in the docs).

Timings are not checked here (that is what the benchmarks are for): only that a small case runs
on a bare clone, without the real data sets, and reports what its table prints.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_engine_benchmark_runs_one_small_case(tmp_path: Path) -> None:
    env = {**os.environ, "TCLOSE_DATA": str(tmp_path)}  # no real data sets here
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_engine", "--case", "synthetic", "3000", "3",
         "10", "-"],
        capture_output=True, text=True, encoding="utf-8", cwd=ROOT, env=env, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    row = json.loads(run.stdout.strip().splitlines()[-1])
    assert row["case"] == "synthetic" and row["rows"] == 3000
    assert row["k"] >= 10 and row["t"] <= 3.0
    assert 0 < row["qi_sse_sst_pct"] < 100 and 0 <= row["conf_sse_sst_pct"] < 100
    assert row["b"] >= 2 and row["classes"] <= 300 and row["path"] == "exact"


@pytest.mark.skipif(not hasattr(os, "wait4"), reason="peak memory is measured where wait4 is")
def test_a_command_s_peak_memory_is_its_own_not_its_parent_s() -> None:
    """A command started by a benchmark holding a large array reports its own peak: Linux
    hands a process the peak of the memory it replaced at exec, which the launcher keeps
    small (a child of this process would report at least the array)."""
    import numpy as np

    from benchmarks.peak import own_peak_mb, run_measured

    held = np.ones(300 * 2**20 // 8)  # 300 MB, every page touched
    assert own_peak_mb() >= 300
    code = "import numpy as np; a = np.ones(20 * 2**20 // 8); print(a.sum())"
    done = run_measured([sys.executable, "-c", code], cwd=ROOT)
    assert float(done["stdout"]) == 20 * 2**20 // 8
    assert 20 <= done["peak_mb"] < 150 and done["cpu"] > 0 and done["wall"] > 0
    del held
