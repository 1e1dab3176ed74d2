"""Column types and missing values.

Minimal first version: numeric when every non-missing value parses as a number, nominal
otherwise.  (The import issue extends this with ordinal/date detection and confidences.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.roles import ColumnType


@dataclass(frozen=True)
class TypeGuess:
    type: ColumnType
    #: 0..1, how sure the guess is (share of values that fit the type)
    confidence: float
    #: why, in words the GUI can show
    note: str = ""


def apply_missing(
    df: pd.DataFrame,
    codes: Iterable[str] = (),
    column_codes: Mapping[str, Iterable[str]] | None = None,
) -> pd.DataFrame:
    """A copy of ``df`` where declared missing codes are NA.

    A code matches a cell when their texts are equal, or when both are numbers and equal
    (so ``-10000`` matches the integer -10000 and the float -10000.0).
    """
    out = df.copy()
    column_codes = column_codes or {}
    for col in out.columns:
        all_codes = [str(c) for c in (*codes, *column_codes.get(col, ()))]
        if not all_codes:
            continue
        s = out[col]
        mask = s.astype("string").str.strip().isin(all_codes).fillna(False).to_numpy(bool)
        nums = pd.to_numeric(pd.Series(all_codes), errors="coerce").dropna().to_numpy()
        if len(nums) and pd.api.types.is_numeric_dtype(s):
            mask |= np.isin(s.to_numpy(dtype=float, na_value=np.nan), nums)
        if mask.any():
            out[col] = s.mask(mask)
            if not pd.api.types.is_numeric_dtype(out[col]):
                converted = pd.to_numeric(out[col], errors="coerce")
                if converted.notna().sum() == out[col].notna().sum():
                    out[col] = converted
    return out


def infer_type(series: pd.Series) -> TypeGuess:
    """Guess the type of one column from its non-missing values."""
    values = series.dropna()
    if values.empty:
        return TypeGuess(ColumnType.NOMINAL, 0.0, "no values")
    if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
        return TypeGuess(ColumnType.NUMERIC, 1.0, "all values are numbers")
    if pd.api.types.is_datetime64_any_dtype(values):
        return TypeGuess(ColumnType.DATE, 1.0, "all values are dates")
    numeric = pd.to_numeric(values, errors="coerce")
    share = float(numeric.notna().mean())
    if share == 1.0:
        return TypeGuess(ColumnType.NUMERIC, 1.0, "all values are numbers")
    return TypeGuess(ColumnType.NOMINAL, 1.0 - share, "text values")


def infer_types(df: pd.DataFrame) -> dict[str, TypeGuess]:
    return {col: infer_type(df[col]) for col in df.columns}
