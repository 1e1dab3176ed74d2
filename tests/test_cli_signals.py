"""The command line around the engine: signals, the progress bar, warnings, text streams.

* SIGTERM (``kill``, a scheduler, a service manager) stops a run like Ctrl+C: exit 143,
  no staged file beside the target, nothing left in the system temp folder.
* A progress bar on stderr for long runs on a terminal; nothing with ``-q`` or when stderr
  is a file or a pipe.
* numpy's and matplotlib's warnings (with source paths) stay off stderr.
* Any text can be printed on a console whose code page lacks ε, ≥ or ∞.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

from engine import streams
from engine.cli import console, main
from tests.test_platform import write_survey

RELEASE_ARGS = ["--qi", "age,sex,region", "--confidential", "income", "--t", "2", "--k", "5"]


class FakeTerminal(io.StringIO):
    """A stderr that says it is a terminal (as a console window or xterm does)."""

    encoding = "utf-8"

    def isatty(self) -> bool:
        return True


# --- SIGTERM ------------------------------------------------------------------------------


def _stop_signal() -> tuple[int, int]:
    """The signal to send, and the Popen flags it needs: SIGTERM, or Ctrl+Break on Windows."""
    if sys.platform == "win32":
        return signal.CTRL_BREAK_EVENT, subprocess.CREATE_NEW_PROCESS_GROUP
    return signal.SIGTERM, 0


def _wait_until_writing(proc: subprocess.Popen, out_dir: Path, temp: Path) -> list[Path]:
    """Poll until the run is writing the workbook; returns its temporary files.

    Writing has begun when the release's staged file and the sheet's spool file (both
    ``.~tc…`` beside the target, never in the system temp folder) exist: the run is then
    inside the writer, whose clean-up is what this test checks.
    """
    deadline = time.monotonic() + 600  # a hung run fails the test instead of hanging CI
    while time.monotonic() < deadline:
        staged = list(out_dir.glob(".~tc*"))
        if len(staged) >= 2:
            return staged
        if proc.poll() is not None:
            pytest.fail(f"the run ended (exit {proc.returncode}) before it started writing")
        time.sleep(0.002)
    proc.kill()
    pytest.fail("the run did not start writing")


def test_sigterm_while_writing_xlsx_leaves_nothing(tmp_path: Path) -> None:
    data = write_survey(tmp_path / "données" / "survey.csv", n=15_000)
    out_dir = tmp_path / "sortie publiée"
    out_dir.mkdir()
    temp = tmp_path / "system temp"  # the run's TMPDIR: openpyxl spools the sheet there
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp), "TEMP": str(temp), "TMP": str(temp)}
    env.pop("TCLOSE_DEBUG", None)
    stop, flags = _stop_signal()
    proc = subprocess.Popen(
        [sys.executable, "-m", "engine", "anonymize", str(data), "-o",
         str(out_dir / "release.xlsx"), "--qi", "sex", "--confidential", "income",
         "--t", "3", "--k", "5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        creationflags=flags,
    )  # fmt: skip
    try:
        parts = _wait_until_writing(proc, out_dir, temp)
        proc.send_signal(stop)
        out, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert all(p.name.startswith(".~tc") for p in parts)
    assert proc.returncode == 143, err
    assert err.strip() == "tclose: terminated; nothing was written.", err
    assert out == ""
    assert list(out_dir.iterdir()) == []  # no release, no staged or spooled file
    assert list(temp.iterdir()) == []  # nothing in the system temp folder either
    assert [p.name for p in data.parent.iterdir()] == ["survey.csv"]


class KillSelfOnFirstStep:
    """A progress bar whose first step sends this process SIGTERM, as ``kill`` would."""

    def __call__(self, fraction: float, message: str) -> None:
        if fraction > 0:
            os.kill(os.getpid(), signal.SIGTERM)

    def close(self) -> None:
        pass


def test_sigterm_while_computing_exits_143(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_survey(tmp_path / "survey.csv")
    monkeypatch.setattr(console, "progress_bar", lambda quiet=False: KillSelfOnFirstStep())
    before = signal.getsignal(signal.SIGTERM)
    assert main(["anonymize", str(data), "-o", str(tmp_path / "out.csv"), *RELEASE_ARGS]) == 143
    assert capsys.readouterr().err == "tclose: terminated; nothing was written.\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["survey.csv"]
    assert signal.getsignal(signal.SIGTERM) is before  # the handler is the caller's again


def test_sigterm_while_writing_csv_removes_both_temporary_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CSV is complete in its staged file, the sidecar not yet: nothing stays."""
    import engine.io.write

    data = write_survey(tmp_path / "survey.csv")
    real_write_csv = engine.io.write._write_csv
    seen: list[list[str]] = []

    def write_then_get_killed(*args, **kwargs):
        real_write_csv(*args, **kwargs)
        seen.append(sorted(p.name for p in tmp_path.glob(".~tc*")))
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(engine.io.write, "_write_csv", write_then_get_killed)
    # the pandas writer, not pyarrow's (engine.io.csvfast), is the one patched to be killed
    monkeypatch.setattr(engine.io.write, "write_csv", lambda *args, **kwargs: False)
    assert main(["anonymize", str(data), "-o", str(tmp_path / "out.csv"), *RELEASE_ARGS]) == 143
    assert seen[0]  # the release's staged file existed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["survey.csv"]
    assert "terminated" in capsys.readouterr().err


