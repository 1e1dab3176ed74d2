"""Randomized response for nominal confidential values, and the ε / t of any channel.

Uniform variant (TIFS 2022, Fig. 4): keep the true category with probability p, otherwise
draw one uniformly from all n categories (possibly the true one again).  The channel is
P(o | i) = p·[o = i] + (1 − p)/n, whose largest ratio is 1 + n·p/(1 − p) = e^ε, so
p = (e^ε − 1)/(e^ε − 1 + n).  (The paper's equation (1) prints a different expression; the
channel is the authority, Construction B, and :func:`channel_epsilon` checks it.)

Empirical variant (TIFS 2022, Fig. 5): otherwise draw from the file's own category shares.
Its channel depends on the data (so it is a t-closeness mechanism, not a DP one); its t is the
worst class made of a single category: :func:`channel_t` against the overall output
distribution.  The paper's equation (2) is garbled in print; the channel computation gives
t = max(p_t/min_i p_y(a_i) + 1 − p_t, 1/(1 − p_t)).

The categories are public: declared by the user, never read off the data (one person's rare
category would otherwise show in the release and in its metadata, and ε would not hold;
:class:`CategoriesRequiredError`).  A true value outside the declared categories
(:data:`OUTSIDE`) is released as a draw from the "otherwise" distribution, as if its true
category were one of the declared ones drawn at random: its output distribution is the
average of the channel's rows (uniform, for the uniform variant), which lies within e^ε of
every row, so one person's undeclared value adds no category and ε holds.

Sampling is exact: the keep decision compares a uniform integer in [0, 2^52) with p·2^52
rounded *down* (slightly more randomisation than asked), and the ε reported is the one of the
channel actually used.

The released shares λ of a randomized column are biased towards uniform (a rare category
grows, a common one shrinks); as the channel P is public, :func:`corrected_shares` gives the
unbiased estimate of the original shares, π̂ = λ̂·P⁻¹, with the standard errors of the
multinomial λ̂ carried through P⁻¹ (the moment estimator of PRAM, as sdcMicro's):
anyone can compute it from the released file and the published channel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.errors import InputError, listing
from engine.i18n import _, ngettext
from engine.mechanisms.sampling import NoiseSource

#: resolution of the keep probability (exact integer comparison)
P_BITS = 52
#: the code of a true value that is missing: released missing
MISSING = -1
#: the code of a true value outside the declared categories: released as a draw from the
#: "otherwise" distribution (module doc)
OUTSIDE = -2


class CategoriesRequiredError(InputError):
    """Randomized response was asked for category columns whose categories are not declared.

    ``columns`` names them, so that a caller can add its own way of declaring them (the
    command line adds its flag) to the message.
    """

    def __init__(self, columns: list[str]) -> None:
        super().__init__(
            ngettext(
                "Randomized response on {columns} needs the column's categories declared: "
                "every category it can take, known without looking at this file (e.g. the "
                "answers of the questionnaire). The categories found in the data are never "
                "used: one person's rare category would show in the release. Declare them (in "
                "the app on the privacy step; in a project file as categories); a value "
                "outside them is released as one of them drawn at random.",
                "Randomized response on {columns} needs the columns' categories declared: "
                "every category each can take, known without looking at this file (e.g. the "
                "answers of the questionnaire). The categories found in the data are never "
                "used: one person's rare category would show in the release. Declare them (in "
                "the app on the privacy step; in a project file as categories); a value "
                "outside them is released as one of them drawn at random.",
                len(columns),
            ).format(columns=listing(columns))
        )
        self.columns = list(columns)


@dataclass(frozen=True)
class ResponseOutcome:
    """Released category codes of one nominal column and the channel used."""

    #: released category index of every present record (−1 where the input was missing; a
    #: value outside the categories is released as one of them)
    codes: np.ndarray
    #: P(o | i): rows = true category, columns = released category
    channel: np.ndarray
    #: probability of keeping the true value (as actually used, a multiple of 2**-52)
    keep: float
    #: ε of the channel (ln of its largest ratio)
    epsilon: float


@dataclass(frozen=True)
class CorrectedShares:
    """The original shares of a randomized column, estimated from the release alone.

    ``estimate`` is unbiased, so that a rare category's estimate can fall a little below 0
    (or a common one above 1); ``standard_error`` says by how much it may be off: the true
    share lies within two standard errors about 95 times in 100.
    """

    #: the categories, in the order of the shares
    categories: tuple[str, ...]
    #: released values that are not missing (what the shares are of)
    n: int
    #: the shares of the categories in the release
    released: tuple[float, ...]
    #: λ̂·P⁻¹: the unbiased estimate of the shares before randomization
    estimate: tuple[float, ...]
    standard_error: tuple[float, ...]


def corrected_shares(
    released_codes: np.ndarray, channel: np.ndarray, categories: list[str] | tuple[str, ...]
) -> CorrectedShares | None:
    """The unbiased estimate of the original shares (module doc); None when the channel
    cannot be inverted (keep probability 0: the release says nothing about them).

    ``released_codes`` are the released category indices (−1 missing, left aside);
    ``channel`` is P(o | i) with rows the true and columns the released category.
    """
    codes = np.asarray(released_codes, dtype=np.int64)
    codes = codes[codes >= 0]
    channel = np.asarray(channel, dtype=float)
    n_cat = channel.shape[0]
    n = int(codes.size)
    if n == 0 or np.linalg.cond(channel) > 1e12:
        return None
    lam = np.bincount(codes, minlength=n_cat) / n
    inverse = np.linalg.inv(channel)
    estimate = lam @ inverse
    covariance = inverse.T @ ((np.diag(lam) - np.outer(lam, lam)) / n) @ inverse
    error = np.sqrt(np.clip(np.diag(covariance), 0.0, None))
    return CorrectedShares(
        categories=tuple(str(c) for c in categories),
        n=n,
        released=tuple(float(x) for x in lam),
        estimate=tuple(float(x) for x in estimate),
        standard_error=tuple(float(x) for x in error),
    )


def channel_epsilon(channel: np.ndarray) -> float:
    """ε = ln max over outputs o and inputs i, i' of P(o|i)/P(o|i') (inf if a column has a 0)."""
    channel = np.asarray(channel, dtype=float)
    if channel.ndim != 2 or not np.allclose(channel.sum(axis=1), 1.0):
        raise ValueError("a channel is a matrix whose rows are probability distributions")
    top, bottom = channel.max(axis=0), channel.min(axis=0)
    used = top > 0
    if (bottom[used] == 0).any():
        return math.inf
    return float(np.log((top[used] / bottom[used]).max())) if used.any() else 0.0


def channel_t(channel: np.ndarray, prior: np.ndarray) -> float:
    """The worst single-category class's distance to the whole file's output distribution.

    A class whose members all hold category i releases P(· | i); the file releases
    μ = prior · channel.  t = max_i max_o max(P(o|i)/μ(o), μ(o)/P(o|i)) over categories with
    positive prior (Definition 4 / Proposition 2 of KBS 2015); it bounds every class.
    """
    channel = np.asarray(channel, dtype=float)
    prior = np.asarray(prior, dtype=float)
    mu = prior @ channel
    rows = channel[prior > 0]
    out = mu > 0
    ratio = rows[:, out] / mu[out]
    with np.errstate(divide="ignore"):
        return float(np.maximum(ratio, 1.0 / ratio).max())


def uniform_keep_probability(epsilon: float, n_categories: int) -> float:
    """p with e^ε = 1 + n·p/(1 − p), i.e. p = (e^ε − 1)/(e^ε − 1 + n)."""
    if n_categories < 1:
        raise InputError(_("Randomized response needs at least one category."))
    if math.isinf(epsilon):
        return 1.0
    grow = math.expm1(epsilon)
    return grow / (grow + n_categories)


def uniform_channel(keep: float, n_categories: int) -> np.ndarray:
    """P(o|i) = keep·[o = i] + (1 − keep)/n."""
    return keep * np.eye(n_categories) + (1.0 - keep) / n_categories


def empirical_channel(keep: float, shares: np.ndarray) -> np.ndarray:
    """P(o|i) = keep·[o = i] + (1 − keep)·share(o) (TIFS 2022, Fig. 5)."""
    shares = np.asarray(shares, dtype=float)
    return keep * np.eye(shares.size) + (1.0 - keep) * shares[None, :]


def empirical_t(keep: float, shares: np.ndarray) -> float:
    """t of the empirical variant: max(p/min share + 1 − p, 1/(1 − p)) (from the channel)."""
    shares = np.asarray(shares, dtype=float)
    shares = shares[shares > 0]
    return max(keep / shares.min() + 1.0 - keep, math.inf if keep >= 1 else 1.0 / (1.0 - keep))


def _keep_integer(keep: float) -> int:
    return math.floor(keep * 2.0**P_BITS)


def _respond(
    codes: np.ndarray, keep: float, draw_other, source: NoiseSource
) -> tuple[np.ndarray, float]:
    """Keep each present code with probability ⌊keep·2^52⌋/2^52, else ``draw_other(size)``;
    a code :data:`OUTSIDE` the categories is always ``draw_other`` (module doc), a missing
    one stays missing."""
    codes = np.asarray(codes, dtype=np.int64)
    out = codes.copy()
    present = np.flatnonzero(codes >= 0)
    keep_int = _keep_integer(keep)
    kept = source.below(np.full(present.size, 2**P_BITS, dtype=np.int64)) < keep_int
    redraw = present[~kept]
    outside = np.flatnonzero(codes == OUTSIDE)
    if outside.size:
        redraw = np.concatenate([redraw, outside])
    out[redraw] = draw_other(redraw.size)
    return out, keep_int / 2.0**P_BITS


def randomized_response(
    codes: np.ndarray, n_categories: int, epsilon: float, source: NoiseSource
) -> ResponseOutcome:
    """Uniform randomized response with the p that gives ε (TIFS 2022, Fig. 4).

    ``codes`` are category indices 0 … n − 1, :data:`MISSING` (−1) for missing (kept
    missing), :data:`OUTSIDE` (−2) for a value outside the declared categories (released as a
    uniform draw from them).
    """
    if not epsilon > 0:
        raise InputError(_("ε must be a positive number, not {epsilon}.").format(epsilon=epsilon))
    keep = uniform_keep_probability(epsilon, n_categories)

    def uniform(size: int) -> np.ndarray:
        return source.below(np.full(size, n_categories, dtype=np.int64))

    out, used = _respond(codes, keep, uniform, source)
    channel = uniform_channel(used, n_categories)
    return ResponseOutcome(out, channel, used, channel_epsilon(channel))


def empirical_response(codes: np.ndarray, keep: float, source: NoiseSource) -> ResponseOutcome:
    """Keep with probability ``keep``, else draw from the file's own shares (TIFS 2022, Fig. 5).

    The shares are those of the present codes; the draw is exact (a uniform integer below the
    number of present records picks one of them).  ``epsilon`` of the outcome is the channel's
    ratio bound, which depends on the data and therefore is not a DP guarantee.
    """
    codes = np.asarray(codes, dtype=np.int64)
    present_codes = codes[codes >= 0]
    if present_codes.size == 0:
        raise InputError(_("The column has no values to randomise."))
    n_categories = int(present_codes.max()) + 1
    shares = np.bincount(present_codes, minlength=n_categories) / present_codes.size

    def empirical(size: int) -> np.ndarray:
        return present_codes[source.below(np.full(size, present_codes.size, dtype=np.int64))]

    out, used = _respond(codes, keep, empirical, source)
    channel = empirical_channel(used, shares)
    return ResponseOutcome(out, channel, used, channel_epsilon(channel))
