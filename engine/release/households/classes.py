"""Persons in households: classes that respect them.

Survey microdata holds persons within households.  Two things follow for the classes of a
release (the guidance of sdcMicro and μ-ARGUS; Templ, *Statistical Disclosure Control for
Microdata*, 2017, chapter on households); who lives with whom, and how the household id and
household-level values are released, is :mod:`engine.release.households.structure`:

1. **At least k households per class.**  Members of one household share much (a surname, an
   address); a class of k records drawn from two households protects two families, not k
   people.  After any partition, a class with records of fewer than k distinct households is
   merged into its nearest class (:func:`merge_for_households`): a union of k-anonymous
   classes is k-anonymous and a union of t-close classes is t-close, so the guarantee holds
   on every route.
2. **Household-level variables alike for every member.**  A QI that is constant within every
   household (region, commune, dwelling type, household size) must be released with one value
   per household, else anyone holding the household id sees a family spread over several
   places, and an intruder intersects the members' classes.  Such QIs are protected on the
   household file (one record per household) in *household groups* of whole households
   (:func:`household_groups`); the person classes are then formed inside each group
   (:func:`nested_classes`), so that every released class lies inside one household group and
   every member of a household carries the group's household-level values.

Household groups are cut from the households sorted on their household-level values
(:func:`household_order`), every group able to hold a t-close class against the whole file's
bucket shares, as the blocks of :mod:`engine.release.partition.blocks` are; the groups that
release the same values form one *fence*, inside which the bucket-capped partition of
:mod:`engine.release.partition.blocks` forms the person classes (:func:`household_partition`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from engine.errors import InfeasibleError
from engine.i18n import _
from engine.progress import NO_TASK, Task
from engine.release.columns import encode_qi, numeric_values, ordinal_ranks
from engine.release.households.structure import (
    Households,
    _dense,
    household_frame,
    household_release,
)
from engine.release.partition import (
    DEFAULT_BLOCK_SIZE,
    SIZE_SAMPLE,
    BoundRates,
    default_rounds,
    form_classes,
    layout_counts,
    refine_classes,
    split_nodes,
)
from engine.roles import ColumnType

#: household groups aim at this many classes' worth of records: small groups keep the
#: household-level values pure (a group spanning two communes releases one of them), and the
#: groups that release the same values form one fence for the person classes, so small groups
#: cost the persons nothing (``python -m benchmarks.bench_households --groups 2,8,32`` measures
#: the QI loss and the share of persons who keep their own commune)
GROUP_CLASSES = 2


# -- classes with enough households ---------------------------------------------------------


def households_per_class(classes: np.ndarray, hh: np.ndarray) -> np.ndarray:
    """Number of distinct households in every class."""
    if len(classes) == 0:
        return np.zeros(0, dtype=np.int64)
    n_h = int(hh.max()) + 1
    pairs = np.unique(classes.astype(np.int64) * n_h + hh)
    return np.bincount(pairs // n_h, minlength=int(classes.max()) + 1)


def merge_for_households(
    X: np.ndarray,
    classes: np.ndarray,
    hh: np.ndarray,
    k: int,
    *,
    fence: np.ndarray | None = None,
) -> np.ndarray:
    """``classes`` with every class holding records of at least ``k`` households.

    A class with fewer joins its nearest class (by centroid) inside the same ``fence``
    (household group), until none is left: unions keep k-anonymity and t-closeness.  The
    caller guarantees that every fence (or the whole file) holds ≥ k households.
    """
    from scipy.sparse import coo_array
    from scipy.sparse.csgraph import connected_components
    from scipy.spatial import cKDTree

    classes = _dense(classes)
    X = np.asarray(X, dtype=np.float64).reshape(len(classes), -1)
    while True:
        count = households_per_class(classes, hh)
        bad = np.flatnonzero(count < k)
        m = len(count)
        if len(bad) == 0 or m < 2:
            return classes
        sizes = np.bincount(classes, minlength=m).astype(np.float64)
        cent = (
            np.stack(
                [np.bincount(classes, weights=X[:, j], minlength=m) for j in range(X.shape[1])], 1
            )
            / sizes[:, None]
        )
        if fence is not None:
            own = np.zeros(m, dtype=np.int64)
            own[classes] = fence
            spread = float(np.abs(cent).max(initial=0.0)) + 1.0
            # classes of other fences lie at least 1e3·spread away: never the nearest
            cent = np.column_stack([cent, own * (1e3 * spread * np.sqrt(X.shape[1] + 1))])
        tree = cKDTree(cent)
        _dist, near = tree.query(cent[bad], k=min(2, m))
        near = np.asarray(near).reshape(len(bad), -1)
        target = np.where(near[:, 0] == bad, near[:, -1], near[:, 0])
        if fence is not None:
            same = own[target] == own[bad]
            if not same.all():  # a fence of one class: the caller's guarantee was broken
                raise InfeasibleError(
                    _("A household group holds records of fewer than {k} households.").format(k=k)
                )
        graph = coo_array((np.ones(len(bad)), (bad, target)), shape=(m, m))
        _count, joined = connected_components(graph, directed=False)
        classes = _dense(joined[classes])


def shared_classes(classes: np.ndarray, hh: np.ndarray) -> int:
    """Classes in which one household holds two or more records."""
    if len(classes) == 0:
        return 0
    pairs, counts = np.unique(classes.astype(np.int64) * (int(hh.max()) + 1) + hh,
                              return_counts=True)  # fmt: skip
    return len(np.unique(pairs[counts > 1] // (int(hh.max()) + 1)))


def separate_members(
    X: np.ndarray,
    classes: np.ndarray,
    codes: np.ndarray,
    hh: np.ndarray,
    fence: np.ndarray | None = None,
) -> np.ndarray:
    """``classes`` with the members of a household in different classes, where it can be done.

    For a household-level confidential value the members of a household fall in one bucket,
    so two of them in a class weigh their household twice in its shares.  Every extra member
    is exchanged with a record of the *same bucket* from another class of its fence that holds
    no member of its household, and whose household has no member in the first class: class
    sizes and bucket counts stay exactly as they were, so k and t-closeness are untouched.
    Among the candidates the one whose exchange moves the records least from their classes'
    centroids is taken.  An extra member with no candidate stays (:func:`shared_classes`
    counts them).
    """
    classes = np.asarray(classes, dtype=np.int64).copy()
    X = np.asarray(X, dtype=np.float64).reshape(len(classes), -1)
    fence = np.zeros(len(classes), dtype=np.int64) if fence is None else np.asarray(fence)
    n_h = int(hh.max()) + 1 if len(hh) else 1
    key = classes * n_h + hh
    order = np.argsort(key, kind="stable")
    extra = order[1:][key[order][1:] == key[order][:-1]]
    if len(extra) == 0:
        return classes
    m = int(classes.max()) + 1
    sizes = np.bincount(classes, minlength=m).astype(np.float64)
    sums = np.stack(
        [np.bincount(classes, weights=X[:, j], minlength=m) for j in range(X.shape[1])], 1
    )
    members: dict[int, list[int]] = {}
    for i, c in enumerate(classes.tolist()):
        members.setdefault(c, []).append(i)
    home_members: dict[int, list[int]] = {}
    for i in np.flatnonzero(np.isin(hh, np.unique(hh[extra]))).tolist():
        home_members.setdefault(int(hh[i]), []).append(i)
    pool_order = np.lexsort((codes, fence))
    pool_key = fence[pool_order] * (int(codes.max()) + 1) + codes[pool_order]
    bounds = np.flatnonzero(np.r_[True, pool_key[1:] != pool_key[:-1], True])
    pool_of = {int(pool_key[b]): pool_order[b : bounds[i + 1]] for i, b in enumerate(bounds[:-1])}
    width = int(codes.max()) + 1
    for r in extra.tolist():
        a, h = int(classes[r]), int(hh[r])
        if sum(1 for i in home_members[h] if classes[i] == a) < 2:
            continue  # an earlier exchange already moved a member away
        pool = pool_of[int(fence[r]) * width + int(codes[r])]
        theirs = classes[pool]
        busy = np.isin(theirs, [int(classes[i]) for i in home_members[h]])
        in_a = np.isin(hh[pool], hh[members[a]])
        ok = ~busy & ~in_a & (theirs != a)
        if not ok.any():
            continue
        cand = pool[ok]
        b_cls = classes[cand]
        cent_a = sums[a] / sizes[a]
        cent_b = sums[b_cls] / sizes[b_cls][:, None]
        cost = ((X[r] - cent_b) ** 2).sum(axis=1) + ((X[cand] - cent_a) ** 2).sum(axis=1)
        s = int(cand[np.argmin(cost)])
        b = int(classes[s])
        classes[r], classes[s] = b, a
        members[a].remove(r)
        members[b].remove(s)
        members[a].append(s)
        members[b].append(r)
        diff = X[s] - X[r]
        sums[a] += diff
        sums[b] -= diff
    return classes


# -- household groups and nested classes ----------------------------------------------------


def group_max_classes(counts: np.ndarray, shares: np.ndarray, t: float, k: int) -> np.ndarray:
    """:func:`engine.release.partition.max_classes` of every row of ``counts`` at once."""
    counts = np.atleast_2d(np.asarray(counts, dtype=np.int64))
    n = counts.sum(axis=1)
    needed = np.asarray(shares) > 0
    top = n // k
    if needed.any():
        top = np.minimum(top, counts[:, needed].min(axis=1))
    rates = BoundRates(shares, t)
    best = np.zeros(len(counts), dtype=np.int64)
    for c in range(1, int(top.max(initial=0)) + 1):
        live = np.flatnonzero(top >= c)
        sub, nn = counts[live], n[live]
        small, big = nn // c, -(-nn // c)
        low_big, _ = rates(big[:, None].astype(np.float64))
        _, up_small = rates(small[:, None].astype(np.float64))
        ok = (small >= k) & (sub // c >= low_big).all(axis=1)
        ok &= (-(-sub // c) <= up_small).all(axis=1)
        best[live[ok]] = c
    return best


def household_order(
    frame: pd.DataFrame,
    columns: Sequence[str],
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
    hierarchies: Mapping[str, Any] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(households in order, run of equal values at every position) for the household file.

    Households are sorted on their household-level values, the column with the most distinct
    values first (a commune before its region: the finer geography keeps the coarser one
    together too), numbers and ordered categories by value, a column with a hierarchy by its
    path from the coarsest level down (the communes of one district adjacent, the districts
    of one province), so that equal households are adjacent and close ones near; a *run* is
    a stretch of households with equal values.
    """
    keys = []
    hierarchies = hierarchies or {}
    for col in columns:
        series = frame[col]
        if col in hierarchies:
            paths = hierarchies[col].paths
            key = pd.factorize(
                series.map(
                    lambda v, p=paths: "\x1f".join(reversed(p[v])), na_action="ignore"
                ).astype("string"),
                sort=True,
                use_na_sentinel=False,
            )[0]
        elif types[col] in (ColumnType.NUMERIC, ColumnType.DATE):
            values = numeric_values(series, types[col])
            key = np.unique(values, return_inverse=True)[1].ravel()  # NaN sorts last
        elif types[col] == ColumnType.ORDINAL:
            values = ordinal_ranks(series, orders.get(col))
            key = np.unique(values, return_inverse=True)[1].ravel()
        else:
            key = pd.factorize(series.astype("string"), sort=True, use_na_sentinel=False)[0]
        keys.append(key.astype(np.int64))
    if not keys:
        n = len(frame)
        return np.arange(n), np.zeros(n, dtype=np.int64)
    distinct = [len(np.unique(key)) for key in keys]
    ranked = sorted(range(len(keys)), key=lambda i: -distinct[i])  # stable: ties keep order
    order = np.lexsort([keys[i] for i in reversed(ranked)])
    stacked = np.column_stack([keys[i][order] for i in ranked])
    change = np.r_[True, (stacked[1:] != stacked[:-1]).any(axis=1)]
    return order, np.cumsum(change) - 1


