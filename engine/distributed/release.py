"""One release computed on a Dask cluster: one machine's stages, partition by partition.

The stages are :mod:`engine.release`'s, in its order (read → prepare → plan → partition →
release tail → verify → write), with its messages and output choices; what only a cluster
does is here and in the modules beside it: lay the file out in partitions, gather what a
stage needs of them, and add up what the stages found in each.

1. **Read** (:mod:`engine.distributed.reading`): partitions are read where they lie (Parquet
   row groups, CSV blocks) by one machine's readers; the columns the parameters name are
   checked on the file's names (:func:`engine.release.check_columns`).
2. **A file one worker holds** (at most :data:`NODE_RECORDS` records) is gathered on one
   worker, which runs one machine's pipeline on it (:func:`engine.release.plan`, then
   :func:`engine.release.anonymize`): the same checks, plan, classes, release table,
   independent check and summary, so the same release, byte for byte with a seed.
3. **A larger file** runs the stages partition by partition (:func:`_release_by_parts`):
   every partition is cleaned and checked by one machine's functions
   (:func:`engine.release.clean_columns`, :func:`engine.release.check_numbers`; the count by
   :func:`engine.release.check_records`); the plan is one machine's
   (:func:`engine.release.plan_data`) on the partitions' counts and fixed samples of records
   (:mod:`engine.distributed.plan`); the top levels of the stratified k-d split run as
   aggregation passes (:mod:`engine.distributed.split`) until every node fits a worker, one
   shuffle puts whole nodes in partitions, and each partition forms its classes with one
   machine's split and capped MDAV and builds its part of the release with one machine's
   :func:`engine.release.build_release` (class numbers are the layout's, so classes never
   cross partitions and each node is feasible by construction).  Which records form a node
   depends on the data, the layout and :data:`NODE_RECORDS` only, never on how many workers
   are alive, so a run that lost a worker gives the same release.
4. The independent check (:mod:`engine.distributed.verify`) reads only the released parts;
   the summary is one machine's (:func:`engine.release.summarise_buckets`) on the partitions'
   sums added up.

Every task that can refuse the input runs in the user's language (:func:`speaking`).
Futures carry progress and cancellation; a worker lost mid-run is recomputed by Dask from
the file, and a task that keeps killing workers ends the run with a clear message.
"""

from __future__ import annotations

import operator
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from engine.distributed.buckets import DISTINCT_LIMIT
from engine.distributed.cluster import gather, n_workers, speaking, wait_all
from engine.distributed.encode import encode_part
from engine.distributed.plan import ClusterPlan, plan_on_cluster
from engine.distributed.prepare import ClusterInput, RawInput, prepare_parts, read_raw
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
from engine.io import ReadOptions
from engine.mechanisms import MECHANISMS
from engine.params import ReleaseParams
from engine.progress import NO_TASK, Task
from engine.release import (
    Buckets,
    InformationLoss,
    MissingCount,
    Plan,
    QiSums,
    RunSummary,
    Verification,
    anonymize,
    block_size,
    build_release,
    check_feasible,
    choose_class_size,
    form_classes,
    group_ids,
    layout_counts,
    missing_counts,
    plan,
    refine_classes,
    refine_passes,
    size_sample,
    split_nodes,
    split_spreads,
    spreads_from_sums,
    summarise_buckets,
    widest_dimension,
)

#: records a worker releases whole: a file up to this size is released by one machine's
#: pipeline on one worker, and the distributed levels of a larger one stop at nodes of at
#: most this many records (fixed, so that the layout never depends on how many workers are
#: alive)
NODE_RECORDS = 1_000_000
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
                "Recoding before the grouping (hierarchies, bands, top and bottom codes) and "
                "the 'common' output are computed on this computer only; run without --cluster."
            )
        )


def _getitem(value: Any, i: int) -> Any:
    return operator.getitem(value, i)


# ---------------------------------------------------------------------- a file one worker holds


def _whole(*frames: pd.DataFrame) -> pd.DataFrame:
    """The partitions of a file as one table (file order)."""
    if len(frames) == 1:
        return frames[0].reset_index(drop=True)
    return pd.concat(frames, ignore_index=True)


def _one_machine(
    data: pd.DataFrame, params: ReleaseParams, *, release: bool = True
) -> tuple[pd.DataFrame | None, dict[str, Any]]:
    """One machine's pipeline on a whole file (a task, on the worker that holds it): its plan
    and, when ``release`` and the plan is feasible, its verified release table with the
    summary, verification and warnings."""
    planned = plan(data, params)
    facts: dict[str, Any] = {"plan": planned}
    if not release or not planned.feasibility.ok:
        return None, facts
    made = anonymize(data, params, plan=planned)
    facts.update(summary=made.summary, verification=made.verification,
                 warnings=list(made.warnings), columns=list(made.table.columns))  # fmt: skip
    return made.table, facts


