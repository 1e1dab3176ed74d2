"""Households as units: classes that an intruder who follows the household id cannot narrow.

A released household id lets anyone group a household's members.  An intruder who knows the
QIs of every member of a household (k-anonymity's own assumption, for each member) knows the
*pattern* of the household, the multiset of its members' classes, and keeps the released
households with that pattern; a member is then one of the records of its class among those
households.  Classes formed person by person leave many households alone on their pattern,
and the records the id points at then tell the intruder each member's bucket (SPEC §1,
household).  Two things protect a released id:

1. its pattern is shared by at least k households;
2. among those households, the records of every class of the pattern are t-close to the
   whole file, so that following the id teaches no more than t about any member's bucket.

Both hold by construction when households are microaggregated *as units*
(:func:`pattern_partition`): households of the same size form *pattern groups* of at least k
households, alike on their members' QIs (each household a point: its members' QIs in a fixed
member order, :func:`member_rows`), and class j of a group holds the j-th member of every one
of its households.  Every household of a group has the same pattern, and a class's records
among them are the class itself.  A class that is not t-close joins the next position of its
group (a class of two members of every household: the intruder still learns no more than
the class shows); a group that is not t-close even as one class joins its nearest group.

Groups are formed inside *fences*, from the finest to the coarsest (:func:`fence_levels`):
households alike on every household-level QI first (the commune: the group releases the
commune of all its households), then coarser units where a fence cannot hold a t-close group
of k households of one size, and the whole file last.  Households that no k − 1 others of
their size can join are released without an id: their members are classed as persons
(nobody can group them), and counted in the summary.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import InfeasibleError
from engine.i18n import _
from engine.progress import NO_TASK, Task
from engine.recoding import value_text
from engine.release.columns import encode_qi
from engine.release.households.refine import (
    TRIAL_NEAR,
    TRIAL_PASSES,
    neighbours_for,
    passes_for,
    refine_groups,
)
from engine.release.households.structure import Households, household_frame
from engine.release.measures import sse_sst
from engine.release.partition import (
    DEFAULT_BLOCK_SIZE,
    LARGE_FILE,
    SIZE_SAMPLE,
    BoundRates,
    microaggregate,
    principal_order,
    tclose_partition,
)
from engine.roles import ColumnType

#: a pattern group is microaggregated with households of its size in pieces of at most this
#: many households (MDAV's cost grows with the square of a piece)
PIECE = 5000


@dataclass
class PatternClasses:
    """The classes of a release with household ids (:func:`pattern_partition`)."""

    #: class of every record (0..C − 1)
    classes: np.ndarray
    #: the unit every record's household-level QIs are released by: its pattern group, or,
    #: for a household released without an id, its own class (nobody can group its members)
    homes: np.ndarray
    #: per household: released with an id
    linked: np.ndarray
    #: per household: the fence level its group was formed at (0: households alike on every
    #: household-level QI; −1: released without an id)
    level: np.ndarray

    def records_linked(self, hh: np.ndarray) -> np.ndarray:
        """Per record (``hh``: its household): released with an id."""
        return self.linked[hh]


def member_rows(X_person: np.ndarray, hh: np.ndarray) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Per household size s: (the households of that size, their records as an (n, s) array,
    members in a fixed order).

    Members are ordered along the first principal axis of the person-level QIs (the head
    and spouse before the children where age leads), so that the j-th members of similar
    households are alike and can share a class.
    """
    hh = np.asarray(hh, dtype=np.int64)
    n_households = int(hh.max()) + 1 if len(hh) else 0
    rank = np.empty(len(hh), dtype=np.int64)
    rank[principal_order(X_person)] = np.arange(len(hh))
    order = np.lexsort((rank, hh))
    sizes = np.bincount(hh, minlength=n_households)
    starts = np.r_[0, np.cumsum(sizes)[:-1]]
    out: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for size in np.unique(sizes[sizes > 0]).tolist():
        homes = np.flatnonzero(sizes == size)
        out[int(size)] = (homes, order[starts[homes][:, None] + np.arange(size)])
    return out