def _coarser_levels(
    frame: pd.DataFrame, order: np.ndarray, households: Households
) -> np.ndarray | None:
    """The keys of the coarser levels of the first household-level QI with a hierarchy, for
    the households in ``order`` (None when none has one)."""
    column = next((c for c in households.level if c in households.hierarchies), None)
    if column is None:
        return None
    paths = households.hierarchies[column].paths
    values = frame[column].iloc[order]
    n_levels = len(households.hierarchies[column].levels)
    out = np.zeros((len(order), n_levels - 1), dtype=np.int64)
    for level in range(1, n_levels):
        names = values.map(lambda v, lv=level, p=paths: p[v][lv], na_action="ignore")
        out[:, level - 1] = pd.factorize(names.astype("string"), use_na_sentinel=False)[0]
    return out


def household_groups(
    order: np.ndarray,
    runs: np.ndarray,
    codes: np.ndarray,
    hh: np.ndarray,
    shares: np.ndarray,
    t: float,
    size: int,
    k: int,
    *,
    target: int,
    coarser: np.ndarray | None = None,
) -> np.ndarray:
    """Household group (0..G−1) of every record: whole households, every group feasible.

    ``coarser`` (households in ``order`` × levels, coarsest last) holds the key of each
    coarser level of a hierarchy: a group then ends where a coarser unit ends when it can,
    so that it spans as few districts (provinces) as it must and releases the finest level
    its households share.

    The households, in ``order`` (:func:`household_order`, with ``runs`` of equal values),
    are cut into consecutive groups of about ``target`` records.  A group must be feasible:
    one t-close class of ≥ ``size`` records against the file's ``shares`` at least (then the
    bucket-capped partition can form classes inside it) and ≥ ``k`` households.  Inside a run
    of equal values the cuts cost nothing (both sides release the same values); where a run
    is too small to stand alone it joins what follows, ending at a run's end when that is
    near.  The last group joins the ones before it when it is not feasible alone.
    """
    n_households = len(order)
    stretches = _Stretches.of(order, codes, hh, shares, t, size, k)
    run_stop = np.r_[np.flatnonzero(runs[1:] != runs[:-1]) + 1, n_households]
    cuts = _group_cuts(stretches, run_stop, k, target, coarser)
    if not stretches.feasible(0, n_households)[0] and len(cuts) == 2:
        raise InfeasibleError(
            _("The households cannot form a t-close group of at least {size} records.").format(
                size=size
            )
        )
    group_of_position = np.repeat(np.arange(len(cuts) - 1), np.diff(cuts))
    group_of = np.empty(n_households, dtype=np.int64)
    group_of[order] = group_of_position
    return group_of[hh]


