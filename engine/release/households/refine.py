"""Refining pattern groups without touching what they guarantee.

The pattern groups of :mod:`engine.release.households.patterns` are formed once, fence by
fence, by microaggregation of households as points (its members' QIs in one fixed order):
a household keeps a group it took early even when another group of its size would suit it
better, and the order of its members is matched to its group's positions only while the
groups form.  :func:`refine_groups` repairs that, size by size, in passes over the
households (:func:`engine.release.partition.pattern_sweeps.pattern_sweep`): each household
takes the best of

* another order of its members over its group's positions (every order of up to four
  members, the exchanges of two members for larger households);
* an exchange with a household of the same size in a neighbouring group, each in its best
  order for the positions it joins;
* a move to a neighbouring group, when its own keeps at least k households;

when it lowers the QI sum of squares of the release and keeps every class of both groups
within its t-closeness bounds ⌈m·p_j/t⌉ ≤ n_j ≤ ⌊m·p_j·t⌋ (its m records after the change).
The objective is the released file's: the person-level QIs of every class, and the
household-level QIs (the commune) of every group once per member, so a household leaves its
commune's group only when what its members gain outweighs the commune its group would lose.

Nothing a pattern group guarantees can change: a group keeps one member of each of its
households in each position, so every household of a group keeps one pattern and a class's
records among the households of its pattern are the class itself; a group keeps at least k
households and its classes their bounds, so every released id's pattern is shared by k
households and is t-close under linking; households move whole, so their members share one
released commune.  The work is counted in passes over the households (:func:`passes_for`),
never in seconds, so a release is reproducible; the compiled loop and its plain route give
the same groups.
"""

from __future__ import annotations

from itertools import combinations, permutations

import numpy as np

from engine.release.partition import (
    BoundRates,
    compiled_kernels,
    nearest_points,
    one_blas_thread,
    pattern_sweeps,
)

#: groups a household may go to: its own and this many of its size whose members lie nearest
#: (on files of up to SMALL_FILE households; LARGE_NEAR beyond)
NEAR_GROUPS = 12
LARGE_NEAR = 6
#: passes over the households on files of up to SMALL_FILE households, and beyond
PASSES = 6
LARGE_PASSES = 1
#: a pass over n households of a size costs about n · NEAR_GROUPS · k exchanges weighed:
#: on the synthetic survey of 5,741 households 12 groups and 6 passes remove 3 % more of the
#: QI loss than 6 and 6, for 1.4 CPU-s; beyond, one pass over 6 groups, so that the
#: household run stays near the CPU of a run without households (docs/performance.md)
SMALL_FILE = 20_000
#: the neighbouring groups are searched on this many principal axes of the groups' points
SEARCH_AXES = 32
#: ... when there are more groups of a size than this (fewer are searched exactly)
EXACT_SEARCH = 2_000
#: the passes of a trial and the groups a household may go to there (the search of b
#: compares trials refined alike; the release gets the rest)
TRIAL_PASSES = 1
TRIAL_NEAR = LARGE_NEAR
#: the passes go on while one removes at least this share of what the first removed
MIN_GAIN = 0.05
#: households of up to this many members try every order of their members (24 for four);
#: larger ones try the exchanges of two members
ALL_ORDERS = 4


def passes_for(n_households: int) -> int:
    """The passes a refinement may spend: :data:`PASSES` up to :data:`SMALL_FILE`
    households, :data:`LARGE_PASSES` beyond (large files are refined less on the person
    route too: its refinement's budget falls with the file's size)."""
    return PASSES if n_households <= SMALL_FILE else LARGE_PASSES


def neighbours_for(n_households: int) -> int:
    """The groups a household may go to besides its own: :data:`NEAR_GROUPS` up to
    :data:`SMALL_FILE` households, :data:`LARGE_NEAR` beyond."""
    return NEAR_GROUPS if n_households <= SMALL_FILE else LARGE_NEAR


def member_orders(s: int) -> np.ndarray:
    """The orders of the members of a household of ``s`` tried (row p: the member that goes
    to each position), the present order first."""
    if s <= ALL_ORDERS:
        return np.array(list(permutations(range(s))), dtype=np.int64).reshape(-1, s)
    out = [list(range(s))]
    for i, j in combinations(range(s), 2):
        row = list(range(s))
        row[i], row[j] = j, i
        out.append(row)
    return np.array(out, dtype=np.int64)


