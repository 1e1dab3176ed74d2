"""A survey file on a Dask cluster: whole households on one partition, the one-machine route there.

With a household column the top levels of the k-d split (:mod:`engine.distributed.split`)
cannot be used as they are: they send records, not households, to partitions, and a class
must count households and keep a household's household-level values together.  So, once the
buckets are cut from the whole file's counts and the class size is chosen
(:func:`engine.distributed.release.anonymize_on_cluster`), the records move once:

1. every household goes whole to one partition, chosen by a keyed hash of its id (a salt
   drawn per run, or from the seed), so that every partition is a random sample of whole
   households and its bucket mix is the file's up to sampling noise;
2. every partition reports which QIs are constant within each of its households; a QI is
   household-level when it is in every partition (or declared);
3. every partition runs the one-machine household route against the whole file's bucket
   shares: households microaggregated as units when their ids are released
   (:func:`engine.release.linked_classes`: patterns formed in the partition), else the
   household groups (:func:`engine.release.households.household_partition`, or the block
   partition and the household merge when no QI is household-level), and builds its part of
   the release: household ids re-coded into a range of its own (the ranges in a random
   order), weights released as one machine releases them (its classes' means by default);
4. the distributed verifier checks k and t on the released parts; every partition checks its
   households (classes never cross partitions, and a union of classes of ≥ k households
   holds ≥ k households), follows its released ids and takes the weight as a key against
   the whole file's bucket shares (a pattern or cell shared across partitions is a union of
   checked ones).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from engine.checks import read_weights
from engine.distributed.cluster import gather, wait_all
from engine.distributed.split import Part
from engine.distributed.verify import verify_parts
from engine.errors import InfeasibleError
from engine.i18n import _, ngettext
from engine.params import ReleaseParams
from engine.progress import NO_TASK, Task
from engine.release import (
    Buckets,
    Households,
    HouseholdSummary,
    RunSummary,
    Verification,
    WeightSummary,
    check_households,
    clashing_ids,
    default_rounds,
    encode_qi,
    find_households,
    group_ids,
    household_codes,
    household_partition,
    linked_classes,
    linking_check,
    merge_for_households,
    missing_counts,
    recode_qi,
    release_confidential,
    released_households,
    separate_members,
    sse_sst,
    survey_columns,
    tclose_blocks,
    tclose_partition,
    use_blocks,
    verify_release,
    weight_check,
)
from engine.text import number


@dataclass
class _Recipe:
    """What every partition needs to release its households."""

    params: ReleaseParams
    buckets: Buckets
    shares: np.ndarray
    t: float
    size: int
    types: dict
    orders: dict
    places: dict
    columns: list[str]
    level: tuple[str, ...]
    confidential_level: tuple[str, ...]
    rounds: int


def _cut(part: Part, column: str, n_out: int, salt: int) -> list[tuple[pd.DataFrame, np.ndarray]]:
    """A partition's records cut by destination: a keyed hash of the household id."""
    ids = part.frame[column].astype("string").fillna("")
    hashed = pd.util.hash_pandas_object(ids, index=False, hash_key=f"{salt:016x}"[:16])
    dest = (hashed.to_numpy() % np.uint64(n_out)).astype(np.int64)
    # a record without an id is a household of its own: its row number keeps it apart
    lacking = part.frame[column].isna().to_numpy()
    dest[lacking] = part.row[lacking] % n_out
    return [(part.frame.iloc[dest == j], part.codes[dest == j], part.row[dest == j])
            for j in range(n_out)]  # fmt: skip


def _join(*pieces: tuple[pd.DataFrame, np.ndarray, np.ndarray]) -> tuple[pd.DataFrame, np.ndarray]:
    """One partition of whole households from its pieces, in file order (ids of records
    without a household id made unique by their row)."""
    pieces = tuple(p for p in pieces if len(p[2]))
    if not pieces:
        return pd.DataFrame(), np.zeros(0, dtype=np.int64)
    row = np.concatenate([p[2] for p in pieces])
    order = np.argsort(row, kind="stable")
    frame = pd.concat([p[0] for p in pieces], ignore_index=True).iloc[order].reset_index(drop=True)
    return frame, np.concatenate([p[1] for p in pieces])[order]


