"""Long work off the GUI thread: a job object on a ``QThread`` that talks back by signals.

The engine knows nothing of Qt: its long functions take an :class:`engine.Task` holding plain
``progress(fraction, message)`` and ``cancel() -> bool`` callables.  :class:`Job` wraps a
unit of work, runs it on a worker thread, and hands it an engine task whose callables are
throttled signals (about ten progress updates a second, so that a tight engine loop cannot
flood the GUI's event queue) and a thread-safe cancel flag.
The pattern follows Orange3's ``concurrent.py``: results and errors come back only through
queued signals, so no widget is ever touched from the worker thread.
"""

from __future__ import annotations

import logging
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

from engine import CancelledError, Task
from engine.i18n import language, use_language

log = logging.getLogger(__name__)

#: a unit of long work: ``fn(task) -> result``, ``task`` the :class:`engine.Task` to pass on
Work = Callable[[Task], Any]

#: minimum seconds between two progress signals (≈ ten updates a second)
PROGRESS_INTERVAL = 0.1


class Job(QObject):
    """One call of ``work(task)`` on a worker thread.

    Exactly one of :attr:`finished`, :attr:`failed` or :attr:`cancelled` is emitted at the end,
    followed by :attr:`done`.  ``failed`` carries the exception and its formatted traceback.
    """

    progress = Signal(float, str)
    finished = Signal(object)
    failed = Signal(object, str)
    cancelled = Signal()
    done = Signal()

    def __init__(self, work: Work, name: str = "") -> None:
        super().__init__()
        self._work = work
        self.name = name
        self._cancel = threading.Event()
        self._last_emit = 0.0
        self._language = language()  # the engine speaks the app's language on the worker too

    # --- called from the worker thread -------------------------------------------------
    def _report(self, fraction: float, message: str) -> None:
        now = time.monotonic()
        if fraction >= 1.0 or now - self._last_emit >= PROGRESS_INTERVAL:
            self._last_emit = now
            self.progress.emit(float(fraction), str(message))

    @Slot()
    def run(self) -> None:
        try:
            with use_language(self._language):
                result = self._work(Task(self._report, self._cancel.is_set))
        except CancelledError:
            self.cancelled.emit()
        except BaseException as err:  # everything goes back to the GUI thread
            if self._cancel.is_set():
                self.cancelled.emit()
            else:
                self.failed.emit(err, traceback.format_exc())
        else:
            if self._cancel.is_set():
                self.cancelled.emit()
            else:
                self.finished.emit(result)
        self.done.emit()
        # the thread ends by itself once the work is done: a runner shutting down (the window
        # closes) can then wait for it without the GUI thread's event loop
        thread = QThread.currentThread()
        if thread is not None:
            thread.quit()

    # --- called from any thread ----------------------------------------------------------
    def cancel(self) -> None:
        """Ask the work to stop at its next checkpoint (the engine raises CancelledError)."""
        self._cancel.set()

    @property
    def is_cancelled(self) -> bool:
        return self._cancel.is_set()


