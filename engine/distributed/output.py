"""Writing a release computed on a cluster, and reading a release there to verify it.

The parts arrive one after the other and are written as they come, so the release is never
whole in the memory of this computer: a ``.parquet`` file (one row group per part), a dataset
folder (one file per part), or CSV (pyarrow's writer, formula guard kept).  Everything is
written beside the target and renamed at the end, after verification, so a failure or a
cancellation leaves no partial output.  ``.xlsx`` is refused above what an Excel sheet holds.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from engine.distributed.cluster import raise_for
from engine.errors import InputError
from engine.i18n import _
from engine.io.codebook import Codebook
from engine.io.csvfast import write_csv_parts
from engine.io.ddi import Tally, stage_ddi
from engine.io.formats import CLUSTER_SUFFIXES, format_of
from engine.io.outputs import (
    Output,
    OutputError,
    Staging,
    check_not_input,
    check_outputs,
    write_outputs,
)
from engine.io.parquet import METADATA_KEY
from engine.io.write import (
    check_sheet_size,
    release_metadata,
    release_outputs,
    released_codebook,
    sidecar_path,
    sidecar_text,
    write_release,
)
from engine.progress import NO_TASK, Task
from engine.text import number


def _parts(client: Any, futures: Sequence[Any], task: Task) -> Iterator[pd.DataFrame]:
    """The parts in order, each fetched when the writer needs it."""
    for future in futures:
        if task.cancelled():
            from engine.errors import CancelledError

            raise CancelledError()
        try:
            yield future.result()
        except Exception:
            if future.status == "error":
                raise_for(future)
            raise


def cluster_outputs(
    path: str | Path, *, extras: Sequence[Output] = (), ddi: str | Path | None = None
) -> list[Output]:
    """The files a cluster release to ``path`` writes: the release (a file, or a dataset
    folder when the name has no suffix), its JSON metadata beside a text or Parquet file,
    and the ``extras`` committed with it (the summary, the review record)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in CLUSTER_SUFFIXES:
        raise InputError(
            _(
                "{name}: unknown output type '{suffix}'; use .parquet, a folder name, .csv, "
                ".xlsx, .sav or .dta."
            ).format(name=path.name, suffix=suffix)
        )
    if suffix == "":
        outputs = [Output(path, "release")]
        if ddi is not None:
            outputs += release_outputs(path.with_suffix(".csv"), ddi=ddi)[2:]
    else:
        outputs = release_outputs(path, ddi=ddi)
    return [*outputs, *extras]


def check_cluster_outputs(
    path: str | Path,
    *,
    extras: Sequence[Output] = (),
    inputs: Sequence[str | Path | None] = (),
    ddi: str | Path | None = None,
) -> list[Output]:
    """Every output of a cluster release checked before any work starts, as one machine
    checks its own (:func:`engine.io.outputs.check_outputs`: not an input or inside an input
    folder, not each other, a writable folder); a dataset folder must be new."""
    outputs = cluster_outputs(path, extras=extras, ddi=ddi)
    release = outputs[0]
    if release.path.suffix == "" and (release.path.exists() or release.path.is_symlink()):
        check_not_input(release, inputs)
        raise OutputError.about(
            release.path,
            "name",
            _(
                "{path} exists already; a release named without a suffix is written as a new "
                "Parquet dataset folder. Choose a new name for the release."
            ),
        )
    return check_outputs(outputs, inputs=inputs)


