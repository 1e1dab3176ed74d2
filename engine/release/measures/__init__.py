"""What a release costs and what risk it leaves: the numbers a run reports about itself.

* :mod:`~engine.release.measures.loss`: information loss (QI SSE/SST, the confidential
  distortion), the released classes and their sizes;
* :mod:`~engine.release.measures.utility`: analysis utility, what an analyst computes from
  the original records and from the released ones (totals, group means, correlations, a
  regression);
* :mod:`~engine.release.measures.risk`: disclosure risk of a table (uniques, individual and
  household re-identification risk, attribute disclosure), before and after.

Besides what the other parts use, the door gives the unit tests the group means of the
analysis utility (``_groups``, ``_group_mean_error``), which they check against known answers.
"""

from engine.release.measures.loss import (
    QiSums,
    confidential_loss,
    counted_loss,
    released_classes,
    released_values,
    sse_sst,
)
from engine.release.measures.risk import (
    DEFAULT_THRESHOLD,
    class_ids,
    compare_risk,
    disclosure_risk,
    household_pattern_uniques,
    household_risks,
    individual_risk,
    original_sensitive,
    table_risk,
)
from engine.release.measures.utility import (
    MIN_GROUP,
    NEAR_ZERO,
    _group_mean_error,
    _groups,
    analysis_utility,
)

__all__ = [
    "DEFAULT_THRESHOLD",
    "MIN_GROUP",
    "NEAR_ZERO",
    "QiSums",
    "_group_mean_error",
    "_groups",
    "analysis_utility",
    "class_ids",
    "compare_risk",
    "confidential_loss",
    "counted_loss",
    "disclosure_risk",
    "household_pattern_uniques",
    "household_risks",
    "individual_risk",
    "original_sensitive",
    "released_classes",
    "released_values",
    "sse_sst",
    "table_risk",
]
