"""Clamping bounds of a numeric column estimated with differential privacy (DP quantiles).

Laplace noise needs bounds [lo, hi] that do not depend on any one record: the data's own
minimum and maximum do (they are two people's values, and they fix the noise scale), so they
are never used.  When the user knows no public bounds, a stated share of the column's ε buys
DP quantiles instead, a median and the lower and upper bound:

* **Candidates.** A fixed public grid, the same for every data set: 0 and ±m·10^e for the
  mantissas m = 1, 1.1, 1.2, 1.3, 1.5, 1.7, 2, 2.2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9 and
  e = −3 … 12 (577 numbers, about 10 % apart, from −9·10^12 to 9·10^12).  Never the data's
  own values.
* **Scores.** OpenDP's ``make_quantile_score_candidates`` scores every candidate by how far
  its rank is from the α-quantile (lower is better), on a vector whose length (the number of
  present values) is public; OpenDP also gives the scores' sensitivity to a change of one
  record, Δ (``map(2)``: a change is a removal and an addition).
* **Selection.** Report-noisy-min: each score plus independent discrete Laplace noise of scale
  b ≥ 2Δ/ε, the candidate with the smallest noisy score wins.  This is ε-DP for scores of
  sensitivity Δ (Dwork & Roth 2014, Claim 3.9, with 2Δ for scores that are not monotone):
  fixing the other candidates' noise, candidate i wins exactly when its own noise exceeds a
  threshold that one changed record moves by at most 2Δ, and the integer noise's tail changes
  by a factor of at most exp(2Δ/b) under such a shift.  The noise comes from the release's
  :class:`~engine.mechanisms.sampling.NoiseSource` (OpenDP's sampler on OS entropy, or the
  seeded audit sampler), so a seeded run reproduces its bounds; the scores are integers, so
  there is no floating-point leak.  OpenDP's scores are scaled to a huge integer range; they
  are divided by a public D (Δ/1024) first, floor division adding at most 1 to Δ.
* **Leaning inward.** Every candidate beyond the largest value scores the same (rank n), so
  where the grid is coarse near the quantile hundreds of candidates tie with the right one
  and the selection would pick among them at random, 10^12 as likely as 100.  So a DP median
  comes first (:data:`MEDIAN_SHARE` of the bounds' ε; its margin is n/2 ranks, so it is
  robust even with little ε); the upper bound then chooses among the candidates at or above
  it, the lower bound among those at or below, each with a fixed public penalty of half a
  noise scale per grid step away from the median.  Among tied candidates the selection then
  stays within a few grid steps of the data (drifting j steps has probability about
  e^(−j/2)); where the scores differ the penalty is small against them.  The candidate sets
  depend on the data only through the private median and the penalty not at all, so the
  sensitivity is unchanged and the ε's add up (sequential composition).
* **α.** With up to 577 candidates the selection errs by about 2·(ln 577 + ln 20)/ε₁ ranks at
  the 95 % level (ε₁ the ε of one bound).  α is that many records over n, at least 1 % and at
  most 25 %: the bounds are the most extreme quantiles the budget can estimate reliably.
  ε₁ is (1 − :data:`MEDIAN_SHARE`)/2 of the bounds' ε.

Everything that follows (the Laplace noise within these bounds) is sequential composition:
the column's ε is the bounds' share plus the noise's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np

from engine.errors import InputError
from engine.i18n import _
from engine.mechanisms.sampling import NoiseSource, integer_scale

#: mantissas of the public candidate grid (about 10 % apart)
MANTISSAS = (1, 1.1, 1.2, 1.3, 1.5, 1.7, 2, 2.2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9)
#: decades of the grid: 10^-3 … 10^12
EXPONENTS = range(-3, 13)
#: the share of ε spent on the bounds when the user asks for private bounds without a share
DEFAULT_SHARE = 0.1
#: the quantile α lies in [ALPHA_MIN, ALPHA_MAX]
ALPHA_MIN, ALPHA_MAX = 0.01, 0.25
#: the failure probability the choice of α allows for (5 %)
FAILURE = 0.05
#: scores are divided by about sensitivity / SCORE_UNITS before the noise is added
SCORE_UNITS = 1024
#: the share of the bounds' ε spent on the median that splits the candidates
MEDIAN_SHARE = 0.2
#: the public penalty per grid step away from the median, in noise scales
LEAN = 0.5


@cache
def candidate_grid() -> tuple[float, ...]:
    """The public candidates, ascending (module doc)."""
    positive = sorted({float(f"{m}e{e}") for e in EXPONENTS for m in MANTISSAS})
    return (*(-x for x in reversed(positive)), 0.0, *positive)


@dataclass(frozen=True)
class PrivateBounds:
    """Bounds of one column estimated with ε-DP quantiles."""

    lo: float
    hi: float
    #: the ε spent on both quantiles together
    epsilon: float
    #: the quantiles estimated: α and 1 − α
    alpha: float
    #: True when α hit its upper limit: too few records or too small an ε for good bounds
    coarse: bool

    @property
    def source(self) -> str:
        """How the summary and the report name the bounds' origin."""
        quantiles = f"{self.alpha:.3g}/{1 - self.alpha:.3g}"
        return f"private (DP quantiles {quantiles}, ε = {self.epsilon:.4g})"


