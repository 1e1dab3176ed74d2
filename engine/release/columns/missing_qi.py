"""Missing quasi-identifier values stay missing in the release.

A QI value that is missing in the input (no answer, not asked) is released as an empty cell,
never as a class's value: filling it in would make up an answer, and an analyst counting
non-response would count wrong.  A checker groups released rows by their released QI values
and an empty cell is a value of its own (:mod:`engine.release.verify`), so the records of one
class must agree on which QIs are missing (their *pattern*), or the class would fall apart
into smaller released classes that need not be k-anonymous or t-close.

So classes are formed inside groups of records with the same pattern
(:func:`pattern_groups`, then the partition runs group by group against the whole file's
bucket shares).  A group that cannot stand alone — fewer than k records, or a bucket mix so
far from the file's that no t-close class can be made of it (people who give no occupation
are often the ones without an income) — gets records from elsewhere, and the QIs missing in
the group are then **withheld** (released empty) for those records: a known value is hidden,
never a missing one made up.  The group takes, whichever withholds fewer values:

* records of groups whose pattern is a subset of its own (they lose only the values the group
  lacks), of the buckets it lacks, nearest to its records first; or
* its own records move into a group whose pattern is a superset of theirs.

Only when neither works do two groups merge (both take the union of their patterns).  Every
step moves records to a pattern with more missing QIs, so the loop ends.  With complete QIs
there is one group and nothing changes.

:func:`withhold_mixed` is the safety net for classes formed any other way (a cluster, classes
merged for households): within a class that mixes patterns, the QIs missing for some of its
records are withheld for all of them.  :func:`missing_counts` reports, per QI, what was
missing in the input, what is released empty and how many known values were withheld.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from engine.progress import NO_TASK, Task
from engine.release.model import MissingCount
from engine.release.partition import class_bounds, layout_ok


def missing_mask(data: pd.DataFrame, qi: Sequence[str]) -> np.ndarray:
    """(n, q) booleans: which QI values of every record are missing."""
    if not qi:
        return np.zeros((len(data), 0), dtype=bool)
    return data[list(qi)].isna().to_numpy(dtype=bool)


def missing_counts(
    data: pd.DataFrame, released: pd.DataFrame, qi: Sequence[str]
) -> dict[str, MissingCount]:
    """Per QI with a missing value in ``data`` (the input) or in ``released`` (the released
    table, read as a checker reads it): the counts of :class:`MissingCount`."""
    out = {}
    for col in qi:
        before = int(data[col].isna().sum())
        after = int(released[col].isna().sum())
        if before or after:
            out[col] = MissingCount(before, after, after - before)
    return out


def withhold(data: pd.DataFrame, qi: Sequence[str], mask: np.ndarray | None) -> pd.DataFrame:
    """``data`` with the QI values under ``mask`` (n, q) set missing (a copy; as is if none)."""
    if mask is None or not mask.any():
        return data
    out = data.copy()
    for i, col in enumerate(qi):
        if mask[:, i].any():
            out[col] = out[col].mask(mask[:, i])
    return out


def withhold_mixed(missing: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Within each class, every QI missing for one of its records is withheld for all.

    Returns the (n, q) mask of values released empty (the missing ones and those withheld).
    """
    if missing.size == 0 or not missing.any():
        return missing
    classes = np.asarray(classes, dtype=np.int64)
    m = int(classes.max()) + 1 if len(classes) else 0
    out = np.empty_like(missing)
    for i in range(missing.shape[1]):
        any_missing = np.bincount(classes, weights=missing[:, i], minlength=m) > 0
        out[:, i] = any_missing[classes]
    return out


