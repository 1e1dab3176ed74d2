"""Whether the compiled kernels (numba) run, and the module that holds them."""

from __future__ import annotations

import os


def compiled_kernels(compiled: bool | None = None):
    """The module of compiled kernels (:mod:`engine.release.partition.compiled`), or None for numpy.

    ``compiled`` None: the kernels when numba can be imported and the environment variable
    ``TCLOSE_COMPILED`` is not ``0``; True: the kernels (an ImportError without numba);
    False: None.  Both routes give the same results.
    """
    if compiled is None:
        if os.environ.get("TCLOSE_COMPILED", "1") == "0":
            return None
        try:
            from engine.release.partition import compiled as kernels
        except Exception:  # no numba, or one that cannot start here: numpy gives the same
            return None
        return kernels
    if compiled:
        from engine.release.partition import compiled as kernels

        return kernels
    return None


__all__ = ["compiled_kernels"]
