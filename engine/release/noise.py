"""Construction B end to end: k-anonymous QIs, ε-DP noise on the confidential columns.

:func:`noise_release` is what :func:`engine.release.anonymize.anonymize` calls for every
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

What is not protected by ε and is said so in the summary: whether a value is missing, the set
of categories of a nominal column, and (for the insensitive variant) which records share a
group value.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import pandas as pd

from engine.errors import InfeasibleError, InputError
from engine.i18n import _
from engine.io.about import MOSTLY_NOISE
from engine.mechanisms import MECHANISMS
from engine.mechanisms.bounds import private_bounds
from engine.mechanisms.laplace import (
    check_bounds,
    expected_abs_error,
    factor_of_scale,
    from_log_scale,
    log_bounds,
    to_log_scale,
    typical_factor,
)
from engine.mechanisms.response import (
    CorrectedShares,
    corrected_shares,
    uniform_keep_probability,
)
from engine.mechanisms.sampling import NoiseSource, noise_source
from engine.params import ReleaseParams
from engine.privacy import stochastic_t
from engine.progress import NO_TASK, Task
from engine.release.buckets import paper_bucket_count
from engine.release.columns import (
    category_order,
    decimals,
    encode_qi,
    numeric_values,
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
from engine.release.summary import summarise
from engine.release.tail import Published, finish, publish, withheld_qi
from engine.release.verify import class_distances
from engine.roles import ColumnType
from engine.text import number, percent

if TYPE_CHECKING:
    from engine.release.prepare import Prepared

#: most draws of the greedy resample-until-t variant before giving up
MAX_DRAWS = 100


class BoundsRequiredError(InputError):
    """Laplace noise was asked for numeric columns that have neither public nor private bounds.

    ``columns`` names them, so that a caller can add its own way of giving bounds (the
    command line adds its flags) to the message.
    """

    def __init__(self, columns: list[str]) -> None:
        names = ", ".join(map(repr, columns))
        plural = "s" if len(columns) > 1 else ""
        super().__init__(
            f"Laplace noise on {names} needs public bounds: the lowest and highest value the "
            f"column{plural} can take, known without looking at this file (the data's own "
            "minimum and maximum are not differentially private). Give them, or spend a share "
            "of ε on estimating them privately."
        )
        self.columns = list(columns)


def laplace_columns(params: ReleaseParams, types: Mapping[str, ColumnType]) -> list[str]:
    """The confidential columns that get Laplace noise (the numeric ones)."""
    if not params.noise:
        return []
    return [c for c in params.confidential if ColumnType(types[c]) == ColumnType.NUMERIC]


def require_bounds(params: ReleaseParams, types: Mapping[str, ColumnType]) -> None:
    """Raise :class:`BoundsRequiredError` unless every Laplace column can get its bounds.

    ``types`` maps (at least) the confidential columns to their types.  The GUI and a plan
    can call this before any run; :func:`noise_release` calls it too.
    """
    if params.private_bounds is not None:
        return
    lacking = [c for c in laplace_columns(params, types) if c not in params.bounds]
    if lacking:
        raise BoundsRequiredError(lacking)


def column_budget(params: ReleaseParams, types: Mapping[str, ColumnType]) -> dict[str, dict]:
    """ε of every confidential column: ``{"noise": …, "bounds": …}`` (sequential composition).

    Each column gets ε/m; a numeric column without public bounds spends the
    ``private_bounds`` share of it on its bounds when that is set.
    """
    assert params.epsilon is not None
    share = params.epsilon / max(1, len(params.confidential))
    numeric = set(laplace_columns(params, types))
    out = {}
    for col in params.confidential:
        private = col in numeric and col not in params.bounds and params.private_bounds
        spent = share * params.private_bounds if private else 0.0
        out[col] = {"noise": share - spent, "bounds": spent}
    return out


def typical_size(values: np.ndarray, lo: float, hi: float, log_scale: bool = False) -> float | None:
    """How far a column's values typically lie apart, on the scale the noise is added to.

    The spread of the middle half of the values (the interquartile range) after clamping to
    the bounds (what the noise is added to), on log(1 + value) for noise on the log scale; a
    column whose middle half is one value (mostly zeros) falls back to the mean distance from
    the median.  None for a column with one value or none.  Computed from the data: for the
    plan, which the data holder reads before the release, never for a published file.
    """
    present = values[~np.isnan(values)]
    if present.size == 0:
        return None
    clamped = np.clip(present, lo, hi)
    if log_scale:
        clamped = np.log1p(clamped)
    q1, median, q3 = np.quantile(clamped, [0.25, 0.5, 0.75])
    spread = float(q3 - q1)
    if spread <= 0:
        spread = float(np.abs(clamped - median).mean())
    return spread if spread > 0 else None


def noise_error(column: ColumnPlan, params: ReleaseParams) -> float | None:
    """E|noise| of one released value on the scale the noise is added to (None until private
    bounds are known): Δ/ε, Δ/(k·ε) in groups of k, Δ measured on log(1 + value) for the log
    scale."""
    if column.bounds is None:
        return None
    group = int(params.k) if params.insensitive else 1
    bounds = log_bounds(*column.bounds) if column.log_scale else column.bounds
    return expected_abs_error(*bounds, column.epsilon, group)


#: the released values are "mostly noise" when the noise makes up at least this share of
#: their variance (the noise's variance is then at least the data's own)
NOISE_SHARE_WARNING = MOSTLY_NOISE


def noise_share(released: np.ndarray, scale: float, log_scale: bool) -> float | None:
    """The share of the released values' variance that the noise accounts for (at most 1).

    From the released values and the public scale of the noise alone (so it may be
    published): the released variance is about the data's plus the noise's 2·scale²; a share
    of 1/2 or more means the noise varies as much as the data, or more.  Clamping to the
    bounds shrinks the released variance, which only raises the share.
    """
    x = released[~np.isnan(released)]
    if x.size < 2:
        return None
    if log_scale:
        x = np.log1p(np.clip(x, 0.0, None))
    spread = float(x.var())
    noise = 2.0 * scale * scale
    return 1.0 if spread <= 0 else min(noise / spread, 1.0)


def noise_share_warning(column: str, share: float) -> str:
    """The published warning that a column's released values are mostly noise."""
    return _(
        "The noise makes up about {share} of the spread of the released values of "
        "{column!r}: they are mostly noise, and say little about any one person or group "
        "(measured on the released values and the public scale of the noise). Averaging in "
        "groups of k before the noise, narrower public bounds, the buckets mechanism or a "
        "larger ε would keep more of the data."
    ).format(share=percent(share), column=column)


