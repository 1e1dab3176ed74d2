"""What a run will do, known before the partition: :func:`plan`.

The privacy page, the preview, the sweep, the report and ``tclose plan`` show a
:class:`Plan`; :func:`engine.release.anonymize` runs one.  Everything a user decides
on is here: the buckets (b, labels, counts, means) and, when b is searched, the trade-off
curve between confidential and QI loss that chose it, whether the parameters can be met
and, when not, the nearest settings that can (as one-click fixes), how large the classes
will come out and why, every guarantee with its assumption for exactly this mechanism and
these options, the expected error of the noise in the column's own units, and the warnings.
Because the run uses the same plan, no page can show a b, a feasibility or a guarantee the
run does not have.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import FeasibleAlternative, InfeasibleError, quoted
from engine.guidance import guidance_warnings
from engine.i18n import _
from engine.params import ReleaseParams
from engine.privacy import Guarantee, epsilon_from_t
from engine.progress import NO_TASK, Task
from engine.release.buckets import (
    BucketChoice,
    ConfidentialValues,
    FrameValues,
    best_choices,
    search_buckets,
    search_sample,
)
from engine.release.columns import encode_qi, missing_mask, pattern_groups
from engine.release.households import (
    QI_BUDGET,
    HouseholdPlan,
    pattern_loss,
    weighted_bucket_means,
)
from engine.release.measures import class_ids, disclosure_risk, original_sensitive
from engine.release.model import (
    MIN_BUCKET,
    P_RULE,
    BucketRow,
    Buckets,
    MissingCount,
    NoiseColumn,
    RiskSummary,
    bucket_rows,
    json_ready,
)
from engine.release.noise import ColumnPlan, column_fact, plan_columns
from engine.release.partition import feasibility, one_blas_thread
from engine.release.stages.guarantees import release_guarantees
from engine.release.stages.prepare import Prepared, prepare
from engine.roles import ColumnType
from engine.text import number, percent


@dataclass(frozen=True)
class Fix:
    """A change of parameters that makes the release possible (a one-click fix in the GUI)."""

    #: what the fix does, in words: "k = 200 (the largest k that leaves 2 or more classes)"
    description: str
    #: the :class:`ReleaseParams` fields to change
    changes: dict[str, Any]

    def apply(self, params: ReleaseParams) -> ReleaseParams:
        return params.replace(**self.changes)


@dataclass(frozen=True)
class Feasibility:
    """Whether the parameters can be met on this file."""

    ok: bool
    #: why not, in one sentence ("" when ok)
    message: str = ""
    #: the nearest settings that work; when ok, settings that avoid classes far larger than
    #: k (leaving out the few records with a missing confidential value)
    fixes: tuple[Fix, ...] = ()


@dataclass(frozen=True)
class ClassSizeForecast:
    """How large the classes will be, and why they may be larger than k.

    Two different facts, never one for the other: ``smallest`` is a minimum every class of
    the release holds (a t-close class cannot be smaller), ``average`` the mean class size
    the most classes the data allows would give (the release has at most ``max_classes``
    classes, so its mean class is at least that large, while single classes may be smaller).
    """

    k: int
    #: the most classes the data allows at this t and k (None without a bucket constraint)
    max_classes: int | None
    #: the fewest records any class of the release holds: k, or more when no class of k
    #: records can hold every bucket within a factor t of its share
    smallest: int
    #: the mean class size at ``max_classes`` classes (⌊N / max_classes⌋): the release's
    #: classes hold at least this many records on average
    average: int = 0
    #: what binds the class sizes beyond k: "k" (k > N/2 leaves one class), "rarest" (a
    #: bucket with fewer records than classes), "missing" (the missing values' bucket is the
    #: rarest), "t" (the factor t), or "" when the classes need not be larger than k
    cause: str = ""
    #: why classes will be larger than k, in words ("" when they need not be)
    reason: str = ""


@dataclass
class Plan:
    """Everything that can be known about a run before the partition (module doc)."""

    params: ReleaseParams
    n_records: int
    #: the t the buckets must meet (t, or exp(ε/2) when ε was given); None for noise
    t: float | None
    #: ε as given, or 2 ln t (Proposition 3); the noise's ε for a noise mechanism
    epsilon: float | None
    #: the b the engine aims at (None without buckets)
    n_buckets: int | None
    buckets: tuple[BucketRow, ...]
    feasibility: Feasibility
    class_sizes: ClassSizeForecast
    guarantees: tuple[Guarantee, ...]
    noise: tuple[NoiseColumn, ...]
    warnings: tuple[str, ...]
    #: warnings that rest on statistics of the confidential data itself (noise that drowns
    #: the values): shown to whoever holds the data before the release, never published
    review_warnings: tuple[str, ...] = ()
    #: input records left out of the release for a missing confidential value ("drop");
    #: ``n_records`` counts the records that are released
    n_left_out: int = 0
    #: the trade-off curve of the search of b (empty when the user gave b): one row per b
    #: tried, the chosen one marked (:mod:`engine.release.buckets.search`)
    bucket_choices: tuple[BucketChoice, ...] = ()
    #: per QI with missing values: missing in the input, and the known values that will be
    #: withheld (released empty) so that classes agree on which QIs are missing
    missing_qi: dict[str, MissingCount] = field(default_factory=dict)
    #: the households of a survey file (``household``): how many, which QIs are
    #: household-level
    households: HouseholdPlan | None = None
    #: the disclosure risk of the original records (with the weights and households when
    #: given; review record only); after the run each record's risk is at most 1/k
    risk_before: RiskSummary | None = None
    #: what the run reuses (the cleaned columns, the buckets, the noise plans, the groups of
    #: records alike in their missing QIs and the values withheld); not pickled
    prepared: Prepared | None = field(default=None, repr=False, compare=False)
    bucket_data: Buckets | None = field(default=None, repr=False, compare=False)
    noise_columns: list[ColumnPlan] = field(default_factory=list, repr=False, compare=False)
    missing_groups: tuple[np.ndarray, np.ndarray] | None = field(
        default=None, repr=False, compare=False
    )
    #: the encoded QIs when the plan made them (the run reuses them); not pickled
    encoded: np.ndarray | None = field(default=None, repr=False, compare=False)

    def __getstate__(self) -> dict[str, Any]:
        # the GUI receives plans from its engine process: leave the per-record arrays behind
        state = dict(self.__dict__)
        state.update(
            prepared=None, bucket_data=None, noise_columns=[], missing_groups=None, encoded=None
        )
        return state

    @property
    def alternatives(self) -> tuple[Fix, ...]:
        """The best other points of the search of b, each a one-click :class:`Fix`.

        The curve's best points after the chosen one (at most :data:`ALTERNATIVES` in all),
        each saying what it keeps of the confidential values and of the QIs: the analyst who
        needs the other balance picks it in one click (``n_buckets`` set to that b).
        """
        best = best_choices(self.bucket_choices)
        return tuple(_alternative(c, best[0]) for c in best[1:] if best[0].chosen)

    def raise_if_infeasible(self) -> None:
        if not self.feasibility.ok:
            raise InfeasibleError(
                self.feasibility.message,
                alternatives=[
                    FeasibleAlternative(f.description, dict(f.changes))
                    for f in self.feasibility.fixes
                ],
            )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``tclose plan --json``)."""
        return json_ready(
            {
                "parameters": self.params.to_dict(),
                "n_records": self.n_records,
                "n_left_out": self.n_left_out,
                "t": self.t,
                "epsilon": self.epsilon,
                "n_buckets": self.n_buckets,
                "buckets": [asdict(b) for b in self.buckets],
                "feasibility": asdict(self.feasibility),
                "class_sizes": asdict(self.class_sizes),
                "guarantees": [g.to_dict() for g in self.guarantees],
                "noise": [asdict(c) for c in self.noise],
                "warnings": list(self.warnings),
                "review_warnings": list(self.review_warnings),
                "bucket_choices": [asdict(c) for c in self.bucket_choices],
                "bucket_alternatives": [asdict(f) for f in self.alternatives],
                "missing_qi": {c: asdict(m) for c, m in self.missing_qi.items()},
                "households": asdict(self.households) if self.households else None,
                "risk_before": asdict(self.risk_before) if self.risk_before else None,
            }
        )


