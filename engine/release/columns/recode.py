"""The release table: QIs recoded per class, confidential values replaced by their bucket.

Every record of a class gets the same released QI values, so the released table falls apart
into the equivalence classes a checker can find without any other information (KBS 2015 §2):

* ``centroid``: mean for numeric columns (rounded to the column's own precision), the median
  category for ordinal ones, the most frequent category for nominal ones, the mean date;
* ``range``: ``lo–hi`` for numeric, ordinal and date columns, ``{A, B}`` for nominal ones
  (category names quoted when one of the column's names holds the separator, a quote or a
  bracket: :class:`engine.release.columns.NameList`).
  Numeric and date ends are public round numbers, never a person's value
  (:func:`engine.release.columns.cuts.range_ends`): inside the central 99 % of the column (between
  its 0.5 and 99.5 percentiles) they are rounded outward to a grid of the 1–2–5 step at most
  1/100 of that spread (a calendar unit for dates); an end beyond it, an outlier's value, goes
  to the next number of the 1–2–5 series strictly beyond (563,569.08 → 1,000,000).  Classes
  whose rounded ranges coincide become one released class, which keeps k-anonymity and
  t-closeness (a union of t-close classes is t-close).

A missing QI value is released empty, never as its class's value
(:mod:`engine.release.columns.missing_qi`): classes are formed so that their records agree on which
QIs are missing, and in a class that does not (one formed elsewhere), the QIs missing for
some of its records are withheld for all of them, so that the class stays one released class.

Confidential values become their bucket's ``mean`` (the mean of the whole bucket, which keeps
totals; the median where the p%-rule withholds it; the mode or median category for category
columns), its ``median``, or its ``label`` (an interval or category set); the missing bucket
is released empty.
Identifiers and untagged columns are dropped, ``keep`` columns pass unchanged, and rows are
shuffled so that position does not link back to the input.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Literal

import numpy as np
import pandas as pd

from engine.recoding import ROOT, Hierarchy, value_text
from engine.release.columns.cuts import (
    NameList,
    date_range_ends,
    decimal_places,
    format_date,
    format_number,
    range_ends,
)
from engine.release.columns.encode import category_order, numeric_values, ordinal_ranks
from engine.release.columns.missing_qi import missing_mask, withhold, withhold_mixed
from engine.release.model import Buckets
from engine.roles import ColumnType

_EPOCH = pd.Timestamp("1970-01-01")


def decimals(series: pd.Series) -> int:
    """Decimal places the column is recorded with (0 for whole numbers, at most 6)."""
    if pd.api.types.is_integer_dtype(series.dtype):  # whole numbers by their type
        return 0
    return decimal_places(pd.to_numeric(series, errors="coerce").to_numpy(dtype=float))


def _by_class(values: np.ndarray, classes: np.ndarray) -> pd.core.groupby.SeriesGroupBy:
    return pd.Series(values).groupby(classes)


def _class_means(values: np.ndarray, classes: np.ndarray) -> pd.Series:
    """Each class's mean of ``values`` (missing ones left out), indexed by class.

    Whole numbers with no value missing, whose sums are exact in a double, are summed
    with ``np.bincount``: the same means as the group-by's (whose compensated sums are
    exact there too) without hashing a million class labels."""
    if (
        len(values)
        and not np.isnan(values).any()
        and np.all(np.floor(values) == values)
        and float(np.abs(values).max()) * len(values) < 2**53
    ):
        counts = np.bincount(classes)
        used = np.flatnonzero(counts)
        sums = np.bincount(classes, weights=values)[used]
        return pd.Series(sums / counts[used], index=used)
    return _by_class(values, classes).mean()


def _positions(index: pd.Index, at: np.ndarray) -> np.ndarray:
    """Where each released record's class (``at``) sits among the per-class values indexed
    by the sorted class numbers ``index`` (as a group-by gives them).

    A positional take, not ``reindex``: the index lookup of a million labels took longer
    than the group-by itself.
    """
    labels = index.to_numpy()
    if len(labels) and labels[0] == 0 and labels[-1] == len(labels) - 1:  # classes 0..C-1
        return at
    return np.searchsorted(labels, at)


def _spread(per_class: pd.Series, at: np.ndarray, name: object, dtype: str | None = None):
    """The column of the released records from one value per class: the values' type is
    settled on the few per-class values (as it would be on the million), then taken."""
    values = pd.Series(per_class.to_numpy(), dtype=dtype, copy=False)
    return pd.Series(values.array.take(_positions(per_class.index, at)), name=name)


def _category_codes(series: pd.Series) -> tuple[np.ndarray, pd.Index]:
    """(code of every value, −1 where missing; the categories in sorted order): a column's
    values as small integers, so that classes are counted with ``np.bincount`` and sorts of
    integers, never by grouping a million values as text."""
    codes, uniques = pd.factorize(series, sort=True)
    return np.asarray(codes, dtype=np.int64), uniques


def _class_counts(
    classes: np.ndarray, codes: np.ndarray, n_codes: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (class, code) pairs present, each once, ordered by class then code, and how many
    records hold each: (classes, codes, counts).  ``codes`` −1 (missing) are left out."""
    present = codes >= 0
    key = classes[present].astype(np.int64) * n_codes + codes[present]
    n_classes = int(classes.max()) + 1 if len(classes) else 0
    if n_classes * n_codes <= max(4 * len(key), 1 << 20):  # a table of counts is small
        table = np.bincount(key, minlength=n_classes * n_codes)
        pairs = np.flatnonzero(table)
        counts = table[pairs]
    else:
        pairs, counts = np.unique(key, return_counts=True)
    return pairs // n_codes, pairs % n_codes, counts


