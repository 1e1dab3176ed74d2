"""How many buckets: b searched together with the class size (``n_buckets`` None, "auto").

The paper's b = t + 1 (KBS 2015 §6.1) is where one bucket can hold a class's emphasis, not a
utility optimum: any b keeps the guarantee (merging buckets preserves t-closeness) with
classes of at least b records, and about t·b records use the whole allowance.  Finer buckets
keep more of the confidential values and cost QI homogeneity (classes must mix more buckets);
which way the balance tips depends on the data, so b is searched, not fixed.

For every b of a short ladder from the paper's count up, the buckets are formed on the whole
file and two losses measured:

* the **confidential loss** L_conf(b): SSE/SST of the released bucket values (means or
  medians, as released) against the originals, exactly, on every record;
* the **QI loss** L_QI(b): SSE/SST of the QIs of the best t-close partition over the class
  sizes the run would try (:func:`engine.release.sizes.size_candidates`), estimated on a
  fixed random sample of :data:`SEARCH_SAMPLE` records (a sample overstates the loss of the
  whole file, alike for every b).

The search keeps the b with the least

    J(b) = w · L_conf(b) + (1 − w) · L_QI(b),

with w the user's ``utility_weight``.  The default 0.25 weighs a point of QI loss as three
of confidential loss: the QIs carry every breakdown, cross-tabulation and regressor of the
file, the confidential column is one variable; with 0.5, files whose QIs predict the
confidential value (company accounts, say) lost most of their QI information for a finer
confidential column (measured in ``docs/performance.md``).  The rows of the search are the
plan's trade-off curve (:class:`BucketChoice`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.errors import InfeasibleError
from engine.progress import NO_TASK, Task
from engine.release import feasibility
from engine.release.buckets import bucket_count, make_buckets
from engine.release.metrics import confidential_loss, sse_sst
from engine.release.partition import tclose_partition
from engine.release.result import Buckets
from engine.release.sizes import size_candidates
from engine.roles import ColumnType

#: the QI loss of every b is estimated on a random sample of at most this many records
SEARCH_SAMPLE = 2_000
#: the numbers of buckets the search may try (from the paper's count up, about × 1.4)
LADDER = (2, 3, 4, 6, 8, 11, 16, 22, 32, 45)
#: the search stops after this many b (or class sizes) in a row that do worse than the best
PATIENCE = 2
#: the most class sizes partitioned for one b
MAX_SIZES = 3


@dataclass(frozen=True)
class BucketChoice:
    """One point of the trade-off curve between confidential and QI loss."""

    #: the number of buckets asked for
    b: int
    #: the value buckets formed (fewer when the column has fewer distinct values or outer
    #: buckets of outliers merge; the bucket of missing values not counted)
    n_buckets: int
    #: the class size with the least QI loss on the sample
    class_size: int
    #: the smallest class the whole file will have at that size (⌊N / most classes⌋)
    expected_class_size: int
    #: QI SSE/SST of the best partition of the sample (None: no partition of the sample)
    qi_loss: float | None
    #: confidential SSE/SST of the released values, over the whole file
    confidential_loss: float
    #: w · confidential_loss + (1 − w) · qi_loss (None without a QI loss)
    score: float | None
    chosen: bool = False


def ladder(t: float, k: int, n: int) -> list[int]:
    """The b the search tries: the paper's count (at most k), then :data:`LADDER` up to √(N/2).

    Classes hold at least b records and at least two classes must remain, so b² ≤ N/2.
    """
    start = bucket_count(t, k)
    top = max(start, min(LADDER[-1], math.isqrt(max(n // 2, 1))))
    return sorted({start, *(b for b in LADDER if start < b <= top)})


def search_buckets(
    clean: pd.DataFrame,
    confidential: Sequence[str],
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
    X: np.ndarray,
    *,
    t: float,
    k: int,
    weight: float,
    output: str,
    joint: bool = True,
    bounds: Mapping[str, tuple[float, float]] | None = None,
    task: Task = NO_TASK,
) -> tuple[Buckets, list[BucketChoice]]:
    """The buckets of the b with the least J(b) (module doc), and every b's row."""
    n = len(clean)
    sample = np.arange(n)
    if n > SEARCH_SAMPLE:
        sample = np.sort(np.random.default_rng(0).choice(n, SEARCH_SAMPLE, replace=False))
    Xs = X[sample]
    rows: list[tuple[BucketChoice, Buckets]] = []
    best_score = math.inf
    worse = 0
    formed_before = -1
    candidates = ladder(t, k, n)
    for i, b in enumerate(candidates):
        task.step(i / len(candidates), f"Trying {b} buckets")
        buckets = make_buckets(
            clean, confidential, types, b, joint=joint, orders=orders, bounds=bounds
        )
        formed = len(buckets.counts) - (buckets.missing_bucket is not None)
        if formed <= formed_before:
            break  # the values allow no finer buckets
        formed_before = formed
        conf_loss, _ = confidential_loss(clean, buckets, types, output)
        size, qi_loss = _qi_loss(Xs, buckets, sample, k, t, task.silent())
        score = None if qi_loss is None else weight * conf_loss + (1 - weight) * qi_loss
        most = feasibility.max_classes(buckets.counts, t, size)
        row = BucketChoice(
            b=b,
            n_buckets=formed,
            class_size=size,
            expected_class_size=n // most if most else n,
            qi_loss=qi_loss,
            confidential_loss=conf_loss,
            score=score,
        )
        rows.append((row, buckets))
        if score is not None and score < best_score - 1e-12:
            best_score, worse = score, 0
        else:
            worse += 1
            if worse >= PATIENCE:
                break
    scored = [i for i, (row, _) in enumerate(rows) if row.score is not None]
    pick = min(scored, key=lambda i: (rows[i][0].score, i)) if scored else 0
    choices = [
        BucketChoice(**{**row.__dict__, "chosen": i == pick}) for i, (row, _) in enumerate(rows)
    ]
    task.step(1.0, "Buckets chosen")
    return rows[pick][1], choices


def _qi_loss(
    Xs: np.ndarray,
    buckets: Buckets,
    sample: np.ndarray,
    k: int,
    t: float,
    task: Task,
) -> tuple[int, float | None]:
    """(best class size, its QI SSE/SST) on the sample, over the sizes a run would try.

    Sizes that leave the sample the same number of classes give the same partition, so each
    number of classes is partitioned once, smallest size first, at most :data:`MAX_SIZES`,
    stopping after :data:`PATIENCE` in a row that lose more than the best.
    """
    shares = buckets.shares
    codes = buckets.codes[sample]
    counts = np.bincount(codes, minlength=len(shares))
    if Xs.shape[1] == 0:  # no QI: nothing to lose there
        return k, 0.0
    best: tuple[int, float | None] = (k, None)
    seen: set[int] = set()
    worse = 0
    for size in size_candidates(buckets.counts, k, t):
        if size > len(codes) or worse >= PATIENCE or len(seen) >= MAX_SIZES:
            break
        n_classes = feasibility.max_classes(counts, t, size, shares)
        if n_classes == 0 or n_classes in seen:
            continue
        seen.add(n_classes)
        try:
            labels = tclose_partition(Xs, codes, size, t, shares=shares, task=task)
        except InfeasibleError:  # the sample's bucket mix can stray from the file's
            continue
        loss = sse_sst(Xs, labels)
        if best[1] is None or loss < best[1] - 1e-12:
            best, worse = (size, loss), 0
        else:
            worse += 1
    return best


__all__ = ["LADDER", "SEARCH_SAMPLE", "BucketChoice", "ladder", "search_buckets"]
