"""The plan stage on a cluster: one machine's planner on what the partitions count.

One machine plans with :func:`engine.release.plan_data` on what it reads of its table
(:class:`~engine.release.PlanData`); here the same planner reads the same facts from the
partitions: one pass gathers what the encoding needs (count, mean and sum of squared
deviations of every numeric QI, merged exactly by Chan's formula; the categories of nominal
and ordinal QIs; the decimals of numeric QIs), checks the numbers as one machine does
(:func:`engine.release.check_numbers`) and counts the confidential values; the records of
the two fixed samples one machine uses (the search of b and the class size, positions drawn
with seed 0 from N alone) are fetched and encoded with the whole file's statistics.  So the
search of b, the warnings, the feasibility and its fixes are one machine's, from the same
numbers.  The disclosure risk of the original records is one machine's
(:func:`engine.release.disclosure_risk`) on the records counted by their QI values and
bucket in every partition, the counts added up.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from engine.distributed.buckets import (
    DISTINCT_LIMIT,
    BucketLookup,
    CountedValues,
    DigestValues,
    digest,
    digest_limits,
    digest_scale,
    digest_thresholds,
    interval_counts,
    merge_counts,
    value_counts,
)
from engine.distributed.cluster import gather, speaking
from engine.distributed.encode import (
    Spec,
    column_stats,
    encode_part,
    make_spec,
    ordinal_order,
    ordinal_rank_moments,
)
from engine.distributed.prepare import ClusterInput
from engine.errors import InputError
from engine.i18n import _
from engine.params import ReleaseParams
from engine.progress import NO_TASK, Task
from engine.release import (
    Buckets,
    Plan,
    PlanData,
    RiskSummary,
    bucket_count,
    check_numbers,
    disclosure_risk,
    ladder,
    plan_data,
    search_sample,
    size_sample,
)
from engine.roles import ColumnType

#: the columns a partition's risk counts add to its QIs: the bucket, the count, the weights
_BUCKET, _COUNT, _WEIGHT = "\x00bucket", "\x00n", "\x00w"


@dataclass
class ClusterPlan:
    """The plan of a file on a cluster, and what the release needs beyond it."""

    plan: Plan
    spec: Spec
    #: the confidential values as the plan read them (None without confidential columns)
    values: CountedValues | DigestValues | None
    #: how a partition finds its records' buckets (None without confidential columns)
    lookup: BucketLookup | None
    #: fetched records: file positions (sorted), their prepared columns and encoded QIs
    rows: np.ndarray
    sample: pd.DataFrame
    X: np.ndarray

    def at(self, positions: np.ndarray) -> np.ndarray:
        """Indices into the fetched records of the file positions ``positions``."""
        return np.searchsorted(self.rows, positions)


def _stats_part(frame, qi, confidential, types, orders, limit):
    check_numbers(frame, [*qi, *confidential], types)  # the numbers one machine refuses
    stats = column_stats(frame, qi, types, orders)
    if not confidential:
        return stats, None
    counts = value_counts(frame, confidential, types)
    if len(counts[0]) > limit:
        return stats, "too many"
    return stats, counts


def _rows(frame: pd.DataFrame, positions: np.ndarray, columns: Sequence[str]) -> pd.DataFrame:
    return frame.iloc[positions][list(columns)]


def risk_counts(
    frame: pd.DataFrame,
    qi: Sequence[str],
    lookup: BucketLookup | None,
    weight: str | None,
) -> pd.DataFrame:
    """One partition's records counted by their QI values (a missing value is a value of its
    own, as :func:`engine.release.class_ids` groups them) and bucket, with their weights."""
    keys = frame[list(qi)].reset_index(drop=True)
    keys[_BUCKET] = lookup(frame) if lookup is not None else 0
    keys[_WEIGHT] = 1.0 if weight is None else pd.to_numeric(frame[weight]).to_numpy()
    grouped = keys.groupby([*qi, _BUCKET], dropna=False, sort=False)[_WEIGHT]
    return grouped.agg(**{_COUNT: "size", _WEIGHT: "sum"}).reset_index()


def risk_of_counts(
    counted: list[pd.DataFrame], qi: Sequence[str], weighted: bool, buckets: bool
) -> RiskSummary:
    """One machine's :func:`~engine.release.disclosure_risk` of the records the partitions
    counted (:func:`risk_counts`)."""
    rows = pd.concat(counted, ignore_index=True) if len(counted) > 1 else counted[0]
    if len(counted) > 1:
        keys = [*qi, _BUCKET]
        rows = rows.groupby(keys, dropna=False, sort=False)[[_COUNT, _WEIGHT]].sum().reset_index()
    counts = rows[_COUNT].to_numpy(np.int64)
    classes = (
        rows.groupby(list(qi), dropna=False, sort=False).ngroup().to_numpy(np.int64)
        if qi
        else np.zeros(len(rows), dtype=np.int64)
    )
    labels = np.repeat(classes, counts)
    codes = np.repeat(rows[_BUCKET].to_numpy(np.int64), counts) if buckets else None
    weights = np.repeat(rows[_WEIGHT].to_numpy(float) / counts, counts) if weighted else None
    return disclosure_risk(labels, codes, weights=weights)


def plan_on_cluster(
    client: Any,
    data: ClusterInput,
    params: ReleaseParams,
    *,
    distinct_limit: int = DISTINCT_LIMIT,
    task: Task = NO_TASK,
) -> ClusterPlan:
    """The one-machine plan of the file (:func:`engine.release.plan_data`), computed from
    the partitions' counts and the fixed samples of records (module doc)."""
    qi, confidential = list(params.qi), list(params.confidential)
    types, orders, n = data.types, dict(data.orders), data.n
    task.step(0.0, _("Counting values"))
    stats = gather(
        client, client.map(speaking(_stats_part), data.frames, qi=qi, confidential=confidential,
                           types=types, orders=orders, limit=distinct_limit),
        task=task.sub(0.0, 0.4), message="Counting values",
    )  # fmt: skip
    col_stats = [s[0] for s in stats]
    ordinal_moments = {}
    for col in (c for c in qi if types[c] == ColumnType.ORDINAL):
        order = ordinal_order(col_stats, col, orders.get(col))
        orders[col] = tuple(order)
        parts_m = gather(client, client.map(ordinal_rank_moments, data.frames, col=col,
                                            order=order))  # fmt: skip
        m = parts_m[0]
        for other in parts_m[1:]:
            m = m.merge(other)
        ordinal_moments[col] = m
    spec = make_spec(col_stats, qi, types, orders, ordinal_moments)
    # the records the search of b and the class size are tried on, fetched once
    task.step(0.4, _("Fetching the samples"))
    rows = np.union1d(search_sample(n), size_sample(n))
    which = np.searchsorted(data.offsets, rows, side="right") - 1
    taken = gather(client, [
        client.submit(_rows, data.frames[p], rows[which == p] - data.offsets[p],
                      [*qi, *confidential])
        for p in np.unique(which)
    ])  # fmt: skip
    sample = pd.concat(taken, ignore_index=True)
    X = encode_part(sample, spec)
    values: CountedValues | DigestValues | None = None
    if confidential and not params.noise:
        if any(isinstance(s[1], str) for s in stats):
            values = _digest_values(client, data, params, rows, sample)
        else:
            counts, n_missing = merge_counts([s[1] for s in stats])
            values = CountedValues(
                counts, n_missing, confidential, types, orders, rows, sample,
                joint=params.joint, bounds=params.bounds,
            )  # fmt: skip
    del stats
    at_search = np.searchsorted(rows, search_sample(n))

    def survey(buckets: Buckets | None) -> tuple[None, RiskSummary]:
        # the risk of the original records, as one machine measures it, from the partitions'
        # counts of QI values (and buckets, and sums of weights); the households of a file
        # are gathered only for its release, so the plan has no household figures here
        find = None if values is None or buckets is None else values.lookup(buckets)
        counted = gather(client, client.map(risk_counts, data.frames, qi=qi, lookup=find,
                                            weight=params.weight))  # fmt: skip
        return None, risk_of_counts(counted, qi, params.weight is not None, find is not None)

    facts = PlanData(
        n=n,
        n_left_out=data.n_left_out,
        types=types,
        confidential=confidential,
        values=values,
        search_qi=lambda: X[at_search],
        survey=survey,
        review_notes=tuple(data.notes),
    )
    planned = plan_data(facts, params, task=task.sub(0.5, 1.0))
    lookup = None
    if values is not None and planned.bucket_data is not None:
        lookup = values.lookup(planned.bucket_data)
    data.orders.update(orders)
    return ClusterPlan(planned, spec, values, lookup, rows, sample, X)


