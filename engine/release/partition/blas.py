"""BLAS on one thread while the engine plans or makes a release.

The engine's matrix products are many and small: the distance of every QI point to a seed
(MDAV), a class's exchange gains (the improvement pass).  A multi-threaded BLAS (OpenBLAS,
Accelerate, MKL) spreading each over the cores costs more than it gains: on a two-core
machine its waiting threads spin, and the class forming of a 30,000-record census file took
a fifth more CPU time (``docs/performance.md``).  The engine's own parallel work (blocks of
classes on threads, the compiled kernels) uses the cores instead.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from threadpoolctl import threadpool_limits

P = ParamSpec("P")
R = TypeVar("R")


def one_blas_thread(func: Callable[P, R]) -> Callable[P, R]:
    """Run ``func`` with BLAS limited to one thread (restored afterwards)."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with threadpool_limits(limits=1, user_api="blas"):
            return func(*args, **kwargs)

    return wrapper
