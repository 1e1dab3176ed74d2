"""One release computed on a Dask cluster: the one-machine plan and construction, partition-wise.

The steps follow :func:`engine.release.anonymize.anonymize`:

1. partitions are read where they lie (Parquet row groups, CSV blocks), missing codes applied
   (:func:`read_input`);
2. **the plan** (:func:`plan_on_cluster`): one pass gathers what the encoding needs (means,
   deviations, categories) and the exact counts of the confidential values; the records of
   the fixed search and class-size samples are fetched; then the one-machine planner
   (:func:`engine.release.plan.plan_data`) runs on those: the search of b, the warnings, the
   feasibility and its fixes are one machine's, from the same numbers;
3. **the classes**: a file that one worker can hold (at most :data:`NODE_RECORDS` records) is
   partitioned whole by the one-machine code (:func:`engine.release.anonymize.best_partition`),
   so its classes are one machine's; a larger file runs the top levels of the stratified k-d
   split as aggregation passes (:mod:`engine.distributed.split`) until every node fits a
   worker, one shuffle puts whole nodes in partitions, and each partition runs the
   one-machine split and capped MDAV on its nodes (class numbers are the layout's, so classes
   never cross partitions and each node is feasible by construction).  Which records form a
   node depends on the data, the layout and :data:`NODE_RECORDS` only, never on how many
   workers are alive, so a run that lost a worker gives the same release;
4. each partition builds its part of the release and shuffles its rows;
5. the independent check (:mod:`engine.distributed.verify`) reads only the released parts;
   the summary is filled as on one machine (:func:`engine.release.summary.summarise_buckets`).

Futures carry progress and cancellation; a worker lost mid-run is recomputed by Dask from
the file, and a task that keeps killing workers ends the run with a clear message.
"""

from __future__ import annotations

import functools
import math
import operator
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from engine.checks import (
    WeightProblem,
    check_columns,
    first_problem,
    type_error,
    type_problem,
    weight_error,
    weight_problem,
)
from engine.distributed.buckets import (
    DISTINCT_LIMIT,
    BucketLookup,
    CountedValues,
    DigestValues,
    digest,
    digest_scale,
    digest_thresholds,
    interval_counts,
    merge_counts,
    value_counts,
)
from engine.distributed.cluster import gather, n_workers, wait_all
from engine.distributed.encode import (
    Spec,
    column_stats,
    encode_part,
    make_spec,
    ordinal_order,
    ordinal_rank_moments,
)
from engine.distributed.identifiers import check_identifiers_on
from engine.distributed.reading import read_parts
from engine.distributed.split import (
    Level,
    Part,
    choose_split,
    choose_values,
    gather_pieces,
    level_apply,
    level_histogram,
    level_sums,
    level_values,
    node_plan,
    pack_nodes,
    pieces,
)
from engine.distributed.verify import verify_parts
from engine.errors import InputError
from engine.i18n import _
from engine.identifiers import KEEP, QI
from engine.io import ReadOptions, apply_missing
from engine.mechanisms import MECHANISMS
from engine.params import ReleaseParams
from engine.progress import NO_TASK, Task
from engine.release import (
    DEFAULT_BLOCK_SIZE,
    LARGE_FILE,
    Buckets,
    InformationLoss,
    MissingCount,
    Plan,
    PlanData,
    QiSums,
    RiskSummary,
    RunSummary,
    Verification,
    best_partition,
    bucket_count,
    check_feasible,
    check_magnitudes,
    choose_class_size,
    default_rounds,
    disclosure_risk,
    form_classes,
    group_ids,
    improve_within_bounds,
    ladder,
    layout_counts,
    plan_data,
    recode_qi,
    release_confidential,
    resolve_columns,
    search_sample,
    size_candidates,
    size_sample,
    split_nodes,
    spreads_from_sums,
    summarise_buckets,
    widest_dimension,
)
from engine.roles import ColumnType

#: records a worker partitions whole: a file up to this size gets one machine's classes, and
#: the distributed levels of a larger one stop at nodes of at most this many records (fixed,
#: so that the layout never depends on how many workers are alive)
NODE_RECORDS = 1_000_000
#: rows read to infer the column types (give --type for certainty)
TYPE_SAMPLE = 50_000
#: a missing released value, as a group key (as the independent check writes it)
_NA = "\x00NA"


