"""How many buckets: b searched together with the class size (``n_buckets`` None, "auto").

The paper's b = t + 1 (KBS 2015 §6.1) is where one bucket can hold a class's emphasis, not a
utility optimum: any b keeps the guarantee (merging buckets preserves t-closeness) with
classes of at least b records, and about t·b records use the whole allowance.  Finer buckets
keep more of the confidential values and cost QI homogeneity (classes must mix more buckets);
which way the balance tips depends on the data, so b is searched, not fixed.

For every b of a short ladder from the paper's count up (:func:`ladder`), the buckets are
formed on the whole file and two losses and a regression error measured:

* the **confidential loss** L_conf(b): SSE/SST of the released bucket values (means or
  medians, as released) against the originals, exactly, on every record;
* the **QI loss** L_QI(b): SSE/SST of the QIs of the best t-close partition over the class
  sizes the run would try (:func:`engine.release.size_candidates`), each refined as the
  release's will be (:func:`engine.release.partition.refine_classes`), measured on a
  fixed random sample of :data:`SEARCH_SAMPLE` records and carried to the whole file's
  scale.  A sample is sparser than the file, so its classes are coarser: on the 28,155
  records of a CPS-like wage file the sample's loss is three times the file's.  The loss of
  microaggregation falls as a power of the density of records, so the sample's half is
  partitioned too, and the file's loss is the sample's times (sample / N)^s, s the median
  over the b tried of log₂(loss on the half / loss on the sample) (between 0 and
  :data:`MAX_SLOPE`).  One factor for every b: it changes the balance against the
  confidential loss, never the order of the b by QI loss;
* the **regression error** of that partition (:func:`coefficient_error`): how far the slopes
  of a regression of the released confidential value on the QIs move when the QIs are
  released as their class means, on the same sample.

The search keeps the b with the least

    J(b) = w · L_conf(b) + (1 − w) · L_QI(b),

with w the user's ``utility_weight``, by default 0.5, among the b that an analyst's
regression does not pay for: a QI loss on the sample at most :data:`QI_TOLERANCE` above the
paper's count's (b = t + 1) and a regression error no larger than its (unless w = 1: the
confidential values only).  Finer buckets keep
more of the confidential values, but the larger classes they force move the regression's
coefficients, and on the real files of ``tests/data`` the error of b = t + 1 was the least
of the b tried (``benchmarks/bench_utility.py``; the figures are in
``docs/performance.md``), while a regression of the released outcome on the original QIs
barely moves: the error is the partition's.  The rows of the search are the plan's trade-off
curve (:class:`BucketChoice`), and its best other points are offered as one-click fixes
(:attr:`engine.release.Plan.alternatives`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import InfeasibleError
from engine.i18n import _
from engine.progress import NO_TASK, Task
from engine.release.buckets.buckets import BucketInput, bucket_count
from engine.release.measures import confidential_loss, sse_sst
from engine.release.measures.utility import MIN_GROUP, SKEWED
from engine.release.model import Buckets
from engine.release.partition import (
    TRIAL_PASSES,
    feasibility,
    refine_classes,
    size_candidates,
    tclose_partition,
    trial,
)
from engine.roles import ColumnType

#: the QI loss of every b is estimated on a random sample of at most this many records
SEARCH_SAMPLE = 2_000
#: the numbers of buckets the search may try (from the paper's count up, about × 1.4)
LADDER = (2, 3, 4, 6, 8, 11, 16, 22, 32, 45)
#: the search stops after this many b (or class sizes) in a row that do worse than the best
PATIENCE = 2
#: the most class sizes partitioned for one b
MAX_SIZES = 3
#: the largest slope of the QI loss in the number of records (2/d for d QI dimensions)
MAX_SLOPE = 1.0
#: points of the curve a plan offers (the chosen one and the next best)
ALTERNATIVES = 3
#: a b may be chosen when its QI loss on the sample is at most this share above the paper's
#: count's (module doc: the analyst's regression pays for finer buckets)
QI_TOLERANCE = 0.05


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
    #: the whole file's QI SSE/SST at that b, estimated from the sample's (None: no partition
    #: of the sample)
    qi_loss: float | None
    #: confidential SSE/SST of the released values, over the whole file
    confidential_loss: float
    #: w · confidential_loss + (1 − w) · qi_loss (None without a QI loss)
    score: float | None
    chosen: bool = False
    #: QI SSE/SST of the best partition of the search sample, as measured
    qi_loss_sample: float | None = None
    #: the sample's regression error at that b (:func:`coefficient_error`; None: no numeric
    #: confidential value or too few records to fit)
    coefficient_error: float | None = None


class ConfidentialValues:
    """What the plan reads of the confidential values: the same questions on every route.

    One machine answers from the cleaned columns (:class:`FrameValues`); a cluster from the
    summed value counts of its partitions (:class:`engine.distributed.buckets.CountedValues`),
    whose buckets are those of one machine by construction.  So the search of b, the warnings
    and the feasibility of a plan are one piece of code whichever route runs the release.
    """

    #: records (with a missing confidential value when those form a bucket)
    n: int

    def buckets(self, b: int) -> Buckets:
        """The buckets of b asked for, on the whole file (cached: the search asks again)."""
        raise NotImplementedError

    def candidate(self, b: int) -> Buckets:
        """The buckets of b as the search weighs them (counts, labels, statistics); their
        records' codes may be left out, :meth:`codes_at` and :meth:`loss` answer for them.
        The whole file's codes are made for the b chosen only (:meth:`buckets`)."""
        return self.buckets(b)

    def codes_at(self, buckets: Buckets, rows: np.ndarray) -> np.ndarray:
        """The bucket of the records at positions ``rows`` (file order)."""
        raise NotImplementedError

    def loss(self, buckets: Buckets, output: str) -> float:
        """Confidential SSE/SST of the released values (``output``) over the whole file."""
        raise NotImplementedError

    def outside(self, bounds: Mapping[str, tuple[float, float]]) -> dict[str, int]:
        """Per column with public bounds, how many values lie beyond them."""
        raise NotImplementedError

    def distinct(self) -> int | None:
        """How many distinct values (tuples of several columns) the records without a
        missing confidential value hold: no bucketing forms more buckets.  None where the
        route does not count them."""
        return None

    def held(self, b: int) -> bool:
        """Would every bucket of b hold the fewest records a bucket may hold
        (:data:`~engine.release.MIN_BUCKET`)?  False: fewer buckets are formed."""
        raise NotImplementedError


