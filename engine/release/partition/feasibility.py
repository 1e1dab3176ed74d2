"""Which (t, k, b) can be met on a file, decided by arithmetic on the bucket counts.

A class E of m records meets t-closeness for bucket j (share p_j) exactly when
``ceil(m·p_j/t) ≤ n_Ej ≤ floor(m·p_j·t)`` (KBS 2015 §6.2).  The witness used throughout is the
*balanced layout* of N records into C classes: every class gets ⌊N/C⌋ or ⌈N/C⌉ records, and
⌊N_j/C⌋ or ⌈N_j/C⌉ of bucket j (deal the records, sorted by bucket, round-robin; then order
them inside each bucket by the QIs).  It is valid whenever

    ⌊N/C⌋ ≥ k,   ⌊N_j/C⌋ ≥ L_j(⌈N/C⌉)   and   ⌈N_j/C⌉ ≤ U_j(⌊N/C⌋)   for every j,

with L_j(m) = ceil(m·p_j/t) and U_j(m) = floor(m·p_j·t) — O(b) arithmetic per C.  Taking one
class of the layout away leaves a remainder that satisfies the same condition with C − 1
classes, which is the invariant :mod:`engine.release.partition` keeps while it grows classes.

With the file's own shares, C = 1 (one class holding everything) always qualifies: any
t ≥ 1 and any k ≤ N can be met, at worst with few large classes.  Infeasible means k > N, or,
for a block of a larger file judged against the whole file's shares (``shares``), a block
whose own bucket mix is too far from the whole file's.
"""

from __future__ import annotations

import math

import numpy as np

from engine.errors import FeasibleAlternative, InfeasibleError
from engine.i18n import _

#: relative slack that keeps float rounding of m·p_j·t from turning an exact bound inward
_RTOL = 1e-10


def class_bounds(
    m: int | np.ndarray, shares: np.ndarray, t: float
) -> tuple[np.ndarray, np.ndarray]:
    """(L, U): the fewest and most records of each bucket a class of m records may hold.

    ``m`` may be an array; the result then has shape ``m.shape + (b,)``.
    """
    return BoundRates(shares, t)(np.asarray(m, dtype=float)[..., None])