@dataclass
class ClusterRelease:
    """A verified release whose parts stay on the cluster until they are written."""

    #: futures of the released parts (pandas frames), in order
    parts: list[Any]
    columns: list[str]
    summary: RunSummary
    verification: Verification
    warnings: list[str]
    plan: Plan | None = None


# ----------------------------------------------------------------------------- reading


def _prepare_part(frame: pd.DataFrame, params: ReleaseParams) -> pd.DataFrame:
    """Missing codes applied to the protected columns; ``keep`` columns unchanged."""
    used = [*params.qi, *params.confidential]
    column_missing = {c: v for c, v in params.column_missing.items() if c in used}
    clean = apply_missing(frame[used], params.missing, column_missing)
    for col in (*params.keep, *(c for c in (params.household, params.weight) if c)):
        clean[col] = frame[col]
    if params.missing_confidential == "drop" and params.confidential:
        # as on one machine (engine.release.prepare): the record is left out, not released
        clean = clean[clean[list(params.confidential)].notna().all(axis=1)]
    return clean.reset_index(drop=True)


@dataclass
class ClusterInput:
    """The prepared partitions of a file on the cluster, and what one machine's
    :func:`~engine.release.prepare.prepare` knows of them."""

    #: futures of the prepared partitions (file order)
    frames: list[Any]
    #: position in the file of every partition's first record
    offsets: np.ndarray
    n: int
    n_left_out: int
    #: the released columns in the input's order
    columns: list[str]
    types: dict[str, ColumnType]
    orders: dict[str, tuple]
    #: what the review record says of the input (columns released although they look like
    #: identifiers)
    notes: list[str] = field(default_factory=list)


def _type_problems(frame: pd.DataFrame, types: dict[str, ColumnType]) -> dict[str, Any]:
    """One partition's first value each column's type cannot read (engine.checks)."""
    return {col: type_problem(frame[col], ctype) for col, ctype in types.items()}


def _weight_problem(frame: pd.DataFrame, params: ReleaseParams) -> WeightProblem | None:
    """One raw partition's first bad weight among the records it releases (one machine
    checks those only: with ``missing_confidential="drop"`` a record left out is not
    read), its position counted in the raw partition, as the file numbers its records."""
    kept = np.arange(len(frame))
    if params.missing_confidential == "drop" and params.confidential:
        used = list(params.confidential)
        codes = {c: v for c, v in params.column_missing.items() if c in used}
        present = apply_missing(frame[used], params.missing, codes).notna().all(axis=1)
        kept = np.flatnonzero(present.to_numpy())
    problem = weight_problem(frame[params.weight].iloc[kept])
    if problem is None:
        return None
    return replace(problem, position=int(kept[problem.position]))


def read_input(
    client: Any, path: str | Path, params: ReleaseParams, *, sep: str | None = None,
    options: ReadOptions | None = None, task: Task = NO_TASK,
) -> ClusterInput:  # fmt: skip
    """Read and clean ``path`` partition by partition, with one machine's checks and words."""
    qi, confidential, keep = list(params.qi), list(params.confidential), list(params.keep)
    task.step(0.0, _("Reading the partitions"))
    raw, names = read_parts(client, path, None, options or sep)
    check_columns(params, names)  # roles, types, orders, codes: as one machine
    columns = [c for c in names if c in (*qi, *confidential, *keep)]
    frames = client.map(_prepare_part, raw, params=params)
    lengths = gather(client, client.map(len, frames), task=task, message="Reading the partitions")
    raw_lengths = gather(client, client.map(len, raw))
    n_left_out = 0
    if params.missing_confidential == "drop" and confidential:
        n_left_out = int(sum(raw_lengths)) - int(sum(lengths))
    n = int(sum(lengths))
    if n == 0 and n_left_out:
        raise InputError(
            _(
                "Every record has a missing confidential value: leaving them out "
                "(missing_confidential 'drop') leaves nothing to release."
            )
        )
    if n == 0:
        raise InputError(_("The input has no records."))
    offsets = np.r_[0, np.cumsum(lengths)[:-1]].astype(np.int64)
    head = client.submit(lambda f: f.head(TYPE_SAMPLE), frames[0]).result()
    types, orders = resolve_columns(head, [*qi, *confidential], params.types, params.orders)
    # one machine's checks, in its order, each on every partition and combined in file order
    found = gather(client, client.map(_type_problems, frames, types=types))
    for col in (*qi, *confidential):
        problem = first_problem(zip(offsets, (part[col] for part in found), strict=True))
        if problem is not None:
            raise type_error(col, problem)
    roles = {**dict.fromkeys(qi, QI), **dict.fromkeys(keep, KEEP)}
    notes = check_identifiers_on(
        client, frames, roles, types, allowed=params.allow_identifier,
        household=params.household, head=head,
    )  # fmt: skip
    if params.weight is not None:
        raw_offsets = np.r_[0, np.cumsum(raw_lengths)[:-1]].astype(np.int64)
        weights = gather(client, client.map(_weight_problem, raw, params=params))
        problem = first_problem(zip(raw_offsets, weights, strict=True))
        if problem is not None:
            raise weight_error(params.weight, problem)
    del raw
    return ClusterInput(frames, offsets, n, n_left_out, columns, types, orders, notes)


