"""k-anonymous microaggregation of a numeric matrix (no t-closeness constraint).

The QI part of every release without a bucket constraint (``tclose anonymize`` with no
confidential column, and the noise mechanisms of SPEC §5) needs records grouped into classes of
at least k records whose values are as close as possible, measured by the within-class sum of
squares (SSE) on standardised columns.

The method, in three stages:

1. **Blocks.**  Files larger than a few thousand records are cut by median splits along the
   widest coordinate (a k-d partition) into blocks of at most ``block_size`` records, each of at
   least k records by construction.  Everything after this works inside one block, so the cost
   is O(N · block_size / k) instead of the O(N² / k) of plain MDAV.
2. **MDAV** (Domingo-Ferrer & Torra 2005) inside each block: seed a class at the unassigned
   record farthest from the centroid of the unassigned ones, give it its k − 1 nearest
   unassigned neighbours, do the same from the record farthest from that seed, repeat.
3. **Local improvement.**  Fixed-size classes are MDAV's weakness: a natural cluster of 4
   records is cut into 3 + 1 when k = 3.  Classes may therefore hold between k and 2k − 1
   records, and a Hartigan-style pass moves single records to a neighbouring class, or
   exchanges two records between classes, whenever that lowers the SSE.  A class that only
   costs SSE can be dissolved into its neighbours.  Each accepted change lowers the SSE, so the
   pass ends.
"""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

from engine.errors import InputError
from engine.progress import CancelFn, ProgressFn, scaled, step

#: largest number of records microaggregated in one piece; larger files are split into blocks
DEFAULT_BLOCK_SIZE = 2000


def microaggregate(
    X: np.ndarray,
    k: int,
    *,
    seed: int | None = None,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
    block_size: int = DEFAULT_BLOCK_SIZE,
    improve: bool = True,
) -> np.ndarray:
    """Group the rows of ``X`` into classes of at least ``k`` rows with similar values.

    ``X`` is an (n × d) float matrix, already standardised (the caller decides the distance).
    Returns an int64 array of class labels 0..m−1, one per row.  Every class has between k and
    2k − 1 rows unless the file itself has fewer than 2k rows (then it is one class).  The
    result is deterministic: ``seed`` only permutes the order in which ties are broken, so the
    same seed gives the same classes.
    """
    X = _as_matrix(X)
    n = X.shape[0]
    k = int(k)
    if k < 1:
        raise InputError(f"k must be a whole number ≥ 1, not {k}.")
    if n < k:
        raise InputError(f"The data have {n} records, fewer than k = {k}.")
    step(progress, cancel, 0.0, "Microaggregating")
    if k == 1:
        return np.arange(n, dtype=np.int64)

    order = np.arange(n) if seed is None else np.random.default_rng(seed).permutation(n)
    Xo = X[order]
    blocks = kd_blocks(Xo, max(int(block_size), 4 * k))
    labels_o = mdav_blocks(Xo, blocks, k, progress=scaled(progress, 0.0, 0.4), cancel=cancel)
    if improve:
        labels_o = improve_classes(
            Xo, labels_o, k, progress=scaled(progress, 0.4, 1.0), cancel=cancel
        )
    labels = np.empty(n, dtype=np.int64)
    labels[order] = labels_o
    step(progress, cancel, 1.0, "Microaggregation done")
    return _relabel(labels)


def kd_blocks(X: np.ndarray, block_size: int) -> list[np.ndarray]:
    """Cut the rows of ``X`` into blocks of at most ``block_size`` rows by median splits.

    Every block is halved along its widest coordinate the same number of times, so the blocks
    are compact boxes whose sizes differ by at most one (⌊n/2^L⌋ or ⌈n/2^L⌉).  Returns the row
    indices of each block, in k-d order (neighbouring blocks close together).
    """
    n = X.shape[0]
    blocks = [np.arange(n)]
    while len(blocks[0]) > block_size:
        halves: list[np.ndarray] = []
        for idx in blocks:
            sub = X[idx]
            dim = int(np.argmax(sub.max(axis=0) - sub.min(axis=0)))
            half = len(idx) // 2
            part = np.argpartition(sub[:, dim], half)
            halves += [idx[part[:half]], idx[part[half:]]]
        blocks = halves
    return blocks


