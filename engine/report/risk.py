"""Disclosure risk of a table, before and after anonymization.

A disclosure review board asks two questions of a release: can an intruder who knows a
person's quasi-identifiers (QIs) find that person's record (*identity disclosure*), and can
the intruder learn the person's confidential value without finding the record (*attribute
disclosure*)?  This module answers both with the standard, model-free measures:

- **uniques**: records whose combination of QI values occurs once in the table;
- **re-identification risk** of a record: 1 / (size of its equivalence class), the chance of
  picking the right record among those that share its QI values; summarised by its maximum,
  its mean (which equals the number of classes divided by N) and the share of records whose
  risk exceeds a threshold;
- **attribute disclosure**: the largest share of a class that takes one confidential value
  (bucket).  It is compared with the largest share of that value in the whole file, which is
  what the intruder knows anyway; t-closeness bounds the ratio of the two by t (KBS 2015,
  Definition 4).

The measures read the table only (a class is a set of rows with identical QI values, missing
values counting as a value), so the same functions score the original data and the release.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import InputError
from engine.i18n import _
from engine.release.result import Release
from engine.text import number, percent_fixed

#: default threshold of the re-identification risk: more than 1 in 5, i.e. classes below 5
DEFAULT_THRESHOLD = 0.2


@dataclass(frozen=True)
class RiskSummary:
    """Disclosure-risk figures of one table."""

    n_records: int
    n_classes: int
    #: records unique on their QI values (class size 1)
    n_unique: int
    share_unique: float
    #: re-identification risk 1/|class|: largest over records
    max_risk: float
    #: re-identification risk averaged over records (= n_classes / n_records)
    mean_risk: float
    #: the threshold the next figure refers to
    threshold: float
    #: records whose risk exceeds ``threshold``
    n_above: int
    share_above: float
    #: largest share of one class taking one confidential value/bucket; None without one
    max_attribute_share: float | None = None
    #: largest share of one confidential value/bucket in the whole table (the prior)
    prior_max_share: float | None = None
    #: size of the class where ``max_attribute_share`` is reached
    attribute_class_size: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (for summaries and the report)."""
        return asdict(self)


def class_ids(table: pd.DataFrame, qi: Sequence[str]) -> np.ndarray:
    """Equivalence-class index of every row: rows with identical values in ``qi`` share one.

    Missing values count as a value of their own (a release with a missing QI still forms a
    class with the other rows that miss it).
    """
    missing = [c for c in qi if c not in table.columns]
    if missing:
        raise InputError(f"Column(s) not in the table: {', '.join(missing)}.")
    if not qi:
        return np.zeros(len(table), dtype=np.int64)
    return table.groupby(list(qi), dropna=False, sort=False).ngroup().to_numpy(np.int64)


def _value_codes(values: pd.DataFrame | pd.Series | np.ndarray) -> np.ndarray:
    """Integer code of each row's (tuple of) confidential values; missing is a value."""
    if isinstance(values, np.ndarray):
        values = pd.Series(values)
    if isinstance(values, pd.Series):
        return pd.factorize(values, use_na_sentinel=False)[0].astype(np.int64)
    if values.shape[1] == 1:
        return _value_codes(values.iloc[:, 0])
    return (
        values.groupby(list(values.columns), dropna=False, sort=False).ngroup().to_numpy(np.int64)
    )


