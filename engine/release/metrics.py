"""Information loss and the other numbers every run reports.

* QI loss: SSE/SST in the standardised QI space of :func:`engine.release.encode.encode_qi` (the
  microaggregation literature's 100·SSE/SST without the 100): the within-class sum of squared
  distances to the class centroid over the total sum of squares.
* Confidential distortion: SSE/SST of the bucket representative against the original value,
  numeric columns on their own scale; for nominal columns a record counts 1 when its
  representative differs from its value, against the records that differ from the mode.
* Class sizes, and per numeric confidential column the mean, variance and correlation with
  the original that the representatives keep.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from engine.release.encode import numeric_values
from engine.release.result import Buckets
from engine.roles import ColumnType


def sse_sst(X: np.ndarray, classes: np.ndarray) -> float:
    """Within-class SSE over total SST of the rows of X (0 = no loss; 0 when SST is 0)."""
    X = np.asarray(X, dtype=float)
    if len(X) == 0:
        return 0.0
    sizes = np.bincount(classes)
    # one bincount per column: far faster than np.add.at on a million rows
    sums = np.stack(
        [np.bincount(classes, weights=X[:, j], minlength=len(sizes)) for j in range(X.shape[1])],
        axis=1,
    ).reshape(len(sizes), X.shape[1])
    centroids = sums / np.maximum(sizes, 1)[:, None]
    mean = X.mean(axis=0)
    sse = sst = 0.0
    # in chunks: the squared differences of all rows at once took twice the size of X
    for lo in range(0, len(X), _CHUNK):
        part = X[lo : lo + _CHUNK]
        sse += float(((part - centroids[classes[lo : lo + _CHUNK]]) ** 2).sum())
        sst += float(((part - mean) ** 2).sum())
    return sse / sst if sst > 0 else 0.0


#: rows per chunk of the loss sums
_CHUNK = 65_536


def class_size_stats(classes: np.ndarray | None = None, *, sizes=None) -> dict[str, Any]:
    """Number of classes and min/median/mean/max size, plus a size histogram.

    Give the class label of every record (``classes``) or the class sizes (``sizes``, e.g.
    :attr:`Verification.class_sizes`).
    """
    sizes = np.bincount(classes) if sizes is None else np.asarray(sizes)
    sizes = sizes[sizes > 0]
    values, counts = np.unique(sizes, return_counts=True)
    return {
        "n_classes": len(sizes),
        "min": int(sizes.min()),
        "median": float(np.median(sizes)),
        "mean": float(sizes.mean()),
        "max": int(sizes.max()),
        "histogram": {str(int(v)): int(c) for v, c in zip(values, counts, strict=True)},
    }


def confidential_loss(
    data: pd.DataFrame,
    buckets: Buckets,
    types: Mapping[str, ColumnType],
) -> tuple[float, dict[str, dict[str, float]]]:
    """(overall SSE/SST, per-column statistics) of representatives versus original values."""
    sse_total = sst_total = 0.0
    columns: dict[str, dict[str, float]] = {}
    for i, col in enumerate(buckets.columns):
        ctype = types[col]
        reps = pd.Series([r[i] for r in buckets.representatives]).iloc[buckets.codes]
        reps = reps.reset_index(drop=True)
        original = data[col].reset_index(drop=True)
        mask = original.notna().to_numpy() & reps.notna().to_numpy()
        if not mask.any():
            continue
        if ctype in (ColumnType.NUMERIC, ColumnType.DATE):
            x = numeric_values(original[mask], ctype)
            y = numeric_values(reps[mask], ctype)
            sse = float(((x - y) ** 2).sum())
            sst = float(((x - x.mean()) ** 2).sum())
            corr = float(np.corrcoef(x, y)[0, 1]) if x.std() > 0 and y.std() > 0 else 1.0
            columns[col] = {
                "sse_sst": sse / sst if sst > 0 else 0.0,
                "mean_original": float(x.mean()),
                "mean_released": float(y.mean()),
                "variance_original": float(x.var()),
                "variance_released": float(y.var()),
                "correlation": corr,
            }
        else:
            x = original[mask].astype(str).to_numpy()
            y = reps[mask].astype(str).to_numpy()
            sse = float((x != y).sum())
            mode = pd.Series(x).value_counts().index[0]
            sst = float((x != mode).sum())
            columns[col] = {
                "sse_sst": sse / sst if sst > 0 else 0.0,
                "share_changed": float((x != y).mean()),
            }
        sse_total += sse / sst if sst > 0 else 0.0
        sst_total += 1.0 if sst > 0 else 0.0
    overall = sse_total / sst_total if sst_total > 0 else 0.0
    return overall, columns
