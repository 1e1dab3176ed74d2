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
from typing import Any

import numpy as np
import pandas as pd

from engine.params import ReleaseParams
from engine.release.columns import missing_mask, withhold, withhold_mixed
from engine.release.households import weighted_totals
from engine.release.measures import compare_risk
from engine.release.model import Buckets, HouseholdSummary, RiskSummary, Verification
from engine.release.stages.prepare import Prepared
from engine.release.verify import verify_release

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
    if households is None:
        return verify(table, prepared.qi, conf, t=t, k=params.k)
    column = households.column
    if column not in table.columns:
        table = table.assign(**{_HIDDEN: households.codes[np.asarray(source_rows)]})
        column = _HIDDEN
    return verify(
        table,
        prepared.qi,
        conf,
        t=t,
        k=params.k,
        household=column,
        household_level=household_level,
    )


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
) -> dict[str, Any]:
    """The :class:`~engine.release.RunSummary` fields of a survey file: the households,
    the weighted totals original → released, and the risk before (the plan's, when given)
    and after."""
    households, weights = prepared.households, prepared.weights
    out: dict[str, Any] = {}
    if households is not None:
        out["households"] = HouseholdSummary(
            column=households.column,
            n_households=households.n_households,
            household_level=households.level if groups is not None else (),
            detected=households.detected,
            varied=dict(households.varied),
            households_k=verification.households_k,
            output=params.household_output,
            n_groups=int(groups.max()) + 1 if groups is not None and len(groups) else None,
            confidential_level=households.confidential_level,
            shared_classes=verification.shared_classes,
        )
    rows = np.asarray(source_rows)
    if weights is not None:
        by_record = table.iloc[np.argsort(rows)].reset_index(drop=True)
        out["weighted_totals"] = weighted_totals(
            prepared.clean, by_record, prepared.confidential, weights, prepared.types
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


__all__ = ["survey_summary", "verify_survey_release", "withhold_in_classes"]
