"""Analysis utility: what an analyst computes from a public-use file, before and after.

:func:`analysis_utility` computes on the original records and on the released ones, side by
side, the totals, variances, group means, correlations and a regression an analyst would
estimate from the release.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from engine.release.columns import numeric_values, ordinal_ranks
from engine.release.model import Coefficient, ColumnUtility, Correlation, Regression
from engine.roles import ColumnType

#: groups smaller than this (records in the original) are left out of the group means
MIN_GROUP = 20


#: numeric QIs are grouped into this many groups of equal size (fifths) for group means
NUMERIC_GROUPS = 5


#: most indicator columns a nominal QI gets in the regression (its commonest categories)
MAX_INDICATORS = 10


#: group errors are relative to at least this share of the column's overall mean
NEAR_ZERO = 0.1


#: a positive outcome whose skewness exceeds this is regressed on a log scale
SKEWED = 1.0


#: above this many records the regression is fitted on a fixed random sample of this many
#: (its ``n_records`` says so): the coefficients' error barely moves, the cost falls tenfold
REGRESSION_SAMPLE = 100_000


def analysis_utility(
    original: pd.DataFrame,
    released_qi: pd.DataFrame,
    released: Mapping[str, pd.Series],
    *,
    qi: Sequence[str],
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
    released_as: Mapping[str, str],
) -> dict[str, ColumnUtility]:
    """What an analyst computes from each confidential column, original against released.

    ``original`` holds the cleaned input (missing codes applied); ``released_qi`` the released
    QI values and ``released`` the released confidential values, both aligned with the input
    rows (before the release is shuffled).  QIs released as ranges are measured at their
    class centroids, which the caller passes.  Numeric columns get the relative error of the
    total, the variance ratio, the mean absolute relative error of the group means for each
    QI, the correlation with each numeric QI and an OLS regression on all QIs (numpy least
    squares; on a fixed sample of :data:`REGRESSION_SAMPLE` records in larger files, which
    its ``n_records`` states); category columns the share of values changed.
    """
    out: dict[str, ColumnUtility] = {}
    for col, values in released.items():
        how = released_as.get(col, "")
        if types[col] not in (ColumnType.NUMERIC, ColumnType.DATE):
            out[col] = _category_utility(col, how, original[col], values)
        else:
            out[col] = _numeric_utility(
                col, how, original, released_qi, values, qi=qi, types=types, orders=orders
            )
    return out


def _category_utility(col: str, how: str, original: pd.Series, values: pd.Series) -> ColumnUtility:
    """The share of a category column's values the release changed (of those present in both)."""
    x = original.reset_index(drop=True)
    present = (x.notna() & values.notna()).to_numpy()
    changed = None
    if present.any():
        a = x[present].astype(str).to_numpy()
        b = values[present].astype(str).to_numpy()
        changed = float((a != b).mean())
    return ColumnUtility(col, how, share_changed=changed)


def _numeric_utility(
    col: str,
    how: str,
    original: pd.DataFrame,
    released_qi: pd.DataFrame,
    values: pd.Series,
    *,
    qi: Sequence[str],
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
) -> ColumnUtility:
    """A numeric (or date) column's analyses, original against released: total, variance,
    group means per QI, correlations with numeric QIs and the regression on all QIs."""
    ctype = types[col]
    y = numeric_values(original[col].reset_index(drop=True), ctype)
    if pd.api.types.is_numeric_dtype(values.dtype):  # numbers already
        z = pd.Series(values).to_numpy(dtype=float, na_value=np.nan)
    else:
        z = pd.to_numeric(pd.Series(values, dtype=object), errors="coerce").to_numpy(float)
    if ctype == ColumnType.DATE:
        z = numeric_values(pd.Series(values), ctype)
    mask = ~np.isnan(y) & ~np.isnan(z)
    if not mask.any():
        return ColumnUtility(col, how)
    total = float(y[mask].sum())
    rows = _sample(len(y))
    return ColumnUtility(
        column=col,
        released_as=how,
        total_relative_error=(
            (float(z[mask].sum()) - total) / abs(total)
            if total != 0 and ctype == ColumnType.NUMERIC
            else None
        ),
        variance_ratio=_ratio(float(z[mask].var()), float(y[mask].var())),
        group_mean_mare={
            q: err
            for q in qi
            if (err := _group_mean_error(y, z, mask, original[q], released_qi[q], types[q]))
            is not None
        },
        correlations=tuple(
            Correlation(
                q,
                _corr(y, _numbers(original[q], types[q]), mask),
                _corr(z, _numbers(released_qi[q], types[q]), mask),
            )
            for q in qi
            if types[q] in (ColumnType.NUMERIC, ColumnType.DATE)
        ),
        regression=_regression(
            col,
            y[rows],
            z[rows],
            mask[rows],
            original.iloc[rows],
            released_qi.iloc[rows],
            qi,
            types,
            orders,
        ),
    )


