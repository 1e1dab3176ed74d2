"""The compiled kernels never fall back silently, and cache only in the user's cache folder.

Each case runs in a process of its own: the route (compiled with a cache, compiled without
one, or numpy) is decided once per process, from the environment it starts in.  The kernels
compile in a fresh cache folder (several CPU-seconds), so these tests are marked slow.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engine import ReleaseParams, anonymize
from engine.release import kernel_route

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "engine" / "release" / "partition"
HAS_NUMBA = importlib.util.find_spec("numba") is not None

#: two checks in one process: the second must say nothing more
CHECK = """
import json, sys
from engine.release import kernel_check
route, n_classes, same = kernel_check()
again, _, _ = kernel_check()
print(json.dumps({"compiled": route.compiled, "cache": route.cache, "reason": route.reason,
                  "sentence": route.sentence(), "classes": n_classes, "same": same,
                  "again": again == route}))
"""

#: as CHECK, in a process where numba cannot be imported (an Intel Mac, a broken bundle)
WITHOUT_NUMBA = (
    """
import sys
class _NoNumba:
    def find_spec(self, name, path=None, target=None):
        if name == "numba" or name.startswith(("numba.", "llvmlite")):
            raise ImportError("no numba here")
sys.meta_path.insert(0, _NoNumba())
"""
    + CHECK
)


def _run(code: str, **env: str) -> tuple[dict, str, str]:
    """Run ``code`` in a fresh interpreter with ``env`` (and no NUMBA_CACHE_DIR of the
    caller's): its JSON result, its stdout and its stderr."""
    environ = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    environ.update(env, PYTHONPATH=str(ROOT), LC_ALL="C", LANGUAGE="en")
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=environ,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stdout, done.stderr


def _notes(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("note:")]


def _written_in_package(since: float) -> list[Path]:
    """numba cache files written beside the kernels' source since ``since``."""
    return [
        p for p in PACKAGE.rglob("*") if p.suffix in {".nbi", ".nbc"} and p.stat().st_mtime >= since
    ]


@pytest.mark.slow
@pytest.mark.skipif(not HAS_NUMBA, reason="numba has no wheel for this platform (Intel Mac)")
def test_the_kernels_cache_in_the_users_cache_folder_and_load_from_it(tmp_path):
    started = tmp_path.stat().st_mtime
    cache = tmp_path / "cache-home"
    first, out, err = _run(CHECK, XDG_CACHE_HOME=str(cache), NUMBA_DEBUG_CACHE="1")
    folder = Path(first["cache"])
    assert first["compiled"] and first["same"] and first["classes"] == 300
    # per user and per version of tclose, never in the package
    assert folder.is_relative_to(cache / "tclose") and folder.name == "kernels"
    assert list(folder.rglob("*.nbi")) and list(folder.rglob("*.nbc"))
    assert "data saved to" in out and str(PACKAGE) not in out
    assert not _written_in_package(started)
    assert _notes(err) == []  # nothing to say when all is as it should be
    # the next process loads what the first compiled
    second, out, err = _run(CHECK, XDG_CACHE_HOME=str(cache), NUMBA_DEBUG_CACHE="1")
    assert second["cache"] == first["cache"] and second["same"]
    assert "data loaded from" in out and str(folder) in out and "data saved to" not in out
    assert _notes(err) == []


@pytest.mark.slow
@pytest.mark.skipif(not HAS_NUMBA, reason="numba has no wheel for this platform (Intel Mac)")
def test_without_a_writable_cache_folder_the_kernels_compile_uncached_and_say_so_once(tmp_path):
    started = tmp_path.stat().st_mtime
    blocked = tmp_path / "a-file"  # a cache folder under a file can be made by no one
    blocked.write_text("not a folder", encoding="utf-8")
    result, _, err = _run(CHECK, XDG_CACHE_HOME=str(blocked / "cache"))
    assert result["compiled"] and result["cache"] is None and result["same"]
    assert str(blocked) in result["reason"] and result["again"]
    notes = _notes(err)
    assert len(notes) == 1 and "not cached" in notes[0] and str(blocked) in notes[0]
    assert not _written_in_package(started)


def test_without_numba_the_numpy_route_runs_and_says_so_once(tmp_path):
    result, _, err = _run(WITHOUT_NUMBA, XDG_CACHE_HOME=str(tmp_path))
    assert not result["compiled"] and result["cache"] is None and result["same"]
    assert "numba is not installed" in result["reason"] and result["again"]
    notes = _notes(err)
    assert len(notes) == 1 and "numpy route" in notes[0] and "numba" in notes[0]


@pytest.mark.slow
def test_a_release_that_asks_for_the_kernels_names_its_route_in_the_review_record(monkeypatch):
    # a file on the block route, with the kernels' threshold lowered to it (the real one,
    # 100,000 records, would make this test a minute long)
    monkeypatch.setattr("engine.release.partition.blocks.COMPILED_MIN_RECORDS", 1_000)
    rng = np.random.default_rng(3)
    n = 20_500  # more records and distinct QI points than the exact route takes
    data = pd.DataFrame(
        {
            "x": rng.normal(50, 10, n).round(3),
            "y": rng.normal(0, 1, n).round(3),
            "income": rng.lognormal(10, 1, n).round(0),
        }
    )
    params = ReleaseParams(qi=("x", "y"), confidential=("income",), k=10, t=3.0, seed=0)
    release = anonymize(data, params)
    route = kernel_route()
    assert route is not None and release.summary.kernels == route.sentence()
    assert release.summary.to_dict()["kernels"] == route.sentence()
    assert "kernels" not in release.summary.public_dict()  # for the review, not published
    # a small release asks too (its classes are refined by the compiled sweeps)
    small = anonymize(data.iloc[:2_000], params)
    assert small.summary.kernels == route.sentence()