def _on_one_worker(
    client: Any, raw: RawInput, params: ReleaseParams, *, release: bool, task: Task
) -> tuple[Any, dict[str, Any]]:
    """(the future of the release table, its facts) of :func:`_one_machine` on ``raw``."""
    data = client.submit(_whole, *raw.frames)
    done = client.submit(speaking(_one_machine), data, params, release=release)
    del data
    wait_all(client, [done], task=task, message="Forming classes")
    facts = client.submit(_getitem, done, 1).result()
    if release:
        facts["plan"].raise_if_infeasible()  # as one machine: the same message and exit code
    return client.submit(_getitem, done, 0), facts


def _release_whole(
    client: Any, raw: RawInput, params: ReleaseParams, started: float, task: Task
) -> ClusterRelease:
    table, facts = _on_one_worker(client, raw, params, release=True, task=task)
    summary = replace(
        facts["summary"],
        backend={"name": "dask", "workers": n_workers(client), "partitions": 1},
        seconds=round(time.perf_counter() - started, 3),
    )
    task.step(1.0, _("Done"))
    return ClusterRelease([table], facts["columns"], summary, facts["verification"],
                          facts["warnings"], facts["plan"])  # fmt: skip


# ----------------------------------------------------------------------------- the run


def plan_of_file(
    client: Any,
    path: str | Path,
    params: ReleaseParams,
    *,
    options: ReadOptions | str | None = None,
    node_records: int | None = None,
    task: Task = NO_TASK,
) -> Plan:
    """The plan a cluster run of the file at ``path`` makes (``tclose plan --cluster``)."""
    refuse_unsupported(params)
    raw = read_raw(client, path, params, options=options, task=task.sub(0.0, 0.1))
    if raw.n <= (node_records or NODE_RECORDS):
        return _on_one_worker(client, raw, params, release=False, task=task.sub(0.1, 1.0))[1][
            "plan"
        ]
    data = prepare_parts(client, raw, params, task=task.sub(0.1, 0.3))
    return plan_on_cluster(client, data, params, task=task.sub(0.3, 1.0)).plan


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
    distributed stages on small files).
    """
    refuse_unsupported(params)
    started = time.perf_counter()
    raw = read_raw(client, path, params, options=options or sep, task=task.sub(0.0, 0.05))
    target = node_records or NODE_RECORDS
    if raw.n <= target:
        return _release_whole(client, raw, params, started, task.sub(0.05, 1.0))
    data = prepare_parts(client, raw, params, task=task.sub(0.05, 0.1))
    del raw
    planned = plan_on_cluster(
        client, data, params, distinct_limit=distinct_limit, task=task.sub(0.1, 0.2)
    )
    planned.plan.raise_if_infeasible()  # as one machine: the same message and exit code
    return _release_by_parts(client, data, planned, params, target, started, task)


# ----------------------------------------------------------------------------- a larger file


@dataclass
class _Recipe:
    """Everything a partition needs to form its classes and release its records."""

    shares: np.ndarray
    t: float
    k: int
    block_size: int
    #: the refinement's budget, in passes over a partition's records: one machine's for this
    #: file on the block route (refine_passes; set with the class size)
    passes: float
    qi: list[str]
    keep: list[str]
    types: dict
    orders: dict
    places: dict
    buckets: Buckets
    qi_output: str
    confidential_output: str
    seed: int | None
    #: a nominal QI splits as one coordinate (the choice of the class-size trials)
    nominal: bool = False


def _make_part(frame: pd.DataFrame, offset: int, spec: Any, lookup: Any) -> Part:
    X = encode_part(frame, spec)
    n = len(frame)
    codes = lookup(frame) if lookup is not None else np.zeros(n, dtype=np.int64)
    zeros = np.zeros(n, dtype=np.int64)
    return Part(frame, X, codes, zeros, zeros.copy(), offset + np.arange(n, dtype=np.int64))


def _set_root(part: Part, n_classes: int) -> Part:
    return replace(part, lo=np.zeros(len(part.row), np.int64), hi=np.full(len(part.row), n_classes))


def _classes(part: Part, r: _Recipe, per_class: np.ndarray, first: int) -> np.ndarray:
    """The classes of a partition: one machine's split and capped MDAV on its nodes."""
    X, codes = part.X, part.codes
    start = (part.lo - first, part.hi - first)
    node, end = split_nodes(
        X, codes, per_class, max_records=r.block_size, start=start, nominal=r.nominal
    )
    labels = form_classes(X, codes, node, end, per_class, r.shares, r.t, r.k, workers=1)
    # refined as one machine refines the file's classes, within the partition
    return refine_classes(X, labels, codes, t=r.t, k=r.k, shares=r.shares, passes=r.passes)