def fence_levels(
    frame: pd.DataFrame,
    columns: Sequence[str],
    coarser: Sequence[np.ndarray] = (),
) -> list[np.ndarray]:
    """The fences groups are formed in, finest first: a key per household at every level.

    Level 0 keys households by all their household-level QIs (``frame``: one row per
    household); each next level leaves out the column with the fewest distinct values, so
    that the finest geography (a commune before its region) is kept longest; ``coarser``
    are the units of an agency's hierarchy above the finest column (a district, a region:
    a key per household each, finest first), tried before the whole file, which is the last
    level (key 0 for every household).  Levels that split the households no differently
    from the one before are left out.
    """
    n = len(frame)
    ranked = sorted(columns, key=lambda c: -frame[c].nunique(dropna=False))
    keys: list[np.ndarray] = []
    for stop in range(len(ranked), 0, -1):
        part = frame[ranked[:stop]]
        keys.append(part.groupby(list(part.columns), dropna=False, sort=False).ngroup().to_numpy())
    keys.extend(np.asarray(key) for key in coarser)
    keys.append(np.zeros(n, dtype=np.int64))
    levels: list[np.ndarray] = []
    seen = -1
    for key in keys:
        codes = pd.factorize(key)[0].astype(np.int64)
        distinct = int(codes.max()) + 1 if n else 0
        if distinct != seen:
            levels.append(codes)
            seen = distinct
    return levels


@dataclass
class _Cells:
    """What every cell of households (one size, one fence) is grouped with."""

    X_person: np.ndarray
    X_house: np.ndarray
    codes: np.ndarray | None
    rates: BoundRates | None
    n_buckets: int
    k: int
    shares: np.ndarray | None = None
    t: float | None = None
    #: the exchange pass of microaggregation runs on the groups (skipped on large files, as
    #: for persons: it triples the time for a tenth of the loss)
    improve: bool = True
    #: households per block of microaggregation (blocks of about a hundred groups on large
    #: files, as for persons: MDAV's cost grows with the block)
    block_size: int = DEFAULT_BLOCK_SIZE


def _position_blocks(
    counts: np.ndarray, members: np.ndarray, rates: BoundRates
) -> tuple[np.ndarray, np.ndarray]:
    """(block of every position of every group, whether every block is t-close): adjacent
    positions joined until every block is t-close, for many groups at once.

    ``counts``: (groups, positions, buckets) records; ``members``: households per group.  A
    block of w positions holds w · members records.  Each round joins, in every group that
    still misses the bounds, its first block that misses them to the neighbouring block with
    which the joined block misses least; a group whose one block of all positions misses
    them is not t-close.
    """
    n_groups, s, b = counts.shape
    label = np.tile(np.arange(s), (n_groups, 1))  # nondecreasing: blocks are runs
    widths = np.arange(1, s + 1, dtype=np.float64)
    lows, highs = rates(members[:, None, None] * widths[None, :, None])  # (groups, s, b)
    rows = np.arange(n_groups)
    while True:
        n_blocks = label.max(axis=1) + 1
        sums = np.zeros((n_groups, s, b), dtype=np.int64)
        np.add.at(sums, (rows[:, None], label), counts)
        width = np.zeros((n_groups, s), dtype=np.int64)
        np.add.at(width, (rows[:, None], label), 1)
        miss = _misses(sums, width, lows, highs)  # (groups, s): 0 where fine or no block
        bad = miss > 0
        live = bad.any(axis=1) & (n_blocks > 1)
        if not live.any():
            return label, ~bad.any(axis=1)
        g = np.flatnonzero(live)
        first = np.argmax(bad[g], axis=1)
        options = []
        for step in (-1, 1):
            other = first + step
            exists = (other >= 0) & (other < n_blocks[g])
            other = np.clip(other, 0, s - 1)
            joined = sums[g, first] + sums[g, other]
            w = width[g, first] + width[g, other]
            cost = _misses(joined[:, None], w[:, None], lows[g], highs[g])[:, 0]
            options.append(np.where(exists, cost, np.iinfo(np.int64).max))
        other = np.where(options[0] <= options[1], first - 1, first + 1)
        keep, drop = np.minimum(first, other), np.maximum(first, other)
        sub = label[g]
        sub = np.where(sub == drop[:, None], keep[:, None], sub)
        sub = np.where(sub > drop[:, None], sub - 1, sub)
        label[g] = sub


