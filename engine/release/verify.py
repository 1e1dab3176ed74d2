"""The independent check of a release: it reads the released table and nothing else.

Equivalence classes are the groups of rows with identical released QI values; buckets are the
distinct tuples of released confidential values (an empty cell is a value of its own).  For
each class E and bucket j the distance compares p_{E,j} with the file's p_j; a bucket a class
lacks makes it infinite.  Everything is vectorised over (class, bucket) pairs that occur, so
memory stays proportional to the number of rows.

A release that carries (re-coded) household ids is also checked for its households: every
class must hold records of at least k distinct households, and every member of a household
must carry the same released value of each household-level column.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import InputError
from engine.i18n import _, ngettext
from engine.release.model import Verification
from engine.text import number

#: relative slack for float rounding in the t comparison (far below any meaningful t)
T_RTOL = 1e-7


#: what a missing cell reads as when cells are compared as text (a value of its own)
_MISSING = "\x00NA"


def group_ids(table: pd.DataFrame, columns: Sequence[str]) -> np.ndarray:
    """Group number of every row by the values of ``columns`` (missing is a value).

    Cells are compared as the text they read as, and groups are numbered in the order they
    first occur (a ``groupby(sort=False).ngroup()`` of the columns as text).  Each column is
    numbered on its own and the numbers combined, without writing a million cells as text
    where the column's type says how its text compares (:func:`_text_codes`).
    """
    if not columns:
        return np.zeros(len(table), dtype=np.int64)
    key: np.ndarray | None = None
    for column in columns:
        codes = _text_codes(table[column])
        if key is None:
            key = codes
        else:  # both below the number of rows: the pair is one number
            key = pd.factorize(key * (int(codes.max()) + 1) + codes)[0].astype(np.int64)
    assert key is not None
    return key


def _text_codes(series: pd.Series) -> np.ndarray:
    """Numbers of the column's values, equal where their text is (missing: one more value).

    Whole numbers and booleans print one text per value; a float's text is its shortest
    round-trip form, one per bit pattern (0.0 and −0.0 apart, every NaN missing); text
    columns are their text.  Other columns (objects of mixed types, categories, dates) are
    written as text first.
    """
    dtype = series.dtype
    if isinstance(dtype, np.dtype) and dtype.kind in "iub":
        return pd.factorize(series.to_numpy())[0].astype(np.int64)
    if isinstance(dtype, np.dtype) and dtype.kind == "f":
        values = np.ascontiguousarray(series.to_numpy())
        codes = pd.factorize(values.view(f"i{values.itemsize}"))[0].astype(np.int64)
        missing = np.isnan(values)
        if missing.any():  # NaNs of any bits: one value, missing
            codes[missing] = -1
            codes = pd.factorize(codes)[0].astype(np.int64)
        return codes
    if isinstance(dtype, pd.StringDtype):
        return pd.factorize(series.fillna(_MISSING))[0].astype(np.int64)
    return pd.factorize(series.astype("string").fillna(_MISSING))[0].astype(np.int64)


def class_distances(
    classes: np.ndarray, buckets: np.ndarray, shares: np.ndarray | None = None
) -> np.ndarray:
    """d(class distribution, file distribution) of every class (KBS 2015, Definition 4).

    ``shares`` are the file's bucket shares when ``classes`` label only some of its records
    (the records an intruder following household ids is left with); by default the records'
    own.
    """
    n = len(classes)
    n_classes = int(classes.max()) + 1
    if shares is None:
        n_buckets = int(buckets.max()) + 1
        shares = np.bincount(buckets, minlength=n_buckets) / n
        needed = n_buckets  # every code up to the largest is a bucket
    else:
        n_buckets = len(shares)
        needed = int((shares > 0).sum())  # the buckets the whole file holds
    sizes = np.bincount(classes, minlength=n_classes)
    pairs, counts = np.unique(classes * n_buckets + buckets, return_counts=True)
    cls, bkt = pairs // n_buckets, pairs % n_buckets
    ratio = counts / sizes[cls] / shares[bkt]
    worst = np.zeros(n_classes)
    np.maximum.at(worst, cls, np.maximum(ratio, 1.0 / ratio))
    present = np.bincount(cls, minlength=n_classes)
    worst[present < needed] = np.inf
    return worst


def _plain(value: Any) -> Any:
    """A released cell as a plain Python value (None for missing)."""
    if pd.isna(value):
        return None
    return value.item() if isinstance(value, np.generic) else value


def worst_bucket_of(classes: np.ndarray, buckets: np.ndarray, cls: int) -> int:
    """The bucket at which class ``cls`` is farthest from the file (a lacking one first)."""
    n_buckets = int(buckets.max()) + 1
    shares = np.bincount(buckets, minlength=n_buckets) / len(buckets)
    inside = np.bincount(buckets[classes == cls], minlength=n_buckets)
    if (inside == 0).any():
        return int(np.argmax(inside == 0))
    ratio = inside / inside.sum() / shares
    return int(np.argmax(np.maximum(ratio, 1.0 / ratio)))


def check_release_columns(named: Sequence[str], names: Sequence[Any]) -> None:
    """Refuse a check that names a column twice, or one the release does not have
    (``names``: its columns; a cluster checks a file's names before reading its parts)."""
    twice = sorted({c for c in named if list(named).count(c) > 1})
    if twice:
        raise InputError(
            _("A column can be named only once: {columns}.").format(
                columns=", ".join(map(repr, twice))
            )
        )
    have = set(names)
    absent = [c for c in named if c not in have]
    if absent:
        raise InputError(
            _("The release has no column {columns}.").format(columns=", ".join(map(repr, absent)))
        )


def verify_release(
    table: pd.DataFrame,
    qi: Sequence[str],
    confidential: Sequence[str],
    *,
    t: float | None = None,
    k: int | None = None,
    household: str | None = None,
    household_level: Sequence[str] = (),
    linked: str | None = None,
    weight: str | None = None,
) -> Verification:
    """Achieved k and t of a released table, and whether they meet the given bounds.

    With ``household`` (the column of household ids), k also bounds the distinct households
    of every class, and the ``household_level`` columns must be alike within every household.
    ``linked`` is the column of released household ids an intruder can follow (by default
    ``household``; "" for none): every id's pattern must be shared by k households and what
    it leaves of a member's bucket must be t-close (:func:`linking_check`).  With ``weight``,
    k and t must also hold with the weight as one more key (:func:`weight_check`).
    """
    qi, confidential = list(qi), list(confidential)
    if linked is None:
        linked = household
    follow = [linked] if linked and linked != household else []
    named = [*qi, *confidential, *([household] if household is not None else []), *follow]
    if weight is not None:
        named.append(weight)
    check_release_columns(named, table.columns)
    n = len(table)
    if n == 0:
        return Verification.empty()
    classes = group_ids(table, qi)
    sizes = np.bincount(classes)
    achieved_k = int(sizes.min())
    achieved_t: float | None = None
    distances = buckets = None
    if confidential:
        buckets = group_ids(table, confidential)
        distances = class_distances(classes, buckets)
        achieved_t = float(distances.max())
    failed = failed_bounds(achieved_k, achieved_t, k=k, t=t)
    homes = None
    if household is not None:
        # members are compared on the ids an intruder can follow (all, when none is named)
        homes = household_check(table, classes, household, household_level, k=k,
                                alike=linked or household)  # fmt: skip
        failed.update(homes.pop("failed"))
    if linked:
        follow_homes = released_households(table[linked])
        linking = linking_check(classes, buckets, follow_homes, k=k, t=t)
        failed.update(linking.pop("failed"))
        homes = {**(homes or {}), **linking}
    if weight is not None:
        keyed = weight_check(table, qi, weight, buckets, k=k, t=t)
        failed.update(keyed.pop("failed"))
        homes = {**(homes or {}), **keyed}
    # the class to name: the farthest one, unless only k fails (then the smallest)
    if distances is not None and ("t" in failed or "k" not in failed):
        worst = int(np.argmax(distances))
    else:
        worst = int(np.argmin(sizes))
    worst_class: dict[str, Any] | None = None
    if qi:
        row = table.iloc[int(np.flatnonzero(classes == worst)[0])]
        worst_class = {c: _plain(row[c]) for c in qi}
    worst_bucket: dict[str, Any] | None = None
    if buckets is not None:
        j = worst_bucket_of(classes, buckets, worst)
        row = table.iloc[int(np.flatnonzero(buckets == j)[0])]
        worst_bucket = {c: _plain(row[c]) for c in confidential}
    result = verdict(sizes, achieved_t, failed, worst_class, worst_bucket)
    if homes is not None:
        result = replace(result, **homes)
        if result.ok and result.households_k is not None:
            result.message = result.message[:-1] + _(
                "; every class holds records of ≥ {n} households."
            ).format(n=number(result.households_k))
    return result


def released_households(ids: pd.Series) -> np.ndarray:
    """Household number (0..H−1) of every row of a released id column; −1 where the id is
    empty (a record released without an id: nobody can group it with anyone)."""
    codes = pd.factorize(ids.astype("string"), use_na_sentinel=True)[0]
    return codes.astype(np.int64)


def household_patterns(classes: np.ndarray, hh: np.ndarray) -> np.ndarray:
    """Pattern number of every household 0..H−1: households whose members fall in the same
    multiset of classes share one (exact: the sorted classes of every household compared
    whole, one household size at a time)."""
    hh = np.asarray(hh, dtype=np.int64)
    n_h = int(hh.max()) + 1 if len(hh) else 0
    sizes = np.bincount(hh, minlength=n_h)
    order = np.lexsort((classes, hh))
    ranked = np.asarray(classes, dtype=np.int64)[order]
    starts = np.r_[0, np.cumsum(sizes)[:-1]]
    pattern = np.zeros(n_h, dtype=np.int64)
    taken = 0
    for size in np.unique(sizes[sizes > 0]).tolist():
        homes = np.flatnonzero(sizes == size)
        members = ranked[starts[homes][:, None] + np.arange(size)]
        order = np.lexsort(members.T[::-1])
        ranked_rows = members[order]
        new = np.r_[True, (ranked_rows[1:] != ranked_rows[:-1]).any(axis=1)]
        number = np.cumsum(new) - 1
        pattern[homes[order]] = taken + number
        taken += int(number[-1]) + 1
    return pattern


def linking_check(
    classes: np.ndarray,
    buckets: np.ndarray | None,
    hh: np.ndarray,
    *,
    k: int | None,
    t: float | None,
    shares: np.ndarray | None = None,
) -> dict[str, Any]:
    """What an intruder learns who follows the released household ids (SPEC §1, household).

    Knowing every member's QIs, the intruder knows the *pattern* of the household they look
    for (the multiset of its members' classes) and keeps the released households with that
    pattern; a member is then one of the records of its class among them.  ``hh`` is the
    household of every row (−1: released without an id, never linked).  Returns the
    :class:`Verification` fields ``pattern_k`` (fewest households sharing a pattern),
    ``linking_t`` (largest distance, KBS 2015 Definition 4, of the records a pattern and a
    class leave against the whole file), ``households_below_k``, ``records_without_id`` and,
    under ``"failed"``, the bounds they miss.  ``shares`` are the whole file's bucket shares
    when these rows are part of it (a cluster's partition); by default the rows' own.
    """
    linked = hh >= 0
    out: dict[str, Any] = {
        "pattern_k": None,
        "linking_t": None,
        "households_below_k": 0,
        "records_without_id": int((~linked).sum()),
        "failed": {},
    }
    if not linked.any():
        return out
    homes = pd.factorize(hh[linked])[0].astype(np.int64)
    inside = np.asarray(classes, dtype=np.int64)[linked]
    pattern = household_patterns(inside, homes)
    per_pattern = np.bincount(pattern)
    out["pattern_k"] = int(per_pattern.min())
    below = int((per_pattern[pattern] < k).sum()) if k is not None else 0
    out["households_below_k"] = below
    if below:
        out["failed"]["patterns"] = ngettext(
            "{n} household shares its pattern of classes with fewer than {k} households (an "
            "intruder who follows the household id finds its members)",
            "{n} households share their pattern of classes with fewer than {k} households (an "
            "intruder who follows the household id finds their members)",
            below,
        ).format(n=number(below), k=number(k))
    if buckets is not None:
        if shares is None:
            shares = np.bincount(buckets) / len(buckets)
        cell = pd.factorize(pattern[homes] * (int(inside.max()) + 1) + inside)[0]
        linking_t = float(class_distances(cell, buckets[linked], shares).max())
        out["linking_t"] = linking_t
        if t is not None and not linking_t <= t * (1 + T_RTOL):
            shown = _("infinite") if math.isinf(linking_t) else number(linking_t, 4)
            out["failed"]["linking"] = _(
                "an intruder who follows the household ids is left at distance {shown} from a "
                "member's bucket (t = {t} required)"
            ).format(shown=shown, t=number(t, 6))
    return out


def weight_check(
    table: pd.DataFrame,
    qi: Sequence[str],
    weight: str,
    buckets: np.ndarray | None,
    *,
    k: int | None,
    t: float | None,
    shares: np.ndarray | None = None,
) -> dict[str, Any]:
    """k and t of the release with its weight as one more key (SPEC §1, weight: weights
    reveal strata), as the :class:`Verification` fields ``weight_k`` and ``weight_t`` and,
    under ``"failed"``, the bounds they miss (``shares``: as for :func:`linking_check`)."""
    cells = group_ids(table, [*qi, weight])
    weight_k = int(np.bincount(cells).min())
    weight_t = None
    if buckets is not None:
        weight_t = float(class_distances(cells, buckets, shares).max())
    failed = {}
    if k is not None and weight_k < k:
        failed["weight_k"] = _(
            "with the weight as a key a class has only {n} records (k = {k} required)"
        ).format(n=number(weight_k), k=number(k))
    if t is not None and weight_t is not None and not weight_t <= t * (1 + T_RTOL):
        shown = _("infinite") if math.isinf(weight_t) else number(weight_t, 4)
        failed["weight_t"] = _(
            "with the weight as a key a class is at distance {shown} (t = {t} required)"
        ).format(shown=shown, t=number(t, 6))
    return {"weight_k": weight_k, "weight_t": weight_t, "failed": failed}


def kept_check(
    table: pd.DataFrame,
    qi: Sequence[str],
    kept: Sequence[str],
    buckets: np.ndarray | None,
) -> dict[str, Any]:
    """k and t of the release with the columns it carries unchanged as more keys, as the
    :class:`Verification` fields ``kept_k`` and ``kept_t`` (SPEC §1: everything released is
    a key).  Reported, not refused: the user chose to keep them, and is told what they cost."""
    cells = group_ids(table, [*qi, *kept])
    kept_t = None
    if buckets is not None:
        kept_t = float(class_distances(cells, buckets).max())
    return {"kept_k": int(np.bincount(cells).min()), "kept_t": kept_t}


def household_check(
    table: pd.DataFrame,
    classes: np.ndarray,
    household: str,
    household_level: Sequence[str],
    *,
    k: int | None,
    alike: str | None = None,
) -> dict[str, Any]:
    """Households per class and households split on a household-level column.

    ``alike`` is the column of ids whose members must share the household-level values (by
    default ``household``; the released ids, when the check also holds the households of
    records released without one).  Returns the :class:`Verification` fields
    (``households_k``, ``n_households``, ``split_households``, ``shared_classes``) and, under
    ``"failed"``, the bounds they miss.
    """
    missing = [c for c in household_level if c not in table.columns]
    if missing:
        raise InputError(
            _("The release has no column {repr}.").format(repr=", ".join(map(repr, missing)))
        )
    hh = released_households(table[household])
    hh = np.where(hh < 0, int(hh.max(initial=-1)) + 1 + np.cumsum(hh < 0) - 1, hh)
    n_h = int(hh.max()) + 1
    pairs, counts = np.unique(classes * n_h + hh, return_counts=True)
    per_class = np.bincount(pairs // n_h, minlength=int(classes.max()) + 1)
    shared = len(np.unique(pairs[counts > 1] // n_h))
    households_k = int(per_class.min())
    split = 0
    if household_level:
        same = hh if alike in (None, household) else released_households(table[alike])
        inside = same >= 0
        values = group_ids(table, list(household_level))[inside]
        width = int(values.max(initial=0)) + 1
        per_home = np.unique(same[inside] * width + values) // width
        split = int((np.bincount(per_home) > 1).sum()) if len(per_home) else 0
    failed = {}
    if k is not None and households_k < k:
        failed["households"] = ngettext(
            "a class holds records of only {n} household (k = {k} required)",
            "a class holds records of only {n} households (k = {k} required)",
            households_k,
        ).format(n=number(households_k), k=number(k))
    if split:
        failed["household_level"] = ngettext(
            "{n} household has members with different values of {columns}",
            "{n} households have members with different values of {columns}",
            split,
        ).format(n=number(split), columns=", ".join(map(repr, household_level)))
    return {
        "households_k": households_k,
        "n_households": n_h,
        "split_households": split,
        "shared_classes": shared,
        "failed": failed,
    }


def failed_bounds(
    achieved_k: int, achieved_t: float | None, *, k: int | None, t: float | None
) -> dict[str, str]:
    """Each asked bound the release misses ("k", "t"), with the sentence that says so.

    t is met up to a relative tolerance (:data:`T_RTOL`) for the rounding of shares.
    """
    failed = {}
    if k is not None and achieved_k < k:
        failed["k"] = _("a class has only {n} records (k = {k} required)").format(
            n=number(achieved_k), k=number(k)
        )
    if t is not None and achieved_t is not None and not achieved_t <= t * (1 + T_RTOL):
        shown = _("infinite") if math.isinf(achieved_t) else number(achieved_t, 4)
        failed["t"] = _("a class is at distance {shown} (t = {t} required)").format(
            shown=shown, t=number(t, 6)
        )
    return failed


def verdict(
    sizes: np.ndarray,
    achieved_t: float | None,
    failed: dict[str, str],
    worst_class: dict[str, Any] | None,
    worst_bucket: dict[str, Any] | None,
) -> Verification:
    """The :class:`Verification` of classes of these sizes, one sentence for the user.

    One wording for every verifier (one machine, a cluster), so that a release checked either
    way reads the same.
    """
    achieved_k = int(sizes.min())
    if failed:
        message = _("Verification failed: {problems}.").format(problems="; ".join(failed.values()))
    elif achieved_t is None:
        message = _("Verified: {classes} classes, k = {k}.").format(
            classes=number(len(sizes)), k=number(achieved_k)
        )
    else:
        message = _("Verified: {classes} classes, k = {k}, t = {t}.").format(
            classes=number(len(sizes)), k=number(achieved_k), t=number(achieved_t, 4)
        )
    return Verification(
        k=achieved_k,
        t=achieved_t,
        n_records=int(sizes.sum()),
        n_classes=len(sizes),
        class_sizes=np.sort(sizes)[::-1],
        ok=not failed,
        message=message,
        worst_class=worst_class,
        worst_bucket=worst_bucket,
    )
