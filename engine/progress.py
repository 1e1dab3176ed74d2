"""Progress reporting and cancellation without any GUI toolkit.

Long engine calls take one :class:`Task`: it holds two plain callables, ``progress(fraction,
message)`` with ``fraction`` in [0, 1], and ``cancel() -> bool``, either of which may be
missing.  The GUI passes functions that emit Qt signals (and throttles them); the command line
passes a progress bar or nothing.  Engine code calls :meth:`Task.step` at natural checkpoints;
it raises :class:`~engine.errors.CancelledError` when the caller asked to stop.  A sub-task
gets ``task.sub(start, stop)``, so that its own [0, 1] fills that share of the caller's bar.

The design follows Orange3's ``TaskState``: one object that knows how to report, check and
split travels through the calls, instead of a pair of callables in every signature.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import CancelledError

ProgressFn = Callable[[float, str], None]
CancelFn = Callable[[], bool]


@dataclass(frozen=True)
class Task:
    """The caller's progress and cancel callables, both optional; immutable, so shareable."""

    progress: ProgressFn | None = None
    cancel: CancelFn | None = None

    def cancelled(self) -> bool:
        """True when the caller asked to stop."""
        return self.cancel is not None and bool(self.cancel())

    def report(self, fraction: float, message: str = "") -> None:
        """Report ``fraction`` done (clipped to [0, 1]) without checking for cancellation."""
        if self.progress is not None:
            self.progress(min(max(float(fraction), 0.0), 1.0), message)

    def step(self, fraction: float, message: str = "") -> None:
        """Stop with CancelledError if the caller asked to, else report ``fraction`` done."""
        if self.cancelled():
            raise CancelledError()
        self.report(fraction, message)

    def sub(self, start: float, stop: float) -> Task:
        """A task for a part of the work: its [0, 1] maps onto [start, stop]; same cancel."""
        progress = self.progress
        if progress is None:
            return self

        def report(fraction: float, message: str) -> None:
            progress(start + (stop - start) * fraction, message)

        return Task(report, self.cancel)

    def silent(self) -> Task:
        """The same cancel without progress: for a helper whose own reports would mislead."""
        return Task(cancel=self.cancel) if self.progress is not None else self


#: no progress and no cancellation: the default of every long engine call
NO_TASK = Task()