class FrameValues(ConfidentialValues):
    """:class:`ConfidentialValues` of the cleaned columns held in memory (one machine)."""

    def __init__(
        self,
        clean: pd.DataFrame,
        confidential: Sequence[str],
        types: Mapping[str, ColumnType],
        orders: Mapping[str, Sequence[Any]],
        *,
        joint: bool = True,
        bounds: Mapping[str, tuple[float, float]] | None = None,
    ) -> None:
        self.clean, self.confidential, self.types, self.orders = clean, confidential, types, orders
        self.joint, self.bounds = joint, bounds
        self.n = len(clean)
        self._made: dict[int, Buckets] = {}
        self._input: BucketInput | None = None  # what every b reads, made at the first

    def _source(self) -> BucketInput:
        if self._input is None:
            self._input = BucketInput(
                self.clean, self.confidential, self.types,
                orders=self.orders, bounds=self.bounds,
            )  # fmt: skip
        return self._input

    def buckets(self, b: int) -> Buckets:
        if b not in self._made:
            self._made[b] = self._source().buckets(b, joint=self.joint)
        return self._made[b]

    def candidate(self, b: int) -> Buckets:
        if b in self._made:
            return self._made[b]
        made = self._source().candidate(b, joint=self.joint)
        if len(made.codes):  # whole buckets (not made on distinct values): kept for later
            self._made[b] = made
        return made

    def codes_at(self, buckets: Buckets, rows: np.ndarray) -> np.ndarray:
        return self._source().codes_at(buckets, rows)

    def held(self, b: int) -> bool:
        """Would every bucket of b hold the fewest records a bucket may hold?"""
        return self._source().held(b, joint=self.joint)

    def loss(self, buckets: Buckets, output: str) -> float:
        counted = self._source().loss(buckets, output)
        if counted is not None:  # from the table of distinct values
            return counted
        return confidential_loss(self.clean, buckets, self.types, output, detail=False)[0]

    def outside(self, bounds: Mapping[str, tuple[float, float]]) -> dict[str, int]:
        out = {}
        for col, (lo, hi) in bounds.items():
            values = pd.to_numeric(self.clean[col], errors="coerce")
            out[col] = int(((values < lo) | (values > hi)).sum())
        return out

    def distinct(self) -> int | None:
        return len(self.clean[list(self.confidential)].dropna().drop_duplicates())


def search_sample(n: int) -> np.ndarray:
    """Positions of the records the QI loss of every b is estimated on (fixed, seeded with 0:
    the same file gives the same sample on one machine and on a cluster)."""
    if n <= SEARCH_SAMPLE:
        return np.arange(n)
    return np.sort(np.random.default_rng(0).choice(n, SEARCH_SAMPLE, replace=False))


