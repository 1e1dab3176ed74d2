"""The loop of the pattern groups' refinement (:mod:`engine.release.households.refine`), in
plain Python.

As with :mod:`engine.release.partition.sweeps`, :mod:`engine.release.partition.compiled`
compiles this very function with numba, and where the compiled kernels cannot run the
refinement calls it as it is: one source, the same groups bit for bit, the plain route only
slower.  It touches only numpy arrays and scalars and calls no helper of its own (a plain
function cannot be called from compiled code).
"""

from __future__ import annotations

import numpy as np


def pattern_sweep(
    Xp, codes, Uh, weight, mem, grp, slots, gsize, blk, nblk, cfirst, wcls, S, cnt, U,
    low, high, near, perms, k, eps,
):  # fmt: skip
    """One pass over the households of one size: each takes the best change that lowers the
    QI sum of squares and keeps every class within its bounds, or stays.  Returns (changes
    made, the sum of squares they removed).

    The households (``mem[h, j]``: the record at position j of household h's group) sit in
    groups (``grp``; ``slots[g, :gsize[g]]`` are a group's households); position j of group
    g belongs to its class ``cfirst[g] + blk[g, j]`` of ``wcls`` positions, so a class of a
    group of n households holds wcls · n records.  ``S``/``cnt`` are every class's sums of the
    person-level QIs ``Xp`` and counts of the buckets ``codes``; ``U`` every group's sum of
    its households' household-level QIs ``Uh``, which count ``weight`` times (once per member).
    A class of m records must hold between ``low[m, j]`` and ``high[m, j]`` records of bucket
    j, and a group at least ``k`` households.  The changes, among the groups ``near[g]``
    (−1 pads):

    * the household's members put at other positions of its own group (``perms``: the
      orders tried, ``perms[p, j]`` the member that goes to position j);
    * the household exchanged with a household of a neighbouring group, each in the best
      order for the positions it joins;
    * the household moved to a neighbouring group with room (``slots``' width), when its own
      keeps at least k households.

    The gain of every change is exact (class sums and sizes after the change), so the sum
    of squares falls with every change made, and the arrays are kept up to date as it is
    made (Gauss–Seidel).
    """
    n_h, s = mem.shape
    d = Xp.shape[1]
    dh = Uh.shape[1]
    nb = cnt.shape[1]
    n_perms = perms.shape[0]
    cap = slots.shape[1]
    n_near = near.shape[1]
    dS = np.zeros((s, d))
    dC = np.zeros((s, nb), dtype=np.int64)
    pair = np.zeros((s, s))
    fits = np.zeros((s, s), dtype=np.bool_)
    side_gain = np.zeros(2)
    side_perm = np.zeros(2, dtype=np.int64)
    order = np.zeros(s, dtype=np.int64)
    targets = np.zeros(2, dtype=np.int64)
    changes = 0
    total = 0.0
    for h in range(n_h):
        g = grp[h]
        n_g = gsize[g]
        best = eps
        best_kind = 0
        best_g2 = -1
        best_h2 = -1
        best_p1 = 0
        best_p2 = 0
        # candidates: 0 = another order in its own group; then, per neighbouring group, a
        # move (slot −1) and the exchanges with each of its households
        for a in range(n_near):
            g2 = near[g, a]
            if a == 0:
                g2 = g
            elif g2 < 0 or g2 == g:
                continue
            first_slot = 0 if a == 0 else -1
            last_slot = 0 if a == 0 else gsize[g2]
            for slot in range(first_slot, last_slot):
                h2 = -1
                if a > 0 and slot >= 0:
                    h2 = slots[g2, slot]
                if a > 0 and slot < 0 and (n_g <= k or gsize[g2] >= cap):
                    continue  # no move: its group would fall below k, or the other is full
                # the household-level part of the gain
                house = 0.0
                if a > 0:
                    n2 = gsize[g2]
                    before_g = 0.0
                    before_2 = 0.0
                    after_g = 0.0
                    after_2 = 0.0
                    for e in range(dh):
                        ug = U[g, e]
                        u2 = U[g2, e]
                        before_g += ug * ug
                        before_2 += u2 * u2
                        if h2 >= 0:
                            ng = ug - Uh[h, e] + Uh[h2, e]
                            n2e = u2 - Uh[h2, e] + Uh[h, e]
                        else:
                            ng = ug - Uh[h, e]
                            n2e = u2 + Uh[h, e]
                        after_g += ng * ng
                        after_2 += n2e * n2e
                    if h2 >= 0:
                        house = weight * ((after_g - before_g) / n_g + (after_2 - before_2) / n2)
                    else:
                        house = weight * (after_g / (n_g - 1) - before_g / n_g
                                          + after_2 / (n2 + 1) - before_2 / n2)  # fmt: skip
                # side 0: the group the household joins (its own, reordered, at a = 0);
                # side 1: its own group, which takes h2 instead (or shrinks); none at a = 0
                feasible = True
                for side in range(2):
                    side_gain[side] = 0.0
                    side_perm[side] = 0
                    if a == 0 and side == 1:
                        continue
                    if side == 0:
                        gg, out, inn = g2, h2, h
                        dn = 1 if (a > 0 and h2 < 0) else 0
                        if a == 0:
                            out = h
                    else:
                        gg, out, inn = g, h, h2
                        dn = -1 if h2 < 0 else 0
                    n_old = gsize[gg]
                    n_new = n_old + dn
                    c0 = cfirst[gg]
                    tried = n_perms if inn >= 0 else 1
                    found = -1e300
                    found_p = -1
                    if nblk[gg] == s:
                        # one position per class: the gain of an order is the sum of the
                        # gains of its members at their positions
                        for i in range(s if inn >= 0 else 1):
                            for j in range(s):
                                c = c0 + j
                                q2 = 0.0
                                z = 0.0
                                for e in range(d):
                                    v = S[c, e]
                                    z += v * v
                                    if out >= 0:
                                        v -= Xp[mem[out, j], e]
                                    if inn >= 0:
                                        v += Xp[mem[inn, i], e]
                                    q2 += v * v
                                pair[i, j] = q2 / (wcls[c] * n_new) - z / (wcls[c] * n_old)
                                ok = True
                                for b in range(nb):
                                    v2 = cnt[c, b]
                                    if out >= 0 and codes[mem[out, j]] == b:
                                        v2 -= 1
                                    if inn >= 0 and codes[mem[inn, i]] == b:
                                        v2 += 1
                                    m = wcls[c] * n_new
                                    if v2 < low[m, b] or v2 > high[m, b]:
                                        ok = False
                                fits[i, j] = ok
                        for p in range(tried):
                            gain = 0.0
                            ok = True
                            for j in range(s):
                                i = perms[p, j] if inn >= 0 else 0
                                if not fits[i, j]:
                                    ok = False
                                    break
                                gain += pair[i, j]
                            if ok and gain > found:
                                found = gain
                                found_p = p
                    else:
                        for p in range(tried):
                            for q in range(nblk[gg]):
                                for e in range(d):
                                    dS[q, e] = 0.0
                                for b in range(nb):
                                    dC[q, b] = 0
                            for j in range(s):
                                q = blk[gg, j]
                                if inn >= 0:
                                    r = mem[inn, perms[p, j]]
                                    for e in range(d):
                                        dS[q, e] += Xp[r, e]
                                    dC[q, codes[r]] += 1
                                if out >= 0:
                                    r = mem[out, j]
                                    for e in range(d):
                                        dS[q, e] -= Xp[r, e]
                                    dC[q, codes[r]] -= 1
                            gain = 0.0
                            ok = True
                            for q in range(nblk[gg]):
                                c = c0 + q
                                m = wcls[c] * n_new
                                for b in range(nb):
                                    v2 = cnt[c, b] + dC[q, b]
                                    if v2 < low[m, b] or v2 > high[m, b]:
                                        ok = False
                                q2 = 0.0
                                z = 0.0
                                for e in range(d):
                                    v = S[c, e]
                                    z += v * v
                                    v += dS[q, e]
                                    q2 += v * v
                                gain += q2 / m - z / (wcls[c] * n_old)
                            if ok and gain > found:
                                found = gain
                                found_p = p
                    if found_p < 0:
                        feasible = False
                        break
                    side_gain[side] = found
                    side_perm[side] = found_p
                if not feasible:
                    continue
                gain = house + side_gain[0] + side_gain[1]
                if gain > best:
                    best = gain
                    best_kind = 1 if a == 0 else (2 if h2 >= 0 else 3)
                    best_g2 = g2
                    best_h2 = h2
                    best_p1 = side_perm[0]
                    best_p2 = side_perm[1]
        if best_kind == 0:
            continue
        # make the change: take the members off their classes, put them back in their new
        # positions, and move the households between the groups' slots
        for side in range(2):
            if side == 0:
                hh_ = h
                gg = g
            else:
                hh_ = best_h2
                gg = best_g2
            if hh_ < 0 or (best_kind == 1 and side == 1):
                continue
            for j in range(s):
                r = mem[hh_, j]
                c = cfirst[gg] + blk[gg, j]
                for e in range(d):
                    S[c, e] -= Xp[r, e]
                cnt[c, codes[r]] -= 1
            if best_kind != 1:
                for e in range(dh):
                    U[gg, e] -= Uh[hh_, e]
        # the new orders: h in the group it joins (or its own), h2 in h's group
        for j in range(s):
            order[j] = mem[h, perms[best_p1, j]]
        for j in range(s):
            mem[h, j] = order[j]
        if best_kind == 2:
            for j in range(s):
                order[j] = mem[best_h2, perms[best_p2, j]]
            for j in range(s):
                mem[best_h2, j] = order[j]
        targets[0] = g if best_kind == 1 else best_g2
        targets[1] = g
        for side in range(2):
            hh_ = h if side == 0 else best_h2
            if hh_ < 0 or (best_kind == 1 and side == 1):
                continue
            gg = targets[side]
            for j in range(s):
                r = mem[hh_, j]
                c = cfirst[gg] + blk[gg, j]
                for e in range(d):
                    S[c, e] += Xp[r, e]
                cnt[c, codes[r]] += 1
            if best_kind != 1:
                for e in range(dh):
                    U[gg, e] += Uh[hh_, e]
        if best_kind == 2:
            for i in range(gsize[g]):
                if slots[g, i] == h:
                    slots[g, i] = best_h2
            for i in range(gsize[best_g2]):
                if slots[best_g2, i] == best_h2:
                    slots[best_g2, i] = h
            grp[h] = best_g2
            grp[best_h2] = g
        elif best_kind == 3:
            last = gsize[g] - 1
            for i in range(gsize[g]):
                if slots[g, i] == h:
                    slots[g, i] = slots[g, last]
            slots[g, last] = -1
            gsize[g] = last
            slots[best_g2, gsize[best_g2]] = h
            gsize[best_g2] += 1
            grp[h] = best_g2
        changes += 1
        total += best
    return changes, total
