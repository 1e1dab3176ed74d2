"""What every route does the same for a survey file: verify the households, summarise them.

One machine (:mod:`engine.release.stages.anonymize`) and the noise route
(:mod:`engine.release.noise`) form their classes their own way; the check of the released
table (k, t, and with a household column at least k households per class and household-level
QIs alike within every household) and the survey part of the run summary (households,
weighted totals, disclosure risk before and after) are made here, so that they read the same
on every route.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from engine.params import ReleaseParams
from engine.progress import Task
from engine.recoding import value_text
from engine.release.columns import missing_mask, withhold, withhold_mixed
from engine.release.households import (
    class_weights,
    linked_classes,
    weighted_bucket_means,
    weighted_totals,
)
from engine.release.measures import compare_risk
from engine.release.model import (
    Buckets,
    HouseholdSummary,
    RiskSummary,
    Verification,
    WeightSummary,
)
from engine.release.stages.prepare import Prepared
from engine.release.verify import group_ids, verify_release, weight_check

#: the column name the verifier reads the households from when the release leaves them out
_HIDDEN = "\x00household"


def verify_survey_release(
    table: pd.DataFrame,
    source_rows: np.ndarray,
    params: ReleaseParams,
    prepared: Prepared,
    household_level: Sequence[str] = (),
    *,
    t: float | None,
    confidential: bool = True,
    verify: Callable[..., Verification] = verify_release,
) -> Verification:
    """The independent check of ``table`` (:func:`engine.release.verify_release`).

    With households, the verifier also counts the households of every class; when the
    release leaves the household id out (``household_output="none"``) it reads the re-coded
    ids the release would have carried, held beside the table for the check only.
    ``verify`` is the verifier (the caller's, so that a test can stand in for it).
    """
    households = prepared.households
    conf = prepared.confidential if confidential else []
    # class weights hold k and t with the weight as a key by construction: checked as bounds
    weight = params.weight if params.released_weight() == "class" else None
    if households is None:
        result = verify(table, prepared.qi, conf, t=t, k=params.k, weight=weight)
    else:
        column = households.column
        # households per class are counted on every record's household, the id released or
        # not; the released ids are followed as an intruder would
        hidden = table.assign(**{_HIDDEN: households.codes[np.asarray(source_rows)]})
        result = verify(
            hidden,
            prepared.qi,
            conf,
            t=t,
            k=params.k,
            household=_HIDDEN,
            household_level=household_level,
            linked=column if column in table.columns else "",
            weight=weight,
        )
    if params.released_weight() == "keep":
        # unchanged weights: the k and t the release has with them, reported (the run warns)
        keyed = weight_check(table, prepared.qi, params.weight, _buckets_of(table, conf),
                             k=None, t=None)  # fmt: skip
        keyed.pop("failed")
        result = replace(result, **keyed)
    return result


def _buckets_of(table: pd.DataFrame, confidential: Sequence[str]) -> np.ndarray | None:
    """The released bucket of every row (the tuple of its confidential values)."""
    return group_ids(table, list(confidential)) if confidential else None


@dataclass
class SurveyClasses:
    """The classes of a release and what the survey columns are released by."""

    #: class of every record
    classes: np.ndarray
    #: the unit every record's household-level QIs are released by (its household group, or
    #: for a household without an id its class); None when the classes did not follow
    #: households
    homes: np.ndarray | None = None
    #: the QI loss the route measured itself (household groups); None: measured on the
    #: released file
    qi_loss: float | None = None
    #: which QI values the classes withhold (None: the values missing in the input)
    withheld: np.ndarray | None = None
    #: per household: released with an id (the route of pattern groups); None otherwise
    linked: np.ndarray | None = None


def survey_classes(
    params: ReleaseParams,
    prepared: Prepared,
    X: np.ndarray,
    buckets: Buckets | None,
    t: float | None,
    task: Task,
) -> SurveyClasses | None:
    """The classes of a release whose household ids are released: households microaggregated
    as units, so that every released id's pattern is shared by k households and following it
    teaches no more than t (:func:`engine.release.households.linked_classes`); None when the
    release carries no household id (the route's own classes).  Every route (one machine,
    the noise route) asks here."""
    households = prepared.households
    if households is None or not params.released_household():
        return None
    codes = None if buckets is None else buckets.codes
    shares = None if buckets is None else buckets.shares
    found = linked_classes(
        prepared.clean, prepared.qi, prepared.types, prepared.orders, households, codes,
        shares, t, params.k, X=X, task=task,
    )  # fmt: skip
    return SurveyClasses(found.classes, found.homes, linked=found.linked)


def released_buckets(
    buckets: Buckets | None, params: ReleaseParams, prepared: Prepared, classes: np.ndarray
) -> Buckets | None:
    """The buckets as released: with class weights (``weight_output="class"``) the bucket
    means are weighted by the weights the release carries, so that the weighted totals an
    analyst computes from the release are those of the original values with the released
    weights (the plan's means are weighted by the sampling weights)."""
    weights = prepared.weights
    if buckets is None or weights is None or params.released_weight() != "class":
        return buckets
    released = class_weights(weights, classes)
    return weighted_bucket_means(buckets, prepared.clean, released, prepared.types, params.bounds)


def withhold_in_classes(
    clean: pd.DataFrame,
    qi: Sequence[str],
    classes: np.ndarray,
    withheld: np.ndarray | None,
    household_level: Sequence[str] = (),
) -> pd.DataFrame:
    """``clean`` with the person-level QI values withheld that a class's records disagree on.

    Classes merged for households, or formed inside household groups, may mix records whose
    QIs are missing with records whose QIs are known; a missing value stays missing
    (:mod:`engine.release.columns.missing_qi`), so the QIs missing for some record of a class are
    withheld for all of them (:func:`~engine.release.columns.withhold_mixed`).
    ``withheld`` is what the missing-value groups already withheld (None: the values missing
    in the input).  Household-level QIs are withheld per household group instead
    (:func:`engine.release.households.structure.household_release`), so that a household stays
    whole.
    """
    mask = withheld if withheld is not None else missing_mask(clean, qi)
    mask = withhold_mixed(mask, classes)
    if household_level and mask.size:
        mask = mask.copy()
        mask[:, [i for i, c in enumerate(qi) if c in household_level]] = False
    return withhold(clean, qi, mask)


def survey_summary(
    params: ReleaseParams,
    prepared: Prepared,
    table: pd.DataFrame,
    source_rows: np.ndarray,
    verification: Verification,
    buckets: Buckets | None,
    groups: np.ndarray | None,
    risk_before: RiskSummary | None = None,
    linked: np.ndarray | None = None,
) -> dict[str, Any]:
    """The :class:`~engine.release.RunSummary` fields of a survey file: the households (with
    ``linked``, per household whether it is released with an id), the weight, the weighted
    totals original → released, and the risk before (the plan's, when given) and after."""
    households, weights = prepared.households, prepared.weights
    out: dict[str, Any] = {}
    rows = np.asarray(source_rows)
    # the released rows back in the input's order, for what compares record by record (a
    # copy of the whole table: built only for households and weights, which read it)
    by_record = None
    if households is not None or weights is not None:
        by_record = table.iloc[np.argsort(rows)].reset_index(drop=True)
    if households is not None:
        assert by_record is not None
        level = households.level if groups is not None else ()
        out["households"] = HouseholdSummary(
            column=households.column,
            n_households=households.n_households,
            household_level=level,
            detected=households.detected,
            varied=dict(households.varied),
            households_k=verification.households_k,
            output=params.household_output,
            n_groups=int(groups.max()) + 1 if groups is not None and len(groups) else None,
            confidential_level=households.confidential_level,
            shared_classes=verification.shared_classes,
            pattern_k=verification.pattern_k,
            linking_t=verification.linking_t,
            records_without_id=verification.records_without_id,
            households_without_id=0 if linked is None else int((~linked).sum()),
            kept_own={c: _kept_own(prepared.clean[c], by_record[c]) for c in level},
            kept_ancestor={
                c: _kept_ancestor(prepared.clean[c], by_record[c], households.hierarchies[c])
                for c in level
                if c in households.hierarchies
            },
        )
    if params.weight is not None:
        out["weight"] = WeightSummary(
            column=params.weight,
            output=params.weight_output,
            k=verification.weight_k,
            t=verification.weight_t,
        )
    if weights is not None:
        assert by_record is not None
        released_weights = None
        if params.released_weight() and params.weight in by_record.columns:
            released_weights = pd.to_numeric(by_record[params.weight]).to_numpy(np.float64)
        named = [*prepared.confidential, *prepared.qi, *params.keep]
        out["weighted_totals"] = weighted_totals(
            prepared.clean, by_record, named, weights, prepared.types, released_weights
        )
    out["risk"] = compare_risk(
        prepared.clean,
        table,
        params,
        bucket_codes=None if buckets is None else buckets.codes,
        source_rows=rows,
        weights=weights,
        households=None if households is None else households.codes,
        before=risk_before,
    )
    return out


def _kept_ancestor(original: pd.Series, released: pd.Series, hierarchy: Any) -> int:
    """Records released with an ancestor of their own value in ``hierarchy`` (a district
    for a commune; their own value not counted)."""
    paths = hierarchy.paths
    pairs = zip(original.reset_index(drop=True), released.reset_index(drop=True), strict=True)
    count = 0
    for own, shown in pairs:
        if pd.isna(own) or pd.isna(shown):
            continue
        path = paths.get(value_text(own), ())
        count += value_text(shown) in path[1:]
    return count


def _kept_own(original: pd.Series, released: pd.Series) -> int:
    """Records whose released value is their own (compared as text; missing never kept)."""
    a = original.reset_index(drop=True).astype("string")
    b = released.reset_index(drop=True).astype("string")
    return int((a == b).fillna(False).sum())


__all__ = [
    "SurveyClasses",
    "released_buckets",
    "survey_classes",
    "survey_summary",
    "verify_survey_release",
    "withhold_in_classes",
]
