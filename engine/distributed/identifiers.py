"""The identifier rule (``engine.identifiers``) on a cluster: the verdict one machine gives on
the whole file, never on a sample of it.

A quasi-identifier whose values are nearly all different is refused, because released per
class it would print real identifiers.  On one machine the rule reads the whole column.  Here
each partition sends its number of values and of distinct values (and, for a column that may
be nearly all different, whether its numbers are whole and their smallest and largest); the
sum of the distinct counts bounds the file's from above.  The rule only grows more severe
with more distinct values, so a column the bound clears is cleared; only a column the bound
would refuse has its distinct values gathered and counted exactly (an ID column, which is
refused in the end anyway).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import InputError
from engine.identifiers import ValueProfile, identifier_reason
from engine.roles import ColumnType

#: what the parts of a column tell of it: (values, distinct, whole, smallest, largest); the
#: last three are False, None, None unless every value is a finite number
Summary = tuple[int, int, bool, float | None, float | None]


def counts(frame: pd.DataFrame, columns: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Each column's number of values and of distinct values in one partition (missing
    values left out): all the rule reads of a column that is not nearly all different."""
    out = {}
    for column in columns:
        values = frame[column].dropna()
        out[column] = (len(values), int(values.nunique()))
    return out


def numbers(frame: pd.DataFrame, column: str) -> tuple[bool, float | None, float | None]:
    """Whether one partition's values of ``column`` are whole numbers, and their smallest and
    largest (False, None, None unless every value is a finite number)."""
    values = frame[column].dropna()
    profile = ValueProfile.of(values)
    if profile.span is None or not len(values):
        return False, None, None
    found = pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)
    return profile.whole, float(found.min()), float(found.max())


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
    (InputError), as ``engine.identifiers.check_quasi_identifiers`` does on one machine.

    Each step reads more, for fewer columns: the counts clear a column whose values repeat;
    the numbers clear a column of amounts (not whole, or spread out); the distinct values are
    gathered only for a column still suspect."""
    from engine.distributed.cluster import gather

    per_part = gather(client, client.map(counts, frames, columns=list(qi)))
    for column in qi:
        found = [part[column] for part in per_part]
        if not ValueProfile(sum(n for n, _ in found), sum(d for _, d in found)).near_unique:
            continue
        spans = gather(client, client.map(numbers, frames, column=column))
        parts = [(*nd, *whole_lo_hi) for nd, whole_lo_hi in zip(found, spans, strict=True)]
        if not identifier_reason(column, combined_profile(parts), types[column]):
            continue
        values = gather(client, client.map(_distinct_values, frames, column=column))
        exact = len(pd.unique(np.concatenate(values))) if values else 0
        reason = identifier_reason(column, combined_profile(parts, exact), types[column])
        if reason:
            raise InputError(reason)


__all__ = ["check_quasi_identifiers_on", "combined_profile", "counts", "numbers"]