def selection_ranks(epsilon: float) -> float:
    """How many ranks the noisy selection among the candidates may err by (at the
    1 − :data:`FAILURE` level) with ``epsilon``: 2·(ln |candidates| + ln 1/FAILURE)/ε."""
    return 2 * (math.log(len(candidate_grid())) + math.log(1 / FAILURE)) / epsilon


def quantile_alpha(n: int, epsilon_one: float) -> tuple[float, bool]:
    """The α of the bounds for n present values and ε₁ per quantile (module doc)."""
    ranks = selection_ranks(epsilon_one)
    alpha = ranks / max(n, 1)
    return min(ALPHA_MAX, max(ALPHA_MIN, alpha)), alpha > ALPHA_MAX


def dp_quantile(
    values: np.ndarray,
    alpha: float,
    epsilon: float,
    source: NoiseSource,
    *,
    centre: float | None = None,
) -> float:
    """An ε-DP estimate of the α-quantile of ``values``, one of the public candidates.

    With a ``centre`` (a public or privately estimated median) only the candidates on the
    quantile's side of it compete, leaning back towards it (module doc).
    """
    import opendp.prelude as dp

    dp.enable_features("contrib")
    candidates = list(candidate_grid())
    if centre is not None:
        keep = [c for c in candidates if (c >= centre if alpha > 0.5 else c <= centre)]
        candidates = keep if alpha > 0.5 else keep[::-1]  # nearest the centre first
    x = np.clip(np.asarray(values, dtype=float), min(candidates), max(candidates))
    domain = dp.vector_domain(dp.atom_domain(T=float, nan=False), size=int(x.size))
    score = dp.t.make_quantile_score_candidates(
        domain, dp.symmetric_distance(), sorted(candidates), alpha=float(alpha)
    )
    sensitivity = int(score.map(2))  # one record changed = one removed and one added
    scores = [int(s) for s in score(np.ascontiguousarray(x, dtype=np.float64))]
    if centre is not None and alpha <= 0.5:
        scores = scores[::-1]  # aligned with ``candidates`` (nearest the centre first)
    divisor = max(1, sensitivity // SCORE_UNITS)
    if divisor > 1:
        scores = [s // divisor for s in scores]
        sensitivity = sensitivity // divisor + 1
    scale = integer_scale(2 * sensitivity, epsilon, "private bounds")
    lean = np.zeros(len(candidates), dtype=np.int64)
    if centre is not None:
        lean = np.arange(len(candidates), dtype=np.int64) * math.ceil(LEAN * scale)
    noise = source.discrete_laplace(scale, len(scores))
    noisy = np.asarray(scores, dtype=np.int64) + lean + noise
    return candidates[int(np.argmin(noisy))]


def check_private_bounds(n: int, epsilon: float) -> None:
    """Refuse private bounds of ``n`` values with ``epsilon`` when even their median's
    selection may err by more than half the values (:func:`selection_ranks`): the bounds
    would be any candidate.  A plan calls it before a run, :func:`private_bounds` again."""
    needed = selection_ranks(epsilon * MEDIAN_SHARE)
    if n / 2 < needed:
        raise InputError(
            _(
                "Private bounds would be noise here: with ε = {epsilon} for the bounds, a "
                "private median needs at least {records} values, and the column has {n}. "
                "Give public bounds (the range the column can hold, e.g. 0:250000), or "
                "spend at least ε = {least} on the bounds."
            ).format(
                epsilon=f"{epsilon:.3g}",
                records=f"{math.ceil(2 * needed):,}",
                n=f"{n:,}",
                least=f"{epsilon * 2 * needed / n:.2g}",
            )
        )


def private_bounds(values: np.ndarray, epsilon: float, source: NoiseSource) -> PrivateBounds:
    """Bounds [lo, hi] of the present ``values`` from DP quantiles within ``epsilon``.

    :data:`MEDIAN_SHARE` of ε buys a median that splits the candidates, the rest is shared
    by the lower and upper bound.  When even the median's selection may err by more than
    half the values (:func:`selection_ranks`: 400 values with ε = 0.1 for the bounds), the
    bounds would be any candidate, 10^12 as likely as 100: refused, naming the ε or the
    records that would do.  If the bounds come out equal, ``hi`` becomes the next
    candidate above ``lo``: post-processing, free under DP.
    """
    if not (epsilon > 0 and math.isfinite(epsilon)):
        raise InputError(
            _("The ε for private bounds must be a positive number, not {epsilon}.").format(
                epsilon=epsilon
            )
        )
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if x.size == 0:
        raise InputError(_("Private bounds need at least one value."))
    check_private_bounds(int(x.size), epsilon)
    one = epsilon * (1 - MEDIAN_SHARE) / 2
    alpha, coarse = quantile_alpha(int(x.size), one)
    centre = dp_quantile(x, 0.5, epsilon * MEDIAN_SHARE, source)
    lo = dp_quantile(x, alpha, one, source, centre=centre)
    hi = dp_quantile(x, 1 - alpha, one, source, centre=centre)
    if hi <= lo:
        above = [c for c in candidate_grid() if c > lo]
        hi = above[0] if above else lo + 1.0
    return PrivateBounds(float(lo), float(hi), float(epsilon), alpha, coarse)