@dataclass(frozen=True)
class _Stretches:
    """The households in their order, with the persons and bucket counts before each: which
    stretches of consecutive households can form a group (:func:`household_groups`)."""

    #: persons in the households before each position (one more entry than households)
    persons: np.ndarray
    #: records of every bucket in the households before each position
    counts: np.ndarray
    rates: BoundRates
    size: int
    k: int

    @classmethod
    def of(
        cls,
        order: np.ndarray,
        codes: np.ndarray,
        hh: np.ndarray,
        shares: np.ndarray,
        t: float,
        size: int,
        k: int,
    ) -> _Stretches:
        n_households = len(order)
        b = len(shares)
        members = np.bincount(hh, minlength=n_households)[order]
        per_home = np.bincount(hh * b + codes, minlength=n_households * b).reshape(n_households, b)
        counts = np.zeros((n_households + 1, b), dtype=np.int64)
        counts[1:] = np.cumsum(per_home[order], axis=0)
        return cls(np.r_[0, np.cumsum(members)], counts, BoundRates(shares, t), size, k)

    def feasible(self, starts: np.ndarray | int, ends: np.ndarray | int) -> np.ndarray:
        """Whether the households [start, end) can form a group, for arrays of either."""
        starts, ends = np.broadcast_arrays(np.atleast_1d(starts), np.atleast_1d(ends))
        m = self.persons[ends] - self.persons[starts]
        low, high = self.rates(m[:, None].astype(np.float64))
        got = self.counts[ends] - self.counts[starts]
        ok = (m >= self.size) & (ends - starts >= self.k)
        return ok & (got >= low).all(axis=1) & (got <= high).all(axis=1)

    def first(self, s: int, lo: int, hi: int, tail: int | None = None) -> int | None:
        """The first end in [lo, hi] that makes [s, end) feasible (and [end, tail) too)."""
        step = 64
        while lo <= hi:
            ends = np.arange(lo, min(lo + step, hi + 1))
            ok = self.feasible(s, ends)
            if tail is not None:
                ok &= (ends == tail) | self.feasible(ends, tail)
            if ok.any():
                return int(ends[np.argmax(ok)])
            lo, step = lo + step, step * 2
        return None


