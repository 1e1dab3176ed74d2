"""Noise on the confidential values (Construction B): each column's part of it, and the draws.

* :mod:`~engine.release.noise.columns`: every confidential column's share of ε, its public
  or private bounds (:class:`BoundsRequiredError` without them), a category column's public
  categories (:func:`public_categories`; ``CategoriesRequiredError`` without them), its plan
  (:class:`ColumnPlan`), the error to expect, the share of the released spread that is
  noise, and what the review record says of its input (:func:`review_notes`);
* :mod:`~engine.release.noise.draw`: the draws of every column, again until the release is
  t-close when ``resample_until_t`` asks for it.

The release that uses them, from the cleaned input to the verified table, is the stage
:mod:`engine.release.stages.noise`.
"""

from engine.release.noise.columns import (
    NOISE_SHARE_WARNING,
    BoundsRequiredError,
    ColumnPlan,
    category_columns,
    column_fact,
    estimate_bounds,
    expected_errors,
    noise_share_warning,
    plan_columns,
    public_categories,
    require_bounds,
    require_categories,
    review_notes,
)
from engine.release.noise.draw import MAX_DRAWS, ColumnDraw, draw_columns

__all__ = [
    "MAX_DRAWS",
    "NOISE_SHARE_WARNING",
    "BoundsRequiredError",
    "ColumnDraw",
    "ColumnPlan",
    "category_columns",
    "column_fact",
    "draw_columns",
    "estimate_bounds",
    "expected_errors",
    "noise_share_warning",
    "plan_columns",
    "public_categories",
    "require_bounds",
    "require_categories",
    "review_notes",
]
