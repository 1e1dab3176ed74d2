"""Disclosure risk of a release, before and after, in the words of the preview and the report.

The measures themselves (uniques, individual risk with or without sampling weights, expected
re-identifications, household risk, household uniques, attribute disclosure) live in
:mod:`engine.release.measures.risk`, where the run summary computes them too; this module scores a
:class:`~engine.release.model.release.Release` before and after and writes the comparison rows.
"""

from __future__ import annotations

import math

from engine.i18n import _
from engine.release import (
    DEFAULT_THRESHOLD,
    Release,
    RiskSummary,
    class_ids,
    compare_risk,
    disclosure_risk,
    table_risk,
)
from engine.text import number, percent_fixed

__all__ = [
    "DEFAULT_THRESHOLD",
    "RiskSummary",
    "class_ids",
    "comparison_rows",
    "disclosure_risk",
    "release_risk",
    "table_risk",
]


def release_risk(
    release: Release, *, threshold: float = DEFAULT_THRESHOLD
) -> dict[str, RiskSummary]:
    """Risk ``{"before": …, "after": …}`` of a release
    (:func:`engine.release.measures.risk.compare_risk`): the run summary's own figures when
    they were computed at this threshold."""
    known = release.summary.risk
    if known is not None and known.after.threshold == threshold:
        return {"before": known.before, "after": known.after}
    compared = compare_risk(
        release.data,
        release.table,
        release.params,
        bucket_codes=None if release.buckets is None else release.buckets.codes,
        source_rows=release.source_rows,
        weights=release.weights,
        households=release.households,
        threshold=threshold,
    )
    return {"before": compared.before, "after": compared.after}


def _count_share(n: int, share: float) -> str:
    return f"{number(n)} ({percent_fixed(share)})"


#: one line of the comparison: (measure, before, after), as text
Row = tuple[str, str, str]


def comparison_rows(before: RiskSummary, after: RiskSummary) -> list[Row]:
    """(measure, before, after) as text, for the preview page and the report alike.

    With sampling weights the individual risk is the Benedetti–Franconi estimate (sdcMicro,
    μ-ARGUS) and says so; with households, the household risk and the households unique on
    their members' QI values follow.
    """
    rows = _record_rows(before, after)
    if before.household_risk is not None and after.household_risk is not None:
        rows += _household_rows(before, after)
    if before.max_attribute_share is not None and after.max_attribute_share is not None:
        rows += _attribute_rows(before, after)
    return rows


def _record_rows(before: RiskSummary, after: RiskSummary) -> list[Row]:
    """Classes, uniques and the individual re-identification risk (1/f, or Benedetti–Franconi
    with weights)."""
    limit = math.ceil(1 / before.threshold - 1e-9)
    largest = (
        _("re-identification risk (sample weights, Benedetti–Franconi): largest")
        if before.weighted
        else _("re-identification risk (1 in the class size): largest")
    )
    above = (
        _("records with risk above {threshold}").format(threshold=number(before.threshold))
        if before.weighted
        else _("records with risk above {threshold} (in classes under {limit})").format(
            threshold=number(before.threshold), limit=number(limit)
        )
    )
    return [
        (_("equivalence classes"), number(before.n_classes), number(after.n_classes)),
        (
            _("records unique on their QI values"),
            _count_share(before.n_unique, before.share_unique),
            _count_share(after.n_unique, after.share_unique),
        ),
        (
            largest,
            number(before.max_risk, 3),
            number(after.max_risk, 3),
        ),
        (
            _("re-identification risk: mean over records"),
            number(before.mean_risk, 3),
            number(after.mean_risk, 3),
        ),
        (
            above,
            _count_share(before.n_above, before.share_above),
            _count_share(after.n_above, after.share_above),
        ),
        (
            _("expected re-identifications (sum of the risks)"),
            number(before.expected_reidentifications, 3),
            number(after.expected_reidentifications, 3),
        ),
    ]


def _household_rows(before: RiskSummary, after: RiskSummary) -> list[Row]:
    """The household risk 1 − Π(1 − r) and the households unique on their members' QIs."""
    return [
        (
            _("household risk 1 − Π(1 − r) over its members: mean over records"),
            number(before.household_risk, 3),
            number(after.household_risk, 3),
        ),
        (
            _("household risk: largest"),
            number(before.household_max_risk, 3),
            number(after.household_max_risk, 3),
        ),
        (
            _("households unique on their members' QI values"),
            _count_share(before.n_household_unique or 0, before.share_household_unique or 0),
            _count_share(after.n_household_unique or 0, after.share_household_unique or 0),
        ),
    ]


def _attribute_rows(before: RiskSummary, after: RiskSummary) -> list[Row]:
    """Attribute disclosure: the largest share of a class taking one confidential value, and
    that value's share in the whole file (the prior everyone knows)."""
    return [
        (
            _("attribute disclosure: largest share of a class taking one confidential value"),
            _("{share} (class of {size})").format(
                share=percent_fixed(before.max_attribute_share),
                size=number(before.attribute_class_size),
            ),
            _("{share} (class of {size})").format(
                share=percent_fixed(after.max_attribute_share),
                size=number(after.attribute_class_size),
            ),
        ),
        (
            _("… that value's share in the whole file (known to everyone)"),
            percent_fixed(before.prior_max_share or 0),
            percent_fixed(after.prior_max_share or 0),
        ),
    ]
