"""The loops of the refinement (:mod:`engine.release.partition.refine`), in plain Python.

These are the kernels of the refinement: :mod:`engine.release.partition.compiled` compiles these
very functions with numba (``numba.njit(nogil=True)(sweeps.transport)``), and where the compiled
kernels cannot run (no numba, as on Intel Macs, or ``TCLOSE_COMPILED=0``) the refinement calls
them as they are.  One source, so both routes give the same classes, bit for bit (numba compiles
without fast-math: no sum is reordered or fused); the plain route is only slower (about a
hundred times), and :mod:`engine.release.partition.jit` says once, on stderr and in the review
record, that it is taken.  They touch only numpy arrays and scalars, and call only what numba
compiles (no helper functions of their own: a plain function cannot be called from compiled
code).
"""

from __future__ import annotations

import numpy as np

#: pairs sharing out at most this many records of a bucket are sorted by insertion
SMALL_SORT = 32


def transport(X, rows, centroids, cand, cap, eps_last, theta, max_bids):
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
            # the slot's price rises: sift it down its class's heap
            value = price[top] + best - second + eps
            size = cap[c]
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
            owner[top + pos] = i
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


def exchange_sweep(X, labels, near, sums, sizes, perm, off, n_b):
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
    # one set of buffers for every pair (a fresh array per pair cost more than the pair's work)
    widest = 0
    for a in range(m):
        for j in range(n_b):
            widest = max(widest, off[a * n_b + j + 1] - off[a * n_b + j])
    ids = np.empty(2 * widest, dtype=np.int64)
    diff = np.empty(2 * widest)
    order = np.empty(2 * widest, dtype=np.int64)
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
                if r <= SMALL_SORT:
                    # a stable insertion sort: the order of a stable argsort, without its
                    # allocation (most pairs share out a few records)
                    for u in range(r):
                        v = u
                        while v > 0 and diff[order[v - 1]] > diff[u]:
                            order[v] = order[v - 1]
                            v -= 1
                        order[v] = u
                else:
                    order[:r] = np.argsort(diff[:r], kind="mergesort")
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


def move_sweep(X, labels, codes, near, sums, sizes, counts, low, high, order, eps):
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