class TaskRunner(QObject):
    """Runs one :class:`Job` at a time on its own thread and reports on the GUI thread.

    ``busy_changed(True)`` is emitted at start; ``show_progress`` only when the task is still
    running after :attr:`delay_ms` (half a second), so quick jobs never flash a progress bar.
    """

    busy_changed = Signal(bool)
    show_progress = Signal(str)
    progress = Signal(float, str)

    def __init__(self, parent: QObject | None = None, delay_ms: int = 500) -> None:
        super().__init__(parent)
        self.delay_ms = delay_ms
        self._thread: QThread | None = None
        self._job: Job | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._reveal)
        self._title = ""
        self._callbacks: tuple[Any, Any, Any] = (None, None, None)
        self._outcome: tuple[int, tuple[Any, ...]] = (2, ())
        #: set by :meth:`shutdown`: no new task starts, no callback runs
        self._closed = False
        #: the task asked for while another ran: it starts once that one has stopped
        self._next: tuple[Work, str, tuple[Any, Any, Any]] | None = None

    @property
    def busy(self) -> bool:
        return self._job is not None

    @property
    def job(self) -> Job | None:
        return self._job

    def start(
        self,
        work: Work,
        *,
        title: str,
        on_finished: Callable[[Any], None] | None = None,
        on_failed: Callable[[BaseException, str], None] | None = None,
        on_cancelled: Callable[[], None] | None = None,
    ) -> Job | None:
        """Start ``work`` on a fresh thread; the callbacks run on the GUI thread.

        A task already running is cancelled and ``work`` starts as soon as it has stopped
        (Orange3's ``ConcurrentMixin.start``): the latest request wins, and the superseded
        task's callbacks are not called (its result, if any, is of settings no longer
        wanted).  Returns the job when it starts now; None when it waits for the running
        one to stop, or when the runner is shut down.
        """
        if self._closed:
            return None
        request = (work, title, (on_finished, on_failed, on_cancelled))
        if self._job is not None:
            self._job.cancel()
            self._next = request  # a request waiting before it is replaced too
            return None
        return self._start_now(*request)

    def _start_now(self, work: Work, title: str, callbacks: tuple[Any, Any, Any]) -> Job:
        job = Job(work, title)
        thread = QThread()
        thread.setObjectName(f"tclose-worker:{title}")
        job.moveToThread(thread)
        thread.started.connect(job.run)
        # Connect to this object's slots (it lives on the GUI thread), never to bare callables:
        # PySide6 would call a bare callable directly on the emitting worker thread.
        job.progress.connect(self._on_progress)
        job.finished.connect(self._on_finished)
        job.failed.connect(self._on_failed)
        job.cancelled.connect(self._on_cancelled)
        job.done.connect(self._on_done)
        self._callbacks = callbacks
        self._job, self._thread, self._title = job, thread, title
        self.busy_changed.emit(True)
        self._timer.start(self.delay_ms)
        thread.start()
        return job

    def cancel(self) -> None:
        """Stop the running task, and forget one waiting to start."""
        self._next = None
        if self._job is not None:
            self._job.cancel()

    def shutdown(self, timeout_ms: int = 10_000) -> bool:
        """Stop for good (the window closes): cancel, wait, and start nothing afterwards.

        A callback that would start the next task (a page refreshing when a check is
        cancelled) must not outlive the window: Qt aborts the process when a thread object
        is destroyed while it runs.
        """
        self._closed = True
        self.cancel()
        return self.wait(timeout_ms)

    def wait(self, timeout_ms: int = 5000) -> bool:
        """Block until the current thread ends (for shutdown); True when it did."""
        if self._thread is None:
            return True
        return self._thread.wait(timeout_ms)

    def _reveal(self) -> None:
        if self._job is not None:
            self.show_progress.emit(self._title)

    @Slot(float, str)
    def _on_progress(self, fraction: float, message: str) -> None:
        self.progress.emit(fraction, message)

    # The outcome is stored and handed to the callback only once the thread is gone, so that a
    # callback may start the next task straight away.
    @Slot(object)
    def _on_finished(self, result: Any) -> None:
        self._outcome = (0, (result,))

    @Slot(object, str)
    def _on_failed(self, err: BaseException, detail: str) -> None:
        self._outcome = (1, (err, detail))

    @Slot()
    def _on_cancelled(self) -> None:
        self._outcome = (2, ())

    @Slot()
    def _on_done(self) -> None:
        self._timer.stop()
        thread, job = self._thread, self._job
        self._job = self._thread = None
        if thread is not None:
            thread.quit()
            thread.wait()
        # Both objects are owned by Python and dropped here: the thread has ended.
        del job, thread
        callbacks, (which, args) = self._callbacks, self._outcome
        self._callbacks, self._outcome = (None, None, None), (2, ())
        waiting, self._next = self._next, None
        if waiting is not None and not self._closed:
            self._start_now(*waiting)  # the superseded task's callbacks are not called
            return
        self.busy_changed.emit(False)
        if self._closed:
            return
        callback = callbacks[which]
        if callback is not None:
            callback(*args)
        elif which == 1:
            log.error("task %s failed:\n%s", self._title, args[1])