#: what the plan says of missing QI values: (groups and withheld values, or None), the counts
#: per QI, the warnings
MissingPlan = tuple[tuple[np.ndarray, np.ndarray] | None, dict[str, MissingCount], list[str]]


@dataclass
class PlanData:
    """What a plan reads of the data: the same on one machine and on a cluster.

    One machine fills it from the cleaned columns (:func:`plan`); a cluster from its
    partitions' counts and a fetched sample (:mod:`engine.distributed.release`).  Everything
    a plan says follows from these, so both routes plan with :func:`plan_data`.
    """

    #: records that are released, and those left out for a missing confidential value
    n: int
    n_left_out: int
    types: Mapping[str, ColumnType]
    confidential: Sequence[str]
    #: the confidential values (the bucket mechanism with confidential columns)
    values: ConfidentialValues | None = None
    #: the encoded QIs of the records at ``search_sample(n)`` (asked only when b is searched)
    search_qi: Callable[[], np.ndarray] | None = None
    #: given the buckets and t: the groups of records alike in their missing QIs (with the
    #: values withheld), the counts per QI and the warnings (:func:`_missing_qi`); None where
    #: the route counts them after the release (a cluster)
    missing_qi: Callable[[Buckets | None, float | None], MissingPlan] | None = None
    #: the buckets with their means weighted by the sampling weights (``weight``), so that
    #: the released means keep the weighted totals; None without weights
    weighted: Callable[[Buckets], Buckets] | None = None
    #: given the buckets: the households of a survey file and the risk of the original
    #: records (with the weights and households); None where the route has no such figures
    survey: Callable[[Buckets | None], tuple[HouseholdPlan | None, RiskSummary | None]] | None = (
        None
    )
    #: what the review record says of the input (a column released although it looks like
    #: an identifier): facts of the original data, never published
    review_notes: Sequence[str] = ()
    #: given the buckets and t: the QI loss of households microaggregated as units (a survey
    #: whose household ids are released), on a sample of whole households; the search of b
    #: weighs it instead of the loss of classes of persons.  None on other routes
    pattern_loss: Callable[[Buckets, float], float | None] | None = None