def expected_errors(
    params: ReleaseParams, types: Mapping[str, ColumnType]
) -> dict[str, float | None]:
    """Expected absolute error of the noise, in the column's units, for every Laplace column.

    Δ/ε of the column's noise ε (Δ/(k·ε) with insensitive microaggregation); None where the
    bounds are estimated privately and so not known before the run, and on the log scale,
    where the error is relative (:func:`~engine.mechanisms.laplace.typical_factor`).
    """
    budget = column_budget(params, types)
    k = int(params.k) if params.insensitive else 1
    out: dict[str, float | None] = {}
    for col in laplace_columns(params, types):
        if col in params.bounds and params.transform == "none":
            lo, hi = params.bounds[col]
            out[col] = expected_abs_error(lo, hi, budget[col]["noise"], k)
        else:
            out[col] = None
    return out


class NoisePlan(Protocol):
    """What :func:`noise_release` runs: the part of a :class:`~engine.release.plan.Plan` it
    reads (a protocol, so this module needs nothing from the plan's)."""

    params: ReleaseParams
    prepared: Prepared | None
    noise_columns: list[ColumnPlan]
    warnings: tuple[str, ...]
    #: groups of records alike in their missing QIs, and the QI values withheld
    missing_groups: tuple[np.ndarray, np.ndarray] | None
    #: the risk of the original records (reused by the summary)
    risk_before: RiskSummary | None


@dataclass
class ColumnPlan:
    """How one confidential column is protected (fixed before any noise is drawn)."""

    name: str
    ctype: ColumnType
    #: the ε of the noise (the column's share of ε minus what its private bounds spent)
    epsilon: float
    #: numeric: clamping bounds, and where they came from ("public" or the private estimate);
    #: None until private bounds are estimated, when the release is made
    bounds: tuple[float, float] | None = None
    bounds_source: str = "public"
    #: the ε spent on estimating the bounds (0 for public bounds)
    bounds_epsilon: float = 0.0
    #: nominal/ordinal: the categories (codes index into this list)
    categories: list[Any] = field(default_factory=list)
    #: the input as numbers (numeric) or category codes (−1 missing)
    values: np.ndarray = field(default_factory=lambda: np.zeros(0))
    decimals: int = 0
    #: numeric: the noise is added to log(1 + value) (``transform="log"``)
    log_scale: bool = False