def disclosure_risk(
    classes: np.ndarray,
    sensitive: pd.DataFrame | pd.Series | np.ndarray | None = None,
    *,
    threshold: float = DEFAULT_THRESHOLD,
) -> RiskSummary:
    """Risk figures from the class of every row and, optionally, its confidential value(s).

    ``classes`` is any integer labelling of the rows by equivalence class (see
    :func:`class_ids`); ``sensitive`` gives each row's confidential value, bucket code or tuple
    of values (a DataFrame with several columns is taken jointly).
    """
    if not 0 < threshold <= 1:
        raise InputError(f"The risk threshold must lie in (0, 1], not {threshold}.")
    labels = pd.factorize(np.asarray(classes), use_na_sentinel=False)[0]
    n = len(labels)
    if n == 0:
        raise InputError("The table has no records; there is no risk to measure.")
    sizes = np.bincount(labels)
    size_of_row = sizes[labels]
    risk = 1.0 / size_of_row
    above = int((risk > threshold).sum())
    n_unique = int((sizes == 1).sum())
    result: dict[str, Any] = {
        "n_records": n,
        "n_classes": len(sizes),
        "n_unique": n_unique,
        "share_unique": n_unique / n,
        "max_risk": float(risk.max()),
        "mean_risk": len(sizes) / n,
        "threshold": float(threshold),
        "n_above": above,
        "share_above": above / n,
    }
    if sensitive is not None:
        codes = _value_codes(sensitive)
        if len(codes) != n:
            raise InputError("The confidential values and the classes differ in length.")
        width = int(codes.max()) + 1
        pairs, counts = np.unique(labels.astype(np.int64) * width + codes, return_counts=True)
        per_class_max = np.zeros(len(sizes), dtype=np.int64)
        np.maximum.at(per_class_max, pairs // width, counts)
        shares = per_class_max / sizes
        worst = int(np.argmax(shares))
        result["max_attribute_share"] = float(shares[worst])
        result["attribute_class_size"] = int(sizes[worst])
        result["prior_max_share"] = float(np.bincount(codes).max() / n)
    return RiskSummary(**result)


def table_risk(
    table: pd.DataFrame,
    qi: Sequence[str],
    confidential: Sequence[str] = (),
    *,
    threshold: float = DEFAULT_THRESHOLD,
) -> RiskSummary:
    """Risk figures of a table, classes formed by its ``qi`` columns."""
    missing = [c for c in confidential if c not in table.columns]
    if missing:
        raise InputError(f"Column(s) not in the table: {', '.join(missing)}.")
    sensitive = table[list(confidential)] if confidential else None
    return disclosure_risk(class_ids(table, qi), sensitive, threshold=threshold)


def _is_numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def release_risk(
    release: Release, *, threshold: float = DEFAULT_THRESHOLD
) -> dict[str, RiskSummary]:
    """Risk ``{"before": …, "after": …}``: the original records and the released table.

    *Before* groups the original records by their raw QI values; *after* groups the released
    table by its released QI values.  Attribute disclosure compares the same thing on both
    sides where it can: the confidential buckets when the release has buckets (a raw numeric
    value is nearly always unique, so the raw values would say nothing), the released
    categories of a noise release otherwise; a noise release of numbers has no attribute
    figures (its protection is the ε of the noise, not a share of classes).
    """
    cfg = release.params
    qi = [c for c in cfg.qi if c in release.data.columns]
    conf = [c for c in cfg.confidential if c in release.data.columns]
    before_sensitive: Any = None
    released_conf = [c for c in cfg.confidential if c in release.table.columns]
    if release.buckets is not None and len(release.buckets.codes) == len(release.data):
        before_sensitive = np.asarray(release.buckets.codes)
    elif conf and not any(_is_numeric(release.data[c]) for c in conf):
        before_sensitive = release.data[conf]
    else:  # noisy numbers: shares of exact values say nothing about disclosure
        released_conf = []
    before = disclosure_risk(class_ids(release.data, qi), before_sensitive, threshold=threshold)
    released_qi = [c for c in cfg.qi if c in release.table.columns]
    after = table_risk(release.table, released_qi, released_conf, threshold=threshold)
    return {"before": before, "after": after}


def _count_share(n: int, share: float) -> str:
    return f"{number(n)} ({percent_fixed(share)})"


def comparison_rows(before: RiskSummary, after: RiskSummary) -> list[tuple[str, str, str]]:
    """(measure, before, after) as text, for the preview page and the report alike."""
    limit = math.ceil(1 / before.threshold - 1e-9)
    rows = [
        (_("equivalence classes"), number(before.n_classes), number(after.n_classes)),
        (
            _("records unique on their QI values"),
            _count_share(before.n_unique, before.share_unique),
            _count_share(after.n_unique, after.share_unique),
        ),
        (
            _("re-identification risk (1 in the class size): largest"),
            number(before.max_risk, 3),
            number(after.max_risk, 3),
        ),
        (
            _("re-identification risk: mean over records"),
            number(before.mean_risk, 3),
            number(after.mean_risk, 3),
        ),
        (
            _("records with risk above {threshold} (in classes under {limit})").format(
                threshold=number(before.threshold), limit=number(limit)
            ),
            _count_share(before.n_above, before.share_above),
            _count_share(after.n_above, after.share_above),
        ),
    ]
    if before.max_attribute_share is not None and after.max_attribute_share is not None:
        rows.append(
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
            )
        )
        rows.append(
            (
                _("… that value's share in the whole file (known to everyone)"),
                percent_fixed(before.prior_max_share or 0),
                percent_fixed(after.prior_max_share or 0),
            )
        )
    return rows