@one_blas_thread
def plan(data: pd.DataFrame, params: ReleaseParams, *, task: Task = NO_TASK) -> Plan:
    """Look at ``data`` with ``params`` and say what a run will do (module doc).

    Raises :class:`~engine.errors.InputError` when the data cannot be used at all (a named
    column is absent, no records, a noise column without public bounds); parameters that
    cannot be met on this data give a plan whose ``feasibility`` says so, with fixes.
    """
    task.step(0.0, _("Looking at the data"))
    prepared = prepare(data, params)
    values = None
    if params.confidential and not params.noise:
        values = FrameValues(
            prepared.clean, prepared.confidential, prepared.types, prepared.orders,
            joint=params.joint, bounds=params.bounds,
        )  # fmt: skip

    encoded: list[np.ndarray] = []  # the QIs are encoded once, when first asked for

    def qi_codes() -> np.ndarray:
        if not encoded:
            encoded.append(
                encode_qi(
                    prepared.clean,
                    prepared.qi,
                    prepared.types,
                    prepared.orders,
                    prepared.hierarchies,
                )
            )
        return encoded[0]

    def search_qi() -> np.ndarray:
        X = qi_codes()
        return X[search_sample(len(X))]

    def missing(buckets: Buckets | None, t: float | None) -> MissingPlan:
        if not missing_mask(prepared.clean, prepared.qi).any():
            return None, {}, []
        groups, counts = _missing_qi(prepared, params, buckets, t, qi_codes())
        return groups, counts, _withheld_warnings(counts, params, buckets, t, prepared)

    def weighted(buckets: Buckets) -> Buckets:
        assert prepared.weights is not None
        return weighted_bucket_means(
            buckets, prepared.clean, prepared.weights, prepared.types, params.bounds
        )

    def survey(buckets: Buckets | None) -> tuple[HouseholdPlan | None, RiskSummary | None]:
        homes = prepared.households
        risk = disclosure_risk(
            class_ids(prepared.clean, prepared.qi),
            original_sensitive(prepared.clean, params, None if buckets is None else buckets.codes),
            weights=prepared.weights,
            households=None if homes is None else homes.codes,
            linked=homes is not None,
        )
        return (None if homes is None else HouseholdPlan.of(homes)), risk

    def linked_loss(buckets: Buckets, t: float) -> float | None:
        assert prepared.households is not None
        return pattern_loss(
            prepared.clean, prepared.qi, prepared.types, prepared.orders, prepared.households,
            buckets.codes, buckets.shares, t, params.k,
        )  # fmt: skip

    linking = prepared.households is not None and params.released_household()
    facts = PlanData(
        n=len(prepared.clean),
        n_left_out=prepared.n_left_out,
        types=prepared.types,
        confidential=prepared.confidential,
        values=values,
        search_qi=search_qi,
        missing_qi=missing,
        weighted=weighted if prepared.weights is not None else None,
        survey=survey,
        review_notes=tuple(prepared.notes),
        pattern_loss=linked_loss if linking else None,
    )
    noise_columns: list[ColumnPlan] = []
    if params.noise:
        noise_columns = plan_columns(prepared.clean, params, prepared.types, prepared.orders)
    result = plan_data(facts, params, noise_columns=noise_columns, task=task)
    result.prepared = prepared
    result.encoded = encoded[0] if encoded else None  # the run encodes them no second time
    return result