class BoundRates:
    """L(m), U(m) with the per-bucket rates p_j/t and p_j·t computed once (hot loops)."""

    def __init__(self, shares: np.ndarray, t: float) -> None:
        shares = np.asarray(shares, dtype=float)
        self.low_rate = shares / t
        self.high_rate = shares * t
        #: a class lacking a bucket the file has is at distance ∞ for any finite t
        self.needed = (shares > 0).astype(np.int64)

    def __call__(self, m: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        low = m * self.low_rate
        # capped far above any class size: a huge t must not overflow the integer cast
        with np.errstate(over="ignore"):  # m·p·t beyond 1.8e308 is infinite, then capped
            high = np.minimum(m * self.high_rate, 2.0**62)
        lower = np.ceil(low - _RTOL * np.maximum(low, 1.0)).astype(np.int64)
        upper = np.floor(high + _RTOL * np.maximum(high, 1.0)).astype(np.int64)
        return np.maximum(lower, self.needed), upper


def layout_ok(
    counts: np.ndarray, n_classes: int | np.ndarray, shares: np.ndarray, t: float, k: int
) -> np.ndarray:
    """Whether the balanced layout of ``counts`` into ``n_classes`` classes is valid (module doc).

    Vectorised over an array of class numbers.
    """
    counts = np.asarray(counts, dtype=np.int64)
    c = np.atleast_1d(np.asarray(n_classes, dtype=np.int64))
    n = int(counts.sum())
    ok = (c >= 1) & (c <= max(n, 1))
    c_safe = np.maximum(c, 1)
    small = n // c_safe
    big = -(-n // c_safe)
    ok &= small >= k
    low_big, _ = class_bounds(big, shares, t)
    _, up_small = class_bounds(small, shares, t)
    per_floor = counts[None, :] // c_safe[:, None]
    per_ceil = -(-counts[None, :] // c_safe[:, None])
    ok &= (per_floor >= low_big).all(axis=1) & (per_ceil <= up_small).all(axis=1)
    return ok


def max_classes(counts: np.ndarray, t: float, k: int, shares: np.ndarray | None = None) -> int:
    """The largest C for which the balanced layout is valid; 0 when there is none."""
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    if n == 0 or k > n:
        return 0
    if shares is None:
        shares = counts / n
    shares = np.asarray(shares, dtype=float)
    needed = shares > 0
    if (counts[~needed] > 0).any():
        return 0  # a bucket the reference distribution lacks: d is infinite
    c_hi = n // k
    if needed.any():
        c_hi = min(c_hi, int(counts[needed].min()))  # every class needs one of every bucket
    chunk = 4096
    for top in range(c_hi, 0, -chunk):
        cs = np.arange(top, max(top - chunk, 0), -1)
        ok = layout_ok(counts, cs, shares, t, k)
        if ok.any():
            return int(cs[np.argmax(ok)])
    return 0


def smallest_t(counts: np.ndarray, k: int, shares: np.ndarray | None = None) -> float | None:
    """The smallest t (to 3 decimals, rounded up) at which k can be met; None if none can."""
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    if n == 0 or k > n:
        return None
    if max_classes(counts, 1.0, k, shares):
        return 1.0
    hi = 2.0
    while not max_classes(counts, hi, k, shares):
        hi *= 2
        if hi > 1e6:
            return None
    lo = 1.0
    while hi - lo > 5e-4:
        mid = (lo + hi) / 2
        if max_classes(counts, mid, k, shares):
            hi = mid
        else:
            lo = mid
    return math.ceil(hi * 1000) / 1000


def largest_k(counts: np.ndarray, t: float, shares: np.ndarray | None = None) -> int:
    """The largest k that can be met for this t (0 if none)."""
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    if n == 0:
        return 0
    if max_classes(counts, t, n, shares):
        return n
    return 0  # only possible with foreign shares; no k helps then


def nearest_feasible(
    counts: np.ndarray, t: float, k: int, shares: np.ndarray | None = None
) -> list[FeasibleAlternative]:
    """Parameters close to (t, k) that can be met on these bucket counts."""
    b = len(counts)
    out: list[FeasibleAlternative] = []
    kk = largest_k(counts, t, shares)
    if kk:
        out.append(
            FeasibleAlternative(
                _("largest k for t = {t:g}: k = {kk} (b = {b})").format(t=t, kk=kk, b=b),
                {"t": t, "k": kk, "n_buckets": b},
            )
        )
    tt = smallest_t(counts, k, shares)
    if tt is not None:
        out.append(
            FeasibleAlternative(
                _("smallest t for k = {k}: t = {tt:g} (b = {b})").format(k=k, tt=tt, b=b),
                {"t": tt, "k": k, "n_buckets": b},
            )
        )
    return out


def check_feasible(counts: np.ndarray, t: float, k: int, shares: np.ndarray | None = None) -> int:
    """Raise InfeasibleError naming the nearest feasible parameters, else return max classes."""
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    c = max_classes(counts, t, k, shares)
    if c:
        return c
    alternatives = nearest_feasible(counts, t, k, shares)
    if n == 0:
        raise InfeasibleError(_("There are no records to release."))
    hint = "; ".join(a.description for a in alternatives) or "no t or k helps on these records"
    if k > n:
        reason = f"k = {k} needs at least {k} records but there are only {n}"
    else:
        reason = (
            f"no partition into classes of at least {k} records is {t:g}-close with "
            f"{len(counts)} buckets"
        )
    raise InfeasibleError(
        _("Infeasible parameters: {reason}. Nearest feasible: {hint}.").format(
            reason=reason, hint=hint
        ),
        alternatives=alternatives,
    )
