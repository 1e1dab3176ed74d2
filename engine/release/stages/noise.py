"""Construction B end to end: k-anonymous QIs, ε-DP noise on the confidential columns.

:func:`noise_release` is what :func:`engine.release.anonymize` calls for every
mechanism but ``"buckets"``.  Steps (Construction B):

1. declared missing codes become missing; column types are resolved as for the buckets route;
2. QIs: k-anonymous microaggregation (no bucket constraint), released as class centroids or
   ranges exactly as the buckets route releases them;
3. each confidential column gets ε/m of the budget (m columns, sequential composition, so the
   record as a whole is ε-DP): numeric columns Laplace noise after clamping to public bounds
   (plain, or after insensitive microaggregation), clamped to the bounds again afterwards,
   nominal and ordinal columns randomized response over their categories.  A numeric column
   needs public bounds (:class:`BoundsRequiredError` otherwise: the data's own minimum and
   maximum are never used), or ``private_bounds`` = a share s of ε: the column then spends
   s·ε/m on DP quantiles as bounds (:mod:`engine.mechanisms.bounds`) and (1 − s)·ε/m on
   the noise;
4. optionally, the noise is redrawn until the release is actually t-close on buckets of the
   released values (poster / SECRYPT 2013 greedy variant); every draw spends ε again and the
   summary reports ε × draws;
5. the table is shuffled, verified for k by the independent checker, and summarised with every
   guarantee of :func:`engine.privacy.guarantees` and its assumption.

What is not protected by ε and is said so in the summary: whether a value is missing (a
missing value is released missing; the review record counts them), and (for the insensitive
variant) which records share a group value.  The categories of a nominal or ordinal column
are public (declared, never read off the data; a value outside them is released as one of
them drawn at random), so ε covers them.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import pandas as pd

from engine.i18n import _
from engine.mechanisms.sampling import noise_source
from engine.params import ReleaseParams
from engine.privacy import stochastic_t
from engine.progress import NO_TASK, Task
from engine.release.columns import (
    encode_qi,
    partition_by_group,
)
from engine.release.households import household_partition, merge_for_households
from engine.release.measures import sse_sst
from engine.release.model import (
    InformationLoss,
    NoiseColumn,
    NoiseSummary,
    Release,
    RiskSummary,
    RunSummary,
)
from engine.release.stages.summarise import summarise
from engine.release.stages.survey import survey_classes
from engine.release.stages.tail import Published, finish, publish, withheld_qi
from engine.roles import ColumnType

if TYPE_CHECKING:
    from engine.release.stages.prepare import Prepared
from engine.release.noise import (
    NOISE_SHARE_WARNING,
    ColumnDraw,
    ColumnPlan,
    draw_columns,
    estimate_bounds,
    noise_share_warning,
)


class NoisePlan(Protocol):
    """What :func:`noise_release` runs: the part of a :class:`~engine.release.Plan` it
    reads (a protocol, so this module needs nothing from the plan's)."""

    params: ReleaseParams
    prepared: Prepared | None
    noise_columns: list[ColumnPlan]
    warnings: tuple[str, ...]
    #: groups of records alike in their missing QIs, and the QI values withheld
    missing_groups: tuple[np.ndarray, np.ndarray] | None
    #: the risk of the original records (reused by the summary)
    risk_before: RiskSummary | None


def noise_release(data: pd.DataFrame, plan: NoisePlan, *, task: Task = NO_TASK) -> Release:
    """Construction B: k-anonymous QIs and ε-DP confidential values (module doc).

    Runs ``plan`` (from :func:`engine.release.plan`, which fixed each column's ε and
    bounds); call it through :func:`engine.release.anonymize`.
    """
    started = time.perf_counter()
    params, prepared = plan.params, plan.prepared
    assert prepared is not None and params.noise and params.epsilon is not None
    qi, clean = prepared.qi, prepared.clean
    original = prepared.released_input(data)  # without the records left out ("drop")

    task.step(0.05, _("Grouping records"))
    X = encode_qi(clean, qi, prepared.types, prepared.orders, prepared.hierarchies)
    classes, homes, qi_loss, released_qi, linked = _noise_classes(X, plan, task.sub(0.05, 0.5))

    source = noise_source(params.seed)
    warnings = list(plan.warnings)
    plans = estimate_bounds(plan.noise_columns, source, warnings)
    column_draws, draws, achieved_t, b = draw_columns(plans, classes, params, source, task)
    warnings += _noise_share_warnings(column_draws)
    task.step(0.86, _("Building the release"))
    published = publish(
        params,
        prepared,
        classes,
        t=None,
        qi_values=released_qi,
        original=_with_noisy_columns(original, column_draws),
        keep=[*params.keep, *prepared.confidential],
        buckets=None,
        released={d.released.name: d.released.reset_index(drop=True) for d in column_draws},
        released_as={d.released.name: d.fact.described for d in column_draws},
        checked=(),
        homes=homes,
        linked=linked,
        task=task.sub(0.86, 0.98),
    )
    if qi_loss is None or (homes is None and qi):
        # the loss of the released file: classes alike have merged
        qi_loss = sse_sst(X, published.groups[classes]) if qi else 0.0
    summary = _run_summary(
        plan,
        published,
        classes,
        plans,
        column_draws,
        draws=draws,
        achieved_t=achieved_t,
        b=b,
        qi_loss=qi_loss,
        homes=homes,
        warnings=warnings,
        started=started,
    )
    task.step(1.0, _("Done"))
    return finish(params, prepared, published, summary, classes, buckets=None, warnings=warnings)


def _noise_classes(
    X: np.ndarray, plan: NoisePlan, task: Task
) -> tuple[np.ndarray, np.ndarray | None, float | None, pd.DataFrame, np.ndarray | None]:
    """The classes the QIs are released by, before any noise is drawn: (the class of every
    record, its household group or None, the QI loss of household groups (None: measured on
    the release), the QI values to recode, with those a class must withhold emptied, and per
    household whether it is released with an id on the route of pattern groups).

    Microaggregation into classes of k (records alike in which QIs are missing together);
    households microaggregated as units when their ids are released; or whole households in
    groups when the survey has household-level QIs.
    """
    params, prepared = plan.params, plan.prepared
    assert prepared is not None
    qi, clean, types, orders = prepared.qi, prepared.clean, prepared.types, prepared.orders
    n = len(clean)
    # records alike in which QIs are missing form classes together (missing stays missing)
    if plan.missing_groups is not None:
        groups, withheld = plan.missing_groups
    else:
        groups, withheld = np.zeros(n, dtype=np.int64), None
    households, homes = prepared.households, None
    qi_loss: float | None = 0.0
    linked = survey_classes(params, prepared, X, None, None, task)
    if linked is not None:  # household ids released: households as units
        released_qi = withheld_qi(clean, qi, linked.classes, None, households, linked.homes)
        return linked.classes, linked.homes, None, released_qi, linked.linked
    if households is not None and households.level:
        classes, homes, qi_loss = household_partition(
            clean, qi, types, orders, households, None, None, params.k, params.k,
            mode=params.qi_output, task=task,
        )  # fmt: skip
        withheld = None  # the classes follow the households, not the missing patterns
    elif qi and params.k > 1:
        from engine.release.partition import microaggregate

        classes = partition_by_group(
            groups,
            lambda rows, sub: microaggregate(X[rows], params.k, seed=params.seed, task=sub),
            task,
        )
    elif qi:
        classes = np.arange(n, dtype=np.int64)
    else:
        classes = np.zeros(n, dtype=np.int64)
    if households is not None and homes is None:
        classes = merge_for_households(X, classes, households.codes, params.k)
    released_qi = withheld_qi(clean, qi, classes, withheld, households, homes)
    return classes, homes, qi_loss, released_qi, None


def _noise_share_warnings(column_draws: list[ColumnDraw]) -> list[str]:
    """A warning for every column whose released values are mostly noise."""
    warnings = []
    for draw in column_draws:
        share = draw.fact.noise_share
        if share is not None and share >= NOISE_SHARE_WARNING:
            warnings.append(noise_share_warning(str(draw.released.name), share))
    return warnings


def _with_noisy_columns(original: pd.DataFrame, column_draws: list[ColumnDraw]) -> pd.DataFrame:
    """The released input rows with every confidential column replaced by its noisy draw."""
    released = original.copy()
    for draw in column_draws:
        released[draw.released.name] = draw.released.set_axis(released.index)
    return released


def _run_summary(
    plan: NoisePlan,
    published: Published,
    classes: np.ndarray,
    plans: list[ColumnPlan],
    column_draws: list[ColumnDraw],
    *,
    draws: int,
    achieved_t: float | None,
    b: int,
    qi_loss: float,
    homes: np.ndarray | None,
    warnings: list[str],
    started: float,
) -> RunSummary:
    """The run summary of a noise release: its guarantees (the stochastic t, or the t the
    resampling reached), its losses and what the noise spent and drew."""
    params, prepared = plan.params, plan.prepared
    assert prepared is not None and params.epsilon is not None
    n = len(classes)
    verification = published.verification
    details = {str(d.released.name): d.fact for d in column_draws}
    # the per-record ε of the whole confidential projection (sequential composition)
    local_eps = sum(d.epsilon_local for d in details.values())
    k_min = int(verification.k)
    return summarise(
        params,
        verification,
        n_records=n,
        column_types=prepared.types,
        draws=draws,
        n_left_out=prepared.n_left_out,
        t=achieved_t if achieved_t is not None else stochastic_t(local_eps, k_min, n),
        t_kind="actual (resampled)" if achieved_t is not None else "stochastic",
        t_achieved=achieved_t,
        epsilon=params.epsilon,
        epsilon_from="given",
        epsilon_achieved=None,
        n_partition_classes=int(classes.max()) + 1 if n else 0,
        information_loss=_information_loss(plans, details, qi_loss),
        noise=_noise_summary(
            params, plans, column_draws, draws=draws, achieved_t=achieved_t, b=b, k_min=k_min, n=n
        ),
        worst_class=None,
        worst_bucket=None,
        warnings=warnings,
        **published.summary_fields(
            params,
            prepared,
            prepared.clean,
            prepared.qi,
            buckets=None,
            homes=homes,
            risk_before=plan.risk_before,
            started=started,
        ),
    )


def _information_loss(
    plans: list[ColumnPlan], details: Mapping[str, NoiseColumn], qi_loss: float
) -> InformationLoss:
    """The losses of a noise release: the QIs' and, pooled and per column, the noise's."""
    numeric = [c for c in plans if c.ctype == ColumnType.NUMERIC]
    sst = sum(details[c.name].sst or 0.0 for c in numeric)
    return InformationLoss(
        # household groups: the loss of the household partition; else the loss of the
        # released file (classes whose released values coincide have merged)
        qi_sse_sst=qi_loss,
        # released versus original numeric values, SSE over SST pooled over the columns
        confidential_sse_sst=(
            sum(details[c.name].sse or 0.0 for c in numeric) / sst if numeric and sst > 0 else None
        ),
        confidential_columns={name: _losses(d) for name, d in details.items()},
    )


def _noise_summary(
    params: ReleaseParams,
    plans: list[ColumnPlan],
    column_draws: list[ColumnDraw],
    *,
    draws: int,
    achieved_t: float | None,
    b: int,
    k_min: int,
    n: int,
) -> NoiseSummary:
    """What the noise spent and drew, per column and in all."""
    assert params.epsilon is not None
    details = {str(d.released.name): d.fact for d in column_draws}
    numeric = [c for c in plans if c.ctype == ColumnType.NUMERIC]
    local_eps = sum(d.epsilon_local for d in details.values())
    bounds_epsilon = sum(c.bounds_epsilon for c in plans)
    return NoiseSummary(
        epsilon_per_column={c.name: c.epsilon + c.bounds_epsilon for c in plans},
        epsilon_noise_per_column={c.name: c.epsilon for c in plans},
        bounds_epsilon=bounds_epsilon,
        epsilon_local=local_eps,
        # the bounds are estimated once; every draw of the noise spends the rest again
        epsilon_spent=bounds_epsilon + (params.epsilon - bounds_epsilon) * draws,
        draws=draws,
        stochastic_t=stochastic_t(local_eps, k_min, n) if plans else None,
        actual_t=achieved_t,
        resample_buckets=b or None,
        bounds={c.name: c.bounds for c in numeric if c.bounds is not None},
        noise_scale={c.name: details[c.name].noise_scale for c in numeric},
        columns=details,
        corrected_shares={
            d.released.name: d.corrected for d in column_draws if d.corrected is not None
        },
    )


#: the per-column figures that go into the information-loss part of the summary
_LOSS_KEYS = ("mean_absolute_error", "mean_original", "mean_released", "sse_sst")


def _losses(fact: NoiseColumn) -> dict[str, Any]:
    """What the review record says of a column's error on the data (InformationLoss)."""
    keys = _LOSS_KEYS if fact.type == "numeric" else ("share_changed",)
    return {key: getattr(fact, key) for key in keys}