def _unit_stops(coarser: np.ndarray | None) -> list[np.ndarray]:
    """Where each unit of every coarser level ends, coarsest level first."""
    if coarser is None:
        return []
    n = len(coarser)
    stops = []
    for level in range(coarser.shape[1] - 1, -1, -1):
        key = coarser[:, level]
        stops.append(np.r_[np.flatnonzero(key[1:] != key[:-1]) + 1, n])
    return stops


def _coarse_end(
    stretches: _Stretches, unit_stops: list[np.ndarray], s: int, end: int, target: int
) -> int:
    """``end`` moved to the end of a coarser unit (a district, a province) when the group
    [s, end) would otherwise cross into the next one: back to the last unit end inside it
    when that leaves a group of at least half the target, else on to the end of the unit it
    reaches into when that is near; the coarsest level first, each move feasible."""
    persons, feasible = stretches.persons, stretches.feasible
    for stops in unit_stops:
        inside = stops[(stops > s) & (stops < end)]
        if inside.size:
            back = int(inside[-1])
            if persons[back] - persons[s] >= target // 2 and feasible(s, back)[0]:
                end = back
                continue
            forward = int(stops[np.searchsorted(stops, end - 1, side="right")])
            near = persons[forward] - persons[s] <= 2 * max(target, persons[end] - persons[s])
            if forward != end and near and feasible(s, forward)[0]:
                end = forward
    return end


