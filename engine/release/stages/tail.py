"""The end of every release, whichever mechanism made it: the table, its check, what it keeps.

Once the classes are formed and the confidential values decided (bucket values, or noise),
both constructions finish the same way: the release table is built and shuffled
(:func:`engine.release.columns.build_release`), the independent verifier reads it back and a
table that fails is never returned, the equivalence classes of the released file are read
off it (classes whose released QI values coincide have merged: the QI loss is measured on
those, as the released file shows them), and the analysis utility compares what an analyst
computes from the original and the released records.  :func:`publish` does all of it and
:func:`finish` wraps the route's summary into the :class:`~engine.release.Release`.
A cluster builds its table part by part, but takes its plan, warnings and summary from the
same places (:mod:`engine.distributed.release`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from engine.i18n import _
from engine.params import ReleaseParams
from engine.progress import NO_TASK, Task
from engine.release.columns import build_release, missing_counts, recode_qi, withhold
from engine.release.households import (
    Households,
    household_level_values,
    survey_columns,
    unit_level_values,
)
from engine.release.measures import analysis_utility, released_classes
from engine.release.model import (
    Buckets,
    ColumnUtility,
    Release,
    RiskSummary,
    RunSummary,
    Verification,
)
from engine.release.stages.prepare import Prepared
from engine.release.stages.survey import survey_summary, verify_survey_release, withhold_in_classes
from engine.release.verify import group_ids, kept_check, verify_release


@dataclass
class Published:
    """A verified release table and what the summary measures on it."""

    table: pd.DataFrame
    #: the cleaned record each row of ``table`` comes from
    source_rows: np.ndarray
    verification: Verification
    #: per partition class, its equivalence class in the released table
    groups: np.ndarray
    utility: dict[str, ColumnUtility]
    #: per household: released with an id (the route of pattern groups; None otherwise)
    linked: np.ndarray | None = None

    def summary_fields(
        self,
        params: ReleaseParams,
        prepared: Prepared,
        clean: pd.DataFrame,
        qi: Sequence[str],
        *,
        buckets: Buckets | None,
        homes: np.ndarray | None,
        risk_before: RiskSummary | None,
        started: float,
    ) -> dict[str, Any]:
        """The run-summary fields every route reads off the published table the same way:
        seconds, analysis utility, missing QI counts and the survey facts."""
        return {
            "seconds": round(time.perf_counter() - started, 3),
            "analysis_utility": self.utility,
            "missing_qi": missing_counts(clean, self.table, qi),
            **survey_summary(
                params,
                prepared,
                self.table,
                self.source_rows,
                self.verification,
                buckets,
                homes,
                risk_before,
                self.linked,
            ),
        }


def withheld_qi(
    clean: pd.DataFrame,
    qi: Sequence[str],
    classes: np.ndarray,
    withheld: np.ndarray | None,
    households: Households | None,
    homes: np.ndarray | None,
) -> pd.DataFrame:
    """The QI values ``classes`` are recoded from, with the values a class must withhold
    emptied (``withheld``: which QI values of each record are missing, or None).

    Classes formed for households may mix missing patterns (:func:`withhold_in_classes`);
    household-level QIs (``homes`` given: classes in household groups) are released per
    household group and withheld alike for all members.
    """
    level = households.level if households is not None and homes is not None else ()
    if households is not None:
        return withhold_in_classes(clean, qi, classes, withheld, level)
    return withhold(clean, qi, withheld)


def publish(
    params: ReleaseParams,
    prepared: Prepared,
    classes: np.ndarray,
    *,
    t: float | None,
    qi_values: pd.DataFrame | None = None,
    original: pd.DataFrame,
    keep: Sequence[str],
    buckets: Buckets | None,
    released: Mapping[str, pd.Series],
    released_as: Mapping[str, str],
    checked: Sequence[str],
    homes: np.ndarray | None = None,
    linked: np.ndarray | None = None,
    task: Task = NO_TASK,
) -> Published:
    """Build the release table of ``classes``, verify it, and measure it (module doc).

    ``qi_values`` holds the QI values the classes are recoded from (the cleaned columns, or
    with the values a class must withhold emptied); ``original`` the released input rows
    (``keep`` columns are taken from it, and for noise the noisy confidential columns);
    ``buckets`` the bucket of every record (None for noise); ``released`` the value each
    record's confidential columns are released as, for the analysis utility
    (``released_as`` says how, in words); ``checked`` the confidential columns the verifier
    holds to ``t`` (none for noise, whose t is stochastic).

    A survey file (:mod:`engine.release.households`) adds its columns: the household-level
    QIs recoded per household group (``homes``: the group of every record, None when the
    classes were not formed in household groups), the re-coded household id, the weight;
    the verifier then also counts the households of every class.
    """
    clean, qi = prepared.clean, prepared.qi
    households = prepared.households
    source = clean if qi_values is None else qi_values
    level = households.level if households is not None and homes is not None else ()
    rng = np.random.default_rng(params.seed)
    # the survey's columns draw the household ids first, then the table its order
    extra = survey_columns(
        params, clean, prepared.types, prepared.orders, households, homes, original, rng,
        classes=classes, weights=prepared.weights, linked=linked,
    )  # fmt: skip
    table, source_rows = build_release(
        source,
        qi=[c for c in qi if c not in level],
        keep=keep,
        types=prepared.types,
        orders=prepared.orders,
        classes=classes,
        buckets=buckets,
        qi_output=params.qi_output,
        confidential_output=params.confidential_output,
        rng=rng,
        original=original,
        extra=extra,
        hierarchies=prepared.hierarchies,
    )
    task.step(0.5, _("Verifying the release"))
    verification = _verify(table, source_rows, params, prepared, level, t, checked)
    verification.raise_if_failed()
    groups = released_classes(table, qi, classes[source_rows])
    utility = {}
    if released:
        centroids = _qi_centroids(
            table, source_rows, source, params, prepared, classes, homes, linked
        )
        utility = analysis_utility(
            clean,
            centroids,
            released,
            qi=qi,
            types=prepared.types,
            orders=prepared.orders,
            released_as=released_as,
        )
    task.step(1.0, _("Verified"))
    return Published(table, source_rows, verification, groups, utility, linked)


def _verify(
    table: pd.DataFrame,
    source_rows: np.ndarray,
    params: ReleaseParams,
    prepared: Prepared,
    level: Sequence[str],
    t: float | None,
    checked: Sequence[str],
) -> Verification:
    """What the verifier finds in the release table (a survey's also counts households),
    with the k and t the release has with its kept columns as keys."""
    if prepared.households is not None:
        found = verify_survey_release(
            table, source_rows, params, prepared, level, t=t if checked else None,
            confidential=bool(checked), verify=verify_release,
        )  # fmt: skip
    else:
        found = verify_release(table, prepared.qi, checked, t=t if checked else None, k=params.k)
    kept = [c for c in params.keep if c in table.columns]
    if not kept or not found.ok:
        return found
    buckets = group_ids(table, list(checked)) if checked else None
    return replace(found, **kept_check(table, prepared.qi, kept, buckets))


def _qi_centroids(
    table: pd.DataFrame,
    source_rows: np.ndarray,
    source: pd.DataFrame,
    params: ReleaseParams,
    prepared: Prepared,
    classes: np.ndarray,
    homes: np.ndarray | None,
    linked: np.ndarray | None = None,
) -> pd.DataFrame:
    """The centroid of every record's class on each QI, in input order: what the analysis
    utility compares the original QIs with.

    Centroid output: the release's own QIs (its household-level QIs are already the
    household groups' centroids); range output: the classes recoded as centroids from
    ``source``, with the household groups' centroids on household-level QIs.
    """
    qi, households = prepared.qi, prepared.households
    if params.qi_output == "centroid":  # the release's own QIs, back in input order
        back = np.empty_like(source_rows)
        back[source_rows] = np.arange(len(source_rows))
        return table[list(qi)].iloc[back].reset_index(drop=True)
    centroids = recode_qi(
        source, qi, prepared.types, prepared.orders, classes, "centroid",
        hierarchies=prepared.hierarchies,
    )  # fmt: skip
    level = households.level if households is not None and homes is not None else ()
    if level:  # household-level QIs: the centroids of the household groups
        assert households is not None and homes is not None
        if linked is not None:  # pattern groups (and classes of households without an id)
            centroids[list(level)] = unit_level_values(
                prepared.clean, level, prepared.types, prepared.orders, homes,
                hierarchies=households.hierarchies,
            )  # fmt: skip
        else:
            centroids[list(level)] = household_level_values(
                prepared.clean, prepared.types, prepared.orders, households, homes
            )
    return centroids


def finish(
    params: ReleaseParams,
    prepared: Prepared,
    published: Published,
    summary: RunSummary,
    classes: np.ndarray,
    *,
    buckets: Buckets | None,
    warnings: Sequence[str],
) -> Release:
    """The :class:`Release` of a published table and the route's summary of it."""
    return Release(
        table=published.table,
        source_rows=published.source_rows,
        params=params,
        summary=summary,
        verification=published.verification,
        classes=classes,
        data=prepared.clean,
        buckets=buckets,
        # the plan's, then what the summary found of the release (the kept columns' k)
        warnings=[*warnings, *(w for w in summary.warnings if w not in warnings)],
        weights=prepared.weights,
        households=None if prepared.households is None else prepared.households.codes,
    )


__all__ = ["Published", "finish", "publish"]
