"""The engine calls the wizard makes, in one place, tolerant of engine parts not yet present.

Every number shown comes from the engine; this module only gathers the calls and turns their
results into plain rows for display.  A part of the engine that is missing in this build (an
optional mechanism, say) makes the corresponding function return ``None``.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import math
from collections.abc import Mapping
from types import ModuleType
from typing import Any

import numpy as np
import pandas as pd

from engine.config import ReleaseConfig
from engine.errors import InfeasibleError
from engine.progress import CancelFn, ProgressFn
from engine.result import Release


def optional_module(name: str) -> ModuleType | None:
    """``engine.<name>`` if this build has it."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def anonymize(
    data: pd.DataFrame,
    config: ReleaseConfig,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
) -> Release:
    from engine.anonymize import anonymize as run

    return run(data, config, progress=progress, cancel=cancel)


def has_noise_mechanisms() -> bool:
    return optional_module("engine.mechanisms") is not None


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


def _row_from(item: Any) -> GuaranteeRow:
    """Read a guarantee object of the engine (dataclass or mapping) into a row."""
    if dataclasses.is_dataclass(item) and not isinstance(item, type):
        fields = dataclasses.asdict(item)
    elif isinstance(item, Mapping):
        fields = dict(item)
    else:
        return GuaranteeRow(str(item), "")
    values = fields.get("values") or {}
    if isinstance(values, Mapping):
        value = ", ".join(f"{SYMBOLS.get(k, k)} = {_text(v)}" for k, v in values.items())
    else:
        value = _text(values)
    if not value and "value" in fields:
        value = _text(fields["value"])
    return GuaranteeRow(
        name=str(fields.get("name", "")),
        value=value,
        statement=str(fields.get("statement", "")),
        assumption=str(fields.get("assumption", "")),
        source=str(fields.get("source", "")),
        holds=bool(fields.get("holds", True)),
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
    """Every guarantee that follows from the user's choice, each with its assumption.

    Uses the engine's privacy calculator when present; otherwise only the bucket t that the
    configuration itself derives from ε (Proposition 3).
    """
    privacy = optional_module("engine.privacy")
    calc = getattr(privacy, "guarantees", None) if privacy is not None else None
    if calc is not None:
        kwargs: dict[str, Any] = {"t": t, "epsilon": epsilon, "k": k, "n": n or None}
        accepted = inspect.signature(calc).parameters
        if class_sizes is not None and "class_sizes" in accepted:
            kwargs["class_sizes"] = class_sizes
        if "mechanism" in accepted:
            kwargs["mechanism"] = mechanism
        return [_row_from(item) for item in calc(**kwargs)]
    rows = []
    if epsilon is not None:
        bucket_t = ReleaseConfig(qi=("q",), confidential=("c",), k=1, epsilon=epsilon).bucket_t
        rows.append(
            GuaranteeRow(
                "t-closeness of the buckets",
                f"t = {_text(bucket_t)}",
                "Inside every group, each bucket's share stays within a factor t of its share "
                "in the whole file.",
                "t = exp(ε/2) (Proposition 3); the intruder's prior is the published overall "
                "distribution.",
            )
        )
    rows.append(
        GuaranteeRow(
            "k-anonymity",
            f"k = {k}",
            "Every released combination of quasi-identifier values is shared by at least k "
            "records.",
        )
    )
    return rows


@dataclasses.dataclass
class Feasibility:
    ok: bool
    message: str
    #: (label, parameters) of the nearest feasible settings
    alternatives: list[tuple[str, dict[str, Any]]]
    #: False when this build cannot check (no bucket counts or no feasibility module)
    checked: bool = True
    #: the most classes the data allows for this t and k (None when unknown)
    max_classes: int | None = None


def bucket_count(t: float) -> int | None:
    buckets = optional_module("engine.buckets")
    fn = getattr(buckets, "optimal_bucket_count", None) if buckets else None
    return None if fn is None else int(fn(t))


def bucket_counts(
    data: pd.DataFrame, config: ReleaseConfig, n_buckets: int | None
) -> np.ndarray | None:
    """Records per confidential bucket for this configuration (None if not computable)."""
    buckets = optional_module("engine.buckets")
    make = getattr(buckets, "make_buckets", None) if buckets else None
    if make is None:
        return None
    if n_buckets is None:
        n_buckets = bucket_count(float(config.bucket_t or 1.0))
        if n_buckets is None:
            return None
    result = make(
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
    config: ReleaseConfig,
    n_buckets: int | None,
    *,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
) -> np.ndarray | None:
    """:func:`bucket_counts` on the raw table (missing codes applied here), as a task."""
    from engine.io import apply_missing
    from engine.progress import step

    step(progress, cancel, 0.0, "Counting the confidential buckets")
    columns = list(config.confidential)
    codes = {c: config.column_missing[c] for c in columns if c in config.column_missing}
    prepared = apply_missing(data[columns], config.missing, codes)
    counts = bucket_counts(prepared, config, n_buckets)
    step(progress, cancel, 1.0, "Counted")
    return counts


def check_feasible(counts: np.ndarray | None, t: float, k: int) -> Feasibility:
    """Whether (t, k) can be met with these bucket counts, and the nearest settings that can."""
    feasibility = optional_module("engine.feasibility")
    check = getattr(feasibility, "check_feasible", None) if feasibility else None
    if check is None or counts is None:
        return Feasibility(True, "", [], checked=False)
    try:
        result = check(counts, t, k)
    except InfeasibleError as err:
        alts = [(alt.description, dict(alt.params)) for alt in err.alternatives]
        return Feasibility(False, err.message, alts)
    max_classes = int(result) if isinstance(result, int | np.integer) and result > 0 else None
    return Feasibility(True, "", [], max_classes=max_classes)
