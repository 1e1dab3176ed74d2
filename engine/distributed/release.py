"""One release computed on a Dask cluster: the one-machine construction, partition-wise.

The steps follow :func:`engine.release.anonymize.anonymize`:

1. partitions are read where they lie (Parquet row groups, CSV blocks), missing codes applied;
2. one pass gathers what the encoding needs (means, deviations, categories) and the exact
   counts of the confidential values; the buckets are cut from those counts
   (:mod:`engine.distributed.buckets`) and the layout follows from the bucket counts;
3. the class size is chosen on the same fixed sample of records as on one machine;
4. the top levels of the stratified k-d split run as aggregation passes
   (:mod:`engine.distributed.split`) until every node fits a worker; one shuffle puts whole
   nodes in partitions;
5. each partition runs the one-machine split and capped MDAV on its nodes; class numbers are
   the layout's, so classes never cross partitions and each node is feasible by
   construction; it then builds its part of the release and shuffles its rows;
6. the independent check (:mod:`engine.distributed.verify`) reads only the released parts.

Futures carry progress and cancellation; a worker lost mid-run is recomputed by Dask from
the file, and a task that keeps killing workers ends the run with a clear message.
"""

from __future__ import annotations

import math
import operator
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from engine.distributed.buckets import (
    DISTINCT_LIMIT,
    BucketLookup,
    buckets_from_intervals,
    digest,
    digest_scale,
    digest_thresholds,
    interval_counts,
    make_buckets_from_counts,
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
from engine.identifiers import check_quasi_identifiers
from engine.io import apply_missing
from engine.io.parquet import PARQUET_MAGIC, is_parquet
from engine.params import ReleaseParams
from engine.progress import NO_TASK, Task
from engine.release.anonymize import choose_class_size, size_sample
from engine.release.blocks import (
    DEFAULT_BLOCK_SIZE,
    LARGE_FILE,
    default_rounds,
    form_classes,
    improve_within_bounds,
    split_nodes,
    spreads_from_sums,
    widest_dimension,
)
from engine.release.buckets import bucket_count
from engine.release.encode import resolve_columns
from engine.release.feasibility import check_feasible
from engine.release.missing_qi import MissingCount
from engine.release.partition import layout_counts
from engine.release.plan import left_out_warning, seed_warnings
from engine.release.recode import recode_qi, release_confidential
from engine.release.result import Buckets, InformationLoss, RunSummary, Verification
from engine.release.sizes import size_candidates
from engine.release.summary import summarise_buckets

#: records of a node that one worker takes whole (the distributed levels stop below it)
NODE_RECORDS = 1_000_000
#: rows read to infer the column types (give --type for certainty)
TYPE_SAMPLE = 50_000


@dataclass
class ClusterRelease:
    """A verified release whose parts stay on the cluster until they are written."""

    #: futures of the released parts (pandas frames), in order
    parts: list[Any]
    columns: list[str]
    summary: RunSummary
    verification: Verification
    warnings: list[str]


# ----------------------------------------------------------------------------- reading


def read_parts(client: Any, path: str | Path, columns: Sequence[str] | None, sep: str | None):
    """Futures of the file's partitions (pandas frames, file order) and the column names."""
    import dask.dataframe as dd

    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file. Check the name and the folder, then try again.")
    head = b""
    if path.is_file():
        with path.open("rb") as fh:
            head = fh.read(4)
    if is_parquet(path, head) or head.startswith(PARQUET_MAGIC):
        target = str(path)
        frame = dd.read_parquet(target, split_row_groups=True)
    else:
        frame = dd.read_csv(
            str(path), sep=sep or ",", dtype=str, keep_default_na=False, na_values=[""],
            blocksize="64MB",
        )  # fmt: skip
    names = [str(c) for c in frame.columns]
    if columns is not None:
        absent = [c for c in columns if c not in names]
        if absent:
            raise InputError(
                f"No column named {', '.join(map(repr, absent))} in the input "
                f"(it has: {', '.join(names[:12])})."
            )
        frame = frame[list(columns)]
    return client.compute(frame.to_delayed()), names


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


def _stats_part(frame, qi, confidential, types, orders, limit):
    stats = column_stats(frame, qi, types, orders)
    if not confidential:
        return stats, None
    counts = value_counts(frame, confidential, types)
    if len(counts[0]) > limit:
        return stats, "too many"
    return stats, counts


def _make_part(frame: pd.DataFrame, offset: int, spec: Spec, lookup: BucketLookup | None):
    X = encode_part(frame, spec)
    n = len(frame)
    codes = lookup(frame) if lookup is not None else np.zeros(n, dtype=np.int64)
    zeros = np.zeros(n, dtype=np.int64)
    return Part(frame, X, codes, zeros, zeros.copy(), offset + np.arange(n, dtype=np.int64))


def _set_root(part: Part, n_classes: int) -> Part:
    return replace(part, lo=np.zeros(len(part.row), np.int64), hi=np.full(len(part.row), n_classes))


def _take(part: Part, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return part.X[positions], part.codes[positions]


# ----------------------------------------------------------------------------- releasing


@dataclass
class _Recipe:
    """Everything a partition needs to form its classes and release its records."""

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


def _release_part(
    part: Part, recipe: _Recipe, per_class: np.ndarray, first: int, index: int
) -> tuple[pd.DataFrame, dict]:
    """Classes of one partition's nodes, its part of the release, and its loss sums.

    ``per_class`` is the layout of this partition's classes only, from class ``first`` on (the
    whole layout of 10⁸ records would be megabytes in every task).
    """
    r = recipe
    X, codes = part.X, part.codes
    start = (part.lo - first, part.hi - first)
    node, end = split_nodes(X, codes, per_class, max_records=r.block_size, start=start)
    labels = form_classes(X, codes, node, end, per_class, r.shares, r.t, r.k, workers=1)
    if r.improve_rounds:
        labels = improve_within_bounds(
            X, labels, codes, r.shares, r.t, r.k, r.improve_rounds, NO_TASK
        )
    _, labels = np.unique(labels, return_inverse=True)
    labels = labels.astype(np.int64)
    frame = part.frame
    pieces_ = [recode_qi(frame, r.qi, r.types, r.orders, labels, r.qi_output, r.places)]
    if r.buckets is not None:
        pieces_.append(release_confidential(replace(r.buckets, codes=codes), r.confidential_output))
    if r.keep:
        pieces_.append(frame[r.keep].reset_index(drop=True))
    table = pd.concat(pieces_, axis=1)
    table = table[[c for c in r.columns if c in table.columns]]
    rng = np.random.default_rng(None if r.seed is None else [r.seed, index])
    table = table.iloc[rng.permutation(len(table))].reset_index(drop=True)
    # QI loss sums: SSE within classes, Σx and Σ|x|² for the total SST
    m = int(labels.max()) + 1 if len(labels) else 0
    sizes = np.bincount(labels, minlength=m)
    sums = np.stack(
        [np.bincount(labels, weights=X[:, j], minlength=m) for j in range(X.shape[1])], 1
    )
    sq = float((X * X).sum())
    sse = sq - float(((sums * sums).sum(axis=1) / np.maximum(sizes, 1)).sum())
    stats = {"n": len(labels), "sse": sse, "sq": sq, "sum": X.sum(axis=0), "classes": m}
    # missing QI values in the input and released empty (classes that mix them withhold)
    stats["missing_qi"] = {
        c: (int(frame[c].isna().sum()), int(table[c].isna().sum())) for c in r.qi
    }
    if r.buckets is not None:
        stats["confidential"] = _confidential_sums(
            frame, r.buckets, codes, r.types, r.confidential_output
        )
    return table, stats


def _confidential_sums(
    frame, buckets: Buckets, codes, types, output: str = "mean"
) -> dict[str, np.ndarray]:
    """Per numeric confidential column: n, Σx, Σx², Σy, Σy², Σxy of value x and released y
    (the bucket values ``output`` releases; a label release is measured at the medians)."""
    from engine.release.encode import numeric_values
    from engine.roles import ColumnType

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


# ----------------------------------------------------------------------------- the run


def anonymize_on_cluster(
    client: Any,
    path: str | Path,
    params: ReleaseParams,
    *,
    sep: str | None = None,
    node_records: int | None = None,
    distinct_limit: int = DISTINCT_LIMIT,
    task: Task = NO_TASK,
) -> ClusterRelease:
    """The verified bucket release of the file at ``path``, computed on ``client``'s cluster."""
    if params.mechanism != "buckets":
        raise InputError(
            "Only the bucket mechanism runs on a cluster; compute noise releases on this "
            "computer (without --cluster)."
        )
    started = time.perf_counter()
    qi, confidential, keep = list(params.qi), list(params.confidential), list(params.keep)
    task.step(0.0, "Reading the partitions")
    raw, names = read_parts(client, path, None, sep)
    named = [*qi, *confidential, *params.identifiers, *keep]
    named += [c for c in (params.household, params.weight) if c is not None]
    absent = [c for c in named if c not in names]
    if absent:
        raise InputError(
            f"No column named {', '.join(map(repr, absent))} in the input "
            f"(it has: {', '.join(names[:12])})."
        )
    columns = [c for c in names if c in (*qi, *confidential, *keep)]
    frames = client.map(_prepare_part, raw, params=params)
    lengths = gather(client, client.map(len, frames), task=task.sub(0.0, 0.1),
                     message="Reading the partitions")  # fmt: skip
    n_left_out = 0
    if params.missing_confidential == "drop" and confidential:
        n_left_out = int(sum(gather(client, client.map(len, raw)))) - int(sum(lengths))
    del raw
    n = int(sum(lengths))
    if n == 0 and n_left_out:
        raise InputError(
            "Every record has a missing confidential value: leaving them out "
            "(missing_confidential 'drop') leaves nothing to release."
        )
    if n == 0:
        raise InputError("The input has no records.")
    if params.k > n:
        raise InputError(f"k = {params.k} needs at least {params.k} records; the input has {n}.")
    offsets = np.r_[0, np.cumsum(lengths)[:-1]].astype(np.int64)
    head = client.submit(lambda f: f.head(TYPE_SAMPLE), frames[0]).result()
    types, orders = resolve_columns(head, [*qi, *confidential], params.types, params.orders)
    check_quasi_identifiers(head, qi, types)  # as on one machine, on the first partition's rows
    # one pass: encoding statistics and confidential value counts
    task.step(0.1, "Counting values")
    stats = gather(
        client, client.map(_stats_part, frames, qi=qi, confidential=confidential, types=types,
                           orders=orders, limit=distinct_limit),
        task=task.sub(0.1, 0.15), message="Counting values",
    )  # fmt: skip
    col_stats = [s[0] for s in stats]
    ordinal_qi = [c for c in qi if types[c].value == "ordinal"]
    ordinal_moments = {}
    for col in ordinal_qi:
        order = ordinal_order(col_stats, col, orders.get(col))
        orders[col] = tuple(order)
        parts_m = gather(client, client.map(ordinal_rank_moments, frames, col=col, order=order))
        m = parts_m[0]
        for other in parts_m[1:]:
            m = m.merge(other)
        ordinal_moments[col] = m
    spec = make_spec(col_stats, qi, types, orders, ordinal_moments)
    t = params.bucket_t
    buckets, lookup = None, None
    warnings: list[str] = [left_out_warning(n_left_out, n, params)] if n_left_out else []
    if not confidential:
        raise InputError("Name the confidential column(s): a cluster computes t-close releases.")
    assert t is not None
    wanted_b = bucket_count(t, params.k, params.n_buckets)
    if params.n_buckets is None:  # the search of b (engine.release.bucket_search) is local
        warnings.append(
            f"On a cluster b is not searched: the paper's b = {wanted_b} (t + 1, at most k) is "
            "used. Give --buckets to choose another (tclose plan on a sample shows the "
            "trade-off)."
        )
    if any(isinstance(s[1], str) for s in stats):
        if len(confidential) > 1 or types[confidential[0]].value not in ("numeric", "date"):
            raise InputError(
                "The confidential values have too many distinct values to count on a "
                "cluster; use one numeric confidential column or fewer distinct values."
            )
        col, ctype = confidential[0], types[confidential[0]]
        digests = gather(client, client.map(digest, frames, col=col, ctype=ctype))
        scale, sample = digest_scale(digests, ctype, params.bounds.get(col), wanted_b)
        thresholds = digest_thresholds(scale, sample)
        counted = gather(client, client.map(interval_counts, frames, col=col, ctype=ctype,
                                            thresholds=thresholds))  # fmt: skip
        buckets, lookup = buckets_from_intervals(
            counted, scale, sample, thresholds, col, ctype, wanted_b
        )
        if params.confidential_output == "mean":
            warnings.append(
                f"{col!r} has too many distinct values for exact bucket means on a cluster: "
                "the bucket medians (estimated from a t-digest) are released instead."
            )
    else:
        counts, n_missing = merge_counts([s[1] for s in stats])
        buckets, lookup = make_buckets_from_counts(
            counts, n_missing, confidential, types, wanted_b, joint=params.joint,
            orders=orders, bounds=params.bounds,
        )  # fmt: skip
    got_b = len(buckets.counts) - (buckets.missing_bucket is not None)
    if params.n_buckets is not None and got_b < wanted_b:
        warnings.append(
            f"Only {got_b} buckets could be formed (asked for {wanted_b}): the confidential "
            "data has too few distinct values."
        )
    del stats
    parts = client.map(_make_part, frames, list(offsets), spec=spec, lookup=lookup)
    del frames
    counts_b = buckets.counts
    shares = counts_b / counts_b.sum()
    # the class size, chosen on the one-machine sample
    task.step(0.15, "Choosing the class size")
    size = params.k
    if len(size_candidates(counts_b, params.k, t)) > 1:
        sample = size_sample(n)
        which = np.searchsorted(offsets, sample, side="right") - 1
        taken = gather(client, [
            client.submit(_take, parts[p], sample[which == p] - offsets[p])
            for p in np.unique(which)
        ])  # fmt: skip
        Xs = np.concatenate([x for x, _ in taken])
        cs = np.concatenate([c for _, c in taken])
        size, _ = choose_class_size(Xs, cs, counts_b, params.k, t, task=task.silent())
    if params.household is not None:  # whole households on one partition each
        return _households_on_cluster(
            client, parts, params, buckets, t, size, types, orders, spec.places, names, n,
            n_left_out, warnings, node_records, started, task.sub(0.2, 1.0),
        )  # fmt: skip
    n_classes = check_feasible(counts_b, t, size, shares)
    per_class = layout_counts(counts_b, n_classes)
    size_cum = np.r_[0, np.cumsum(per_class.sum(axis=1))]
    # the distributed levels of the split
    workers = max(n_workers(client), 1)
    target = node_records or max(4 * DEFAULT_BLOCK_SIZE, min(NODE_RECORDS, -(-n // (2 * workers))))
    levels, nodes = node_plan(size_cum, n_classes, target)
    parts = client.map(_set_root, parts, n_classes=n_classes)
    n_b = len(counts_b)
    cum = np.zeros((n_classes + 1, n_b), dtype=np.int64)
    cum[1:] = np.cumsum(per_class, axis=0)
    for li, (names_l, ends_l) in enumerate(levels):
        task.step(0.2 + 0.2 * li / max(len(levels), 1), "Splitting on the cluster")
        sums = gather(client, client.map(level_sums, parts, names=names_l), task=task.silent())
        cnt = sum(s[0] for s in sums)
        s1 = sum(s[1] for s in sums)
        s2 = sum(s[2] for s in sums)
        mins = np.min([s[3] for s in sums], axis=0)
        maxs = np.max([s[4] for s in sums], axis=0)
        dims = widest_dimension(spreads_from_sums(cnt, s1, s2))
        at = np.arange(len(names_l))
        level = Level(names_l, dims, mins[at, dims], maxs[at, dims])
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
    task.step(0.4, "Moving nodes to partitions")
    starts = pack_nodes(nodes, size_cum, target)
    cut = client.map(pieces, parts, starts=starts)
    out = [
        client.submit(gather_pieces, *[client.submit(_getitem, c, j) for c in cut])
        for j in range(len(starts))
    ]
    del parts, cut
    recipe = _Recipe(
        shares=shares, t=t, k=size,
        block_size=DEFAULT_BLOCK_SIZE if n <= LARGE_FILE else DEFAULT_BLOCK_SIZE // 2,
        improve_rounds=default_rounds(n), qi=qi, keep=keep, columns=columns, types=types,
        orders=orders, places=spec.places, buckets=buckets, qi_output=params.qi_output,
        confidential_output=params.confidential_output, seed=params.seed,
    )  # fmt: skip
    bounds = np.r_[starts, n_classes]
    recipe = client.scatter(recipe, broadcast=True)
    done = [
        client.submit(
            _release_part, out[j], recipe, per_class[bounds[j] : bounds[j + 1]], int(bounds[j]), j
        )
        for j in range(len(out))
    ]
    del out
    wait_all(client, done, task=task.sub(0.4, 0.85), message="Forming classes")
    tables = client.map(_getitem, done, i=0)
    part_stats = gather(client, client.map(_getitem, done, i=1))
    del done
    task.step(0.85, "Verifying the release")
    verification = verify_parts(
        client, tables, qi, confidential, t=t, k=params.k, task=task.sub(0.85, 1.0),
    )  # fmt: skip
    verification.raise_if_failed()
    summary = replace(
        _summary(params, verification, buckets, part_stats, types, n, warnings),
        backend={"name": "dask", "workers": workers, "partitions": len(tables)},
        n_left_out=n_left_out,
        seconds=round(time.perf_counter() - started, 3),
    )
    task.step(1.0, "Done")
    return ClusterRelease(tables, columns, summary, verification, warnings)


def _households_on_cluster(
    client, parts, params, buckets, t, size, types, orders, places, names, n, n_left_out,
    warnings, node_records, started, task,
) -> ClusterRelease:  # fmt: skip
    """The household route (:mod:`engine.distributed.households`), summarised as here."""
    from engine.distributed.households import release_households_on_cluster

    survey = {params.household: params.household_output == "recode"}
    if params.weight is not None:
        survey[params.weight] = params.weight_output == "keep"
    kept = (*params.qi, *params.confidential, *params.keep)
    columns = [c for c in names if c in kept or survey.get(c)]
    workers = max(n_workers(client), 1)

    def summarise(verification: Verification, part_stats: list[dict]) -> RunSummary:
        return _summary(params, verification, buckets, part_stats, types, n, warnings)

    tables, verification, summary = release_households_on_cluster(
        client, parts, params=params, buckets=buckets, t=t, size=size, types=types,
        orders=orders, places=places, columns=columns, n=n, workers=workers,
        node_records=node_records or NODE_RECORDS, summarise=summarise,
        confidential_sums=_confidential_sums, task=task,
    )  # fmt: skip
    summary = replace(
        summary,
        backend={"name": "dask", "workers": workers, "partitions": len(tables)},
        n_left_out=n_left_out,
        seconds=round(time.perf_counter() - started, 3),
    )
    return ClusterRelease(tables, columns, summary, verification, list(summary.warnings))


def _summary(
    params: ReleaseParams,
    verification: Verification,
    buckets: Buckets,
    part_stats: list[dict],
    types: dict,
    n: int,
    warnings: list[str],
) -> RunSummary:
    """The :class:`RunSummary` one machine gives, from the partitions' sums."""
    t = params.bucket_t
    sse = sum(s["sse"] for s in part_stats)
    total = sum(s["sum"] for s in part_stats)
    sst = sum(s["sq"] for s in part_stats) - float((total * total).sum()) / n
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
        t=t,
        n_records=n,
        column_types=types,
        buckets=buckets,
        n_partition_classes=int(sum(s["classes"] for s in part_stats)),
        information_loss=InformationLoss(
            qi_sse_sst=sse / sst if sst > 0 else 0.0,
            confidential_sse_sst=conf_loss,
            confidential_columns=conf_columns,
        ),
        warnings=[*warnings, *seed_warnings(params)],
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
