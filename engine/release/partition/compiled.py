"""The compiled kernels of the block partition (numba): the same results as its numpy code.

**Bucket-capped MDAV in every block** (:func:`label_blocks`).  The rule is the one
:func:`engine.release.partition.capped_mdav` runs in numpy over all blocks at once; here it runs
block by block in compiled loops, and gives the same classes bit for bit.  Both follow one
arithmetic, term by term:

* squared distances are Σ_c (x_c − r_c)², summed over the coordinates in order (never the
  expanded |x|² − 2x·r + |r|², whose rounding depends on how a BLAS orders its sums);
* a block's running sum of coordinates starts from 0 and adds its records in row order, and
  takes a class's records off bucket by bucket, nearest first;
* ties are broken by fixed keys: the seed is the farthest record, then the lowest bucket, then
  the first row; a bucket's nearest records are ordered by (distance, row); the optional
  records of a class by (distance, bucket, rank in its bucket).

**The k-d split** (:func:`node_sums`, :func:`lower_halves`): the per-node sums a spread is
made of, added in row order like numpy's, and each (node, bucket)'s lower half found by a
selection on distinct integer keys instead of a sort of the whole file at every level.

numba compiles without fast-math, so no sum is reordered or fused.  Only
:mod:`engine.release.partition.jit` imports this module, and only when numba is installed (wheels
exist for Windows, Linux and Apple-silicon macOS; Intel Macs run the numpy path).  The kernels
are defined without a cache: :func:`engine.release.partition.jit.load_kernels` gives them one
in the user's cache folder (never this package's folder), so a user compiles them once per
version of tclose, and where no folder can be written they still compile, in every process.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(nogil=True)
def _limits(remaining, n_left, classes_left, low_tab, up_tab, k, lo, hi):  # pragma: no cover
    """(lo, hi) per bucket into ``lo``/``hi`` and the size m of the next class; 0 when none.

    :func:`engine.release.partition.blocks._limits` for one block, with L(m), U(m) read from tables.
    """
    n_b = len(remaining)
    c = max(classes_left, 1)
    for attempt in range(2):
        m = n_left // c if attempt == 0 else -(-n_left // c)
        after = classes_left - 1
        rest = n_left - m
        a = max(after, 1)
        up_rest_m = rest // a
        low_rest_m = -(-rest // a)
        ok = (rest == 0) if after == 0 else (rest // a >= k)
        s_lo = 0
        s_hi = 0
        for j in range(n_b):
            if after == 0:
                lj = max(low_tab[m, j], remaining[j])
                hj = min(up_tab[m, j], remaining[j])
            else:
                lj = max(low_tab[m, j], remaining[j] - a * up_tab[up_rest_m, j])
                hj = min(up_tab[m, j], remaining[j] - a * low_tab[low_rest_m, j])
            lo[j] = lj
            hi[j] = hj
            if lj > hj:
                ok = False
            s_lo += lj
            s_hi += hj
        if ok and s_lo <= m and s_hi >= m:
            return m
    return 0


@numba.njit(nogil=True)
def mdav_blocks(
    X, codes, rows, starts, classes_left0, label_first, low_tab, up_tab, k, labels
):  # pragma: no cover
    """Label the records of every block ``rows[starts[i]:starts[i + 1]]`` (module doc).

    ``rows`` lists every block's records in row order; ``classes_left0[i]`` classes of the
    layout are formed in block i, numbered from ``label_first[i]``; ``low_tab[m, j]``,
    ``up_tab[m, j]`` are the bucket bounds of a class of m records.  Returns 0, or 1 when a
    block found no valid class (not reached: the reserve invariant).
    """
    d = X.shape[1]
    n_b = low_tab.shape[1]
    width = 0
    for i in range(len(starts) - 1):
        width = max(width, starts[i + 1] - starts[i])
    Z = np.empty((d, width))
    code = np.empty(width, dtype=np.int64)
    rec = np.empty(width, dtype=np.int64)
    alive = np.empty(width, dtype=np.bool_)
    dist = np.empty(width)
    total = np.empty(d)
    ref = np.empty(d)
    seed = np.zeros(d)
    remaining = np.empty(n_b, dtype=np.int64)
    lo = np.empty(n_b, dtype=np.int64)
    hi = np.empty(n_b, dtype=np.int64)
    top_d = np.empty((n_b, width))
    top_i = np.empty((n_b, width), dtype=np.int64)
    found = np.empty(n_b, dtype=np.int64)
    opt_d = np.empty(width)
    opt_j = np.empty(width, dtype=np.int64)
    opt_r = np.empty(width, dtype=np.int64)
    chosen = np.zeros((n_b, width), dtype=np.bool_)
    for blk in range(len(starts) - 1):
        w = _load_block(X, codes, rows, starts[blk], starts[blk + 1], Z, total, code, rec, alive,
                        remaining)  # fmt: skip
        n_left = w
        classes_left = classes_left0[blk]
        label = label_first[blk]
        step = 0
        while classes_left > 0:
            # the seed: farthest from the live centroid, or (every other step) from the last seed
            if step % 2 == 0:
                for c in range(d):
                    ref[c] = total[c] / max(n_left, 1)
            else:
                for c in range(d):
                    ref[c] = seed[c]
            _distances(Z, ref, w, dist)
            _farthest(Z, code, alive, dist, w, n_b, seed)
            m = _limits(remaining, n_left, classes_left, low_tab, up_tab, k, lo, hi)
            if m == 0:
                return 1
            _distances(Z, seed, w, dist)
            _nearest_per_bucket(dist, code, alive, hi, w, top_d, top_i, found)
            _choose(found, lo, m, top_d, opt_d, opt_j, opt_r, chosen)
            _take(found, chosen, top_i, rec, label, labels, alive, Z, total, remaining)
            n_left -= m
            label += 1
            classes_left -= 1
            step += 1
            if 2 * n_left < w:  # drop the records taken, keeping the others in row order
                w = _compact(Z, code, rec, alive, w)
    return 0


@numba.njit(nogil=True)
def _load_block(X, codes, rows, a0, a1, Z, total, code, rec, alive, remaining):  # pragma: no cover
    """Copy the records ``rows[a0:a1]`` of a block into the work arrays (coordinates by
    column in ``Z``, buckets, rows, all alive), with their coordinate sums (in row order)
    and bucket counts; returns how many."""
    d = X.shape[1]
    w = a1 - a0
    for c in range(d):
        total[c] = 0.0
    for j in range(len(remaining)):
        remaining[j] = 0
    for i in range(w):
        r = rows[a0 + i]
        for c in range(d):
            Z[c, i] = X[r, c]
            total[c] += X[r, c]
        code[i] = codes[r]
        rec[i] = r
        alive[i] = True
        remaining[codes[r]] += 1
    return w


@numba.njit(nogil=True)
def _farthest(Z, code, alive, dist, w, n_b, seed):  # pragma: no cover
    """Set ``seed`` to the live record of largest ``dist``: ties to the lowest bucket, then
    the first row (no live record: ``seed`` is left as it is)."""
    best = -np.inf
    best_j = n_b
    best_i = -1
    for i in range(w):
        if alive[i] and (dist[i] > best or (dist[i] == best and code[i] < best_j)):
            best = dist[i]
            best_j = code[i]
            best_i = i
    if best_i >= 0:
        for c in range(Z.shape[0]):
            seed[c] = Z[c, best_i]


@numba.njit(nogil=True)
def _nearest_per_bucket(dist, code, alive, hi, w, top_d, top_i, found):  # pragma: no cover
    """Every bucket j's hi_j nearest live records by (distance, row), nearest first: their
    distances in ``top_d[j]``, positions in ``top_i[j]``, how many in ``found[j]``."""
    for j in range(len(found)):
        found[j] = 0
    for i in range(w):
        if not alive[i]:
            continue
        j = code[i]
        h = hi[j]
        f = found[j]
        if h == 0 or (f == h and dist[i] >= top_d[j, h - 1]):
            continue
        p = f if f < h else h - 1
        while p > 0 and top_d[j, p - 1] > dist[i]:
            top_d[j, p] = top_d[j, p - 1]
            top_i[j, p] = top_i[j, p - 1]
            p -= 1
        top_d[j, p] = dist[i]
        top_i[j, p] = i
        if f < h:
            found[j] = f + 1


@numba.njit(nogil=True)
def _choose(found, lo, m, top_d, opt_d, opt_j, opt_r, chosen):  # pragma: no cover
    """Mark in ``chosen[j, rank]`` the records of the next class of m: the first lo_j of every
    bucket, then the nearest of the next ones by (distance, bucket, rank)."""
    need = m
    n_opt = 0
    for j in range(len(found)):
        need -= lo[j]
        for r in range(found[j]):
            chosen[j, r] = r < lo[j]
            if r >= lo[j]:
                opt_d[n_opt] = top_d[j, r]
                opt_j[n_opt] = j
                opt_r[n_opt] = r
                n_opt += 1
    # the candidates are in (bucket, rank) order, so a strict comparison keeps the earlier
    # of equals
    for _ in range(need):
        best_q = -1
        for q in range(n_opt):
            if opt_r[q] >= 0 and (best_q < 0 or opt_d[q] < opt_d[best_q]):
                best_q = q
        chosen[opt_j[best_q], opt_r[best_q]] = True
        opt_r[best_q] = -1


@numba.njit(nogil=True)
def _take(found, chosen, top_i, rec, label, labels, alive, Z, total, remaining):  # pragma: no cover
    """Label the ``chosen`` records ``label`` and take them out of the block (their sums
    off ``total``, bucket by bucket, nearest first)."""
    for j in range(len(found)):
        for r in range(found[j]):
            if chosen[j, r]:
                i = top_i[j, r]
                labels[rec[i]] = label
                alive[i] = False
                for c in range(Z.shape[0]):
                    total[c] -= Z[c, i]
                remaining[j] -= 1


@numba.njit(nogil=True)
def _compact(Z, code, rec, alive, w):  # pragma: no cover
    """Move the live records to the front, in row order; returns how many."""
    live = 0
    for i in range(w):
        if alive[i]:
            for c in range(Z.shape[0]):
                Z[c, live] = Z[c, i]
            code[live] = code[i]
            rec[live] = rec[i]
            alive[live] = True
            live += 1
    return live


@numba.njit(nogil=True)
def _distances(Z, ref, w, out):  # pragma: no cover
    """out[i] = Σ_c (Z[c, i] − ref[c])², coordinates in order (dead records too: ignored)."""
    for i in range(w):
        out[i] = 0.0
    for c in range(Z.shape[0]):
        rc = ref[c]
        for i in range(w):
            diff = Z[c, i] - rc
            out[i] += diff * diff


def label_blocks(
    X: np.ndarray,
    codes: np.ndarray,
    block_of: np.ndarray,
    classes_left: np.ndarray,
    label_first: np.ndarray,
    low_tab: np.ndarray,
    up_tab: np.ndarray,
    k: int,
) -> np.ndarray:
    """Class label of every record, block ``block_of`` by block (0..n_blocks − 1)."""
    n = len(codes)
    rows = np.argsort(block_of, kind="stable").astype(np.int64)
    sizes = np.bincount(block_of, minlength=len(classes_left))
    starts = np.r_[0, np.cumsum(sizes)].astype(np.int64)
    labels = np.full(n, -1, dtype=np.int64)
    failed = mdav_blocks(
        np.ascontiguousarray(X, dtype=np.float64),
        np.asarray(codes, dtype=np.int64),
        rows,
        starts,
        np.asarray(classes_left, dtype=np.int64),
        np.asarray(label_first, dtype=np.int64),
        np.ascontiguousarray(low_tab, dtype=np.int64),
        np.ascontiguousarray(up_tab, dtype=np.int64),
        int(k),
        labels,
    )
    if failed or (labels < 0).any():  # not reached: the reserve invariant
        raise RuntimeError("capped MDAV left records without a class")
    return labels


@numba.njit(nogil=True)
def node_sums(X, rows, node, n_nodes, square):  # pragma: no cover
    """(Σx, Σx² of the columns where ``square``) of the rows ``rows`` per node, in row order."""
    d = X.shape[1]
    s1 = np.zeros((n_nodes, d))
    s2 = np.zeros((n_nodes, d))
    for q in range(len(rows)):
        r = rows[q]
        g = node[q]
        for c in range(d):
            v = X[r, c]
            s1[g, c] += v
            if square[c]:
                s2[g, c] += v * v
    return s1, s2


@numba.njit(nogil=True)
def split_level(X, codes, ranks, slot, binary, dims, cum, rows, lo, hi):  # pragma: no cover
    """One level of :func:`engine.release.split_nodes` on the live ``rows``, in place.

    Every (node, bucket) gives its lower half the records lowest along the node's dimension
    ``dims[node]``: by rank for a sorted dimension, by (value ≠ 0, row) for a binary one; the
    lower half holds as many records of the bucket as the node's lower classes own in
    ``cum``.  A selection per group finds them (the keys are distinct).
    """
    n = X.shape[0]
    n_b = cum.shape[1]
    m = len(rows)
    n_groups = cum.shape[0] * n_b
    group = np.empty(m, dtype=np.int64)
    key = np.empty(m, dtype=np.int64)
    count = np.zeros(n_groups + 1, dtype=np.int64)
    for q in range(m):
        r = rows[q]
        node = lo[r]
        dim = dims[node]
        group[q] = node * n_b + codes[r]
        if np.isnan(binary[dim]):
            key[q] = ranks[slot[dim], r]
        else:
            key[q] = (n if X[r, dim] != 0 else 0) + r
        count[group[q] + 1] += 1
    for g in range(n_groups):
        count[g + 1] += count[g]
    fill = count[:-1].copy()
    members = np.empty(m, dtype=np.int64)
    for q in range(m):
        members[fill[group[q]]] = q
        fill[group[q]] += 1
    for g in range(n_groups):
        a, b = count[g], count[g + 1]
        if a == b:
            continue
        r0 = rows[members[a]]
        low, high, j = lo[r0], hi[r0], codes[r0]
        mid = (low + high) // 2
        need = cum[mid, j] - cum[low, j]
        cut = np.iinfo(np.int64).max
        if need <= 0:
            cut = np.iinfo(np.int64).min
        elif need < b - a:
            keys = np.empty(b - a, dtype=np.int64)
            for q in range(a, b):
                keys[q - a] = key[members[q]]
            cut = np.partition(keys, need)[need]
        for q in range(a, b):
            r = rows[members[q]]
            if key[members[q]] >= cut:
                lo[r] = mid
            else:
                hi[r] = mid


@numba.njit(nogil=True)
def _select(keys, recs, a, b, need):  # pragma: no cover
    """Reorder keys[a:b] (and recs alike) so that its ``need`` smallest come first.

    Quickselect with a median-of-three pivot; the keys are distinct.
    """
    lo, hi = a, b - 1
    target = a + need
    while lo < hi:
        mid = (lo + hi) // 2
        # median of three to keys[hi]
        if keys[mid] < keys[lo]:
            keys[mid], keys[lo] = keys[lo], keys[mid]
            recs[mid], recs[lo] = recs[lo], recs[mid]
        if keys[hi] < keys[lo]:
            keys[hi], keys[lo] = keys[lo], keys[hi]
            recs[hi], recs[lo] = recs[lo], recs[hi]
        if keys[mid] < keys[hi]:
            keys[mid], keys[hi] = keys[hi], keys[mid]
            recs[mid], recs[hi] = recs[hi], recs[mid]
        pivot = keys[hi]
        store = lo
        for q in range(lo, hi):
            if keys[q] < pivot:
                keys[q], keys[store] = keys[store], keys[q]
                recs[q], recs[store] = recs[store], recs[q]
                store += 1
        keys[hi], keys[store] = keys[store], keys[hi]
        recs[hi], recs[store] = recs[store], recs[hi]
        if store == target:
            return
        if store < target:
            lo = store + 1
        else:
            hi = store - 1


@numba.njit(nogil=True)
def split_segments(
    nonzero, ranks, slot, binary, dims, cum, size_cum, nodes, perm, lo, hi, keys, tmp
):  # pragma: no cover
    """One level of the k-d split for the nodes ``nodes`` (first, one past last class).

    ``perm`` holds the records node by node in class order and, inside a node, bucket by
    bucket; every (node, bucket) gives its lower half the records lowest along the node's
    dimension (:func:`split_level`'s rule) and ``perm`` is rearranged so that both halves are
    again nodes of that form.  ``lo``/``hi`` are set for the records moved.  ``nonzero``
    holds, per binary dimension (``slot``), whether each record's value is not 0: a small
    table that random reads find in the cache, where X would not be.
    """
    n = len(perm)
    n_b = cum.shape[1]
    for q in range(nodes.shape[0]):
        first, last = nodes[q, 0], nodes[q, 1]
        mid = (first + last) // 2
        dim = dims[first]
        sorted_dim = np.isnan(binary[dim])
        start = size_cum[first]
        low_at = start
        high_at = size_cum[mid]
        seg = start
        for j in range(n_b):
            count = cum[last, j] - cum[first, j]
            need = cum[mid, j] - cum[first, j]
            for t in range(seg, seg + count):
                r = perm[t]
                if sorted_dim:
                    keys[t] = ranks[slot[dim], r]
                else:
                    keys[t] = (n if nonzero[slot[dim], r] else 0) + r
            if 0 < need < count:
                _select(keys, perm, seg, seg + count, need)
            for t in range(seg, seg + need):
                tmp[low_at] = perm[t]
                low_at += 1
            for t in range(seg + need, seg + count):
                tmp[high_at] = perm[t]
                high_at += 1
            seg += count
        for t in range(start, size_cum[mid]):
            perm[t] = tmp[t]
            hi[tmp[t]] = mid
        for t in range(size_cum[mid], size_cum[last]):
            perm[t] = tmp[t]
            lo[tmp[t]] = mid


@numba.njit(cache=True, nogil=True)
def transport(X, rows, centroids, cand, cap, eps_last, theta, max_bids):  # pragma: no cover
    """The records ``rows`` (one bucket) reassigned among the classes, each class c taking
    exactly ``cap[c]`` of them, at the least total squared distance to the class centroids.

    ``cand[i]`` lists the classes record i may go to (its own first; −1 pads).  An auction
    (Bertsekas & Castañon, *Parallel Computing* 17, 1991: the transportation problem as an
    assignment of persons to the identical slots of each class) with ε-scaling: every phase
    assigns every record again at the prices the last one left, bidding for the cheapest slot
    of its best class and raising that slot's price by the margin over its second-best choice
    plus ε; ε shrinks by ``theta`` from a quarter of the cost spread down to ``eps_last``
    times it.  The slots of a class are a binary heap on their prices (its cheapest slot at
    the top), so a bid costs O(log slots).  The result is within ``rows`` · ε of the least
    cost.  Returns (the new class of every record, its cost, the cost of the current
    classes); classes −1 when ``max_bids`` bids did not settle it (the caller keeps the
    current classes).
    """
    n, q_max = cand.shape
    d = X.shape[1]
    n_c = len(cap)
    cost = np.full((n, q_max), np.inf)
    lo = np.inf
    hi = -np.inf
    for i in range(n):
        r = rows[i]
        for q in range(q_max):
            c = cand[i, q]
            if c < 0 or cap[c] == 0:
                continue
            s = 0.0
            for j in range(d):
                diff = X[r, j] - centroids[c, j]
                s += diff * diff
            cost[i, q] = s
            lo = min(lo, s)
            hi = max(hi, s)
    before = 0.0
    for i in range(n):
        before += cost[i, 0]
    assigned = np.full(n, -1, dtype=np.int64)
    if n == 0:
        return assigned, 0.0, 0.0
    spread = max(hi - lo, 1e-300)
    start = np.zeros(n_c + 1, dtype=np.int64)
    for c in range(n_c):
        start[c + 1] = start[c] + cap[c]
    price = np.zeros(start[n_c])  # per class a min-heap of its slots' prices
    owner = np.full(start[n_c], -1, dtype=np.int64)
    choice = np.full(n, -1, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    eps = spread / 4.0
    floor = spread * eps_last
    bids = 0
    while True:
        owner[:] = -1
        for i in range(n):
            queue[i] = i
            choice[i] = -1
        head = 0
        waiting = n
        while waiting > 0:
            i = queue[head]
            head = head + 1 if head + 1 < n else 0
            waiting -= 1
            best = -np.inf
            second = -np.inf
            best_q = -1
            for q in range(q_max):
                c = cand[i, q]
                if c < 0 or cap[c] == 0:
                    continue
                top = start[c]
                p1 = price[top]
                p2 = np.inf
                if cap[c] > 1:
                    p2 = price[top + 1]
                    if cap[c] > 2 and price[top + 2] < p2:
                        p2 = price[top + 2]
                v1 = -cost[i, q] - p1
                v2 = -cost[i, q] - p2
                if v1 > best:
                    second = max(second, best, v2)
                    best = v1
                    best_q = q
                elif v1 > second:
                    second = v1
            if best_q < 0:
                return assigned, 0.0, before
            if second == -np.inf:
                second = best - spread
            c = cand[i, best_q]
            top = start[c]
            previous = owner[top]
            _sift_down(price, owner, top, cap[c], price[top] + best - second + eps, i)
            choice[i] = best_q
            bids += 1
            if bids > max_bids:
                return assigned, 0.0, before
            if previous >= 0:
                choice[previous] = -1
                tail = head + waiting
                queue[tail if tail < n else tail - n] = previous
                waiting += 1
        if eps <= floor:
            break
        eps = max(eps / theta, floor)
    after = 0.0
    for i in range(n):
        assigned[i] = cand[i, choice[i]]
        after += cost[i, choice[i]]
    return assigned, after, before


@numba.njit(cache=True, nogil=True)
def _sift_down(price, owner, top, size, value, who):  # pragma: no cover
    """Give the cheapest slot of the heap ``price[top:top + size]`` the price ``value`` (not
    lower than its old one) and the owner ``who``, and restore the heap."""
    pos = 0
    while True:
        child = 2 * pos + 1
        if child >= size:
            break
        if child + 1 < size and price[top + child + 1] < price[top + child]:
            child += 1
        if price[top + child] >= value:
            break
        price[top + pos] = price[top + child]
        owner[top + pos] = owner[top + child]
        pos = child
    price[top + pos] = value
    owner[top + pos] = who


@numba.njit(cache=True, nogil=True)
def exchange_sweep(X, labels, near, sums, sizes, perm, off, n_b):  # pragma: no cover
    """One pass of exact exchanges between every class and its neighbours, bucket by bucket.

    For classes a, b and bucket j the records of j in a and b are shared out again, a keeping
    as many as it had, so that a takes those with the least |x − μa|² − |x − μb|²: the exact
    transportation problem of two classes.  The centroids (``sums``/``sizes``) follow every
    exchange at once (Gauss–Seidel), which lowers the sum of squares further.  ``perm``
    holds the records by (class, bucket), ``off`` where each (class, bucket) starts; the
    counts never change, so neither does ``off``.  Returns how many records changed class.
    """
    d = X.shape[1]
    m = len(sizes)
    moved = 0
    ca = np.empty(d)
    cb = np.empty(d)
    for a in range(m):
        if sizes[a] == 0:
            continue
        for qq in range(1, near.shape[1]):
            b = near[a, qq]
            if b < 0 or b == a or sizes[b] == 0:
                continue
            for t in range(d):
                ca[t] = sums[a, t] / sizes[a]
                cb[t] = sums[b, t] / sizes[b]
            changed = False
            for j in range(n_b):
                sa0 = off[a * n_b + j]
                sb0 = off[b * n_b + j]
                na = off[a * n_b + j + 1] - sa0
                nb = off[b * n_b + j + 1] - sb0
                if na == 0 or nb == 0:
                    continue
                r = na + nb
                ids = np.empty(r, dtype=np.int64)
                diff = np.empty(r)
                for u in range(r):
                    rec = perm[sa0 + u] if u < na else perm[sb0 + u - na]
                    ids[u] = rec
                    da = 0.0
                    db = 0.0
                    for t in range(d):
                        x = X[rec, t]
                        da += (x - ca[t]) * (x - ca[t])
                        db += (x - cb[t]) * (x - cb[t])
                    diff[u] = da - db
                order = np.argsort(diff, kind="mergesort")
                now = 0.0
                best = 0.0
                for u in range(na):
                    now += diff[u]
                    best += diff[order[u]]
                if not best < now - 1e-12 * (abs(now) + 1.0):
                    continue
                changed = True
                for u in range(r):
                    rec = ids[order[u]]
                    if u < na:
                        perm[sa0 + u] = rec
                        if labels[rec] != a:
                            labels[rec] = a
                            moved += 1
                            for t in range(d):
                                sums[a, t] += X[rec, t]
                                sums[b, t] -= X[rec, t]
                    else:
                        perm[sb0 + u - na] = rec
                        if labels[rec] != b:
                            labels[rec] = b
                            moved += 1
                            for t in range(d):
                                sums[b, t] += X[rec, t]
                                sums[a, t] -= X[rec, t]
                if changed:
                    for t in range(d):
                        ca[t] = sums[a, t] / sizes[a]
                        cb[t] = sums[b, t] / sizes[b]
    return moved


@numba.njit(cache=True, nogil=True)
def move_sweep(
    X, labels, codes, near, sums, sizes, counts, low, high, order, eps
):  # pragma: no cover
    """One pass of single moves to neighbouring classes that keep both classes within bounds.

    The records are visited in ``order`` (by class); a record moves from its class a to the
    neighbour b where that lowers the sum of squares most, by
    |a|/(|a|−1)·|x − μa|² − |b|/(|b|+1)·|x − μb|² > ``eps``, when a of |a| − 1 records and b of
    |b| + 1 records still hold between ``low[size, j]`` and ``high[size, j]`` records of
    every bucket j (sizes beyond the table's are not allowed).  Sums, sizes and counts follow
    every move.  Returns how many records moved.
    """
    d = X.shape[1]
    n_b = counts.shape[1]
    top = low.shape[0] - 1
    moved = 0
    for idx in range(len(order)):
        i = order[idx]
        a = labels[i]
        na = sizes[a]
        if na <= 1:
            continue
        j = codes[i]
        # may a lose a record of bucket j?
        ok = True
        for g in range(n_b):
            c = counts[a, g] - (1 if g == j else 0)
            if c < low[na - 1, g] or c > high[na - 1, g]:
                ok = False
                break
        if not ok:
            continue
        da = 0.0
        for t in range(d):
            x = X[i, t] - sums[a, t] / na
            da += x * x
        remove = na / (na - 1.0) * da
        best = eps
        best_b = -1
        for qq in range(1, near.shape[1]):
            b = near[a, qq]
            if b < 0 or b == a:
                continue
            nb = sizes[b]
            if nb == 0 or nb + 1 > top:
                continue
            db = 0.0
            for t in range(d):
                x = X[i, t] - sums[b, t] / nb
                db += x * x
            gain = remove - nb / (nb + 1.0) * db
            if gain <= best:
                continue
            fits = True
            for g in range(n_b):
                c = counts[b, g] + (1 if g == j else 0)
                if c < low[nb + 1, g] or c > high[nb + 1, g]:
                    fits = False
                    break
            if fits:
                best = gain
                best_b = b
        if best_b >= 0:
            b = best_b
            labels[i] = b
            sizes[a] -= 1
            sizes[b] += 1
            counts[a, j] -= 1
            counts[b, j] += 1
            for t in range(d):
                sums[a, t] -= X[i, t]
                sums[b, t] += X[i, t]
            moved += 1
    return moved
