"""The top levels of the stratified k-d split, as aggregation passes over partitions.

:func:`engine.release.partition.blocks.split_nodes` halves every node's class range and gives the
lower half, bucket by bucket, the records lowest along the node's widest coordinate (ties by
row position).  Which node a level splits, and how many records of each bucket go low, follow
from the class layout alone; only *which* records go low needs the data.  Per level:

1. :func:`level_sums` — per node: count, Σx, Σx² (the spreads) and min/max of every
   coordinate (a nominal QI is one more, its category: ``runs``, from the encoding's
   :meth:`~engine.distributed.encode.Spec.runs`); the client adds them and picks each node's
   coordinate with :func:`~engine.release.partition.blocks.widest_dimension` of
   :func:`~engine.release.partition.blocks.split_spreads` (rounded spreads, lowest index
   first, so the sums' order does not matter);
2. :func:`level_histogram` — per (node, bucket) a histogram along that coordinate; the client
   finds the bin where the lower half ends;
3. :func:`level_values` — the exact values in that bin; the client finds the value v* where
   the lower half ends and how many records equal to v* it takes, partition by partition in
   row order (the partitions are in file order);
4. :func:`level_apply` — every record moves to its half.

No data moves between workers; the messages are a few numbers per node.  Once every node is
small enough for one worker, one shuffle puts whole nodes into partitions.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from engine.release import node_spreads, run_keys

#: bins of the histogram that locates a node's split value
N_BINS = 1024


@dataclass
class Part:
    """One partition on a worker: its records' columns and what the release needs of them."""

    #: the QI and confidential columns after missing codes, and the ``keep`` columns unchanged
    frame: pd.DataFrame
    #: encoded QIs (n × d)
    X: np.ndarray
    #: bucket of every record
    codes: np.ndarray
    #: node of every record: first class and one past the last
    lo: np.ndarray
    hi: np.ndarray
    #: position of every record in the file (partitions hold consecutive rows, in order)
    row: np.ndarray


@dataclass
class Level:
    """One level's nodes: the nodes being split (by first class) and their split rule."""

    #: first class of every node split at this level (sorted)
    names: np.ndarray
    #: coordinate of every node
    dims: np.ndarray | None = None
    #: histogram range of every node along its coordinate
    mins: np.ndarray | None = None
    maxs: np.ndarray | None = None
    #: per (node, bucket): critical bin, value v*, records equal to v* this partition takes
    bins: np.ndarray | None = None
    values: np.ndarray | None = None
    takes: np.ndarray | None = None
    #: the column ranges of the nominal QIs, coordinates d, d + 1, … (Spec.runs)
    runs: tuple[tuple[int, int], ...] = ()