def _group_cuts(
    stretches: _Stretches,
    run_stop: np.ndarray,
    k: int,
    target: int,
    coarser: np.ndarray | None = None,
) -> list[int]:
    """Where the groups of households start, and the end: consecutive feasible stretches of
    about ``target`` persons, cut inside a run of equal values (``run_stop``: where each run
    ends) when it is long enough, else at a run's end nearby; the last group joins the ones
    before it until it is feasible.

    With the units of a hierarchy's coarsest level (``coarser``), each unit that can stand
    alone is cut on its own (its last group joining the ones before it inside the unit), so
    that no group spans two provinces that could each be grouped apart; the units that
    cannot join the ones around them."""
    unit_stops = _unit_stops(coarser)
    n_households = len(stretches.persons) - 1
    if not unit_stops:
        return _cuts_between(stretches, run_stop, k, target, 0, n_households, [])
    cuts = [0]
    start = 0
    for stop in unit_stops[0]:
        stop = int(stop)
        if stop != n_households and not stretches.feasible(start, stop)[0]:
            continue  # this unit (with the ones before it) cannot stand alone yet
        inner = _cuts_between(stretches, run_stop, k, target, start, stop, unit_stops[1:])
        cuts += inner[1:]
        start = stop
    while len(cuts) > 2 and not stretches.feasible(cuts[-2], cuts[-1])[0]:
        del cuts[-2]
    return cuts


def _cuts_between(
    stretches: _Stretches,
    run_stop: np.ndarray,
    k: int,
    target: int,
    begin: int,
    finish: int,
    unit_stops: list[np.ndarray],
) -> list[int]:
    """The cuts of :func:`_group_cuts` for the households [begin, finish)."""
    persons, feasible, first = stretches.persons, stretches.feasible, stretches.first
    cuts = [begin]
    s = begin
    while s < finish:
        reach = max(s + k, int(np.searchsorted(persons, persons[s] + target)))
        stop = min(int(run_stop[np.searchsorted(run_stop, s, side="right")]), finish)
        end: int | None
        if reach <= stop and feasible(s, stop)[0]:
            # enough of this run left: cut inside it, leaving a feasible rest (or none)
            end = first(s, reach, stop, tail=stop) or stop
        else:
            end = first(s, min(reach, finish), finish)
            if end is None:
                end = finish  # the tail: joins the groups before it below
            else:
                # end at the end of the run it reaches into, when that run ends nearby
                run_end = min(int(run_stop[np.searchsorted(run_stop, end - 1, side="right")]),
                              finish)  # fmt: skip
                near = persons[run_end] - persons[s] <= 2 * max(target, persons[end] - persons[s])
                if run_end != end and near and feasible(s, run_end)[0]:
                    end = run_end
                end = min(_coarse_end(stretches, unit_stops, s, end, target), finish)
        cuts.append(end)
        s = end
    # the last group joins the ones before it until it is feasible
    while len(cuts) > 2 and not feasible(cuts[-2], cuts[-1])[0]:
        del cuts[-2]
    return cuts


