"""The columns of a release: their encoding, their public labels and how they are released.

* :mod:`~engine.release.columns.encode`: column types and orders, the numbers and ranks of a
  column, and the standardised QI matrix every partition works on (:func:`encode_qi`);
* :mod:`~engine.release.columns.cuts`: public cut points and the labels of ranges and sets
  (a released label or boundary is never one person's value);
* :mod:`~engine.release.columns.missing_qi`: missing quasi-identifier values: their patterns,
  the groups of records that agree on them, and the known values withheld where too few do;
* :mod:`~engine.release.columns.recode`: the released columns: QIs as class centroids or
  ranges, confidential values as their buckets' means, medians or labels, and the table.
"""

from engine.release.columns.cuts import (
    NameList,
    coarsest,
    date_separator,
    decimal_places,
    format_date,
    format_number,
    grid_step,
    guard_range,
    inner_range,
    multiple_of,
    nice_outward,
    precision,
    round_inward,
    separator,
    step_at_least,
)
from engine.release.columns.encode import (
    category_order,
    encode_qi,
    numeric_values,
    ordinal_ranks,
    resolve_columns,
)
from engine.release.columns.missing_qi import (
    missing_counts,
    missing_mask,
    partition_by_group,
    pattern_groups,
    withhold,
    withhold_mixed,
)
from engine.release.columns.recode import build_release, decimals, recode_qi, release_confidential

__all__ = [
    "NameList",
    "build_release",
    "category_order",
    "coarsest",
    "date_separator",
    "decimal_places",
    "decimals",
    "encode_qi",
    "format_date",
    "format_number",
    "grid_step",
    "guard_range",
    "inner_range",
    "missing_counts",
    "missing_mask",
    "multiple_of",
    "nice_outward",
    "numeric_values",
    "ordinal_ranks",
    "partition_by_group",
    "pattern_groups",
    "precision",
    "recode_qi",
    "release_confidential",
    "resolve_columns",
    "round_inward",
    "separator",
    "step_at_least",
    "withhold",
    "withhold_mixed",
]