def mdav_blocks(
    X: np.ndarray,
    blocks: list[np.ndarray],
    k: int,
    *,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
) -> np.ndarray:
    """MDAV inside every block, all blocks in lockstep (one numpy operation per MDAV step).

    Blocks of (nearly) equal size let one array hold them all: row b of ``Z`` is block b,
    padded to the largest size.  Each step takes the farthest-from-centroid record of every
    block and its k − 1 nearest live neighbours at once, so the Python loop runs
    block_size / k times whatever the number of blocks.  The last < 3k records of each block
    are finished by :func:`mdav` one block at a time.
    """
    n, _d = X.shape
    labels = np.full(n, -1, dtype=np.int64)
    nb = len(blocks)
    width = max(len(b) for b in blocks)
    idx = np.full((nb, width), -1, dtype=np.int64)
    for i, b in enumerate(blocks):
        idx[i, : len(b)] = b
    alive = idx >= 0
    Z = X[np.maximum(idx, 0)] * alive[:, :, None]
    count = alive.sum(axis=1)
    total = Z.sum(axis=1)
    rows = np.arange(nb)[:, None]
    next_label = 0
    start_width = width

    def take(seed_pos: np.ndarray) -> np.ndarray:
        """Give every block a class: the seed's k nearest live records.  Returns the seeds."""
        nonlocal next_label, count, total
        seed_x = Z[rows[:, 0], seed_pos]
        d2 = ((Z - seed_x[:, None, :]) ** 2).sum(axis=2)
        d2[~alive] = np.inf
        nearest = np.argpartition(d2, k - 1, axis=1)[:, :k]
        labels[idx[rows, nearest]] = next_label + rows
        next_label += nb
        alive[rows, nearest] = False
        count = count - k
        total = total - Z[rows, nearest].sum(axis=1)
        return seed_x

    while count.min() >= 3 * k:
        step(progress, cancel, 1.0 - count.max() / start_width, "Microaggregating")
        centroid = total / count[:, None]
        d2 = ((Z - centroid[:, None, :]) ** 2).sum(axis=2)
        d2[~alive] = -np.inf
        xr = take(np.argmax(d2, axis=1))
        d2 = ((Z - xr[:, None, :]) ** 2).sum(axis=2)
        d2[~alive] = -np.inf
        take(np.argmax(d2, axis=1))
        if count.max() * 2 < Z.shape[1]:
            # drop the dead columns: live records first, in their old order
            keep = np.argsort(~alive, axis=1, kind="stable")[:, : count.max()]
            idx, Z, alive = idx[rows, keep], Z[rows, keep], alive[rows, keep]
    for b in range(nb):
        rest = idx[b, alive[b]]
        if len(rest):
            sub = mdav(X[rest], k)
            labels[rest] = sub + next_label
            next_label += int(sub.max()) + 1
    return _relabel(labels)


def mdav(X: np.ndarray, k: int) -> np.ndarray:
    """Plain MDAV on a small matrix: labels with classes of k rows (the last up to 2k − 1).

    Brute-force distances, vectorised: O(n² d / k) arithmetic, meant for blocks of a few
    thousand rows.
    """
    n = X.shape[0]
    labels = np.full(n, -1, dtype=np.int64)
    if n < 2 * k:
        labels[:] = 0
        return labels
    alive = np.arange(n)
    Xa = X.copy()
    label = 0

    def take_around(seed_pos: int) -> None:
        nonlocal alive, Xa, label
        d2 = ((Xa - Xa[seed_pos]) ** 2).sum(axis=1)
        nearest = np.argpartition(d2, k - 1)[:k]
        labels[alive[nearest]] = label
        label += 1
        keep = np.ones(len(alive), dtype=bool)
        keep[nearest] = False
        alive = alive[keep]
        Xa = Xa[keep]

    while len(alive) >= 3 * k:
        centroid = Xa.mean(axis=0)
        r = int(np.argmax(((Xa - centroid) ** 2).sum(axis=1)))
        xr = Xa[r].copy()
        take_around(r)
        s = int(np.argmax(((Xa - xr) ** 2).sum(axis=1)))
        take_around(s)
    if len(alive) >= 2 * k:
        centroid = Xa.mean(axis=0)
        r = int(np.argmax(((Xa - centroid) ** 2).sum(axis=1)))
        take_around(r)
    labels[alive] = label
    return labels