def _live(part: Part, names: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows of the nodes being split and their node index in ``names``."""
    idx = np.searchsorted(names, part.lo)
    idx = np.minimum(idx, len(names) - 1)
    rows = np.flatnonzero(names[idx] == part.lo)
    return rows, idx[rows]


def level_sums(
    part: Part, names: np.ndarray, runs: tuple[tuple[int, int], ...] = ()
) -> tuple[np.ndarray, ...]:
    """Per node being split: count, Σx, Σx² of every column, min and max of every coordinate
    (the columns, then the category of every nominal QI of ``runs``)."""
    rows, inv = _live(part, names)
    m, d = len(names), part.X.shape[1]
    X = part.X[rows]
    cnt, s1, s2 = node_spreads(X, inv, m)
    values = np.column_stack([X, *(run_keys(X, run) for run in runs)]) if runs else X
    mins = np.full((m, d + len(runs)), np.inf)
    maxs = np.full((m, d + len(runs)), -np.inf)
    if len(rows):
        order = np.argsort(inv, kind="stable")
        present, starts = np.unique(inv[order], return_index=True)
        mins[present] = np.minimum.reduceat(values[order], starts, axis=0)
        maxs[present] = np.maximum.reduceat(values[order], starts, axis=0)
    return cnt, s1, s2, mins, maxs


def _coordinate(part: Part, level: Level, rows: np.ndarray, inv: np.ndarray) -> np.ndarray:
    """Every record's value along its node's coordinate: a column, or a nominal QI's
    category (:func:`~engine.release.partition.blocks.run_keys`)."""
    assert level.dims is not None
    dims = level.dims[inv]
    d = part.X.shape[1]
    if not level.runs:
        return part.X[rows, dims]
    x = np.empty(len(rows))
    plain = dims < d
    x[plain] = part.X[rows[plain], dims[plain]]
    for i, run in enumerate(level.runs):
        on = np.flatnonzero(dims == d + i)
        if len(on):
            x[on] = run_keys(part.X[rows[on]], run)
    return x


def _bin(x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    width = hi - lo
    with np.errstate(divide="ignore", invalid="ignore"):
        b = np.where(width > 0, np.floor((x - lo) / width * N_BINS), 0)
    return np.clip(b, 0, N_BINS - 1).astype(np.int64)


def level_histogram(part: Part, level: Level, n_b: int) -> tuple[np.ndarray, np.ndarray]:
    """Counts per (node, bucket, bin) along each node's coordinate: (keys, counts)."""
    assert level.mins is not None and level.maxs is not None
    rows, inv = _live(part, level.names)
    x = _coordinate(part, level, rows, inv)
    b = _bin(x, level.mins[inv], level.maxs[inv])
    key = (inv * n_b + part.codes[rows]) * N_BINS + b
    return np.unique(key, return_counts=True)


def level_values(part: Part, level: Level, n_b: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact values in each (node, bucket)'s critical bin: (group, value, count)."""
    assert level.bins is not None and level.mins is not None and level.maxs is not None
    rows, inv = _live(part, level.names)
    x = _coordinate(part, level, rows, inv)
    group = inv * n_b + part.codes[rows]
    b = _bin(x, level.mins[inv], level.maxs[inv])
    hit = b == level.bins[group]
    frame = pd.DataFrame({"g": group[hit], "v": x[hit]})
    counts = frame.groupby(["g", "v"], sort=True).size()
    g = counts.index.get_level_values(0).to_numpy(np.int64)
    v = counts.index.get_level_values(1).to_numpy(np.float64)
    return g, v, counts.to_numpy(np.int64)


def level_apply(part: Part, level: Level, n_b: int) -> Part:
    """Move every record of a split node to its half (see the module doc)."""
    assert level.values is not None and level.takes is not None
    rows, inv = _live(part, level.names)
    x = _coordinate(part, level, rows, inv)
    group = inv * n_b + part.codes[rows]
    v = level.values[group]
    low = x < v
    tie = np.flatnonzero(x == v)
    if len(tie):  # rows equal to v*: the first `takes` of each group, in row order
        g = group[tie]
        order = np.argsort(g, kind="stable")
        gs = g[order]
        starts = np.flatnonzero(np.r_[True, gs[1:] != gs[:-1]])
        rank = np.arange(len(gs)) - np.repeat(starts, np.diff(np.r_[starts, len(gs)]))
        take = np.empty(len(tie), dtype=bool)
        take[order] = rank < level.takes[gs]
        low[tie] = take
    lo, hi = part.lo.copy(), part.hi.copy()
    mid = (lo[rows] + hi[rows]) // 2
    hi[rows] = np.where(low, mid, hi[rows])
    lo[rows] = np.where(low, lo[rows], mid)
    return replace(part, lo=lo, hi=hi)


def choose_split(
    level: Level,
    hist: list[tuple[np.ndarray, np.ndarray]],
    lower: np.ndarray,
    n_b: int,
) -> None:
    """The critical bin of every (node, bucket) from the partitions' histograms.

    ``lower[g]`` is how many records group g sends to the lower half; sets ``level.bins`` and
    the number of records below the critical bin (kept in ``level.takes`` until
    :func:`choose_values` replaces it).
    """
    n_groups = len(level.names) * n_b
    counts = np.zeros(n_groups * N_BINS, dtype=np.int64)
    for keys, c in hist:
        np.add.at(counts, keys, c)
    counts = counts.reshape(n_groups, N_BINS)
    cum = np.cumsum(counts, axis=1)
    # first bin whose cumulative count reaches the lower share (−1: none needed)
    crit = np.argmax(cum >= lower[:, None], axis=1)
    crit[lower == 0] = -1
    below = np.where(
        crit > 0, np.take_along_axis(cum, np.maximum(crit - 1, 0)[:, None], 1)[:, 0], 0
    )
    level.bins = crit
    level.takes = lower - np.where(lower == 0, 0, below)  # records still needed in the bin


def choose_values(level: Level, parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> list:
    """v* per group and the records equal to v* each partition takes (in partition order)."""
    assert level.takes is not None and level.bins is not None
    need = level.takes
    n_groups = len(need)
    values = np.full(n_groups, -np.inf)  # lower share 0: nothing goes low
    frames = [pd.DataFrame({"g": g, "v": v, "n": n, "p": i}) for i, (g, v, n) in enumerate(parts)]
    allv = pd.concat(frames, ignore_index=True)
    total = allv.groupby(["g", "v"], sort=True)["n"].sum().reset_index()
    takes = np.zeros((len(parts), n_groups), dtype=np.int64)
    if len(total):
        total["cum"] = total.groupby("g")["n"].cumsum()
        total["need"] = need[total["g"].to_numpy()]
        hit = total[total["cum"] >= total["need"]].groupby("g").head(1)
        g = hit["g"].to_numpy()
        values[g] = hit["v"].to_numpy()
        ties_needed = (hit["need"] - (hit["cum"] - hit["n"])).to_numpy()
        # split the ties among partitions in row order
        at = allv.merge(hit[["g", "v"]], on=["g", "v"]).sort_values(["g", "p"], kind="stable")
        before = at.groupby("g")["n"].cumsum() - at["n"]
        left = ties_needed[np.searchsorted(g, at["g"].to_numpy())] - before.to_numpy()
        takes[at["p"].to_numpy(), at["g"].to_numpy()] = np.clip(left, 0, at["n"].to_numpy())
    level.values = values
    return [replace(level, takes=takes[i]) for i in range(len(parts))]


def node_plan(
    size_cum: np.ndarray, n_classes: int, target: int
) -> tuple[list[tuple[np.ndarray, np.ndarray]], list[tuple[int, int]]]:
    """The nodes split at each distributed level (first classes, ends) and the final nodes.

    A node of more than ``target`` records (and more than one class) is split in halves of
    its class range; the plan depends only on the layout.
    """
    nodes = [(0, n_classes)]
    levels = []
    while True:
        split = [(a, b) for a, b in nodes if b - a > 1 and size_cum[b] - size_cum[a] > target]
        if not split:
            return levels, nodes
        levels.append(
            (np.array([a for a, _ in split], np.int64), np.array([b for _, b in split], np.int64))
        )
        out = []
        for a, b in nodes:
            if (a, b) in split:
                mid = (a + b) // 2
                out += [(a, mid), (mid, b)]
            else:
                out.append((a, b))
        nodes = out


def pack_nodes(nodes: list[tuple[int, int]], size_cum: np.ndarray, target: int) -> np.ndarray:
    """First class of every output partition: consecutive nodes packed up to ``target``."""
    starts, load = [], target + 1
    for a, b in sorted(nodes):
        size = int(size_cum[b] - size_cum[a])
        if load + size > target:
            starts.append(a)
            load = 0
        load += size
    return np.asarray(starts, dtype=np.int64)


def pieces(part: Part, starts: np.ndarray) -> list[Any]:
    """The records of a partition cut by destination partition (by their node's first class)."""
    dest = np.searchsorted(starts, part.lo, side="right") - 1
    order = np.argsort(dest, kind="stable")
    bounds = np.searchsorted(dest[order], np.arange(len(starts) + 1))
    out = []
    for j in range(len(starts)):
        idx = order[bounds[j] : bounds[j + 1]]
        out.append(
            Part(
                part.frame.iloc[idx],
                part.X[idx],
                part.codes[idx],
                part.lo[idx],
                part.hi[idx],
                part.row[idx],
            )
        )
    return out


def gather_pieces(*parts: Part) -> Part:
    """One output partition from its pieces, records in file order."""
    parts = tuple(p for p in parts if len(p.row))
    row = np.concatenate([p.row for p in parts])
    order = np.argsort(row, kind="stable")
    frame = pd.concat([p.frame for p in parts], ignore_index=True).iloc[order]
    return Part(
        frame.reset_index(drop=True),
        np.concatenate([p.X for p in parts])[order],
        np.concatenate([p.codes for p in parts])[order],
        np.concatenate([p.lo for p in parts])[order],
        np.concatenate([p.hi for p in parts])[order],
        row[order],
    )
