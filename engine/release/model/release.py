"""What an anonymization run returns: the release, and the independent check of it.

These are plain dataclasses shared by the command line, the GUI previews, the report and the
tests.  Only :attr:`Release.table` is ever written out; the other fields (class of every input
record, bucket of every input record) stay in memory for previews and metrics.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import VerificationError
from engine.i18n import _
from engine.params import ReleaseParams
from engine.release.model.buckets import Buckets
from engine.release.model.summary import RunSummary


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
    #: the fewest distinct households in a class, and the households of the release (None
    #: when no household column was checked)
    households_k: int | None = None
    n_households: int | None = None
    #: households whose members differ in a household-level column (0 when all are alike)
    split_households: int = 0
    #: classes in which one household holds two or more records (informative: checked for
    #: household-level confidential values, where members are kept apart)
    shared_classes: int = 0
    #: an intruder who follows the released household ids: the fewest households sharing a
    #: released id's pattern (the multiset of its members' classes), and the largest distance
    #: of a member's bucket distribution among the records its pattern and class leave (None
    #: when no id was followed, or no confidential column was checked)
    pattern_k: int | None = None
    linking_t: float | None = None
    #: households whose pattern fewer than k households share, and the records without an id
    households_below_k: int = 0
    records_without_id: int = 0
    #: k and t with the weight as one more key (None when no weight was checked)
    weight_k: int | None = None
    weight_t: float | None = None
    #: k and t with the columns released unchanged (``keep``) as more keys (None when none
    #: is kept): an intruder who knows a kept value uses it as a QI (SPEC §1)
    kept_k: int | None = None
    kept_t: float | None = None

    @classmethod
    def empty(cls) -> Verification:
        """What the verifier says of a release without records: nothing holds."""
        return cls(0, None, 0, 0, np.zeros(0, dtype=np.int64), False, _("Empty release."))

    def raise_if_failed(self) -> None:
        """Refuse the release when the bounds do not hold (:class:`VerificationError`).

        Every route (one machine, the noise route, a cluster) calls this on its verifier's
        answer, so that no release leaves the engine unverified.
        """
        if not self.ok:
            raise VerificationError(
                _("The release failed its independent check and was not written: {message}").format(
                    message=self.message
                )
            )


@dataclass
class Release:
    """The outcome of :func:`engine.release.anonymize`."""

    #: the released table: QIs recoded, confidential protected, rows shuffled
    table: pd.DataFrame
    params: ReleaseParams
    #: the numbers every run reports (the ``--summary`` file, the report, the preview)
    summary: RunSummary
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
    #: the row of ``data`` each released row was made from (so that a preview can show the
    #: two side by side); never written out: the released file's order links to nothing
    source_rows: np.ndarray | None = field(default=None, repr=False)
    #: the sampling weight and the household (0..H−1) of every record of ``data``, when the
    #: run had them (for the risk figures; never written out)
    weights: np.ndarray | None = field(default=None, repr=False)
    households: np.ndarray | None = field(default=None, repr=False)