def ladder(t: float, k: int, n: int) -> list[int]:
    """The b the search tries: the paper's count (at most k), then :data:`LADDER` up to the
    smaller of √(N/2) and t·k.

    Classes hold at least b records and at least two classes must remain, so b² ≤ N/2; and a
    class of a finer b than t·k would hold more than t times the k asked (about t·b records
    use the allowance), which no point of confidential detail is worth by default.
    """
    start = bucket_count(t, k)
    top = max(start, min(LADDER[-1], math.isqrt(max(n // 2, 1))))
    # compared as floats: t·k may be infinite (t = 1e308)
    return sorted({start, *(b for b in LADDER if start < b <= top and b <= t * k)})


def search_buckets(
    values: ConfidentialValues,
    Xs: np.ndarray,
    *,
    t: float,
    k: int,
    weight: float,
    output: str,
    qi_loss: Callable[[Buckets], float | None] | None = None,
    qi_limit: float | None = None,
    task: Task = NO_TASK,
) -> tuple[Buckets, list[BucketChoice]]:
    """The buckets of the b with the least J(b) (module doc), and every b's row.

    ``Xs`` are the encoded QIs of the records at :func:`search_sample` (``values.n``).
    ``qi_loss`` measures a route whose classes are formed otherwise (households as units,
    :func:`engine.release.households.pattern_loss`): the QI loss of the buckets, on its own
    sample and at its own scale, with classes of at least k; ``qi_limit`` the QI loss a b
    may reach to be chosen (when none stays within it, the b with the least QI loss).
    """
    n = values.n
    sample = search_sample(n)
    half = np.arange(0, len(sample), 2)  # a nested sample of half the size
    rows: list[tuple[BucketChoice, Buckets]] = []
    slopes: list[float] = []
    best_score = math.inf
    worse = 0
    formed_before = -1
    candidates = ladder(t, k, n)
    reference = bucket_count(t, k)  # the paper's count: the regression's reference
    own_limit = math.inf
    # the regression's guard (module doc), unless the user minds only the confidential values
    guarded = qi_loss is None and weight < 1.0
    if qi_loss is not None:  # households as units: classes of k households, b from 2
        candidates = sorted({2, *candidates})
    for i, b in enumerate(candidates):
        task.step(i / len(candidates), _("Trying {b} buckets").format(b=b))
        buckets = values.candidate(b)
        formed = len(buckets.counts) - (buckets.missing_bucket is not None)
        if formed <= formed_before:
            break  # the values allow no finer buckets
        formed_before = formed
        conf_loss = values.loss(buckets, output)
        codes = values.codes_at(buckets, sample)
        coef = None
        if qi_loss is not None:  # the route reads the whole file's codes of its sample
            whole = buckets if len(buckets.codes) == values.n else values.buckets(b)
            size, measured = k, qi_loss(whole)
        else:
            size, measured, labels = _qi_loss(Xs, buckets, codes, k, t, task.silent())
            if labels is not None:
                coef = coefficient_error(Xs, labels, _released_numbers(buckets, codes, output))
        if qi_loss is None and measured is not None and n > len(sample):
            slope = _slope(Xs[half], codes[half], buckets.shares, size, t, measured)
            if slope is not None:
                slopes.append(slope)
        row = BucketChoice(
            b=b,
            n_buckets=formed,
            class_size=size,
            expected_class_size=_expected_size(buckets.counts, t, size, n),
            qi_loss=measured,
            confidential_loss=conf_loss,
            score=None,
            qi_loss_sample=measured,
            coefficient_error=coef,
        )
        rows.append((row, buckets))
        if qi_limit is not None and measured is not None and measured > qi_limit:
            break  # finer buckets only cost more QI detail: none of them can be chosen
        if b == reference and measured is not None and guarded:
            own_limit = (1.0 + QI_TOLERANCE) * measured
        if measured is not None and measured > own_limit:
            break  # ... nor beyond the paper's count's QI loss and its tolerance
        score = _score(row, weight, _scale(slopes, len(sample), n))
        if score is not None and score < best_score - 1e-12:
            best_score, worse = score, 0
        else:
            worse += 1
            if worse >= PATIENCE:
                break
    # every row on the same scale, from every b's slope
    scale = _scale(slopes, len(sample), n)
    rows = [(_scaled(row, weight, scale), buckets) for row, buckets in rows]
    scored = [i for i, (row, _b) in enumerate(rows) if row.score is not None]
    if qi_limit is not None:
        within = [i for i in scored if (rows[i][0].qi_loss or 0.0) <= qi_limit]
        least = min(scored, key=lambda i: (rows[i][0].qi_loss, i)) if scored else None
        scored = within or ([least] if least is not None else [])
    if guarded:
        scored = [i for i in scored if (rows[i][0].qi_loss_sample or 0.0) <= own_limit]
        scored = _no_worse_regression(rows, scored, reference)
    pick = min(scored, key=lambda i: (rows[i][0].score, i)) if scored else 0
    choices = [
        BucketChoice(**{**row.__dict__, "chosen": i == pick}) for i, (row, _b) in enumerate(rows)
    ]
    task.step(1.0, _("Buckets chosen"))
    # the whole file's codes for the b chosen only
    return values.buckets(choices[pick].b), choices


def _no_worse_regression(
    rows: Sequence[tuple[BucketChoice, Buckets]], scored: list[int], reference: int
) -> list[int]:
    """The rows of ``scored`` whose regression error on the sample is no worse than the
    paper's count's (b = ``reference``): finer buckets keep more of the confidential values,
    and the larger classes they force must not cost the analyst's regression for it.  All of
    them when that b has no error to compare with."""
    ref = next((r.coefficient_error for r, _b in rows if r.b == reference), None)
    if ref is None:
        return scored
    kept = [
        i
        for i in scored
        if rows[i][0].coefficient_error is None or rows[i][0].coefficient_error <= ref + 1e-12
    ]
    return kept or scored


def _released_numbers(buckets: Buckets, codes: np.ndarray, output: str) -> np.ndarray | None:
    """The number each record's confidential value is released as (the first column's; NaN in
    the bucket of missing values), or None when it is not a number."""
    values = []
    for i, row in enumerate(buckets.released(output)):
        if i == buckets.missing_bucket:
            values.append(np.nan)
            continue
        try:
            values.append(float(row[0]))
        except (TypeError, ValueError, IndexError):
            return None
    return np.asarray(values, dtype=np.float64)[codes]


def coefficient_error(Xs: np.ndarray, labels: np.ndarray, y: np.ndarray | None) -> float | None:
    """The median relative error of the slopes of an ordinary least-squares regression of
    ``y`` on the QIs when the QIs are released as their class means (``labels``), against the
    same regression on the QIs themselves.

    The error an analyst's regression of the confidential column on the released QIs shows
    is the partition's (the released QIs with the original outcome give about the same error
    as the release; the released outcome with the original QIs almost none), so the sample's
    encoded QIs and the released value of each record's bucket measure it.  As the review
    record fits it (:func:`engine.release.measures.utility.analysis_utility`): the outcome on
    a log scale when it is positive and skewed; a category's indicator only with at least
    :data:`MIN_GROUP` records on each side, the commonest of a QI the reference (an indicator
    that adds nothing to the ones before it, rarest first, is left out).  None when ``y`` is
    None or too few records have one.
    """
    if y is None:
        return None
    keep = np.isfinite(y)
    if Xs.shape[1] == 0 or keep.sum() <= Xs.shape[1] + 2:
        return None
    X, y, labels = Xs[keep], y[keep], np.unique(labels[keep], return_inverse=True)[1]
    if (y > 0).all() and float(pd.Series(y).skew()) > SKEWED:
        y = np.log(y)
    columns = _design_columns(X)
    if not columns:
        return None
    X = X[:, columns]
    m = int(labels.max()) + 1
    sizes = np.bincount(labels, minlength=m).astype(np.float64)
    means = np.stack([np.bincount(labels, weights=col, minlength=m) for col in X.T], 1)
    ones = np.ones((len(y), 1))
    before = np.linalg.lstsq(np.hstack([ones, X]), y, rcond=None)[0][1:]
    released = (means / sizes[:, None])[labels]
    after = np.linalg.lstsq(np.hstack([ones, released]), y, rcond=None)[0][1:]
    tiny = 1e-9 * float(np.abs(before).max())
    live = np.abs(before) > max(tiny, 1e-300)
    if not live.any():
        return None
    return float(np.median(np.abs(after[live] - before[live]) / np.abs(before[live])))


def _design_columns(X: np.ndarray) -> list[int]:
    """The columns of the encoded QIs a regression reads: every non-constant column that is
    not an indicator (two values, one of them 0), and the indicators with at least
    :data:`MIN_GROUP` records on each side, rarest first, each only where it adds to the
    columns before it (so of a QI's categories the commonest, collinear with the others and
    the intercept, is the reference)."""
    n = len(X)
    numeric, indicators = [], []
    for j in range(X.shape[1]):
        col = X[:, j]
        values = np.unique(col)
        if len(values) < 2:
            continue
        if len(values) == 2 and values[0] == 0.0:
            on = int((col != 0).sum())
            if MIN_GROUP <= on <= n - MIN_GROUP:
                indicators.append((on, j))
        else:
            numeric.append(j)
    kept = list(numeric)
    design = np.hstack([np.ones((n, 1)), X[:, kept]])
    rank = np.linalg.matrix_rank(design)
    for _on, j in sorted(indicators):
        trial_design = np.hstack([design, X[:, [j]]])
        r = np.linalg.matrix_rank(trial_design)
        if r > rank:
            kept.append(j)
            design, rank = trial_design, r
    return sorted(kept)


def _expected_size(counts: np.ndarray, t: float, size: int, n: int) -> int:
    most = feasibility.max_classes(counts, t, size)
    return n // most if most else n


def _slope(
    Xh: np.ndarray, codes: np.ndarray, shares: np.ndarray, size: int, t: float, measured: float
) -> float | None:
    """log₂ of the QI loss on half the sample over the loss on the whole sample.

    Microaggregation loss falls as a power of the records per unit of QI space; doubling the
    records divides it by 2^slope, so the whole file's loss is the sample's times
    (sample / N)^slope (:func:`_scale`).  None when it cannot be measured.
    """
    try:
        labels = trial(tclose_partition, Xh, codes, size, t, shares=shares)
    except InfeasibleError:
        return None
    labels = refine_classes(Xh, labels, codes, t=t, k=size, shares=shares, passes=TRIAL_PASSES)
    loss = sse_sst(Xh, labels)
    if measured <= 0 or loss <= 0:
        return None
    return math.log2(loss / measured)


def _scale(slopes: Sequence[float], m: int, n: int) -> float:
    """The factor from the sample's QI loss to the whole file's: (m / N)^slope, the median
    slope of the b tried, between 0 (no gain from more records) and :data:`MAX_SLOPE`."""
    if not slopes or n <= m:
        return 1.0
    slope = min(max(float(np.median(slopes)), 0.0), MAX_SLOPE)
    return (m / n) ** slope


def _score(row: BucketChoice, weight: float, scale: float) -> float | None:
    if row.qi_loss_sample is None:
        return None
    return weight * row.confidential_loss + (1 - weight) * row.qi_loss_sample * scale


def _scaled(row: BucketChoice, weight: float, scale: float) -> BucketChoice:
    qi = None if row.qi_loss_sample is None else row.qi_loss_sample * scale
    return BucketChoice(**{**row.__dict__, "qi_loss": qi, "score": _score(row, weight, scale)})


def best_choices(choices: Sequence[BucketChoice], n: int = ALTERNATIVES) -> list[BucketChoice]:
    """The ``n`` points of the curve with the least score, best first (the chosen one first)."""
    scored = [c for c in choices if c.score is not None]
    return sorted(scored, key=lambda c: (not c.chosen, c.score, c.b))[:n]


def _qi_loss(
    Xs: np.ndarray,
    buckets: Buckets,
    codes: np.ndarray,
    k: int,
    t: float,
    task: Task,
) -> tuple[int, float | None, np.ndarray | None]:
    """(best class size, its QI SSE/SST, its classes) on the sample, over the sizes a run
    would try, each partition refined as the file's will be.

    Sizes that leave the sample the same number of classes give the same partition, so each
    number of classes is partitioned once, smallest size first, at most :data:`MAX_SIZES`,
    stopping after :data:`PATIENCE` in a row that lose more than the best.
    """
    shares = buckets.shares
    counts = np.bincount(codes, minlength=len(shares))
    if Xs.shape[1] == 0:  # no QI: nothing to lose there
        return k, 0.0, None
    best: tuple[int, float | None, np.ndarray | None] = (k, None, None)
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
            labels = trial(tclose_partition, Xs, codes, size, t, shares=shares, task=task)
        except InfeasibleError:  # the sample's bucket mix can stray from the file's
            continue
        # judged as the file will be released: refined (within the bounds of k, not of size)
        labels = refine_classes(
            Xs, labels, codes, t=t, k=k, shares=shares, passes=TRIAL_PASSES, task=task.silent()
        )
        loss = sse_sst(Xs, labels)
        if best[1] is None or loss < best[1] - 1e-12:
            best, worse = (size, loss, labels), 0
        else:
            worse += 1
    return best


__all__ = [
    "ALTERNATIVES",
    "LADDER",
    "QI_TOLERANCE",
    "SEARCH_SAMPLE",
    "BucketChoice",
    "ConfidentialValues",
    "FrameValues",
    "best_choices",
    "coefficient_error",
    "ladder",
    "search_buckets",
    "search_sample",
]
