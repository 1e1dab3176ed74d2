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


#: the run, with a ``kill`` of itself once it is inside the workbook writer: the staged
#: workbook and the first sheet's spool file (``.~tc…`` beside the target) both exist.  The
#: signal is real and so is its handler; only its moment is fixed, so the test never races
#: a loaded machine (the run could otherwise be stopped before writing or after committing).
KILLED_WHILE_WRITING = """
import os, signal, sys
from engine.io import outputs
from engine.cli import main

scratch = outputs.Staging.scratch

def scratch_then_stopped(self, path):
    made = scratch(self, path)
    os.kill(os.getpid(), signal.SIGTERM)
    return made

outputs.Staging.scratch = scratch_then_stopped
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="os.kill(SIGTERM) ends a Windows process")
def test_sigterm_while_writing_xlsx_leaves_nothing(tmp_path: Path) -> None:
    data = write_survey(tmp_path / "données" / "survey.csv", n=3_000)
    out_dir = tmp_path / "sortie publiée"
    out_dir.mkdir()
    temp = tmp_path / "system temp"  # the run's TMPDIR: openpyxl would spool the sheet there
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp), "TEMP": str(temp), "TMP": str(temp)}
    env.pop("TCLOSE_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-c", KILLED_WHILE_WRITING, "anonymize", str(data), "-o",
         str(out_dir / "release.xlsx"), "--qi", "sex", "--confidential", "income",
         "--t", "3", "--k", "5"],
        capture_output=True, text=True, encoding="utf-8", env=env, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 143, done.stderr
    assert done.stderr.strip() == "tclose: terminated; nothing was written.", done.stderr
    assert done.stdout == ""
    assert list(out_dir.iterdir()) == []  # no release, no staged or spooled file
    assert list(temp.iterdir()) == []  # nothing in the system temp folder either
    assert [p.name for p in data.parent.iterdir()] == ["survey.csv"]


def _stop_at(step: str, monkeypatch: pytest.MonkeyPatch, out: Path) -> list[str]:
    """Make the run send itself SIGTERM at ``step`` of writing ``out``; returns the record
    of the files beside ``out`` at that moment (filled when it comes)."""
    import openpyxl.writer.excel

    from engine.io import outputs

    seen: list[str] = []

    def stop() -> None:
        if not seen:
            seen.extend(sorted(p.name for p in out.parent.iterdir()))
            os.kill(os.getpid(), signal.SIGTERM)

    if step == "probe":  # the folder probe's file made, not yet removed
        real_create = outputs._create_temp

        def create(folder, created=None):
            made = real_create(folder, created)
            stop()
            return made

        monkeypatch.setattr(outputs, "_create_temp", create)
    elif step == "zip":  # the sheets being packed into the staged workbook
        real_data = openpyxl.writer.excel.ExcelWriter.write_data

        def write_data(self):
            self._archive.writestr("partial.xml", "<x/>")
            stop()
            return real_data(self)

        monkeypatch.setattr(openpyxl.writer.excel.ExcelWriter, "write_data", write_data)
    elif step in ("replaced", "cleanup"):  # the workbook renamed onto its target; the end
        real_replace, real_unlink = os.replace, Path.unlink

        def replace(src, dst, **kwargs):
            real_replace(src, dst, **kwargs)
            if step == "replaced" and Path(dst) == out:
                stop()

        def unlink(self, missing_ok=False):
            if step == "cleanup" and len(list(out.parent.glob(".~tc*"))) == 3:
                stop()  # the staged file and two spool files are being removed
            return real_unlink(self, missing_ok=missing_ok)

        monkeypatch.setattr(outputs.os, "replace", replace)
        monkeypatch.setattr(Path, "unlink", unlink)
    return seen


@pytest.mark.parametrize("step", ["probe", "zip", "replaced"])
def test_sigterm_at_any_step_of_an_xlsx_commit_leaves_nothing(
    step: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A stop between a file's creation or rename and its record (the window that left a
    staged or committed file now and then) waits for the record: nothing stays."""
    data = write_survey(tmp_path / "in" / "survey.csv")
    out = tmp_path / "out" / "release.xlsx"
    out.parent.mkdir()
    seen = _stop_at(step, monkeypatch, out)
    assert main(["anonymize", str(data), "-o", str(out), *RELEASE_ARGS]) == 143
    monkeypatch.undo()
    assert seen, "the step was never reached"
    assert capsys.readouterr().err == "tclose: terminated; nothing was written.\n"
    assert list(out.parent.iterdir()) == []
    assert [p.name for p in data.parent.iterdir()] == ["survey.csv"]


def test_sigterm_during_the_clean_up_after_a_failure_removes_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clean-up is not cut by a stop either: every staged and spooled file goes."""
    from engine.io.outputs import Output, write_outputs

    out = tmp_path / "release.xlsx"
    seen = _stop_at("cleanup", monkeypatch, out)
    with (
        pytest.raises(console.Terminated),
        console.sigterm_as_interrupt(),
        write_outputs([Output(out, "the release")]) as stage,
    ):
        stage.temp(out).write_bytes(b"partial")
        stage.scratch(out).write_bytes(b"spool")
        stage.scratch(out).write_bytes(b"spool")
        raise ValueError("a failure while writing")
    monkeypatch.undo()
    assert len(seen) == 3
    assert list(tmp_path.iterdir()) == []


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
    from engine.project import new_project, save_project

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
    args = parser.parse_args(
        ["anonymize", "in.csv", "-o", "out.csv", "--qi", "a", "--k", "5", "-q"]
    )
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
    import engine.release

    real = engine.release.anonymize

    def noisy(*args, **kwargs):
        with np.errstate(divide="warn"):
            np.log(np.zeros(1))  # RuntimeWarning: divide by zero encountered in log
        warnings.warn("Workbook contains no default style", UserWarning, stacklevel=1)
        return real(*args, **kwargs)

    monkeypatch.setattr(engine.release, "anonymize", noisy)


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
