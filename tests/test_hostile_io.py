"""Every hostile case of ``tests/hostile.py``: exit code, one-line message, files left, input.

The promises checked for each case: the exit code is the one expected (0, 2 or 3; 4 from
``verify`` for a release that breaks its bounds; 130 or 143 for a signal; never 1, an internal
error), a failure prints exactly one line and no traceback, a failure leaves no new file (and
the files that were there unchanged), and the input file's SHA-256 checksum is the same after
the run.  Most cases run ``main()`` in this process (fast; faults are emulated with
monkeypatch); the few that need a real process (resource limits, signals, a clean stderr) run
``tclose`` as a child process.  ``tests/attacks.py`` runs the same cases and prints a table.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import hashlib
import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import openpyxl
import pytest

from engine.cli import main
from engine.io import outputs as outputs_module
from tests.hostile import CASES, RELEASE_ARGS, Case, plain

ROOT = Path(__file__).resolve().parent.parent
#: a file size limit (bytes) smaller than any release: every write past it fails
FSIZE_LIMIT = 1024


def sha256(path: Path) -> str:
    """The checksum of a file, or of a folder (a Parquet dataset): its files' names and bytes."""
    if not path.is_dir():
        return hashlib.sha256(path.read_bytes()).hexdigest()
    digest = hashlib.sha256()
    for p in sorted(path.rglob("*")):
        digest.update(str(p.relative_to(path)).encode("utf-8") + b"\0")
        if p.is_file():
            digest.update(hashlib.sha256(p.read_bytes()).digest())
    return digest.hexdigest()


def snapshot(folder: Path) -> dict[str, bytes | str | None]:
    """Every file's bytes (a digest for files over 1 MB, None for folders and links) by path,
    in sub-folders too, temporary files included."""
    out: dict[str, bytes | str | None] = {}
    for p in folder.rglob("*"):
        key = str(p.relative_to(folder))
        if p.is_file() and not p.is_symlink():
            big = p.stat().st_size > 1 << 20
            out[key] = hashlib.sha256(p.read_bytes()).hexdigest() if big else p.read_bytes()
        else:
            out[key] = None
    return out


#: what a library prints when it talks to the user over tclose's head: a traceback, a log
#: line of Dask or Tornado, a worker's or resource tracker's complaint
LIBRARY_NOISE = re.compile(
    r"Traceback|Exception ignored|resource_tracker|^\s+File \"| - (?:DEBUG|INFO|WARNING|ERROR|"
    r"CRITICAL) - |distributed\.\w+|tornado\.",
    re.MULTILINE,
)


def _limit_file_size() -> None:  # runs in the child, before exec
    import resource
    import signal

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of a kill
    resource.setrlimit(resource.RLIMIT_FSIZE, (FSIZE_LIMIT, FSIZE_LIMIT))


def run_process(args: list[str], fault: str, folder: Path | None = None) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("TCLOSE_DEBUG", None)
    code = "import sys; from engine.cli import main; sys.exit(main(sys.argv[1:]))"
    if fault.startswith("signal:"):
        return run_and_stop(args, env, getattr(signal, "SIG" + fault[7:]))
    if fault in ("kill-worker", "group-signal:INT"):
        return run_on_a_local_cluster([sys.executable, "-c", code, *args], env, fault)
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        cwd=ROOT,
        preexec_fn=_limit_file_size if fault == "fsize" else None,
        timeout=300,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


#: ``tclose`` that sends itself a signal once it writes its outputs: the staged release and
#: its first spool file (``.~tc…``) exist.  The signal and its handler are real; its moment is
#: fixed, so a loaded machine cannot move it before the writing (the folder probe) or after
#: the commit, and the case never needs a second try.
STOPPED_WHILE_WRITING = """
import os, sys
from engine.io import outputs
from engine.cli import main

scratch = outputs.Staging.scratch

def scratch_then_stopped(self, path):
    made = scratch(self, path)
    os.kill(os.getpid(), {signum})
    return made

outputs.Staging.scratch = scratch_then_stopped
sys.exit(main(sys.argv[1:]))
"""