def plan_data(
    facts: PlanData,
    params: ReleaseParams,
    *,
    noise_columns: Sequence[ColumnPlan] = (),
    task: Task = NO_TASK,
) -> Plan:
    """The plan of ``params`` on data known through ``facts`` (:func:`plan`, any route)."""
    n = facts.n
    warnings: list[str] = []
    if facts.n_left_out:
        warnings.append(left_out_warning(facts.n_left_out, n, params))
    t = params.bucket_t if not params.noise else None
    epsilon = params.epsilon
    if t is not None and epsilon is None:
        epsilon = epsilon_from_t(t)
    task.step(0.2, _("Forming buckets"))
    bucket_data: Buckets | None = None
    noise: list[NoiseColumn] = []
    wanted_b = None
    max_classes = None
    choices: list[BucketChoice] = []
    if params.confidential and not params.noise:
        assert t is not None
        bucket_data, choices, wanted_b, said = _plan_buckets(facts, params, t, task.sub(0.2, 0.8))
        warnings.extend(said)
        if params.k <= n:
            max_classes = feasibility.max_classes(bucket_data.counts, t, params.k)
    elif params.noise:
        noise = [column_fact(c, params) for c in noise_columns]
    review = [_drowned_warning(c, params) for c in noise if _drowns(c)]
    task.step(0.8, _("Checking what the data allows"))
    households, risk_before = None, None
    if facts.survey is not None:
        households, risk_before = facts.survey(bucket_data)
    feasible = _feasibility(params, n, bucket_data, t)
    missing_groups, missing_qi = None, {}
    if feasible.ok and facts.missing_qi is not None:
        missing_groups, missing_qi, withheld = facts.missing_qi(bucket_data, t)
        warnings.extend(withheld)
    forecast = _forecast(params, n, bucket_data, t, max_classes, households)
    if forecast.reason:
        warnings.append(forecast.reason)
    feasible = _with_fixes(feasible, params, bucket_data, t, forecast, noise, drowned=bool(review))
    warnings.extend(seed_warnings(params))
    warnings.extend(weight_warnings(params))
    warnings.extend(guidance_warnings(params))
    if households is not None:  # counts of households in the original data: review only
        review.extend(households.warnings())
    items = release_guarantees(
        params, n, column_types={c: facts.types[c] for c in facts.confidential}
    )
    task.step(1.0, _("Planned"))
    return Plan(
        params=params,
        n_records=n,
        t=t,
        epsilon=epsilon,
        n_buckets=wanted_b,
        buckets=(
            tuple(bucket_rows(bucket_data, params.confidential_output))
            if bucket_data is not None
            else ()
        ),
        feasibility=feasible,
        class_sizes=forecast,
        guarantees=tuple(items),
        noise=tuple(noise),
        warnings=tuple(warnings),
        review_warnings=(*facts.review_notes, *review),
        n_left_out=facts.n_left_out,
        bucket_choices=tuple(choices),
        missing_qi=missing_qi,
        households=households,
        risk_before=risk_before,
        bucket_data=bucket_data,
        noise_columns=list(noise_columns),
        missing_groups=missing_groups,
    )


def _plan_buckets(
    facts: PlanData, params: ReleaseParams, t: float, task: Task
) -> tuple[Buckets, list[BucketChoice], int, list[str]]:
    """The confidential buckets of a bucket release: (the buckets, the search's choices, b,
    the warnings about them).

    b is the one given, or the one the search of b with the class size found to lose least
    (on a sample of the QIs); the buckets' released means keep the weighted totals of a
    survey with weights.
    """
    values = facts.values
    assert values is not None
    choices: list[BucketChoice] = []
    if params.n_buckets is None:
        assert facts.search_qi is not None
        # each search reads its own sample (search_qi: the households' route samples again)
        search = partial(
            search_buckets,
            values,
            t=t,
            k=params.k,
            weight=params.utility_weight,
            output=params.confidential_output,
        )
        linked_loss = facts.pattern_loss
        bucket_data, choices = search(
            facts.search_qi(), task=task.sub(0.0, 0.3) if linked_loss is not None else task
        )
        if linked_loss is not None:
            # households as units: b searched on their own route, its QI loss held within
            # QI_BUDGET times what persons alone would lose (fewer buckets first)
            plain = next(c.qi_loss for c in choices if c.chosen)
            bucket_data, choices = search(
                facts.search_qi(),
                qi_loss=lambda b: linked_loss(b, t),
                qi_limit=None if plain is None else QI_BUDGET * plain,
                task=task.sub(0.3, 1.0),
            )
        wanted_b = next(c.b for c in choices if c.chosen)
    else:
        wanted_b = params.n_buckets
        bucket_data = values.buckets(wanted_b)
    if facts.weighted is not None:  # released means keep the weighted totals
        bucket_data = facts.weighted(bucket_data)
    warnings = [
        *_outside_bounds(values.outside(params.bounds), params.bounds),
        *_bucket_warnings(
            bucket_data,
            params,
            wanted_b,
            values.distinct(),
            facts.types,
            thin=not values.held(wanted_b),
        ),
        *_dominated_warnings(bucket_data, params),
    ]
    return bucket_data, choices, wanted_b, warnings


def _with_fixes(
    feasible: Feasibility,
    params: ReleaseParams,
    bucket_data: Buckets | None,
    t: float | None,
    forecast: ClassSizeForecast,
    noise: list[NoiseColumn],
    *,
    drowned: bool,
) -> Feasibility:
    """Feasible parameters with the fixes that would serve the data better: when records
    with missing QIs would be withheld, or (``drowned``) the noise would drown a column."""
    if feasible.ok and bucket_data is not None and t is not None:
        fixes = _missing_fixes(params, bucket_data, t, forecast)
        feasible = Feasibility(True, fixes=fixes) if fixes else feasible
    if feasible.ok and drowned:
        feasible = Feasibility(True, fixes=feasible.fixes + _noise_fixes(params, noise))
    return feasible


