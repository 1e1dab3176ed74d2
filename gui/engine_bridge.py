"""The engine calls the wizard makes, in one place.

Every number shown comes from the engine; this module only gathers the calls and turns their
results into plain rows for display.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pandas as pd

from engine import privacy
from engine.errors import InfeasibleError
from engine.io import apply_missing
from engine.params import ReleaseParams
from engine.progress import CancelFn, ProgressFn, step
from engine.release import buckets, feasibility


@dataclasses.dataclass(frozen=True)
class GuaranteeRow:
    """One line of the calculator panel."""

    name: str
    #: the numbers, e.g. "ε = 1.386"
    value: str
    #: the guarantee in plain words
    statement: str = ""
    assumption: str = ""
    source: str = ""
    #: False for what does *not* follow (shown as a caution)
    holds: bool = True


def _text(value: Any) -> str:
    if isinstance(value, float):
        if math.isinf(value):
            return "∞"
        return f"{value:.4g}"
    if isinstance(value, str) and value == "inf":
        return "∞"
    return str(value)


SYMBOLS = {"epsilon": "ε", "t": "t", "k": "k", "n": "N", "N": "N", "delta": "δ"}


def _row_from(item: privacy.Guarantee) -> GuaranteeRow:
    """A guarantee of the engine's calculator as a row of the panel."""
    value = ", ".join(f"{SYMBOLS.get(k, k)} = {_text(v)}" for k, v in item.values.items())
    return GuaranteeRow(
        name=item.name,
        value=value,
        statement=item.statement,
        assumption=item.assumption,
        source=item.source,
        holds=item.holds,
    )


def guarantees(
    *,
    t: float | None,
    epsilon: float | None,
    k: int,
    n: int,
    class_sizes: np.ndarray | None = None,
    mechanism: str = "buckets",
) -> list[GuaranteeRow]:
    """Every guarantee that follows from the user's choice, each with its assumption."""
    rows = privacy.guarantees(
        t=t, epsilon=epsilon, k=k, n=n or None, class_sizes=class_sizes, mechanism=mechanism
    )
    return [_row_from(item) for item in rows]


@dataclasses.dataclass
class Feasibility:
    ok: bool
    message: str
    #: (label, parameters) of the nearest feasible settings
    alternatives: list[tuple[str, dict[str, Any]]]
    #: False when there was nothing to check (the bucket counts could not be computed)
    checked: bool = True
    #: the most classes the data allows for this t and k (None when unknown)
    max_classes: int | None = None


def bucket_count(t: float) -> int:
    return int(buckets.optimal_bucket_count(t))


def bucket_counts(data: pd.DataFrame, config: ReleaseParams, n_buckets: int | None) -> np.ndarray:
    """Records per confidential bucket for this configuration."""
    if n_buckets is None:
        n_buckets = bucket_count(float(config.bucket_t or 1.0))
    result = buckets.make_buckets(
        data,
        list(config.confidential),
        dict(config.types),
        n_buckets,
        joint=config.joint,
        orders=dict(config.orders) or None,
    )
    return np.asarray(result.counts)


def bucket_counts_task(
    data: pd.DataFrame,
    config: ReleaseParams,
    n_buckets: int | None,
    *,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
) -> np.ndarray:
    """:func:`bucket_counts` on the raw table (missing codes applied here), as a task."""
    step(progress, cancel, 0.0, "Counting the confidential buckets")
    columns = list(config.confidential)
    codes = {c: config.column_missing[c] for c in columns if c in config.column_missing}
    prepared = apply_missing(data[columns], config.missing, codes)
    counts = bucket_counts(prepared, config, n_buckets)
    step(progress, cancel, 1.0, "Counted")
    return counts


def check_feasible(counts: np.ndarray | None, t: float, k: int) -> Feasibility:
    """Whether (t, k) can be met with these bucket counts, and the nearest settings that can."""
    if counts is None:  # the count failed: the run checks again
        return Feasibility(True, "", [], checked=False)
    try:
        result = feasibility.check_feasible(counts, t, k)
    except InfeasibleError as err:
        alts = [(alt.description, dict(alt.params)) for alt in err.alternatives]
        return Feasibility(False, err.message, alts)
    return Feasibility(True, "", [], max_classes=int(result) if result > 0 else None)
