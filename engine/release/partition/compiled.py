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

from engine.release.partition import pattern_sweeps, sweeps


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


@numba.njit(nogil=True)
def permute_rows(X, order):  # pragma: no cover
    """``X[:] = X[order]`` in place, cycle by cycle: every row is read and written once, whole
    (a row of a C-ordered matrix is contiguous), with one row of scratch.  numpy's column by
    column route reads every column's values in a random order, ``X.shape[1]`` times."""
    n = len(order)
    done = np.zeros(n, dtype=np.bool_)
    row = np.empty(X.shape[1], dtype=X.dtype)
    for i in range(n):
        if done[i]:
            continue
        row[:] = X[i]
        j = i
        while True:
            done[j] = True
            src = order[j]
            if src == i:
                X[j] = row
                break
            X[j] = X[src]
            j = src


# the refinement's loops: one source with their plain route (engine.release.partition.sweeps)
transport = numba.njit(nogil=True)(sweeps.transport)
exchange_sweep = numba.njit(nogil=True)(sweeps.exchange_sweep)
move_sweep = numba.njit(nogil=True)(sweeps.move_sweep)
# the household route's refinement (engine.release.households.refine): one source with its plain
# route (engine.release.partition.pattern_sweeps)
pattern_sweep = numba.njit(nogil=True)(pattern_sweeps.pattern_sweep)
