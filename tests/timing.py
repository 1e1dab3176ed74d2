"""Time bounds for the few tests that must have one, made to hold on a busy machine.

Only promises a user would notice are bounded in tests (Cancel stops a run, the window keeps
responding); how fast things are is measured in ``benchmarks/``.  Each bound is several times
what a quiet machine takes, so that it still holds on a loaded two-core CI machine, and a missed
bound is tried once more before the test fails: one slow moment is not a bug, two in a row may
be.  Only :class:`TooSlow` is retried; any other failure fails at once.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

#: seconds from pressing Cancel until the work has stopped (the app promises about one)
CANCEL_SECONDS = 3.0


class TooSlow(AssertionError):
    """A time bound was missed (the one failure :func:`retry_once` tries again)."""


def check_time(seconds: float, limit: float, what: str) -> None:
    """Raise :class:`TooSlow` when ``what`` took ``seconds`` and the bound is ``limit``."""
    if seconds >= limit:
        raise TooSlow(f"{what} took {seconds:.2f} s (limit {limit:g} s)")


def retry_once(test: Callable[P, R]) -> Callable[P, R]:
    """Run ``test`` a second time when it misses a time bound; a warning says it happened."""

    @functools.wraps(test)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return test(*args, **kwargs)
        except TooSlow as first:
            warnings.warn(f"{test.__name__}: {first}; tried once more", stacklevel=2)
            return test(*args, **kwargs)

    return run