# --- the progress bar ---------------------------------------------------------------------


def on_terminal(monkeypatch: pytest.MonkeyPatch) -> FakeTerminal:
    """From here on stderr is a terminal, and the bar shows at once (no run here is long).

    Called in the test itself: pytest puts its own stderr back when the test starts.
    """
    fake = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", fake)
    monkeypatch.setattr(console, "PROGRESS_DELAY", 0.0)
    monkeypatch.setenv("COLUMNS", "120")
    return fake


def test_progress_bar_on_a_terminal_is_erased_when_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal = on_terminal(monkeypatch)
    data = write_survey(tmp_path / "survey.csv")
    assert main(["anonymize", str(data), "-o", str(tmp_path / "out.csv"), *RELEASE_ARGS]) == 0
    drawn = terminal.getvalue()
    assert "\r[" in drawn and "%  Forming buckets  0:0" in drawn
    # the last thing written erases the line, so the result starts on a clean line
    last = drawn.rsplit("\r[", 1)[1].split("warning: ", 1)[0]  # warnings follow the bar
    assert last.endswith("\r") and last.rstrip("\r").endswith(" " * 20)
    assert capsys.readouterr().out.startswith("Released 300 records")


def test_no_progress_bar_with_quiet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = on_terminal(monkeypatch)
    data = write_survey(tmp_path / "survey.csv")
    args = ["anonymize", str(data), "-o", str(tmp_path / "out.csv"), *RELEASE_ARGS, "-q"]
    assert main(args) == 0
    assert "\r" not in terminal.getvalue()


def test_no_progress_bar_when_stderr_is_not_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = io.StringIO()  # a file or a pipe: isatty() is False
    monkeypatch.setattr(sys, "stderr", log)
    monkeypatch.setattr(console, "PROGRESS_DELAY", 0.0)
    data = write_survey(tmp_path / "survey.csv")
    assert main(["anonymize", str(data), "-o", str(tmp_path / "out.csv"), *RELEASE_ARGS]) == 0
    assert "\r" not in log.getvalue()


