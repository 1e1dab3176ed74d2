"""The prepare stage on a cluster: one machine's checks and cleaning, partition by partition.

One machine prepares its table with :func:`engine.release.stages.prepare.prepare`; each of
its checks is a function of its own, and a cluster calls the same ones where the facts are:
on the file's column names (:func:`~engine.release.check_roles`,
:func:`~engine.release.check_columns`), on every partition
(:func:`~engine.release.clean_columns`; the numbers, :func:`~engine.release.check_numbers`,
in the plan's counting pass) and on the partitions' counts added up
(:func:`~engine.release.check_records`).  A quasi-identifier that looks like an identifier
is judged on the whole file's counts (:mod:`engine.distributed.identifiers`).  What is here
is what only a cluster does: the partitions' lengths and offsets, and the first records the
types are inferred from.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from engine.checks import (
    WeightProblem,
    first_problem,
    type_error,
    type_problem,
    weight_error,
    weight_problem,
)
from engine.distributed.cluster import gather, speaking
from engine.distributed.identifiers import check_identifiers_on
from engine.distributed.reading import read_parts
from engine.i18n import _
from engine.identifiers import KEEP, QI
from engine.io import ReadOptions, apply_missing
from engine.params import ReleaseParams
from engine.progress import NO_TASK, Task
from engine.release import (
    check_columns,
    check_records,
    check_roles,
    clean_columns,
    resolve_columns,
)
from engine.roles import ColumnType

#: rows read to infer the column types (give --type for certainty)
TYPE_SAMPLE = 50_000


@dataclass
class RawInput:
    """A file read into partitions on the cluster, before anything is checked in them."""

    #: futures of the partitions as read (file order)
    frames: list[Any]
    #: the file's column names
    names: list[str]
    #: records per partition
    lengths: list[int]

    @property
    def n(self) -> int:
        return int(sum(self.lengths))


def read_raw(
    client: Any,
    path: str | Path,
    params: ReleaseParams,
    *,
    options: ReadOptions | str | None = None,
    task: Task = NO_TASK,
) -> RawInput:
    """Read ``path`` partition by partition and check the columns ``params`` name."""
    check_roles(params)
    task.step(0.0, _("Reading the partitions"))
    frames, names = read_parts(client, path, None, options)
    check_columns(params, names)
    lengths = gather(client, client.map(len, frames), task=task, message="Reading the partitions")
    raw = RawInput(frames, names, [int(n) for n in lengths])
    if not raw.n:
        check_records(0, 0)
    return raw


def _prepare_part(frame: pd.DataFrame, params: ReleaseParams) -> pd.DataFrame:
    """One partition as one machine cleans a table (:func:`engine.release.clean_columns`), with
    the columns released or read unchanged (kept, household, weight) beside it, in the
    input's column order."""
    recoded, rows = clean_columns(frame, params)
    clean = recoded.data
    raw = frame.reset_index(drop=True)
    raw = raw if rows is None else raw.iloc[rows].reset_index(drop=True)
    passed = (*params.keep, *(c for c in (params.household, params.weight) if c is not None))
    for col in passed:
        if col not in clean.columns:
            clean[col] = raw[col]
    return clean[[c for c in frame.columns if c in clean.columns]]


@dataclass
class ClusterInput:
    """The prepared partitions of a file on the cluster, and what one machine's
    :func:`~engine.release.stages.prepare.prepare` knows of them."""

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


def prepare_parts(
    client: Any, raw: RawInput, params: ReleaseParams, *, task: Task = NO_TASK
) -> ClusterInput:
    """Clean every partition of ``raw`` and check the file, with one machine's words."""
    qi, confidential, keep = list(params.qi), list(params.confidential), list(params.keep)
    frames = client.map(speaking(_prepare_part), raw.frames, params=params)
    lengths = gather(client, client.map(len, frames), task=task, message="Reading the partitions")
    n = int(sum(lengths))
    check_records(raw.n, raw.n - n)
    offsets = np.r_[0, np.cumsum(lengths)[:-1]].astype(np.int64)
    head = client.submit(_head, frames[0]).result()
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
        raw_offsets = np.r_[0, np.cumsum(raw.lengths)[:-1]].astype(np.int64)
        weights = gather(client, client.map(_weight_problem, raw.frames, params=params))
        problem = first_problem(zip(raw_offsets, weights, strict=True))
        if problem is not None:
            raise weight_error(params.weight, problem)
    columns = [c for c in raw.names if c in (*qi, *confidential, *keep)]
    return ClusterInput(frames, offsets, n, raw.n - n, columns, types, orders, notes)


def _head(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.head(TYPE_SAMPLE)
