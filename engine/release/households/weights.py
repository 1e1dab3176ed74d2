"""Sampling weights: read and check them, and keep weighted totals through a release.

A survey record stands for ``weight`` people of the population (the inverse of its inclusion
probability, adjusted for non-response).  tclose uses weights for two things:

* **the disclosure risk** (:mod:`engine.release.measures.risk`): a combination of QI values that
  occurs once in the sample is far less risky when it stands for 500 people than for 1;
* **weighted totals**: analysts estimate population totals as Σ wᵢ·yᵢ.  The released mean of
  a bucket is therefore the *weighted* mean Σ wᵢ·yᵢ / Σ wᵢ over the bucket's records, so that
  Σ wᵢ · (released value)ᵢ = Σ wᵢ·yᵢ for every confidential column, up to the rounding of the
  means and wherever the p%-rule withholds a mean (:func:`weighted_bucket_means`).

The weights themselves are released unchanged by default: dropping them would make every
estimate from the release wrong.  They can reveal the sampling stratum (a region sampled at
another rate has other weights); ``weight_output="none"`` leaves them out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import InputError
from engine.i18n import _
from engine.params import MAX_MAGNITUDE
from engine.release.buckets import MEAN_SLACK, Scale, dominated
from engine.release.columns import numeric_values
from engine.release.model import Buckets
from engine.roles import ColumnType


def read_weights(series: pd.Series, rows: np.ndarray | None = None) -> np.ndarray:
    """The weights of a column as floats, refused unless every one is a number > 0.

    ``rows`` are the input positions of the values (None: 0..n−1); the message names the
    first bad record by its number in the input (the first data row is record 1).
    """
    values = pd.to_numeric(series.reset_index(drop=True), errors="coerce").to_numpy(
        dtype=np.float64, na_value=np.nan
    )
    bad = ~np.isfinite(values) | (values <= 0) | (values > MAX_MAGNITUDE)
    if bad.any():
        first = int(np.argmax(bad))
        record = (int(rows[first]) if rows is not None else first) + 1
        raw = series.iloc[first]
        shown = _("an empty cell") if pd.isna(raw) else repr(raw if isinstance(raw, str) else
                                                          _plain(raw))  # fmt: skip
        raise InputError(
            _(
                "Weight column {column}: record {record:,} holds {shown}; every weight must "
                "be a number > 0 ({bad:,} record(s) are not)."
            ).format(column=repr(series.name), record=record, shown=shown, bad=int(bad.sum()))
        )
    return values


def _plain(value: Any) -> Any:
    value = value.item() if isinstance(value, np.generic) else value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def weighted_bucket_means(
    buckets: Buckets,
    data: pd.DataFrame,
    weights: np.ndarray,
    types: Mapping[str, ColumnType],
    bounds: Mapping[str, tuple[float, float]] | None = None,
) -> Buckets:
    """``buckets`` whose released means are weighted: Σ wᵢ·yᵢ / Σ wᵢ over each bucket.

    Numeric columns only (a category column releases its mode or median category).  A mean
    beyond the central 99 % is held inside it exactly as the unweighted one
    (:class:`engine.release.Scale`); it is withheld (the median released) when one or
    two records dominate the bucket's sum or its weighted sum (the p%-rule on wᵢ·yᵢ too: a
    record with a large weight and a large value would otherwise show through).  It is
    rounded to :func:`mean_step`: as coarse as one record can move it, so that it tells no
    one's value, and no coarser, so that the weighted total survives (a count column's mean
    of 2.27 released as 2 would lose an eighth of its total).
    """
    if buckets.stats is None:
        return buckets
    columns = list(buckets.columns)
    scales = {}
    for col in columns:
        if types[col] != ColumnType.NUMERIC:
            continue
        public = (bounds or {}).get(col)
        keys = numeric_values(data[col], ColumnType.NUMERIC)
        scales[col] = (Scale.of(keys, False, public), keys)
    if not scales:
        return buckets
    stats = []
    for j, per_column in enumerate(buckets.stats):
        members = buckets.codes == j
        row = []
        for i, stat in enumerate(per_column):
            col = columns[i]
            if stat is None or col not in scales or stat.dominated:
                row.append(stat)
                continue
            scale, keys = scales[col]
            y, w = keys[members], weights[members]
            present = ~np.isnan(y)
            y, w = y[present], w[present]
            if not len(y):
                row.append(stat)
                continue
            base = float(y.min())
            if dominated(np.maximum(y - base, 0.0) * w):
                row.append(replace(stat, mean=stat.median, dominated=True))
                continue
            mean = held_mean(scale, float(np.dot(w, y) / w.sum()))
            step = mean_step(float(w.max() / w.sum()) * float(np.ptp(y)))
            if step:
                mean = round(round(mean / step) * step, max(0, -math.floor(math.log10(step))))
            row.append(replace(stat, mean=int(mean) if float(mean).is_integer() else mean))
        stats.append(tuple(row))
    return replace(buckets, stats=stats)


def held_mean(scale: Scale, value: float) -> float:
    """A bucket mean held inside the central 99 % (by :data:`MEAN_SLACK` of its width)."""
    slack = MEAN_SLACK * (scale.inner[1] - scale.inner[0])
    if not scale.inner[0] - slack <= value <= scale.inner[1] + slack:
        return float(np.clip(value, *scale.mean_limits))
    return value


def mean_step(influence: float) -> float:
    """The smallest number of the 1–2–5 series at least ``influence`` (0 for 0): the most
    one record can move a bucket mean, max wᵢ · (range of the bucket) / Σ w."""
    if not influence > 0:
        return 0.0
    exponent = math.floor(math.log10(influence))
    for mantissa in (1, 2, 5, 10):
        step = mantissa * 10.0**exponent
        if step >= influence * (1 - 1e-12):
            return float(f"{step:.12g}")
    return 10.0 ** (exponent + 1)


def weighted_totals(
    original: pd.DataFrame,
    released: pd.DataFrame,
    columns: Sequence[str],
    weights: np.ndarray,
    types: Mapping[str, ColumnType],
) -> dict[str, dict[str, float | None]]:
    """Per numeric column: Σ wᵢ·yᵢ of the original and of the released values, and their
    relative difference (records whose value is missing on either side left out)."""
    out: dict[str, dict[str, float | None]] = {}
    for col in columns:
        if types.get(col) != ColumnType.NUMERIC or col not in released.columns:
            continue
        y = numeric_values(original[col], ColumnType.NUMERIC)
        r = pd.to_numeric(released[col], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        both = ~np.isnan(y) & ~np.isnan(r)
        before = float(np.dot(weights[both], y[both]))
        after = float(np.dot(weights[both], r[both]))
        rel = abs(after - before) / abs(before) if before else None
        out[col] = {"original": before, "released": after, "relative_error": rel}
    return out


__all__ = ["read_weights", "weighted_bucket_means", "weighted_totals"]
