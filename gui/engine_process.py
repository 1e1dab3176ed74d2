"""Run engine calls in a separate process, so that the window never waits for them.

A worker *thread* shares Python's global interpreter lock with the GUI thread: a single long
numpy or file-reader call that keeps the lock (a sort of 200,000 QI rows, say) freezes the
window for its whole duration.  The wizard's task threads therefore hand the heavy calls
(reading a file, computing a release and its figures) to one long-lived helper process and
only wait for its answers, which needs no lock.  The helper is started once, in the
background, when the app starts, so that its imports are done before the first call.

The protocol is plain: the thread sends ``(function, args, kwargs)``; the helper calls
``function(*args, **kwargs, task=...)`` and sends back progress messages (at most about ten
a second), then the result or the exception.  The task is built in the helper (callables
cannot cross the process boundary): Cancel sets a shared event that its ``cancel()`` reads;
a helper that has not stopped a short moment later (busy inside one long call) is killed
and restarted, so Cancel always takes effect within a second.  This module imports no Qt:
the helper process never loads it.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing as mp
import threading
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

import pandas as pd

from engine import CancelledError, Task
from engine.i18n import language, use_language
from engine.progress import NO_TASK

log = logging.getLogger(__name__)

#: seconds between two progress messages from the helper
PROGRESS_INTERVAL = 0.1
#: seconds the helper gets to stop by itself after Cancel before it is killed
CANCEL_GRACE = 0.6


class _LastFrame:
    """Stands for the table sent with the previous call (tables are sent once, not per run)."""


class Stream:
    """A callback argument of an engine call that is called as the work goes on (a sweep's
    points, each as it is done): from the helper process its calls come back as messages,
    and ``callback(payload)`` runs on the calling thread while the call still runs."""

    def __init__(self, callback: Callable[[Any], None]) -> None:
        self.callback = callback

    def __call__(self, payload: Any) -> None:
        self.callback(payload)


class _StreamSlot:
    """Stands for a :class:`Stream` argument on its way to the helper (by its name)."""

    def __init__(self, name: str) -> None:
        self.name = name


def _find_frame(obj: Any, depth: int = 2) -> pd.DataFrame | None:
    """The table a result carries (a DataFrame, or one in ``.data`` or a tuple), if any.

    Both sides apply the same search to a result, so a table the helper *read* stays there
    and is never sent back to it.
    """
    if isinstance(obj, pd.DataFrame):
        return obj
    if depth <= 0:
        return None
    if isinstance(obj, tuple):
        for item in obj:
            found = _find_frame(item, depth - 1)
            if found is not None:
                return found
        return None
    data = getattr(obj, "data", None)
    return data if isinstance(data, pd.DataFrame) and type(obj).__name__ == "ImportResult" else None


class EngineProcessError(RuntimeError):
    """The helper process died while working (never retried in the app's own process)."""


class EngineStartError(EngineProcessError):
    """The helper process could not start (the call then runs in the calling thread)."""


def _serve(conn: Connection, cancel_event: Any) -> None:
    """The helper's loop: one call at a time, answers on ``conn``.

    It imports the engine first (so the first call does not pay for it) and says "ready":
    a helper that dies before that could not start here and the caller may run the work
    itself; one that dies later died of the work, which must not be retried in the app.
    """
    from engine import anonymize  # noqa: F401  (loads the engine now)

    conn.send(("ready", None))

    last = [0.0]
    kept: list[Any] = [None]  # the last table received

    def progress(fraction: float, message: str) -> None:
        now = time.monotonic()
        if fraction >= 1.0 or now - last[0] >= PROGRESS_INTERVAL:
            last[0] = now
            conn.send(("progress", (float(fraction), str(message))))

    task = Task(progress, cancel_event.is_set)

    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        fn, args, kwargs, lang = request
        args = tuple(kept[0] if isinstance(a, _LastFrame) else a for a in args)
        kwargs = {
            name: _sender(conn, value.name) if isinstance(value, _StreamSlot) else value
            for name, value in kwargs.items()
        }
        for a in args:
            if isinstance(a, pd.DataFrame):
                kept[0] = a
        try:
            with use_language(lang):  # the engine speaks the caller's language
                result = fn(*args, **kwargs, task=task)
        except BaseException as err:  # everything goes back to the caller
            detail = traceback.format_exc()
            try:
                conn.send(("error", (err, detail)))
            except Exception:  # the exception itself cannot be pickled
                conn.send(("error", (RuntimeError(f"{type(err).__name__}: {err}"), detail)))
        else:
            found = _find_frame(result)
            if found is not None:
                kept[0] = found
            try:
                conn.send(("result", result))
            except Exception as err:
                detail = traceback.format_exc()
                conn.send(("error", (RuntimeError(f"cannot return the result: {err}"), detail)))


def _sender(conn: Connection, name: str) -> Callable[[Any], None]:
    """What the helper gives a function for a :class:`Stream` argument: each call is sent."""

    def send(payload: Any) -> None:
        conn.send(("partial", (name, payload)))

    return send


class EngineProcess:
    """One helper process; :meth:`call` is used from one task thread at a time."""

    def __init__(self) -> None:
        self._ctx = mp.get_context("spawn")
        self._lock = threading.Lock()
        self._proc: Any = None
        self._conn: Connection | None = None
        self._cancel: Any = None
        #: True once a helper said it is ready (it can start in this installation)
        self.served = False
        #: set when the helper cannot work here; every call then runs in the caller's process
        self.disabled = False
        #: the table the helper holds (sent with an earlier call)
        self._last_frame: pd.DataFrame | None = None

    def start(self) -> None:
        """Start the helper now (in the background) if it is not running."""
        with self._lock:
            self._ensure_started()

    def _ensure_started(self) -> None:
        if self._proc is not None and self._proc.is_alive():
            return
        parent, child = self._ctx.Pipe()
        self._cancel = self._ctx.Event()
        proc = self._ctx.Process(
            target=_serve, args=(child, self._cancel), name="tclose-engine", daemon=True
        )
        proc.start()
        child.close()
        self._proc, self._conn = proc, parent

    def _kill(self) -> None:
        self._last_frame = None
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        if conn is not None:
            conn.close()
        if proc is not None and proc.is_alive():
            proc.kill()
            proc.join(2)

    def call(self, fn: Callable[..., Any], *args: Any, task: Task = NO_TASK, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs, task=)`` in the helper; blocks until it ends.

        ``task`` stays here: the helper's progress messages are reported to it, and its
        cancel is polled.  Raises what ``fn`` raised (with the helper's traceback as
        ``__notes__``), or CancelledError when the task was cancelled.
        """
        while not self._lock.acquire(timeout=0.05):  # another call runs: wait, or give up
            if task.cancelled():
                raise CancelledError()
        try:
            return self._call_locked(fn, args, kwargs, task)
        finally:
            self._lock.release()

    def _call_locked(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        task: Task,
    ) -> Any:
        try:
            self._ensure_started()
            assert self._conn is not None
            self._cancel.clear()
            frames = [a for a in args if isinstance(a, pd.DataFrame)]
            sent = tuple(
                _LastFrame() if a is self._last_frame and a is not None else a for a in args
            )
            streams = {k: v for k, v in kwargs.items() if isinstance(v, Stream)}
            sent_kwargs = {k: _StreamSlot(k) if k in streams else v for k, v in kwargs.items()}
            self._conn.send((fn, sent, sent_kwargs, language()))
            if frames:
                self._last_frame = frames[-1]
        except Exception as err:
            self._kill()
            raise EngineStartError(f"the engine process could not start: {err}") from err
        cancelled_at: float | None = None
        conn = self._conn
        while True:
            if cancelled_at is None and task.cancelled():
                self._cancel.set()
                cancelled_at = time.monotonic()
            if cancelled_at is not None and time.monotonic() - cancelled_at > CANCEL_GRACE:
                self._kill()  # busy in one long call: stop it the hard way
                raise CancelledError()
            try:
                ready = conn.poll(0.05)
                message = conn.recv() if ready else None
            except (EOFError, OSError) as err:
                self._kill()
                if cancelled_at is not None:
                    raise CancelledError() from err
                raise self._died() from err
            if message is None:
                if not self._proc.is_alive():
                    self._kill()
                    raise self._died()
                continue
            kind, payload = message
            if kind == "ready":
                self.served = True
            elif kind == "progress":
                if cancelled_at is None:
                    task.report(*payload)
            elif kind == "partial":
                name, part = payload
                if cancelled_at is None:
                    streams[name](part)
            elif kind == "result":
                found = _find_frame(payload)
                if found is not None:
                    self._last_frame = found
                return payload
            else:
                err, detail = payload
                if isinstance(err, CancelledError):
                    raise err
                if isinstance(err, BaseException):
                    err.add_note(f"In the engine process:\n{detail}")
                    raise err
                raise EngineProcessError(str(err))

    def _died(self) -> EngineProcessError:
        """The error for a helper that ended: a start failure if it never said it was ready."""
        if not self.served:
            return EngineStartError("the engine process ended before it could answer")
        return EngineProcessError("the engine process stopped unexpectedly")

    def stop(self) -> None:
        with self._lock:
            conn = self._conn
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.send(None)
            proc = self._proc
            if proc is not None:
                proc.join(1)
            self._kill()


_shared: EngineProcess | None = None


def shared_engine() -> EngineProcess:
    """The app's helper process (created on first use, stopped at exit)."""
    global _shared
    if _shared is None:
        _shared = EngineProcess()
        atexit.register(_shared.stop)
    return _shared


def run_engine(fn: Callable[..., Any], *args: Any, task: Task = NO_TASK, **kwargs: Any) -> Any:
    """Call ``fn`` in the helper process, or here when no helper can run.

    ``TCLOSE_ENGINE_PROCESS=0`` in the environment runs every call here (for debugging).
    """
    import os

    engine = shared_engine()
    if os.environ.get("TCLOSE_ENGINE_PROCESS", "1") != "0" and not engine.disabled:
        try:
            return engine.call(fn, *args, task=task, **kwargs)
        except EngineStartError:
            log.exception("no engine process; the engine runs in the app's own process")
            engine.disabled = True
    return fn(*args, **kwargs, task=task)