def run_and_stop(args: list[str], env: dict[str, str], stop: int) -> tuple[int, str, str]:
    """Run ``tclose args`` and stop it with ``stop`` while it writes (exit 143 or 130)."""
    done = subprocess.run(
        [sys.executable, "-c", STOPPED_WHILE_WRITING.format(signum=int(stop)), *args],
        capture_output=True, text=True, encoding="utf-8", env=env, cwd=ROOT, timeout=300,
        check=False,
    )  # fmt: skip
    return done.returncode, done.stdout, done.stderr


def run_on_a_local_cluster(argv: list[str], env: dict[str, str], fault: str):
    """Run ``argv`` (a command that starts a local Dask cluster) in a session of its own and,
    once a worker is computing (connected to its scheduler, then busy for a moment), either
    kill that worker (Dask computes its part again) or interrupt the whole process group, as
    Ctrl+C in a terminal does."""
    import psutil

    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
        env=env, cwd=ROOT, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 300
        parent = psutil.Process(proc.pid)
        ready: dict[int, float] = {}  # worker pid -> its CPU seconds when it had connected
        delivered = False
        while proc.poll() is None and not delivered and time.monotonic() < deadline:
            for worker in _workers(parent):
                with contextlib.suppress(psutil.Error):
                    cpu = sum(worker.cpu_times()[:2])
                    if worker.pid not in ready and worker.net_connections(kind="tcp"):
                        ready[worker.pid] = cpu
                    elif worker.pid in ready and cpu - ready[worker.pid] > 0.3:
                        if fault == "kill-worker":
                            worker.kill()
                        else:
                            os.killpg(proc.pid, signal.SIGINT)
                        delivered = True
                        break
            time.sleep(0.02)
        out, err = proc.communicate(timeout=300)
        assert delivered, f"the run ended before a worker was busy, so nothing was tested: {err}"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    return proc.returncode, out, err


def _workers(parent) -> list:
    """The Dask worker processes (started by multiprocessing's spawn) under ``parent``."""
    import psutil

    try:
        children = parent.children(recursive=True)
    except psutil.Error:
        return []
    return [c for c in children if "spawn_main" in " ".join(_cmdline(c))]


def _cmdline(process) -> list[str]:
    import psutil

    try:
        return process.cmdline()
    except (psutil.Error, OSError):
        return []


def execute(
    case: Case, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, int, str, str]:
    """Make the case's input in ``folder`` and run it: (input, exit code, stdout, stderr)."""
    source = case.make(folder)
    args = case.args(folder, source)
    if case.run == "process":
        return (source, *run_process(args, case.fault, folder))
    emulate(case.fault, folder, monkeypatch)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(args)
        except SystemExit as stop:  # a flag argparse refuses: it exits, as the process would
            code = int(stop.code or 0)
    return source, code, out.getvalue(), err.getvalue()


def allowed_codes(case: Case) -> set[int]:
    """0, 2, 3; 4 from verify; 130 and 143 for a signal. Never 1."""
    codes = {0, 2, 3}
    if case.args(Path("."), Path("x"))[0] == "verify":
        codes.add(4)
    if case.fault.startswith(("signal:", "group-signal:")):
        codes |= {130, 143}
    return codes


