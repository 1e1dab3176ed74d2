"""Drawing the noise of every column, and drawing it again until the release is t-close.

Optionally the noise is redrawn until the release is actually t-close on buckets of the
released values (poster / SECRYPT 2013 greedy variant, at most :data:`MAX_DRAWS` draws);
every draw spends ε again and the summary reports ε × draws (:func:`draw_columns`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from engine.errors import InfeasibleError
from engine.i18n import _
from engine.mechanisms import MECHANISMS
from engine.mechanisms.laplace import (
    factor_of_scale,
    from_log_scale,
    to_log_scale,
)
from engine.mechanisms.response import (
    MISSING,
    CorrectedShares,
    corrected_shares,
)
from engine.mechanisms.sampling import NoiseSource
from engine.params import ReleaseParams
from engine.progress import Task
from engine.release.buckets import paper_bucket_count
from engine.release.model import (
    NoiseColumn,
)
from engine.release.verify import class_distances
from engine.roles import ColumnType

if TYPE_CHECKING:
    pass
from engine.release.noise.columns import ColumnPlan, column_fact, noise_share

#: most draws of the greedy resample-until-t variant before giving up
MAX_DRAWS = 100


@dataclass
class ColumnDraw:
    """One draw of noise for one column."""

    released: pd.Series
    #: numbers for the t check: released values (numeric) or category codes, NaN/−1 missing
    numbers: np.ndarray
    #: what was drawn (:class:`~engine.release.model.NoiseColumn`)
    fact: NoiseColumn
    #: randomized response: the original shares estimated from the release and the channel
    corrected: CorrectedShares | None = None


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
    # a value outside the categories is always released as another value (one of them)
    present = plan.values != MISSING
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


def draw_columns(
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
                _(
                    "None of {max_draws} draws of the noise was actually {target_t:g}-close on "
                    "{b} buckets (the last was {achieved_t:.4g}); nothing was released. Use a "
                    "larger t, a larger k or fewer records, or rely on the stochastic t."
                ).format(max_draws=max_draws, target_t=target_t, b=b, achieved_t=achieved_t)
            )