def _misses(sums: np.ndarray, width: np.ndarray, lows: np.ndarray, highs: np.ndarray) -> np.ndarray:
    """Records missing from or beyond the bounds of every block (``width`` positions; 0 for
    an empty block), for (groups, blocks) at once."""
    at = np.clip(width - 1, 0, lows.shape[1] - 1)
    low = np.take_along_axis(lows, at[:, :, None], axis=1)
    high = np.take_along_axis(highs, at[:, :, None], axis=1)
    miss = np.maximum(low - sums, 0).sum(axis=2) + np.maximum(sums - high, 0).sum(axis=2)
    return np.where(width > 0, miss, 0)


def _group_cell(
    cells: _Cells, rows: np.ndarray, homes: np.ndarray, with_house: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Pattern groups of one cell: (group of every household, (groups, positions) block of
    every position, the records in the order of the positions), or None when the cell cannot
    hold a t-close group.

    ``rows``: the (households, size) records of the cell's households, members in order;
    ``with_house``: the households differ on household-level QIs (a coarser fence), which
    then count in their distance, once per member.
    """
    n, s = rows.shape
    k = cells.k
    parts = [cells.X_person[rows[:, j]] for j in range(s)]
    if with_house:
        parts.append(cells.X_house[homes] * np.sqrt(s))
    V = np.concatenate(parts, axis=1)
    if n >= 2 * k:
        pieces = [np.arange(n)] if n <= PIECE else _pieces(V, PIECE)
        group = np.empty(n, dtype=np.int64)
        taken = 0
        for piece in pieces:
            labels = microaggregate(V[piece], k, improve=cells.improve,
                                    block_size=cells.block_size)  # fmt: skip
            group[piece] = labels + taken
            taken += int(labels.max()) + 1
    else:
        group = np.zeros(n, dtype=np.int64)
    if 1 < s <= MATCH_SIZE:
        rows = _match_members(cells.X_person, rows, group)
    if cells.codes is None or cells.rates is None:
        return group, np.tile(np.arange(s), (int(group.max()) + 1, 1)), rows
    b = cells.n_buckets
    while True:
        counts, members = _position_counts(cells.codes[rows], group, b)
        fine = _within(counts, members, cells.rates).all(axis=1)
        if 1 < s <= MATCH_SIZE and not fine.all():
            rows = _balance_groups(cells.X_person, rows, cells.codes, group, ~fine, b,
                                   cells.rates)  # fmt: skip
            counts, members = _position_counts(cells.codes[rows], group, b)
            fine = _within(counts, members, cells.rates).all(axis=1)
        blocks = np.tile(np.arange(s), (len(members), 1))
        failed = np.zeros(0, dtype=np.int64)
        if not fine.all():
            todo = np.flatnonzero(~fine)
            joined, ok = _position_blocks(counts[todo], members[todo], cells.rates)
            blocks[todo] = joined
            failed = todo[~ok]
        if not len(failed):
            return group, blocks, rows
        if len(members) == 1:
            return None
        group = _join_nearest(V, group, failed)


def _position_counts(
    bucket: np.ndarray, group: np.ndarray, b: int
) -> tuple[np.ndarray, np.ndarray]:
    """(records of every bucket at every position of every group, households per group)."""
    n_groups = int(group.max()) + 1
    s = bucket.shape[1]
    members = np.bincount(group, minlength=n_groups)
    index = (group[:, None] * s + np.arange(s)) * b + bucket
    counts = np.bincount(index.ravel(), minlength=n_groups * s * b).reshape(n_groups, s, b)
    return counts, members


def _within(counts: np.ndarray, members: np.ndarray, rates: BoundRates) -> np.ndarray:
    """Per group and position: its records are t-close (within the bounds of its size)."""
    low, high = rates(members[:, None].astype(np.float64))
    return ((counts >= low[:, None, :]) & (counts <= high[:, None, :])).all(axis=2)


#: households of the groups balanced in one piece (the moves of every household of a piece
#: are weighed at once: households × orders × positions × buckets numbers)
BALANCE_PIECE = 20_000


def _balance_groups(
    X: np.ndarray,
    rows: np.ndarray,
    codes: np.ndarray,
    group: np.ndarray,
    failing: np.ndarray,
    n_buckets: int,
    rates: BoundRates,
) -> np.ndarray:
    """``rows`` with the members of the households of the ``failing`` groups reordered
    within their households, so that as many positions as can be are t-close.

    Which member of a household sits at which position of its group is free (every household
    of the group keeps one member per position, so the pattern is the same), so a group whose
    positions miss the bounds can move records between its positions.  Greedy, all failing
    groups at once: each round gives one household of every such group the order of its
    members that removes the most records missing from or beyond the bounds, among those the
    one that moves its members least from the positions' centroids, until no order helps.
    """
    from itertools import permutations

    s = rows.shape[1]
    orders = np.array(list(permutations(range(s))), dtype=np.int64)
    todo = np.flatnonzero(failing[group])
    if not len(todo):
        return rows
    rows = rows.copy()
    # pieces of whole groups, so that the arrays of the moves stay small
    order = todo[np.argsort(group[todo], kind="stable")]
    cuts = np.flatnonzero(np.diff(group[order])) + 1
    starts = np.r_[0, cuts]
    piece: list[int] = []
    total = 0
    for a, b in zip(starts, np.r_[cuts, len(order)], strict=True):
        piece.append(a)
        total += (b - a) * len(orders)
        if total >= BALANCE_PIECE * 24 or b == len(order):
            inside = order[piece[0] : b]
            rows[inside] = _balance_piece(X, rows[inside], codes, group[inside], orders,
                                          n_buckets, rates)  # fmt: skip
            piece, total = [], 0
    return rows


def _balance_piece(
    X: np.ndarray,
    rows: np.ndarray,
    codes: np.ndarray,
    group: np.ndarray,
    orders: np.ndarray,
    n_buckets: int,
    rates: BoundRates,
) -> np.ndarray:
    """:func:`_balance_groups` on the households of some whole groups."""
    gid = pd.factorize(group)[0].astype(np.int64)
    n_groups = int(gid.max()) + 1
    h, s = rows.shape
    members = np.bincount(gid, minlength=n_groups)
    low, high = rates(members[:, None].astype(np.float64))  # (groups, buckets)
    # what each order costs in distance to the positions' centroids (fixed at the start)
    P = X[rows]
    centre = np.zeros((n_groups, s, X.shape[1]))
    np.add.at(centre, gid, P)
    centre /= members[:, None, None]
    cost = ((P[:, :, None, :] - centre[gid][:, None, :, :]) ** 2).sum(axis=3)  # (h, member, pos)
    order_cost = cost[:, orders, np.arange(s)].sum(axis=2)  # (h, orders)
    current = np.zeros(h, dtype=np.int64)  # the order each household now has (of ``rows``)
    original = codes[rows]  # (h, s)
    eye = np.eye(n_buckets, dtype=np.int32)
    moved = eye[original[:, orders]]  # (h, orders, s, b): the buckets at the positions
    for _round in range(2 * int(members.max()) + 1):
        now = moved[np.arange(h), current]  # (h, s, b)
        counts = np.zeros((n_groups, s, n_buckets), dtype=np.int32)
        np.add.at(counts, gid, now)
        miss = (np.maximum(low[:, None, :] - counts, 0).sum(axis=(1, 2))
                + np.maximum(counts - high[:, None, :], 0).sum(axis=(1, 2)))  # fmt: skip
        if not miss.any():
            break
        new = counts[gid][:, None] - now[:, None] + moved  # (h, orders, s, b)
        lo, hi = low[gid][:, None, None, :], high[gid][:, None, None, :]
        new_miss = (np.maximum(lo - new, 0).sum(axis=(2, 3))
                    + np.maximum(new - hi, 0).sum(axis=(2, 3)))  # fmt: skip
        gain = miss[gid][:, None] - new_miss  # (h, orders)
        extra = order_cost - order_cost[np.arange(h), current][:, None]
        best = np.argmax(gain - 1e-9 * (extra - extra.min()) / max(np.ptp(extra), 1e-12), axis=1)
        best_gain = gain[np.arange(h), best]
        best_extra = extra[np.arange(h), best]
        # one household per group: the largest gain, then the least extra distance
        pick = np.lexsort((best_extra, -best_gain, gid))
        first = pick[np.r_[True, gid[pick][1:] != gid[pick][:-1]]]
        first = first[best_gain[first] > 0]
        if not len(first):
            break
        current[first] = best[first]
    return np.take_along_axis(rows, orders[current], axis=1)


#: households of up to this many members have their members matched to their group's
#: positions (every order tried: 24 for four members)
MATCH_SIZE = 4


#: rounds of matching (each one can only lower the QI loss of the group's classes)
MATCH_ROUNDS = 3


def _match_members(X: np.ndarray, rows: np.ndarray, group: np.ndarray) -> np.ndarray:
    """``rows`` with every household's members put in the order of its group's positions
    that lies nearest to the positions' centroids.

    The member order of :func:`member_rows` is one order for the whole file; within a group
    of couples the older member may be the man in one household and the woman in the next.
    Each round takes the centroid of every position of every group and gives every household
    the order of its members (one of the s! orders) whose squared distance to them is least:
    each round lowers the classes' sum of squares or leaves it.
    """
    from itertools import permutations

    _n, s = rows.shape
    orders = np.array(list(permutations(range(s))), dtype=np.int64)
    n_groups = int(group.max()) + 1
    members = np.bincount(group, minlength=n_groups).astype(np.float64)
    for _round in range(MATCH_ROUNDS):
        P = X[rows]  # (n, s, d)
        sums = np.zeros((n_groups, s, X.shape[1]))
        np.add.at(sums, group, P)
        centre = sums / members[:, None, None]
        # cost[h, i, j]: member i of household h at position j of its group
        cost = ((P[:, :, None, :] - centre[group][:, None, :, :]) ** 2).sum(axis=3)
        # orders[o][j] = the member at position j
        total = cost[:, orders, np.arange(s)].sum(axis=2)  # (n, orders)
        best = np.argmin(total, axis=1)
        if not best.any():
            break
        rows = np.take_along_axis(rows, orders[best], axis=1)
    return rows


def _pieces(V: np.ndarray, size: int) -> list[np.ndarray]:
    """Rows of ``V`` cut into compact pieces of at most ``size`` by median splits."""
    from engine.release.partition import kd_blocks

    return kd_blocks(V, size)


def _join_nearest(V: np.ndarray, group: np.ndarray, failed: np.ndarray) -> np.ndarray:
    """``group`` with every failed group joined to its nearest group (by centroid)."""
    from scipy.sparse import coo_array
    from scipy.sparse.csgraph import connected_components
    from scipy.spatial import cKDTree

    m = int(group.max()) + 1
    sizes = np.bincount(group, minlength=m).astype(np.float64)
    cent = np.stack([np.bincount(group, weights=V[:, j], minlength=m) for j in
                     range(V.shape[1])], 1) / sizes[:, None]  # fmt: skip
    _, near = cKDTree(cent).query(cent[failed], k=2)
    near = np.asarray(near).reshape(len(failed), -1)
    target = np.where(near[:, 0] == failed, near[:, -1], near[:, 0])
    graph = coo_array((np.ones(len(failed)), (failed, target)), shape=(m, m))
    _, joined = connected_components(graph, directed=False)
    return pd.factorize(joined[group])[0].astype(np.int64)


def pattern_partition(
    X_person: np.ndarray,
    X_house: np.ndarray,
    X_all: np.ndarray,
    hh: np.ndarray,
    codes: np.ndarray | None,
    shares: np.ndarray | None,
    t: float | None,
    k: int,
    levels: Sequence[np.ndarray],
    *,
    improve: bool | None = None,
    passes: int | None = None,
    neighbours: int | None = None,
    task: Task = NO_TASK,
) -> PatternClasses:
    """The classes of a release that carries household ids (module doc).

    ``X_person``: the person-level QIs of every record; ``X_house``: the household-level QIs
    of every household; ``X_all``: all QIs of every record (for the members of households
    released without an id, classed as persons); ``codes``/``shares``/``t``: the buckets
    (None: k-anonymity only); ``levels``: the fences (:func:`fence_levels`); ``improve``:
    run microaggregation's exchange pass on the groups (by default on files of at most
    :data:`~engine.release.LARGE_FILE` records); ``passes``: the passes over the households
    that refine the groups (:func:`engine.release.households.refine.refine_groups`; None:
    :func:`~engine.release.households.refine.passes_for` the file, 0: none) and
    ``neighbours`` (None: :func:`~engine.release.households.refine.neighbours_for` the file).
    """
    hh = np.asarray(hh, dtype=np.int64)
    n_households = int(hh.max()) + 1 if len(hh) else 0
    rates = BoundRates(shares, t) if codes is not None and shares is not None and t else None
    if improve is None:
        improve = len(hh) <= LARGE_FILE
    cells = _Cells(X_person, X_house, codes, rates, 0 if shares is None else len(shares), k,
                   shares, t, improve=improve,
                   block_size=DEFAULT_BLOCK_SIZE if improve else max(100 * k, 200))  # fmt: skip
    by_size = member_rows(X_person, hh)
    classes = np.full(len(hh), -1, dtype=np.int64)
    homes = np.full(len(hh), -1, dtype=np.int64)
    level_of = np.full(n_households, -1, dtype=np.int64)
    pending = np.ones(n_households, dtype=bool)
    n_classes = n_groups = 0
    # per household size, what every cell formed: its records by position, the group of each
    # household, every group's blocks, first class and fence level (for the refinement)
    formed: dict[int, list[tuple[np.ndarray, ...]]] = {}
    for depth, key in enumerate(levels):
        task.step(depth / (len(levels) + 1), _("Grouping households"))
        for _size, (size_homes, size_rows) in by_size.items():
            live = pending[size_homes]
            if live.sum() < k:
                continue
            cand, cand_rows = size_homes[live], size_rows[live]
            order = np.argsort(key[cand], kind="stable")
            cand, cand_rows = cand[order], cand_rows[order]
            bounds = np.flatnonzero(np.r_[True, np.diff(key[cand]) != 0, True])
            for a, b in itertools.pairwise(bounds):
                if b - a < k:
                    continue
                found = _group_cell(cells, cand_rows[a:b], cand[a:b], depth > 0)
                if found is None:
                    continue
                group, blocks, rows = found
                cls = blocks[group] + 0  # (households, positions) block of every member
                offsets = np.r_[0, np.cumsum(blocks.max(axis=1) + 1)]
                cls += offsets[group][:, None] + n_classes
                classes[rows] = cls
                homes[rows] = (group + n_groups)[:, None]
                # the fence the group was formed in: the refinement keeps it there
                fence = depth * (n_households + 1) + int(key[cand[a]])
                formed.setdefault(rows.shape[1], []).append(
                    (rows, group + n_groups, blocks, offsets[:-1] + n_classes,
                     np.full(len(blocks), depth), np.full(len(blocks), fence))
                )  # fmt: skip
                n_classes += int(offsets[-1])
                n_groups += int(group.max()) + 1
                pending[cand[a:b]] = False
                level_of[cand[a:b]] = depth
    if passes is None:
        passes = passes_for(n_households)
    if neighbours is None:
        neighbours = neighbours_for(n_households)
    if passes > 0 and formed:
        task.step(len(levels) / (len(levels) + 1), _("Refining household groups"))
        for parts in formed.values():
            rows, group, blocks, first, depth, fence = (
                np.concatenate(p) for p in zip(*parts, strict=True)
            )
            ids, local = np.unique(group, return_inverse=True)
            rows, local = refine_groups(X_person, X_house[hh[rows[:, 0]]], codes, shares, t, k,
                                        rows, local, blocks, passes=passes,
                                        neighbours=neighbours,
                                        fence=np.unique(fence, return_inverse=True)[1])  # fmt: skip
            classes[rows] = first[local][:, None] + blocks[local]
            homes[rows] = ids[local][:, None]
            level_of[hh[rows[:, 0]]] = depth[local]
    pool = pending[hh]
    if pool.any():
        classes, homes, level_of = _pool_classes(
            X_all, hh, cells, classes, homes, level_of, n_classes, n_groups
        )
    task.step(1.0, _("Households grouped"))
    return PatternClasses(
        classes=pd.factorize(classes)[0].astype(np.int64),
        homes=pd.factorize(homes)[0].astype(np.int64),
        linked=level_of >= 0,
        level=level_of,
    )


def _pool_classes(
    X_all: np.ndarray,
    hh: np.ndarray,
    cells: _Cells,
    classes: np.ndarray,
    homes: np.ndarray,
    level_of: np.ndarray,
    n_classes: int,
    n_groups: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Classes for the members of the households no group could take (released without an
    id): t-close classes of at least k households formed as for persons; when they cannot
    form one, the groups nearest to them give up their ids and join them (one, then two,
    four, … groups; those formed in the coarsest fence, where the households of the pool
    failed, first), until they can."""
    from engine.release.households.classes import merge_for_households

    classes, homes, level_of = classes.copy(), homes.copy(), level_of.copy()
    coarsest = int(level_of.max())
    rows = np.flatnonzero(level_of[hh] < 0)
    labels = _person_classes(X_all[rows], hh[rows], cells, rows)
    while labels is None:
        while coarsest >= 0 and not (level_of == coarsest).any():
            coarsest -= 1
        if coarsest < 0:
            message = _("The households cannot form a class of at least {k} households.")
            raise InfeasibleError(message.format(k=cells.k))
        # the groups of the coarsest fence left, nearest to the pool, give up their ids
        grouped = np.flatnonzero(level_of[hh] == coarsest)
        group_ids, first = pd.factorize(homes[grouped])
        n_found = len(first)
        sizes = np.bincount(group_ids, minlength=n_found).astype(np.float64)
        cent = np.stack([np.bincount(group_ids, weights=X_all[grouped, j], minlength=n_found)
                         for j in range(X_all.shape[1])], 1) / sizes[:, None]  # fmt: skip
        dist = ((cent - X_all[rows].mean(axis=0)) ** 2).sum(axis=1)
        take = 1
        while True:
            nearest = np.argsort(dist)[:take]
            level_of[np.unique(hh[grouped[np.isin(group_ids, nearest)]])] = -1
            rows = np.flatnonzero(level_of[hh] < 0)
            labels = _person_classes(X_all[rows], hh[rows], cells, rows)
            if labels is not None or take >= n_found:
                break
            take *= 2
    labels = merge_for_households(X_all[rows], labels, hh[rows], cells.k)
    classes[rows] = labels + n_classes
    homes[rows] = labels + n_groups
    return classes, homes, level_of


