"""Trial partitions shared by a series of releases of one file (a sweep's points).

A sweep asks for many releases of one file that differ only in t, k and b.  The search of b
and the choice of the class size form many trial partitions of the same fixed samples, and
points that share t and b form some of the same partitions again (on the census-like file of
``benchmarks/bench_sweep.py``, 60 of the 504 of a 15-point sweep: the searched b differs
between most points, so the saving is small; ``docs/performance.md``).  Inside
:func:`shared_trials` a partition is formed once for the same inputs (the same arrays, by
content, and the same size, t, shares and options) and handed out again as a copy; outside
it, :func:`trial` just forms the partition and keeps nothing.

The scope is a context variable, as the language is (:mod:`engine.i18n`): only the code run
inside the ``with`` block shares trials, and a caller that opens no scope pays nothing.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import numpy as np

#: the partitions formed in the open scope, by their inputs (None: no scope open)
_TRIALS: ContextVar[dict[Hashable, Any] | None] = ContextVar("trials", default=None)


@contextmanager
def shared_trials() -> Iterator[dict[Hashable, Any]]:
    """A scope in which :func:`trial` forms each partition once (the dict it keeps)."""
    kept: dict[Hashable, Any] = {}
    token = _TRIALS.set(kept)
    try:
        yield kept
    finally:
        _TRIALS.reset(token)


def trial(partition: Callable[..., Any], X: np.ndarray, codes: np.ndarray, size: int,
          t: float, **options: Any) -> np.ndarray:  # fmt: skip
    """``partition(X, codes, size, t, **options)``, formed once per scope for the same inputs.

    ``task`` (among ``options``) is passed on but is no part of the inputs: a partition
    found in the scope reports no progress (it takes no time).
    """
    kept = _TRIALS.get()
    if kept is None:
        return partition(X, codes, size, t, **options)
    key = (
        _name(partition),
        _digest(X),
        _digest(codes),
        int(size),
        float(t),
        tuple(sorted((k, _value(v)) for k, v in options.items() if k != "task")),
    )
    found = kept.get(key)
    if found is None:
        labels = np.asarray(partition(X, codes, size, t, **options))
        # kept as 32-bit class numbers (half the memory of a sweep's hundreds of trials)
        small = labels.size and labels.min() >= 0 and labels.max() < 2**31
        found = kept[key] = (labels.astype(np.int32) if small else labels.copy(), labels.dtype)
    kept_labels, dtype = found
    return kept_labels.astype(dtype)


def _name(partition: Callable[..., Any]) -> Hashable:
    """What identifies a partition function, with the options a ``partial`` binds."""
    if isinstance(partition, functools.partial):
        bound = tuple(sorted((k, _value(v)) for k, v in partition.keywords.items()))
        return (_name(partition.func), tuple(_value(a) for a in partition.args), bound)
    return f"{partition.__module__}.{partition.__qualname__}"


def _value(value: Any) -> Hashable:
    return _digest(value) if isinstance(value, np.ndarray) else value


def _digest(array: np.ndarray) -> tuple[str, tuple[int, ...], bytes]:
    """An array's content, dtype and shape, in 16 bytes (equal arrays, equal digests)."""
    data = np.ascontiguousarray(array)
    digest = hashlib.blake2b(data.view(np.uint8).reshape(-1), digest_size=16).digest()
    return (str(data.dtype), data.shape, digest)
