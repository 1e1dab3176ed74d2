"""Progress reporting and cancellation without any GUI toolkit.

Long engine calls take two plain callables: ``progress(fraction, message)`` with ``fraction``
in [0, 1], and ``cancel() -> bool``.  The GUI passes functions that emit Qt signals (and
throttles them); the command line passes nothing.  Engine code calls :func:`step` at natural
checkpoints; it raises :class:`~engine.errors.CancelledError` when the caller asked to stop.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.errors import CancelledError

ProgressFn = Callable[[float, str], None]
CancelFn = Callable[[], bool]


def step(
    progress: ProgressFn | None,
    cancel: CancelFn | None,
    fraction: float,
    message: str = "",
) -> None:
    """Report ``fraction`` done and stop with CancelledError if the caller asked to."""
    if cancel is not None and cancel():
        raise CancelledError()
    if progress is not None:
        progress(min(max(float(fraction), 0.0), 1.0), message)


def scaled(progress: ProgressFn | None, start: float, stop: float) -> ProgressFn | None:
    """A progress function for a sub-task that maps its [0, 1] onto [start, stop]."""
    if progress is None:
        return None

    def report(fraction: float, message: str) -> None:
        progress(start + (stop - start) * fraction, message)

    return report