def _person_classes(
    X: np.ndarray, hh: np.ndarray, cells: _Cells, rows: np.ndarray
) -> np.ndarray | None:
    """t-close (or k-anonymous) classes of these persons (the buckets and k of ``cells``),
    or None when they cannot form one class of records of at least k households."""
    codes, shares, t, k = cells.codes, cells.shares, cells.t, cells.k
    if len(np.unique(hh)) < k or len(rows) < k:
        return None
    if codes is None or shares is None or t is None:
        return np.asarray(microaggregate(X, k), dtype=np.int64)
    try:
        return tclose_partition(X, codes[rows], k, t, shares=shares)
    except InfeasibleError:
        return None


def linked_classes(
    clean: pd.DataFrame,
    qi: Sequence[str],
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
    households: Households,
    codes: np.ndarray | None,
    shares: np.ndarray | None,
    t: float | None,
    k: int,
    *,
    X: np.ndarray | None = None,
    coarser: Sequence[np.ndarray] = (),
    improve: bool | None = None,
    passes: int | None = None,
    neighbours: int | None = None,
    task: Task = NO_TASK,
) -> PatternClasses:
    """:func:`pattern_partition` of a survey file: the QIs encoded, person-level ones per
    record and household-level ones per household, and the fences from the household-level
    QIs (``coarser``: the units of an agency's hierarchy above them, :func:`fence_levels`).
    ``X`` are all the QIs encoded, when the caller has them."""
    hh = households.codes
    level = list(households.level)
    person = [c for c in qi if c not in level]
    hierarchies = households.hierarchies
    X_person = encode_qi(clean, person, types, orders, hierarchies)
    frame = household_frame(clean, level, hh)
    X_house = encode_qi(frame, level, types, orders, hierarchies)
    if X is None:
        X = encode_qi(clean, qi, types, orders, hierarchies)
    if not coarser:
        coarser = ancestor_keys(frame, level, hierarchies)
    levels = fence_levels(frame, level, coarser)
    return pattern_partition(
        X_person, X_house, X, hh, codes, shares, t, k, levels, improve=improve, passes=passes,
        neighbours=neighbours, task=task,
    )  # fmt: skip