def _detect(
    piece: tuple[pd.DataFrame, np.ndarray], params: ReleaseParams
) -> tuple[set, set, int, pd.Series] | None:
    """(QIs constant within every household, such confidential columns, households, the
    household ids that are whole numbers: whether the new numbers could clash with them)."""
    frame, _ = piece
    if not len(frame):
        return None
    found = find_households(frame[params.household], frame, params.qi, (), params.confidential)
    ids = pd.Series(pd.unique(frame[params.household].dropna().astype("string")))
    whole = ids[ids.str.fullmatch(r"[1-9][0-9]{0,17}").fillna(False)]
    return set(found.detected), set(found.confidential_level), found.n_households, whole


def _release(
    piece: tuple[pd.DataFrame, np.ndarray], recipe: _Recipe, offset: int, index: int
) -> tuple[pd.DataFrame, dict]:
    """The classes of one partition's households, its part of the release, and its figures."""
    r, p = recipe, recipe.params
    frame, codes = piece
    if not len(frame):
        return pd.DataFrame(columns=r.columns), {"n": 0}
    qi = list(p.qi)
    hh, n_h, _ = household_codes(frame[p.household])
    homes = Households(column=p.household, codes=hh, n_households=n_h, level=r.level,
                       confidential_level=r.confidential_level)  # fmt: skip
    groups = linked = None
    weights = read_weights(frame[p.weight]) if p.weight is not None else None
    if p.released_household():
        # the ids are released: households as units, patterns formed in this partition (a
        # household never spans partitions)
        X = encode_qi(frame, qi, r.types, r.orders)
        found = linked_classes(frame, qi, r.types, r.orders, homes, codes, r.shares, r.t, p.k,
                               X=X)  # fmt: skip
        classes, linked = found.classes, found.linked
        groups = found.homes if r.level else None
        loss = sse_sst(X, classes)
    elif r.level:
        classes, groups, loss = household_partition(
            frame, qi, r.types, r.orders, homes, codes, r.t, p.k, r.size,
            mode=p.qi_output, shares=r.shares, improve_rounds=r.rounds,
        )  # fmt: skip
    else:
        X = encode_qi(frame, qi, r.types, r.orders)
        partition = tclose_blocks if use_blocks(X) else tclose_partition
        try:
            classes = partition(X, codes, r.size, r.t, shares=r.shares)
        except InfeasibleError:  # a partition's mix strays from the file's: one class
            classes = np.zeros(len(frame), dtype=np.int64)
        if r.confidential_level:
            classes = separate_members(X, classes, codes, hh)
        classes = merge_for_households(X, classes, hh, p.k)
        loss = sse_sst(X, classes)
    level = r.level if groups is not None else ()
    rng = np.random.default_rng(None if p.seed is None else [p.seed, index])
    parts = [recode_qi(frame, [c for c in qi if c not in level], r.types, r.orders, classes,
                       p.qi_output, r.places)]  # fmt: skip
    parts.append(release_confidential(replace(r.buckets, codes=codes), p.confidential_output))
    if p.keep:
        parts.append(frame[list(p.keep)].reset_index(drop=True))
    extra = survey_columns(p, frame, r.types, r.orders, homes, groups, frame, rng,
                           avoid_ids=False, classes=classes, weights=weights,
                           linked=linked)  # fmt: skip
    if p.household in extra:
        extra[p.household] = extra[p.household] + offset
    parts.append(pd.DataFrame(extra))
    table = pd.concat(parts, axis=1)
    # households per class on every record's household, the id released or not
    hidden = "\x00household"
    table[hidden] = hh
    check = verify_release(table, qi, [], k=p.k, household=hidden, household_level=level,
                           linked=p.household if p.household in table.columns else "")  # fmt: skip
    survey = _survey_check(table, qi, codes, recipe)
    table = table[[c for c in r.columns if c in table.columns]]
    table = table.iloc[rng.permutation(len(table))].reset_index(drop=True)
    stats = {
        "n": len(frame),
        "households": n_h,
        "households_k": check.households_k,
        "split": check.split_households,
        "shared": check.shared_classes,
        "classes": int(classes.max()) + 1,
        "pattern_k": survey["pattern_k"],
        "linking_t": survey["linking_t"],
        "without_id": survey["records_without_id"],
        "households_without_id": 0 if linked is None else int((~linked).sum()),
        "weight_k": survey["weight_k"],
        "weight_t": survey["weight_t"],
        "loss": loss,
        "groups": int(groups.max()) + 1 if groups is not None else 0,
        # the summary's QI loss is replaced by ``loss`` (the household route's own measure)
        "sq": 0.0,
        "total": np.zeros(1),
        # missing QI values in the input and released empty
        "missing_qi": missing_counts(frame, table, [c for c in qi if c in table.columns]),
    }
    return table, stats


