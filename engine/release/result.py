"""What an anonymization run returns: the release and everything needed to explain it.

These are plain dataclasses shared by the command line, the GUI previews, the report and the
tests.  Only :attr:`Release.table` is ever written out; the other fields (class of every input
record, bucket of every input record) stay in memory for previews and metrics.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from engine.params import ReleaseParams


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
    #: per bucket: the value released with ``confidential_output="representative"``
    #: (a tuple of values, one per confidential column)
    representatives: list[tuple[Any, ...]]
    #: index of the bucket that holds missing confidential values, or None
    missing_bucket: int | None = None
    #: the confidential columns, in the order of ``representatives`` and ``column_labels``
    columns: tuple[str, ...] = ()
    #: per bucket: the released label of each confidential column ("" = released as empty)
    column_labels: list[tuple[str, ...]] | None = None

    @property
    def shares(self) -> np.ndarray:
        """p_j: the share of each bucket in the whole file."""
        return self.counts / self.counts.sum()


@dataclass
class Verification:
    """What the independent verifier read off a released table (KBS 2015 Definition 4)."""

    #: size of the smallest equivalence class
    k: int
    #: the largest d(class distribution, overall distribution) over classes; inf if a class
    #: lacks a value the file has; None when no confidential column was checked
    t: float | None
    n_records: int
    n_classes: int
    #: sizes of all classes, largest first
    class_sizes: np.ndarray
    #: True when the requested bounds (k, t) hold
    ok: bool
    #: one sentence saying what holds or which class breaks what
    message: str
    #: the released QI values of the worst class (for the message and the GUI)
    worst_class: dict[str, Any] | None = None
    #: the released confidential values of the bucket where the worst class is farthest
    worst_bucket: dict[str, Any] | None = None


@dataclass
class Release:
    """The outcome of :func:`engine.release.anonymize.anonymize`."""

    #: the released table: QIs recoded, confidential protected, rows shuffled
    table: pd.DataFrame
    config: ReleaseParams
    #: JSON-ready numbers every run reports (the ``--summary`` file and the report)
    summary: dict[str, Any]
    #: the independent check of ``table`` (always run; a failing release raises instead)
    verification: Verification
    #: equivalence-class index of every input record, in input order
    classes: np.ndarray
    #: the input after missing codes and types were applied (never released)
    data: pd.DataFrame
    #: the buckets (None for the noise mechanisms without buckets)
    buckets: Buckets | None = None
    #: warnings a user must see (e.g. values beyond the public bounds)
    warnings: list[str] = field(default_factory=list)