def nested_classes(
    X: np.ndarray,
    codes: np.ndarray,
    group: np.ndarray,
    shares: np.ndarray,
    t: float,
    size: int,
    *,
    improve_rounds: int = 0,
    block_size: int = DEFAULT_BLOCK_SIZE,
    task: Task = NO_TASK,
) -> np.ndarray:
    """t-close classes of at least ``size`` records, each inside one household ``group``.

    Every group is feasible against the file's ``shares`` (:func:`household_groups`); its
    balanced layout of as many classes as it admits is split k-d style along the person-level
    QIs ``X`` into blocks of at most ``block_size`` records, and the bucket-capped MDAV of
    :mod:`engine.release.partition.blocks` forms the classes of all blocks at once.  Their
    refinement (:func:`engine.release.partition.refine_classes`) moves records only between
    classes of one group.
    """
    X = np.asarray(X, dtype=np.float64).reshape(len(codes), -1)
    b = len(shares)
    n_groups = int(group.max()) + 1
    counts = np.bincount(group * b + codes, minlength=n_groups * b).reshape(n_groups, b)
    per_group = group_max_classes(counts, shares, t, size)
    if (per_group < 1).any():
        raise InfeasibleError(_("A household group admits no t-close class."))
    offsets = np.r_[0, np.cumsum(per_group)]
    per_class = np.vstack([layout_counts(counts[g], int(per_group[g])) for g in range(n_groups)])
    task.step(0.0, _("Forming classes inside household groups"))
    node, end = split_nodes(X, codes, per_class, max_records=block_size,
                            start=(offsets[group], offsets[group + 1]))  # fmt: skip
    labels = form_classes(X, codes, node, end, per_class, shares, t, size,
                          task=task.sub(0.0, 0.7 if improve_rounds else 1.0))  # fmt: skip
    if improve_rounds:  # refined within each group (the fence), as long as the exchange pass
        labels = refine_classes(X, labels, codes, t=t, k=size, shares=shares, fence=group,
                                passes=float(improve_rounds), task=task.sub(0.7, 1.0))  # fmt: skip
    return _dense(labels)


def nested_loss(
    X_house: np.ndarray, groups: np.ndarray, X_person: np.ndarray, classes: np.ndarray
) -> float:
    """QI SSE/SST of a release whose household-level QIs are released per group and whose
    person-level QIs are released per class."""
    sse = sst = 0.0
    for X, labels in ((X_house, groups), (X_person, classes)):
        X = np.asarray(X, dtype=np.float64).reshape(len(labels), -1)
        sizes = np.maximum(np.bincount(labels), 1)
        sums = np.stack([np.bincount(labels, weights=X[:, j]) for j in range(X.shape[1])], 1)
        sse += float(((X - (sums / sizes[:, None])[labels]) ** 2).sum())
        sst += float(((X - X.mean(axis=0)) ** 2).sum())
    return sse / sst if sst > 0 else 0.0


