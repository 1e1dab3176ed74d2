"""What the noise does to each confidential column: its share of ε, its bounds, its plan.

Each confidential column gets ε/m of the budget (m columns, sequential composition, so the
record as a whole is ε-DP): numeric columns Laplace noise after clamping to public bounds
(plain, or after insensitive microaggregation), clamped to the bounds again afterwards,
nominal and ordinal columns randomized response over their categories.  A numeric column
needs public bounds (:class:`BoundsRequiredError` otherwise: the data's own minimum and
maximum are never used), or ``private_bounds`` = a share s of ε: the column then spends s·ε/m
on DP quantiles as bounds (:mod:`engine.mechanisms.bounds`, :func:`estimate_bounds`) and
(1 − s)·ε/m on the noise.  A nominal or ordinal column needs public categories
(:func:`public_categories`: declared ones, an ordinal's declared order, or the labels of
public bands; :class:`~engine.mechanisms.response.CategoriesRequiredError` otherwise: the
categories found in the data are never used, since one person's rare category would show in
the release and its metadata); a value outside them is released as one of them drawn at
random, and the review record says how many there were (:func:`review_notes`), and how many
values were missing (released missing, which ε does not cover).  :func:`plan_columns` makes
every column's :class:`ColumnPlan`, and :func:`column_fact` says what the plan and the
summary tell of it (the expected error, the share of the released spread that is noise).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from engine.errors import InputError, quoted
from engine.i18n import _, ngettext
from engine.io.about import MOSTLY_NOISE
from engine.mechanisms import MECHANISMS
from engine.mechanisms.bounds import check_private_bounds, private_bounds
from engine.mechanisms.laplace import (
    check_bounds,
    expected_abs_error,
    log_bounds,
    typical_factor,
)
from engine.mechanisms.response import (
    MISSING,
    OUTSIDE,
    CategoriesRequiredError,
    uniform_keep_probability,
)
from engine.mechanisms.sampling import NoiseSource
from engine.params import ReleaseParams
from engine.recoding import band_labels, value_text
from engine.release.columns import (
    decimals,
    numeric_values,
)
from engine.release.model import (
    NoiseColumn,
)
from engine.roles import ColumnType
from engine.text import number, percent

if TYPE_CHECKING:
    pass


class BoundsRequiredError(InputError):
    """Laplace noise was asked for numeric columns that have neither public nor private bounds.

    ``columns`` names them, so that a caller can add its own way of giving bounds (the
    command line adds its flags) to the message.
    """

    def __init__(self, columns: list[str]) -> None:
        names = ", ".join(map(repr, columns))
        plural = "s" if len(columns) > 1 else ""
        super().__init__(
            f"Laplace noise on {names} needs public bounds: the lowest and highest value the "
            f"column{plural} can take, known without looking at this file (the data's own "
            "minimum and maximum are not differentially private). Give them, or spend a share "
            "of ε on estimating them privately."
        )
        self.columns = list(columns)


def laplace_columns(params: ReleaseParams, types: Mapping[str, ColumnType]) -> list[str]:
    """The confidential columns that get Laplace noise (the numeric ones)."""
    if not params.noise:
        return []
    return [c for c in params.confidential if ColumnType(types[c]) == ColumnType.NUMERIC]


def require_bounds(params: ReleaseParams, types: Mapping[str, ColumnType]) -> None:
    """Raise :class:`BoundsRequiredError` unless every Laplace column can get its bounds.

    ``types`` maps (at least) the confidential columns to their types.  The GUI and a plan
    can call this before any run; :func:`noise_release` calls it too.
    """
    if params.private_bounds is not None:
        return
    lacking = [c for c in laplace_columns(params, types) if c not in params.bounds]
    if lacking:
        raise BoundsRequiredError(lacking)


#: the column types randomized response protects
CATEGORY_TYPES = (ColumnType.NOMINAL, ColumnType.ORDINAL)


def category_columns(params: ReleaseParams, types: Mapping[str, ColumnType]) -> list[str]:
    """The confidential columns that get randomized response (the nominal and ordinal ones)."""
    if not params.noise:
        return []
    return [c for c in params.confidential if ColumnType(types[c]) in CATEGORY_TYPES]


def public_categories(params: ReleaseParams, column: str) -> tuple[str, ...] | None:
    """The public categories of a nominal or ordinal column (an ordinal's lowest first), or
    None when it has none.

    Public is what the parameters declare, never what the data holds: the column's declared
    ``categories``, else its declared category ``orders``, else the labels of its public
    ``bands``.  An order inferred from the values (a guess of :func:`engine.io.infer_types`)
    is the data's own categories, and is not public.
    """
    if column in params.categories:
        return tuple(params.categories[column])
    if column in params.orders:
        return tuple(str(c) for c in params.orders[column])
    if column in params.bands:
        return tuple(band_labels(params.bands[column]))
    return None


def require_categories(params: ReleaseParams, types: Mapping[str, ColumnType]) -> None:
    """Raise :class:`~engine.mechanisms.response.CategoriesRequiredError` unless every
    randomized-response column has public categories (:func:`public_categories`).

    ``types`` maps (at least) the confidential columns to their types.  The GUI and a plan
    can call this before any run; :func:`plan_columns` calls it too.
    """
    lacking = [c for c in category_columns(params, types) if public_categories(params, c) is None]
    if lacking:
        raise CategoriesRequiredError(lacking)


def column_budget(params: ReleaseParams, types: Mapping[str, ColumnType]) -> dict[str, dict]:
    """ε of every confidential column: ``{"noise": …, "bounds": …}`` (sequential composition).

    Each column gets ε/m; a numeric column without public bounds spends the
    ``private_bounds`` share of it on its bounds when that is set.
    """
    assert params.epsilon is not None
    share = params.epsilon / max(1, len(params.confidential))
    numeric = set(laplace_columns(params, types))
    out = {}
    for col in params.confidential:
        private = col in numeric and col not in params.bounds and params.private_bounds
        spent = share * params.private_bounds if private else 0.0
        out[col] = {"noise": share - spent, "bounds": spent}
    return out


def typical_size(values: np.ndarray, lo: float, hi: float, log_scale: bool = False) -> float | None:
    """How far a column's values typically lie apart, on the scale the noise is added to.

    The spread of the middle half of the values (the interquartile range) after clamping to
    the bounds (what the noise is added to), on log(1 + value) for noise on the log scale; a
    column whose middle half is one value (mostly zeros) falls back to the mean distance from
    the median.  None for a column with one value or none.  Computed from the data: for the
    plan, which the data holder reads before the release, never for a published file.
    """
    present = values[~np.isnan(values)]
    if present.size == 0:
        return None
    clamped = np.clip(present, lo, hi)
    if log_scale:
        clamped = np.log1p(clamped)
    q1, median, q3 = np.quantile(clamped, [0.25, 0.5, 0.75])
    spread = float(q3 - q1)
    if spread <= 0:
        spread = float(np.abs(clamped - median).mean())
    return spread if spread > 0 else None


def noise_error(column: ColumnPlan, params: ReleaseParams) -> float | None:
    """E|noise| of one released value on the scale the noise is added to (None until private
    bounds are known): Δ/ε, Δ/(k·ε) in groups of k, Δ measured on log(1 + value) for the log
    scale."""
    if column.bounds is None:
        return None
    group = int(params.k) if params.insensitive else 1
    bounds = log_bounds(*column.bounds) if column.log_scale else column.bounds
    return expected_abs_error(*bounds, column.epsilon, group)


#: the released values are "mostly noise" when the noise makes up at least this share of
#: their variance (the noise's variance is then at least the data's own)
NOISE_SHARE_WARNING = MOSTLY_NOISE


def noise_share(released: np.ndarray, scale: float, log_scale: bool) -> float | None:
    """The share of the released values' variance that the noise accounts for (at most 1).

    From the released values and the public scale of the noise alone (so it may be
    published): the released variance is about the data's plus the noise's 2·scale²; a share
    of 1/2 or more means the noise varies as much as the data, or more.  Clamping to the
    bounds shrinks the released variance, which only raises the share.
    """
    x = released[~np.isnan(released)]
    if x.size < 2:
        return None
    if log_scale:
        x = np.log1p(np.clip(x, 0.0, None))
    spread = float(x.var())
    noise = 2.0 * scale * scale
    return 1.0 if spread <= 0 else min(noise / spread, 1.0)


def noise_share_warning(column: str, share: float) -> str:
    """The published warning that a column's released values are mostly noise."""
    return _(
        "The noise makes up about {share} of the spread of the released values of "
        "{column}: they are mostly noise, and say little about any one person or group "
        "(measured on the released values and the public scale of the noise). Averaging in "
        "groups of k before the noise, narrower public bounds, the buckets mechanism or a "
        "larger ε would keep more of the data."
    ).format(share=percent(share), column=quoted(column))


def expected_errors(
    params: ReleaseParams, types: Mapping[str, ColumnType]
) -> dict[str, float | None]:
    """Expected absolute error of the noise, in the column's units, for every Laplace column.

    Δ/ε of the column's noise ε (Δ/(k·ε) with insensitive microaggregation); None where the
    bounds are estimated privately and so not known before the run, and on the log scale,
    where the error is relative (:func:`~engine.mechanisms.laplace.typical_factor`).
    """
    budget = column_budget(params, types)
    k = int(params.k) if params.insensitive else 1
    out: dict[str, float | None] = {}
    for col in laplace_columns(params, types):
        if col in params.bounds and params.transform == "none":
            lo, hi = params.bounds[col]
            out[col] = expected_abs_error(lo, hi, budget[col]["noise"], k)
        else:
            out[col] = None
    return out


@dataclass
class ColumnPlan:
    """How one confidential column is protected (fixed before any noise is drawn)."""

    name: str
    ctype: ColumnType
    #: the ε of the noise (the column's share of ε minus what its private bounds spent)
    epsilon: float
    #: numeric: clamping bounds, and where they came from ("public" or the private estimate);
    #: None until private bounds are estimated, when the release is made
    bounds: tuple[float, float] | None = None
    bounds_source: str = "public"
    #: the ε spent on estimating the bounds (0 for public bounds)
    bounds_epsilon: float = 0.0
    #: nominal/ordinal: the public categories (codes index into this list)
    categories: list[Any] = field(default_factory=list)
    #: the input as numbers (numeric) or category codes (−1 missing, −2 outside the
    #: categories: :data:`~engine.mechanisms.response.OUTSIDE`)
    values: np.ndarray = field(default_factory=lambda: np.zeros(0))
    decimals: int = 0
    #: numeric: the noise is added to log(1 + value) (``transform="log"``)
    log_scale: bool = False
    #: values missing in the input (released missing); for the review record only
    n_missing: int = 0
    #: nominal/ordinal: values outside the public categories (released as one of them drawn
    #: at random); for the review record only
    n_outside: int = 0


def plan_columns(
    data: pd.DataFrame,
    params: ReleaseParams,
    types: Mapping[str, ColumnType],
    orders: Mapping[str, tuple[str, ...]],
) -> list[ColumnPlan]:
    """How each confidential column will get its noise, fixed before any noise is drawn.

    Each column gets ε/m of the budget (m columns, sequential composition).  Raises
    InputError for a column the noise route cannot protect, bounds or categories that do
    not fit it, a numeric column with neither public nor private bounds, or a category
    column without public categories.  Private bounds are left to :func:`estimate_bounds`,
    at release time: a plan never spends ε.  ``orders`` (the resolved ones, inferred orders
    among them) is not read: a category column's categories are public ones only
    (:func:`public_categories`).
    """
    assert params.epsilon is not None
    confidential = list(params.confidential)
    unknown = sorted(set(params.bounds) - set(confidential))
    if unknown:
        raise InputError(
            _("Bounds were given for {columns}, which is not a confidential column.").format(
                columns=", ".join(map(repr, unknown))
            )
        )
    unknown = sorted(set(params.categories) - set(confidential))
    if unknown:
        raise InputError(
            _("Categories were given for {columns}, which is not a confidential column.").format(
                columns=", ".join(map(repr, unknown))
            )
        )
    for col in confidential:  # what cannot be right whatever else is given
        _check_column(col, ColumnType(types[col]), data[col], params)
    require_bounds(params, types)
    require_categories(params, types)
    budget = column_budget(params, types)
    plans = []
    for col in confidential:
        ctype = ColumnType(types[col])
        series = data[col]
        if ctype == ColumnType.NUMERIC:
            plans.append(_numeric_plan(col, series, params, budget[col]))
        elif ctype in CATEGORY_TYPES:
            plans.append(_category_plan(col, series, ctype, params, budget[col]))
        else:
            raise InputError(
                _(
                    "The noise mechanism cannot protect the {type} column {column}; declare it "
                    "numeric or nominal, or use the buckets mechanism."
                ).format(type=ctype, column=quoted(col))
            )
    return plans


def _check_column(col: str, ctype: ColumnType, series: pd.Series, params: ReleaseParams) -> None:
    """Refuse a confidential column without any value, bounds given for a category column and
    categories given for a numeric one (before asking for what is missing)."""
    if not series.notna().any():
        raise InputError(
            _("Confidential column {column} has no values (all are missing).").format(
                column=quoted(col)
            )
        )
    if col in params.bounds and ctype != ColumnType.NUMERIC:
        raise InputError(
            _("Bounds apply to numeric columns only; {column} is {type}.").format(
                column=quoted(col), type=ctype
            )
        )
    if col in params.categories and ctype not in CATEGORY_TYPES:
        raise InputError(
            _("Categories apply to nominal and ordinal columns only; {column} is {type}.").format(
                column=quoted(col), type=ctype
            )
        )


def _numeric_plan(
    col: str, series: pd.Series, params: ReleaseParams, budget: Mapping[str, float]
) -> ColumnPlan:
    """The plan of a numeric column: its share of ε (``budget``: for the noise and, with
    private bounds, for estimating them) and its public bounds, checked against its values."""
    values = numeric_values(series, ColumnType.NUMERIC)
    if np.isnan(values).all():
        raise InputError(
            _("Confidential column {column} has no values.").format(column=quoted(col))
        )
    if col in params.bounds:
        lo, hi = check_bounds(*params.bounds[col], column=col)
        if hi < np.nanmin(values) or lo > np.nanmax(values):
            raise InputError(
                _(
                    "The bounds {lo:g}:{hi:g} of {column} do not overlap its values at "
                    "all; check them."
                ).format(lo=lo, hi=hi, column=quoted(col))
            )
        origin, spent = "public", 0.0
        bounds: tuple[float, float] | None = (lo, hi)
    else:
        bounds, origin, spent = None, "private", budget["bounds"]
        check_private_bounds(int((~np.isnan(values)).sum()), spent)  # said before a run
    return ColumnPlan(
        col,
        ColumnType.NUMERIC,
        budget["noise"],
        bounds=bounds,
        bounds_source=origin,
        bounds_epsilon=spent,
        values=values,
        decimals=decimals(series),
        log_scale=params.transform == "log",
        n_missing=int(np.isnan(values).sum()),
    )


def _category_plan(
    col: str,
    series: pd.Series,
    ctype: ColumnType,
    params: ReleaseParams,
    budget: Mapping[str, float],
) -> ColumnPlan:
    """The plan of a nominal or ordinal column: its public categories (an ordinal's in their
    order, :func:`public_categories`) and every record's category code: −1 for a missing
    value, −2 for a value outside the categories (released as one of them drawn at random).

    A value is one of the categories when it reads as it (:func:`engine.recoding.value_text`:
    the code 1 read as 1.0 is the category "1", spaces around a text do not count).
    """
    categories = public_categories(params, col)
    assert categories is not None  # require_categories
    position = {value_text(c): i for i, c in enumerate(categories)}
    # each distinct value looked up once, then every record by its factorized code
    found, uniques = pd.factorize(series)
    lookup = np.array([position.get(value_text(u), OUTSIDE) for u in uniques], dtype=np.int64)
    codes = np.where(found >= 0, lookup[np.maximum(found, 0)] if lookup.size else 0, MISSING)
    codes = codes.astype(np.int64)
    return ColumnPlan(
        col,
        ctype,
        budget["noise"],
        categories=list(categories),
        values=codes,
        n_missing=int((codes == MISSING).sum()),
        n_outside=int((codes == OUTSIDE).sum()),
    )


def review_notes(columns: list[ColumnPlan]) -> list[str]:
    """What the review record says of each column's input: how many values lay outside its
    public categories (released as one of them drawn at random) and how many were missing
    (released missing: ε does not cover whether a value is missing).  Counts of the original
    data: never published."""
    notes = []
    for column in columns:
        name = quoted(column.name)
        if column.n_outside:
            notes.append(
                ngettext(
                    "{column}: {n} value lay outside the declared categories; it was released "
                    "as one of them drawn at random, as if its category were any declared one.",
                    "{column}: {n} values lay outside the declared categories; they were "
                    "released as one of them drawn at random, as if their category were any "
                    "declared one.",
                    column.n_outside,
                ).format(column=name, n=number(column.n_outside))
            )
        if column.n_missing:
            notes.append(
                ngettext(
                    "{column}: {n} value is missing and is released missing; whether a value "
                    "is missing is not covered by ε.",
                    "{column}: {n} values are missing and are released missing; whether a "
                    "value is missing is not covered by ε.",
                    column.n_missing,
                ).format(column=name, n=number(column.n_missing))
            )
    return notes


def column_fact(column: ColumnPlan, params: ReleaseParams) -> NoiseColumn:
    """What is known of a column's noise before it is drawn (the draw adds the rest)."""
    mechanism = MECHANISMS[params.mechanism]
    numeric = column.ctype == ColumnType.NUMERIC
    fact = NoiseColumn(
        name=column.name,
        type=str(column.ctype),
        mechanism=mechanism.column_mechanism(params, numeric) or "",
        described=mechanism.describe(params, numeric),
        epsilon=column.epsilon,
        epsilon_local=column.epsilon,
        bounds=column.bounds,
        bounds_source=column.bounds_source,
        bounds_epsilon=column.bounds_epsilon,
        transform="log" if column.log_scale else "none",
        categories=tuple(str(c) for c in column.categories),
    )
    if not numeric:
        n_cat = len(column.categories)
        keep = uniform_keep_probability(column.epsilon, n_cat) if n_cat > 1 else 1.0
        return replace(fact, keep_probability=keep)
    group = params.k if params.insensitive else 1
    if column.bounds is None:  # private bounds are known only once estimated
        return replace(fact, epsilon_local=column.epsilon * group)
    error = factor = ratio = None
    if column.log_scale:
        factor = typical_factor(*column.bounds, column.epsilon, group)
    else:
        error = expected_abs_error(*column.bounds, column.epsilon, group)
    size = typical_size(column.values, *column.bounds, column.log_scale)
    scale = noise_error(column, params)
    if size is not None and scale is not None:
        ratio = scale / size
    return replace(
        fact,
        epsilon_local=column.epsilon * group,
        expected_abs_error=error,
        typical_factor=factor,
        typical_size=size,
        error_ratio=ratio,
    )


def estimate_bounds(
    columns: list[ColumnPlan], source: NoiseSource, warnings: list[str]
) -> list[ColumnPlan]:
    """The columns with their private bounds estimated (DP quantiles, each on its share of ε).

    Called once per release, before the first draw of the noise: redraws reuse the bounds.
    ``warnings`` (the run's, which only the review record holds) also gets what
    :func:`review_notes` says of the columns' input.
    """
    warnings.extend(review_notes(columns))
    out = []
    for column in columns:
        if column.ctype == ColumnType.NUMERIC and column.bounds is None:
            estimate = private_bounds(column.values, column.bounds_epsilon, source)
            lo, hi = estimate.lo, estimate.hi
            if column.log_scale:
                # the log scale starts at 0; moving a DP estimate is post-processing
                lo = max(lo, 0.0)
                if hi <= lo:
                    raise InputError(
                        _(
                            "The private bounds of {column} lie at or below 0, where the "
                            "log scale (transform 'log') cannot go; give public bounds instead."
                        ).format(column=repr(column.name))
                    )
            if estimate.coarse:
                warnings.append(
                    _(
                        "The private bounds of {column} ({low}:{high}) rest on few records "
                        "for their share of ε and may be poor; public bounds would be better."
                    ).format(column=quoted(column.name), low=number(lo), high=number(hi))
                )
            column = replace(column, bounds=(lo, hi), bounds_source=estimate.source)
        out.append(column)
    return out
