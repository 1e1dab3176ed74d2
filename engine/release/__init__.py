"""Making a release: buckets, classes, recoding and the independent check.

Everything between the cleaned input and the verified release table lives here: the
confidential buckets (KBS 2015 §6.1), the feasibility arithmetic, the t-close partition (exact
or block-wise), k-anonymous microaggregation and its improvement pass, the recoding of the
released columns, the verifier, the noise route (Construction B) and the plan that says what a
run will do before it runs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.release.partition import (
        DEFAULT_BLOCK_SIZE,
        LARGE_FILE,
        check_feasible,
        default_rounds,
        form_classes,
        improve_within_bounds,
        layout_counts,
        node_spreads,
        size_candidates,
        split_nodes,
        spreads_from_sums,
        tclose_blocks,
        tclose_partition,
        use_blocks,
        widest_dimension,
    )

#: public name -> the part of engine.release that defines it
_EXPORTS = {
    "DEFAULT_BLOCK_SIZE": "engine.release.partition",
    "LARGE_FILE": "engine.release.partition",
    "check_feasible": "engine.release.partition",
    "default_rounds": "engine.release.partition",
    "form_classes": "engine.release.partition",
    "improve_within_bounds": "engine.release.partition",
    "layout_counts": "engine.release.partition",
    "node_spreads": "engine.release.partition",
    "size_candidates": "engine.release.partition",
    "split_nodes": "engine.release.partition",
    "spreads_from_sums": "engine.release.partition",
    "tclose_blocks": "engine.release.partition",
    "tclose_partition": "engine.release.partition",
    "use_blocks": "engine.release.partition",
    "widest_dimension": "engine.release.partition",
}

__all__ = [
    "DEFAULT_BLOCK_SIZE",
    "LARGE_FILE",
    "check_feasible",
    "default_rounds",
    "form_classes",
    "improve_within_bounds",
    "layout_counts",
    "node_spreads",
    "size_candidates",
    "split_nodes",
    "spreads_from_sums",
    "tclose_blocks",
    "tclose_partition",
    "use_blocks",
    "widest_dimension",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'engine.release' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
