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
    return decimal_places(pd.to_numeric(series, errors="coerce").to_numpy(dtype=float))


def _by_class(values: np.ndarray, classes: np.ndarray) -> pd.core.groupby.SeriesGroupBy:
    return pd.Series(values).groupby(classes)


def _numeric_centroid(
    series: pd.Series, ctype: ColumnType, classes: np.ndarray, places: int | None = None
) -> pd.Series:
    nums = numeric_values(series, ctype)
    means = _by_class(nums, classes).mean()
    if ctype == ColumnType.DATE:
        per_class = means.round().map(
            lambda d: pd.NaT if pd.isna(d) else _EPOCH + pd.Timedelta(days=d)
        )
        return pd.Series(per_class.reindex(classes).to_numpy(), name=series.name)
    places = decimals(series) if places is None else places
    per_class = means.round(places)
    out = pd.Series(per_class.reindex(classes).to_numpy(), name=series.name)
    if places == 0 and not (out.abs() >= 2**63).any():  # whole numbers beyond int64 stay floats
        out = out.astype("Int64") if out.isna().any() else out.astype("int64")
    return out


def _ordinal_centroid(series: pd.Series, order: Sequence[str] | None, classes: np.ndarray):
    cats = category_order(series, order)
    ranks = ordinal_ranks(series, order)
    med = _by_class(ranks, classes).quantile(0.5, interpolation="lower")
    per_class = med.map(lambda r: None if pd.isna(r) else cats[int(r)])
    return pd.Series(per_class.reindex(classes).to_numpy(), name=series.name)


def _nominal_centroid(series: pd.Series, classes: np.ndarray) -> pd.Series:
    """Each class's most frequent category (ties: the first in sorted order); missing for a
    class whose values are missing (:func:`recode_qi` makes classes agree on that)."""
    frame = pd.DataFrame({"c": classes, "v": series.to_numpy()}).dropna(subset=["v"])
    sizes = frame.groupby(["c", "v"], sort=True).size().reset_index(name="n")
    sizes["neg"] = -sizes["n"]
    top = sizes.sort_values(["c", "neg"], kind="stable").drop_duplicates("c")
    per_class = pd.Series(top["v"].to_numpy(), index=top["c"].to_numpy())
    return pd.Series(per_class.reindex(classes).to_numpy(), name=series.name).astype(
        series.dtype if series.dtype != object else object
    )


def _common(series: pd.Series, hierarchy: Hierarchy | None, classes: np.ndarray) -> pd.Series:
    """Each class's lowest common level: with a hierarchy, the finest value of it that every
    member holds (commune, else district, …, else ``*``); without one, the value when every
    member holds it, else ``*``.  Never a category a member does not hold; missing for a
    class whose values are missing (:func:`recode_qi` makes classes agree on that)."""
    frame = pd.DataFrame({"c": classes, "v": series.to_numpy()}).dropna(subset=["v"])
    if hierarchy is None:
        texts = frame["v"].map(value_text)
        per_class = texts.groupby(frame["c"]).agg(lambda v: v.iloc[0] if v.nunique() == 1 else ROOT)
    else:
        distinct = frame.groupby("c")["v"].agg(lambda v: list(pd.unique(v)))
        per_class = distinct.map(hierarchy.common)
    out = pd.Series(per_class.reindex(classes).to_numpy(), name=series.name, dtype=object)
    return out.where(out.notna(), None)


def _range(series: pd.Series, ctype: ColumnType, order: Sequence[str] | None, classes):
    """Each class's ``lo–hi`` (numeric, date, ordinal) or ``{A, B}`` (nominal) as text.

    Numeric and date ends are public: rounded outward (module doc), so a range never ends at
    one person's exact value and an outlier shows only as a round number beyond it.
    """
    if ctype == ColumnType.NOMINAL:
        frame = pd.DataFrame({"c": classes, "v": series.astype("string")}).dropna()
        names = NameList(frame["v"].unique())
        sets = frame.groupby("c")["v"].agg(lambda v: sorted(set(v)))
        text = sets.map(names.set)
        return pd.Series(text.reindex(classes).to_numpy(), name=series.name, dtype="string")
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
    return pd.Series(text.reindex(classes).to_numpy(), name=series.name, dtype="string")


def recode_qi(
    data: pd.DataFrame,
    qi: Sequence[str],
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
    classes: np.ndarray,
    mode: Literal["centroid", "range", "common"] = "centroid",
    places: Mapping[str, int] | None = None,
    hierarchies: Mapping[str, Hierarchy] | None = None,
) -> pd.DataFrame:
    """The released QI columns: one value per class (module doc).

    ``places`` gives the decimals of numeric columns when ``data`` is one part of a file
    (a cluster recodes partition by partition; the precision is the whole column's).  A
    column with a hierarchy (``hierarchies``) releases its class's lowest common level
    whatever the mode; ``common`` does the same for every nominal column (the value all
    members hold, else ``*``) and releases the others as ``centroid`` does.
    """
    hierarchies = hierarchies or {}
    # a class whose records disagree on which QIs are missing would fall apart on release
    data = withhold(data, qi, withhold_mixed(missing_mask(data, qi), classes))
    out = {}
    for col in qi:
        series = data[col].reset_index(drop=True)
        ctype = types[col]
        if col in hierarchies or (mode == "common" and ctype == ColumnType.NOMINAL):
            out[col] = _common(series, hierarchies.get(col), classes)
        elif mode == "range":
            out[col] = _range(series, ctype, orders.get(col), classes)
        elif ctype in (ColumnType.NUMERIC, ColumnType.DATE):
            out[col] = _numeric_centroid(series, ctype, classes, (places or {}).get(col))
        elif ctype == ColumnType.ORDINAL:
            out[col] = _ordinal_centroid(series, orders.get(col), classes)
        else:
            out[col] = _nominal_centroid(series, classes)
    return pd.DataFrame(out, index=pd.RangeIndex(len(classes)))


def release_confidential(
    buckets: Buckets, mode: Literal["mean", "median", "label"] = "mean"
) -> pd.DataFrame:
    """The released confidential columns: each record's bucket mean, median or label."""
    out = {}
    codes = buckets.codes
    released = buckets.released(mode)
    for i, col in enumerate(buckets.columns):
        if mode != "label":
            per_bucket = pd.Series([rep[i] for rep in released])
            values = per_bucket.iloc[codes].reset_index(drop=True)
            numeric = pd.to_numeric(values, errors="coerce")
            if numeric.notna().sum() == values.notna().sum():
                values = numeric
            out[col] = values
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
    parts = [recode_qi(data, qi, types, orders, classes, qi_output, places, hierarchies)]
    if buckets is not None:
        parts.append(release_confidential(buckets, confidential_output))
    source = original if original is not None else data
    if keep:
        parts.append(source[list(keep)].reset_index(drop=True))
    if extra:
        parts.append(pd.DataFrame({c: v.reset_index(drop=True) for c, v in extra.items()}))
    table = pd.concat(parts, axis=1)
    ordered = [c for c in source.columns if c in table.columns]
    table = table[ordered]
    order = rng.permutation(len(table))
    return table.iloc[order].reset_index(drop=True), order