def _sample(n: int) -> np.ndarray:
    """Positions of the records the regression is fitted on: all, or
    :data:`REGRESSION_SAMPLE` of them fixed at random (the same file gives the same figures)."""
    if n <= REGRESSION_SAMPLE:
        return np.arange(n)
    return np.sort(np.random.default_rng(0).choice(n, REGRESSION_SAMPLE, replace=False))


def _ratio(a: float, b: float) -> float | None:
    return a / b if b > 0 else None


def _numbers(series: pd.Series, ctype: ColumnType) -> np.ndarray:
    return numeric_values(series.reset_index(drop=True), ctype)


def _corr(a: np.ndarray, b: np.ndarray, mask: np.ndarray) -> float | None:
    keep = mask & ~np.isnan(b)
    if keep.sum() < 3:
        return None
    x, y = a[keep], b[keep]
    if x.std() == 0 or y.std() == 0:
        return None
    return float(np.corrcoef(x, y)[0, 1])


def _groups(
    before: pd.Series, after: pd.Series, ctype: ColumnType
) -> tuple[np.ndarray, np.ndarray]:
    """Group keys of every record, from its original and from its released QI value.

    Categories are their own groups; a numeric or date QI is cut into fifths at the original
    values' quantiles, and the released values go into the same fifths.
    """
    before, after = before.reset_index(drop=True), after.reset_index(drop=True)
    if ctype in (ColumnType.NUMERIC, ColumnType.DATE):
        a, b = numeric_values(before, ctype), numeric_values(after, ctype)
        known = a[~np.isnan(a)]
        if known.size == 0:
            return np.full(len(a), -1), np.full(len(b), -1)
        edges = np.unique(np.quantile(known, np.linspace(0, 1, NUMERIC_GROUPS + 1)[1:-1]))
        ga = np.where(np.isnan(a), -1, np.searchsorted(edges, a, side="right"))
        gb = np.where(np.isnan(b), -1, np.searchsorted(edges, b, side="right"))
        return ga, gb
    codes, cats = pd.factorize(before.astype("string"))
    # the released values as codes first, then their few distinct values looked up among
    # the original's categories: never a million texts looked up one by one
    released, distinct = pd.factorize(after.astype("string"))  # −1: missing
    lookup = pd.Index(cats).get_indexer(distinct)
    lookup = np.where(lookup < 0, -2, lookup)  # −2: a category the original lacks
    gb = np.where(released >= 0, lookup[np.maximum(released, 0)] if len(lookup) else -1, -1)
    return codes, gb.astype(np.int64)


def _group_mean_error(
    y: np.ndarray,
    z: np.ndarray,
    mask: np.ndarray,
    before: pd.Series,
    after: pd.Series,
    ctype: ColumnType,
) -> float | None:
    """Mean over the QI's groups of |released group mean − original| / |original|, each
    group weighted by its records (a group of 24 first-graders counts less than 12,000 high
    school graduates).

    Groups of at least :data:`MIN_GROUP` original records count; a group the release no
    longer has counts as a relative error of 1.  A group mean near zero (children's incomes)
    would make any error huge, so the error is relative to at least :data:`NEAR_ZERO` of
    the column's overall mean.
    """
    ga, gb = _groups(before, after, ctype)
    floor = NEAR_ZERO * abs(float(y[mask].mean()))
    n_groups = int(ga.max()) + 1 if len(ga) else 0
    size, total = _group_sums(ga, y, n_groups, mask)
    released, released_total = _group_sums(gb, z, n_groups, mask)
    errors, weights = [], []
    for g in np.flatnonzero(size >= MIN_GROUP):
        m = total[g] / size[g]
        if max(abs(m), floor) == 0:
            continue
        r = released_total[g] / released[g] if released[g] else None
        errors.append(1.0 if r is None else abs(r - m) / max(abs(m), floor))
        weights.append(float(size[g]))
    return float(np.average(errors, weights=weights)) if errors else None