def household_partition(
    clean: pd.DataFrame,
    qi: Sequence[str],
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
    households: Households,
    codes: np.ndarray | None,
    t: float | None,
    k: int,
    size: int,
    *,
    mode: Literal["centroid", "range"] = "centroid",
    shares: np.ndarray | None = None,
    improve_rounds: int | None = None,
    task: Task = NO_TASK,
) -> tuple[np.ndarray, np.ndarray, float]:
    """(class of every record, household group of every record, QI SSE/SST) for a file with
    household-level QIs (module doc, 2).

    Groups of whole households on those QIs (:func:`household_groups`); the groups whose
    household-level values are released alike (``mode``: centroid or range) form one *fence*,
    and t-close classes of at least ``size`` records (k-anonymous ones when ``codes`` is
    None) are formed inside every fence, so that a commune split into five groups still
    offers its persons all of its records to be classed with; the members of a household
    kept apart where a confidential column is household-level (:func:`separate_members`);
    finally at least ``k`` households in every class.
    """
    hh = households.codes
    person = [c for c in qi if c not in households.level]
    X_house = encode_qi(clean, households.level, types, orders, households.hierarchies)
    X_person = encode_qi(clean, person, types, orders, households.hierarchies)
    if codes is None or t is None:  # k-anonymity only: one bucket, every class "t-close"
        codes, t, shares = np.zeros(len(clean), dtype=np.int64), 1.0, None
    if shares is None:
        shares = np.bincount(codes) / len(codes)
    if improve_rounds is None:
        improve_rounds = default_rounds(len(codes))
    task.step(0.0, _("Grouping households"))
    frame = household_frame(clean, households.level, hh)
    order, runs = household_order(frame, households.level, types, orders, households.hierarchies)
    separate = bool(households.confidential_level) and t > 1.0  # real buckets
    # members kept apart need a class each: groups of as many classes as the largest household
    reach = max(GROUP_CLASSES, int(households.sizes().max())) if separate else GROUP_CLASSES
    groups = household_groups(order, runs, codes, hh, shares, t, size, k,
                              target=reach * size,
                              coarser=_coarser_levels(frame, order, households))  # fmt: skip
    released = household_release(frame, households, types, orders, groups, mode)
    fence = released.groupby(list(released.columns), dropna=False, sort=False).ngroup()
    fence = fence.to_numpy(dtype=np.int64)[hh]
    classes = nested_classes(
        X_person, codes, fence, shares, t, size,
        improve_rounds=improve_rounds, task=task.sub(0.1, 0.9),
    )  # fmt: skip
    if separate:
        classes = separate_members(X_person, classes, codes, hh, fence)
    classes = merge_for_households(X_person, classes, hh, k, fence=fence)
    return classes, groups, nested_loss(X_house, groups, X_person, classes)


#: improvement rounds of the trial partitions (the choice needs the ranking, not the polish)
SIZE_ROUNDS = 3


def household_size(
    clean: pd.DataFrame,
    qi: Sequence[str],
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
    households: Households,
    codes: np.ndarray,
    t: float,
    k: int,
    candidates: Sequence[int],
    *,
    mode: Literal["centroid", "range"] = "centroid",
    task: Task = NO_TASK,
) -> int:
    """The smallest-loss class size among ``candidates`` for :func:`household_partition`.

    As :func:`engine.release.choose_class_size` does for the plain route (the
    rounding of the t-closeness bounds makes the best size often larger than k), but each
    candidate is tried with the household route itself, on whole households drawn at random
    (:meth:`Households.sample`) against the whole file's bucket shares.
    """
    if len(candidates) == 1:
        return int(candidates[0])
    rows, sub, homes = households.sampled(clean, SIZE_SAMPLE)
    shares = np.bincount(codes) / len(codes)
    best, best_loss = int(candidates[0]), np.inf
    for i, size in enumerate(candidates):
        task.step(i / len(candidates), _("Choosing the class size"))
        try:
            _groups, _members, loss = household_partition(
                sub, qi, types, orders, homes, codes[rows], t, k, int(size),
                mode=mode, shares=shares, improve_rounds=SIZE_ROUNDS,
            )  # fmt: skip
        except InfeasibleError:  # the sample's bucket mix can stray from the file's
            continue
        if loss < best_loss - 1e-12:
            best, best_loss = int(size), loss
    return best


__all__ = [
    "household_groups",
    "household_order",
    "household_partition",
    "household_size",
    "households_per_class",
    "merge_for_households",
    "nested_classes",
    "nested_loss",
    "separate_members",
    "shared_classes",
]
