"""Where the randomness comes from: exact integer samplers, OS entropy or a seed.

Why integers: textbook Laplace sampling on floating-point numbers leaks the input through the
low-order bits of the output (Mironov, CCS 2012).  Every mechanism of tclose therefore works on
an integer lattice: values are snapped to a grid of width g (a power of two), integer noise is
added, and the result is scaled back by g, which is exact in binary floating point.  The set of
possible outputs is then the same lattice for every input, and the probability ratio of any
output under two inputs is exactly the one of the integer noise distribution.  OpenDP's own
Laplace mechanism for floats works the same way ("internally, all sampling is done using the
discrete Laplace distribution").

Two sources, chosen by the seed policy (Construction B):

* :class:`OsEntropy` (``seed=None``, the default): discrete Laplace noise from OpenDP's vetted
  sampler, which draws from the operating system's cryptographically secure generator; uniform
  integers (randomized response) from ``os.urandom``.  Not reproducible, by design.
* :class:`Seeded` (``seed=<int>``): the exact discrete Laplace sampler of Canonne, Kamath &
  Steinke (NeurIPS 2020, Algorithms 1–2) on top of numpy's PCG64 generator, vectorised.  The
  run is reproducible for an audit; a release made this way is only as private as the seed is
  secret, and PCG64 is not a cryptographic generator.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Protocol

import numpy as np

from engine.errors import InputError
from engine.i18n import _
from engine.progress import NO_TASK, Task

#: distinguishes the noise stream from other streams derived from the same user seed
NOISE_STREAM = 0x6E6F697365

#: records per OpenDP call: small enough for responsive progress and cancellation
CHUNK = 100_000

#: the largest integer noise scale: noise of up to ~50 scales (a 1e-22 tail) added to lattice
#: values stays below 2^53, exact in int64 and in float
MAX_SCALE = 2**46


def integer_scale(sensitivity: float, epsilon: float, what: str = "the noise") -> int:
    """ceil(sensitivity / ε) as the integer scale of discrete Laplace noise.

    Raises :class:`~engine.errors.InputError` when the scale is beyond :data:`MAX_SCALE` (an ε
    so small that the noise would be pure noise beyond exact arithmetic), instead of
    overflowing int64 somewhere inside a sampler.
    """
    ratio = sensitivity / epsilon if epsilon > 0 else math.inf
    if not ratio <= MAX_SCALE:
        raise InputError(
            _(
                "ε = {epsilon:.3g} is too small for {what}: the noise would be wider than any "
                "number tclose can draw exactly. Use a larger ε (or a larger share of it)."
            ).format(epsilon=epsilon, what=what)
        )
    return max(1, math.ceil(ratio))


class NoiseSource(Protocol):
    """What the mechanisms need from a source of randomness."""

    #: "os-entropy (OpenDP)" or "seeded (numpy PCG64, exact discrete Laplace)"
    description: str
    reproducible: bool

    def below(self, high: np.ndarray) -> np.ndarray:
        """Exactly uniform integers in [0, high) (elementwise; ``high`` ≥ 1, int64)."""
        ...

    def discrete_laplace(self, scale: int, size: int, *, task: Task = NO_TASK) -> np.ndarray:
        """``size`` integers with P(z) ∝ exp(−|z|/scale) (int64)."""
        ...


# --------------------------------------------------------------------------------------------
# Exact samplers on top of a uniform-integer primitive (Canonne, Kamath & Steinke 2020)


def bernoulli_exp(num: np.ndarray, den: np.ndarray, below) -> np.ndarray:
    """Exact Bernoulli(exp(−num/den)) for 0 ≤ num/den ≤ 1 (CKS20, Algorithm 1).

    Draw A_K ~ Bernoulli(γ/K) for K = 1, 2, … until the first failure; the result is 1 when
    that K is odd.  Each Bernoulli(γ/K) is an exact integer comparison ``U < num`` with U
    uniform in [0, den·K).
    """
    num = np.asarray(num, dtype=np.int64)
    den = np.broadcast_to(np.asarray(den, dtype=np.int64), num.shape)
    k_stop = np.zeros(num.shape, dtype=np.int64)
    active = np.arange(num.size)
    k = 1
    while active.size:
        success = below(den[active] * k) < num[active]
        k_stop[active[~success]] = k
        active = active[success]
        k += 1
    return (k_stop % 2) == 1


def geometric_exp1(size: int, below) -> np.ndarray:
    """Number of successes of Bernoulli(exp(−1)) before the first failure (exact)."""
    out = np.zeros(size, dtype=np.int64)
    active = np.arange(size)
    one = np.ones(1, dtype=np.int64)
    while active.size:
        success = bernoulli_exp(np.broadcast_to(one, active.shape), one, below)
        out[active[success]] += 1
        active = active[success]
    return out


def exact_discrete_laplace(scale: int, size: int, below) -> np.ndarray:
    """Exact discrete Laplace with integer ``scale``: P(z) ∝ exp(−|z|/scale) (CKS20, Alg. 2).

    U uniform in [0, scale), accepted with probability exp(−U/scale); V geometric with ratio
    e^−1; X = U + scale·V is then geometric with ratio exp(−1/scale); a fair sign, rejecting
    "−0" so that zero is not counted twice.
    """
    scale = int(scale)
    if scale < 1:
        raise ValueError("scale must be a whole number ≥ 1")
    out = np.empty(size, dtype=np.int64)
    todo = np.arange(size)
    while todo.size:
        m = todo.size
        u = below(np.full(m, scale, dtype=np.int64))
        keep = bernoulli_exp(u, np.int64(scale), below)
        x = u + scale * geometric_exp1(m, below)
        negative = below(np.full(m, 2, dtype=np.int64)) == 1
        ok = keep & ~(negative & (x == 0))
        out[todo[ok]] = np.where(negative[ok], -x[ok], x[ok])
        todo = todo[~ok]
    return out


# --------------------------------------------------------------------------------------------
# The two sources


def _urandom_below(high: np.ndarray) -> np.ndarray:
    """Exactly uniform integers in [0, high) from the OS CSPRNG (rejection, no modulo bias)."""
    high = np.asarray(high, dtype=np.int64).astype(np.uint64)
    out = np.empty(high.shape, dtype=np.uint64)
    todo = np.arange(high.size)
    while todo.size:
        h = high[todo]
        r = np.frombuffer(os.urandom(8 * todo.size), dtype=np.uint64)
        rem = (np.uint64(0) - h) % h  # 2**64 mod h, in wrapping uint64 arithmetic
        ok = (rem == 0) | (r < (np.uint64(0) - rem))
        out[todo[ok]] = r[ok] % h[ok]
        todo = todo[~ok]
    return out.astype(np.int64)


class OsEntropy:
    """Fresh operating-system entropy; Laplace noise from OpenDP.  Not reproducible."""

    description = "operating-system entropy (OpenDP discrete Laplace; os.urandom)"
    reproducible = False

    def below(self, high: np.ndarray) -> np.ndarray:
        return _urandom_below(high)

    def discrete_laplace(self, scale: int, size: int, *, task: Task = NO_TASK) -> np.ndarray:
        import opendp.prelude as dp

        dp.enable_features("contrib")
        space = dp.vector_domain(dp.atom_domain(T="i64")), dp.l1_distance(T="i64")
        measurement = dp.m.make_laplace(*space, scale=float(int(scale)))
        out = np.empty(size, dtype=np.int64)
        starts = range(0, size, CHUNK)

        def draw(start: int) -> None:
            stop = min(size, start + CHUNK)
            out[start:stop] = measurement(np.zeros(stop - start, dtype=np.int64))

        # OpenDP's sampler runs in its native library, called without the interpreter lock:
        # chunks drawn on every core take about half the time on two cores (1M: 6 s, not 11 s)
        task.step(0.0, _("Drawing noise"))
        workers = max(1, min(len(starts), os.cpu_count() or 1))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(draw, start) for start in starts]
            try:
                for done, future in enumerate(as_completed(futures), start=1):
                    future.result()
                    task.step(done / len(futures), _("Drawing noise"))
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
        return out


class Seeded:
    """A reproducible source for audits: numpy PCG64 with exact integer samplers."""

    reproducible = True

    def __init__(self, seed: int) -> None:
        self.seed = int(seed)
        self.description = f"seed {self.seed} (numpy PCG64, exact discrete Laplace; reproducible)"
        # a stream of its own, so that it never coincides with other uses of the same seed
        # (the row shuffle, tie-breaking in microaggregation)
        self._rng = np.random.Generator(
            np.random.PCG64(np.random.SeedSequence([self.seed, NOISE_STREAM]))
        )

    def below(self, high: np.ndarray) -> np.ndarray:
        return self._rng.integers(0, np.asarray(high, dtype=np.int64), dtype=np.int64)

    def discrete_laplace(self, scale: int, size: int, *, task: Task = NO_TASK) -> np.ndarray:
        task.step(0.0, _("Drawing noise"))
        out = exact_discrete_laplace(scale, size, self.below)
        task.step(1.0, _("Noise drawn"))
        return out


def noise_source(seed: int | None) -> NoiseSource:
    """The source the seed policy asks for: OS entropy by default, a seeded one for audits."""
    return OsEntropy() if seed is None else Seeded(seed)
