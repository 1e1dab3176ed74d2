"""Turning columns of mixed types into numbers that a distance can compare.

Microaggregation needs one distance over quasi-identifiers of mixed types (issue: "standardised
numeric, rank-scaled ordinal, 0/1 nominal").  Every column contributes comparable spread:

* numeric and date columns are standardised (z-scores; dates as days);
* ordinal columns are replaced by their rank in the category order and standardised;
* nominal columns become 0/1 indicator columns scaled by 1/√2, so that two different
  categories are at squared distance 1, like two values one standard deviation apart.

Missing values: a numeric/ordinal/date column with missing values gets the mean (0 after
standardising) plus an indicator column; in a nominal column "missing" is one more category.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from engine.errors import InputError, listing
from engine.i18n import _
from engine.io.columns import in_date_range
from engine.recoding import Hierarchy
from engine.roles import ColumnType

_NOMINAL_SCALE = 1.0 / np.sqrt(2.0)


def resolve_columns(
    data: pd.DataFrame,
    columns: Sequence[str],
    types: Mapping[str, ColumnType] | None = None,
    orders: Mapping[str, Sequence[str]] | None = None,
) -> tuple[dict[str, ColumnType], dict[str, tuple[str, ...]]]:
    """Type and (for ordinal columns) category order of every column in ``columns``.

    Given types and orders win; the rest is inferred by :func:`engine.io.infer_types`, whose
    ordinal guesses carry an order.  An ordinal column without any order sorts its values
    naturally (numbers numerically, text alphabetically).
    """
    from engine.io import infer_types

    types = dict(types or {})
    orders = {c: tuple(o) for c, o in (orders or {}).items()}
    missing = [c for c in columns if c not in data.columns]
    if missing:
        raise InputError(
            _("No column named {columns} in the input.").format(columns=listing(missing))
        )
    todo = [c for c in columns if c not in types]
    guessed = infer_types(data[todo]) if todo else {}
    resolved: dict[str, ColumnType] = {}
    for c in columns:
        if c in types:
            resolved[c] = ColumnType(types[c])
        else:
            resolved[c] = guessed[c].type
            order = guessed[c].order
            if resolved[c] == ColumnType.ORDINAL and order and c not in orders:
                orders[c] = tuple(order)
    return resolved, {c: o for c, o in orders.items() if c in resolved}


def resolve_types(
    data: pd.DataFrame, columns: Sequence[str], types: Mapping[str, ColumnType] | None = None
) -> dict[str, ColumnType]:
    """The type of every column in ``columns``: the override when given, else inferred."""
    return resolve_columns(data, columns, types)[0]


def _natural_key(value: object) -> tuple[int, float, str]:
    try:
        return (0, float(str(value)), "")
    except ValueError:
        return (1, 0.0, str(value))


def category_order(series: pd.Series, order: Sequence[str] | None = None) -> list[object]:
    """The categories of an ordinal column, lowest first.

    With a declared ``order`` every observed value must appear in it (a typo would otherwise
    silently become the lowest rank); without one, numbers sort numerically, text
    alphabetically.
    """
    values = pd.unique(series.dropna())
    if order is not None:
        order = list(order)
        text = {str(o) for o in order}
        unknown = sorted({str(v) for v in values} - text)
        if unknown:
            raise InputError(
                _(
                    "Column {column}: values {values} are not in its declared category order."
                ).format(column=repr(series.name), values=", ".join(unknown[:5]))
            )
        by_text = {str(v): v for v in values}
        return [by_text.get(str(o), o) for o in order]
    return sorted(values, key=_natural_key)


def ordinal_ranks(series: pd.Series, order: Sequence[str] | None = None) -> np.ndarray:
    """Rank (0, 1, …) of every value in the category order; NaN where missing."""
    cats = category_order(series, order)
    out = np.full(len(series), np.nan)
    mask = series.notna().to_numpy()
    # vectorised lookup: pandas maps each value to its position in the order once per row
    codes = pd.Categorical(series[mask].astype(str), categories=[str(c) for c in cats]).codes
    out[mask] = codes
    return out


def numeric_values(series: pd.Series, ctype: ColumnType) -> np.ndarray:
    """Numbers of a numeric or date column (dates as days since 1970); NaN where missing."""
    if ctype == ColumnType.DATE:
        dates = pd.to_datetime(series, errors="coerce")
        _require_parsed(
            series,
            dates,
            _(
                "Column {column} is a date column but {value} is not a date; declare it missing "
                "or change the type."
            ),
        )
        outside = ~in_date_range(dates)
        if outside.any():
            raise InputError(
                _(
                    "Column {column} holds the date {date}, outside "
                    "1678–2261, the dates tclose computes with; correct it, declare it missing, "
                    "or make the column nominal."
                ).format(column=repr(series.name), date=series[outside].iloc[0])
            )
        days = (dates - pd.Timestamp("1970-01-01")) / pd.Timedelta(days=1)
        return days.to_numpy(dtype=float, na_value=np.nan)
    values = pd.to_numeric(series, errors="coerce")
    _require_parsed(
        series,
        values,
        _(
            "Column {column} is numeric but {value} is not a number; declare it as a "
            "missing-value code or change the column type."
        ),
    )
    return values.to_numpy(dtype=float, na_value=np.nan)


def _require_parsed(series: pd.Series, parsed: pd.Series, message: str) -> None:
    """Raise an InputError naming the first value of ``series`` that ``parsed`` lost.

    ``parsed`` is ``series`` read with ``errors="coerce"``: a value present in the one and
    missing in the other did not parse.  ``message`` is the sentence, translated, with the
    fields ``{column}`` and ``{value}``.

    A value that is neither a number (or date) nor a declared missing code is a mistake in
    the data or in the column's type, never something to release as missing silently.
    """
    bad = parsed.isna() & series.notna()
    if bad.any():
        raise InputError(message.format(column=repr(series.name), value=repr(series[bad].iloc[0])))


def _standardise(values: np.ndarray) -> list[np.ndarray]:
    """z-scores with missing values at the mean, plus an indicator column if any is missing."""
    miss = np.isnan(values)
    present = values[~miss]
    if present.size == 0:
        return [miss.astype(float)]
    mean = present.mean()
    std = present.std()
    z = np.where(miss, 0.0, (values - mean) / std if std > 0 else 0.0)
    cols = [z]
    if miss.any():
        cols.append(miss.astype(float))
    return cols


def encode_column(
    series: pd.Series, ctype: ColumnType, order: Sequence[str] | None = None
) -> np.ndarray:
    """One column as a (n, d) float block of the QI space."""
    if ctype in (ColumnType.NUMERIC, ColumnType.DATE):
        cols = _standardise(numeric_values(series, ctype))
    elif ctype == ColumnType.ORDINAL:
        cols = _standardise(ordinal_ranks(series, order))
    else:
        text = series.astype("string").fillna("\x00missing")
        codes, uniques = pd.factorize(text, sort=True)
        if len(uniques) <= 1:
            return np.zeros((len(series), 1))
        onehot = np.zeros((len(series), len(uniques)))
        onehot[np.arange(len(series)), codes] = _NOMINAL_SCALE
        return onehot
    return np.column_stack(cols)


def encode_hierarchy(series: pd.Series, hierarchy: Hierarchy) -> np.ndarray:
    """A nominal column with a hierarchy: its levels one-hot encoded so that the squared
    distance is the hierarchy's (:meth:`engine.recoding.Hierarchy.encode`: 1 per level
    climbed to the common one), plus an indicator that puts a missing value as far from
    every value as two values that share nothing."""
    block = hierarchy.encode(series)
    missing = series.isna().to_numpy()
    if missing.any():
        block = np.column_stack([block, missing * np.sqrt(len(hierarchy.levels) / 2)])
    return block


def encode_qi(
    data: pd.DataFrame,
    qi: Sequence[str],
    types: Mapping[str, ColumnType] | None = None,
    orders: Mapping[str, Sequence[str]] | None = None,
    hierarchies: Mapping[str, Hierarchy] | None = None,
) -> np.ndarray:
    """The QI columns of ``data`` as an (n, d) float array for distances (see module doc);
    a column with a hierarchy is encoded with its distance (:func:`encode_hierarchy`).

    With no QI at all the result is an (n, 1) array of zeros: every record is alike.
    """
    if not qi:
        return np.zeros((len(data), 1))
    resolved, orders = resolve_columns(data, qi, types, orders)
    hierarchies = hierarchies or {}
    blocks = [
        encode_hierarchy(data[c], hierarchies[c])
        if c in hierarchies
        else encode_column(data[c], resolved[c], orders.get(c))
        for c in qi
    ]
    return np.ascontiguousarray(np.column_stack(blocks), dtype=float)