def _missing_qi(
    prepared: Prepared,
    params: ReleaseParams,
    buckets: Buckets | None,
    t: float | None,
    X: np.ndarray | None,
) -> tuple[tuple[np.ndarray, np.ndarray] | None, dict[str, MissingCount]]:
    """The groups of records alike in their missing QIs, the values withheld, and per QI the
    counts (:mod:`engine.release.columns.missing_qi`); (None, {}) when no QI value is missing."""
    missing = missing_mask(prepared.clean, prepared.qi)
    if not missing.any():
        return None, {}
    if X is None:
        X = encode_qi(
            prepared.clean, prepared.qi, prepared.types, prepared.orders, prepared.hierarchies
        )
    groups, withheld = pattern_groups(
        missing,
        params.k,
        codes=None if buckets is None else buckets.codes,
        shares=None if buckets is None else buckets.shares,
        t=t if buckets is not None else None,
        X=X,
    )
    counts = {}
    for i, col in enumerate(prepared.qi):
        before, hidden = int(missing[:, i].sum()), int(withheld[:, i].sum())
        if before or hidden:
            counts[col] = MissingCount(before, before + hidden, hidden)
    return (groups, withheld), counts


def _withheld_warnings(
    counts: Mapping[str, MissingCount],
    params: ReleaseParams,
    buckets: Buckets | None,
    t: float | None,
    prepared: Prepared,
) -> list[str]:
    """Say which known QI values will be released empty, and why; offer what helps."""
    hidden = {c: m.withheld for c, m in counts.items() if m.withheld}
    if not hidden:
        return []
    parts = [_("{n} of {column}").format(n=number(n), column=quoted(c)) for c, n in hidden.items()]
    listed = (
        parts[0]
        if len(parts) == 1
        else _("{items} and {last}").format(items=", ".join(parts[:-1]), last=parts[-1])
    )
    if t:
        why = _(
            "every class needs at least {k} records and every bucket within a factor t of "
            "its share in the file"
        ).format(k=number(params.k))
    else:
        why = _("every class needs at least {k} records").format(k=number(params.k))
    text = _(
        "Missing quasi-identifier values stay missing, and a class is formed of records that "
        "agree on which ones are missing. Where too few records agree, or they hold too "
        "different confidential values ({why}), known values are released empty instead: "
        "{listed}."
    ).format(why=why, listed=listed)
    if (
        buckets is not None
        and t is not None
        and buckets.missing_bucket is not None
        and params.missing_confidential == "bucket"
    ):
        keep = buckets.codes != buckets.missing_bucket
        if keep.sum() >= params.k:
            missing = missing_mask(prepared.clean, prepared.qi)[keep]
            codes = buckets.codes[keep]
            codes = np.where(codes > buckets.missing_bucket, codes - 1, codes)
            shares = np.bincount(codes) / len(codes)
            _groups, other = pattern_groups(missing, params.k, codes=codes, shares=shares, t=t)
            after = int(other.sum())
            if after < sum(hidden.values()):
                text += " " + _(
                    "Leaving out the records with a missing confidential value "
                    "(missing_confidential 'drop') would withhold {n} value(s) in all."
                ).format(n=number(after))
    return [text]


def _outside_bounds(
    outside: Mapping[str, int], bounds: Mapping[str, tuple[float, float]]
) -> list[str]:
    """Warnings for values beyond the public bounds: their outer bucket says "at the bound"."""
    out = []
    for col, n_out in outside.items():
        lo, hi = bounds[col]
        if n_out:
            out.append(
                _(
                    "{n} value(s) of {column} lie outside its public bounds {low}:{high}; "
                    "they are released in the outer buckets, as if clamped to the bounds."
                ).format(n=number(n_out), column=quoted(col), low=number(lo), high=number(hi))
            )
    return out


def _bucket_warnings(
    buckets: Buckets,
    params: ReleaseParams,
    wanted_b: int,
    distinct: int | None,
    types: Mapping[str, ColumnType],
    *,
    thin: bool = False,
) -> list[str]:
    """Say when fewer buckets than asked could be formed, with the cause that binds: too
    few distinct values (counted), a bucket of fewer than :data:`MIN_BUCKET` records
    (``thin``: the b asked would make one), or, for one numeric column, outer buckets merged
    inward (a bucket whose values or mean lie beyond the central 99 % would print an
    outlier)."""
    got = len(buckets.counts) - (buckets.missing_bucket is not None)
    if got == 0:
        return [
            _(
                "Every confidential value is missing: the release carries no confidential "
                "information."
            )
        ]
    if params.n_buckets is None or got >= wanted_b:
        return []
    values = {"got": number(got), "wanted": number(wanted_b)}
    columns = list(params.confidential)
    if distinct is not None and distinct < wanted_b:
        return [
            _(
                "Only {got} buckets could be formed (asked for {wanted}): the confidential "
                "data has only {distinct} distinct values."
            ).format(**values, distinct=number(distinct))
        ]
    if thin:
        return [
            _(
                "Only {got} buckets could be formed (asked for {wanted}): with {wanted} a "
                "bucket would hold fewer than {least} records, and a bucket's label and mean "
                "are printed for each of its records, so they would be a person's value."
            ).format(**values, least=number(MIN_BUCKET))
        ]
    if len(columns) == 1 and types.get(columns[0]) in (ColumnType.NUMERIC, ColumnType.DATE):
        return [
            _(
                "Only {got} buckets could be formed (asked for {wanted}): outer buckets whose "
                "values or mean lie beyond the central 99 % of {column!r} are merged with their "
                "neighbours, so that no label or released mean points at an outlier."
            ).format(**values, column=columns[0])
        ]
    # several columns: the split of their tuples stopped short (no single countable cause)
    return [
        _(
            "Only {got} buckets could be formed from the combinations of {columns} (asked for "
            "{wanted})."
        ).format(**values, columns=", ".join(map(repr, columns)))
    ]


