"""The identifier rule (``engine.identifiers``) on a cluster: the verdict one machine gives on
the whole file, never on a sample of it.

A released column whose values are nearly all different (a quasi-identifier, a kept column)
is refused, because released it would print real identifiers; a household-level column is
judged per household.  On one machine the rule reads the whole column.  Here each partition
sends its number of values and of distinct values (and, for a column that may be nearly all
different, whether its numbers are whole and their smallest and largest); the sum of the
distinct counts bounds the file's from above.  The rule only grows more severe with more
distinct values, so a column the bound clears is cleared; only a column the bound would
refuse has its distinct values gathered and counted exactly (an ID column, which is refused
in the end anyway).  Per household likewise: the households are counted exactly (their ids
gathered once), a column with fewer distinct values than the rule needs per household is
cleared by the bound, and the others send their (household, value) pairs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import InputError
from engine.identifiers import (
    DISTINCT_SHARE,
    HOUSEHOLD_LEVEL,
    QI,
    RUNNING_SHARE,
    ValueProfile,
    allowed_note,
    column_kind,
    identifier_reason,
)
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


def _homes(frame: pd.DataFrame, household: str) -> np.ndarray:
    return pd.unique(frame[household].dropna().to_numpy(dtype=object))


def _pairs(frame: pd.DataFrame, household: str, column: str) -> pd.DataFrame:
    """The distinct (household, value) pairs of one partition (missing values kept: a
    household whose members differ in a missing value is not constant)."""
    pairs = pd.DataFrame({"home": frame[household].to_numpy(), "value": frame[column].to_numpy()})
    return pairs[pairs["home"].notna()].drop_duplicates()


def _record_reason(
    client: Any, frames: Sequence[Any], column: str, part_counts: list[ValueProfile],
    ctype: ColumnType, role: str,
) -> str:  # fmt: skip
    """The rule per record: counts first, numbers for a suspect column, the exact number of
    distinct values only for one still suspect."""
    from engine.distributed.cluster import gather

    if not ValueProfile.combined(part_counts).suspect:
        return ""
    parts = gather(client, client.map(_profile, frames, column=column))
    if not identifier_reason(column, ValueProfile.combined(parts), ctype, role=role):
        return ""
    values = gather(client, client.map(_distinct_values, frames, column=column))
    exact = len(pd.unique(np.concatenate(values))) if values else 0
    return identifier_reason(column, ValueProfile.combined(parts, exact), ctype, role=role)


def _household_reason(
    client: Any, frames: Sequence[Any], column: str, household: str, n_homes: int,
    distinct_bound: int, ctype: ColumnType,
) -> str:  # fmt: skip
    """The rule per household, for a column constant within every household: cleared when
    even the bound on its distinct values is too few for the households, else judged on the
    gathered (household, value) pairs."""
    from engine.distributed.cluster import gather

    if n_homes == 0 or distinct_bound < min(RUNNING_SHARE, DISTINCT_SHARE) * n_homes:
        return ""  # fewer values than households need to be nearly one each
    pairs = pd.concat(gather(client, client.map(_pairs, frames, household=household,
                                                column=column))).drop_duplicates()  # fmt: skip
    if pairs["home"].duplicated().any():
        return ""  # not a household's value: judged per record
    profile = ValueProfile.of(pairs["value"], judged=True)
    return identifier_reason(column, profile, ctype, role=HOUSEHOLD_LEVEL)


def check_identifiers_on(
    client: Any,
    frames: Sequence[Any],
    roles: Mapping[str, str],
    types: Mapping[str, ColumnType],
    *,
    allowed: Sequence[str] = (),
    household: str | None = None,
    head: pd.DataFrame | None = None,
) -> list[str]:
    """Refuse the first released column of the partitioned table ``frames`` that looks like
    an identifier (InputError), as :func:`engine.identifiers.check_identifiers` does on one
    machine: ``roles`` maps each released column to its role, ``types`` gives the type of
    those that have one (a kept one is read from ``head``, a sample of the first partition),
    ``allowed`` are released all the same (the returned sentences say so), and with
    ``household`` a household-level column is judged per household.

    Each step reads more, for fewer columns: the counts clear a column whose values repeat;
    the numbers clear a column of amounts (not whole, or spread out); the distinct values are
    gathered only for a column still suspect."""
    from engine.distributed.cluster import gather

    columns = list(roles)
    per_part = gather(client, client.map(counts, frames, columns=columns))
    n_homes = 0
    if household is not None:
        homes = gather(client, client.map(_homes, frames, household=household))
        n_homes = len(pd.unique(np.concatenate(homes))) if homes else 0
    notes = []
    for column, role in roles.items():
        ctype = types.get(column) or (
            column_kind(head[column]) if head is not None else ColumnType.NOMINAL
        )
        part_counts = [part[column] for part in per_part]
        reason = ""
        if household is not None:
            bound = sum(p.distinct for p in part_counts)
            reason = _household_reason(client, frames, column, household, n_homes, bound, ctype)
        reason = reason or _record_reason(client, frames, column, part_counts, ctype, role)
        if reason and column in allowed:
            notes.append(allowed_note(column))
        elif reason:
            raise InputError(reason)
    return notes


def check_quasi_identifiers_on(
    client: Any, frames: Sequence[Any], qi: Sequence[str], types: dict[str, ColumnType]
) -> None:
    """Refuse the first identifier-like quasi-identifier of ``frames`` (InputError)."""
    check_identifiers_on(client, frames, dict.fromkeys(qi, QI), types)


__all__ = ["check_identifiers_on", "check_quasi_identifiers_on", "counts"]