@dataclass
class ColumnDraw:
    """One draw of noise for one column."""

    released: pd.Series
    #: numbers for the t check: released values (numeric) or category codes, NaN/−1 missing
    numbers: np.ndarray
    #: what was drawn (:class:`~engine.release.result.NoiseColumn`)
    fact: NoiseColumn
    #: randomized response: the original shares estimated from the release and the channel
    corrected: CorrectedShares | None = None


def plan_columns(
    data: pd.DataFrame,
    params: ReleaseParams,
    types: Mapping[str, ColumnType],
    orders: Mapping[str, tuple[str, ...]],
) -> list[ColumnPlan]:
    """How each confidential column will get its noise, fixed before any noise is drawn.

    Each column gets ε/m of the budget (m columns, sequential composition).  Raises
    InputError for a column the noise route cannot protect, bounds that do not fit it, or a
    numeric column with neither public nor private bounds.  Private bounds are left to
    :func:`estimate_bounds`, at release time: a plan never spends ε.
    """
    assert params.epsilon is not None
    confidential = list(params.confidential)
    unknown = sorted(set(params.bounds) - set(confidential))
    if unknown:
        raise InputError(
            _("Bounds were given for {columns}, which is not a confidential column.").format(
                columns=", ".join(map(repr, unknown))
            )
        )
    require_bounds(params, types)
    budget = column_budget(params, types)
    plans = []
    for col in confidential:
        ctype = ColumnType(types[col])
        series = data[col]
        if not series.notna().any():
            raise InputError(
                _("Confidential column {column} has no values (all are missing).").format(
                    column=repr(col)
                )
            )
        if ctype == ColumnType.NUMERIC:
            plans.append(_numeric_plan(col, series, params, budget[col]))
        elif ctype in (ColumnType.NOMINAL, ColumnType.ORDINAL):
            plans.append(_category_plan(col, series, ctype, params, orders, budget[col]))
        else:
            raise InputError(
                _(
                    "The noise mechanism cannot protect the {type} column {column}; declare it "
                    "numeric or nominal, or use the buckets mechanism."
                ).format(type=ctype, column=repr(col))
            )
    return plans


def _numeric_plan(
    col: str, series: pd.Series, params: ReleaseParams, budget: Mapping[str, float]
) -> ColumnPlan:
    """The plan of a numeric column: its share of ε (``budget``: for the noise and, with
    private bounds, for estimating them) and its public bounds, checked against its values."""
    values = numeric_values(series, ColumnType.NUMERIC)
    if np.isnan(values).all():
        raise InputError(_("Confidential column {column} has no values.").format(column=repr(col)))
    if col in params.bounds:
        lo, hi = check_bounds(*params.bounds[col], column=col)
        if hi < np.nanmin(values) or lo > np.nanmax(values):
            raise InputError(
                _(
                    "The bounds {lo:g}:{hi:g} of {column} do not overlap its values at "
                    "all; check them."
                ).format(lo=lo, hi=hi, column=repr(col))
            )
        origin, spent = "public", 0.0
        bounds: tuple[float, float] | None = (lo, hi)
    else:
        bounds, origin, spent = None, "private", budget["bounds"]
    return ColumnPlan(
        col,
        ColumnType.NUMERIC,
        budget["noise"],
        bounds=bounds,
        bounds_source=origin,
        bounds_epsilon=spent,
        values=values,
        decimals=decimals(series),
        log_scale=params.transform == "log",
    )


