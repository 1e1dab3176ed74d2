"""The QI encoding of :func:`engine.release.columns.encode.encode_qi`, partition by partition.

``encode_qi`` standardises with the column's own mean and standard deviation and one-hot
encodes with the column's own categories; a partition sees only part of a column.  So a
first pass gathers per partition what those need (count, mean and sum of squared deviations,
merged exactly by Chan's formula; the categories; the decimals), :func:`make_spec` turns them
into one :class:`Spec`, and :func:`encode_part` encodes any partition with it.  On a whole
file ``encode_part(data, make_spec([column_stats(data, …)]))`` equals ``encode_qi(data, …)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from engine.release import category_order, decimals, numeric_values, ordinal_ranks
from engine.roles import ColumnType

_NOMINAL_SCALE = 1.0 / np.sqrt(2.0)
_MISSING = "\x00missing"


@dataclass
class Moments:
    """Count, mean and sum of squared deviations of the present values; missing count."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0
    missing: int = 0

    @classmethod
    def of(cls, values: np.ndarray) -> Moments:
        miss = np.isnan(values)
        present = values[~miss]
        if present.size == 0:
            return cls(0, 0.0, 0.0, int(miss.sum()))
        mean = float(present.mean())
        return cls(int(present.size), mean, float(((present - mean) ** 2).sum()), int(miss.sum()))

    def merge(self, other: Moments) -> Moments:
        n = self.n + other.n
        if n == 0:
            return Moments(0, 0.0, 0.0, self.missing + other.missing)
        delta = other.mean - self.mean
        mean = self.mean + delta * other.n / n
        m2 = self.m2 + other.m2 + delta * delta * self.n * other.n / n
        return Moments(n, mean, m2, self.missing + other.missing)

    @property
    def std(self) -> float:
        return float(np.sqrt(self.m2 / self.n)) if self.n else 0.0


@dataclass
class ColumnStats:
    """What one partition says about one QI column."""

    moments: Moments | None = None
    #: nominal: distinct texts (missing as a value); ordinal: distinct present values
    values: set = field(default_factory=set)
    places: int = 0


def column_stats(
    data: pd.DataFrame,
    qi: Sequence[str],
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
) -> dict[str, ColumnStats]:
    """Per QI column of one partition: moments (numeric, date), values (nominal, ordinal)."""
    out: dict[str, ColumnStats] = {}
    for col in qi:
        ctype = types[col]
        series = data[col]
        if ctype in (ColumnType.NUMERIC, ColumnType.DATE):
            values = numeric_values(series, ctype)
            places = decimals(series) if ctype == ColumnType.NUMERIC else 0
            out[col] = ColumnStats(Moments.of(values), places=places)
        elif ctype == ColumnType.ORDINAL:
            out[col] = ColumnStats(values=set(pd.unique(series.dropna())))
        else:
            text = series.astype("string").fillna(_MISSING)
            out[col] = ColumnStats(values=set(pd.unique(text)))
    return out


@dataclass
class Spec:
    """How to encode every QI column, from the whole file's statistics."""

    qi: tuple[str, ...]
    types: dict[str, ColumnType]
    #: numeric/date/ordinal: (mean, std, any missing, all missing) of the values (ordinal:
    #: of the ranks) in the whole file
    scale: dict[str, tuple[float, float, bool, bool]]
    #: nominal: sorted categories; ordinal: the category order
    categories: dict[str, list[Any]]
    #: numeric: decimals the column is recorded with (the release rounds centroids to them)
    places: dict[str, int]

    def runs(self) -> tuple[tuple[int, int], ...]:
        """The column ranges of the nominal QIs of two or more categories in
        :func:`encode_part`'s matrix: what :func:`engine.release.nominal_runs` finds in the
        whole file's, so that the cluster splits a nominal QI as one machine does."""
        runs: list[tuple[int, int]] = []
        at = 0
        for col in self.qi:
            if self.types[col] in (ColumnType.NUMERIC, ColumnType.DATE, ColumnType.ORDINAL):
                _, _, has_missing, all_missing = self.scale[col]
                at += 1 if all_missing else 1 + int(has_missing)
                continue
            width = len(self.categories[col])
            if width > 1:
                runs.append((at, at + width))
            at += max(width, 1)
        return tuple(runs)


