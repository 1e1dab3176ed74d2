"""k-anonymous microaggregation of a numeric matrix (no t-closeness constraint).

The QI part of every release without a bucket constraint (``tclose anonymize`` with no
confidential column, and the noise mechanisms of Construction B) needs records grouped into
classes of at least k records whose values are as close as possible, measured by the
within-class sum of squares (SSE) on standardised columns.

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
   pass ends.  Above 200,000 records the blocks shrink to about 100 classes and this
   pass is skipped, which keeps a million records within about ten seconds.
"""

from __future__ import annotations

import numpy as np

from engine.errors import InputError
from engine.i18n import _
from engine.progress import NO_TASK, Task
from engine.release.partition.improve import improve_classes, relabel
from engine.release.partition.sizes import DEFAULT_BLOCK_SIZE, LARGE_FILE

#: above this many records the improvement pass uses its cheaper settings
LARGE = 50_000


def microaggregate(
    X: np.ndarray,
    k: int,
    *,
    seed: int | None = None,
    task: Task = NO_TASK,
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
        raise InputError(_("k must be a whole number ≥ 1, not {k}.").format(k=k))
    if n < k:
        raise InputError(_("The data have {n} records, fewer than k = {k}.").format(n=n, k=k))
    task.step(0.0, _("Microaggregating"))
    if k == 1:
        return np.arange(n, dtype=np.int64)

    order = np.arange(n) if seed is None else np.random.default_rng(seed).permutation(n)
    Xo = X[order]
    huge = n > LARGE_FILE  # blocks shrink to ~100 classes and the improvement pass is skipped
    if huge:  # MDAV costs N · block / k: blocks of ~100 classes keep millions in seconds
        block_size = min(int(block_size), 100 * k)
    blocks = kd_blocks(Xo, max(int(block_size), 4 * k))
    labels_o = mdav_blocks(Xo, blocks, k, task=task.sub(0.0, 0.4))
    if improve and not huge:
        # large files: fewer candidate classes, exchanges only towards a nearer centroid, and
        # stop when a round gains < 0.1 %.  Above LARGE_FILE records the pass is skipped: on a
        # million records three rounds gain about 11 % of SSE/SST and triple the time.
        large = n > LARGE
        labels_o = improve_classes(
            Xo,
            labels_o,
            k,
            n_near=2 if large else 4,
            swap_slack=1.0 if large else np.inf,
            tol=1e-3 if large else 0.0,
            task=task.sub(0.4, 1.0),
        )
    labels = np.empty(n, dtype=np.int64)
    labels[order] = labels_o
    task.step(1.0, _("Microaggregation done"))
    return relabel(labels)


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
    task: Task = NO_TASK,
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
        task.step(1.0 - count.max() / start_width, _("Microaggregating"))
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
    return relabel(labels)


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


def _as_matrix(X: np.ndarray) -> np.ndarray:
    X = np.asarray(X, dtype=np.float64)
    if X.ndim == 1:
        X = X[:, None]
    if X.ndim != 2:
        raise InputError(_("Microaggregation needs a table of numbers (records × columns)."))
    if not np.isfinite(X).all():
        raise InputError(
            _("Microaggregation needs numbers everywhere: the data have missing values.")
        )
    return X


__all__ = [
    "kd_blocks",
    "mdav",
    "microaggregate",
]
