"""Disclosure risk of a table: re-identification of persons and households, attribute disclosure.

A disclosure review board asks two questions of a release: can an intruder who knows a
person's quasi-identifiers (QIs) find that person's record (*identity disclosure*), and can
the intruder learn the person's confidential value without finding the record (*attribute
disclosure*)?  The measures, all computed from a class label per record (records with
identical QI values; missing counts as a value):

- **uniques**: records whose combination of QI values occurs once in the table;
- **individual re-identification risk** r of a record.  Without weights, 1 / f: f is the
  size of its class, and the intruder picks the right record among f.  With sampling weights
  the table is a sample: the record's combination occurs F times in the population, not f,
  and F is unknown.  sdcMicro and μ-ARGUS estimate E[1/F | f] with the Benedetti–Franconi
  model (Franconi & Polettini 2004, PSD; sdcMicro ``indivRisk``, ``method="approx"``): F − f
  is negative binomial given f with success probability p = f / Σw (Σw: the class's sum of
  weights, the estimate of F), which gives

      f = 1:  r = p/(1−p) · ln(1/p)
      f = 2:  r = p/(1−p) − (p/(1−p))² · ln(1/p)
      f ≥ 3:  r = p / (f − (1 − p))
      p = 1 (the class is the whole population of its combination):  r = 1/f

  (weights below 1 would make Σw < f; p is capped at 1).  Summarised by its maximum, its
  mean, the records above a threshold, and **expected re-identifications** Σ r (sdcMicro's
  ``global_risk_ER``);
- **household risk** of a record: 1 − Π(1 − r_j) over the members j of its household, the
  chance that at least one member is re-identified, which discloses the household (sdcMicro
  ``measure_risk(hid=…)``); summarised by its mean over records (sdcMicro's ``hier_risk``),
  its maximum and its sum (``hier_risk_ER``);
- **household uniques**: households whose *pattern* (the multiset of their members' classes)
  no other household shares.  An intruder holding a household id can group its members, and a
  household of a 44-year-old man, a 41-year-old woman and three children may be one of a kind
  even when each member's class is large;
- **linking**: with household ids, the figures above are computed as if the intruder follows
  them (``linked``): knowing every member's QIs, the intruder keeps the households of the
  same pattern, and a member's record is one of those of its class among them.  The class of
  a record is then that *cell* (its household's pattern and its class), whose size and sum of
  weights give its risk; a record without an id keeps its class;
- **attribute disclosure**: the largest share of a class that takes one confidential value
  (bucket), compared with that value's share in the whole table (what the intruder knows
  anyway); t-closeness bounds the ratio of the two by t (KBS 2015, Definition 4).

The measures read class labels only, so the same functions score the original data and the
release.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import InputError
from engine.i18n import _
from engine.params import ReleaseParams
from engine.release.model import RiskComparison, RiskSummary
from engine.release.verify import household_patterns

#: default threshold of the re-identification risk: more than 1 in 5, i.e. classes below 5
DEFAULT_THRESHOLD = 0.2


def class_ids(table: pd.DataFrame, qi: Sequence[str]) -> np.ndarray:
    """Equivalence-class index of every row: rows with identical values in ``qi`` share one.

    Missing values count as a value of their own (a release with a missing QI still forms a
    class with the other rows that miss it).
    """
    missing = [c for c in qi if c not in table.columns]
    if missing:
        raise InputError(
            _("Column(s) not in the table: {missing}.").format(missing=", ".join(missing))
        )
    if not qi:
        return np.zeros(len(table), dtype=np.int64)
    return table.groupby(list(qi), dropna=False, sort=False).ngroup().to_numpy(np.int64)


def individual_risk(classes: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Re-identification risk of every record (module doc): 1/f, or with ``weights`` the
    Benedetti–Franconi approximation that sdcMicro's ``indivRisk`` and μ-ARGUS use."""
    labels = pd.factorize(np.asarray(classes), use_na_sentinel=False)[0]
    f = np.bincount(labels).astype(np.float64)
    if weights is None:
        return 1.0 / f[labels]
    w = np.asarray(weights, dtype=np.float64)
    if len(w) != len(labels):
        raise InputError(_("The weights and the classes differ in length."))
    big_f = np.maximum(np.bincount(labels, weights=w), f)  # a population holds its sample
    p = f / big_f
    r = np.empty(len(f))
    with np.errstate(divide="ignore", invalid="ignore"):
        odds = p / (1.0 - p)
        log = np.log(1.0 / p)
        r = np.where(f == 1, odds * log, np.where(f == 2, odds - odds**2 * log, p / (f - 1 + p)))
    exact = p >= 1.0 - 1e-12
    r[exact] = 1.0 / f[exact]
    return r[labels]


