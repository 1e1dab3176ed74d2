"""Local improvement of a partition: move, exchange and dissolve, keeping class bounds.

MDAV's fixed class size is its weakness: a natural cluster of 4 records is cut into 3 + 1 when
k = 3.  Classes may hold between k and 2k − 1 records, and a Hartigan-style pass moves single
records to a neighbouring class, or exchanges two records between classes, whenever that
lowers the within-class SSE; a class that only costs SSE can be dissolved into its
neighbours.  With :class:`ClassBounds` every change must also keep each class's count of
every bucket within the t-closeness bounds, which is how :mod:`engine.release.partition.blocks`
uses it.
Each accepted change lowers the SSE, so the pass ends.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from engine.i18n import _
from engine.progress import NO_TASK, Task

if TYPE_CHECKING:
    from scipy.spatial import cKDTree


@dataclass(frozen=True)
class ClassBounds:
    """Limits on the rows of each group a class may hold, for constrained improvement.

    A class of m rows may hold between ``low[m, j]`` and ``high[m, j]`` rows of group j
    (``codes`` gives every row's group).  :mod:`engine.release.partition.blocks` builds these from
    the t-closeness bounds ceil(m·p_j/t) ≤ n_j ≤ floor(m·p_j·t); sizes beyond the table's last
    row are not allowed.
    """

    codes: np.ndarray
    low: np.ndarray
    high: np.ndarray
    #: optional fence of every row (e.g. its household group): rows move and exchange only
    #: between classes of one fence, so classes formed inside fences stay inside them
    fence: np.ndarray | None = None


def improve_classes(
    X: np.ndarray,
    labels: np.ndarray,
    k: int,
    *,
    bounds: ClassBounds | None = None,
    max_rounds: int = 100,
    n_near: int = 4,
    swap_slack: float = np.inf,
    tol: float = 0.0,
    task: Task = NO_TASK,
) -> np.ndarray:
    """Lower the SSE of a partition by moving, exchanging and dissolving classes' rows.

    Each round looks at the rows of the classes that changed in the previous round and of
    their neighbouring classes (all rows in the first round) and evaluates, for each row,

    * moving it to one of the ``n_near`` classes with the nearest centroids (allowed while the
      source keeps more than k rows and the target stays below 2k),
    * exchanging it with the best member of such a class (only classes whose centroid is
      within ``swap_slack`` times the distance to its own, a pruning for large files),
    * and for each class, dissolving it: every member joins its nearest other class.

    It then applies the best changes of which no two touch the same class, whose gains are
    exact, and then goes down the changes left out, best first, judging each again against
    the classes as they now are and making it when it still gains (:meth:`_Classes.apply_checked`;
    at most one per :data:`RECHECK_SHARE` rows looked at): one change per class and round held
    classes of hundreds to a few dozen changes a round.  Every change lowers the SSE, so the
    pass ends; rounds end when nothing gains.  The state is updated incrementally, so a round
    costs in proportion to the rows looked at.

    With ``bounds`` every change must keep both classes within them (and at least k rows);
    classes are then not dissolved, and the size limit is the largest the table allows.  With
    a ``fence`` in the bounds, rows move and exchange only between classes of one fence, in
    the round and in the checked pass.
    """
    labels = relabel(labels)
    cap = 2 * k - 1 if bounds is None else len(bounds.low) - 1
    state = _Classes(X, labels, cap=max(cap, int(np.bincount(labels).max())), bounds=bounds)
    n = X.shape[0]
    m = state.m
    if m < 2:
        return state.labels
    n_near = min(m, n_near + 1)  # the nearest centroid is usually the row's own
    near = np.zeros((n, n_near), dtype=np.int64)
    queried = np.zeros(n, dtype=bool)
    active = np.arange(n)
    tree_ids, tree = _centroid_tree(state)
    sse_before = state.sse()
    for rnd in range(max_rounds):
        task.step(1.0 - len(active) / n, _("Improving classes"))
        if rnd % 8 == 7:
            tree_ids, tree = _centroid_tree(state)
            queried[:] = False
        _ask_tree(tree_ids, tree, X, active, near, queried)
        moves, swaps = _gaining_changes(
            state, X, active, near[active], k, swap_slack=swap_slack, bounded=bounds is not None
        )
        # dissolving whole classes first (fixed-size MDAV cuts natural groups)
        touched = np.zeros(m, dtype=bool)
        if bounds is None:
            dissolved = state.dissolve(np.unique(state.labels[active]), near, touched)
        else:
            dissolved = 0
        if len(moves.rows) + len(swaps.rows) == 0 and not dissolved:
            break
        rows, dst, partner = _best_first(moves, swaps)
        limit = max(4 * m, len(active) // RECHECK_SHARE)
        touched = _make_changes(state, rows, dst, partner, touched, k, limit)
        sse = state.sse()
        if sse_before - sse <= tol * sse:
            break  # the last round gained next to nothing: stop polishing
        sse_before = sse
        # next round: rows of changed classes and of the classes around them
        around = touched | touched[state.class_near(tree_ids, tree, n_near)].any(axis=1)
        active = state.rows_of(np.flatnonzero(around))
    return relabel(state.labels)


def _ask_tree(
    tree_ids: np.ndarray,
    tree: cKDTree,
    X: np.ndarray,
    active: np.ndarray,
    near: np.ndarray,
    queried: np.ndarray,
) -> None:
    """Fill in ``near`` the candidate classes (nearest centroids) of the ``active`` rows not
    ``queried`` since the tree was built, and mark them queried: a row's candidates depend
    only on the tree, so it is asked once per tree."""
    ask = active[~queried[active]]
    if len(ask):
        n_near = near.shape[1]
        found = tree.query(X[ask], k=n_near)[1].reshape(len(ask), n_near)
        # fewer live classes than candidates (classes dissolved since ``near`` was sized):
        # the missing ones (index len(tree_ids)) repeat the nearest
        found = np.where(found < len(tree_ids), found, found[:, :1])
        near[ask] = tree_ids[found]
        queried[ask] = True


def _gaining_changes(
    state: _Classes,
    X: np.ndarray,
    active: np.ndarray,
    near_a: np.ndarray,
    k: int,
    *,
    swap_slack: float,
    bounded: bool,
) -> tuple[_Changes, _Changes]:
    """The moves and the exchanges of the ``active`` rows to their candidate classes
    ``near_a`` that would lower the SSE, each judged against the classes as they are."""
    own = state.labels[active]
    own_d, cand_d, valid = _distances(state, X[active], own, near_a, state.centroids())
    moves = _gaining_moves(
        state, active, own, own_d, near_a, cand_d, valid, k, moves_bounded=bounded
    )
    pairs = valid if np.isinf(swap_slack) else valid & (cand_d < swap_slack * own_d[:, None])
    return moves, _gaining_swaps(state, active, near_a, pairs)


def _distances(
    state: _Classes, Xa: np.ndarray, own: np.ndarray, near_a: np.ndarray, centroids: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For the rows ``Xa`` (in classes ``own``): the squared distance to their own class's
    centroid, to each candidate class's (``near_a``), and which candidates a row may go to
    (another, non-empty class; of its own fence when there are fences)."""
    sizes = state.sizes
    own_d = ((Xa - centroids[own]) ** 2).sum(axis=1)
    cand_d = np.empty(near_a.shape)
    for q in range(near_a.shape[1]):  # one neighbour at a time: small temporaries
        cand_d[:, q] = ((Xa - centroids[near_a[:, q]]) ** 2).sum(axis=1)
    nb = sizes[near_a].astype(np.float64)
    valid = (near_a != own[:, None]) & (nb > 0)
    if state.fence is not None:  # moves and exchanges only between classes of one fence
        valid &= state.fence[near_a] == state.fence[own][:, None]
    return own_d, cand_d, valid


class _Changes(NamedTuple):
    """Changes that gain: the row that moves, its target class, the row it is exchanged
    with (−1: a move), and the SSE the change saves."""

    rows: np.ndarray
    dst: np.ndarray
    partner: np.ndarray
    gain: np.ndarray


def _gaining_moves(
    state: _Classes,
    active: np.ndarray,
    own: np.ndarray,
    own_d: np.ndarray,
    near_a: np.ndarray,
    cand_d: np.ndarray,
    valid: np.ndarray,
    k: int,
    *,
    moves_bounded: bool,
) -> _Changes:
    """The single moves that gain, each ``active`` row's best.  The gain is the SSE saved in
    the source less the SSE added in the target; a source keeps more than k rows, a target
    stays below the cap (and, ``moves_bounded``, both stay within the class bounds)."""
    sizes = state.sizes
    nb = sizes[near_a].astype(np.float64)
    na = sizes[own].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        remove = np.where(na > k, na / (na - 1) * own_d, -np.inf)
    valid_move = valid if not moves_bounded else valid & state.move_allowed(active, near_a)
    add = np.where(valid_move & (nb < state.cap), nb / (nb + 1) * cand_d, np.inf)
    best_j = np.argmin(add, axis=1)
    move_gain = remove - add[np.arange(len(active)), best_j]
    movers = np.flatnonzero(move_gain > state.eps)
    return _Changes(
        active[movers], near_a[movers, best_j[movers]], np.full(len(movers), -1), move_gain[movers]
    )


def _gaining_swaps(
    state: _Classes, active: np.ndarray, near_a: np.ndarray, pairs: np.ndarray
) -> _Changes:
    """The exchanges that gain: each ``active`` row with the best member of every candidate
    class ``pairs`` allows."""
    pi, pq = np.nonzero(pairs)
    pb = near_a[pi, pq]
    swap_gain, swap_row = state.best_swaps(active[pi], pb)
    swappers = np.flatnonzero(swap_gain > state.eps)
    return _Changes(active[pi[swappers]], pb[swappers], swap_row[swappers], swap_gain[swappers])


def _best_first(moves: _Changes, swaps: _Changes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, target classes, partners) of the moves and exchanges, the largest gain first
    (equal gains: moves first, then in row order)."""
    gains = np.concatenate([moves.gain, swaps.gain])
    order = np.argsort(-gains, kind="stable")
    rows = np.concatenate([moves.rows, swaps.rows])[order]
    dst = np.concatenate([moves.dst, swaps.dst])[order]
    return rows, dst, np.concatenate([moves.partner, swaps.partner])[order]


def _make_changes(
    state: _Classes,
    rows: np.ndarray,
    dst: np.ndarray,
    partner: np.ndarray,
    touched: np.ndarray,
    k: int,
    limit: int,
) -> np.ndarray:
    """Make the changes (best first) of which no two touch one class; then judge the others
    again against the classes as they are now (at most ``limit``; one change per row) and
    make those that still gain.  Returns the classes touched."""
    src = state.labels[rows]
    keep, touched = _disjoint_changes(src, dst, touched)
    state.apply(rows[keep], dst[keep], partner[keep])
    rest = np.flatnonzero(~keep)[:limit]
    state.apply_checked(rows[rest], dst[rest], partner[rest], src[rest], k, touched)
    return touched


def _disjoint_changes(
    src: np.ndarray, dst: np.ndarray, touched: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Which of the changes (best first) to make now: greedily, those that touch classes no
    change before them touched (nor ``touched``); and the classes touched then."""
    keep = np.zeros(len(src), dtype=bool)
    done = bytearray(touched.tobytes())
    for c, (a, b) in enumerate(zip(src.tolist(), dst.tolist(), strict=True)):
        if not (done[a] or done[b]):
            done[a] = done[b] = 1
            keep[c] = True
    return keep, np.frombuffer(bytes(done), dtype=bool).copy()


class _Classes:
    """A partition with its per-class sizes, sums and member lists, updated in place."""

    def __init__(
        self, X: np.ndarray, labels: np.ndarray, *, cap: int, bounds: ClassBounds | None = None
    ) -> None:
        self.X = X
        self.sqnorm = (X * X).sum(axis=1)
        #: gains below this are rounding noise, not improvements (they could cycle)
        self.eps = 1e-9 * max(float(self.sqnorm.mean()), 1e-300)
        self.labels = labels.copy()
        self.m = m = int(labels.max()) + 1
        self.sizes = np.bincount(labels, minlength=m)
        self.cap = cap
        self.sums = np.stack(
            [np.bincount(labels, weights=X[:, j], minlength=m) for j in range(X.shape[1])], 1
        )
        self.sq = np.bincount(labels, weights=self.sqnorm, minlength=m)
        width = max(cap, int(self.sizes.max()))
        order = np.argsort(labels, kind="stable")
        starts = np.concatenate([[0], np.cumsum(self.sizes)[:-1]])
        self.slot = np.empty(len(labels), dtype=np.int64)
        self.slot[order] = np.arange(len(labels)) - starts[labels[order]]
        self.members = np.full((m, width), -1, dtype=np.int64)
        self.members[labels, self.slot] = np.arange(len(labels))
        self._near: np.ndarray | None = None
        self._near_tree: object | None = None
        self.bounds = bounds
        if bounds is not None:
            self.codes = np.asarray(bounds.codes, dtype=np.int64)
            n_groups = bounds.low.shape[1]
            self.counts = np.zeros((m, n_groups), dtype=np.int64)
            np.add.at(self.counts, (labels, self.codes), 1)
        #: the fence of every class (classes never straddle fences), None without fences
        self.fence: np.ndarray | None = None
        if bounds is not None and bounds.fence is not None:
            self.fence = np.zeros(m, dtype=np.int64)
            self.fence[labels] = np.asarray(bounds.fence, dtype=np.int64)

    def sse(self) -> float:
        """Within-class sum of squares of the whole partition."""
        live = self.sizes > 0
        return float((self.sq[live] - (self.sums[live] ** 2).sum(axis=1) / self.sizes[live]).sum())

    def centroids(self) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            c = self.sums / self.sizes[:, None]
        c[self.sizes == 0] = 1e100  # dissolved classes: far from everything
        return c

    def rows_of(self, classes: np.ndarray) -> np.ndarray:
        mem = self.members[classes].ravel()
        return np.sort(mem[mem >= 0])

    def class_near(self, tree_ids: np.ndarray, tree: cKDTree, n_near: int) -> np.ndarray:
        """The classes nearest to each class (by the centroids the tree was built on)."""
        if self._near is None or self._near_tree is not tree:
            pts = tree.data
            q = tree.query(pts, k=min(len(tree_ids), n_near))[1].reshape(len(tree_ids), -1)
            near = np.repeat(np.arange(self.m)[:, None], q.shape[1], axis=1)
            near[tree_ids] = tree_ids[q]
            self._near, self._near_tree = near, tree
        return self._near

    def move_allowed(self, rows: np.ndarray, targets: np.ndarray) -> np.ndarray:
        """(len(rows), n_targets): whether moving each row to each target keeps the bounds.

        Whether a class may lose or gain one row of group g depends on the class and g only:
        two (classes × groups) tables, then one look-up per row and target.
        """
        lose = self._may_change(-1)
        gain = self._may_change(+1)
        code = self.codes[rows]
        src_ok = lose[self.labels[rows], code]
        return src_ok[:, None] & gain[targets, code[:, None]]

    def _may_change(self, step: int) -> np.ndarray:
        """(classes × groups): whether each class, with one row of each group more (``step``
        +1) or fewer (−1), still meets the bounds at its new size (sizes beyond the table:
        no)."""
        b = self.bounds
        assert b is not None
        top = len(b.low) - 1
        size = self.sizes + step
        fits = (size >= 0) & (size <= top)
        size = np.clip(size, 0, top)
        low, high = b.low[size], b.high[size]
        inside = (self.counts >= low) & (self.counts <= high)
        outside = (~inside).sum(axis=1, keepdims=True)  # groups already beyond the bounds
        changed = self.counts + step
        changed_in = (changed >= low) & (changed <= high)
        # every other group stays inside, and the changed one lands inside
        return (outside - ~inside == 0) & changed_in & fits[:, None]

    def best_swaps(
        self, pi: np.ndarray, pb: np.ndarray, cells: int = 2_000_000
    ) -> tuple[np.ndarray, np.ndarray]:
        """For each pair (row pi, class pb): the best member of pb to exchange with, and the gain.

        SSE of a class = Σ|v|² − |Σv|²/size; an exchange keeps both sizes and the total Σ|v|²,
        so its gain is the increase of |Σv|²/size summed over the two classes.  Classes of at
        least :data:`SWAP_CLASS_WIDTH` members are searched class by class, one matrix
        product for all the rows that look at it; smaller ones in chunks of about ``cells``
        coordinates gathered, so memory stays flat however wide the QIs (a state QI is 51
        one-hot columns) and however large the classes.  Classes larger than
        :data:`SWAP_EXACT_WIDTH` are searched among a few candidates
        (:meth:`_swap_candidates`), else the cost would grow with the square of the class
        size (t close to 1 forces classes of hundreds).
        """
        sizes = self.sizes
        gain = np.full(len(pi), -np.inf)
        partner = np.full(len(pi), -1, dtype=np.int64)
        if len(pi) == 0:
            return gain, partner
        with np.errstate(divide="ignore", invalid="ignore"):
            sq = (self.sums * self.sums).sum(axis=1) / sizes
        width = int(sizes[pb].max(initial=1))
        if width > SWAP_EXACT_WIDTH:
            cand, pair_of = self._swap_candidates(self.labels[pi], pb)
            return self._swap_by_group(pi, pb, sq, pair_of, cand)
        if width >= SWAP_CLASS_WIDTH:
            return self._swap_by_group(pi, pb, sq, pb, self.members, self.sizes)
        chunk = max(1, cells // (width * max(self.X.shape[1], 1)))
        for lo in range(0, len(pi), chunk):
            i = pi[lo : lo + chunk]
            b = pb[lo : lo + chunk]
            mem = self.members[b][:, :width]
            g, j = self._swap_gains(i, self.labels[i], b, mem, sq)
            gain[lo : lo + chunk] = g
            partner[lo : lo + chunk] = mem[np.arange(len(i)), j]
        return gain, partner

    def _pair_terms(
        self, i: np.ndarray, a: np.ndarray, b: np.ndarray, sq: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(const, w, c) of exchanging row i (class a) with a member y of class b:
        gain(y) = const + y·w + |y|²·c, expanding |S_a − x + y|²/|a| + |S_b + x − y|²/|b|."""
        x = self.X[i]
        na, nb = self.sizes[a].astype(np.float64), self.sizes[b].astype(np.float64)
        ra, rb = self.sums[a] - x, self.sums[b] + x
        const = (ra * ra).sum(axis=1) / na + (rb * rb).sum(axis=1) / nb - sq[a] - sq[b]
        w = 2.0 * (ra / na[:, None] - rb / nb[:, None])
        return const, w, 1.0 / na + 1.0 / nb

    def _swap_gains(
        self, i: np.ndarray, a: np.ndarray, b: np.ndarray, mem: np.ndarray, sq: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Exact gain of exchanging row i (class a) with each of ``mem`` (members of b, −1 =
        none): the best gain and its column."""
        const, w, c = self._pair_terms(i, a, b, sq)
        safe = np.maximum(mem, 0)
        g = np.einsum("cwd,cd->cw", self.X[safe], w)
        g += self.sqnorm[safe] * c[:, None]
        g += const[:, None]
        g[mem < 0] = -np.inf
        if self.bounds is not None:
            g[~self._swap_allowed(i, a, b, mem)] = -np.inf
        j = np.argmax(g, axis=1)
        return g[np.arange(len(i)), j], j

    def _swap_by_group(
        self,
        pi: np.ndarray,
        pb: np.ndarray,
        sq: np.ndarray,
        group: np.ndarray,
        members: np.ndarray,
        counts: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`best_swaps` group by group: the rows whose partners come from one list
        ``members[g]`` (a class's members, or the candidates in it; −1 padded, or the first
        ``counts[g]``) are scored against it in one (rows × d) @ (d × members) product.
        Everything that depends on a row alone is computed once for all rows first."""
        gain = np.full(len(pi), -np.inf)
        partner = np.full(len(pi), -1, dtype=np.int64)
        a_all = self.labels[pi]
        const_all, w_all, c_all = self._pair_terms(pi, a_all, pb, sq)
        bounded = self.bounds is not None
        if bounded:
            # an exchange of row i (class a, bucket ci) with y (class b, bucket cp) keeps the
            # bounds when ci = cp, or when a may lose a ci and gain a cp and b the reverse
            bd = self.bounds
            ci_all = self.codes[pi]
            ma, mb = self.sizes[a_all], self.sizes[pb]
            ca = self.counts[a_all]
            keeps_i = (ca[np.arange(len(pi)), ci_all] - 1 >= bd.low[ma, ci_all]) & (
                self.counts[pb, ci_all] + 1 <= bd.high[mb, ci_all]
            )
            a_gains = ca + 1 <= bd.high[ma]  # (rows × buckets): a may take one more of each
            b_loses = self.counts - 1 >= bd.low[self.sizes]  # (classes × buckets)
        order = np.argsort(group, kind="stable")
        sorted_groups = group[order]
        cuts = np.flatnonzero(np.r_[True, sorted_groups[1:] != sorted_groups[:-1], True])
        for lo, hi in itertools.pairwise(cuts.tolist()):
            rows = order[lo:hi]
            g_id = int(sorted_groups[lo])
            mem = members[g_id]
            mem = mem[: int(counts[g_id])] if counts is not None else mem[mem >= 0]
            if len(mem) == 0:
                continue
            g = w_all[rows] @ self.X[mem].T
            g += self.sqnorm[mem][None, :] * c_all[rows, None]
            g += const_all[rows, None]
            if bounded:
                cp = self.codes[mem]
                allowed = (cp[None, :] == ci_all[rows, None]) | (
                    keeps_i[rows, None] & a_gains[rows][:, cp] & b_loses[pb[rows[0]], cp][None, :]
                )
                g[~allowed] = -np.inf
            j = np.argmax(g, axis=1)
            gain[rows] = g[np.arange(len(rows)), j]
            partner[rows] = mem[j]
        return gain, partner

    def _swap_candidates(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A few exchange partners in class b for the rows of class a, per class pair.

        With x in a and y in b the gain is 2·y·(μa − μb) + c·|y|² − 2c·x·y + const(x), with
        c = 1/|a| + 1/|b|: for large classes the terms that depend on x are small, so the best
        partners are the members of b that score highest on 2·y·(μa − μb) + c·|y|², the same
        for every row of a.  The best :data:`SWAP_CANDIDATES` of every bucket are kept (a
        partner of another bucket may break the class bounds).  Every exchange is still judged
        by its exact gain.  The scores of all the pairs into one class b are one matrix
        product.  Returns (candidates per distinct pair, −1 padded; pair of every row).
        """
        m = self.m
        pairs, pair_of = np.unique(a * m + b, return_inverse=True)
        pa, pb = pairs // m, pairs % m
        centroids = self.centroids()
        n_groups = self.bounds.low.shape[1] if self.bounds is not None else 1
        per = SWAP_CANDIDATES
        out = np.full((len(pairs), per * n_groups), -1, dtype=np.int64)
        order = np.argsort(pb, kind="stable")
        cuts = np.flatnonzero(np.r_[True, pb[order][1:] != pb[order][:-1], True])
        for lo, hi in itertools.pairwise(cuts.tolist()):
            rows = order[lo:hi]
            cb = int(pb[rows[0]])
            mem = self.members[cb, : int(self.sizes[cb])]
            c = 1.0 / self.sizes[pa[rows]] + 1.0 / self.sizes[cb]
            score = 2.0 * ((centroids[pa[rows]] - centroids[cb]) @ self.X[mem].T)
            score += self.sqnorm[mem][None, :] * c[:, None]
            codes = self.codes[mem] if self.bounds is not None else np.zeros(len(mem), int)
            for g in range(n_groups):
                in_group = np.flatnonzero(codes == g)
                h = min(per, len(in_group))
                if h == 0:
                    continue
                if h < len(in_group):
                    top = np.argpartition(-score[:, in_group], h - 1, axis=1)[:, :h]
                    picked = in_group[top]
                else:
                    picked = np.broadcast_to(in_group, (len(rows), h))
                out[rows, g * per : g * per + h] = mem[picked]
        return out, pair_of.ravel()

    def _swap_allowed(
        self, i: np.ndarray, a: np.ndarray, b: np.ndarray, mem: np.ndarray
    ) -> np.ndarray:
        """Whether exchanging row i (class a) with each member of class b keeps the bounds."""
        bd = self.bounds
        assert bd is not None
        ci = self.codes[i][:, None]  # (c, 1)
        cp = self.codes[np.maximum(mem, 0)]  # (c, width)
        ma, mb = self.sizes[a][:, None], self.sizes[b][:, None]
        ca, cb = self.counts[a], self.counts[b]  # (c, groups)
        rows = np.arange(len(i))[:, None]
        ok = (ca[rows, ci] - 1 >= bd.low[ma, ci]) & (cb[rows, ci] + 1 <= bd.high[mb, ci])
        ok = ok & (ca[rows, cp] + 1 <= bd.high[ma, cp]) & (cb[rows, cp] - 1 >= bd.low[mb, cp])
        return (cp == ci) | ok

    def apply_checked(
        self,
        rows: np.ndarray,
        dst: np.ndarray,
        partner: np.ndarray,
        src: np.ndarray,
        k: int,
        touched: np.ndarray,
    ) -> int:
        """Apply each move or exchange, in the given order, whose exact gain in the current
        state is still positive and which keeps the sizes and bounds; a row changes at most
        once.  Marks the classes changed in ``touched``; returns how many were made.

        The gains the round computed assumed that nothing else changed; after the first
        changes they are only a ranking, so every change is re-evaluated from the classes'
        sums as they are: |S_a − x (+ y)|²/|a'| + |S_b + x (− y)|²/|b'| − |S_a|²/|a| − |S_b|²/|b|.
        Every change made lowers the SSE, so the pass still ends.
        """
        X, sums, sizes, labels = self.X, self.sums, self.sizes, self.labels
        done = np.zeros(len(labels), dtype=bool)
        made = 0
        changes = zip(rows.tolist(), dst.tolist(), partner.tolist(), src.tolist(), strict=True)
        for i, b, y, a in changes:
            if done[i] or labels[i] != a or sizes[b] == 0 or a == b:
                continue
            if y >= 0 and (done[y] or labels[y] != b):
                continue
            na, nb = int(sizes[a]), int(sizes[b])
            x = X[i]
            sa, sb = sums[a], sums[b]
            before = sa @ sa / na + sb @ sb / nb
            if y < 0:
                if not self._move_keeps(i, a, b, k):
                    continue
                va, vb = sa - x, sb + x
                gain = va @ va / (na - 1) + vb @ vb / (nb + 1) - before
            else:
                if not self._swap_keeps(i, y, a, b):
                    continue
                diff = X[y] - x
                va, vb = sa + diff, sb - diff
                gain = va @ va / na + vb @ vb / nb - before
            if gain <= self.eps:
                continue
            self.apply(np.array([i]), np.array([b]), np.array([y]))
            done[i] = True
            if y >= 0:
                done[y] = True
            touched[a] = touched[b] = True
            made += 1
        return made

    def same_fence(self, a: int, b: int) -> bool:
        """Whether classes a and b lie in one fence (always, without fences)."""
        return self.fence is None or bool(self.fence[a] == self.fence[b])

    def _move_keeps(self, i: int, a: int, b: int, k: int) -> bool:
        """Whether moving row i from class a to b keeps both classes' sizes, bounds and fence."""
        na, nb = int(self.sizes[a]), int(self.sizes[b])
        if na <= k or nb >= self.cap or not self.same_fence(a, b):
            return False
        if self.bounds is None:
            return True
        bd = self.bounds
        top = len(bd.low) - 1
        if nb + 1 > top:
            return False
        c = self.codes[i]
        left = self.counts[a].copy()
        left[c] -= 1
        got = self.counts[b].copy()
        got[c] += 1
        return bool(
            (left >= bd.low[na - 1]).all()
            and (left <= bd.high[na - 1]).all()
            and (got >= bd.low[nb + 1]).all()
            and (got <= bd.high[nb + 1]).all()
        )

    def _swap_keeps(self, i: int, y: int, a: int, b: int) -> bool:
        """Whether exchanging row i (class a) with row y (class b) keeps both classes' bounds
        and fence."""
        if self.bounds is None:
            return True
        if not self.same_fence(a, b):
            return False
        ci, cy = self.codes[i], self.codes[y]
        if ci == cy:
            return True
        bd = self.bounds
        na, nb = int(self.sizes[a]), int(self.sizes[b])
        ca, cb = self.counts[a], self.counts[b]
        return bool(
            ca[ci] - 1 >= bd.low[na, ci]
            and ca[cy] + 1 <= bd.high[na, cy]
            and cb[cy] - 1 >= bd.low[nb, cy]
            and cb[ci] + 1 <= bd.high[nb, ci]
        )

    def apply(self, rows: np.ndarray, dst: np.ndarray, partner: np.ndarray) -> None:
        """Apply moves (partner −1) and exchanges; no two of them may share a class."""
        X = self.X
        src = self.labels[rows]
        swap = partner >= 0
        # exchanges: the two rows trade places (slots) in the member lists
        i, p, a, b = rows[swap], partner[swap], src[swap], dst[swap]
        si, sp = self.slot[i], self.slot[p]
        self.members[a, si] = p
        self.members[b, sp] = i
        self.slot[i], self.slot[p] = sp, si
        self.labels[i], self.labels[p] = b, a
        diff = X[p] - X[i]
        self.sums[a] += diff
        self.sums[b] -= diff
        dsq = self.sqnorm[p] - self.sqnorm[i]
        self.sq[a] += dsq
        self.sq[b] -= dsq
        if self.bounds is not None:
            ci, cp = self.codes[i], self.codes[p]
            self.counts[a, ci] -= 1
            self.counts[a, cp] += 1
            self.counts[b, cp] -= 1
            self.counts[b, ci] += 1
        self._move(rows[~swap], src[~swap], dst[~swap])

    def _move(self, rows: np.ndarray, src: np.ndarray, dst: np.ndarray) -> None:
        """Move each row to its class in ``dst``; no class may appear twice in src ∪ dst."""
        s = self.slot[rows]
        end = self.sizes[src] - 1
        last = self.members[src, end]
        self.members[src, s] = last
        self.slot[last] = s
        self.members[src, end] = -1
        self.members[dst, self.sizes[dst]] = rows
        self.slot[rows] = self.sizes[dst]
        self.sizes[src] -= 1
        self.sizes[dst] += 1
        self.labels[rows] = dst
        self.sums[src] -= self.X[rows]
        self.sums[dst] += self.X[rows]
        self.sq[src] -= self.sqnorm[rows]
        self.sq[dst] += self.sqnorm[rows]
        if self.bounds is not None:
            self.counts[src, self.codes[rows]] -= 1
            self.counts[dst, self.codes[rows]] += 1

    def dissolve(self, classes: np.ndarray, near: np.ndarray, touched: np.ndarray) -> int:
        """Dissolve classes whose members are better off in neighbouring classes.

        Every member goes to its nearest other class; the members bound for the same class
        join it as a group, whose exact SSE cost is SSE(group) + n_b·n_g/(n_b+n_g)·|c_b − c_g|².
        A class is dissolved when that total is below its own SSE and every target stays below
        2k.  The classes involved are marked in ``touched``.  Returns how many were dissolved.
        """
        X, sizes, m = self.X, self.sizes, self.m
        classes = classes[sizes[classes] > 0]
        rows = self.rows_of(classes)
        if len(rows) == 0:
            return 0
        centroids = self.centroids()
        own = self.labels[rows]
        Xr = X[rows]
        nr = near[rows]
        cd = ((Xr[:, None, :] - centroids[nr]) ** 2).sum(axis=2)
        cd[(nr == own[:, None]) | (sizes[nr] == 0)] = np.inf
        target = nr[np.arange(len(rows)), np.argmin(cd, axis=1)]
        groups, inv = np.unique(own * m + target, return_inverse=True)
        g_own, g_tgt = groups // m, groups % m
        g_n = np.bincount(inv).astype(np.float64)
        g_sum = np.stack([np.bincount(inv, weights=Xr[:, j]) for j in range(X.shape[1])], 1)
        g_sse = np.bincount(inv, weights=self.sqnorm[rows]) - (g_sum * g_sum).sum(axis=1) / g_n
        nb = sizes[g_tgt].astype(np.float64)
        gap = ((centroids[g_tgt] - g_sum / g_n[:, None]) ** 2).sum(axis=1)
        delta = g_sse + nb * g_n / (nb + g_n) * gap
        delta[(nb + g_n > self.cap) | (nb == 0) | (g_tgt == g_own) | ~np.isfinite(delta)] = np.inf
        c_sse = self.sq[classes] - (self.sums[classes] ** 2).sum(axis=1) / sizes[classes]
        cost = np.bincount(g_own, weights=delta, minlength=m)[classes]
        gain = c_sse - cost
        win = np.flatnonzero(gain > self.eps)
        if len(win) == 0:
            return 0
        winners = classes[win]
        # groups are sorted by (own, target); rows are sorted by own: slice both per class
        g_lo = np.searchsorted(g_own, winners)
        g_hi = np.searchsorted(g_own, winners, side="right")
        row_order = np.argsort(own, kind="stable")
        own_sorted = own[row_order]
        r_lo = np.searchsorted(own_sorted, winners)
        r_hi = np.searchsorted(own_sorted, winners, side="right")
        chosen: list[np.ndarray] = []
        for w in np.argsort(-gain[win], kind="stable").tolist():
            c = int(winners[w])
            targets = g_tgt[g_lo[w] : g_hi[w]]
            if touched[c] or touched[targets].any():
                continue
            touched[c] = True
            touched[targets] = True
            chosen.append(row_order[r_lo[w] : r_hi[w]])
        if not chosen:
            return 0
        # move the members rank by rank: each batch has one row per dissolved class, so no
        # class appears twice in a batch (the targets of different dissolutions are distinct)
        sel = np.concatenate(chosen)
        rank = np.concatenate([np.arange(len(c)) for c in chosen])
        for r in range(int(rank.max()) + 1):
            batch = sel[rank == r]
            self._move(rows[batch], own[batch], target[batch])
        return len(chosen)


#: a round judges again at most one left-out change per this many rows it looked at (and at
#: least four per class), best first: a Python loop, kept to a share of the round's cost
RECHECK_SHARE = 8
#: classes up to this size are searched whole for an exchange partner; larger ones among
#: SWAP_CANDIDATES candidates per bucket (see _Classes._swap_candidates)
SWAP_EXACT_WIDTH = 64
SWAP_CANDIDATES = 8
#: classes of at least this size are searched class by class (one matrix product each)
SWAP_CLASS_WIDTH = 16


def _centroid_tree(state: _Classes) -> tuple[np.ndarray, cKDTree]:
    """A k-d tree over the centroids of the non-empty classes, and their class numbers."""
    from scipy.spatial import cKDTree  # here: a million records never improve, never load it

    ids = np.flatnonzero(state.sizes > 0)
    return ids, cKDTree(state.centroids()[ids])


def relabel(labels: np.ndarray) -> np.ndarray:
    """Labels renumbered 0..m−1 in order of first appearance."""
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    return rank[inverse].astype(np.int64)
