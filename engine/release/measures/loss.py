"""Information loss and the other numbers every run reports.

* QI loss: SSE/SST in the standardised QI space of
  :func:`engine.release.columns.encode.encode_qi` (the microaggregation literature's
  100·SSE/SST without the 100): the within-class sum of squared distances to the class
  centroid over the total sum of squares (:func:`sse_sst`, and :class:`QiSums` for a file
  summed part by part).
* Confidential distortion: SSE/SST of the bucket representative against the original value,
  numeric columns on their own scale; for nominal columns a record counts 1 when its
  representative differs from its value, against the records that differ from the mode.
* Class sizes, and per numeric confidential column the mean, variance and correlation with
  the original that the released values keep.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from engine.release.columns import numeric_values
from engine.release.model import Buckets
from engine.release.verify import group_ids
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


@dataclass
class QiSums:
    """What the QI loss needs of the encoded QIs: per class its size and Σx, and Σ|x|², Σx
    over all records.

    The loss of the *released file* is measured on its equivalence classes, the groups of
    identical released QI values, where classes whose released values coincide have merged
    (:meth:`merged`); the sums let a route free the encoded QIs before the release table
    exists, and add up across the partitions of a cluster.
    """

    sizes: np.ndarray
    sums: np.ndarray
    sq: float
    total: np.ndarray

    @classmethod
    def of(cls, X: np.ndarray, classes: np.ndarray) -> QiSums:
        X = np.asarray(X, dtype=float).reshape(len(classes), -1)
        m = int(classes.max()) + 1 if len(classes) else 0
        sizes = np.bincount(classes, minlength=m)
        sums = np.zeros((m, X.shape[1]))
        for j in range(X.shape[1]):
            sums[:, j] = np.bincount(classes, weights=X[:, j], minlength=m)
        sq = sum(float((X[lo : lo + _CHUNK] ** 2).sum()) for lo in range(0, len(X), _CHUNK))
        return cls(sizes, sums, sq, X.sum(axis=0))

    def merged(self, groups: np.ndarray) -> QiSums:
        """The sums of the groups ``groups[c]`` of the classes c (classes merged in a release)."""
        groups = np.asarray(groups, dtype=np.int64)
        m = int(groups.max()) + 1 if len(groups) else 0
        sums = np.zeros((m, self.sums.shape[1]))
        for j in range(self.sums.shape[1]):
            sums[:, j] = np.bincount(groups, weights=self.sums[:, j], minlength=m)
        return QiSums(np.bincount(groups, weights=self.sizes, minlength=m), sums, self.sq,
                      self.total)  # fmt: skip

    @property
    def n(self) -> int:
        return int(self.sizes.sum())

    def between(self) -> float:
        """Σ over classes of |Σx|² / size: SSE = Σ|x|² − this."""
        keep = self.sizes > 0
        return float(((self.sums[keep] ** 2).sum(axis=1) / self.sizes[keep]).sum())

    def sst(self) -> float:
        n = self.n
        return self.sq - float((self.total**2).sum()) / n if n else 0.0

    def loss(self) -> float:
        """SSE/SST (0 when SST is 0), as :func:`sse_sst` of the same classes."""
        sst = self.sst()
        return max(self.sq - self.between(), 0.0) / sst if sst > 0 else 0.0


def released_classes(table: pd.DataFrame, qi: Sequence[str], classes: np.ndarray) -> np.ndarray:
    """Per class of the partition, its equivalence class in the released ``table``.

    ``classes`` is the partition class of every row of ``table`` (in the table's order);
    classes whose released QI values coincide (an empty cell is a value) share one number.
    """
    groups = group_ids(table, qi)
    out = np.zeros(int(classes.max()) + 1 if len(classes) else 0, dtype=np.int64)
    out[classes] = groups
    return out


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


def released_values(buckets: Buckets, output: str) -> dict[str, pd.Series]:
    """Per confidential column, the value each record is released as (aligned with the input).

    ``"mean"`` and ``"median"`` as released; a ``"label"`` release is measured at the bucket
    medians (its text has no number of its own).
    """
    released = buckets.released(output)
    out = {}
    for i, col in enumerate(buckets.columns):
        per_bucket = pd.Series([r[i] for r in released], dtype=object)
        # numbers as a numeric column (converted once per bucket, not once per record)
        numeric = pd.to_numeric(per_bucket, errors="coerce")
        if numeric.notna().sum() == per_bucket.notna().sum():
            per_bucket = numeric
        out[col] = per_bucket.iloc[buckets.codes].reset_index(drop=True)
    return out


def confidential_loss(
    data: pd.DataFrame,
    buckets: Buckets,
    types: Mapping[str, ColumnType],
    output: str = "mean",
    *,
    detail: bool = True,
) -> tuple[float, dict[str, dict[str, float]]]:
    """(overall SSE/SST, per-column statistics) of released versus original values.

    The released values are those of ``output`` (:func:`released_values`).  Without
    ``detail`` the statistics hold SSE/SST only (what the search of b compares, for every b).
    """
    sse_total = sst_total = 0.0
    columns: dict[str, dict[str, float]] = {}
    released = buckets.released(output)
    codes = buckets.codes
    for i, col in enumerate(buckets.columns):
        ctype = types[col]
        # each bucket's value once, then every record's by its bucket (as released_values)
        per_bucket = pd.Series([r[i] for r in released], dtype=object)
        original = data[col].reset_index(drop=True)
        mask = original.notna().to_numpy() & per_bucket.notna().to_numpy()[codes]
        if not mask.any():
            continue
        inside = codes[mask]
        if ctype in (ColumnType.NUMERIC, ColumnType.DATE):
            x = numeric_values(original[mask], ctype)
            y = numeric_values(per_bucket, ctype)[inside]
            sse = float(((x - y) ** 2).sum())
            sst = float(((x - x.mean()) ** 2).sum())
            if not detail:
                columns[col] = {"sse_sst": sse / sst if sst > 0 else 0.0}
                sse_total += sse / sst if sst > 0 else 0.0
                sst_total += 1.0 if sst > 0 else 0.0
                continue
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
            y = per_bucket.astype(str).to_numpy()[inside]
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


def counted_loss(values: np.ndarray, counts: np.ndarray, released: np.ndarray) -> float:
    """SSE/SST of ``released`` against ``values``, each pair held ``counts`` times: the
    confidential loss of one numeric column (:func:`confidential_loss` without ``detail``)
    from its table of distinct values, which the search of b measures for every b tried
    without a pass over the records (0 when SST is 0)."""
    values = np.asarray(values, dtype=float)
    counts = np.asarray(counts, dtype=float)
    known = ~np.isnan(released)
    if not known.any():
        return 0.0
    x, w, y = values[known], counts[known], np.asarray(released, dtype=float)[known]
    # numpy's pairwise sums (not a BLAS dot product: the same figures on every machine)
    sse = float((w * (x - y) ** 2).sum())
    sst = float((w * (x - float((w * x).sum()) / w.sum()) ** 2).sum())
    return sse / sst if sst > 0 else 0.0
