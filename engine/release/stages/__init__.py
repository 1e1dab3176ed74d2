"""The stages of a release, in the order they run: prepare → plan → partition → tail.

* :mod:`~engine.release.stages.prepare`: what every mechanism does first: check the columns
  and the size, apply missing codes, type the columns, find the households and the weights;
* :mod:`~engine.release.stages.plan`: :func:`plan`, what a run will do before it runs (the
  buckets, feasibility and its fixes, class sizes, guarantees, warnings), from a table or from
  a cluster's counts (:func:`plan_data`);
* :mod:`~engine.release.stages.anonymize`: :func:`anonymize`, the release: the bucket route
  (Construction A: the class size, the partition exact, in blocks or by households), or the
  noise route for a noise mechanism;
* :mod:`~engine.release.stages.noise`: the noise route (Construction B) end to end;
* :mod:`~engine.release.stages.tail`: how both routes end: build the table, verify it,
  measure it on the released classes;
* :mod:`~engine.release.stages.survey`: what every route does the same for a survey file
  (verify the households, summarise them);
* :mod:`~engine.release.stages.summarise`: the run summary filled from a run's parts;
* :mod:`~engine.release.stages.guarantees`: every guarantee of a release with its
  assumption.
"""

from engine.release.stages.anonymize import anonymize, best_partition, choose_class_size
from engine.release.stages.guarantees import release_guarantees
from engine.release.stages.plan import Fix, Plan, PlanData, plan, plan_data
from engine.release.stages.prepare import (
    check_columns,
    check_magnitudes,
    check_numbers,
    check_records,
    check_roles,
    clean_columns,
)
from engine.release.stages.summarise import summarise_buckets

__all__ = [
    "Fix",
    "Plan",
    "PlanData",
    "anonymize",
    "best_partition",
    "check_columns",
    "check_magnitudes",
    "check_numbers",
    "check_records",
    "check_roles",
    "choose_class_size",
    "clean_columns",
    "plan",
    "plan_data",
    "release_guarantees",
    "summarise_buckets",
]
