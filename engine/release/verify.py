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


def class_distances(classes: np.ndarray, buckets: np.ndarray) -> np.ndarray:
    """d(class distribution, file distribution) of every class (KBS 2015, Definition 4)."""
    n = len(classes)
    n_classes = int(classes.max()) + 1
    n_buckets = int(buckets.max()) + 1
    sizes = np.bincount(classes, minlength=n_classes)
    shares = np.bincount(buckets, minlength=n_buckets) / n
    pairs, counts = np.unique(classes * n_buckets + buckets, return_counts=True)
    cls, bkt = pairs // n_buckets, pairs % n_buckets
    ratio = counts / sizes[cls] / shares[bkt]
    worst = np.zeros(n_classes)
    np.maximum.at(worst, cls, np.maximum(ratio, 1.0 / ratio))
    present = np.bincount(cls, minlength=n_classes)
    worst[present < n_buckets] = np.inf
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
) -> Verification:
    """Achieved k and t of a released table, and whether they meet the given bounds.

    With ``household`` (the column of household ids), k also bounds the distinct households
    of every class, and the ``household_level`` columns must be alike within every household.
    """
    qi, confidential = list(qi), list(confidential)
    check_release_columns([*qi, *confidential, *([household] if household else [])], table.columns)
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
        homes = household_check(table, classes, household, household_level, k=k)
        failed.update(homes.pop("failed"))
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
        if result.ok:
            result.message = result.message[:-1] + _(
                "; every class holds records of ≥ {n} households."
            ).format(n=number(result.households_k))
    return result


def household_check(
    table: pd.DataFrame,
    classes: np.ndarray,
    household: str,
    household_level: Sequence[str],
    *,
    k: int | None,
) -> dict[str, Any]:
    """Households per class and households split on a household-level column.

    Returns the :class:`Verification` fields (``households_k``, ``n_households``,
    ``split_households``, ``shared_classes``) and, under ``"failed"``, the bounds they miss.
    """
    missing = [c for c in household_level if c not in table.columns]
    if missing:
        raise InputError(f"The release has no column {', '.join(map(repr, missing))}.")
    hh = pd.factorize(table[household].astype("string"), use_na_sentinel=False)[0]
    hh = hh.astype(np.int64)
    n_h = int(hh.max()) + 1
    pairs, counts = np.unique(classes * n_h + hh, return_counts=True)
    per_class = np.bincount(pairs // n_h, minlength=int(classes.max()) + 1)
    shared = len(np.unique(pairs[counts > 1] // n_h))
    households_k = int(per_class.min())
    split = 0
    if household_level:
        values = group_ids(table, list(household_level))
        per_home = np.unique(hh * (int(values.max()) + 1) + values) // (int(values.max()) + 1)
        split = int((np.bincount(per_home, minlength=n_h) > 1).sum())
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
