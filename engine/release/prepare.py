"""What every mechanism does first: check the columns and the size, apply missing codes, type.

Both constructions (buckets and noise) start from the same cleaned, typed view of the columns
they protect, so the checks and messages are the same whichever mechanism the user chose.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from engine.errors import InputError
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


def prepare(data: pd.DataFrame, params: ReleaseParams) -> Prepared:
    """Check ``data`` against ``params`` and return the cleaned, typed protected columns."""
    if not params.qi and not params.confidential:
        raise InputError("Tag at least one column as quasi-identifier or confidential.")
    if params.noise and not params.confidential:
        raise InputError(
            f"The {params.mechanism} mechanism adds noise to confidential columns; tag at least "
            "one column as confidential."
        )
    named = [*params.qi, *params.confidential, *params.identifiers, *params.keep]
    absent = [c for c in named if c not in data.columns]
    if absent:
        have = ", ".join(map(str, data.columns[:12]))
        raise InputError(
            f"No column named {', '.join(map(repr, absent))} in the input (it has: {have})."
        )
    n = len(data)
    if n == 0:
        raise InputError("The input has no records.")
    qi, confidential = list(params.qi), list(params.confidential)
    # missing codes matter only where values are protected; keep columns pass unchanged
    used = [c for c in data.columns if c in (*qi, *confidential)]
    column_missing = {c: v for c, v in params.column_missing.items() if c in used}
    clean = apply_missing(data[used], params.missing, column_missing).reset_index(drop=True)
    types, orders = resolve_columns(clean, [*qi, *confidential], params.types, params.orders)
    return Prepared(qi, confidential, clean, types, orders)
