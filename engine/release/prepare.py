"""What every mechanism does first: check the columns and the size, apply missing codes, type.

Both constructions (buckets and noise) start from the same cleaned, typed view of the columns
they protect, so the checks and messages are the same whichever mechanism the user chose.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from engine.errors import FeasibleAlternative, InfeasibleError, InputError
from engine.io import apply_missing
from engine.params import ReleaseParams
from engine.release.encode import resolve_columns
from engine.roles import ColumnType


@dataclass
class Prepared:
    """The quasi-identifier and confidential columns, cleaned and typed (never released)."""

    qi: list[str]
    confidential: list[str]
    #: QI and confidential columns with declared missing codes as NA, index 0..n-1
    clean: pd.DataFrame
    types: dict[str, ColumnType]
    orders: dict[str, tuple]


def prepare(data: pd.DataFrame, config: ReleaseParams) -> Prepared:
    """Check ``data`` against ``config`` and return the cleaned, typed protected columns."""
    named = [*config.qi, *config.confidential, *config.identifiers, *config.keep]
    absent = [c for c in named if c not in data.columns]
    if absent:
        have = ", ".join(map(str, data.columns[:12]))
        raise InputError(
            f"No column named {', '.join(map(repr, absent))} in the input (it has: {have})."
        )
    n = len(data)
    if n == 0:
        raise InputError("The input has no records.")
    if config.k > n:
        raise InfeasibleError(
            f"k = {config.k} needs at least {config.k} records but the input has {n}; "
            f"the largest possible k is {n} (any t works then; no t helps with k = {config.k}).",
            alternatives=[
                FeasibleAlternative(
                    f"largest k for this t: k = {n}", {"k": n, "t": config.bucket_t}
                )
            ],
        )
    qi, confidential = list(config.qi), list(config.confidential)
    # missing codes matter only where values are protected; keep columns pass unchanged
    used = [c for c in data.columns if c in (*qi, *confidential)]
    column_missing = {c: v for c, v in config.column_missing.items() if c in used}
    clean = apply_missing(data[used], config.missing, column_missing).reset_index(drop=True)
    types, orders = resolve_columns(clean, [*qi, *confidential], config.types, config.orders)
    return Prepared(qi, confidential, clean, types, orders)