def _dominated_warnings(buckets: Buckets, params: ReleaseParams) -> list[str]:
    """Say where the p%-rule withholds a bucket's mean (only when means are released)."""
    if params.confidential_output != "mean" or buckets.stats is None:
        return []
    out = []
    for i, col in enumerate(buckets.columns):
        hit = [
            (buckets.column_labels or [(lab,) for lab in buckets.labels])[j][i]
            for j, stats in enumerate(buckets.stats)
            if stats[i] is not None and stats[i].dominated
        ]
        if hit:
            shown = ", ".join(hit[:3]) + (" …" if len(hit) > 3 else "")
            out.append(
                _(
                    "In {n} bucket(s) of {column} ({shown}) one or two records make up "
                    "nearly the whole sum (p%-rule, p = {p} %): their mean would tell "
                    "those records' values, so the bucket's median is released there instead, "
                    "and the released total of {column} is not exact."
                ).format(n=len(hit), column=quoted(col), shown=shown, p=number(P_RULE * 100))
            )
    return out


def _feasibility(
    params: ReleaseParams, n: int, buckets: Buckets | None, t: float | None
) -> Feasibility:
    """Infeasible means k > N: with the file's own shares one class of everything is t-close.
    (k above the number of households of a survey file is refused when the file is
    prepared, :func:`~engine.release.households.check_households`.)

    The fix offered is the largest k that still leaves two or more classes at this t (a
    release whose QIs say something), or k = N when no k does.
    """
    if params.k <= n:
        return Feasibility(True)
    best = n
    if buckets is not None and t is not None:
        best = _largest_useful_k(buckets.counts, t, n) or n
    elif n >= 2:
        best = n // 2
    if best < n:
        what = _("k = {k} (the largest k that leaves at least 2 classes)").format(k=number(best))
    else:
        what = _("k = {k} (one class holding every record)").format(k=number(n))
    return Feasibility(
        False,
        _("k = {k} needs at least {k} records but the file has {n}.").format(
            k=number(params.k), n=number(n)
        ),
        (Fix(what, {"k": best}),),
    )


def _largest_useful_k(counts: np.ndarray, t: float, n: int) -> int | None:
    """The largest k for which the data allows at least two classes at this t (bisection)."""
    lo, hi = 1, n // 2
    if hi < 1 or feasibility.max_classes(counts, t, lo) < 2:
        return None
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if feasibility.max_classes(counts, t, mid) >= 2:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _forecast(
    params: ReleaseParams,
    n: int,
    buckets: Buckets | None,
    t: float | None,
    max_classes: int | None,
    households: HouseholdPlan | None = None,
) -> ClassSizeForecast:
    """How large the classes will be, and the cause that binds them, named from the facts
    that bind: k against N, the rarest bucket's count, the factor t, the households."""
    k = params.k
    if buckets is None or t is None or not max_classes or k > n:
        least = min(k, n)
        return _household_forecast(ClassSizeForecast(k, None, least, least), n, households)
    smallest = smallest_class(buckets.counts, t, k)
    if households is not None and params.released_household():
        # households microaggregated as units form classes of unequal sizes (the households
        # left without an id, the positions of each pattern group: one member of each
        # household of the group, not whole households), so neither the balanced layout's
        # count of classes nor the households' sizes bound anything: only the smallest
        # t-close class is certain
        return ClassSizeForecast(k, None, smallest, smallest)
    average = n // max_classes
    if average <= k:
        forecast = ClassSizeForecast(k, max_classes, smallest, average)
        return _household_forecast(forecast, n, households)
    counts = buckets.counts
    rarest = int(np.argmin(counts))
    sizes = {"average": number(average), "smallest": number(smallest), "k": number(k)}
    if max_classes == 1 and 2 * k > n:
        cause = "k"
        useful = _largest_useful_k(counts, t, n)
        reason = _(
            "k = {k} is more than half of the {n} records: two classes of {k} records do not "
            "fit, so the release would be a single group of all {n} records, with every "
            "quasi-identifier replaced by one value."
        ).format(k=number(k), n=number(n))
        if useful:
            reason += " " + _("k = {useful} or less leaves at least two classes.").format(
                useful=number(useful)
            )
        else:
            reason += " " + _("At t = {t} no smaller k leaves two classes: choose a larger t.")
            reason = reason.format(t=number(t, 4))
    # every class holds every bucket: a rare (or the missing) bucket caps the classes first
    elif max_classes >= int(counts[rarest]):
        if _missing(buckets):
            cause = "missing"
            rarest = int(buckets.missing_bucket)
            what = _(
                "the {n} record(s) with a missing confidential value form a bucket of their own"
            ).format(n=number(int(counts[rarest])))
            remedy = _("Leaving out the records with a missing value, or fewer buckets,")
        else:
            cause = "rarest"
            what = _("the rarest bucket ({label}) holds only {n} record(s)").format(
                label=buckets.labels[rarest], n=number(int(counts[rarest]))
            )
            remedy = _("Fewer buckets")
        reason = _(
            "Classes will hold {average} records or more on average, each at least "
            "{smallest} (k = {k} was asked): every class needs a record of every bucket, and "
            "{what}, so there can be at most {classes} class(es). {remedy} allows smaller "
            "classes."
        ).format(**sizes, what=what, classes=number(max_classes), remedy=remedy)
    elif max_classes == 1:
        cause = "t"
        reason = _(
            "At t = {t} the data allows only one class: the release would be a single "
            "group of all {n} records, with every quasi-identifier replaced by one value. "
            "Choose a larger t or fewer buckets."
        ).format(t=number(t, 4), n=number(n))
    else:
        cause = "t"
        reason = _(
            "Classes will hold {average} records or more on average, each at least "
            "{smallest} (k = {k} was asked): at t = {t} each class must hold every bucket "
            "within a factor t of its share in the file, which leaves room for at most "
            "{classes} classes. A larger t or fewer buckets allows smaller classes."
        ).format(**sizes, t=number(t, 4), classes=number(max_classes))
    forecast = ClassSizeForecast(k, max_classes, smallest, average, cause, reason)
    return _household_forecast(forecast, n, households)


