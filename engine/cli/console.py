"""The console around the command line: safe text streams, SIGTERM, warnings, a progress bar.

Text streams: :mod:`engine.streams` (re-exported here for the commands).

Signals.  SIGTERM (what ``kill``, a scheduler or a service manager sends) unwinds like
Ctrl+C, so every temporary file is removed; the exit code is 143 (128 + 15), as a shell
reports a process ended by SIGTERM.  Ctrl+Break in a Windows console (SIGBREAK) does the
same.  A second signal ends the process at once.

Warnings.  numpy, pandas and matplotlib warn in developers' terms, with source paths
("anonymize.py:86: RuntimeWarning: overflow encountered …"); what a user must know the
engine reports itself (``release.warnings``).  The command line shows Python warnings only
with ``TCLOSE_DEBUG`` set.

Progress.  A run that takes more than a few seconds draws one line on stderr --
``[#######-------]  48%  Forming buckets  0:07`` -- when stderr is a terminal and ``-q`` was
not given; the line is erased when the work is done, so nothing of it stays in the
terminal's scrollback or reaches a redirected file.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from typing import TextIO

# --- signals ------------------------------------------------------------------------------


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived; unwinds like Ctrl+C so that every temporary file is removed."""

    exit_code = 143


#: the signals that stop a command like Ctrl+C: SIGTERM, and Ctrl+Break on Windows
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGBREAK") if hasattr(signal, name)
)


def _raise_terminated(signum: int, frame: object) -> None:
    signal.signal(signum, signal.SIG_DFL)  # a second signal ends the process at once
    raise Terminated()


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM (and Windows' Ctrl+Break) raise :class:`Terminated`.

    Only the main thread can set signal handlers; elsewhere the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, _raise_terminated) for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


# --- warnings -----------------------------------------------------------------------------


@contextlib.contextmanager
def library_warnings_hidden() -> Iterator[None]:
    """Within the block, Python warnings are not shown unless ``TCLOSE_DEBUG`` is set."""
    with warnings.catch_warnings():
        if not os.environ.get("TCLOSE_DEBUG"):
            warnings.simplefilter("ignore")
        yield


# --- progress -----------------------------------------------------------------------------

#: seconds of work before the bar appears (short runs print nothing)
PROGRESS_DELAY = 2.0
#: seconds between two redraws
PROGRESS_INTERVAL = 0.1
#: characters of the bar itself
BAR_WIDTH = 24


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class ProgressBar:
    """A progress function (``progress(fraction, message)``) that draws one line on a terminal.

    The engine reports each step of a command (reading, anonymizing, writing) from 0 to 1;
    the bar shows the step's fraction and message and the time since the command started,
    and erases itself when a step reaches 1, before the command prints its result.
    """

    def __init__(self, stream: TextIO, delay: float | None = None) -> None:
        self.stream = stream
        self.delay = PROGRESS_DELAY if delay is None else delay
        self.started = time.monotonic()
        self._drawn = 0  # characters on the line now
        self._last_draw = 0.0
        self._last_message = ""

    def __call__(self, fraction: float, message: str) -> None:
        now = time.monotonic()
        if fraction >= 1.0:
            self.close()
            return
        if now - self.started < self.delay:
            return
        if message == self._last_message and now - self._last_draw < PROGRESS_INTERVAL:
            return
        self._last_draw, self._last_message = now, message
        self._draw(self.line(fraction, message, now - self.started))

    def line(self, fraction: float, message: str, elapsed: float) -> str:
        """The text of the bar, cut to the terminal's width."""
        fraction = min(max(fraction, 0.0), 1.0)
        filled = round(fraction * BAR_WIDTH)
        text = (
            f"[{'#' * filled}{'-' * (BAR_WIDTH - filled)}] {fraction:4.0%}  "
            f"{message}  {_clock(elapsed)}"
        )
        width = shutil.get_terminal_size((80, 24)).columns - 1
        return text[: max(width, 10)]

    def _draw(self, text: str) -> None:
        pad = max(self._drawn - len(text), 0)
        self._write("\r" + text + " " * pad)
        self._drawn = len(text)

    def close(self) -> None:
        """Erase the line (if anything was drawn)."""
        if self._drawn:
            self._write("\r" + " " * self._drawn + "\r")
            self._drawn = 0
        self._last_message = ""

    def _write(self, text: str) -> None:
        with contextlib.suppress(OSError, ValueError):  # the terminal has gone: no progress
            self.stream.write(text)
            self.stream.flush()


def progress_bar(quiet: bool = False) -> ProgressBar | None:
    """The command's progress bar on stderr, or None with ``-q`` or when stderr is no terminal."""
    stream = sys.stderr
    if quiet or stream is None:
        return None
    try:
        interactive = stream.isatty()
    except (AttributeError, ValueError, OSError):
        interactive = False
    return ProgressBar(stream) if interactive else None
