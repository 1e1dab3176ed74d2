"""What the command line calls with ``--cluster``: a whole run on one Dask client."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.distributed.cluster import Backend, connect
from engine.distributed.output import check_cluster_outputs, write_cluster_release
from engine.distributed.reading import read_parts
from engine.distributed.release import anonymize_on_cluster, plan_of_file, refuse_unsupported
from engine.distributed.verify import verify_parts
from engine.io.codebook import with_codebook
from engine.io.info import ReadOptions
from engine.io.outputs import Output
from engine.io.read import read_codebook
from engine.params import ReleaseParams
from engine.progress import NO_TASK, Task
from engine.release import Plan, RunSummary, Verification, check_release_columns


def anonymize_file(
    backend: Backend,
    source: str | Path,
    params: ReleaseParams,
    output: str | Path,
    *,
    options: ReadOptions | None = None,
    anonymous: bool = False,
    metadata: Mapping[str, Any] | None = None,
    extras: Sequence[Output] = (),
    documents: Callable[[RunSummary], Mapping[str | Path, str]] | None = None,
    inputs: Sequence[str | Path] = (),
    ddi: str | Path | None = None,
    task: Task = NO_TASK,
) -> tuple[RunSummary, Verification, list[Path]]:
    """Release ``source`` on the cluster, verify it there, write it to ``output``.

    Every output (the release, its metadata, the ``extras`` such as a summary or a review
    record, whose text ``documents`` gives once the run is done) is checked before the
    cluster is reached, against ``source`` and the further ``inputs`` (a project file), and
    they are committed together.  The release carries the published metadata only
    (``RunSummary.public_dict``; ``anonymous`` leaves the input's name out too) and
    ``metadata``.  Returns (summary, verification, files written).  Nothing is written unless
    the release passed its check.  The input's labels (an SPSS or Stata file's, read
    without its data) are carried as one machine carries them, and ``ddi`` names a DDI
    codebook written beside the release.
    """
    refuse_unsupported(params)  # before a cluster starts
    sources = [source, *inputs]
    check_cluster_outputs(output, extras=extras, inputs=sources, ddi=ddi)
    codebook = read_codebook(source)
    params = with_codebook(params, codebook)
    with connect(backend) as client:
        release = anonymize_on_cluster(
            client, source, params, options=options, task=task.sub(0.0, 0.9)
        )
        summary = replace(release.summary, input=Path(source).name)
        published = {**summary.public_dict(anonymous=anonymous), **(metadata or {})}
        written = write_cluster_release(
            client, release.parts, output, n_rows=release.verification.n_records,
            columns=release.columns, metadata=published, inputs=sources, extras=extras,
            documents=documents(summary) if documents else None, codebook=codebook, ddi=ddi,
            task=task.sub(0.9, 1.0),
        )  # fmt: skip
    return summary, release.verification, written


def plan_file(
    backend: Backend,
    source: str | Path,
    params: ReleaseParams,
    *,
    sep: str | None = None,
    options: ReadOptions | None = None,
    task: Task = NO_TASK,
) -> Plan:
    """The plan a cluster run of ``source`` would make (``tclose plan --cluster``), read as
    one machine reads it (``options``)."""
    refuse_unsupported(params)
    with connect(backend) as client:
        return plan_of_file(client, source, params, options=options or sep, task=task)


def verify_file(
    backend: Backend,
    path: str | Path,
    qi: tuple[str, ...],
    confidential: tuple[str, ...],
    *,
    t: float | None = None,
    k: int | None = None,
    options: ReadOptions | None = None,
    task: Task = NO_TASK,
) -> Verification:
    """The independent check of a released file (any format one machine reads), partition
    by partition."""
    with connect(backend) as client:
        parts, names = read_parts(client, path, [*qi, *confidential], options)
        check_release_columns([*qi, *confidential], names)
        return verify_parts(client, parts, qi, confidential, t=t, k=k, task=task)