# ----------------------------------------------------------------------------- planning


def _stats_part(frame, qi, confidential, types, orders, limit):
    for col in (*qi, *confidential):  # the numbers one machine refuses (prepare)
        if types[col] == ColumnType.NUMERIC:
            from engine.release import numeric_values

            check_magnitudes(col, numeric_values(frame[col], ColumnType.NUMERIC))
    stats = column_stats(frame, qi, types, orders)
    if not confidential:
        return stats, None
    counts = value_counts(frame, confidential, types)
    if len(counts[0]) > limit:
        return stats, "too many"
    return stats, counts


def _rows(frame: pd.DataFrame, positions: np.ndarray, columns: Sequence[str]) -> pd.DataFrame:
    return frame.iloc[positions][list(columns)]


@dataclass
class ClusterPlan:
    """The plan of a file on a cluster, and what the release needs beyond it."""

    plan: Plan
    spec: Spec
    #: how a partition finds its records' buckets (None without confidential columns)
    lookup: BucketLookup | None
    #: fetched records: file positions (sorted), their prepared columns and encoded QIs
    rows: np.ndarray
    sample: pd.DataFrame
    X: np.ndarray
    #: what only a cluster says (e.g. bucket medians estimated from a t-digest)
    warnings: list[str]

    def at(self, positions: np.ndarray) -> np.ndarray:
        """Indices into the fetched records of the file positions ``positions``."""
        return np.searchsorted(self.rows, positions)


