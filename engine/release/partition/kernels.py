"""Whether the compiled kernels (numba) run, and the module that holds them."""

from __future__ import annotations

import os

from engine.release.partition.jit import load_kernels


def compiled_kernels(compiled: bool | None = None):
    """The module of compiled kernels (:mod:`engine.release.partition.compiled`), or None for numpy.

    ``compiled`` None: the kernels when numba can be imported and the environment variable
    ``TCLOSE_COMPILED`` is not ``0``; True: the kernels (an ImportError without numba);
    False: None.  Both routes give the same results.
    """
    if compiled is None:
        if os.environ.get("TCLOSE_COMPILED", "1") == "0":
            return None
        # no numba, or one that cannot start here: numpy gives the same (and jit says so)
        return load_kernels()
    if compiled:
        kernels = load_kernels()
        if kernels is None:
            raise ImportError("the compiled kernels cannot be loaded here (numba)")
        return kernels
    return None


__all__ = ["compiled_kernels"]
