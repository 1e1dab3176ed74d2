"""A package's names loaded on first use (PEP 562), so that importing it costs nothing.

``engine`` and its front door ``engine.release`` re-export names from the modules below them;
importing those modules (numpy, pandas, scipy, the compiled kernels) waits until a name is
first read.  The package declares ``_EXPORTS`` (name → the module that defines it) and takes
its module ``__getattr__`` and ``__dir__`` from :func:`lazy_exports`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any


def lazy_exports(
    package: str, exports: Mapping[str, str], namespace: dict[str, Any], public: Iterable[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: a name of ``exports`` is imported
    from its module when first read and kept in the package's ``namespace`` (``globals()``)."""
    listed = tuple(public)

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *listed})

    return __getattr__, __dir__


__all__ = ["lazy_exports"]