def test_run_quiet_prints_nothing_on_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal = on_terminal(monkeypatch)
    from engine.params import ReleaseParams
    from engine.report.project import new_project, save_project

    data = write_survey(tmp_path / "survey.csv")
    params = ReleaseParams(qi=("age", "sex"), confidential=("income",), k=5, t=2.0, seed=4)
    project = save_project(
        new_project(data, params, output=tmp_path / "out.csv"), tmp_path / "p.json"
    )
    assert main(["run", str(project), "-q"]) == 0
    assert terminal.getvalue() == ""
    assert capsys.readouterr().out.startswith("Wrote ")
    # without -q: the bar while it works, then the verification's verdict
    assert main(["run", str(project)]) == 0
    assert "\r[" in terminal.getvalue() and "verified" in terminal.getvalue().lower()


def test_every_command_takes_quiet() -> None:
    from engine.cli import build_parser

    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    for name, command in sub.choices.items():
        assert {"-q", "--quiet"} <= set(command._option_string_actions), name
    args = parser.parse_args(["anonymize", "in.csv", "-o", "out.csv", "--k", "5", "-q"])
    assert args.quiet is True


def test_bar_waits_throttles_and_fits_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    screen = FakeTerminal()
    patient = console.ProgressBar(screen, delay=3600)
    patient(0.5, "Forming buckets")
    assert screen.getvalue() == ""  # a short run shows nothing
    bar = console.ProgressBar(screen, delay=0)
    bar(0.5, "Forming buckets")
    bar(0.6, "Forming buckets")  # within the redraw interval: not drawn
    lines = screen.getvalue().split("\r")[1:]
    assert len(lines) == 1 and len(lines[0]) == 39  # cut to the terminal's width
    assert lines[0].startswith("[" + "#" * 12 + "-" * 12 + "]  50%")
    bar(1.0, "Done")
    assert screen.getvalue().endswith("\r" + " " * 39 + "\r")


# --- warnings -----------------------------------------------------------------------------


def _noisy_anonymize(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.release.anonymize

    real = engine.release.anonymize.anonymize

    def noisy(*args, **kwargs):
        with np.errstate(divide="warn"):
            np.log(np.zeros(1))  # RuntimeWarning: divide by zero encountered in log
        warnings.warn("Workbook contains no default style", UserWarning, stacklevel=1)
        return real(*args, **kwargs)

    monkeypatch.setattr(engine.release.anonymize, "anonymize", noisy)


def test_library_warnings_stay_off_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TCLOSE_DEBUG", raising=False)
    _noisy_anonymize(monkeypatch)
    data = write_survey(tmp_path / "survey.csv")
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        assert main(["anonymize", str(data), "-o", str(tmp_path / "o.csv"), *RELEASE_ARGS]) == 0
    assert shown == []
    assert "Warning" not in capsys.readouterr().err


def test_library_warnings_show_with_tclose_debug(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TCLOSE_DEBUG", "1")
    _noisy_anonymize(monkeypatch)
    data = write_survey(tmp_path / "survey.csv")
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        assert main(["anonymize", str(data), "-o", str(tmp_path / "o.csv"), *RELEASE_ARGS]) == 0
    assert {RuntimeWarning, UserWarning} <= {w.category for w in shown}


# --- text streams -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("encoding", "expected"),
    [
        ("cp1252", "t = exp(eps/2) >= 1, k <= inf … Zoë".encode("cp1252")),  # … ë in cp1252
        ("ascii", b"t = exp(eps/2) >= 1, k <= inf ... Zoe"),
        ("utf-8", "t = exp(ε/2) ≥ 1, k ≤ ∞ … Zoë".encode()),
    ],
)
def test_streams_write_any_text_in_their_encoding(
    encoding: str, expected: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding=encoding, write_through=True)
    monkeypatch.setattr(sys, "stdout", stream)
    streams.make_streams_safe()
    print("t = exp(ε/2) ≥ 1, k ≤ ∞ … Zoë", end="")
    assert raw.getvalue() == expected


def test_streams_without_reconfigure_are_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdout", None)  # a windowed program on Windows has none
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    streams.make_streams_safe()
    assert sys.stdout is None
