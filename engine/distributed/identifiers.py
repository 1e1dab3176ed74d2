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


def counts(frame: pd.DataFrame, columns: Sequence[str]) -> dict[str, ValueProfile]:
    """Each column's number of values and of distinct values in one partition (missing
    values left out): all the rule reads of a column that is not nearly all different."""
    out = {}
    for column in columns:
        values = frame[column].dropna()
        out[column] = ValueProfile(len(values), int(values.nunique()))
    return out


def _profile(frame: pd.DataFrame, column: str) -> ValueProfile:
    return ValueProfile.of(frame[column])


def _distinct_values(frame: pd.DataFrame, column: str) -> np.ndarray:
    return pd.unique(frame[column].dropna().to_numpy(dtype=object))


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
        if not ValueProfile.combined([part[column] for part in per_part]).near_unique:
            continue
        parts = gather(client, client.map(_profile, frames, column=column))
        if not identifier_reason(column, ValueProfile.combined(parts), types[column]):
            continue
        values = gather(client, client.map(_distinct_values, frames, column=column))
        exact = len(pd.unique(np.concatenate(values))) if values else 0
        reason = identifier_reason(column, ValueProfile.combined(parts, exact), types[column])
        if reason:
            raise InputError(reason)


__all__ = ["check_quasi_identifiers_on", "counts"]