def _group_sums(
    groups: np.ndarray, values: np.ndarray, n_groups: int, keep: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Records and sum of ``values`` of each group 0..n_groups − 1 (negative numbers, and
    records not in ``keep``: in no group), counted in one pass over the file."""
    groups = np.asarray(groups)
    inside = (groups >= 0) & (groups < n_groups) & keep
    chosen = groups[inside]
    return (
        np.bincount(chosen, minlength=n_groups),
        np.bincount(chosen, weights=values[inside], minlength=n_groups),
    )


def _design(
    frame: pd.DataFrame,
    qi: Sequence[str],
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
    levels: Mapping[str, list[str]],
) -> tuple[np.ndarray, list[str]]:
    """The regression's design matrix (intercept first) and the names of its terms."""
    columns = [np.ones(len(frame))]
    names = ["intercept"]
    for q in qi:
        series = frame[q].reset_index(drop=True)
        ctype = types[q]
        if ctype in (ColumnType.NUMERIC, ColumnType.DATE):
            columns.append(numeric_values(series, ctype))
            names.append(q)
        elif ctype == ColumnType.ORDINAL:
            columns.append(ordinal_ranks(series, orders.get(q)))
            names.append(f"{q} (rank)")
        else:
            text = series.astype("string")
            missing = text.isna().to_numpy()
            for level in levels[q]:
                indicator = (text == level).fillna(False).to_numpy(dtype=float)
                indicator[missing] = np.nan
                columns.append(indicator)
                names.append(f"{q} = {level}")
    return np.column_stack(columns), names


def _regression(
    col: str,
    y: np.ndarray,
    z: np.ndarray,
    mask: np.ndarray,
    original: pd.DataFrame,
    released_qi: pd.DataFrame,
    qi: Sequence[str],
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
) -> Regression | None:
    """OLS of the column on the QIs, on the original and on the released records."""
    if not qi:
        return None
    levels = {}
    for q in qi:
        if types[q] == ColumnType.NOMINAL:
            counts = original[q].astype("string").value_counts()
            common = [str(c) for c, n in counts.items() if n >= MIN_GROUP]
            levels[q] = common[1 : MAX_INDICATORS + 1]  # the commonest is the reference
    A, names = _design(original, qi, types, orders, levels)
    B, _ = _design(released_qi, qi, types, orders, levels)
    keep = mask & ~np.isnan(A).any(axis=1) & ~np.isnan(B).any(axis=1)
    positive = keep & (y > 0) & (z > 0)
    log = bool(keep.any() and positive.sum() == keep.sum() and pd.Series(y[keep]).skew() > SKEWED)
    if keep.sum() <= A.shape[1]:
        return None
    ya, yb = (np.log(y[keep]), np.log(z[keep])) if log else (y[keep], z[keep])
    before = np.linalg.lstsq(A[keep], ya, rcond=None)[0]
    after = np.linalg.lstsq(B[keep], yb, rcond=None)[0]
    # a slope that is zero up to rounding (a term collinear with others) has no relative error
    tiny = 1e-9 * float(np.abs(before[1:]).max()) if len(before) > 1 else 0.0
    slopes = [
        abs(b - a) / abs(a)
        for a, b in zip(before[1:], after[1:], strict=True)
        if abs(a) > max(tiny, 1e-300)
    ]
    return Regression(
        outcome=f"log({col})" if log else col,
        log=log,
        n_records=int(keep.sum()),
        coefficients=tuple(
            Coefficient(n, float(a), float(b)) for n, a, b in zip(names, before, after, strict=True)
        ),
        coefficient_median_relative_error=float(np.median(slopes)) if slopes else None,
    )