def _category_plan(
    col: str,
    series: pd.Series,
    ctype: ColumnType,
    params: ReleaseParams,
    orders: Mapping[str, tuple[str, ...]],
    budget: Mapping[str, float],
) -> ColumnPlan:
    """The plan of a nominal or ordinal column: its categories (an ordinal's in their
    order) and every record's category code, −1 for a missing value."""
    if col in params.bounds:
        raise InputError(
            _("Bounds apply to numeric columns only; {column} is {type}.").format(
                column=repr(col), type=ctype
            )
        )
    if ctype == ColumnType.ORDINAL:
        categories = list(category_order(series, orders.get(col)))
    else:
        categories = sorted(pd.unique(series.dropna()), key=str)
    if not categories:
        raise InputError(_("Confidential column {column} has no values.").format(column=repr(col)))
    lookup = {str(c): i for i, c in enumerate(categories)}
    codes = np.array([-1 if pd.isna(v) else lookup[str(v)] for v in series], dtype=np.int64)
    return ColumnPlan(col, ctype, budget["noise"], categories=categories, values=codes)


def column_fact(column: ColumnPlan, params: ReleaseParams) -> NoiseColumn:
    """What is known of a column's noise before it is drawn (the draw adds the rest)."""
    mechanism = MECHANISMS[params.mechanism]
    numeric = column.ctype == ColumnType.NUMERIC
    fact = NoiseColumn(
        name=column.name,
        type=str(column.ctype),
        mechanism=mechanism.column_mechanism(params, numeric) or "",
        described=mechanism.describe(params, numeric),
        epsilon=column.epsilon,
        epsilon_local=column.epsilon,
        bounds=column.bounds,
        bounds_source=column.bounds_source,
        bounds_epsilon=column.bounds_epsilon,
        transform="log" if column.log_scale else "none",
        categories=tuple(str(c) for c in column.categories),
    )
    if not numeric:
        n_cat = len(column.categories)
        keep = uniform_keep_probability(column.epsilon, n_cat) if n_cat > 1 else 1.0
        return replace(fact, keep_probability=keep)
    group = params.k if params.insensitive else 1
    if column.bounds is None:  # private bounds are known only once estimated
        return replace(fact, epsilon_local=column.epsilon * group)
    error = factor = ratio = None
    if column.log_scale:
        factor = typical_factor(*column.bounds, column.epsilon, group)
    else:
        error = expected_abs_error(*column.bounds, column.epsilon, group)
    size = typical_size(column.values, *column.bounds, column.log_scale)
    scale = noise_error(column, params)
    if size is not None and scale is not None:
        ratio = scale / size
    return replace(
        fact,
        epsilon_local=column.epsilon * group,
        expected_abs_error=error,
        typical_factor=factor,
        typical_size=size,
        error_ratio=ratio,
    )


def estimate_bounds(
    columns: list[ColumnPlan], source: NoiseSource, warnings: list[str]
) -> list[ColumnPlan]:
    """The columns with their private bounds estimated (DP quantiles, each on its share of ε).

    Called once per release, before the first draw of the noise: redraws reuse the bounds.
    """
    out = []
    for column in columns:
        if column.ctype == ColumnType.NUMERIC and column.bounds is None:
            estimate = private_bounds(column.values, column.bounds_epsilon, source)
            lo, hi = estimate.lo, estimate.hi
            if column.log_scale:
                # the log scale starts at 0; moving a DP estimate is post-processing
                lo = max(lo, 0.0)
                if hi <= lo:
                    raise InputError(
                        _(
                            "The private bounds of {column} lie at or below 0, where the "
                            "log scale (transform 'log') cannot go; give public bounds instead."
                        ).format(column=repr(column.name))
                    )
            if estimate.coarse:
                warnings.append(
                    _(
                        "The private bounds of {column!r} ({low}:{high}) rest on few records "
                        "for their share of ε and may be poor; public bounds would be better."
                    ).format(column=column.name, low=number(lo), high=number(hi))
                )
            column = replace(column, bounds=(lo, hi), bounds_source=estimate.source)
        out.append(column)
    return out


def _round_within(values: np.ndarray, places: int, lo: float, hi: float) -> np.ndarray:
    """Values rounded to the column's decimal places, kept inside [lo, hi].

    Rounding can step just outside the bounds (0.5 → 0 with bounds 0.5:9); the nearest
    representable value inside is used then.  Bounds narrower than the column's precision
    keep the unrounded values.
    """
    scale = 10.0**places
    lo_r, hi_r = math.ceil(lo * scale - 1e-9) / scale, math.floor(hi * scale + 1e-9) / scale
    rounded = np.round(values, places)
    if lo_r > hi_r:
        return values
    return np.clip(rounded, lo_r, hi_r)