def household_risks(risk: np.ndarray, hh: np.ndarray) -> np.ndarray:
    """1 − Π(1 − r_j) over the members of every record's household, per record."""
    hh = np.asarray(hh, dtype=np.int64)
    # Π(1 − r) as exp Σ log(1 − r); a member at risk 1 makes the household certain
    safe = np.clip(1.0 - np.asarray(risk, dtype=np.float64), 0.0, 1.0)
    with np.errstate(divide="ignore"):
        logs = np.log(safe)
    total = np.bincount(hh, weights=np.where(np.isfinite(logs), logs, 0.0))
    certain = np.bincount(hh, weights=(safe == 0).astype(np.float64)) > 0
    per_home = np.where(certain, 1.0, -np.expm1(total))
    return per_home[hh]


def household_pattern_uniques(classes: np.ndarray, hh: np.ndarray) -> tuple[int, int]:
    """(households unique on their members' pattern of classes, households).

    A household's pattern is the multiset of its members' classes, compared exactly
    (:func:`engine.release.verify.household_patterns`).
    """
    labels = pd.factorize(np.asarray(classes), use_na_sentinel=False)[0].astype(np.int64)
    hh = pd.factorize(np.asarray(hh), use_na_sentinel=False)[0].astype(np.int64)
    pattern = household_patterns(labels, hh)
    per_pattern = np.bincount(pattern)
    return int((per_pattern[pattern] == 1).sum()), len(pattern)


def linked_cells(classes: np.ndarray, hh: np.ndarray) -> np.ndarray:
    """The class of every record as an intruder who follows the household ids sees it: its
    household's pattern and its class (``hh`` < 0: released without an id, its class alone).
    """
    labels = pd.factorize(np.asarray(classes), use_na_sentinel=False)[0].astype(np.int64)
    hh = np.asarray(hh, dtype=np.int64)
    linked = hh >= 0
    if not linked.any():
        return labels
    homes = pd.factorize(hh[linked])[0].astype(np.int64)
    pattern = household_patterns(labels[linked], homes)
    width = int(labels.max()) + 1
    cell = labels.copy()
    cell[linked] = width * (1 + pattern[homes]) + labels[linked]
    return pd.factorize(cell)[0].astype(np.int64)


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
    weights: np.ndarray | None = None,
    households: np.ndarray | None = None,
    linked: bool = False,
) -> RiskSummary:
    """Risk figures from the class of every row and, optionally, its confidential value(s).

    ``classes`` is any integer labelling of the rows by equivalence class (see
    :func:`class_ids`); ``sensitive`` gives each row's confidential value, bucket code or tuple
    of values (a DataFrame with several columns is taken jointly); ``weights`` the sampling
    weight of every row and ``households`` its household (module doc; a missing household,
    None or NaN, is a record released without an id: a household of its own that nobody can
    link).  ``linked``: the intruder follows the household ids (:func:`linked_cells`), and
    the re-identification and attribute figures are those of the cells.
    """
    if not 0 < threshold <= 1:
        raise InputError(
            _("The risk threshold must lie in (0, 1], not {threshold}.").format(threshold=threshold)
        )
    labels = pd.factorize(np.asarray(classes), use_na_sentinel=False)[0]
    n = len(labels)
    if n == 0:
        raise InputError(_("The table has no records; there is no risk to measure."))
    hh = None
    if households is not None:
        hh = pd.factorize(pd.Series(np.asarray(households, dtype=object)))[0].astype(np.int64)
        if len(hh) != n:
            raise InputError(_("The households and the classes differ in length."))
        if linked:
            labels = linked_cells(labels, hh)
        # a record without an id: a household of its own
        alone = hh < 0
        hh = np.where(alone, int(hh.max(initial=-1)) + 1 + np.cumsum(alone) - 1, hh)
    sizes = np.bincount(labels)
    risk = individual_risk(labels, weights)
    above = int((risk > threshold).sum())
    n_unique = int((sizes == 1).sum())
    result: dict[str, Any] = {
        "n_records": n,
        "n_classes": len(sizes),
        "n_unique": n_unique,
        "share_unique": n_unique / n,
        "max_risk": float(risk.max()),
        "mean_risk": float(risk.mean()),
        "threshold": float(threshold),
        "n_above": above,
        "share_above": above / n,
        "expected_reidentifications": float(risk.sum()),
        "weighted": weights is not None,
        "linked": bool(linked and hh is not None),
    }
    if hh is not None:
        home = household_risks(risk, hh)
        unique, n_h = household_pattern_uniques(labels, hh)
        result.update(
            n_households=n_h,
            household_risk=float(home.mean()),
            household_max_risk=float(home.max()),
            household_expected_reidentifications=float(home.sum()),
            n_household_unique=unique,
            share_household_unique=unique / n_h,
        )
    if sensitive is not None:
        codes = _value_codes(sensitive)
        if len(codes) != n:
            raise InputError(_("The confidential values and the classes differ in length."))
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
    weight: str | None = None,
    household: str | None = None,
    linked: bool = True,
) -> RiskSummary:
    """Risk figures of a table, classes formed by its ``qi`` columns (``weight`` and
    ``household`` name its weight and household columns, when it has them; ``linked``: the
    intruder follows the household ids, as the run's published risk assumes)."""
    missing = [c for c in (*confidential, weight, household) if c and c not in table.columns]
    if missing:
        raise InputError(
            _("Column(s) not in the table: {missing}.").format(missing=", ".join(missing))
        )
    sensitive = table[list(confidential)] if confidential else None
    return disclosure_risk(
        class_ids(table, qi),
        sensitive,
        threshold=threshold,
        weights=None if weight is None else table[weight].to_numpy(dtype=np.float64),
        households=None if household is None else table[household].to_numpy(dtype=object),
        linked=linked and household is not None,
    )