def _digest_values(
    client: Any, data: ClusterInput, params: ReleaseParams, rows: np.ndarray, sample: pd.DataFrame
) -> DigestValues:
    """Buckets of a column with too many distinct values to count, from t-digest cuts fine
    enough for every b the plan may ask for."""
    confidential, types = list(params.confidential), data.types
    if len(confidential) > 1 or types[confidential[0]] not in (
        ColumnType.NUMERIC,
        ColumnType.DATE,
    ):
        raise InputError(
            _(
                "The confidential values have too many distinct values to count on a "
                "cluster; use one numeric confidential column or fewer distinct values."
            )
        )
    col, ctype = confidential[0], types[confidential[0]]
    t = params.bucket_t
    assert t is not None
    finest = params.n_buckets or max(ladder(t, params.k, data.n))
    finest = max(finest, bucket_count(t, params.k))
    digests = gather(client, client.map(digest, data.frames, col=col, ctype=ctype))
    scale, quantiles = digest_scale(digests, ctype, params.bounds.get(col), finest)
    thresholds = digest_thresholds(scale, quantiles)
    count = functools.partial(
        interval_counts,
        col=col,
        ctype=ctype,
        thresholds=thresholds,
        bounds=params.bounds.get(col),
        limits=digest_limits(scale),
    )  # a large array as a keyword of client.map trips Dask's scheduler; fmt: skip
    counted = gather(client, client.map(count, data.frames))
    return DigestValues(counted, scale, quantiles, thresholds, col, ctype, rows, sample)


__all__ = ["ClusterPlan", "plan_on_cluster", "risk_counts", "risk_of_counts"]