def improve_classes(
    X: np.ndarray,
    labels: np.ndarray,
    k: int,
    *,
    max_rounds: int = 200,
    n_near: int = 4,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
) -> np.ndarray:
    """Lower the SSE of a partition by moving and exchanging single rows between classes.

    Each round evaluates, for every row, moving it to one of the ``n_near`` classes with the
    nearest centroids (allowed while the source keeps more than k rows and the target stays
    below 2k) and exchanging it with a member of such a class; then it applies the best changes
    of which no two touch the same class, so every applied gain is exact and the SSE falls
    every round.  After the first round only rows next to a class that changed are looked at
    again.  All arithmetic is vectorised over rows; only the choice of non-conflicting changes
    loops in Python.
    """
    labels = _relabel(labels).copy()
    n, d = X.shape
    m = int(labels.max()) + 1
    if m < 2:
        return labels
    cap = max(2 * k - 1, int(np.bincount(labels).max()))
    n_near = min(m, n_near + 1)  # the nearest centroid is usually the row's own
    active = np.arange(n)
    near = np.zeros((n, n_near), dtype=np.int64)
    for _rnd in range(max_rounds):
        step(progress, cancel, 1.0 - len(active) / n, "Improving classes")
        sizes = np.bincount(labels, minlength=m)
        sums = np.stack([np.bincount(labels, weights=X[:, j], minlength=m) for j in range(d)], 1)
        empty = sizes == 0  # classes dissolved in earlier rounds
        with np.errstate(divide="ignore", invalid="ignore"):
            centroids = sums / sizes[:, None]
        centroids[empty] = 1e100  # far from everything: never a nearest class
        Xa = X[active]
        near_a = cKDTree(centroids).query(Xa, k=n_near)[1].reshape(len(active), n_near)
        near[active] = near_a
        own = labels[active]
        own_d = ((Xa - centroids[own]) ** 2).sum(axis=1)
        cand_d = ((Xa[:, None, :] - centroids[near_a]) ** 2).sum(axis=2)
        valid = near_a != own[:, None]

        # single moves: gain = SSE saved in the source − SSE added in the target
        na = sizes[own].astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            remove = np.where(na > k, na / (na - 1) * own_d, -np.inf)
        nb = sizes[near_a].astype(np.float64)
        add = np.where(valid & (nb < cap) & (nb > 0), nb / (nb + 1) * cand_d, np.inf)
        best_j = np.argmin(add, axis=1)
        move_gain = remove - add[np.arange(len(active)), best_j]
        movers = np.flatnonzero(move_gain > 1e-12)

        # exchanges with a member of each neighbouring class
        pi, pq = np.nonzero(valid)
        pb = near_a[pi, pq]
        swap_gain, swap_row = _best_swaps(X, labels, sizes, sums, active[pi], pb, m)
        swappers = np.flatnonzero(swap_gain > 1e-12)

        # dissolving a whole class into its neighbours (fixed-size MDAV cuts natural groups)
        touched = np.zeros(m, dtype=bool)
        dissolved = _dissolve(X, labels, sizes, sums, centroids, near, np.unique(own), cap, touched)

        rows = np.concatenate([active[movers], active[pi[swappers]]])
        if len(rows) == 0 and not dissolved:
            break
        gains = np.concatenate([move_gain[movers], swap_gain[swappers]])
        dst = np.concatenate([near_a[movers, best_j[movers]], pb[swappers]])
        partner = np.concatenate([np.full(len(movers), -1), swap_row[swappers]])
        order = np.argsort(-gains, kind="stable")
        used = np.zeros(n, dtype=bool)
        for i, b, p in zip(
            rows[order].tolist(), dst[order].tolist(), partner[order].tolist(), strict=True
        ):
            a = labels[i]
            if touched[a] or touched[b] or used[i] or (p >= 0 and used[p]):
                continue
            touched[a] = touched[b] = True
            labels[i] = b
            used[i] = True
            if p >= 0:
                labels[p] = a
                used[p] = True
        # only rows beside a changed class can gain next round
        active = np.flatnonzero(touched[labels] | touched[near].any(axis=1))
    return _relabel(labels)


def _dissolve(
    X: np.ndarray,
    labels: np.ndarray,
    sizes: np.ndarray,
    sums: np.ndarray,
    centroids: np.ndarray,
    near: np.ndarray,
    classes: np.ndarray,
    cap: int,
    touched: np.ndarray,
) -> int:
    """Dissolve classes whose members are better off in neighbouring classes; returns how many.

    Every member goes to its nearest other class; the members bound for the same class join
    it as a group, whose exact SSE cost is SSE(group) + n_b·n_g/(n_b+n_g)·|c_b − c_g|².  A
    class is dissolved when that total is below its own SSE and every target stays below 2k.
    Classes involved are marked in ``touched`` so that later changes in the round leave them.
    """
    m = len(sizes)
    in_cand = np.zeros(m, dtype=bool)
    in_cand[classes] = True
    rows = np.flatnonzero(in_cand[labels])
    if len(rows) == 0:
        return 0
    own = labels[rows]
    Xr = X[rows]
    cd = ((Xr[:, None, :] - centroids[near[rows]]) ** 2).sum(axis=2)
    cd[(near[rows] == own[:, None]) | (sizes[near[rows]] == 0)] = np.inf
    target = near[rows, np.argmin(cd, axis=1)]
    key = own * m + target
    groups, inv = np.unique(key, return_inverse=True)
    g_own, g_tgt = groups // m, groups % m
    g_n = np.bincount(inv).astype(np.float64)
    g_sum = np.stack([np.bincount(inv, weights=Xr[:, j]) for j in range(X.shape[1])], 1)
    g_sq = np.bincount(inv, weights=(Xr * Xr).sum(axis=1))
    g_sse = g_sq - (g_sum * g_sum).sum(axis=1) / g_n
    nb = sizes[g_tgt].astype(np.float64)
    delta = g_sse + nb * g_n / (nb + g_n) * ((centroids[g_tgt] - g_sum / g_n[:, None]) ** 2).sum(
        axis=1
    )
    delta[(nb + g_n > cap) | (nb == 0) | ~np.isfinite(delta)] = np.inf
    c_sq = np.bincount(own, weights=(Xr * Xr).sum(axis=1), minlength=m)
    with np.errstate(divide="ignore", invalid="ignore"):
        c_sse = c_sq - (sums * sums).sum(axis=1) / sizes
    cost = np.bincount(g_own, weights=delta, minlength=m)
    gain = np.where(in_cand, c_sse - cost, -np.inf)
    winners = np.flatnonzero(gain > 1e-12)
    if len(winners) == 0:
        return 0
    by_class = np.split(
        np.argsort(g_own, kind="stable"), np.cumsum(np.bincount(g_own, minlength=m))[:-1]
    )
    done = 0
    for c in winners[np.argsort(-gain[winners], kind="stable")].tolist():
        targets = g_tgt[by_class[c]]
        if touched[c] or touched[targets].any():
            continue
        touched[c] = True
        touched[targets] = True
        members = rows[own == c]
        labels[members] = target[own == c]
        done += 1
    return done