def _is_numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def original_sensitive(
    data: pd.DataFrame, params: ReleaseParams, bucket_codes: np.ndarray | None = None
) -> Any:
    """What attribute disclosure is measured on in the original records: the buckets when
    the release has buckets (a raw numeric value is nearly always unique, so the raw values
    would say nothing), the categories of a noise release of categories, else None."""
    conf = [c for c in params.confidential if c in data.columns]
    if bucket_codes is not None and len(bucket_codes) == len(data):
        return np.asarray(bucket_codes)
    if conf and not any(_is_numeric(data[c]) for c in conf):
        return data[conf]
    return None


def compare_risk(
    data: pd.DataFrame,
    table: pd.DataFrame,
    params: ReleaseParams,
    *,
    bucket_codes: np.ndarray | None = None,
    source_rows: np.ndarray | None = None,
    weights: np.ndarray | None = None,
    households: np.ndarray | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    before: RiskSummary | None = None,
) -> RiskComparison:
    """The risk of the original records (``data``) and of the released ``table``.

    *Before* groups the original records by their raw QI values, with the run's ``weights``
    and ``households`` (per record of ``data``); *after* groups the released table by its
    released QI values, with the weights and the household ids the release carries
    (:meth:`ReleaseParams.released_weight`, :meth:`ReleaseParams.released_household`), so
    that a reader recomputes it from the release; where the release leaves them out, with
    the run's (``source_rows``: the record every released row was made from).  With
    household ids both sides follow them (:func:`linked_cells`): an intruder who knows
    every member's QIs.  ``bucket_codes`` is the bucket of every record.
    Attribute disclosure compares the same thing on both sides where it can: the confidential
    buckets when the release has buckets (a raw numeric value is nearly always unique, so the
    raw values would say nothing), the released categories of a noise release otherwise; a
    noise release of numbers has no attribute figures (its protection is the ε of the noise,
    not a share of classes).  ``before`` is the original's risk when the caller has it (the
    plan's, :func:`original_sensitive` of the same buckets).
    """
    qi = [c for c in params.qi if c in data.columns]
    before_sensitive = original_sensitive(data, params, bucket_codes)
    released_conf = [c for c in params.confidential if c in table.columns]
    if before_sensitive is None:  # noisy numbers: shares of exact values say nothing
        released_conf = []
    linked = households is not None
    if before is None or before.threshold != threshold or before.linked != linked:
        before = disclosure_risk(
            class_ids(data, qi),
            before_sensitive,
            threshold=threshold,
            weights=weights,
            households=households,
            linked=linked,
        )
    rows = np.arange(len(table)) if source_rows is None else np.asarray(source_rows)
    released_qi = [c for c in params.qi if c in table.columns]
    after_weights = None if weights is None else np.asarray(weights)[rows]
    if weights is not None and params.released_weight() and params.weight in table.columns:
        after_weights = pd.to_numeric(table[params.weight]).to_numpy(dtype=np.float64)
    after_homes = None if households is None else np.asarray(households)[rows]
    if households is not None and params.released_household() and params.household in table:
        after_homes = table[params.household].to_numpy(dtype=object)
    after = disclosure_risk(
        class_ids(table, released_qi),
        table[released_conf] if released_conf else None,
        threshold=threshold,
        weights=after_weights,
        households=after_homes,
        linked=after_homes is not None and params.released_household(),
    )
    return RiskComparison(before, after)


__all__ = [
    "DEFAULT_THRESHOLD",
    "RiskComparison",
    "RiskSummary",
    "class_ids",
    "compare_risk",
    "disclosure_risk",
    "household_pattern_uniques",
    "household_risks",
    "individual_risk",
    "linked_cells",
    "original_sensitive",
    "table_risk",
]