def _household_forecast(
    forecast: ClassSizeForecast, n: int, households: HouseholdPlan | None
) -> ClassSizeForecast:
    """The forecast with what whole households add: each class holds records of at least k
    households, so where households have several members its classes hold more than k
    records (said with the households' own counts)."""
    k = forecast.k
    if households is None or not households.n_households or k <= 1:
        return forecast
    per_home = n / households.n_households
    about = math.floor(k * per_home)
    if about <= max(k, forecast.average):
        return forecast
    said = _(
        "Each class holds records of at least {k} households: the {n} records live in "
        "{homes} households ({per_home} records each on average, up to {largest}), so a class "
        "of {k} households holds about {about} records."
    ).format(
        k=number(k),
        n=number(n),
        homes=number(households.n_households),
        per_home=number(per_home, 3),
        largest=number(households.largest),
        about=number(about),
    )
    reason = f"{forecast.reason} {said}" if forecast.reason else said
    return replace(forecast, cause=forecast.cause or "households", reason=reason)


def smallest_class(counts: np.ndarray, t: float, k: int) -> int:
    """The fewest records a class of a t-close release on these bucket counts can hold.

    A class of m records is t-close when some n_j with ``ceil(m·p_j/t) ≤ n_j ≤ floor(m·p_j·t)``
    (and at least one of every bucket) add up to m (KBS 2015 §6.2): the bounds must not
    cross, and m must lie between their sums.  The smallest such m ≥ k is a minimum every
    class of the verified release meets, whatever the partition does; searched in chunks
    from k up (a balanced class of ⌊N / max_classes⌋ always qualifies).
    """
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    if n == 0 or k >= n:
        return min(k, n)
    shares = counts / n
    chunk = 4096
    for first in range(max(k, 1), n + 1, chunk):
        m = np.arange(first, min(first + chunk, n + 1))
        low, high = feasibility.class_bounds(m, shares, t)
        ok = (low <= high).all(axis=1) & (low.sum(axis=1) <= m) & (m <= high.sum(axis=1))
        if ok.any():
            return int(m[np.argmax(ok)])
    return n


def _missing(buckets: Buckets) -> bool:
    """Whether the missing bucket is (one of) the rarest, the one that caps the classes."""
    j = buckets.missing_bucket
    return j is not None and int(buckets.counts[j]) == int(buckets.counts.min())


def weight_warnings(params: ReleaseParams) -> list[str]:
    """What releasing the weights unchanged costs: a weight is a key like any QI (weights
    reveal the sampling stratum), so it can split a class; the run reports the k and t the
    release has with it.  Empty unless ``weight_output="keep"``."""
    if params.released_weight() != "keep":
        return []
    return [
        _(
            "The weights ({column}) are released unchanged: a weight is a key like a "
            "quasi-identifier (weights reveal the sampling stratum), so the run reports the k "
            "and t the release has with the weight as a key; weight_output 'class' releases "
            "every class's mean weight instead."
        ).format(column=repr(params.weight))
    ]


def seed_warnings(params: ReleaseParams) -> list[str]:
    """What a fixed seed costs: a reproducible run is only as private as the seed is secret.

    Said by the plan; empty without a seed.
    """
    if params.seed is None:
        return []
    if params.noise:
        return [
            _(
                "A fixed seed ({seed}) makes the run reproducible for an audit; the noise is "
                "only as private as the seed is secret."
            ).format(seed=params.seed)
        ]
    return [
        _(
            "A fixed seed ({seed}) makes the run reproducible for an audit; keep it as "
            "confidential as the data."
        ).format(seed=params.seed)
    ]


def left_out_warning(left_out: int, n: int, params: ReleaseParams) -> str:
    columns = ", ".join(map(repr, params.confidential))
    return _(
        "{n} record(s) with a missing value of {columns} are left out of the "
        "release, as asked: it holds {kept} of the {total} records."
    ).format(n=number(left_out), columns=columns, kept=number(n), total=number(n + left_out))