@one_blas_thread
def refine_groups(
    X_person: np.ndarray,
    U_house: np.ndarray,
    codes: np.ndarray | None,
    shares: np.ndarray | None,
    t: float | None,
    k: int,
    rows: np.ndarray,
    group: np.ndarray,
    blocks: np.ndarray,
    *,
    passes: int,
    neighbours: int = NEAR_GROUPS,
    compiled: bool | None = None,
    fence: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(rows, group) of the households of one size refined (module doc).

    ``rows``: (households, s) records, member j at position j of its group; ``group``: the
    group of every household (0..G − 1); ``blocks``: (G, s) class of every position within
    its group (adjacent positions joined where one alone was not t-close); ``U_house``: the
    household-level QIs of every household (as encoded for the records); ``codes``,
    ``shares``, ``t``: the buckets (None: k-anonymity only); ``passes`` and ``neighbours``
    (groups of its size a household may go to besides its own): the work allowed
    (:func:`passes_for`, :func:`neighbours_for`).  ``compiled`` False runs the plain loop
    (the same groups).  ``fence``: per group, the fence it was formed in (a commune, or a
    coarser unit); households move and exchange only between groups of one fence, so a group
    formed in a commune keeps releasing that commune."""
    rows = np.ascontiguousarray(rows, dtype=np.int64).copy()
    group = np.ascontiguousarray(group, dtype=np.int64).copy()
    n_h, s = rows.shape
    n_groups = int(group.max()) + 1 if n_h else 0
    if n_groups < 2 and s == 1:
        return rows, group
    Xp = np.ascontiguousarray(X_person, dtype=np.float64)
    Uh = np.ascontiguousarray(U_house, dtype=np.float64).reshape(n_h, -1)
    if codes is None or shares is None or not t:
        codes = np.zeros(len(Xp), dtype=np.int64)
        shares, t = np.ones(1), 1.0
    codes = np.ascontiguousarray(codes, dtype=np.int64)
    blk = np.ascontiguousarray(blocks, dtype=np.int64)
    nblk = blk.max(axis=1) + 1
    cfirst = np.r_[0, np.cumsum(nblk)[:-1]].astype(np.int64)
    n_classes = int(nblk.sum())
    wcls = np.zeros(n_classes, dtype=np.int64)
    np.add.at(wcls, (cfirst[:, None] + blk).ravel(), 1)
    gsize = np.bincount(group, minlength=n_groups).astype(np.int64)
    cap = int(max(gsize.max(), 2 * k - 1))
    slots = np.full((n_groups, cap), -1, dtype=np.int64)
    order = np.argsort(group, kind="stable")
    starts = np.r_[0, np.cumsum(gsize)[:-1]]
    slots[group[order], np.arange(n_h) - starts[group[order]]] = order
    record_class = cfirst[group][:, None] + blk[group]  # (households, s)
    S = np.zeros((n_classes, Xp.shape[1]))
    np.add.at(S, record_class.ravel(), Xp[rows.ravel()])
    nb = len(shares)
    cnt = np.bincount(record_class.ravel() * nb + codes[rows.ravel()],
                      minlength=n_classes * nb).reshape(n_classes, nb).astype(np.int64)  # fmt: skip
    U = np.zeros((n_groups, Uh.shape[1]))
    np.add.at(U, group, Uh)
    largest = cap * s
    low, high = BoundRates(shares, t)(np.arange(largest + 1, dtype=np.float64)[:, None])
    low = np.ascontiguousarray(low, dtype=np.int64)
    high = np.ascontiguousarray(high, dtype=np.int64)
    perms = member_orders(s)
    kernels = compiled_kernels(compiled)
    sweep = pattern_sweeps.pattern_sweep if kernels is None else kernels.pattern_sweep
    scale = float((Xp[rows.ravel()] ** 2).sum() + s * (Uh**2).sum()) / max(n_h, 1)
    eps = 1e-9 * max(scale, 1e-300)
    reach = min(n_groups, neighbours + 1)
    first_gain = None
    for _pass in range(passes):
        # each group's neighbours of its size, by its classes' and its commune's centroids
        sizes = (wcls[cfirst[:, None] + blk] * gsize[:, None]).astype(np.float64)
        cent = S[cfirst[:, None] + blk] / sizes[:, :, None]
        point = np.concatenate(
            [cent.reshape(n_groups, -1), np.sqrt(s) * U / gsize[:, None]], axis=1
        )
        if fence is not None:  # groups of other fences lie far: the search finds its own
            spread = float(np.linalg.norm(np.ptp(point, axis=0))) + 1.0
            point = np.column_stack([point, 2.0 * spread * fence])
        near = _self_first(_near_groups(point, reach))
        if fence is not None:
            others = near[:, 1:]
            others[fence[others] != fence[:, None]] = -1
        changes, gain = sweep(
            Xp, codes, Uh, float(s), rows, group, slots, gsize, blk, nblk, cfirst, wcls, S,
            cnt, U, low, high, near, perms, k, eps,
        )  # fmt: skip
        first_gain = gain if first_gain is None else first_gain
        if changes == 0 or gain <= MIN_GAIN * first_gain:
            break
    return rows, group


def _near_groups(point: np.ndarray, reach: int) -> np.ndarray:
    """The ``reach`` groups nearest to each group (itself among them), searched on the
    groups' first :data:`SEARCH_AXES` principal axes: a group is a point in the values of all
    its positions and its commune (a hundred columns and more), where a k-d tree splits
    almost nothing apart (at 100,000 households and k = 3 the exact search cost 30 CPU-s, the
    passes themselves 5; on 32 axes 2.8, for a QI loss of 0.191 instead of 0.166 with two
    passes, 0.230 unrefined: ``python -m benchmarks.bench_households --households 100000
    --case household`` with and without ``--no-refine``); up to :data:`EXACT_SEARCH`
    groups the search is exact.  Any list of neighbours keeps the guarantee; nearer ones
    refine more."""
    if len(point) <= EXACT_SEARCH:
        from scipy.spatial import cKDTree

        return cKDTree(point).query(point, k=reach)[1].reshape(len(point), reach)
    centred = point - point.mean(axis=0)
    if centred.shape[1] > SEARCH_AXES:
        _, axes = np.linalg.eigh(centred.T @ centred)
        centred = centred @ axes[:, ::-1][:, :SEARCH_AXES]
    return nearest_points(centred, reach).reshape(len(point), reach)


def _self_first(near: np.ndarray) -> np.ndarray:
    """Each group's neighbour list with the group itself first (a tie of equal centroids may
    put another first)."""
    ids = np.arange(len(near))
    is_self = near == ids[:, None]
    missing = ~is_self.any(axis=1)
    is_self[missing, -1] = True
    others = near[~is_self].reshape(len(ids), near.shape[1] - 1)
    return np.ascontiguousarray(np.column_stack([ids, others]), dtype=np.int64)


__all__ = [
    "TRIAL_NEAR",
    "TRIAL_PASSES",
    "member_orders",
    "neighbours_for",
    "passes_for",
    "refine_groups",
]