def _release_part(
    part: Part, recipe: _Recipe, per_class: np.ndarray, first: int, index: int
) -> tuple[pd.DataFrame, dict]:
    """Classes of one partition, its part of the release (one machine's
    :func:`~engine.release.build_release`), and the sums its summary needs.

    ``per_class`` is the layout of this partition's classes only, from class ``first`` on (the
    whole layout of 10⁸ records would be megabytes in every task).
    """
    r = recipe
    labels = _classes(part, r, per_class, first)
    _kept, labels = np.unique(labels, return_inverse=True)
    labels = labels.astype(np.int64)
    rng = np.random.default_rng(None if r.seed is None else [r.seed, index])
    table, order = build_release(
        part.frame, qi=r.qi, keep=r.keep, types=r.types, orders=r.orders, classes=labels,
        buckets=replace(r.buckets, codes=part.codes), qi_output=r.qi_output,
        confidential_output=r.confidential_output, rng=rng, places=r.places,
    )  # fmt: skip
    # the QI loss of the released file: classes whose released values coincide merge (here,
    # and across partitions by their released values: _merged_between)
    released = group_ids(table, r.qi)
    groups = np.empty_like(released)
    groups[order] = released
    sums = QiSums.of(part.X, groups)
    keyed = table[r.qi].astype("string").fillna(_NA)
    keyed = keyed.iloc[np.unique(released, return_index=True)[1]].reset_index(drop=True)
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
        "missing_qi": missing_counts(part.frame, table, r.qi),
    }
    return table, stats


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


def _release_by_parts(
    client: Any,
    data: ClusterInput,
    planned: ClusterPlan,
    params: ReleaseParams,
    target: int,
    started: float,
    task: Task,
) -> ClusterRelease:
    """The release of a file larger than a node (module doc, step 3)."""
    plan = planned.plan
    buckets, t = plan.bucket_data, plan.t
    assert buckets is not None and t is not None
    parts = client.map(_make_part, data.frames, list(data.offsets), spec=planned.spec,
                       lookup=planned.lookup)  # fmt: skip
    if params.household is not None:  # whole households on one partition each
        size, _nominal = _class_size(planned, params.k, t, task.sub(0.2, 0.25))
        return _households_on_cluster(
            client, parts, params, plan, buckets, t, size, data, planned, target,
            started, task.sub(0.25, 1.0),
        )  # fmt: skip
    recipe = _Recipe(
        shares=buckets.counts / buckets.counts.sum(), t=t, k=params.k,
        block_size=block_size(data.n), passes=0.0,
        qi=list(params.qi), keep=list(params.keep), types=data.types, orders=data.orders,
        places=planned.spec.places, buckets=buckets, qi_output=params.qi_output,
        confidential_output=params.confidential_output, seed=params.seed,
    )  # fmt: skip
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
    summary = replace(
        _summary(params, planned, verification, part_stats, between, data.types),
        backend={"name": "dask", "workers": n_workers(client), "partitions": len(tables)},
        n_left_out=data.n_left_out,
        seconds=round(time.perf_counter() - started, 3),
    )
    task.step(1.0, _("Done"))
    columns = [c for c in data.columns if c in (*params.qi, *params.confidential, *params.keep)]
    return ClusterRelease(tables, columns, summary, verification, list(plan.warnings), plan)


def _class_size(planned: ClusterPlan, k: int, t: float, task: Task) -> tuple[int, bool]:
    """The class size, and whether a nominal QI splits as one coordinate, chosen on one
    machine's sample (fetched with the plan) as one machine chooses them for a file on the
    block route."""
    task.step(0.0, _("Choosing the class size"))
    buckets = planned.plan.bucket_data
    assert buckets is not None
    counts_b = buckets.counts
    at = planned.at(size_sample(planned.plan.n_records))
    codes = planned.lookup(planned.sample.iloc[at]) if planned.lookup else None
    assert codes is not None
    size, _labels, nominal = choose_class_size(
        planned.X[at], codes, counts_b, k, t, blocks=True, task=task.silent()
    )
    return size, nominal