def _missing_fixes(
    params: ReleaseParams, buckets: Buckets, t: float, forecast: ClassSizeForecast
) -> tuple[Fix, ...]:
    """Leaving out the records with a missing confidential value, when their bucket is what
    forces classes far larger than k (one blank income among 300 gives one class of 300).

    Offered when it allows more classes: the value buckets without the missing one are what
    the release would then have to hold (the cut points leave missing values aside already).
    """
    j = buckets.missing_bucket
    if j is None or not forecast.reason or not forecast.max_classes or not _missing(buckets):
        return ()
    counts = np.delete(buckets.counts, j)
    if not len(counts) or params.k > int(counts.sum()):
        return ()
    after = feasibility.max_classes(counts, t, params.k)
    if after <= forecast.max_classes:
        return ()
    left_out = int(buckets.counts[j])
    return (
        Fix(
            _(
                "leave out the {n} record(s) with a missing confidential value: classes "
                "of about {about} records instead of {average}"
            ).format(
                n=number(left_out),
                about=number(int(counts.sum()) // after),
                average=number(forecast.average),
            ),
            {"missing_confidential": "drop"},
        ),
    )


def _alternative(choice: BucketChoice, chosen: BucketChoice) -> Fix:
    """A point of the search of b as a one-click fix that says what it keeps, beside the
    chosen point: the confidential loss (exact) and the QI loss as a ratio to the chosen
    one's (both estimated alike from a sample).  Short: the app shows it on a button."""
    words = _("{n} buckets: confidential loss {loss}").format(
        n=choice.n_buckets, loss=percent(choice.confidential_loss)
    )
    if choice.qi_loss is not None and chosen.qi_loss:
        words += _(", QI loss × {ratio}").format(ratio=number(choice.qi_loss / chosen.qi_loss, 2))
    return Fix(words, {"n_buckets": choice.b})


def _drowns(column: NoiseColumn) -> bool:
    """Whether the expected error of the noise exceeds the column's typical size."""
    return column.error_ratio is not None and column.error_ratio > 1.0


def _drowned_warning(column: NoiseColumn, params: ReleaseParams) -> str:
    """Say in plain words that the noise would drown a column's values, and what helps."""
    assert column.error_ratio is not None and column.typical_size is not None
    name, ratio = column.name, number(column.error_ratio, 2)
    if column.typical_factor is not None:
        size = _(
            "about a factor {factor} per value, {ratio} times as much as the values "
            "themselves differ (middle half, on the same log scale)"
        ).format(factor=number(column.typical_factor, 3), ratio=ratio)
    else:
        size = _(
            "about ±{error} per value, {ratio} times the spread of the middle half of the "
            "values ({size})"
        ).format(
            error=number(column.expected_abs_error, 3),
            ratio=ratio,
            size=number(column.typical_size, 3),
        )
    helps = []
    if not params.insensitive and params.k > 1:
        helps.append(
            _("averaging in groups of k = {k} before the noise ({k} times less noise)").format(
                k=number(params.k)
            )
        )
    helps += [_("narrower public bounds (closer to where the values really lie)")]
    helps += [_("the buckets mechanism (no noise)"), _("a larger ε")]
    return _(
        "The noise would drown the values of {column}: {size}. The released values would "
        "say little about anyone, and clamping the noise to the bounds would pull their mean "
        "towards the middle of the bounds. What helps: {helps}."
    ).format(column=quoted(name), size=size, helps="; ".join(helps))


def _noise_fixes(params: ReleaseParams, noise: list[NoiseColumn]) -> tuple[Fix, ...]:
    """Settings that bring the noise down to the values' typical size (one-click fixes)."""
    worst = max((c for c in noise if _drowns(c)), key=lambda c: c.error_ratio or 0.0)
    ratio = worst.error_ratio or 1.0
    out = []
    if not params.insensitive and params.k > 1:
        after = ratio / params.k
        out.append(
            Fix(
                _(
                    "average in groups of k = {k} before the noise: noise "
                    "{after} times the values' spread instead of {before}"
                ).format(k=number(params.k), after=number(after, 2), before=number(ratio, 2)),
                {"insensitive": True},
            )
        )
    assert params.epsilon is not None
    wanted = params.epsilon * ratio
    step = 10.0 ** (math.floor(math.log10(wanted)) - 1)  # two significant digits, rounded up
    epsilon = round(math.ceil(wanted / step - 1e-9) * step, 12)
    out.append(
        Fix(
            _(
                "ε = {epsilon}: noise about the size of the values' spread "
                "(a weaker guarantee than ε = {asked})"
            ).format(epsilon=number(epsilon), asked=number(params.epsilon)),
            {"epsilon": epsilon},
        )
    )
    return tuple(out)


__all__ = [
    "ClassSizeForecast",
    "Feasibility",
    "Fix",
    "NoiseColumn",
    "Plan",
    "PlanData",
    "plan",
    "plan_data",
]