def _survey_check(
    table: pd.DataFrame, qi: list[str], codes: np.ndarray, recipe: _Recipe
) -> dict[str, Any]:
    """What an intruder learns in one partition's part by following its released ids and by
    taking the weight as a key, against the whole file's bucket shares (the figures of
    :func:`engine.release.verify_release`).

    A partition's classes never leave it and a household never spans partitions, so a
    pattern or a cell that other partitions share in the whole release is a union of ones
    checked here: shared by more households, and t-close as a union of t-close parts.
    """
    p = recipe.params
    classes = group_ids(table, qi)
    out: dict[str, Any] = {"pattern_k": None, "linking_t": None, "records_without_id": 0,
                           "weight_k": None, "weight_t": None}  # fmt: skip
    buckets = codes if p.confidential else None
    if p.household in table.columns:
        ids = released_households(table[p.household])
        linking = linking_check(classes, buckets, ids, k=p.k, t=recipe.t, shares=recipe.shares)
        out.update({key: linking[key] for key in ("pattern_k", "linking_t",
                                                   "records_without_id")})  # fmt: skip
    if p.weight in table.columns:
        keyed = weight_check(table, qi, p.weight, buckets, k=p.k, t=recipe.t,
                             shares=recipe.shares)  # fmt: skip
        out.update(weight_k=keyed["weight_k"], weight_t=keyed["weight_t"])
    return out