def emulate(fault: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Faults a test cannot cause for real in a temporary folder."""
    kind, _, name = fault.partition(":")
    if kind == "memory":  # a computer with this many megabytes free
        from engine.io import files

        monkeypatch.setattr(files, "available_memory", lambda: int(name) << 20)
    elif kind == "locked":  # Windows refuses to rename over a file that Excel holds open
        real = os.replace

        def replace(src, dst):
            if Path(dst).name == name and Path(src).name.startswith(".~tc"):
                raise PermissionError(errno.EACCES, "Access is denied", str(dst))
            return real(src, dst)

        monkeypatch.setattr(outputs_module.os, "replace", replace)
    elif kind == "readonly":
        real_create = outputs_module._create_temp

        def create(where, made=None):
            if Path(where).name == name:
                raise PermissionError(errno.EACCES, "Permission denied", str(where))
            return real_create(where, made)

        monkeypatch.setattr(outputs_module, "_create_temp", create)


def _param(case: Case):
    """A case as a test: those that start a Dask cluster in a process of their own are slow."""
    marks = [pytest.mark.slow] if "cluster-process" in case.tags else []
    return pytest.param(case, marks=marks, id=case.name)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_hostile_case(case: Case, tmp_path, monkeypatch):
    folder = tmp_path / "work folder é"  # a space and an accent, as on users' machines
    folder.mkdir()
    made: dict[str, object] = {}
    real_make = case.make

    def make(where: Path) -> Path:  # remember the input and the folder as they were made
        source = real_make(where)
        made["digest"], made["before"] = sha256(source), snapshot(where)
        return source

    source, code, out, err = execute(dataclasses.replace(case, make=make), folder, monkeypatch)
    digest, before = made["digest"], made["before"]
    assert code == case.exit_code, err or out
    assert code in allowed_codes(case)
    assert "Traceback" not in err and "Exception ignored" not in err
    assert not LIBRARY_NOISE.search(err), err
    if code:
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith("tclose: ") and re.search(case.message, lines[0]), lines[0]
        assert ".~tc" not in lines[0]  # the target is named, never a temporary file
        assert snapshot(folder) == before, "a failed run changed or left files"
    else:
        assert re.search(case.message, out.splitlines()[0]), out
    assert {p.name for p in folder.iterdir()} == set(case.files)
    assert sha256(source) == digest


# -- what the successful cases wrote ------------------------------------------------------------


def released_records(out: str) -> int:
    return int(re.match(r"Released (\d+) records", out).group(1))


def run_case(name: str, tmp_path: Path, capsys) -> tuple[Path, str]:
    case = next(c for c in CASES if c.name == name)
    folder = tmp_path / "w"
    folder.mkdir()
    source = case.make(folder)
    assert main(case.args(folder, source)) == 0
    return folder, capsys.readouterr().out


@pytest.mark.parametrize(
    "name",
    [
        "corner-cell",
        "stray-far-below",
        "blank-rows-csv",
        "blank-rows-xlsx",
        "cr-only-line-ends",
        "cover-sheet-first",
        "footnotes-under-table",
    ],
)
def test_hostile_tables_release_exactly_their_records(name, tmp_path, capsys):
    _, out = run_case(name, tmp_path, capsys)
    assert released_records(out) == 120  # no blank record, no footnote, no cover line


def test_big_integers_are_exact_in_the_xlsx_release(tmp_path, capsys):
    folder, _ = run_case("int64-beyond-2^53-to-xlsx", tmp_path, capsys)
    book = openpyxl.load_workbook(folder / "out.xlsx")
    sheet = book["Release"]
    header = [c.value for c in sheet[1]]
    col = header.index("serial") + 1
    cells = [sheet.cell(r, col) for r in range(2, sheet.max_row + 1)]
    assert {c.data_type for c in cells} == {"s"}
    assert sorted(int(c.value) for c in cells) == [2**62 + 2 * i + 1 for i in range(120)]
    about = {r[0]: r[1] for r in book["About this release"].iter_rows(values_only=True) if r[0]}
    assert "as text" in about["export notes › column 'serial'"]


def test_a_replaced_release_and_sidecar_are_new_together(tmp_path, capsys):
    folder, _ = run_case("replace-old-release-and-sidecar", tmp_path, capsys)
    assert (folder / "out.csv").read_text(encoding="utf-8-sig").startswith("age,")
    assert '"software": "tclose' in (folder / "out.json").read_text(encoding="utf-8")


def test_the_summary_can_be_written_again_over_itself(tmp_path, capsys):
    folder = tmp_path / "w"
    folder.mkdir()
    source = plain(folder)
    args = ["anonymize", str(source), "-o", str(folder / "out.csv"), *RELEASE_ARGS]
    args += ["--summary", str(folder / "s.json")]
    assert main(args) == 0
    assert main(args) == 0, capsys.readouterr().err
    assert {p.name for p in folder.iterdir()} == {
        "in.csv",
        "out.csv",
        "out.json",
        "s.json",
    }