def make_spec(
    parts: Sequence[dict[str, ColumnStats]],
    qi: Sequence[str],
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
    ordinal_moments: Mapping[str, Moments] | None = None,
) -> Spec:
    """One encoding for the file from every partition's :func:`column_stats`.

    Ordinal columns need two passes (the ranks depend on the whole order): pass their rank
    moments as ``ordinal_moments`` once the order is known (:func:`ordinal_order` first).
    """
    scale: dict[str, tuple[float, float, bool, bool]] = {}
    categories: dict[str, list[Any]] = {}
    places: dict[str, int] = {}
    for col in qi:
        ctype = types[col]
        if ctype in (ColumnType.NUMERIC, ColumnType.DATE):
            m = Moments()
            for part in parts:
                m = m.merge(part[col].moments or Moments())
            scale[col] = (m.mean, m.std, m.missing > 0, m.n == 0)
            places[col] = max((part[col].places for part in parts), default=0)
        elif ctype == ColumnType.ORDINAL:
            categories[col] = ordinal_order(parts, col, orders.get(col))
            m = (ordinal_moments or {}).get(col, Moments())
            scale[col] = (m.mean, m.std, m.missing > 0, m.n == 0)
        else:
            values = set().union(*(part[col].values for part in parts))
            categories[col] = sorted(values)
    return Spec(tuple(qi), dict(types), scale, categories, places)


def ordinal_order(
    parts: Sequence[dict[str, ColumnStats]], col: str, order: Sequence[str] | None
) -> list[Any]:
    """The category order of an ordinal column from every partition's values."""
    values = set().union(*(part[col].values for part in parts))
    return category_order(pd.Series(sorted(values, key=str), dtype=object, name=col), order)


def ordinal_rank_moments(data: pd.DataFrame, col: str, order: Sequence[Any]) -> Moments:
    """Moments of an ordinal column's ranks in one partition (second pass)."""
    return Moments.of(ordinal_ranks(data[col], [str(c) for c in order]))


def _standardise(
    values: np.ndarray, mean: float, std: float, has_missing: bool, all_missing: bool
) -> np.ndarray:
    """encode.py's z-scores with the whole file's mean, std and missingness."""
    miss = np.isnan(values)
    if all_missing:
        return miss.astype(float)[:, None]
    z = np.where(miss, 0.0, (values - mean) / std if std > 0 else 0.0)
    cols = [z]
    if has_missing:
        cols.append(miss.astype(float))
    return np.column_stack(cols)


def encode_part(data: pd.DataFrame, spec: Spec) -> np.ndarray:
    """The QI columns of one partition as encode_qi would encode them in the whole file."""
    if not spec.qi:
        return np.zeros((len(data), 1))
    blocks = []
    for col in spec.qi:
        ctype = spec.types[col]
        series = data[col]
        if ctype in (ColumnType.NUMERIC, ColumnType.DATE):
            blocks.append(_standardise(numeric_values(series, ctype), *spec.scale[col]))
        elif ctype == ColumnType.ORDINAL:
            order = [str(c) for c in spec.categories[col]]
            blocks.append(_standardise(ordinal_ranks(series, order), *spec.scale[col]))
        else:
            cats = spec.categories[col]
            if len(cats) <= 1:
                blocks.append(np.zeros((len(series), 1)))
                continue
            text = series.astype("string").fillna(_MISSING)
            codes = pd.Categorical(text, categories=cats).codes
            onehot = np.zeros((len(series), len(cats)))
            onehot[np.arange(len(series)), codes] = _NOMINAL_SCALE
            blocks.append(onehot)
    return np.ascontiguousarray(np.column_stack(blocks), dtype=float)