def release_households_on_cluster(
    client: Any,
    parts: list[Any],
    *,
    params: ReleaseParams,
    buckets: Buckets,
    t: float,
    size: int,
    types: dict,
    orders: dict,
    places: dict,
    columns: list[str],
    n: int,
    workers: int,
    node_records: int,
    summarise: Any,
    task: Task = NO_TASK,
) -> tuple[list[Any], Verification, RunSummary]:
    """The verified release of a survey file on the cluster (module doc).

    ``parts`` are the partitions after the encoding and the buckets
    (:class:`~engine.distributed.split.Part`); ``summarise(verification, part_stats)`` makes
    the run summary the route without households makes.  Returns the futures of the released
    parts, the verification and the summary.
    """
    assert params.household is not None
    shares = buckets.counts / buckets.counts.sum()
    n_out = max(1, min(max(workers, -(-n // node_records)), n // max(size, 1)))
    salt = int(np.random.default_rng(params.seed).integers(2**63)) if params.seed is not None \
        else secrets.randbits(63)  # fmt: skip
    task.step(0.0, _("Moving households to partitions"))
    cut = client.map(_cut, parts, column=params.household, n_out=n_out, salt=salt)
    out = [client.submit(_join, *[client.submit(_pick, c, j) for c in cut]) for j in range(n_out)]
    del cut
    detections = gather(client, client.map(_detect, out, params=params))
    numbering = _HouseholdNumbering.of(detections, params, salt, n_out)
    level, conf_level = numbering.level, numbering.confidential_level
    recipe = _Recipe(params, buckets, shares, t, size, types, orders, places, columns, level,
                     conf_level, default_rounds(numbering.most_in_a_part))  # fmt: skip
    recipe_f = client.scatter(recipe, broadcast=True)
    offsets = numbering.offsets
    done = [client.submit(_release, out[j], recipe_f, int(offsets[j]), j) for j in range(n_out)]
    del out
    wait_all(client, done, task=task.sub(0.1, 0.85), message="Forming classes")
    tables = client.map(_pick, done, i=0)
    stats = [s for s in gather(client, client.map(_pick, done, i=1)) if s.get("n")]
    del done
    task.step(0.85, _("Verifying the release"))
    verification = verify_parts(client, tables, params.qi, params.confidential, t=t, k=params.k,
                                task=task.sub(0.85, 1.0))  # fmt: skip
    verification = _with_households(verification, stats, params, numbering.n_households)
    summary = _household_summary(summarise(verification, stats), stats, params, numbering)
    return tables, verification, summary


@dataclass(frozen=True)
class _HouseholdNumbering:
    """What the partitions found of their households, and the range of numbers each gives
    its households (as on one machine: clear of the input's ids, the ranges in random order)."""

    #: household-level QIs: detected constant in every partition, or declared
    level: tuple[str, ...]
    #: QIs found constant within households in every partition
    detected: tuple[str, ...]
    #: confidential columns constant within households in every partition
    confidential_level: tuple[str, ...]
    #: the first number of every partition's households
    offsets: np.ndarray
    n_households: int
    #: the most households one partition holds
    most_in_a_part: int

    @classmethod
    def of(
        cls, detections: list[Any], params: ReleaseParams, salt: int, n_out: int
    ) -> _HouseholdNumbering:
        """From every partition's :func:`_detect` (None for an empty partition)."""
        found = [f for f in detections if f is not None]
        detected = tuple(c for c in params.qi if all(c in f[0] for f in found))
        level = tuple(
            c for c in params.qi if all(c in f[0] for f in found) or c in params.household_level
        )
        conf_level = tuple(c for c in params.confidential if all(c in f[1] for f in found))
        # every partition numbers its households in a range of its own; the ranges in random order
        counts = np.array([0 if f is None else f[2] for f in detections], dtype=np.int64)
        order = np.random.default_rng(salt).permutation(n_out)
        offsets = np.zeros(n_out, dtype=np.int64)
        offsets[order] = np.r_[0, np.cumsum(counts[order])[:-1]]
        n_households = int(counts.sum())
        check_households(n_households, params.k)
        # the new numbers stay clear of the input's ids, as on one machine (recode_ids)
        ids = pd.concat([f[3] for f in found], ignore_index=True) if found else pd.Series([])
        clash, digits = clashing_ids(ids, n_households)
        offsets += 10**digits if clash else 0
        return cls(level, detected, conf_level, offsets, n_households, int(counts.max(initial=0)))


def _with_households(
    verification: Verification, stats: list[dict], params: ReleaseParams, n_households: int
) -> Verification:
    """The verification of the parts with the households' counts of every partition: it
    fails when a class holds records of fewer than k households or a household's members
    were released with different household-level values."""
    homes_k = min(s["households_k"] for s in stats)
    split = sum(s["split"] for s in stats)
    pattern_k = _least(s["pattern_k"] for s in stats)
    linking_t = _most(s["linking_t"] for s in stats)
    weight_k = _least(s["weight_k"] for s in stats)
    weight_t = _most(s["weight_t"] for s in stats)
    verification = replace(
        verification,
        households_k=homes_k,
        n_households=n_households,
        split_households=split,
        shared_classes=sum(s["shared"] for s in stats),
        pattern_k=pattern_k,
        linking_t=linking_t,
        records_without_id=sum(s["without_id"] for s in stats),
        weight_k=weight_k,
        weight_t=weight_t,
    )
    problems = []
    if homes_k < params.k:
        problems.append(
            ngettext(
                "a class holds records of only {n} household (k = {k} required)",
                "a class holds records of only {n} households (k = {k} required)",
                homes_k,
            ).format(n=number(homes_k), k=number(params.k))
        )
    if split:
        problems.append(
            ngettext(
                "{n} household has members with different household-level values",
                "{n} households have members with different household-level values",
                split,
            ).format(n=number(split))
        )
    t = verification.t if params.bucket_t is None else params.bucket_t
    if pattern_k is not None and pattern_k < params.k:
        problems.append(
            _(
                "households share their pattern of classes with fewer than {k} households "
                "(an intruder who follows the household id finds their members)"
            ).format(k=number(params.k))
        )
    if linking_t is not None and t is not None and linking_t > t * (1 + 1e-7):
        problems.append(
            _(
                "an intruder who follows the household ids is left at distance {shown} from "
                "a member's bucket (t = {t} required)"
            ).format(shown=number(linking_t, 4), t=number(t, 6))
        )
    if params.released_weight() == "class" and weight_k is not None and weight_k < params.k:
        problems.append(
            _("with the weight as a key a class has only {n} records (k = {k} required)").format(
                n=number(weight_k), k=number(params.k)
            )
        )
    if problems:
        verification.ok = False
        verification.message = _("Verification failed: {problems}.").format(
            problems="; ".join(problems)
        )
    verification.raise_if_failed()
    verification.message = verification.message[:-1] + _(
        "; every class holds records of ≥ {n} households."
    ).format(n=number(homes_k))
    return verification


def _least(values: Any) -> Any:
    present = [v for v in values if v is not None]
    return min(present) if present else None


def _most(values: Any) -> Any:
    present = [v for v in values if v is not None]
    return max(present) if present else None


def _household_summary(
    summary: RunSummary, stats: list[dict], params: ReleaseParams, numbering: _HouseholdNumbering
) -> RunSummary:
    """The summary of the route without households, with the household route's QI loss and
    what the summary says of the households."""
    assert params.household is not None
    # the loss is measured per partition (its own standardisation): the records' mean
    loss = sum(s["loss"] * s["n"] for s in stats) / sum(s["n"] for s in stats)
    summary = replace(summary, information_loss=replace(summary.information_loss, qi_sse_sst=loss))
    return replace(
        summary,
        households=HouseholdSummary(
            column=params.household,
            n_households=numbering.n_households,
            household_level=numbering.level,
            detected=numbering.detected,
            varied={},
            households_k=min(s["households_k"] for s in stats),
            output=params.household_output,
            n_groups=sum(s["groups"] for s in stats) or None,
            confidential_level=numbering.confidential_level,
            shared_classes=sum(s["shared"] for s in stats),
            pattern_k=_least(s["pattern_k"] for s in stats),
            linking_t=_most(s["linking_t"] for s in stats),
            records_without_id=sum(s["without_id"] for s in stats),
            households_without_id=sum(s["households_without_id"] for s in stats),
        ),
        weight=None
        if params.weight is None
        else WeightSummary(
            column=params.weight,
            output=params.weight_output,
            k=_least(s["weight_k"] for s in stats),
            t=_most(s["weight_t"] for s in stats),
        ),
        warnings=(*summary.warnings, *_cluster_notes(params)),
    )


def _cluster_notes(params: ReleaseParams) -> list[str]:
    if params.weight is None:
        return []
    return [
        _(
            "On a cluster the bucket means are not weighted and the risk figures are not "
            "computed. Run on one computer for weighted means, weighted totals and the risk "
            "with weights."
        )
    ]


def _pick(value: Any, i: int) -> Any:
    return value[i]


__all__ = ["release_households_on_cluster"]