def _pattern_ids(missing: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct patterns as rows, pattern index of every record)."""
    n, q = missing.shape
    if q == 0:
        return np.zeros((1, 0), dtype=bool), np.zeros(n, dtype=np.int64)
    if q <= 62:  # one integer per pattern: a 1-d unique is far faster than unique(axis=0)
        keys = missing.astype(np.int64) @ (np.int64(1) << np.arange(q, dtype=np.int64))
        distinct, inverse = np.unique(keys, return_inverse=True)
        patterns = (distinct[:, None] >> np.arange(q, dtype=np.int64)[None, :]) & 1
        return patterns.astype(bool), inverse.reshape(-1).astype(np.int64)
    patterns, inverse = np.unique(missing, axis=0, return_inverse=True)
    return patterns.astype(bool), inverse.reshape(-1).astype(np.int64)


class _Groups:
    """Records grouped by the pattern they will be released with (see module doc).

    Every group's size and bucket counts are kept up to date as records move, and whether a
    group can stand alone is recomputed only for the groups a move touched.
    """

    def __init__(
        self,
        missing: np.ndarray,
        k: int,
        codes: np.ndarray | None,
        shares: np.ndarray | None,
        t: float | None,
        X: np.ndarray | None,
    ) -> None:
        self.missing = missing
        self.patterns, self.of = _pattern_ids(missing)
        self.k = int(k)
        self.X = X
        if codes is None or shares is None or t is None:
            self.codes = np.zeros(len(missing), dtype=np.int64)
            self.shares, self.t = np.ones(1), None
        else:
            self.codes = np.asarray(codes, dtype=np.int64)
            self.shares, self.t = np.asarray(shares, dtype=float), float(t)
        self.b = len(self.shares)
        self._sq = None if X is None else np.einsum("ij,ij->i", X, X)
        self.counts = np.zeros((len(self.patterns), self.b), dtype=np.int64)
        np.add.at(self.counts, (self.of, self.codes), 1)
        # the records of every group; may hold records that moved on (see members())
        order = np.argsort(self.of, kind="stable")
        ends = np.cumsum(np.bincount(self.of, minlength=len(self.patterns)))
        self._members = dict(enumerate(np.split(order, ends[:-1])))
        self.ok = np.array([self.feasible(c) for c in self.counts], dtype=bool)

    # ---------------------------------------------------------------- bookkeeping
    def feasible(self, counts: np.ndarray) -> bool:
        """Whether records with these bucket counts can form classes on their own.

        One class of them all is the test: a valid layout of several classes implies that
        one class of everything is valid too (its bounds are the sums of theirs, rounded
        more generously).
        """
        n = int(counts.sum())
        if n < self.k:
            return False
        if self.t is None:
            return True
        return bool(layout_ok(counts, 1, self.shares, self.t, self.k)[0])

    def _index(self, pattern: np.ndarray) -> int:
        """Index of ``pattern`` among the groups, added (empty) when new."""
        same = np.flatnonzero((self.patterns == pattern[None, :]).all(axis=1))
        if same.size:
            return int(same[0])
        self.patterns = np.vstack([self.patterns, pattern[None, :]])
        self.counts = np.vstack([self.counts, np.zeros((1, self.b), dtype=np.int64)])
        self.ok = np.append(self.ok, False)
        return len(self.patterns) - 1

    def members(self, g: int) -> np.ndarray:
        """The records of group ``g`` (those that moved on are dropped on the way)."""
        rows = self._members.get(g, np.zeros(0, dtype=np.int64))
        rows = rows[self.of[rows] == g]
        self._members[g] = rows
        return rows

    def _move(self, rows: np.ndarray, target: int) -> None:
        """Records ``rows`` join group ``target``; the groups touched are checked again."""
        rows = rows[self.of[rows] != target]
        touched = np.unique(np.append(self.of[rows], target))
        np.add.at(self.counts, (self.of[rows], self.codes[rows]), -1)
        np.add.at(self.counts, (np.full(rows.size, target), self.codes[rows]), 1)
        self.of[rows] = target
        self._members[target] = np.concatenate([self.members(target), rows])
        for g in touched:
            self.ok[g] = self.feasible(self.counts[g])

    # ---------------------------------------------------------------- the options
    def _borrow_needs(self, counts: np.ndarray, available: np.ndarray) -> np.ndarray | None:
        """Records of each bucket to add so that the group can form one class (None: cannot).

        The smallest class size that works is searched from the group's own size up, in
        chunks that double (it is usually a few records away).
        """
        m = int(counts.sum())
        if self.t is None:
            need = max(self.k - m, 0)
            return np.array([need]) if need <= available.sum() else None
        start, total, chunk = max(m, self.k), m + int(available.sum()), 64
        while start <= total:
            sizes = np.arange(start, min(start + chunk, total + 1))
            low, high = class_bounds(sizes, self.shares, self.t)
            target = np.maximum(counts[None, :], low)
            room = np.maximum(np.minimum(high, counts[None, :] + available[None, :]) - target, 0)
            fits = (
                (counts[None, :] <= high).all(axis=1)
                & (target.sum(axis=1) <= sizes)
                & (target - counts[None, :] <= available[None, :]).all(axis=1)
                & (target.sum(axis=1) + room.sum(axis=1) >= sizes)
            )
            if fits.any():
                i = int(np.argmax(fits))
                need = target[i] - counts
                rest = int(sizes[i] - target[i].sum())
                # fill the rest where there is room, the file's commonest buckets first
                for j in np.argsort(-self.shares, kind="stable"):
                    add = min(rest, int(room[i, j]))
                    need[j] += add
                    rest -= add
                return need
            start, chunk = start + chunk, chunk * 2
        return None

    def _borrow(self, g: int, rows: np.ndarray) -> tuple[np.ndarray, int] | None:
        """The records group ``g`` would take in, and the values they would withhold.

        Lenders are the records of groups whose pattern is a strict subset of g's (they lose
        only the values g lacks): the fewest withheld values first, then the nearest to g's
        records.
        """
        mine = self.patterns[g]
        sizes = self.counts.sum(axis=1)
        subset = ~(self.patterns & ~mine[None, :]).any(axis=1) & (sizes > 0)
        subset[g] = False
        lending = np.flatnonzero(subset)
        if lending.size == 0:
            return None
        cost = (mine[None, :] & ~self.patterns[lending]).sum(axis=1)
        if self.t is None:
            available = np.array([int(sizes[lending].sum())])
        else:
            available = self.counts[lending].sum(axis=0)
        need = self._borrow_needs(self.counts[g], available)
        if need is None:
            return None
        centre = self.X[rows].mean(axis=0) if self.X is not None and rows.size else None
        picked, withheld = [], 0
        for tier in np.unique(cost):
            if not need.any():
                break
            candidates = np.concatenate([self.members(int(h)) for h in lending[cost == tier]])
            bucket = self.codes[candidates] if self.t is not None else np.zeros_like(candidates)
            if centre is not None:
                near = self._sq[candidates] - 2.0 * (self.X[candidates] @ centre)
                nearest = np.argsort(near, kind="stable")
                candidates, bucket = candidates[nearest], bucket[nearest]
            for j in np.flatnonzero(need):
                take = candidates[bucket == j][: int(need[j])]
                picked.append(take)
                withheld += int(tier) * take.size
                need[j] -= take.size
        chosen = np.concatenate(picked) if picked else np.zeros(0, dtype=np.int64)
        return chosen, withheld

    def _absorb(self, g: int, size: int) -> tuple[int, int] | None:
        """The superset group that ``g``'s records could join (feasibly), and what it withholds."""
        mine = self.patterns[g]
        superset = ((self.patterns | mine[None, :]) == self.patterns).all(axis=1)
        superset[g] = False
        best = None
        for h in np.flatnonzero(superset & (self.counts.sum(axis=1) > 0)):
            if not self.feasible(self.counts[g] + self.counts[h]):
                continue
            cost = size * int((self.patterns[h] & ~mine).sum())
            if best is None or cost < best[1]:
                best = (int(h), cost)
        return best

    def _merge(self, g: int, rows: np.ndarray) -> None:
        """Merge group ``g`` with the group whose union withholds the fewest values."""
        mine = self.patterns[g]
        sizes = self.counts.sum(axis=1)
        live = np.flatnonzero(sizes)
        live = live[live != g]
        extra = (self.patterns[live] & ~mine[None, :]).sum(axis=1)
        lacking = (mine[None, :] & ~self.patterns[live]).sum(axis=1)
        cost = rows.size * extra + sizes[live] * lacking
        h = int(live[np.argmin(cost)])
        target = self._index(mine | self.patterns[h])
        self._move(rows, target)
        if h != target:
            self._move(self.members(h), target)

    # ---------------------------------------------------------------- the loop
    def settle(self) -> None:
        """Give every group that cannot stand alone what it needs (module doc)."""
        while True:
            sizes = self.counts.sum(axis=1)
            live = sizes > 0
            if live.sum() <= 1:
                return
            lacking = np.flatnonzero(live & ~self.ok)
            if lacking.size == 0:
                return
            g = int(lacking[np.lexsort((lacking, sizes[lacking]))[0]])
            rows = self.members(g)
            borrow = self._borrow(g, rows)
            absorb = self._absorb(g, rows.size)
            if borrow is not None and (absorb is None or borrow[1] <= absorb[1]):
                self._move(borrow[0], g)
            elif absorb is not None:
                self._move(rows, absorb[0])
            else:
                self._merge(g, rows)

    def result(self) -> tuple[np.ndarray, np.ndarray]:
        _, groups = np.unique(self.of, return_inverse=True)
        released = self.patterns[self.of]
        return groups.reshape(-1).astype(np.int64), released & ~self.missing


