"""What an anonymization run returns: the release and everything needed to explain it.

These are plain dataclasses shared by the command line, the GUI previews, the report and the
tests.  Only :attr:`Release.table` is ever written out; the other fields (class of every input
record, bucket of every input record) stay in memory for previews and metrics.
:class:`RunSummary` is the one typed account of a run, the same shape for both mechanisms:
the JSON sidecar, ``--summary``, the report, the xlsx About sheet and the preview read it.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import VerificationError
from engine.params import ReleaseParams
from engine.privacy import Guarantee
from engine.release.risk import RiskComparison


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


#: the p of the p%-rule (tabular SDC): a bucket's mean is withheld when the records other
#: than the two largest contributions add up to less than this share of the largest one
P_RULE = 0.10


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

    def raise_if_failed(self) -> None:
        """Refuse the release when the bounds do not hold (:class:`VerificationError`).

        Every route (one machine, the noise route, a cluster) calls this on its verifier's
        answer, so that no release leaves the engine unverified.
        """
        if not self.ok:
            raise VerificationError(
                f"The release failed its independent check and was not written: {self.message}"
            )


@dataclass
class Release:
    """The outcome of :func:`engine.release.anonymize.anonymize`."""

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


def json_ready(value: Any) -> Any:
    """``value`` with numpy scalars, tuples, sets and timestamps turned into JSON types.

    Infinite and NaN floats become the strings "inf", "-inf" and null, which every JSON
    reader accepts (``json.dumps`` would otherwise write the non-standard ``Infinity``).
    """
    if isinstance(value, dict):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(json_ready(v) for v in value)
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if value is None or isinstance(value, (str, int, bool)):
        return value
    return str(value)


@dataclass(frozen=True)
class BucketRow:
    """One confidential bucket as reported: what is released for it and how many records."""

    label: str
    count: int
    share: float
    #: the bucket's public limits: [lower cut, upper cut] of a range (None = open end), the
    #: categories of a set, None for joint buckets of several columns or the missing bucket
    bounds: Any
    #: the value an analyst finds for the bucket, per column: what ``confidential_output``
    #: "mean" or "median" releases (the median with "label")
    representative: tuple[Any, ...]
    missing: bool = False
    #: per column: the bucket's mean as released (rounded; the median where ``dominated``),
    #: its median and its standard deviation (None where withheld or not a number)
    mean: tuple[Any, ...] = ()
    median: tuple[Any, ...] = ()
    sd: tuple[float | None, ...] = ()
    #: per column: one or two records dominate the bucket's sum (p%-rule), so its median is
    #: released instead of its mean
    dominated: tuple[bool, ...] = ()


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


@dataclass(frozen=True)
class ClassSizes:
    """How many classes a release has and how large they are."""

    n_classes: int
    min: int
    median: float
    mean: float
    max: int
    #: size → number of classes of that size
    histogram: dict[int, int]

    @classmethod
    def of(cls, sizes: np.ndarray) -> ClassSizes:
        """From the sizes of all classes (e.g. :attr:`Verification.class_sizes`)."""
        sizes = np.asarray(sizes)
        sizes = sizes[sizes > 0]
        values, counts = np.unique(sizes, return_counts=True)
        return cls(
            n_classes=len(sizes),
            min=int(sizes.min()),
            median=float(np.median(sizes)),
            mean=float(sizes.mean()),
            max=int(sizes.max()),
            histogram={int(v): int(c) for v, c in zip(values, counts, strict=True)},
        )


@dataclass(frozen=True)
class InformationLoss:
    """What the release costs the analyst."""

    #: within-class SSE over total SST of the standardised QIs (0 = nothing lost)
    qi_sse_sst: float | None
    #: released confidential values against the originals, SSE/SST pooled over the columns
    confidential_sse_sst: float | None
    #: per confidential column: sse_sst, means, variances, correlation or share changed
    confidential_columns: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class NoiseSummary:
    """What the noise route (Construction B) spent and drew."""

    #: ε of each confidential column (the budget split evenly: sequential composition)
    epsilon_per_column: dict[str, float]
    #: the part of it the noise spent (the rest went on private bounds)
    epsilon_noise_per_column: dict[str, float]
    #: ε spent on estimating bounds privately, in all (0 with public bounds)
    bounds_epsilon: float
    #: the per-record ε of the whole confidential projection (k·ε with insensitive groups)
    epsilon_local: float
    #: what the release as published spent: the bounds' ε once, the noise's ε × draws
    epsilon_spent: float
    draws: int
    #: Proposition 1 at the smallest class (None without confidential columns)
    stochastic_t: float | None
    #: t actually reached on the release's own buckets, when redrawn until t
    actual_t: float | None
    #: buckets of the redraw check (None without redraw)
    resample_buckets: int | None
    #: public bounds of each numeric column
    bounds: dict[str, tuple[float, float]]
    #: scale of the Laplace noise of each numeric column
    noise_scale: dict[str, float]
    #: per column: mechanism, ε, bounds, errors, categories … as drawn
    columns: dict[str, dict[str, Any]]


@dataclass(frozen=True)
class Correlation:
    """The correlation of a confidential column with one numeric QI, before and after."""

    qi: str
    original: float | None
    released: float | None


@dataclass(frozen=True)
class Coefficient:
    """One coefficient of the utility regression, fitted on the original and on the release."""

    term: str
    original: float
    released: float


@dataclass(frozen=True)
class Regression:
    """An ordinary least-squares fit of a confidential column on the QIs, twice.

    Fitted once on the original records and once on the released ones (numeric QIs as
    numbers, ordinal ones as ranks, nominal ones as indicators of their commonest
    categories); the outcome is on a log scale where the column is positive and skewed.
    """

    outcome: str
    log: bool
    n_records: int
    coefficients: tuple[Coefficient, ...]
    #: the median over the slopes (not the intercept) of |released − original| / |original|
    coefficient_median_relative_error: float | None


@dataclass(frozen=True)
class ColumnUtility:
    """What an analyst computes from one confidential column, original against released.

    Numeric columns: the total, the variance, the means by QI group, the correlations with the
    numeric QIs and a regression on the QIs.  Category columns: the share of values changed.
    Records with a missing confidential value are left out on both sides.
    """

    column: str
    #: how the released values were made ("bucket mean", "bucket median", "bucket label",
    #: "Laplace noise", "randomized response", …)
    released_as: str
    #: |released total − original total| / |original total|
    total_relative_error: float | None = None
    #: variance of the released values over that of the original ones
    variance_ratio: float | None = None
    #: per QI: the mean absolute relative error of the column's means by QI group (categories
    #: of a category QI, fifths of a numeric one), the groups weighted by their records
    group_mean_mare: dict[str, float] = field(default_factory=dict)
    correlations: tuple[Correlation, ...] = ()
    regression: Regression | None = None
    #: share of records whose released category differs from their own (category columns)
    share_changed: float | None = None


@dataclass(frozen=True)
class HouseholdSummary:
    """How a run treated the households of a survey file."""

    column: str
    n_households: int
    #: the QIs released alike for every member of a household (found constant within every
    #: household, or declared), and those of them that were found
    household_level: tuple[str, ...]
    detected: tuple[str, ...]
    #: declared household-level QIs that varied within households → how many households
    #: (released with the members' most frequent value)
    varied: dict[str, int]
    #: the fewest distinct households in a released class (the verifier's)
    households_k: int | None
    #: "recode" (a fresh random numbering) or "none" (left out)
    output: str
    #: household groups the household-level QIs were released for (None: no such QI)
    n_groups: int | None = None
    #: confidential columns constant within every household, whose members are kept in
    #: different classes; and the classes where one household still holds several records
    confidential_level: tuple[str, ...] = ()
    shared_classes: int = 0


@dataclass(frozen=True)
class RunSummary:
    """The one account of a run: parameters, what the verifier measured, losses, guarantees.

    Both mechanisms fill the same fields (``buckets`` is empty and ``noise`` None where they do
    not apply); :meth:`to_dict` is the JSON the sidecar, ``--summary`` and the About sheet hold.
    """

    params: ReleaseParams
    software: str
    mechanism: str
    #: the records the release was made from (the input's, less any left out)
    n_records: int
    n_released: int
    k_achieved: int
    #: the t the release answers to: the t asked (buckets; exp(ε/2) when ε was given), the t
    #: actually reached (noise redrawn until t), or the stochastic t (noise)
    t: float | None
    #: "asked", "actual (resampled)" or "stochastic"
    t_kind: str | None
    #: the verifier's t on the released buckets (buckets) or the redraw's t (noise)
    t_achieved: float | None
    epsilon: float | None
    #: "given" or "t" (ε = 2 ln t, Proposition 3)
    epsilon_from: str | None
    #: 2 ln t_achieved (buckets)
    epsilon_achieved: float | None
    #: every statement that holds, with its assumption, and what does not follow
    guarantees: tuple[Guarantee, ...]
    n_classes: int
    #: classes the partition formed (classes whose released QIs coincide merge on release)
    n_partition_classes: int
    class_sizes: ClassSizes
    buckets: tuple[BucketRow, ...]
    information_loss: InformationLoss
    noise: NoiseSummary | None
    #: released QI values of the class farthest from the file, and the bucket where it is
    worst_class: dict[str, Any] | None
    worst_bucket: dict[str, Any] | None
    seed_policy: str
    #: the type each protected column was treated as (given or inferred)
    column_types: dict[str, str]
    #: the verifier's sentence
    verification: str
    warnings: tuple[str, ...] = ()
    seconds: float | None = None
    #: the input file's name, when the caller knows it
    input: str | None = None
    #: input records left out for a missing confidential value (``missing_confidential``)
    n_left_out: int = 0
    #: per confidential column: totals, variances, group means, correlations and a
    #: regression, original against released (:func:`engine.release.metrics.analysis_utility`;
    #: empty for a release computed on a cluster)
    analysis_utility: dict[str, ColumnUtility] = field(default_factory=dict)
    #: where it was computed, when not on this computer: {"name": "dask", "workers": W,
    #: "partitions": P} (engine.distributed)
    backend: dict[str, Any] | None = None
    #: the households of a survey file (``household``)
    households: HouseholdSummary | None = None
    #: per numeric confidential column: the weighted total Σ w·y original → released
    #: (``weight``; review record only: a statistic of the original data)
    weighted_totals: dict[str, dict[str, float | None]] = field(default_factory=dict)
    #: disclosure risk of the original records and of the release, with the weights and
    #: households when given (review record only: *before* is a statistic of the original)
    risk: RiskComparison | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; ``parameters`` is :meth:`ReleaseParams.to_dict`.

        ``expected_reidentifications`` and ``household_risk`` repeat the headline risk
        figures of ``risk`` as {"before": …, "after": …} for a quick look.
        """
        out = {f: getattr(self, f) for f in self.__dataclass_fields__ if f != "params"}
        out["parameters"] = self.params.to_dict()
        out["guarantees"] = [g.to_dict() for g in self.guarantees]
        out["class_sizes"] = asdict(self.class_sizes)
        out["buckets"] = [asdict(b) for b in self.buckets]
        out["information_loss"] = asdict(self.information_loss)
        out["noise"] = asdict(self.noise) if self.noise is not None else None
        out["analysis_utility"] = {c: asdict(u) for c, u in self.analysis_utility.items()}
        out["households"] = asdict(self.households) if self.households is not None else None
        out["risk"] = asdict(self.risk) if self.risk is not None else None
        if self.risk is not None:
            before, after = self.risk.before, self.risk.after
            out["expected_reidentifications"] = {
                "before": before.expected_reidentifications,
                "after": after.expected_reidentifications,
            }
            out["household_risk"] = (
                {"before": before.household_risk, "after": after.household_risk}
                if after.household_risk is not None
                else None
            )
        return json_ready(out)
