"""The run summary: the one typed account of a run, and its parts.

:class:`RunSummary` has the same shape for both mechanisms: the JSON sidecar, ``--summary``,
the report, the xlsx About sheet and the preview read it.  Its parts are the class sizes, the
missing QI values, the information loss, the noise of each column, the analysis utility, the
survey's households and the disclosure risk before and after (:class:`RiskSummary`).

Every field says whether it is published with the release or kept for the review record
(:mod:`engine.release.model.published`): published is only what a reader of the release may
know, i.e. the parameters that applied, the guarantees, and numbers computable from the
released file and those parameters alone.  Never the seed (with it and the public code the
noise can be subtracted), and never a statistic of the original confidential values (it voids
the ε of a noise release, and a mean with a variance pins an extreme earner's value down).
:meth:`RunSummary.public_dict` is the published form, :meth:`RunSummary.to_dict` the review
record.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from engine.io.about import (
    IN_WORDS,
    PUBLISHED,
    RECORD_KEY,
    REVIEW_PARAMETERS,
    REVIEW_RECORD,
)
from engine.mechanisms import MECHANISMS
from engine.mechanisms.response import CorrectedShares
from engine.params import ReleaseParams
from engine.privacy import Guarantee
from engine.release.model.buckets import BucketRow
from engine.release.model.published import PUBLIC, REVIEW, json_ready, published
from engine.release.model.words import public_words


@dataclass(frozen=True)
class ClassSizes:
    """How many classes a release has and how large they are."""

    n_classes: int = field(metadata=PUBLIC)
    min: int = field(metadata=PUBLIC)
    median: float = field(metadata=PUBLIC)
    mean: float = field(metadata=PUBLIC)
    max: int = field(metadata=PUBLIC)
    #: size → number of classes of that size
    histogram: dict[int, int] = field(metadata=PUBLIC)

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
class MissingCount:
    """Missing values of one QI: in the input, released empty, and known values withheld
    (:mod:`engine.release.columns.missing_qi`).

    Published: the cells released empty (a reader counts them in the release).  What was
    missing in the input, and so how many known values were withheld, is a count of the
    original data: for the review only.
    """

    #: values missing in the input (after missing-value codes were applied)
    input: int = field(metadata=REVIEW)
    #: cells released empty (= input + withheld)
    released: int = field(metadata=PUBLIC)
    #: known values released empty so that every class agrees on which QIs are missing
    withheld: int = field(metadata=REVIEW)


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
class NoiseColumn:
    """How one confidential column gets its noise: the one fact the plan, the run summary and
    the report read.  A plan fills what is known before any noise is drawn; the release
    adds what the draw did (:func:`dataclasses.replace`).

    Published (:data:`PUBLIC`): the mechanism and its public settings, and the share of the
    released values' variance that the noise makes up (from the released values and the
    public scale alone); for the review only (:data:`REVIEW`): anything measured on the
    data (the typical size of the values, the error against the original values, the means,
    SSE and SST, the share of categories changed).
    """

    name: str = field(metadata=PUBLIC)
    #: "numeric", "nominal" or "ordinal"
    type: str = field(metadata=PUBLIC)
    #: how the column is protected: "laplace", "insensitive" (groups of k, then Laplace) or
    #: "randomized_response" (:meth:`engine.mechanisms.Mechanism.column_mechanism`)
    mechanism: str = field(metadata=PUBLIC)
    #: the same in words ("Laplace noise on log(1 + value)")
    described: str = field(metadata=PUBLIC)
    #: the ε of the noise (the column's share, less what private bounds spend)
    epsilon: float = field(metadata=PUBLIC)
    #: the per-record ε (k·ε with insensitive groups)
    epsilon_local: float = field(metadata=PUBLIC)
    #: numeric: the clamping bounds (None in a plan while they are to be estimated privately)
    bounds: tuple[float, float] | None = field(default=None, metadata=PUBLIC)
    #: "public", or "private" (estimated with DP quantiles)
    bounds_source: str = field(default="public", metadata=PUBLIC)
    #: ε spent on estimating the bounds privately (0 with public bounds)
    bounds_epsilon: float = field(default=0.0, metadata=PUBLIC)
    #: "none", or "log": noise on log(1 + value)
    transform: str = field(default="none", metadata=PUBLIC)
    #: expected absolute error of one released value, in the column's units (numeric, noise
    #: on the column's own scale, bounds known)
    expected_abs_error: float | None = field(default=None, metadata=PUBLIC)
    #: noise on log(1 + value): half of the released values lie within this factor of their
    #: true value
    typical_factor: float | None = field(default=None, metadata=PUBLIC)
    #: scale of the Laplace noise drawn (None in a plan)
    noise_scale: float | None = field(default=None, metadata=PUBLIC)
    #: nominal/ordinal: the categories, in order
    categories: tuple[str, ...] = field(default=(), metadata=PUBLIC)
    #: randomized response: chance that a record's true category is released
    keep_probability: float | None = field(default=None, metadata=PUBLIC)
    #: the share of the released values' variance the noise makes up (after the draw)
    noise_share: float | None = field(default=None, metadata=PUBLIC)
    #: how far the column's values typically lie apart (the spread of their middle half), on
    #: the scale the noise is added to (:func:`engine.release.noise.columns.typical_size`)
    typical_size: float | None = field(default=None, metadata=REVIEW)
    #: the expected error of one value over ``typical_size``: above 1 the noise drowns the
    #: values (None while the bounds are to be estimated privately)
    error_ratio: float | None = field(default=None, metadata=REVIEW)
    #: after the draw: the lattice width, the error against the original values and the
    #: moments of both (numeric), the share of categories changed (categories)
    grid: float | None = field(default=None, metadata=REVIEW)
    mean_absolute_error: float | None = field(default=None, metadata=REVIEW)
    mean_original: float | None = field(default=None, metadata=REVIEW)
    mean_released: float | None = field(default=None, metadata=REVIEW)
    sse: float | None = field(default=None, metadata=REVIEW)
    sst: float | None = field(default=None, metadata=REVIEW)
    sse_sst: float | None = field(default=None, metadata=REVIEW)
    share_changed: float | None = field(default=None, metadata=REVIEW)

    @property
    def n_categories(self) -> int | None:
        """The number of categories (randomized response), None for a numeric column."""
        return len(self.categories) if self.categories else None


@dataclass(frozen=True)
class NoiseSummary:
    """What the noise route (Construction B) spent and drew."""

    #: ε of each confidential column (the budget split evenly: sequential composition)
    epsilon_per_column: dict[str, float] = field(metadata=PUBLIC)
    #: the part of it the noise spent (the rest went on private bounds)
    epsilon_noise_per_column: dict[str, float] = field(metadata=PUBLIC)
    #: ε spent on estimating bounds privately, in all (0 with public bounds)
    bounds_epsilon: float = field(metadata=PUBLIC)
    #: the per-record ε of the whole confidential projection (k·ε with insensitive groups)
    epsilon_local: float = field(metadata=PUBLIC)
    #: what the release as published spent: the bounds' ε once, the noise's ε × draws
    epsilon_spent: float = field(metadata=PUBLIC)
    #: draws of the noise (more than one when redrawn until t-close: each spends ε again)
    draws: int = field(metadata=PUBLIC)
    #: Proposition 1 at the smallest class (None without confidential columns)
    stochastic_t: float | None = field(metadata=PUBLIC)
    #: t actually reached on the release's own buckets, when redrawn until t
    actual_t: float | None = field(metadata=PUBLIC)
    #: buckets of the redraw check (None without redraw)
    resample_buckets: int | None = field(metadata=PUBLIC)
    #: bounds of each numeric column: public, or estimated under DP with a share of ε
    bounds: dict[str, tuple[float, float]] = field(metadata=PUBLIC)
    #: scale of the Laplace noise of each numeric column
    noise_scale: dict[str, float] = field(metadata=PUBLIC)
    #: per column: how it got its noise, as drawn (published as :class:`NoiseColumn` declares)
    columns: dict[str, NoiseColumn] = field(metadata=PUBLIC)
    #: per randomized-response column: the original shares estimated from the released
    #: values and the public channel alone, with standard errors (published whole: every
    #: field of :class:`~engine.mechanisms.response.CorrectedShares` is computed so)
    corrected_shares: dict[str, CorrectedShares] = field(metadata=PUBLIC, default_factory=dict)


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


def applied_parameters(params: ReleaseParams) -> dict[str, Any]:
    """``params.to_dict()`` without the seed and without what the mechanism did not use.

    A noise release lists no bucket settings (b, the weight of its search, the bucket's
    released value, the missing bucket) and a bucket release no noise settings; t or ε as
    given, b's search weight only when b was searched, the joint/per-column choice only where
    several confidential columns were bucketed, public bounds only when there are some, how
    the household id and the weight are released only when the file has them.
    """
    out = params.to_dict()
    mechanism = MECHANISMS[params.mechanism]
    unused = set(REVIEW_PARAMETERS) | mechanism.unused(params)
    for other in MECHANISMS.values():
        if other is not mechanism:
            unused.update(other.fields)
    unused.update(name for name in ("t", "epsilon") if getattr(params, name) is None)
    if len(params.confidential) < 2:
        unused.add("joint")
    if not params.bounds:
        unused.add("bounds")
    if params.household is None:
        unused.update(("household_output", "household_level"))
    if params.weight is None:
        unused.add("weight_output")
    return {key: value for key, value in out.items() if key not in unused}


@dataclass(frozen=True)
class HouseholdSummary:
    """How a run treated the households of a survey file.

    Published: what a reader of the release sees in it (the id column and how it is released,
    the columns released alike for every member, the fewest households in a class); the
    counts taken from the original data are for the review record.
    """

    column: str = field(metadata=PUBLIC)
    #: households released (the re-coded ids a reader counts; review only when left out)
    n_households: int = field(metadata=REVIEW)
    #: the QIs released alike for every member of a household (found constant within every
    #: household, or declared), and those of them that were found
    household_level: tuple[str, ...] = field(metadata=PUBLIC)
    detected: tuple[str, ...] = field(metadata=REVIEW)
    #: household-level QIs that varied within households → how many households (released
    #: with the members' most frequent value)
    varied: dict[str, int] = field(metadata=REVIEW)
    #: the fewest distinct households in a released class (the verifier's)
    households_k: int | None = field(metadata=PUBLIC)
    #: "recode" (a fresh random numbering) or "none" (left out)
    output: str = field(metadata=PUBLIC)
    #: household groups the household-level QIs were released for (None: no such QI)
    n_groups: int | None = field(metadata=REVIEW, default=None)
    #: confidential columns constant within every household, whose members are kept in
    #: different classes; and the classes where one household still holds several records
    confidential_level: tuple[str, ...] = field(metadata=PUBLIC, default=())
    shared_classes: int = field(metadata=REVIEW, default=0)
    #: an intruder who follows the released ids (the verifier's): the fewest households
    #: sharing a released id's pattern of classes, and the largest distance of what a
    #: pattern and a class leave of a member's bucket (None: no id released, or no bucket)
    pattern_k: int | None = field(metadata=PUBLIC, default=None)
    linking_t: float | None = field(metadata=PUBLIC, default=None)
    #: records released without a household id (their household could not share its
    #: pattern with k − 1 others; a reader counts the empty ids), and their households
    records_without_id: int = field(metadata=PUBLIC, default=0)
    households_without_id: int = field(metadata=REVIEW, default=0)
    #: per household-level QI: the records released with their own value (their household's
    #: group lay within one such value, a commune), and, for a QI with a hierarchy, those
    #: released with one of its ancestors (the group lay within one district)
    kept_own: dict[str, int] = field(metadata=REVIEW, default_factory=dict)
    kept_ancestor: dict[str, int] = field(metadata=REVIEW, default_factory=dict)


@dataclass(frozen=True)
class WeightSummary:
    """How a run released the sampling weight of a survey file.

    Published: how the weight is released and the k and t the release has with the weight
    as one more key (the verifier's, computed from the release).
    """

    column: str = field(metadata=PUBLIC)
    #: "class" (every record its class's mean weight), "keep" (unchanged) or "none"
    output: str = field(metadata=PUBLIC)
    #: k and t of the release with the weight as a key (None when it is left out)
    k: int | None = field(metadata=PUBLIC, default=None)
    t: float | None = field(metadata=PUBLIC, default=None)


@dataclass(frozen=True)
class KeptSummary:
    """The columns a run released unchanged (``keep``) and the k and t the release has with
    them as more keys (the verifier's, computed from the release): published, so that a
    reader knows what the kept columns cost the guarantee."""

    columns: tuple[str, ...] = field(metadata=PUBLIC)
    k: int = field(metadata=PUBLIC)
    t: float | None = field(metadata=PUBLIC, default=None)


@dataclass(frozen=True)
class RiskSummary:
    """Disclosure-risk figures of one table."""

    n_records: int
    n_classes: int
    #: records unique on their QI values (class size 1)
    n_unique: int
    share_unique: float
    #: individual re-identification risk (1/f, or the Benedetti–Franconi estimate with
    #: weights): largest over records
    max_risk: float
    #: individual risk averaged over records (= n_classes / n_records without weights)
    mean_risk: float
    #: the threshold the next figure refers to
    threshold: float
    #: records whose risk exceeds ``threshold``
    n_above: int
    share_above: float
    #: largest share of one class taking one confidential value/bucket; None without one
    max_attribute_share: float | None = None
    #: largest share of one confidential value/bucket in the whole table (the prior)
    prior_max_share: float | None = None
    #: size of the class where ``max_attribute_share`` is reached
    attribute_class_size: int | None = None
    #: the sum of the individual risks: how many records an intruder can expect to
    #: re-identify by matching every record (sdcMicro ``global_risk_ER``)
    expected_reidentifications: float = 0.0
    #: whether the risks used sampling weights (sample → population) or 1/f
    weighted: bool = False
    #: whether the intruder follows the household ids: the classes are then the cells of a
    #: household's pattern and a member's class (:func:`engine.release.measures.linked_cells`)
    linked: bool = False
    #: households of the table (None without a household column)
    n_households: int | None = None
    #: household risk 1 − Π(1 − r_j) of each record's household: mean over records
    #: (sdcMicro ``hier_risk``), largest, and sum over records (``hier_risk_ER``)
    household_risk: float | None = None
    household_max_risk: float | None = None
    household_expected_reidentifications: float | None = None
    #: households whose pattern of members' QI values no other household shares
    n_household_unique: int | None = None
    share_household_unique: float | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (for summaries and the report)."""
        return asdict(self)


@dataclass(frozen=True)
class RiskComparison:
    """The risk of the original records and of the release (review record only: *before*
    is a statistic of the original data)."""

    before: RiskSummary
    after: RiskSummary


def headline_risk(after: Any, before: Any | None = None) -> dict[str, Any]:
    """``expected_reidentifications`` and ``household_risk`` as {"before", "after"} (only
    "after" without ``before``), the figures a reader looks for first."""
    out: dict[str, Any] = {
        "expected_reidentifications": {"after": after.expected_reidentifications}
    }
    if before is not None:
        out["expected_reidentifications"]["before"] = before.expected_reidentifications
    if after.household_risk is not None:
        out["household_risk"] = {"after": after.household_risk}
        if before is not None:
            out["household_risk"]["before"] = before.household_risk
    return out


@dataclass(frozen=True)
class RunSummary:
    """The one account of a run: parameters, what the verifier measured, losses, guarantees.

    Both mechanisms fill the same fields (``buckets`` is empty and ``noise`` None where they do
    not apply).  Each field is declared :data:`PUBLIC` (published with the release) or
    :data:`REVIEW` (review record only); :meth:`public_dict` is the published metadata (the
    About sheet, the sidecar JSON, the Parquet metadata, ``--summary``), :meth:`to_dict` the
    review record (``--review``).
    """

    #: published as ``parameters``: those that applied, without the seed
    #: (:func:`applied_parameters`); the review record has them all
    params: ReleaseParams = field(metadata=PUBLIC)
    software: str = field(metadata=PUBLIC)
    mechanism: str = field(metadata=PUBLIC)
    #: the records the release was made from (the input's, less any left out): the rows of
    #: the release
    n_records: int = field(metadata=PUBLIC)
    n_released: int = field(metadata=PUBLIC)
    k_achieved: int = field(metadata=PUBLIC)
    #: the t the release answers to: the t asked (buckets; exp(ε/2) when ε was given), the t
    #: actually reached (noise redrawn until t), or the stochastic t (noise)
    t: float | None = field(metadata=PUBLIC)
    #: "asked", "actual (resampled)" or "stochastic"
    t_kind: str | None = field(metadata=PUBLIC)
    #: the verifier's t on the released buckets (buckets) or the redraw's t (noise)
    t_achieved: float | None = field(metadata=PUBLIC)
    epsilon: float | None = field(metadata=PUBLIC)
    #: "given" or "t" (ε = 2 ln t, Proposition 3)
    epsilon_from: str | None = field(metadata=PUBLIC)
    #: 2 ln t_achieved (buckets)
    epsilon_achieved: float | None = field(metadata=PUBLIC)
    #: every statement that holds, with its assumption, and what does not follow
    guarantees: tuple[Guarantee, ...] = field(metadata=PUBLIC)
    n_classes: int = field(metadata=PUBLIC)
    #: classes the partition formed (classes whose released QIs coincide merge on release)
    n_partition_classes: int = field(metadata=REVIEW)
    class_sizes: ClassSizes = field(metadata=PUBLIC)
    buckets: tuple[BucketRow, ...] = field(metadata=PUBLIC)
    #: SSE/SST of the released values against the original ones
    information_loss: InformationLoss = field(metadata=REVIEW)
    noise: NoiseSummary | None = field(metadata=PUBLIC)
    #: released QI values of the class farthest from the file, and the bucket where it is
    worst_class: dict[str, Any] | None = field(metadata=PUBLIC)
    worst_bucket: dict[str, Any] | None = field(metadata=PUBLIC)
    #: how the randomness was drawn, naming the seed when one was given
    seed_policy: str = field(metadata=REVIEW)
    #: the type each protected column was treated as (given or inferred)
    column_types: dict[str, str] = field(metadata=PUBLIC)
    #: the verifier's sentence
    verification: str = field(metadata=PUBLIC)
    #: what the run told the person who made it (the seed, records left out, values beyond
    #: the bounds …)
    warnings: tuple[str, ...] = field(metadata=REVIEW, default=())
    seconds: float | None = field(metadata=REVIEW, default=None)
    #: the input file's name, when the caller knows it (left out of an anonymous publication)
    input: str | None = field(metadata=PUBLIC, default=None)
    #: the SHA-256 checksum of the input file, when the caller computed it
    input_sha256: str | None = field(metadata=REVIEW, default=None)
    #: input records left out for a missing confidential value (``missing_confidential``)
    n_left_out: int = field(metadata=REVIEW, default=0)
    #: per confidential column: totals, variances, group means, correlations and a
    #: regression, original against released (:func:`engine.release.measures.analysis_utility`;
    #: empty for a release computed on a cluster)
    analysis_utility: dict[str, ColumnUtility] = field(metadata=REVIEW, default_factory=dict)
    #: where it was computed, when not on this computer: {"name": "dask", "workers": W,
    #: "partitions": P} (engine.distributed)
    backend: dict[str, Any] | None = field(metadata=REVIEW, default=None)
    #: the route that formed the classes, when the run asked for the compiled kernels (a
    #: large file): "compiled kernels (numba …), cached in …", "… not cached: …" or
    #: "numpy route …: …" (engine.release.partition.jit); None when it did not ask
    kernels: str | None = field(metadata=REVIEW, default=None)
    #: per QI with missing values: missing in the input, released empty, known values
    #: withheld so that classes agree on which QIs are missing
    #: (:mod:`engine.release.columns.missing_qi`; published: only the cells released empty, which
    #: a reader counts in the release)
    missing_qi: dict[str, MissingCount] = field(metadata=PUBLIC, default_factory=dict)
    #: the households of a survey file (``household``; published: what a reader of the
    #: release can see, :class:`HouseholdSummary`)
    households: HouseholdSummary | None = field(metadata=PUBLIC, default=None)
    #: the sampling weight (``weight``): how it is released, and k and t with it as a key
    weight: WeightSummary | None = field(metadata=PUBLIC, default=None)
    #: the columns released unchanged (``keep``), and k and t with them as keys
    kept: KeptSummary | None = field(metadata=PUBLIC, default=None)
    #: per numeric released column (confidential, QI, kept): the weighted total an analyst
    #: estimates, Σ w·y of the original → Σ w'·r of the release with the weights it carries
    #: (``weight``; a statistic of the original data)
    weighted_totals: dict[str, dict[str, float | None]] = field(
        metadata=REVIEW, default_factory=dict
    )
    #: disclosure risk of the original records and of the release, with the weights and
    #: households when given (*before* is a statistic of the original data; *after* is
    #: published when the release carries what it is computed from: :meth:`public_dict`)
    risk: RiskComparison | None = field(metadata=REVIEW, default=None)

    def to_dict(self) -> dict[str, Any]:
        """The review record, JSON-ready: every field; ``parameters`` is
        :meth:`ReleaseParams.to_dict` (with the seed).  Not for publication: the writers of a
        release refuse it (:data:`~engine.io.about.RECORD_KEY`).

        ``expected_reidentifications`` and ``household_risk`` repeat the headline risk
        figures of ``risk`` as {"before": …, "after": …} for a quick look.
        """
        out: dict[str, Any] = {RECORD_KEY: REVIEW_RECORD}
        out.update({f: getattr(self, f) for f in self.__dataclass_fields__ if f != "params"})
        out["parameters"] = self.params.to_dict()
        out["guarantees"] = [g.to_dict() for g in self.guarantees]
        out["class_sizes"] = asdict(self.class_sizes)
        out["buckets"] = [asdict(b) for b in self.buckets]
        out["information_loss"] = asdict(self.information_loss)
        out["noise"] = asdict(self.noise) if self.noise is not None else None
        out["analysis_utility"] = {c: asdict(u) for c, u in self.analysis_utility.items()}
        out["missing_qi"] = {c: asdict(m) for c, m in self.missing_qi.items()}
        out["households"] = asdict(self.households) if self.households is not None else None
        out["weight"] = asdict(self.weight) if self.weight is not None else None
        out["kept"] = asdict(self.kept) if self.kept is not None else None
        out["risk"] = asdict(self.risk) if self.risk is not None else None
        if self.risk is not None:
            out.update(headline_risk(self.risk.after, self.risk.before))
        return json_ready(out)

    def public_dict(self, *, anonymous: bool = False) -> dict[str, Any]:
        """The published metadata, JSON-ready: the fields declared :data:`PUBLIC`, with the
        parameters that applied (no seed) and, per bucket, only the value the release holds.

        The risk of the release (*after*) is published when the release carries what it is
        computed from: its QIs, and the weights and the household ids where the run used
        them (a reader recomputes it from the file); the risk of the original never is.

        ``anonymous`` leaves out the input file's name as well.
        """
        out: dict[str, Any] = {RECORD_KEY: PUBLISHED}
        out.update(published(self))
        del out["params"]
        out["parameters"] = applied_parameters(self.params)
        output = self.params.confidential_output
        for row in out["buckets"]:
            if self.noise is not None or output == "label":
                del row["representative"]  # the release holds the label, not a number
            if self.noise is not None or output != "mean":
                del row["dominated"]
        if anonymous or self.input is None:
            del out["input"]
        p = self.params
        weights_out = p.weight is None or p.released_weight() is not None
        homes_out = p.household is None or p.released_household()
        if self.risk is not None and weights_out and homes_out:
            out["risk"] = {"after": asdict(self.risk.after)}
            out.update(headline_risk(self.risk.after))
        # what the release achieves in plain words, the phrases computed from published
        # fields only, in the language of the context (as the guarantees' statements)
        out[IN_WORDS] = [phrase.text() for phrase in public_words(self)]
        return json_ready(out)