def pattern_groups(
    missing: np.ndarray,
    k: int,
    *,
    codes: np.ndarray | None = None,
    shares: np.ndarray | None = None,
    t: float | None = None,
    X: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(group of every record, (n, q) mask of known values to withhold): module doc.

    ``missing`` is :func:`missing_mask`; ``codes``/``shares``/``t`` the buckets of every record,
    the whole file's bucket shares and t (None: k-anonymity only); ``X`` the encoded QIs, to
    prefer the records nearest to a group when it takes records in (None: input order).
    Every group can form classes of at least k records that are t-close to ``shares``.
    """
    missing = np.asarray(missing, dtype=bool)
    n = len(missing)
    if n == 0 or not missing.any():
        return np.zeros(n, dtype=np.int64), np.zeros_like(missing)
    groups = _Groups(missing, k, codes, shares, t, X)
    groups.settle()
    return groups.result()


def partition_by_group(
    groups: np.ndarray,
    partition: Callable[[np.ndarray | slice, Task], np.ndarray],
    task: Task = NO_TASK,
) -> np.ndarray:
    """Class labels from ``partition(rows, task)`` run on every group's rows, numbered apart.

    Each group gets the share of ``task``'s progress that its records are of the whole.  With
    one group ``rows`` is ``slice(None)``, so that indexing with it copies nothing.
    """
    groups = np.asarray(groups, dtype=np.int64)
    n = len(groups)
    n_groups = int(groups.max()) + 1 if n else 0
    if n_groups <= 1:
        return np.asarray(partition(slice(None), task), dtype=np.int64)
    labels = np.empty(n, dtype=np.int64)
    offset, done = 0, 0
    for g in range(n_groups):
        rows = np.flatnonzero(groups == g)
        part = np.asarray(partition(rows, task.sub(done / n, (done + rows.size) / n)))
        labels[rows] = part.astype(np.int64) + offset
        offset += int(part.max()) + 1
        done += rows.size
    return labels


__all__ = [
    "MissingCount",
    "missing_counts",
    "missing_mask",
    "partition_by_group",
    "pattern_groups",
    "withhold",
    "withhold_mixed",
]
