"""Noise on the confidential values (Construction B): each column's part of it, and the draws.

* :mod:`~engine.release.noise.columns`: every confidential column's share of ε, its public
  or private bounds (:class:`BoundsRequiredError` without them), its plan
  (:class:`ColumnPlan`), the error to expect and the share of the released spread that is
  noise;
* :mod:`~engine.release.noise.draw`: the draws of every column, again until the release is
  t-close when ``resample_until_t`` asks for it.

The release that uses them, from the cleaned input to the verified table, is the stage
:mod:`engine.release.stages.noise`.
"""

from engine.release.noise.columns import (
    BoundsRequiredError,
    ColumnPlan,
    column_fact,
    expected_errors,
    plan_columns,
    require_bounds,
)
from engine.release.noise.draw import MAX_DRAWS

__all__ = [
    "MAX_DRAWS",
    "BoundsRequiredError",
    "ColumnPlan",
    "column_fact",
    "expected_errors",
    "plan_columns",
    "require_bounds",
]