def _whole(values: np.ndarray) -> bool:
    """Whether every present value is a whole number a float holds exactly (below 2^53):
    bounds narrower than one unit keep fractions, bounds beyond 2^53 exceed int64's exactness.
    """
    present = values[~np.isnan(values)]
    return bool((np.abs(present) < 2.0**53).all() and (present == np.round(present)).all())


def _draw_column(
    plan: ColumnPlan,
    params: ReleaseParams,
    source: NoiseSource,
    task: Task,
) -> ColumnDraw:
    mechanism = MECHANISMS[params.mechanism]
    fact = column_fact(plan, params)
    if plan.ctype == ColumnType.NUMERIC:
        assert plan.bounds is not None
        lo, hi = plan.bounds
        values, noise_lo, noise_hi = plan.values, lo, hi
        if plan.log_scale:
            values, noise_lo, noise_hi = to_log_scale(plan.values, lo, hi)
        out, local_eps = mechanism.draw_numbers(
            values, noise_lo, noise_hi, plan.epsilon, params, source, task
        )
        noisy = from_log_scale(out.values, lo, hi) if plan.log_scale else out.values
        rounded = _round_within(noisy, plan.decimals, lo, hi)
        released = pd.Series(rounded, name=plan.name)
        # whole numbers stay whole, unless bounds narrower than one unit kept them unrounded
        if plan.decimals == 0 and _whole(rounded):
            released = released.astype("Int64")
        present = ~np.isnan(plan.values)
        mae = float(np.abs(rounded[present] - plan.values[present]).mean()) if present.any() else 0
        sse = float(((rounded[present] - plan.values[present]) ** 2).sum())
        sst = float(((plan.values[present] - plan.values[present].mean()) ** 2).sum())
        drawn = replace(
            fact,
            epsilon_local=local_eps,
            # on the log scale the error is relative: half the values within a factor 2^scale
            expected_abs_error=None if plan.log_scale else out.scale,
            typical_factor=factor_of_scale(out.scale) if plan.log_scale else None,
            noise_scale=out.scale,
            grid=out.grid,
            mean_absolute_error=mae,
            mean_original=float(np.nanmean(plan.values)),
            mean_released=float(np.nanmean(rounded)),
            sse=sse,
            sst=sst,
            sse_sst=sse / sst if sst > 0 else None,
            noise_share=noise_share(rounded, out.scale, plan.log_scale),
        )
        return ColumnDraw(released, noisy, drawn)
    outcome = mechanism.draw_categories(plan.values, len(plan.categories), plan.epsilon, source)
    cats = np.array([str(c) for c in plan.categories] + [""], dtype=object)
    labels = cats[np.where(outcome.codes >= 0, outcome.codes, len(plan.categories))]
    released = pd.Series(labels, name=plan.name, dtype="string").replace("", pd.NA)
    present = plan.values >= 0
    drawn = replace(
        fact,
        epsilon=outcome.epsilon,
        epsilon_local=outcome.epsilon,
        keep_probability=outcome.keep,
        share_changed=float(np.mean(outcome.codes[present] != plan.values[present]))
        if present.any()
        else 0.0,
    )
    corrected = corrected_shares(outcome.codes, outcome.channel, list(fact.categories))
    return ColumnDraw(released, outcome.codes.astype(float), drawn, corrected)


def release_bucket_codes(draws: list[ColumnDraw], b: int, joint: bool) -> list[np.ndarray]:
    """Buckets a checker can form from the released values alone.

    Numeric columns: b buckets of near-equal mass cut at the quantiles of the released values;
    category columns: the released categories; missing values: a bucket of their own.  With
    ``joint`` one code per record for the tuple of columns, else one array per column.
    """
    per_column = []
    for draw in draws:
        x = draw.numbers
        missing = np.isnan(x) | (x < 0) if draw.fact.type != "numeric" else np.isnan(x)
        if draw.fact.type == "numeric":
            present = x[~missing]
            edges = np.quantile(present, np.linspace(0, 1, b + 1)[1:-1]) if present.size else []
            codes = np.searchsorted(edges, np.where(missing, 0, x), side="right")
            codes = np.where(missing, b, codes)
        else:
            codes = np.where(missing, int(np.nanmax(x)) + 1 if (~missing).any() else 0, x)
        per_column.append(codes.astype(np.int64))
    if not joint or len(per_column) == 1:
        return per_column
    _, inverse = np.unique(np.column_stack(per_column), axis=0, return_inverse=True)
    return [inverse.reshape(-1).astype(np.int64)]


