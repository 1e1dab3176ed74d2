"""Sampling weights: read and check them, release them, and keep weighted totals.

A survey record stands for ``weight`` people of the population (the inverse of its inclusion
probability, adjusted for non-response).  tclose uses weights for three things:

* **the disclosure risk** (:mod:`engine.release.measures.risk`): a combination of QI values that
  occurs once in the sample is far less risky when it stands for 500 people than for 1;
* **the released weight**: a weight is a key like any QI, since weights reveal the sampling
  stratum (a region sampled at another rate has other weights), and a weight of its own
  picks a record out of its class.  By default every record carries its class's mean weight
  (:func:`class_weights`): the weight never splits a class, and every class's sum of weights,
  the population it stands for, is kept.  ``weight_output="keep"`` releases the weights
  unchanged (the run then reports the k and t the release has with the weight as a key),
  ``"none"`` leaves them out;
* **weighted totals**: analysts estimate population totals as Σ wᵢ·yᵢ.  The released mean of
  a bucket is therefore the *weighted* mean Σ wᵢ·yᵢ / Σ wᵢ over the bucket's records, with the
  weights the release carries, so that Σ wᵢ · (released value)ᵢ = Σ wᵢ·yᵢ for every
  confidential column, up to the rounding of the means and wherever the p%-rule withholds a
  mean (:func:`weighted_bucket_means`); :func:`weighted_totals` measures what is left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np
import pandas as pd

from engine.release.buckets import Scale, dominated
from engine.release.columns import decimal_places, numeric_values
from engine.release.model import Buckets
from engine.roles import ColumnType


def weighted_bucket_means(
    buckets: Buckets,
    data: pd.DataFrame,
    weights: np.ndarray,
    types: Mapping[str, ColumnType],
    bounds: Mapping[str, tuple[float, float]] | None = None,
) -> Buckets:
    """``buckets`` whose released means are weighted: Σ wᵢ·yᵢ / Σ wᵢ over each bucket.

    Numeric columns only (a category column releases its mode or median category).  Each
    value counts within the bucket's public range as for the unweighted mean
    (:attr:`BucketStat.limits`), and the mean is held inside the central 99 % and rounded
    to a step one record cannot cross, from that public range and the largest share of the
    bucket's weight one record holds (:meth:`engine.release.Scale.weighted_mean`): never
    from the bucket's own values, and without floating-point residue.  It is withheld (the
    median released) when one or two records dominate the bucket's sum or its weighted sum
    (the p%-rule on wᵢ·yᵢ too: a record with a large weight and a large value would
    otherwise show through).
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
    weights = np.asarray(weights, dtype=np.float64)
    order = np.argsort(buckets.codes, kind="stable")
    starts = np.searchsorted(buckets.codes[order], np.arange(len(buckets.stats) + 1))
    stats = []
    for j, per_column in enumerate(buckets.stats):
        members = order[starts[j] : starts[j + 1]]
        row = []
        for i, stat in enumerate(per_column):
            col = columns[i]
            if stat is None or col not in scales or stat.dominated or stat.limits is None:
                row.append(stat)
                continue
            scale, keys = scales[col]
            y, w = keys[members], weights[members]
            present = ~np.isnan(y)
            y, w = y[present], w[present]
            if not len(y):
                row.append(stat)
                continue
            low = stat.limits[0]
            if dominated(np.maximum(np.clip(y, *stat.limits) - low, 0.0) * w):
                row.append(replace(stat, mean=stat.median, dominated=True))
                continue
            mean = scale.weighted_mean(y, w, stat.limits)
            if not stat.limits[0] <= float(mean) <= stat.limits[1]:
                # one record holds so much of the bucket's weight that no step it cannot
                # cross falls inside the bucket: its mean would tell that record
                row.append(replace(stat, mean=stat.median, dominated=True))
                continue
            row.append(replace(stat, mean=mean))
        stats.append(tuple(row))
    return replace(buckets, stats=stats)


def class_weights(weights: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """The weight every record is released with (``weight_output="class"``): its class's
    mean weight, one value per class, so that the weight never splits a class.

    Σ wᵢ over every class (the estimated population of the class) is kept: the mean is
    rounded to the weights' own decimals plus the digits of the largest class, so that the
    class's size times its released weight gives its sum of weights back to the weights'
    own precision; printed without floating-point residue.
    """
    weights = np.asarray(weights, dtype=np.float64)
    classes = np.asarray(classes, dtype=np.int64)
    if not len(weights):
        return weights.copy()
    sizes = np.bincount(classes)
    sums = np.bincount(classes, weights=weights)
    means = sums / np.maximum(sizes, 1)
    places = decimal_places(weights) + len(str(int(sizes.max())))
    released = np.array([float(f"{m:.{places}f}") for m in means])
    return released[classes]


def weighted_totals(
    original: pd.DataFrame,
    released: pd.DataFrame,
    columns: Sequence[str],
    weights: np.ndarray,
    types: Mapping[str, ColumnType],
    released_weights: np.ndarray | None = None,
) -> dict[str, dict[str, float | None]]:
    """Per numeric column: the weighted total an analyst estimates from the original records,
    Σ wᵢ·yᵢ, and from the release, Σ w'ᵢ·rᵢ (``released_weights`` w': the weights the release
    carries, its class means; the original weights when it carries them unchanged or none),
    and their relative difference (records whose value is missing on either side left out).

    ``released`` is aligned with ``original`` (record by record).  With class weights a
    column's total moves by the covariance of weight and value within the classes: this is
    what it costs (review record).
    """
    out: dict[str, dict[str, float | None]] = {}
    after_w = weights if released_weights is None else released_weights
    for col in columns:
        if types.get(col) != ColumnType.NUMERIC or col not in released.columns:
            continue
        y = numeric_values(original[col], ColumnType.NUMERIC)
        r = pd.to_numeric(released[col], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        both = ~np.isnan(y) & ~np.isnan(r)
        before = float(np.dot(weights[both], y[both]))
        after = float(np.dot(after_w[both], r[both]))
        rel = abs(after - before) / abs(before) if before else None
        out[col] = {"original": before, "released": after, "relative_error": rel}
    return out


__all__ = [
    "class_weights",
    "weighted_bucket_means",
    "weighted_totals",
]