def _release_nodes(
    client: Any,
    parts: list[Any],
    planned: ClusterPlan,
    recipe: _Recipe,
    target: int,
    task: Task,
) -> list[Any]:
    """The class size, the distributed levels of the split, one shuffle of whole nodes, then
    every partition's classes and release (futures)."""
    plan = planned.plan
    buckets, t, k = plan.bucket_data, recipe.t, recipe.k
    assert buckets is not None
    counts_b = buckets.counts
    size, nominal = _class_size(planned, k, t, task)
    n_classes = check_feasible(counts_b, t, size, recipe.shares)
    per_class = layout_counts(counts_b, n_classes)
    size_cum = np.r_[0, np.cumsum(per_class.sum(axis=1))]
    levels, nodes = node_plan(size_cum, n_classes, target)
    parts = client.map(_set_root, parts, n_classes=n_classes)
    n_b = len(counts_b)
    cum = np.zeros((n_classes + 1, n_b), dtype=np.int64)
    cum[1:] = np.cumsum(per_class, axis=0)
    # a nominal QI splits as one coordinate when the sample chose it, as on one machine
    runs = planned.spec.runs() if nominal else ()
    for li, (names_l, ends_l) in enumerate(levels):
        task.step(0.1 + 0.8 * li / max(len(levels), 1), _("Splitting on the cluster"))
        sums = gather(
            client, client.map(level_sums, parts, names=names_l, runs=runs), task=task.silent()
        )
        cnt = sum(s[0] for s in sums)
        s1 = sum(s[1] for s in sums)
        s2 = sum(s[2] for s in sums)
        mins = np.min([s[3] for s in sums], axis=0)
        maxs = np.max([s[4] for s in sums], axis=0)
        dims = widest_dimension(split_spreads(spreads_from_sums(cnt, s1, s2), runs))
        at_l = np.arange(len(names_l))
        level = Level(names_l, dims, mins[at_l, dims], maxs[at_l, dims], runs=runs)
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
    # the refinement's budget, as one machine's for this file (best_partition)
    passes = refine_passes(int(size_cum[-1]), size_cum[-1] / n_classes, block=recipe.block_size)
    recipe = replace(recipe, k=size, nominal=nominal, passes=passes)
    bounds = np.r_[starts, n_classes]
    shared = client.scatter(recipe, broadcast=True)
    return [
        client.submit(
            _release_part, out[j], shared, per_class[bounds[j] : bounds[j + 1]], int(bounds[j]), j
        )
        for j in range(len(out))
    ]


def _households_on_cluster(
    client, parts, params, plan, buckets, t, size, data, planned, node_records, started, task,
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
        return _summary(params, planned, verification, part_stats, 0.0, data.types)

    tables, verification, summary = release_households_on_cluster(
        client, parts, params=params, buckets=buckets, t=t, size=size, types=data.types,
        orders=data.orders, places=planned.spec.places, columns=columns, n=data.n,
        workers=workers, node_records=node_records, summarise=summarise, task=task,
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
    planned: ClusterPlan,
    verification: Verification,
    part_stats: list[dict],
    between: float,
    types: dict,
) -> RunSummary:
    """The :class:`RunSummary` one machine gives, from the partitions' sums (``between``:
    Σ |Σx|² / size over the released file's classes, :func:`_merged_between`) and the
    confidential loss of the plan's values (one machine's measure on the multiset)."""
    plan = planned.plan
    assert plan.bucket_data is not None and planned.values is not None
    sq = sum(s["sq"] for s in part_stats)
    total = sum(s["total"] for s in part_stats)
    n = plan.n_records
    sst = sq - float((total * total).sum()) / n if n else 0.0
    qi_loss = max(sq - between, 0.0) / sst if sst > 0 else 0.0
    conf_loss, conf_columns = planned.values.loss_detail(
        plan.bucket_data, params.confidential_output
    )
    return summarise_buckets(
        params,
        verification,
        t=plan.t,
        n_records=plan.n_records,
        column_types=types,
        buckets=plan.bucket_data,
        n_partition_classes=int(sum(s["classes"] for s in part_stats)),
        information_loss=InformationLoss(
            qi_sse_sst=qi_loss,
            confidential_sse_sst=conf_loss if conf_columns else None,
            confidential_columns=conf_columns,
        ),
        warnings=list(plan.warnings),
        missing_qi=_missing_qi(part_stats, params.qi),
    )


def _missing_qi(part_stats: list[dict], qi: Sequence[str]) -> dict[str, MissingCount]:
    """Per QI with missing values: the partitions' counts added up."""
    out = {}
    for col in qi:
        found = [s["missing_qi"][col] for s in part_stats if col in s.get("missing_qi", {})]
        if found:
            before, after = sum(m.input for m in found), sum(m.released for m in found)
            out[col] = MissingCount(before, after, after - before)
    return out
