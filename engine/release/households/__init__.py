"""Survey files: persons in households, and sampling weights.

* :mod:`~engine.release.households.structure`: which records share a household
  (:func:`find_households`, :class:`Households`), the household-level QIs, how the household
  id and the household-level values are released, and the plan's household part
  (:class:`HouseholdPlan`);
* :mod:`~engine.release.households.patterns`: households microaggregated as units when
  their ids are released, so that every id's pattern of classes is shared by k households and
  following it teaches no more than t (pattern groups inside fences, households released
  without an id, the QI loss the search of b weighs on this route);
* :mod:`~engine.release.households.refine`: the pattern groups refined (households
  exchanged and moved between groups of their size, members reordered over the positions)
  within the bounds that keep k, t and the patterns;
* :mod:`~engine.release.households.classes`: classes that respect households when the ids
  are left out (at least k households per class, household-level values alike within a
  household): household groups, nested person classes, and the class size of that route;
* :mod:`~engine.release.households.weights`: sampling weights, read and checked, released as
  class means, the weighted bucket means and the weighted totals kept through a release.
"""

from engine.release.households.classes import (
    household_partition,
    household_size,
    households_per_class,
    merge_for_households,
    separate_members,
    shared_classes,
)
from engine.release.households.patterns import (
    QI_BUDGET,
    PatternClasses,
    fence_levels,
    linked_classes,
    pattern_loss,
)
from engine.release.households.refine import refine_groups
from engine.release.households.structure import (
    HouseholdPlan,
    Households,
    check_households,
    clashing_ids,
    find_households,
    household_codes,
    household_level_values,
    recode_ids,
    survey_columns,
    unit_level_values,
)
from engine.release.households.weights import (
    class_weights,
    weighted_bucket_means,
    weighted_totals,
)

__all__ = [
    "QI_BUDGET",
    "HouseholdPlan",
    "Households",
    "PatternClasses",
    "check_households",
    "clashing_ids",
    "class_weights",
    "fence_levels",
    "find_households",
    "household_codes",
    "household_level_values",
    "household_partition",
    "household_size",
    "households_per_class",
    "linked_classes",
    "merge_for_households",
    "pattern_loss",
    "recode_ids",
    "refine_groups",
    "separate_members",
    "shared_classes",
    "survey_columns",
    "unit_level_values",
    "weighted_bucket_means",
    "weighted_totals",
]