def write_cluster_release(
    client: Any,
    parts: Sequence[Any],
    path: str | Path,
    *,
    n_rows: int,
    columns: list[str],
    metadata: dict[str, Any] | None = None,
    input_path: str | Path | None = None,
    inputs: Sequence[str | Path | None] = (),
    extras: Sequence[Output] = (),
    documents: Mapping[str | Path, str] | None = None,
    sep: str = ",",
    codebook: Codebook | None = None,
    ddi: str | Path | None = None,
    task: Task = NO_TASK,
) -> list[Path]:
    """Write the release held in ``parts`` to ``path`` (module doc); returns the files.

    ``codebook`` is the input's labels (carried as one machine carries them) and ``ddi``
    names the DDI codebook written beside the release, its frequencies counted part by
    part.

    The ``extras`` (a summary, a review record: their text in ``documents``, by path) are
    staged with the release and committed with it, or none of them is written.  ``inputs``
    (and ``input_path``) are never written over or into.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    meta = release_metadata(metadata)  # never the review record
    sources = [input_path, *inputs]
    texts = {str(Path(k)): v for k, v in (documents or {}).items()}
    outputs = check_cluster_outputs(path, extras=extras, inputs=sources, ddi=ddi)
    tally = Tally()

    def stage_extras(stage: Staging) -> None:
        for extra in extras:
            stage.write_utf8(extra.path, texts[str(extra.path)])
        if ddi is not None:
            labels = released_codebook(tally.values(), meta, codebook)
            stage_ddi(stage, ddi, tally, meta, labels, release=path)

    fmt = format_of(path.name)
    if fmt is not None and fmt.metadata_inside:  # a workbook, SPSS, Stata: written whole
        if suffix == ".xlsx":
            check_sheet_size(path.name, n_rows, len(columns))
        table = pd.concat(list(_parts(client, parts, task)), ignore_index=True)
        with write_outputs(outputs, inputs=sources) as stage:
            write_release(
                table, path, metadata=meta, codebook=codebook, ddi=ddi, stage=stage, task=task
            )
            for extra in extras:
                stage.write_utf8(extra.path, texts[str(extra.path)])
        return [o.path for o in outputs]
    if suffix == "":
        return _write_folder(client, parts, path, meta, n_rows, task, sources, stage_extras,
                             [o for o in outputs if o.kind != "release"], tally)  # fmt: skip
    side = sidecar_path(path)
    dtypes: dict[str, str] = {}

    def tracked() -> Iterator[pd.DataFrame]:
        for table in _parts(client, parts, task):
            dtypes.update({str(c): str(t) for c, t in table.dtypes.items()})
            tally.add(table)
            yield table

    with write_outputs(outputs, inputs=sources) as stage:
        if suffix == ".parquet":
            dtypes = _write_parquet_parts(
                client, parts, stage.temp(path), meta, n_rows, task, tally=tally
            )
        else:
            write_csv_parts(tracked(), columns, stage.temp(path), sep=sep, bom=True,
                            n_rows=n_rows, task=task)  # fmt: skip
        labels = released_codebook(tally.values(), meta, codebook) if codebook else None
        stage.write_utf8(side, sidecar_text(meta, dtypes, labels.to_dict() if labels else None))
        stage_extras(stage)
    return [o.path for o in outputs]


def _write_parquet_parts(client, parts, target: Path, meta, n_rows, task, tally=None):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from engine.io.parquet import _plain_columns

    writer = None
    schema = None
    dtypes: dict[str, str] = {}
    written = 0
    try:
        for table in _parts(client, parts, task):
            dtypes.update({str(c): str(t) for c, t in table.dtypes.items()})
            if tally is not None:
                tally.add(table)
            arrow = pa.Table.from_pandas(_plain_columns(table), preserve_index=False)
            if writer is None:
                fields = arrow.schema.remove_metadata()
                schema = fields.with_metadata(
                    {METADATA_KEY: json.dumps(meta, ensure_ascii=False, default=str)}
                )
                writer = pq.ParquetWriter(target, schema, compression="zstd")
            writer.write_table(arrow.cast(schema))
            written += len(table)
            task.step(
                0.95 * written / max(n_rows, 1),
                _("Wrote {written} rows").format(written=number(written)),
            )
    finally:
        if writer is not None:
            writer.close()
    return dtypes


def _write_folder(
    client,
    parts,
    path: Path,
    meta,
    n_rows,
    task,
    inputs,
    stage_extras,
    extras: list[Output],
    tally,
) -> list[Path]:
    """A dataset folder: part-00000.parquet, …, written in a temporary folder that the
    writer of every output (:func:`engine.io.outputs.write_outputs`) renames onto ``path``
    at the end, committed with the ``extras`` (the summary, the review record): all of
    them, or none."""
    outputs = [Output(path, "release"), *extras]
    with write_outputs(outputs, inputs=inputs) as stage:
        tmp = stage.temp_folder(path)
        for i, future in enumerate(parts):
            target = tmp / f"part-{i:05d}.parquet"
            _write_parquet_parts(client, [future], target, meta, n_rows, task.silent(), tally)
            task.step(0.95 * (i + 1) / len(parts), _("Wrote part {value}").format(value=i + 1))
        (tmp / "_tclose.json").write_text(sidecar_text(meta, {}), encoding="utf-8")
        stage_extras(stage)
    return [o.path for o in outputs]
