"""Which class sizes a t-close partition tries (KBS 2015 §6.2: classes of m ≥ k records).

A class of m records needs ⌈m·p_j/t⌉ records of every bucket j.  While m·p_j/t < 1 that
rounding forces records of rare buckets into every class, from wherever they are, so the
class size that loses least is often well above k; the partition heuristic is also not
monotone in m.  The run therefore partitions a sample at several sizes and keeps the best
(:func:`engine.release.best_partition`); this module says which sizes.
"""

from __future__ import annotations

import math

import numpy as np

from engine.release.partition.feasibility import class_bounds

#: records per block: larger blocks give better classes and cost linearly more
DEFAULT_BLOCK_SIZE = 2000
#: a file larger than this is large: its blocks are half the size (:func:`block_size`), its
#: classes get no improvement pass (:func:`engine.release.partition.default_rounds`), and
#: k-anonymous microaggregation shrinks its blocks to about 100 classes
LARGE_FILE = 200_000
#: above this many records the class size is chosen on a fixed random sample of this size
SIZE_SAMPLE = 15_000


def block_size(n: int) -> int:
    """Records per block for a file of ``n`` records: smaller blocks halve the time on
    millions of records."""
    return DEFAULT_BLOCK_SIZE if n <= LARGE_FILE else DEFAULT_BLOCK_SIZE // 2


def size_sample(n: int) -> np.ndarray:
    """Positions of the records the class size is chosen on: all, or a fixed random sample.

    Fixed (seeded with 0) so that the same file gives the same choice, on one machine or on a
    cluster (which fetches these rows from its partitions).
    """
    if n <= SIZE_SAMPLE:
        return np.arange(n)
    return np.sort(np.random.default_rng(0).choice(n, SIZE_SAMPLE, replace=False))


#: sizes are tried up to this multiple of t / (smallest share): past about t / p_min the
#: rounding waste is gone and larger classes only coarsen the QIs, but the heuristic still
#: gains a little there on some files (e.g. a size of 20 where t / p_min = 8)
SIZE_REACH = 4


def top_size(counts: np.ndarray, t: float) -> int:
    """⌈t / p_min⌉ (at most N): from this size on no bucket's lower bound is rounded up to 1.

    t / p_min ≥ N exactly when t ≥ the smallest count, which is tested first, so that a huge
    t (1e300, whose quotient overflows to infinity) gives N rather than an OverflowError.
    """
    n = int(counts.sum())
    smallest = int(counts[counts > 0].min())
    if t >= smallest:
        return n
    return min(n, math.ceil(t * n / smallest - 1e-9))


def class_size_candidates(counts: np.ndarray, k: int, t: float) -> list[int]:
    """Minimum class sizes worth trying, from k up to ceil(t / smallest share).

    While m·p_j/t < 1 the share of a class its lower bounds fix, F(m) = Σ_j ceil(m·p_j/t) / m,
    stays well above the ideal 1/t; classes of about t/p_min records avoid the waste but are
    coarser.  F jumps with the rounding, so the candidates are k and the sizes with the
    smallest F up to the geometric mean of k and t/p_min and up to t/p_min itself (on adult
    and ACS the QI loss follows F closely).
    """
    n = int(counts.sum())
    shares = counts / n
    top = top_size(counts, t)
    if top <= k:
        return [k]
    sizes = np.arange(k, top + 1)
    lower, _ = class_bounds(sizes, shares, t)
    forced = lower.sum(axis=1) / sizes
    middle = round(math.sqrt(k * top))
    best_low = int(sizes[np.argmin(forced[: middle - k + 1])])
    best_all = int(sizes[np.argmin(forced)])
    return sorted({k, best_low, best_all})


def size_candidates(counts: np.ndarray, k: int, t: float) -> list[int]:
    """The sizes to try for k: the candidates of k, 2k, 4k, … up to :data:`SIZE_REACH`·t/p_min.

    A partition into classes of at least 2k records is also one into classes of at least k,
    so a smaller k must never lose more information than a larger one.  The reach depends on
    the buckets and t only, not on k, so the sizes tried for k include every size tried for
    2k, 4k, …: along doublings of k the chosen loss never falls as k grows (a sweep over
    k = 5, 10, 20 is monotone), at the cost of a few more trial partitions on the sample.
    """
    n = int(counts.sum())
    reach = min(n // 2, SIZE_REACH * top_size(counts, t))
    sizes: set[int] = {k}
    m = k
    while m <= reach:
        sizes.update(class_size_candidates(counts, m, t))
        m *= 2
    return sorted(sizes)


__all__ = ["SIZE_REACH", "class_size_candidates", "size_candidates", "top_size"]
