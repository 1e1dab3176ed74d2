"""What the command line calls with ``--cluster``: a whole run on one Dask client."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from engine.distributed.cluster import Backend, connect
from engine.distributed.output import write_cluster_release
from engine.distributed.release import (
    anonymize_on_cluster,
    plan_on_cluster,
    read_input,
    read_parts,
    refuse_unsupported,
)
from engine.distributed.verify import verify_parts
from engine.params import ReleaseParams
from engine.progress import NO_TASK, Task
from engine.release.plan import Plan
from engine.release.result import RunSummary, Verification


def anonymize_file(
    backend: Backend,
    source: str | Path,
    params: ReleaseParams,
    output: str | Path,
    *,
    sep: str | None = None,
    anonymous: bool = False,
    task: Task = NO_TASK,
) -> tuple[RunSummary, Verification, list[Path]]:
    """Release ``source`` on the cluster, verify it there, write it to ``output``.

    Returns (summary, verification, files written).  Nothing is written unless the release
    passed its check.  The release carries the published metadata only
    (``RunSummary.public_dict``; ``anonymous`` leaves the input's name out too).
    """
    refuse_unsupported(params)  # before a cluster starts
    with connect(backend) as client:
        release = anonymize_on_cluster(client, source, params, sep=sep, task=task.sub(0.0, 0.9))
        summary = replace(release.summary, input=Path(source).name)
        written = write_cluster_release(
            client, release.parts, output, n_rows=release.verification.n_records,
            columns=release.columns, metadata=summary.public_dict(anonymous=anonymous),
            input_path=source, task=task.sub(0.9, 1.0),
        )  # fmt: skip
    return summary, release.verification, written


def plan_file(
    backend: Backend,
    source: str | Path,
    params: ReleaseParams,
    *,
    sep: str | None = None,
    task: Task = NO_TASK,
) -> Plan:
    """The plan a cluster run of ``source`` would make (``tclose plan --cluster``)."""
    refuse_unsupported(params)
    with connect(backend) as client:
        data = read_input(client, source, params, sep=sep, task=task.sub(0.0, 0.3))
        return plan_on_cluster(client, data, params, task=task.sub(0.3, 1.0)).plan


def verify_file(
    backend: Backend,
    path: str | Path,
    qi: tuple[str, ...],
    confidential: tuple[str, ...],
    *,
    t: float | None = None,
    k: int | None = None,
    sep: str | None = None,
    task: Task = NO_TASK,
) -> Verification:
    """The independent check of a released file (Parquet or CSV), partition by partition."""
    with connect(backend) as client:
        parts, _ = read_parts(client, path, [*qi, *confidential], sep)
        return verify_parts(client, parts, qi, confidential, t=t, k=k, task=task)
