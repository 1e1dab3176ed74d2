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

from engine.checks import check_type
from engine.errors import InputError, listing, quoted
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
                ).format(column=quoted(series.name), values=", ".join(unknown[:5]))
            )
        by_text = {str(v): v for v in values}
        return [by_text.get(str(o), o) for o in order]
    return sorted(values, key=_natural_key)


def ordinal_ranks(series: pd.Series, order: Sequence[str] | None = None) -> np.ndarray:
    """Rank (0, 1, …) of every value in the category order; NaN where missing."""
    cats = category_order(series, order)
    out = np.full(len(series), np.nan)
    # each distinct value's rank looked up once (by its text, as the order names it), then
    # every record's by its code: no text is made or compared per record
    codes, uniques = pd.factorize(series)
    rank = {str(c): i for i, c in enumerate(cats)}
    ranks = np.array([rank.get(str(u), -1) for u in uniques], dtype=float)
    present = codes >= 0
    out[present] = ranks[codes[present]]
    return out


def numeric_values(series: pd.Series, ctype: ColumnType) -> np.ndarray:
    """Numbers of a numeric or date column (dates as days since 1970); NaN where missing.

    A value the type cannot read (a text in a numeric column, a number or a text that is no
    date in a date column) is refused by :func:`engine.checks.check_type`, the check every
    route runs: it is a mistake in the data or in the column's type, never something to
    release as missing silently.
    """
    check_type(series, ctype)
    if ctype == ColumnType.DATE:
        dates = pd.to_datetime(series, errors="coerce")
        outside = ~in_date_range(dates)
        if outside.any():
            raise InputError(
                _(
                    "Column {column} holds the date {date}, outside "
                    "1678–2261, the dates tclose computes with; correct it, declare it missing, "
                    "or make the column nominal."
                ).format(column=quoted(series.name), date=series[outside].iloc[0])
            )
        days = (dates - pd.Timestamp("1970-01-01")) / pd.Timedelta(days=1)
        return days.to_numpy(dtype=float, na_value=np.nan)
    return pd.to_numeric(series, errors="coerce").to_numpy(dtype=float, na_value=np.nan)


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


def _column_parts(
    series: pd.Series, ctype: ColumnType, order: Sequence[str] | None = None
) -> tuple[list[np.ndarray], np.ndarray | None, int]:
    """One column of the QI space before it is laid out: (its dense columns; or the
    category code of every record and the number of categories of a nominal column)."""
    if ctype in (ColumnType.NUMERIC, ColumnType.DATE):
        return _standardise(numeric_values(series, ctype)), None, 0
    if ctype == ColumnType.ORDINAL:
        return _standardise(ordinal_ranks(series, order)), None, 0
    codes, uniques = pd.factorize(series.astype("string").fillna("\x00missing"), sort=True)
    if len(uniques) <= 1:
        return [np.zeros(len(series))], None, 0
    return [], codes, len(uniques)


def _width(parts: tuple[list[np.ndarray], np.ndarray | None, int]) -> int:
    dense, codes, n_categories = parts
    return n_categories if codes is not None else len(dense)


def _fill(out: np.ndarray, at: int, parts: tuple[list[np.ndarray], np.ndarray | None, int]) -> None:
    """Write one column's parts into the columns ``at``… of the QI matrix ``out``."""
    dense, codes, _ = parts
    if codes is not None:  # 0/1 indicators scaled by 1/√2
        out[np.arange(len(codes)), at + codes] = _NOMINAL_SCALE
    for j, values in enumerate(dense):
        out[:, at + j] = values


def encode_column(
    series: pd.Series, ctype: ColumnType, order: Sequence[str] | None = None
) -> np.ndarray:
    """One column as a (n, d) float block of the QI space."""
    parts = _column_parts(series, ctype, order)
    out = np.zeros((len(series), _width(parts)))
    _fill(out, 0, parts)
    return out


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

    With no QI at all the result is an (n, 1) array of zeros: every record is alike.  The
    matrix is allocated once and every column written into it: stacking per-column blocks
    held the matrix twice (432 MB more at the peak for a million records with a
    51-category QI).
    """
    if not qi:
        return np.zeros((len(data), 1))
    resolved, orders = resolve_columns(data, qi, types, orders)
    hierarchies = hierarchies or {}
    # the small parts first (codes, z-scores, a hierarchy's levels), then the matrix
    columns = [
        ([*encode_hierarchy(data[c], hierarchies[c]).T], None, 0)
        if c in hierarchies
        else _column_parts(data[c], resolved[c], orders.get(c))
        for c in qi
    ]
    at = 0
    out = np.zeros((len(data), sum(_width(p) for p in columns)))
    for parts in columns:
        _fill(out, at, parts)
        at += _width(parts)
    return out
