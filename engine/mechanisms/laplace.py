"""Laplace noise for numeric confidential values, plain and after insensitive microaggregation.

Plain (Construction B): clamp every value to public bounds [lo, hi], add Laplace noise of scale
Δ/ε with Δ = hi − lo, clamp the noisy value to [lo, hi] again.  One person's value moves the
clamped value by at most Δ, so each released value (and, records being independent, the whole
column) is ε-DP; the second clamp is post-processing and costs nothing.  The bounds must be
public (or estimated privately, :mod:`engine.mechanisms.bounds`): never the data's own
minimum and maximum, which are two people's values.

Insensitive microaggregation (the poster; Soria-Comas et al., VLDB Journal 2014): sort the
clamped values, cut the sorted sequence into groups of k consecutive values (the last group
takes the n mod k left over, so every group has k … 2k − 1 members), release every group's
mean plus Laplace noise of scale Δ/(k·ε) to all of its members, clamped to [lo, hi].  (With
fewer than k present values there is one group of all n of them and the scale is Δ/(n·ε).)

Why Δ/k is the sensitivity of the vector of group means.  Group sizes depend only on n and k,
not on the values.  Let one person's value change from a to a' > a (the other direction is
symmetric).  Every order statistic can only grow: the new sorted sequence y satisfies
y_j ≥ x_j for every position j, and Σ_j (y_j − x_j) = a' − a ≤ Δ.  The mean of group G moves
by (1/|G|)·Σ_{j∈G} (y_j − x_j) ≥ 0, so the L1 change over all groups is at most
(1/k)·Σ_j (y_j − x_j) ≤ Δ/k.  Laplace noise of scale (Δ/k)/ε on each mean therefore makes the
vector of group means ε-DP.  The order "sort by the value itself" is what makes this work: a
change of one record cannot reshuffle the groups except by shifting each group boundary by one
position, in one direction.

What ε does *not* cover here: which released records share a group value.  That follows the
ranks of the confidential values (it is k-anonymous microaggregation of the confidential
column), and it is linked to the quasi-identifiers in the released table.  The summary states
it next to ε.  The per-record view is weaker as well: two group means can differ by Δ and
carry noise of scale Δ/(kε), so one record's released value is (k·ε)-locally private, and
Proposition 1's stochastic t is computed with k·ε.

Both mechanisms work on a lattice (see :mod:`engine.mechanisms.sampling`): g is a power of two
about 2^−36 of the noise scale, the bounds are widened outwards to multiples of g, values are
snapped to the lattice, integer noise of scale ⌈S/ε⌉ lattice units is added, S being the
sensitivity in lattice units.  For the insensitive variant the group means are rounded to the
lattice as well; rounding is monotone and moves every mean by less than one unit, so S grows by
at most the number of groups (a relative cost below 10^−4 in practice) and the argument above
still holds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.errors import InputError, quoted
from engine.i18n import _
from engine.mechanisms.sampling import NoiseSource, integer_scale
from engine.progress import NO_TASK, Task

#: lattice resolution: the grid is 2**-GRID_BITS of the noise scale (or coarser if needed)
GRID_BITS = 36


@dataclass(frozen=True)
class LaplaceOutcome:
    """Released values of one numeric column and the exact parameters used."""

    #: the released value of every input record (NaN where the input was missing)
    values: np.ndarray
    #: the clamped input, aligned with ``values`` (what the noise was added to); the released
    #: values are clamped to the same bounds after the noise
    clamped: np.ndarray
    #: bounds after widening to the lattice
    lo: float
    hi: float
    #: the Laplace scale actually used (≥ Δ/ε, or ≥ Δ/(kε) for the insensitive variant)
    scale: float
    #: lattice width
    grid: float
    #: group index of every record for the insensitive variant (−1 where missing), else None
    groups: np.ndarray | None = None
    #: the noisy values before the final clamp (never released: for tests and audits)
    noisy: np.ndarray | None = None


def missing_assumption() -> str:
    """What the noise route's ε does not cover about missing values, for the assumption of
    its published guarantee.

    A missing confidential value is released missing (imputing one would invent data), by
    Laplace noise and by randomized response alike, so whether a value is missing is
    released exactly: two files that differ only in whether one person answered give
    different releases with certainty.
    """
    return _(
        "Whether a confidential value is missing is released as it is (a missing value "
        "stays missing, nothing is imputed) and is not covered by ε."
    )


def check_bounds(lo: float, hi: float, column: str = "") -> tuple[float, float]:
    """Finite bounds with lo < hi, or an InputError naming the column."""
    name = _(" of {column}").format(column=quoted(column)) if column else ""
    lo, hi = float(lo), float(hi)
    if not (math.isfinite(lo) and math.isfinite(hi)) or not lo < hi:
        raise InputError(
            _("The bounds{name} must be two numbers LO < HI, not {lo}:{hi}.").format(
                name=name, lo=lo, hi=hi
            )
        )
    if not math.isfinite(hi - lo):  # ±1e308: the width Δ overflows
        raise InputError(
            _("The bounds{name}, {lo:g}:{hi:g}, are too far apart to compute with.").format(
                name=name, lo=lo, hi=hi
            )
        )
    return lo, hi


def expected_abs_error(lo: float, hi: float, epsilon: float, k: int = 1) -> float:
    """E|noise| in the column's units: the Laplace scale Δ/ε, or Δ/(k·ε) after insensitive
    microaggregation in groups of k (E|X| = b for X ~ Laplace(b)).

    What a user can read before the run ("released incomes move by about 12,500 on average").
    It is the error of the noise alone: clamping the noisy value back into [lo, hi] can only
    bring a value that lies within the bounds closer, while values clamped before the noise
    and (for the insensitive variant) the averaging in groups add their own error.
    """
    lo, hi = check_bounds(lo, hi)
    if not (epsilon > 0 and math.isfinite(epsilon)):
        raise InputError(_("ε must be a positive number, not {epsilon}.").format(epsilon=epsilon))
    if int(k) != k or k < 1:
        raise InputError(_("k must be a whole number ≥ 1, not {k}.").format(k=k))
    return (hi - lo) / (int(k) * epsilon)


def log_bounds(lo: float, hi: float) -> tuple[float, float]:
    """The bounds on the log scale, log(1 + lo) and log(1 + hi); the scale starts at 0."""
    lo, hi = check_bounds(lo, hi)
    if lo < 0:
        raise InputError(
            _("Noise on the log scale needs bounds ≥ 0, not {lo:g}:{hi:g}.").format(lo=lo, hi=hi)
        )
    return math.log1p(lo), math.log1p(hi)


def factor_of_scale(scale: float) -> float:
    """Half of the values that get Laplace noise of ``scale`` on the log scale stay within
    this factor of their true value: the median of |Laplace(b)| is b·ln 2, so it is 2^b."""
    return 2.0**scale if scale < 1000 else math.inf


def typical_factor(lo: float, hi: float, epsilon: float, k: int = 1) -> float:
    """For noise on the log scale: half of the released values lie within this factor of
    their true value (on 1 + value, before the clamp to the bounds).

    The noise is Laplace(b) on log(1 + value) with b = (log(1 + hi) − log(1 + lo))/(k·ε): an
    error that grows with the value, which is what a skewed column (incomes, turnover) needs,
    where a fixed ±error swamps the small values and hardly touches the large ones.
    """
    return factor_of_scale(expected_abs_error(*log_bounds(lo, hi), epsilon, k))


def to_log_scale(values: np.ndarray, lo: float, hi: float) -> tuple[np.ndarray, float, float]:
    """Values clamped to [lo, hi] (lo ≥ 0) and taken to log(1 + value), with the bounds.

    A fixed, public, increasing function applied to each record: the noise added on this
    scale, clamped to the transformed bounds, keeps ε-DP (the sensitivity is the width of the
    transformed bounds), and so does the way back (post-processing).
    """
    log_lo, log_hi = log_bounds(lo, hi)
    return np.log1p(np.clip(values, lo, hi)), log_lo, log_hi


def from_log_scale(values: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """The inverse of :func:`to_log_scale`, kept inside [lo, hi] (floating-point rounding)."""
    return np.clip(np.expm1(values), lo, hi)


def lattice(lo: float, hi: float, scale: float, spread: float) -> tuple[float, float, float]:
    """Grid width g (a power of two) and the bounds widened outwards to multiples of g.

    ``spread`` is the largest multiple of Δ/g that integers must hold (2k for group sums);
    g is coarsened until everything stays well inside exact float and int64 range.
    """
    bits = GRID_BITS
    span = (hi - lo) / scale  # Δ in units of the noise scale
    while bits > 8 and (span + 64.0) * 2.0**bits * spread > 2.0**52:
        bits -= 1
    grid = 2.0 ** (math.floor(math.log2(scale)) - bits)
    lo_g = math.floor(lo / grid) * grid
    hi_g = math.ceil(hi / grid) * grid
    return grid, lo_g, hi_g


def _prepare(values: np.ndarray, lo: float, hi: float, epsilon: float) -> tuple[np.ndarray, ...]:
    if not (epsilon > 0 and math.isfinite(epsilon)):
        raise InputError(_("ε must be a positive number, not {epsilon}.").format(epsilon=epsilon))
    lo, hi = check_bounds(lo, hi)
    if not math.isfinite((hi - lo) / epsilon):
        integer_scale(math.inf, epsilon, "Laplace noise")  # raises: ε too small for the bounds
    x = np.asarray(values, dtype=float)
    present = ~np.isnan(x)
    clamped = np.where(present, np.clip(x, lo, hi), np.nan)
    return x, present, clamped


def laplace_release(
    values: np.ndarray,
    lo: float,
    hi: float,
    epsilon: float,
    source: NoiseSource,
    *,
    task: Task = NO_TASK,
) -> LaplaceOutcome:
    """Clamp to [lo, hi], add Laplace noise of scale Δ/ε, clamp again (ε-DP per record).

    Missing values (NaN) stay missing: whether a value is missing is not protected by this
    mechanism (the missing code is treated like a released category;
    :func:`missing_assumption` says so in the published guarantee).
    """
    _x, present, clamped = _prepare(values, lo, hi, epsilon)
    target = (hi - lo) / epsilon
    grid, lo_g, hi_g = lattice(lo, hi, target, spread=1.0)
    units = round((hi_g - lo_g) / grid)  # sensitivity in lattice units (exact: both multiples)
    b = integer_scale(units, epsilon, "Laplace noise")
    q = np.rint((clamped[present] - lo_g) / grid).astype(np.int64)
    noise = source.discrete_laplace(b, int(q.size), task=task)
    noisy = np.full(clamped.shape, np.nan)
    noisy[present] = (q + noise).astype(float) * grid + lo_g
    released = np.clip(noisy, lo, hi)
    return LaplaceOutcome(released, clamped, lo_g, hi_g, b * grid, grid, noisy=noisy)


def insensitive_groups(clamped: np.ndarray, k: int) -> np.ndarray:
    """Group index of every present value: groups of k consecutive values in sorted order.

    The last group absorbs the n mod k remaining values, so sizes are k … 2k − 1 and depend
    only on n and k.  With n < k everything is one group.  Missing values get −1.
    """
    present = np.flatnonzero(~np.isnan(clamped))
    n = present.size
    groups = np.full(clamped.shape, -1, dtype=np.int64)
    if n == 0:
        return groups
    n_groups = max(1, n // k)
    order = present[np.argsort(clamped[present], kind="stable")]
    rank_group = np.minimum(np.arange(n) // k, n_groups - 1)
    groups[order] = rank_group
    return groups


def insensitive_release(
    values: np.ndarray,
    lo: float,
    hi: float,
    epsilon: float,
    k: int,
    source: NoiseSource,
    *,
    task: Task = NO_TASK,
) -> LaplaceOutcome:
    """Insensitive microaggregation in groups of k, then Laplace(Δ/(k·ε)) on each group mean.

    See the module docstring for why Δ/k is the sensitivity.  Every member of a group gets the
    same released value.
    """
    if int(k) != k or k < 1:
        raise InputError(_("k must be a whole number ≥ 1, not {k}.").format(k=k))
    k = int(k)
    _x, present, clamped = _prepare(values, lo, hi, epsilon)
    target = (hi - lo) / (k * epsilon)
    grid, lo_g, hi_g = lattice(lo, hi, target, spread=2.0 * k)
    groups = insensitive_groups(clamped, k)
    n_groups = int(groups.max()) + 1 if present.any() else 0
    q = np.zeros(clamped.shape, dtype=np.int64)
    q[present] = np.rint((clamped[present] - lo_g) / grid).astype(np.int64)
    sizes = np.bincount(groups[present], minlength=n_groups).astype(np.int64)
    totals = np.zeros(n_groups, dtype=np.int64)
    np.add.at(totals, groups[present], q[present])
    # round-half-up in exact integer arithmetic: floor((2·total + size) / (2·size))
    means = (2 * totals + sizes) // (2 * sizes) if n_groups else totals
    units = round((hi_g - lo_g) / grid)
    # the smallest group is k, or all present values when fewer than k are present
    smallest = int(sizes.min()) if n_groups else 1
    sensitivity = math.ceil(units / smallest) + n_groups  # + rounding of each mean (module doc)
    b = integer_scale(sensitivity, epsilon, "Laplace noise on the group means")
    noise = source.discrete_laplace(b, n_groups, task=task)
    group_values = (means + noise).astype(float) * grid + lo_g
    noisy = np.full(clamped.shape, np.nan)
    noisy[present] = group_values[groups[present]]
    released = np.clip(noisy, lo, hi)
    return LaplaceOutcome(released, clamped, lo_g, hi_g, b * grid, grid, groups, noisy)
