"""The confidential buckets of a release: what each holds and what is released for it.

:class:`Buckets` is what the bucketing (:mod:`engine.release.buckets`) returns and every later
step reads, :class:`BucketStat` a bucket's statistics over the whole file, :class:`BucketRow`
one bucket as a plan, a summary and the report show it (:func:`bucket_rows`), and
:data:`P_RULE` the share of the p%-rule that decides whether a bucket's mean is released.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.release.model.published import PUBLIC, REVIEW


@dataclass(frozen=True)
class BucketStat:
    """What one bucket holds of one confidential column, computed over the whole file.

    Numeric and date columns get a mean, a median and a standard deviation; ordinal and
    nominal ones only the median or most frequent category (``median``) and the count.
    """

    count: int
    #: the mean released with ``confidential_output="mean"``: rounded to the column's
    #: precision and kept inside the central 99 %; the median where the bucket is
    #: ``dominated``; the median or mode for categories
    mean: Any
    #: the median (or mode) released with ``confidential_output="median"``
    median: Any
    #: the standard deviation inside the bucket, 2 significant digits (None when withheld:
    #: one or two records dominate the spread as well, or a category column)
    sd: float | None
    #: one or two records dominate the bucket's sum (the p%-rule, :data:`P_RULE`): its mean
    #: would tell them apart, so the median is released instead
    dominated: bool = False
    #: the public range [low, high] a record counts within for the mean (the bucket's cut
    #: points, or round numbers at an open end; never a value): a weighted mean is held and
    #: rounded within it as the mean is (None for categories)
    limits: tuple[float, float] | None = None


#: the p of the p%-rule (tabular SDC): a bucket's mean is withheld when the records other
#: than the two largest contributions add up to less than this share of the largest one
P_RULE = 0.10

#: the fewest records a bucket of values may hold (the threshold rule of tabular SDC): a
#: bucket's label, bounds and mean are printed for every record of it, and a bucket of one or
#: two records would print a person's value (or let the two tell each other's)
MIN_BUCKET = 3


@dataclass
class Buckets:
    """The partition of the confidential values into buckets (KBS 2015 §6.1)."""

    #: the released text of each bucket, e.g. ``"< 12500"``, ``"[12500, 40000)"`` or
    #: ``"{Asthma, Cancer}"``
    labels: list[str]
    #: bucket index of every input record (aligned with the input rows); int64
    codes: np.ndarray
    #: records per bucket
    counts: np.ndarray
    #: per bucket: for one numeric or date column its public cut points (lo, hi), None where
    #: open-ended (never an observed value); (lowest, highest) category for an ordinal one;
    #: the set of categories for a nominal one; None for several columns or the missing bucket
    bounds: list[Any]
    #: per bucket: the median (or most frequent category) released with
    #: ``confidential_output="median"`` (a tuple of values, one per confidential column)
    representatives: list[tuple[Any, ...]]
    #: index of the bucket that holds missing confidential values, or None
    missing_bucket: int | None = None
    #: the confidential columns, in the order of ``representatives`` and ``column_labels``
    columns: tuple[str, ...] = ()
    #: per bucket: the released label of each confidential column ("" = released as empty)
    column_labels: list[tuple[str, ...]] | None = None
    #: per bucket: one :class:`BucketStat` per confidential column (None for the missing
    #: bucket); None when the buckets were built by hand
    stats: list[tuple[BucketStat | None, ...]] | None = None

    @property
    def shares(self) -> np.ndarray:
        """p_j: the share of each bucket in the whole file."""
        return self.counts / self.counts.sum()

    def released(self, output: str) -> list[tuple[Any, ...]]:
        """Per bucket, the value each column is released as with ``confidential_output``.

        ``"mean"``: the bucket means (the median where the p%-rule withholds a mean);
        ``"median"`` and ``"label"``: the medians (a label output releases text, and the
        median is what its numbers are measured with).
        """
        if output != "mean" or self.stats is None:
            return list(self.representatives)
        return [
            tuple(rep if stat is None else stat.mean for rep, stat in zip(reps, stats, strict=True))
            for reps, stats in zip(self.representatives, self.stats, strict=True)
        ]


@dataclass(frozen=True)
class BucketRow:
    """One confidential bucket as reported: what is released for it and how many records.

    Published: the label, the count and share (the release shows them), the public limits and
    the value the release holds for the bucket.  The bucket's statistics of the original
    values (its exact mean, median and SD) are for the review only.
    """

    label: str = field(metadata=PUBLIC)
    count: int = field(metadata=PUBLIC)
    share: float = field(metadata=PUBLIC)
    #: the bucket's public limits: [lower cut, upper cut] of a range (None = open end), the
    #: categories of a set, None for joint buckets of several columns or the missing bucket
    bounds: Any = field(metadata=PUBLIC)
    #: the value an analyst finds for the bucket, per column: what ``confidential_output``
    #: "mean" or "median" releases (the median with "label": then it is not in the release,
    #: and :meth:`RunSummary.public_dict` leaves it out)
    representative: tuple[Any, ...] = field(metadata=PUBLIC)
    missing: bool = field(metadata=PUBLIC, default=False)
    #: per column: the bucket's mean as released (rounded; the median where ``dominated``),
    #: its median and its standard deviation (None where withheld or not a number)
    mean: tuple[Any, ...] = field(metadata=REVIEW, default=())
    median: tuple[Any, ...] = field(metadata=REVIEW, default=())
    sd: tuple[float | None, ...] = field(metadata=REVIEW, default=())
    #: per column: one or two records dominate the bucket's sum (p%-rule), so its median is
    #: released instead of its mean (what the released value is; published with mean output)
    dominated: tuple[bool, ...] = field(metadata=PUBLIC, default=())


def bucket_rows(buckets: Buckets, output: str = "mean") -> list[BucketRow]:
    """The rows of the bucket table of a plan, a summary and the report."""
    total = int(buckets.counts.sum())
    released = buckets.released(output)
    rows = []
    for j, label in enumerate(buckets.labels):
        bounds = buckets.bounds[j]
        if isinstance(bounds, frozenset):
            bounds = tuple(sorted(bounds))
        stats = buckets.stats[j] if buckets.stats is not None else ()
        rows.append(
            BucketRow(
                label=label if j != buckets.missing_bucket else "(missing)",
                count=int(buckets.counts[j]),
                share=float(buckets.counts[j] / total) if total else 0.0,
                bounds=bounds,
                representative=tuple(released[j]),
                missing=j == buckets.missing_bucket,
                mean=tuple(None if s is None else s.mean for s in stats),
                median=tuple(None if s is None else s.median for s in stats),
                sd=tuple(None if s is None else s.sd for s in stats),
                dominated=tuple(bool(s is not None and s.dominated) for s in stats),
            )
        )
    return rows