def _numeric_centroid(
    series: pd.Series,
    ctype: ColumnType,
    classes: np.ndarray,
    places: int | None = None,
    at: np.ndarray | None = None,
) -> pd.Series:
    at = classes if at is None else at
    nums = numeric_values(series, ctype)
    means = _class_means(nums, classes)
    if ctype == ColumnType.DATE:
        per_class = means.round().map(
            lambda d: pd.NaT if pd.isna(d) else _EPOCH + pd.Timedelta(days=d)
        )
        return _spread(per_class, at, series.name)
    places = decimals(series) if places is None else places
    per_class = means.round(places)
    out = _spread(per_class, at, series.name)
    if places == 0 and not (out.abs() >= 2**63).any():  # whole numbers beyond int64 stay floats
        out = out.astype("Int64") if out.isna().any() else out.astype("int64")
    return out


def _ordinal_centroid(
    series: pd.Series,
    order: Sequence[str] | None,
    classes: np.ndarray,
    at: np.ndarray | None = None,
):
    """Each class's median category (the lower middle one of an even count); missing for a
    class whose values are missing.  One sort of (class, rank) integers."""
    at = classes if at is None else at
    cats = category_order(series, order)
    ranks = ordinal_ranks(series, order)
    present = ~np.isnan(ranks)
    n_ranks = max(len(cats), 1)
    n_classes = int(classes.max()) + 1 if len(classes) else 0
    inside = classes[present].astype(np.int64)
    key = np.sort(inside * n_ranks + ranks[present].astype(np.int64))
    counts = np.bincount(inside, minlength=n_classes)
    starts = np.cumsum(counts) - counts
    held = counts > 0
    median = np.full(n_classes, np.nan)
    # the lower median of n sorted ranks is the ((n − 1) // 2)-th
    median[held] = key[starts[held] + (counts[held] - 1) // 2] % n_ranks
    used = np.flatnonzero(np.bincount(classes, minlength=n_classes))
    # one category per class (as the group-by's quantile gave it, so its type is the same)
    per_class = pd.Series(median[used], index=used).map(
        lambda r: None if pd.isna(r) else cats[int(r)]
    )
    return _spread(per_class, at, series.name)


def _nominal_centroid(
    series: pd.Series, classes: np.ndarray, at: np.ndarray | None = None
) -> pd.Series:
    """Each class's most frequent category (ties: the first in sorted order); missing for a
    class whose values are missing (:func:`recode_qi` makes classes agree on that)."""
    at = classes if at is None else at
    codes, uniques = _category_codes(series)
    n_classes = int(classes.max()) + 1 if len(classes) else 0
    top = np.full(n_classes, -1, dtype=np.int64)
    if len(uniques):
        cls, code, counts = _class_counts(classes, codes, len(uniques))
        # most records first; a stable sort keeps ties in category order
        order = np.lexsort((-counts, cls))
        first = np.ones(len(order), dtype=bool)
        first[1:] = cls[order][1:] != cls[order][:-1]
        top[cls[order][first]] = code[order][first]
    values = pd.api.extensions.take(uniques.array, top[at], allow_fill=True)
    return pd.Series(values, name=series.name).astype(
        series.dtype if series.dtype != object else object
    )


def _nominal_range(series: pd.Series, classes: np.ndarray, at: np.ndarray) -> pd.Series:
    """Each class's ``{A, B}``: the categories its records hold, in sorted order."""
    text = series.astype("string")
    codes, uniques = pd.factorize(text)
    names = [str(u) for u in uniques]
    rank = np.empty(len(names), dtype=np.int64)  # codes renumbered in sorted order
    rank[sorted(range(len(names)), key=names.__getitem__)] = np.arange(len(names))
    by_rank = sorted(names)
    codes = np.where(codes >= 0, rank[np.maximum(codes, 0)], -1) if names else codes
    n_classes = int(classes.max()) + 1 if len(classes) else 0
    per_class = np.full(n_classes, None, dtype=object)
    if names:
        listing = NameList(names)
        cls, code, _counts = _class_counts(classes, codes, len(names))
        bounds = np.flatnonzero(np.r_[True, cls[1:] != cls[:-1], True])
        for a, b in itertools.pairwise(bounds):
            per_class[cls[a]] = listing.set([by_rank[c] for c in code[a:b]])
    return pd.Series(pd.array(per_class, dtype="string").take(at), name=series.name)


def _common(
    series: pd.Series,
    hierarchy: Hierarchy | None,
    classes: np.ndarray,
    at: np.ndarray | None = None,
) -> pd.Series:
    """Each class's lowest common level: with a hierarchy, the finest value of it that every
    member holds (commune, else district, …, else ``*``); without one, the value when every
    member holds it, else ``*``.  Never a category a member does not hold; missing for a
    class whose values are missing (:func:`recode_qi` makes classes agree on that)."""
    at = classes if at is None else at
    frame = pd.DataFrame({"c": classes, "v": series.to_numpy()}).dropna(subset=["v"])
    if hierarchy is None:
        texts = frame["v"].map(value_text)
        per_class = texts.groupby(frame["c"]).agg(lambda v: v.iloc[0] if v.nunique() == 1 else ROOT)
    else:
        distinct = frame.groupby("c")["v"].agg(lambda v: list(pd.unique(v)))
        per_class = distinct.map(hierarchy.common)
    every = np.full(int(classes.max()) + 1 if len(classes) else 0, None, dtype=object)
    every[per_class.index.to_numpy(dtype=np.int64)] = per_class.to_numpy()
    out = pd.Series(every[at], name=series.name, dtype=object)
    return out.where(out.notna(), None)


def _range(
    series: pd.Series,
    ctype: ColumnType,
    order: Sequence[str] | None,
    classes: np.ndarray,
    at: np.ndarray | None = None,
):
    """Each class's ``lo–hi`` (numeric, date, ordinal) or ``{A, B}`` (nominal) as text.

    Numeric and date ends are public: rounded outward (module doc), so a range never ends at
    one person's exact value and an outlier shows only as a round number beyond it.
    """
    at = classes if at is None else at
    if ctype == ColumnType.NOMINAL:
        return _nominal_range(series, classes, at)
    if ctype == ColumnType.ORDINAL:
        cats = category_order(series, order)
        keys = ordinal_ranks(series, order)
        names = NameList(map(str, cats), separator="–")

        def fmt(x: float) -> str:
            return names.name(cats[int(x)])

    else:
        keys = numeric_values(series, ctype)
        fmt = format_date if ctype == ColumnType.DATE else format_number
    grouped = _by_class(keys, classes)
    lo, hi = grouped.min(), grouped.max()
    if ctype != ColumnType.ORDINAL:
        present = ~np.isnan(lo.to_numpy())
        ends = date_range_ends if ctype == ColumnType.DATE else range_ends
        lo_v, hi_v = lo.to_numpy(dtype=float, copy=True), hi.to_numpy(dtype=float, copy=True)
        if present.any():
            lo_v[present], hi_v[present] = ends(lo_v[present], hi_v[present], keys)
        lo, hi = pd.Series(lo_v, index=lo.index), pd.Series(hi_v, index=hi.index)
    text = pd.Series(
        [
            None if pd.isna(a) else (fmt(a) if a == b else f"{fmt(a)}–{fmt(b)}")
            for a, b in zip(lo, hi, strict=True)
        ],
        index=lo.index,
        dtype=object,
    )
    return _spread(text, at, series.name, dtype="string")


def recode_qi(
    data: pd.DataFrame,
    qi: Sequence[str],
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
    classes: np.ndarray,
    mode: Literal["centroid", "range", "common"] = "centroid",
    places: Mapping[str, int] | None = None,
    hierarchies: Mapping[str, Hierarchy] | None = None,
    *,
    rows: np.ndarray | None = None,
) -> pd.DataFrame:
    """The released QI columns: one value per class (module doc).

    ``places`` gives the decimals of numeric columns when ``data`` is one part of a file
    (a cluster recodes partition by partition; the precision is the whole column's).  A
    column with a hierarchy (``hierarchies``) releases its class's lowest common level
    whatever the mode; ``common`` does the same for every nominal column (the value all
    members hold, else ``*``) and releases the others as ``centroid`` does.  ``rows``: the
    input record of each released row (the release's shuffled order), so that the
    per-class values are spread to the rows once, in their final order; None: the rows of
    ``data``, in order.
    """
    hierarchies = hierarchies or {}
    # a class whose records disagree on which QIs are missing would fall apart on release
    data = withhold(data, qi, withhold_mixed(missing_mask(data, qi), classes))
    at = classes if rows is None else classes[rows]
    out = {}
    for col in qi:
        series = data[col].reset_index(drop=True)
        ctype = types[col]
        if col in hierarchies or (mode == "common" and ctype == ColumnType.NOMINAL):
            out[col] = _common(series, hierarchies.get(col), classes, at)
        elif mode == "range":
            out[col] = _range(series, ctype, orders.get(col), classes, at)
        elif ctype in (ColumnType.NUMERIC, ColumnType.DATE):
            out[col] = _numeric_centroid(series, ctype, classes, (places or {}).get(col), at)
        elif ctype == ColumnType.ORDINAL:
            out[col] = _ordinal_centroid(series, orders.get(col), classes, at)
        else:
            out[col] = _nominal_centroid(series, classes, at)
    return pd.DataFrame(out, index=pd.RangeIndex(len(at)))


def _as_numbers(per_bucket: pd.Series) -> pd.Series:
    """The released value of every bucket as numbers when every one is a number (ints stay
    ints), else as they are: converted once per bucket, not once per record."""
    numeric = pd.to_numeric(per_bucket, errors="coerce")
    return numeric if numeric.notna().sum() == per_bucket.notna().sum() else per_bucket


def release_confidential(
    buckets: Buckets,
    mode: Literal["mean", "median", "label"] = "mean",
    *,
    rows: np.ndarray | None = None,
) -> pd.DataFrame:
    """The released confidential columns: each record's bucket mean, median or label
    (``rows``: the input record of each released row, as for :func:`recode_qi`)."""
    out = {}
    codes = buckets.codes if rows is None else buckets.codes[rows]
    released = buckets.released(mode)
    for i, col in enumerate(buckets.columns):
        if mode != "label":
            per_bucket = _as_numbers(pd.Series([rep[i] for rep in released]))
            out[col] = per_bucket.iloc[codes].reset_index(drop=True)
        else:
            labels = buckets.column_labels or [(lab,) for lab in buckets.labels]
            per_bucket = pd.Series([lab[i] or None for lab in labels], dtype="string")
            out[col] = per_bucket.iloc[codes].reset_index(drop=True)
    return pd.DataFrame(out, index=pd.RangeIndex(len(codes)))


def build_release(
    data: pd.DataFrame,
    *,
    qi: Sequence[str],
    keep: Sequence[str],
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
    classes: np.ndarray,
    buckets: Buckets | None,
    qi_output: Literal["centroid", "range", "common"],
    confidential_output: Literal["mean", "median", "label"],
    rng: np.random.Generator,
    original: pd.DataFrame | None = None,
    extra: Mapping[str, pd.Series] | None = None,
    hierarchies: Mapping[str, Hierarchy] | None = None,
    places: Mapping[str, int] | None = None,
) -> tuple[pd.DataFrame, np.ndarray]:
    """The whole released table, columns in input order, rows shuffled; and the input row of
    every released row (kept in memory for previews, never written).

    ``original`` supplies the ``keep`` columns unchanged (before missing codes were applied);
    ``extra`` holds columns released in a form made elsewhere, aligned with the rows of
    ``data`` (household-level QIs, the re-coded household id, the weight:
    :mod:`engine.release.households`); ``places`` the decimals of numeric QIs when ``data``
    is one part of a file (:func:`recode_qi`).
    """
    # the rows' order first: every column is made in it at once (a shuffle of the finished
    # table took every text column a second time)
    order = rng.permutation(len(classes))
    parts = [
        recode_qi(data, qi, types, orders, classes, qi_output, places, hierarchies, rows=order)
    ]
    if buckets is not None:
        parts.append(release_confidential(buckets, confidential_output, rows=order))
    source = original if original is not None else data
    if keep:
        parts.append(source[list(keep)].iloc[order].reset_index(drop=True))
    if extra:
        parts.append(
            pd.DataFrame({c: v.iloc[order].reset_index(drop=True) for c, v in extra.items()})
        )
    table = pd.concat(parts, axis=1)
    ordered = [c for c in source.columns if c in table.columns]
    return table[ordered], order