def _best_swaps(
    X: np.ndarray,
    labels: np.ndarray,
    sizes: np.ndarray,
    sums: np.ndarray,
    pi: np.ndarray,
    pb: np.ndarray,
    m: int,
    chunk: int = 50_000,
) -> tuple[np.ndarray, np.ndarray]:
    """For each pair (row pi, class pb): the best member of pb to exchange with, and the gain.

    SSE of a class = Σ|v|² − |Σv|²/size; an exchange keeps both sizes and the total Σ|v|², so
    its gain is the increase of |Σv|²/size summed over the two classes.
    """
    gain = np.full(len(pi), -np.inf)
    partner = np.full(len(pi), -1, dtype=np.int64)
    if len(pi) == 0:
        return gain, partner
    # members of every class, padded with -1
    order = np.argsort(labels, kind="stable")
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    slot = np.arange(len(labels)) - starts[labels[order]]
    width = int(sizes.max())
    members = np.full((m, width), -1, dtype=np.int64)
    members[labels[order], slot] = order
    with np.errstate(divide="ignore", invalid="ignore"):
        sq = (sums * sums).sum(axis=1) / sizes
    for lo in range(0, len(pi), chunk):
        i = pi[lo : lo + chunk]
        b = pb[lo : lo + chunk]
        a = labels[i]
        mem = members[b]  # (c, width)
        Y = X[np.maximum(mem, 0)]  # (c, width, d)
        x = X[i][:, None, :]
        new_a = sums[a][:, None, :] - x + Y
        new_b = sums[b][:, None, :] + x - Y
        g = (new_a * new_a).sum(axis=2) / sizes[a][:, None] + (new_b * new_b).sum(axis=2) / sizes[
            b
        ][:, None]
        g -= (sq[a] + sq[b])[:, None]
        g[mem < 0] = -np.inf
        j = np.argmax(g, axis=1)
        gain[lo : lo + chunk] = g[np.arange(len(i)), j]
        partner[lo : lo + chunk] = mem[np.arange(len(i)), j]
    return gain, partner


def sse_sst(X: np.ndarray, labels: np.ndarray) -> float:
    """100 · within-class SSE / total SST of ``X`` (the literature's information loss)."""
    X = _as_matrix(X)
    labels = _relabel(np.asarray(labels))
    m = int(labels.max()) + 1
    sizes = np.bincount(labels, minlength=m)
    sse = 0.0
    for j in range(X.shape[1]):
        col = X[:, j]
        means = np.bincount(labels, weights=col, minlength=m) / sizes
        sse += float(((col - means[labels]) ** 2).sum())
    sst = float(((X - X.mean(axis=0)) ** 2).sum())
    return 100.0 * sse / sst if sst > 0 else 0.0


def _as_matrix(X: np.ndarray) -> np.ndarray:
    X = np.asarray(X, dtype=np.float64)
    if X.ndim == 1:
        X = X[:, None]
    if X.ndim != 2:
        raise InputError("Microaggregation needs a table of numbers (records × columns).")
    if not np.isfinite(X).all():
        raise InputError("Microaggregation needs numbers everywhere: the data have missing values.")
    return X


def _relabel(labels: np.ndarray) -> np.ndarray:
    """Labels renumbered 0..m−1 in order of first appearance."""
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    return rank[inverse].astype(np.int64)


__all__ = [
    "DEFAULT_BLOCK_SIZE",
    "improve_classes",
    "kd_blocks",
    "mdav",
    "microaggregate",
    "sse_sst",
]