def ancestor_keys(
    frame: pd.DataFrame, columns: Sequence[str], hierarchies: Mapping[str, Any]
) -> list[np.ndarray]:
    """The units of the coarser levels of the first household-level QI with a hierarchy
    (a commune's district, then its province), a key per household each, finest first; none
    without a hierarchy."""
    column = next((c for c in columns if c in hierarchies), None)
    if column is None:
        return []
    hierarchy = hierarchies[column]
    keys = []
    for depth in range(1, len(hierarchy.levels)):
        names = frame[column].map(
            lambda v, d=depth, p=hierarchy.paths: p.get(value_text(v), (None,) * (d + 1))[d],
            na_action="ignore",
        )
        keys.append(pd.factorize(names.astype("string"), use_na_sentinel=False)[0])
    return keys


#: the search of b keeps only buckets that leave at least this share of the records an id
MIN_LINKED = 0.95


#: the search of b on a survey whose ids are released keeps the QI loss of households as
#: units within this many times the loss of classes of persons at the b they would have:
#: the protection of the ids is paid with confidential detail (fewer buckets) before QI
#: detail
QI_BUDGET = 1.5


def pattern_loss(
    clean: pd.DataFrame,
    qi: Sequence[str],
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
    households: Households,
    codes: np.ndarray,
    shares: np.ndarray,
    t: float,
    k: int,
) -> float | None:
    """The QI SSE/SST of the pattern route on whole households drawn at random (about
    :data:`~engine.release.partition.SIZE_SAMPLE` records, the sample the class size is
    chosen on; the whole file when it is smaller), against the whole
    file's bucket ``shares``: what the search of b weighs against the confidential loss on a
    survey whose ids are released.  None when the sample cannot be partitioned, or when
    fewer than :data:`MIN_LINKED` of its records would keep an id."""
    rows, sub, homes = households.sampled(clean, SIZE_SAMPLE)
    X = encode_qi(sub, qi, types, orders)
    try:
        found = linked_classes(sub, qi, types, orders, homes, codes[rows], shares, t, k, X=X,
                               improve=len(clean) <= LARGE_FILE, passes=TRIAL_PASSES,
                               neighbours=TRIAL_NEAR)  # fmt: skip
    except InfeasibleError:
        return None
    if found.linked[homes.codes].mean() < MIN_LINKED:
        return None  # buckets so fine that too many households lose their id
    return sse_sst(X, found.classes)


__all__ = [
    "MIN_LINKED",
    "QI_BUDGET",
    "PatternClasses",
    "ancestor_keys",
    "fence_levels",
    "linked_classes",
    "member_rows",
    "pattern_loss",
    "pattern_partition",
]
