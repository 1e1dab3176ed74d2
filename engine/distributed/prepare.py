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

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from engine.distributed.cluster import gather, speaking
from engine.distributed.identifiers import check_quasi_identifiers_on
from engine.distributed.reading import read_parts
from engine.io import ReadOptions
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
    task.step(0.0, "Reading the partitions")
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
    check_quasi_identifiers_on(client, frames, qi, types)  # on every row, as one machine
    columns = [c for c in raw.names if c in (*qi, *confidential, *keep)]
    return ClusterInput(frames, offsets, n, raw.n - n, columns, types, orders)


def _head(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.head(TYPE_SAMPLE)