def actual_t(classes: np.ndarray, draws: list[ColumnDraw], b: int, joint: bool) -> float:
    """The worst class's distance to the file on the release's own buckets."""
    return max(
        float(class_distances(classes, codes).max())
        for codes in release_bucket_codes(draws, b, joint)
    )


def noise_release(data: pd.DataFrame, plan: NoisePlan, *, task: Task = NO_TASK) -> Release:
    """Construction B: k-anonymous QIs and ε-DP confidential values (module doc).

    Runs ``plan`` (from :func:`engine.release.plan.plan`, which fixed each column's ε and
    bounds); call it through :func:`engine.release.anonymize.anonymize`.
    """
    started = time.perf_counter()
    params, prepared = plan.params, plan.prepared
    assert prepared is not None and params.noise and params.epsilon is not None
    qi, clean = prepared.qi, prepared.clean
    original = prepared.released_input(data)  # without the records left out ("drop")

    task.step(0.05, "Grouping records")
    X = encode_qi(clean, qi, prepared.types, prepared.orders)
    classes, homes, qi_loss, released_qi = _noise_classes(X, plan, task.sub(0.05, 0.5))

    source = noise_source(params.seed)
    warnings = list(plan.warnings)
    plans = estimate_bounds(plan.noise_columns, source, warnings)
    column_draws, draws, achieved_t, b = _draw(plans, classes, params, source, task)
    warnings += _noise_share_warnings(column_draws)
    task.step(0.86, "Building the release")
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
        task=task.sub(0.86, 0.98),
    )
    if homes is None and qi:  # the loss of the released file: classes alike have merged
        qi_loss = sse_sst(X, published.groups[classes])
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
    task.step(1.0, "Done")
    return finish(params, prepared, published, summary, classes, buckets=None, warnings=warnings)


def _noise_classes(
    X: np.ndarray, plan: NoisePlan, task: Task
) -> tuple[np.ndarray, np.ndarray | None, float, pd.DataFrame]:
    """The classes the QIs are released by, before any noise is drawn: (the class of every
    record, its household group or None, the QI loss of household groups, the QI values to
    recode, with those a class must withhold emptied).

    Microaggregation into classes of k (records alike in which QIs are missing together),
    or whole households in groups when the survey has household-level QIs.
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
    households, homes, qi_loss = prepared.households, None, 0.0
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
    return classes, homes, qi_loss, released_qi


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


def _draw(
    plans: list[ColumnPlan],
    classes: np.ndarray,
    params: ReleaseParams,
    source: NoiseSource,
    task: Task,
) -> tuple[list[ColumnDraw], int, float | None, int]:
    """Draw the noise of every column, again until the release is actually t-close when
    ``resample_until_t`` asks for it: (the draws, how many, the t reached, the buckets b)."""
    n = len(classes)
    target_t = params.resample_until_t
    # more buckets than records would all be empty (and a huge t asks for 1e308 of them)
    b = min(paper_bucket_count(target_t), max(2, n)) if target_t is not None else 0
    max_draws = MAX_DRAWS if target_t is not None else 1
    draws = 0
    achieved_t: float | None = None
    while True:
        draws += 1
        lo = 0.5 + 0.35 * (draws - 1) / max_draws
        hi = 0.5 + 0.35 * draws / max_draws
        column_draws = []
        for i, column in enumerate(plans):
            sub = task.sub(lo + (hi - lo) * i / len(plans), lo + (hi - lo) * (i + 1) / len(plans))
            column_draws.append(_draw_column(column, params, source, sub))
        if target_t is None or not plans:
            return column_draws, draws, achieved_t, b
        achieved_t = actual_t(classes, column_draws, b, params.joint)
        if achieved_t <= target_t * (1 + 1e-9):
            return column_draws, draws, achieved_t, b
        if draws >= max_draws:
            raise InfeasibleError(
                f"None of {max_draws} draws of the noise was actually {target_t:g}-close on "
                f"{b} buckets (the last was {achieved_t:.4g}); nothing was released. Use a "
                "larger t, a larger k or fewer records, or rely on the stochastic t."
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
