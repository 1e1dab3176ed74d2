"""The identifier rule (``engine.identifiers``) on a cluster: the verdict one machine gives on
the whole file, never on a sample of it.

A quasi-identifier whose values are nearly all different is refused, because released per
class it would print real identifiers.  On one machine the rule reads the whole column.  Here
each partition sends its count, its number of distinct values and, for numbers, whether they
are whole and their smallest and largest; the sum of the distinct counts bounds the file's
from above.  The rule only grows more severe with more distinct values, so a column the bound
clears is cleared; only a column the bound would refuse has its distinct values gathered and
counted exactly (an ID column, which is refused in the end anyway).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import InputError
from engine.identifiers import ValueProfile, identifier_reason
from engine.roles import ColumnType

#: one partition's summary of one column: (values, distinct, whole, smallest, largest); the
#: last three are False, None, None unless every value is a finite number
Summary = tuple[int, int, bool, float | None, float | None]


def summaries(frame: pd.DataFrame, columns: Sequence[str]) -> dict[str, Summary]:
    """One partition's summary of each of ``columns`` (missing values left out)."""
    out: dict[str, Summary] = {}
    for column in columns:
        values = frame[column].dropna()
        profile = ValueProfile.of(values)
        lo = hi = None
        if profile.span is not None and len(values):
            numbers = pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)
            lo, hi = float(numbers.min()), float(numbers.max())
        out[column] = (profile.n, profile.distinct, profile.whole, lo, hi)
    return out


def _distinct_values(frame: pd.DataFrame, column: str) -> np.ndarray:
    return pd.unique(frame[column].dropna().to_numpy(dtype=object))


def combined_profile(parts: Sequence[Summary], distinct: int | None = None) -> ValueProfile:
    """The profile of a column made of ``parts``: with the exact ``distinct`` count when it is
    known, else with the sum of the parts' counts, which bounds it from above."""
    filled = [p for p in parts if p[0]]
    numeric = bool(filled) and all(p[3] is not None for p in filled)
    whole = numeric and all(p[2] for p in filled)
    span = max(p[4] for p in filled) - min(p[3] for p in filled) if numeric else None
    n = sum(p[0] for p in filled)
    upper = sum(p[1] for p in parts) if distinct is None else distinct
    return ValueProfile(n, upper, whole, span)


def check_quasi_identifiers_on(
    client: Any, frames: Sequence[Any], qi: Sequence[str], types: dict[str, ColumnType]
) -> None:
    """Refuse the first identifier-like quasi-identifier of the partitioned table ``frames``
    (InputError), as ``engine.identifiers.check_quasi_identifiers`` does on one machine."""
    from engine.distributed.cluster import gather

    per_part = gather(client, client.map(summaries, frames, columns=list(qi)))
    for column in qi:
        parts = [summary[column] for summary in per_part]
        if not identifier_reason(column, combined_profile(parts), types[column]):
            continue
        values = gather(client, client.map(_distinct_values, frames, column=column))
        exact = len(pd.unique(np.concatenate(values))) if values else 0
        reason = identifier_reason(column, combined_profile(parts, exact), types[column])
        if reason:
            raise InputError(reason)


__all__ = ["check_quasi_identifiers_on", "combined_profile", "summaries"]
