"""Cutting values into b groups of near-equal mass, never splitting a value.

* sorted values (numeric, date, ordinal): :func:`split_sorted` makes the smallest group as
  large as possible first (it caps the number of classes), then aims every cut at an equal
  share of the mass still to split; a boundary may move to a rounder cut nearby
  (:func:`_rounder_boundary`);
* categories: whole categories grouped into b sets of near-equal mass
  (:func:`_group_categories`);
* value vectors of several columns: a balanced k-d split (:func:`_split_vectors`), each
  split cutting the column that makes both sides most homogeneous, identical vectors always
  together.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.release.buckets.scale import Scale
from engine.release.model import MIN_BUCKET


def _first_group_end(cum: np.ndarray, before: float, threshold: float) -> int:
    """End (exclusive) of the shortest group of mass ≥ threshold after the mass ``before``.

    Every group end of :func:`split_sorted` is this one float expression, so that the counts
    from one start and the ends of all starts at once (:func:`_last_starts`) agree to the bit.
    """
    return int(np.searchsorted(cum, before + threshold - 1e-9)) + 1


def _count_groups(cum: np.ndarray, threshold: float, enough: int) -> int:
    """Greedy number of groups of mass ≥ threshold from the first value, at most ``enough``.

    Greedy shortest groups from the left give the most groups; counting stops as soon as
    ``enough`` are found, so a call costs at most ``enough`` binary searches.
    """
    n_values = len(cum)
    start, found = 0, 0
    while found < enough and start < n_values:
        end = _first_group_end(cum, float(cum[start - 1]) if start else 0.0, threshold)
        if end > n_values:
            break
        found += 1
        start = end
    return found


def _last_starts(cum: np.ndarray, threshold: float, levels: int) -> np.ndarray:
    """last[m] (m = 0..levels): the largest start s from which m groups of mass ≥ threshold
    can still be formed out of values s.. (last[0] = n; −1 when none).

    f(s), the most groups from s, never increases with s (the greedy end of a group is
    monotone in its start, rounding included), so {s : f(s) ≥ m} is a prefix 0..last[m].
    f(s) ≥ m + 1 exactly when the first group from s ends at or before last[m], and group
    ends are sorted: per level, a binary search over the starts, each step one group end
    (:func:`_first_group_end`), O(log² n) instead of the ends of all n starts.
    """
    n_values = len(cum)

    def end(s: int) -> int:
        return _first_group_end(cum, float(cum[s - 1]) if s else 0.0, threshold)

    last = np.full(levels + 1, -1, dtype=np.int64)
    last[0] = n_values
    for m in range(levels):
        if last[m] < 0:
            break
        # the largest s with end(s) ≤ last[m] (−1 when none)
        lo, hi = -1, n_values - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if end(mid) <= last[m]:
                lo = mid
            else:
                hi = mid - 1
        last[m + 1] = lo
    return last


def split_sorted(weights: np.ndarray, b: int) -> list[int]:
    """End positions (exclusive) of b consecutive groups of near-equal total weight.

    ``weights`` are the multiplicities of the distinct sorted values; a group never splits a
    value.  The smallest group is made as large as possible first (it caps the number of
    classes, KBS 2015 §6.2): a heavy tie such as an income of 0 for most people takes one group
    and its small neighbours join it rather than forming a tiny group.  Within that, each
    cut aims at an equal share of the mass still to split.

    No group holds fewer than :data:`MIN_BUCKET` records when b groups cannot all hold as
    many: fewer groups are formed (a group's label and mean are printed for its records).
    One function for one machine and a cluster's client (which splits interval counts).  It
    costs O(n log n) once plus O(b log n) per step of the threshold's binary search, however
    many distinct values there are (a real income column has nearly one per record).
    """
    weights = np.asarray(weights, dtype=float)
    n_values = len(weights)
    b = max(1, min(int(b), n_values))
    cum = np.cumsum(weights)
    total = float(cum[-1])
    # the largest threshold T such that b groups of mass ≥ T exist (binary search on T)
    lo_t, hi_t = float(weights.min()), total / b
    while hi_t - lo_t > 0.5:
        mid = (lo_t + hi_t) / 2
        if _count_groups(cum, mid, b) >= b:
            lo_t = mid
        else:
            hi_t = mid
    if _count_groups(cum, hi_t, b) >= b:
        lo_t = hi_t
    if lo_t < MIN_BUCKET and b > 1:  # a group of one or two records: fewer groups
        fewer = max(_count_groups(cum, MIN_BUCKET, b), 1)
        if fewer < b:
            return split_sorted(weights, fewer)
    last = _last_starts(cum, lo_t, b)
    ends: list[int] = []
    start = 0
    for i in range(b - 1):
        before = cum[start - 1] if start > 0 else 0.0
        target = before + (total - before) / (b - i)
        first = _first_group_end(cum, float(before), lo_t)
        # the cut may go anywhere from first to the last start that leaves b − i − 1 groups
        last_ok = int(last[b - i - 1])
        stop = last_ok if last_ok >= first else first
        best = _nearest(cum, first, stop, target)
        ends.append(best)
        start = best
    ends.append(n_values)
    return ends


def _nearest(cum: np.ndarray, first: int, last: int, target: float) -> int:
    """The first c in first..last whose cum[c − 1] lies nearest to ``target``.

    ``cum`` is sorted, so the distance falls up to the insertion point and rises after it:
    the nearest is one of the two around it, or an earlier entry that ties it (equal masses),
    which only a long run of ties makes the whole segment worth scanning for.
    """
    seg = cum[first - 1 : last]
    i = int(np.searchsorted(seg, target, side="left"))
    stop = min(i + 1, len(seg))
    start = max(i - 17, 0)
    j = int(np.argmin(np.abs(seg[start:stop] - target)))
    if j == 0 and start > 0:  # a run of ties reaches further back: look at all of them
        start = 0
        j = int(np.argmin(np.abs(seg[:stop] - target)))
    return first + start + j


def _group_categories(counts: np.ndarray, b: int) -> np.ndarray:
    """Group index of every category: largest first into the lightest group (LPT)."""
    b = max(1, min(b, len(counts)))
    load = np.zeros(b)
    group = np.empty(len(counts), dtype=np.int64)
    for i in np.argsort(-counts, kind="stable"):
        g = int(np.argmin(load))
        group[i] = g
        load[g] += counts[i]
    return group


def _best_cut(
    keys: np.ndarray, weights: np.ndarray, nominal: bool, frac: float, scale: Scale | None = None
):
    """The split of one column closest to a ``frac`` share of the mass, or None.

    Returns (rows going left, cut): numeric/ordinal keys are cut between two distinct values
    (for a numeric or date column with its ``scale``, moved a little to the roundest public
    cut nearby, which is returned; else the cut is None); nominal categories are assigned,
    heaviest first, to whichever side brings the left mass nearer its target.  None when the
    column has a single value here, or no public cut (:func:`_rounder_boundary`).
    """
    distinct, inverse = np.unique(keys, return_inverse=True)
    if len(distinct) < 2:
        return None
    mass = np.bincount(inverse, weights=weights)
    target = frac * mass.sum()
    if nominal:
        left = np.zeros(len(distinct), dtype=bool)
        load = 0.0
        for i in np.argsort(-mass, kind="stable"):
            if abs(load + mass[i] - target) < abs(load - target):
                left[i] = True
                load += mass[i]
        if left.all() or not left.any():
            left[:] = False
            left[np.argmax(mass)] = True
        return left[inverse], None
    cum = np.cumsum(mass)
    pos = int(np.argmin(np.abs(cum[:-1] - target))) + 1  # distinct[:pos] go left
    if scale is None:
        return inverse < pos, None
    found = _rounder_boundary(distinct, cum, pos, 0, len(distinct), scale)
    if found is None:  # no public cut in this column here
        return None
    pos, cut = found
    return inverse < pos, cut


def _features(keys: np.ndarray, weights: np.ndarray, nominal: list[bool]) -> np.ndarray:
    """Distinct key rows as vectors whose per-column total sum of squares is the same.

    Numeric keys are standardised; nominal ones become indicators scaled by the column's
    Gini impurity, so that explaining any one column fully is worth the same.
    """
    total = weights.sum()
    blocks = []
    for col, is_nominal in enumerate(nominal):
        x = keys[:, col]
        if is_nominal:
            cats, inv = np.unique(x, return_inverse=True)
            share = np.bincount(inv, weights=weights) / total
            gini = 1.0 - (share**2).sum()
            onehot = np.zeros((len(x), len(cats)))
            onehot[np.arange(len(x)), inv] = 1.0
            blocks.append(onehot / np.sqrt(gini) if gini > 0 else onehot * 0)
        else:
            mean = (x * weights).sum() / total
            std = np.sqrt(((x - mean) ** 2 * weights).sum() / total)
            blocks.append(((x - mean) / std if std > 0 else x * 0)[:, None])
    return np.column_stack(blocks)


def _sse(features: np.ndarray, weights: np.ndarray) -> float:
    w = weights.sum()
    if w == 0:
        return 0.0
    s = (features * weights[:, None]).sum(axis=0)
    return float((features**2 * weights[:, None]).sum() - (s**2).sum() / w)


#: one split on the way to a joint bucket: (column, went below the cut, the public cut)
Split = tuple[int, bool, float]


def _split_vectors(
    keys: np.ndarray,
    weights: np.ndarray,
    nominal: list[bool],
    b: int,
    scales: Sequence[Scale | None] | None = None,
) -> tuple[np.ndarray, list[list[Split]]]:
    """Group of every distinct key row: b groups of near-equal mass by recursive bisection.

    Each step cuts one column, like a k-d tree, so every bucket is a product of per-column
    ranges or category sets and its label stays short.  Among the cuts that leave each side
    at least half its fair share of the mass, the one that makes the two sides most
    homogeneous (largest drop of the standardised sum of squares over all columns) wins;
    if none is balanced enough, the most balanced.  Identical rows are one weighted row, so
    they are never split.  Also returns, per group, the public cuts of the numeric and date
    columns (``scales``) on its path: the cell's walls, from which its labels are made.
    """
    scales = list(scales) if scales is not None else [None] * keys.shape[1]
    features = _features(keys, weights, nominal)
    group = np.zeros(len(keys), dtype=np.int64)
    paths: list[list[Split]] = []

    def leaf(rows: np.ndarray, path: list[Split]) -> None:
        group[rows] = len(paths)
        paths.append(path)

    def split(rows: np.ndarray, parts: int, path: list[Split]) -> None:
        if parts <= 1 or len(rows) <= 1:
            leaf(rows, path)
            return
        frac = (parts // 2) / parts
        w = weights[rows]
        f = features[rows]
        parent = _sse(f, w)
        best = None  # (balanced, gain or -imbalance), left, column, edge
        for col in range(keys.shape[1]):
            found = _best_cut(keys[rows, col], w, nominal[col], frac, scales[col])
            if found is None:
                continue
            left, edge = found
            share = w[left].sum() / w.sum()
            balanced = min(share / frac, (1 - share) / (1 - frac)) >= 0.5
            gain = parent - _sse(f[left], w[left]) - _sse(f[~left], w[~left])
            score = (balanced, gain if balanced else -abs(share - frac))
            if best is None or score > best[0]:
                best = (score, left, col, edge)
        if best is None:
            leaf(rows, path)
            return
        _, left, col, edge = best
        share = w[left].sum() / w.sum()
        left_parts = int(min(max(round(parts * share), 1), parts - 1))
        below = [*path, (col, True, edge)] if edge is not None else path
        above = [*path, (col, False, edge)] if edge is not None else path
        split(rows[left], left_parts, below)
        split(rows[~left], parts - left_parts, above)

    split(np.arange(len(keys)), b, [])
    return group, paths


#: a boundary may move by this share of the smaller of its two buckets to land on a rounder cut
ROUNDING_SLACK = 0.05


def _below(cum: np.ndarray, p: int) -> float:
    """The records before boundary ``p`` (``cum``: cumulative counts of the distinct values)."""
    return float(cum[p - 1]) if p > 0 else 0.0


def _rounder_boundary(
    distinct: np.ndarray, cum: np.ndarray, pos: int, start: int, stop: int, scale: Scale
) -> tuple[int, float] | None:
    """The boundary near ``pos`` with the roundest cut, and that cut; None when no boundary
    between ``start`` and ``stop`` has a cut that is public (the two buckets then merge).

    ``distinct`` are sorted values with cumulative counts ``cum``; the boundary at ``pos``
    puts ``distinct[:pos]`` below it, between the neighbouring boundaries ``start`` and
    ``stop``.  In dense data the gap at the balanced boundary is a cent wide and its cut
    would be (almost) a person's value, so the boundary may move while the records it moves
    stay within :data:`ROUNDING_SLACK` of the smaller bucket: the cut is then the coarsest
    round number anywhere in that window, and the boundary goes where it falls.  Ties stay
    whole (the boundary is still between two distinct values).

    A cut is public (:func:`_public_cut`) unless it is printed at the column's own precision
    (a cent, a day) beside a value that fewer than :data:`MIN_BUCKET` records hold: the gap
    held no rounder number, so the label would tell that value.  Small buckets leave a
    window of no records, so the window then widens, doubling, as far as both buckets keep
    :data:`MIN_BUCKET` records.
    """

    lower = _below(cum, pos) - _below(cum, start)  # the records of the two buckets
    upper = _below(cum, stop) - _below(cum, pos)
    slack = ROUNDING_SLACK * min(lower, upper)
    while True:
        found = _window_cut(distinct, cum, pos, start, stop, slack, scale)
        if found is not None and _public_cut(distinct, cum, *found, scale):
            return found
        if slack >= max(lower, upper) - MIN_BUCKET:  # no room left to widen into
            return None
        slack = max(2.0 * slack, 1.0)


def _window_cut(
    distinct: np.ndarray,
    cum: np.ndarray,
    pos: int,
    start: int,
    stop: int,
    slack: float,
    scale: Scale,
) -> tuple[int, float] | None:
    """The roundest cut of the boundaries within ``slack`` records of ``pos`` (none that
    leaves a bucket fewer than :data:`MIN_BUCKET` records, unless ``pos`` itself does), and
    the boundary it puts."""

    low = max(_below(cum, pos) - slack, _below(cum, start) + MIN_BUCKET)
    high = min(_below(cum, pos) + slack, _below(cum, stop) - MIN_BUCKET)
    first = int(np.searchsorted(cum, low, side="left")) + 1
    last = int(np.searchsorted(cum, high, side="right"))
    first, last = max(first, start + 1, 1), min(last, stop - 1)
    if first > pos or last < pos:  # no room: keep the balanced boundary
        first = last = pos
    if first > last:
        return None
    cut = scale.cut(distinct[first - 1], distinct[last])
    return int(np.searchsorted(distinct, cut, side="left")), cut


def _public_cut(distinct: np.ndarray, cum: np.ndarray, pos: int, cut: float, scale: Scale) -> bool:
    """Does the cut at boundary ``pos`` tell no value that fewer than :data:`MIN_BUCKET`
    records hold?  A cut coarser than the column's precision (50 among whole numbers, the
    first of a month) tells its neighbours only to within its step; one at the precision
    itself (a cent, a day) tells both, and so must lie between values held by many."""
    if pos <= 0 or pos >= len(distinct) or not scale.pins(cut):
        return True
    held = np.diff(cum[pos - 2 : pos + 1] if pos >= 2 else np.r_[0.0, cum[: pos + 1]])
    return bool(held.min() >= MIN_BUCKET)