def _risk_counts(
    frame: pd.DataFrame, spec: Spec, lookup: BucketLookup | None, weight: str | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One partition's distinct (encoded QIs, bucket) rows, their counts and sums of weights."""
    X = encode_part(frame, spec)
    X = np.where(np.isnan(X), -np.inf, X)  # a missing value is a value of its own
    codes = lookup(frame) if lookup is not None else np.zeros(len(frame), dtype=np.int64)
    keys = np.column_stack([X, codes.astype(np.float64)]) if len(frame) else np.zeros((0, 1))
    rows, inverse, counts = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    w = np.ones(len(frame)) if weight is None else frame[weight].to_numpy(dtype=np.float64)
    return rows, counts, np.bincount(inverse.ravel(), weights=w, minlength=len(rows))


def _risk_of_counts(
    counted: list[tuple[np.ndarray, np.ndarray, np.ndarray]], weighted: bool, buckets: bool
) -> RiskSummary:
    """:func:`engine.release.risk.disclosure_risk` of the records the partitions counted."""
    rows = np.concatenate([c[0] for c in counted if len(c[0])])
    counts = np.concatenate([c[1] for c in counted])
    sums = np.concatenate([c[2] for c in counted])
    rows, inverse = np.unique(rows, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    counts = np.bincount(inverse, weights=counts).astype(np.int64)
    sums = np.bincount(inverse, weights=sums)
    _, classes = np.unique(rows[:, :-1], axis=0, return_inverse=True)
    labels = np.repeat(classes.ravel(), counts)
    codes = np.repeat(rows[:, -1].astype(np.int64), counts)
    weights = np.repeat(sums / counts, counts) if weighted else None
    return disclosure_risk(labels, codes if buckets else None, weights=weights)


def plan_on_cluster(
    client: Any,
    data: ClusterInput,
    params: ReleaseParams,
    *,
    distinct_limit: int = DISTINCT_LIMIT,
    task: Task = NO_TASK,
) -> ClusterPlan:
    """The one-machine plan of the file (:func:`engine.release.plan.plan_data`), computed from
    the partitions' counts and the fixed samples of records (module doc, step 2)."""
    qi, confidential = list(params.qi), list(params.confidential)
    types, orders, n = data.types, dict(data.orders), data.n
    task.step(0.0, _("Counting values"))
    stats = gather(
        client, client.map(_stats_part, data.frames, qi=qi, confidential=confidential,
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
    warnings: list[str] = []
    values = None
    if confidential and not params.noise:
        if any(isinstance(s[1], str) for s in stats):
            values = _digest_values(client, data, params, rows, sample, warnings)
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
        # counts of QI combinations (and buckets, and sums of weights); the households of a
        # file are gathered only for its release, so the plan has no household figures here
        find = None if values is None or buckets is None else values.lookup(buckets)
        counted = gather(client, client.map(_risk_counts, data.frames, spec=spec, lookup=find,
                                            weight=params.weight))  # fmt: skip
        return None, _risk_of_counts(counted, params.weight is not None, find is not None)

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
    return ClusterPlan(planned, spec, lookup, rows, sample, X, warnings)


def _digest_values(
    client: Any,
    data: ClusterInput,
    params: ReleaseParams,
    rows: np.ndarray,
    sample: pd.DataFrame,
    warnings: list[str],
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
        interval_counts, col=col, ctype=ctype, thresholds=thresholds, bounds=params.bounds.get(col)
    )  # a large array as a keyword of client.map trips Dask's scheduler
    counted = gather(client, client.map(count, data.frames))
    if params.confidential_output == "mean":
        warnings.append(
            f"{col!r} has too many distinct values for exact bucket means on a cluster: "
            "the bucket medians (estimated from a t-digest) are released instead."
        )
    return DigestValues(counted, scale, quantiles, thresholds, col, ctype, rows, sample)


def _make_part(frame: pd.DataFrame, offset: int, spec: Spec, lookup: BucketLookup | None):
    X = encode_part(frame, spec)
    n = len(frame)
    codes = lookup(frame) if lookup is not None else np.zeros(n, dtype=np.int64)
    zeros = np.zeros(n, dtype=np.int64)
    return Part(frame, X, codes, zeros, zeros.copy(), offset + np.arange(n, dtype=np.int64))


def _whole(*parts: Part) -> Part:
    """The partitions of a file as one (file order)."""
    return Part(
        pd.concat([p.frame for p in parts], ignore_index=True),
        np.concatenate([p.X for p in parts]),
        np.concatenate([p.codes for p in parts]),
        np.concatenate([p.lo for p in parts]),
        np.concatenate([p.hi for p in parts]),
        np.concatenate([p.row for p in parts]),
    )


def _set_root(part: Part, n_classes: int) -> Part:
    return replace(part, lo=np.zeros(len(part.row), np.int64), hi=np.full(len(part.row), n_classes))


# ----------------------------------------------------------------------------- releasing


@dataclass
class _Recipe:
    """Everything a partition needs to form its classes and release its records."""

    #: the whole file in one partition: one machine's partition (best_partition)
    whole: bool
    shares: np.ndarray
    t: float
    k: int
    block_size: int
    improve_rounds: int
    qi: list[str]
    keep: list[str]
    columns: list[str]
    types: dict
    orders: dict
    places: dict
    buckets: Buckets | None
    qi_output: str
    confidential_output: str
    seed: int | None


def _classes(part: Part, r: _Recipe, per_class: np.ndarray | None, first: int) -> np.ndarray:
    """The classes of a partition: one machine's for the whole file, else its nodes' blocks."""
    X, codes = part.X, part.codes
    if r.whole:
        return best_partition(X, codes, r.k, r.t, seed=r.seed)
    assert per_class is not None
    start = (part.lo - first, part.hi - first)
    node, end = split_nodes(X, codes, per_class, max_records=r.block_size, start=start)
    labels = form_classes(X, codes, node, end, per_class, r.shares, r.t, r.k, workers=1)
    if r.improve_rounds:
        labels = improve_within_bounds(
            X, labels, codes, r.shares, r.t, r.k, r.improve_rounds, NO_TASK
        )
    return labels


def _release_part(
    part: Part, recipe: _Recipe, per_class: np.ndarray | None, first: int, index: int
) -> tuple[pd.DataFrame, dict]:
    """Classes of one partition, its part of the release, and its loss sums.

    ``per_class`` is the layout of this partition's classes only, from class ``first`` on (the
    whole layout of 10⁸ records would be megabytes in every task).
    """
    r = recipe
    labels = _classes(part, r, per_class, first)
    _, labels = np.unique(labels, return_inverse=True)
    labels = labels.astype(np.int64)
    frame = part.frame
    released_qi = recode_qi(frame, r.qi, r.types, r.orders, labels, r.qi_output, r.places)
    pieces_ = [released_qi]
    if r.buckets is not None:
        pieces_.append(
            release_confidential(replace(r.buckets, codes=part.codes), r.confidential_output)
        )
    if r.keep:
        pieces_.append(frame[r.keep].reset_index(drop=True))
    table = pd.concat(pieces_, axis=1)
    table = table[[c for c in r.columns if c in table.columns]]
    rng = np.random.default_rng(None if r.seed is None else [r.seed, index])
    table = table.iloc[rng.permutation(len(table))].reset_index(drop=True)
    # the QI loss of the released file: classes whose released values coincide merge (here,
    # and across partitions by their released values: _merged_loss)
    groups = group_ids(released_qi, r.qi)
    sums = QiSums.of(part.X, groups)
    keyed = released_qi[r.qi].astype("string").fillna(_NA)
    keyed = keyed.iloc[np.unique(groups, return_index=True)[1]].reset_index(drop=True)
    keyed["_n"] = sums.sizes
    for j in range(sums.sums.shape[1]):
        keyed[f"_s{j}"] = sums.sums[:, j]
    stats = {
        "n": len(labels),
        "sq": sums.sq,
        "total": sums.total,
        "keyed": keyed,
        "classes": int(labels.max()) + 1 if len(labels) else 0,
        # missing QI values in the input and released empty (classes that mix them withhold)
        "missing_qi": {c: (int(frame[c].isna().sum()), int(table[c].isna().sum())) for c in r.qi},
    }
    if r.buckets is not None:
        stats["confidential"] = _confidential_sums(
            frame, r.buckets, part.codes, r.types, r.confidential_output
        )
    return table, stats


def _confidential_sums(
    frame, buckets: Buckets, codes, types, output: str = "mean"
) -> dict[str, np.ndarray]:
    """Per numeric confidential column: n, Σx, Σx², Σy, Σy², Σxy of value x and released y
    (the bucket values ``output`` releases; a label release is measured at the medians)."""
    from engine.release import numeric_values

    out = {}
    for i, col in enumerate(buckets.columns):
        if types[col] not in (ColumnType.NUMERIC, ColumnType.DATE):
            continue
        reps = pd.Series([rep[i] for rep in buckets.released(output)]).iloc[codes]
        x = numeric_values(frame[col].reset_index(drop=True), types[col])
        y = numeric_values(reps.reset_index(drop=True), types[col])
        ok = ~np.isnan(x) & ~np.isnan(y)
        x, y = x[ok], y[ok]
        out[col] = np.array([len(x), x.sum(), (x * x).sum(), y.sum(), (y * y).sum(), (x * y).sum()])
    return out


def _getitem(value: Any, i: int) -> Any:
    return operator.getitem(value, i)


def _without_keys(stats: dict) -> dict:
    return {key: value for key, value in stats.items() if key != "keyed"}


def _route_keyed(stats: dict, qi: list[str], n_out: int) -> list[pd.DataFrame]:
    """A partition's released classes, cut by a hash of their released QI values."""
    keyed = stats["keyed"]
    if not qi or n_out == 1:
        return [keyed]
    h = pd.util.hash_pandas_object(keyed[qi], index=False).to_numpy() % np.uint64(n_out)
    return [keyed[h == j] for j in range(n_out)]


def _between(qi: list[str], *pieces: pd.DataFrame) -> float:
    """Σ |Σx|² / size over the classes of the released file that land here, whole."""
    rows = pd.concat(pieces, ignore_index=True)
    if rows.empty:
        return 0.0
    merged = rows.groupby(qi, sort=False).sum() if qi else rows.sum().to_frame().T
    sums = merged[[c for c in merged.columns if c.startswith("_s")]].to_numpy(dtype=float)
    sizes = merged["_n"].to_numpy(dtype=float)
    return float(((sums * sums).sum(axis=1) / np.maximum(sizes, 1)).sum())


def _merged_between(client: Any, stats: list[Any], qi: list[str]) -> float:
    """Σ |Σx|² / size over the classes of the released file: classes of different
    partitions whose released QI values coincide are one class there (routed by a hash of
    those values, as the independent check routes rows)."""
    n_out = len(stats)
    routed = client.map(_route_keyed, stats, qi=qi, n_out=n_out)
    parts = [
        client.submit(_between, qi, *[client.submit(_getitem, r, j) for r in routed])
        for j in range(n_out)
    ]
    return float(sum(gather(client, parts)))


# ----------------------------------------------------------------------------- the run


def refuse_unsupported(params: ReleaseParams) -> None:
    """What a cluster does not compute yet, in one sentence each (exit code 2)."""
    if not MECHANISMS[params.mechanism].cluster:
        raise InputError(
            _(
                "Only the bucket mechanism runs on a cluster; compute noise releases on this "
                "computer (without --cluster)."
            )
        )
    if not params.confidential:
        raise InputError(_("Name the confidential column(s): a cluster computes t-close releases."))
    recoded = [
        name
        for name in ("hierarchies", "bands", "top_code", "bottom_code")
        if getattr(params, name)
    ]
    if recoded or params.qi_output == "common":
        raise InputError(
            _(
                "Recoding before the grouping (hierarchies, bands, top and bottom codes) and the "
                "'common' output are computed on this computer only; run without --cluster."
            )
        )


def anonymize_on_cluster(
    client: Any,
    path: str | Path,
    params: ReleaseParams,
    *,
    sep: str | None = None,
    options: ReadOptions | None = None,
    node_records: int | None = None,
    distinct_limit: int = DISTINCT_LIMIT,
    task: Task = NO_TASK,
) -> ClusterRelease:
    """The verified bucket release of the file at ``path``, computed on ``client``'s cluster.

    ``node_records`` overrides :data:`NODE_RECORDS` (tests use small nodes to exercise the
    distributed levels on small files).
    """
    refuse_unsupported(params)
    started = time.perf_counter()
    data = read_input(client, path, params, sep=sep, options=options, task=task.sub(0.0, 0.1))
    planned = plan_on_cluster(
        client, data, params, distinct_limit=distinct_limit, task=task.sub(0.1, 0.2)
    )
    plan = planned.plan
    plan.raise_if_infeasible()  # as one machine: the same message and exit code
    buckets, t = plan.bucket_data, plan.t
    assert buckets is not None and t is not None
    parts = client.map(_make_part, data.frames, list(data.offsets), spec=planned.spec,
                       lookup=planned.lookup)  # fmt: skip
    n = data.n
    target = node_records or NODE_RECORDS
    if params.household is not None:  # whole households on one partition each
        size = _class_size(planned, params.k, t, task.sub(0.2, 0.25))
        return _households_on_cluster(
            client, parts, params, plan, buckets, t, size, data, planned, node_records,
            [*plan.warnings, *planned.warnings], started, task.sub(0.25, 1.0),
        )  # fmt: skip
    recipe = _Recipe(
        whole=n <= target, shares=buckets.counts / buckets.counts.sum(), t=t, k=params.k,
        block_size=DEFAULT_BLOCK_SIZE if n <= LARGE_FILE else DEFAULT_BLOCK_SIZE // 2,
        improve_rounds=default_rounds(n), qi=list(params.qi), keep=list(params.keep),
        columns=data.columns, types=data.types, orders=data.orders, places=planned.spec.places,
        buckets=buckets, qi_output=params.qi_output,
        confidential_output=params.confidential_output, seed=params.seed,
    )  # fmt: skip
    if recipe.whole:
        task.step(0.2, _("Forming classes"))
        done = [client.submit(_release_part, client.submit(_whole, *parts), recipe, None, 0, 0)]
    else:
        done = _release_nodes(client, parts, planned, recipe, target, task.sub(0.2, 0.4))
    del parts
    wait_all(client, done, task=task.sub(0.4, 0.85), message="Forming classes")
    tables = client.map(_getitem, done, i=0)
    stats = client.map(_getitem, done, i=1)
    between = _merged_between(client, stats, list(params.qi))
    part_stats = gather(client, client.map(_without_keys, stats))
    del done, stats
    task.step(0.85, _("Verifying the release"))
    verification = verify_parts(
        client, tables, params.qi, params.confidential, t=t, k=params.k,
        task=task.sub(0.85, 1.0),
    )  # fmt: skip
    verification.raise_if_failed()
    warnings = [*plan.warnings, *planned.warnings]
    summary = replace(
        _summary(params, plan, verification, buckets, part_stats, between, data.types, warnings),
        backend={"name": "dask", "workers": n_workers(client), "partitions": len(tables)},
        n_left_out=data.n_left_out,
        seconds=round(time.perf_counter() - started, 3),
    )
    task.step(1.0, _("Done"))
    return ClusterRelease(tables, data.columns, summary, verification, warnings, plan)


def _class_size(planned: ClusterPlan, k: int, t: float, task: Task) -> int:
    """The class size, chosen on one machine's sample (fetched with the plan)."""
    task.step(0.0, _("Choosing the class size"))
    buckets = planned.plan.bucket_data
    assert buckets is not None
    counts_b = buckets.counts
    size = k
    if len(size_candidates(counts_b, k, t)) > 1:
        at = planned.at(size_sample(planned.plan.n_records))
        codes = planned.lookup(planned.sample.iloc[at]) if planned.lookup else None
        assert codes is not None
        size, _loss = choose_class_size(planned.X[at], codes, counts_b, k, t, task=task.silent())
    return size


def _release_nodes(
    client: Any,
    parts: list[Any],
    planned: ClusterPlan,
    recipe: _Recipe,
    target: int,
    task: Task,
) -> list[Any]:
    """A file larger than a node: the class size, the distributed levels of the split, one
    shuffle of whole nodes, then every partition's classes and release (futures)."""
    plan = planned.plan
    buckets, t, k = plan.bucket_data, recipe.t, recipe.k
    assert buckets is not None
    counts_b = buckets.counts
    size = _class_size(planned, k, t, task)
    n_classes = check_feasible(counts_b, t, size, recipe.shares)
    per_class = layout_counts(counts_b, n_classes)
    size_cum = np.r_[0, np.cumsum(per_class.sum(axis=1))]
    levels, nodes = node_plan(size_cum, n_classes, target)
    parts = client.map(_set_root, parts, n_classes=n_classes)
    n_b = len(counts_b)
    cum = np.zeros((n_classes + 1, n_b), dtype=np.int64)
    cum[1:] = np.cumsum(per_class, axis=0)
    for li, (names_l, ends_l) in enumerate(levels):
        task.step(0.1 + 0.8 * li / max(len(levels), 1), _("Splitting on the cluster"))
        sums = gather(client, client.map(level_sums, parts, names=names_l), task=task.silent())
        cnt = sum(s[0] for s in sums)
        s1 = sum(s[1] for s in sums)
        s2 = sum(s[2] for s in sums)
        mins = np.min([s[3] for s in sums], axis=0)
        maxs = np.max([s[4] for s in sums], axis=0)
        dims = widest_dimension(spreads_from_sums(cnt, s1, s2))
        at_l = np.arange(len(names_l))
        level = Level(names_l, dims, mins[at_l, dims], maxs[at_l, dims])
        mid = (names_l + ends_l) // 2
        lower = (cum[mid] - cum[names_l]).ravel()  # per (node, bucket)
        hist = gather(client, client.map(level_histogram, parts, level=level, n_b=n_b),
                      task=task.silent())  # fmt: skip
        choose_split(level, hist, lower, n_b)
        vals = gather(client, client.map(level_values, parts, level=level, n_b=n_b),
                      task=task.silent())  # fmt: skip
        per_part = choose_values(level, vals)
        parts = client.map(level_apply, parts, per_part, n_b=n_b)
    # one shuffle: whole nodes into partitions
    task.step(0.9, _("Moving nodes to partitions"))
    starts = pack_nodes(nodes, size_cum, target)
    cut = client.map(pieces, parts, starts=starts)
    out = [
        client.submit(gather_pieces, *[client.submit(_getitem, c, j) for c in cut])
        for j in range(len(starts))
    ]
    del parts, cut
    recipe = replace(recipe, k=size)
    bounds = np.r_[starts, n_classes]
    shared = client.scatter(recipe, broadcast=True)
    return [
        client.submit(
            _release_part, out[j], shared, per_class[bounds[j] : bounds[j + 1]], int(bounds[j]), j
        )
        for j in range(len(out))
    ]


def _households_on_cluster(
    client, parts, params, plan, buckets, t, size, data, planned, node_records, warnings,
    started, task,
) -> ClusterRelease:  # fmt: skip
    """The household route (:mod:`engine.distributed.households`), summarised as here."""
    from engine.distributed.households import release_households_on_cluster

    survey = [params.household] if params.released_household() else []
    if params.released_weight():
        survey.append(params.weight)
    columns = [*data.columns, *(c for c in survey if c not in data.columns)]
    workers = max(n_workers(client), 1)

    def summarise(verification: Verification, part_stats: list[dict]) -> RunSummary:
        # the QI loss is the household route's own (replaced by the caller): no between-sum
        return _summary(params, plan, verification, buckets, part_stats, 0.0, data.types, warnings)

    tables, verification, summary = release_households_on_cluster(
        client, parts, params=params, buckets=buckets, t=t, size=size, types=data.types,
        orders=data.orders, places=planned.spec.places, columns=columns, n=data.n,
        workers=workers, node_records=node_records or NODE_RECORDS, summarise=summarise,
        confidential_sums=_confidential_sums, task=task,
    )  # fmt: skip
    summary = replace(
        summary,
        backend={"name": "dask", "workers": workers, "partitions": len(tables)},
        n_left_out=data.n_left_out,
        seconds=round(time.perf_counter() - started, 3),
    )
    return ClusterRelease(tables, columns, summary, verification, list(summary.warnings), plan)


def _summary(
    params: ReleaseParams,
    plan: Plan,
    verification: Verification,
    buckets: Buckets,
    part_stats: list[dict],
    between: float,
    types: dict,
    warnings: list[str],
) -> RunSummary:
    """The :class:`RunSummary` one machine gives, from the partitions' sums (``between``:
    Σ |Σx|² / size over the released file's classes, :func:`_merged_between`)."""
    sq = sum(s["sq"] for s in part_stats)
    total = sum(s["total"] for s in part_stats)
    n = plan.n_records
    sst = sq - float((total * total).sum()) / n if n else 0.0
    qi_loss = max(sq - between, 0.0) / sst if sst > 0 else 0.0
    conf_columns: dict[str, dict[str, float]] = {}
    for col in buckets.columns:
        parts = [s["confidential"][col] for s in part_stats if col in s.get("confidential", {})]
        if not parts:
            continue
        m, sx, sxx, sy, syy, sxy = sum(parts)
        if m == 0:
            continue
        vx, vy = sxx / m - (sx / m) ** 2, syy / m - (sy / m) ** 2
        sse_c = sxx - 2 * sxy + syy
        sst_c = sxx - sx * sx / m
        cov = sxy / m - sx * sy / m / m
        conf_columns[col] = {
            "sse_sst": float(sse_c / sst_c) if sst_c > 0 else 0.0,
            "mean_original": float(sx / m),
            "mean_released": float(sy / m),
            "variance_original": float(vx),
            "variance_released": float(vy),
            "correlation": float(cov / math.sqrt(vx * vy)) if vx > 0 and vy > 0 else 1.0,
        }
    conf_loss = (
        float(np.mean([c["sse_sst"] for c in conf_columns.values()])) if conf_columns else None
    )
    return summarise_buckets(
        params,
        verification,
        t=plan.t,
        n_records=plan.n_records,
        column_types=types,
        buckets=buckets,
        n_partition_classes=int(sum(s["classes"] for s in part_stats)),
        information_loss=InformationLoss(
            qi_sse_sst=qi_loss,
            confidential_sse_sst=conf_loss,
            confidential_columns=conf_columns,
        ),
        warnings=warnings,
        missing_qi=_missing_qi(part_stats, params.qi),
    )


def _missing_qi(part_stats: list[dict], qi: Sequence[str]) -> dict[str, MissingCount]:
    """Per QI with missing values: the partitions' counts added up."""
    out = {}
    for col in qi:
        before = sum(s["missing_qi"][col][0] for s in part_stats)
        after = sum(s["missing_qi"][col][1] for s in part_stats)
        if before or after:
            out[col] = MissingCount(before, after, after - before)
    return out
