"""Parquet in and out: a ``.parquet`` file or a dataset folder of them.

Registers and census files of tens of millions of records are often kept as Parquet: typed,
compressed, and readable part by part (the Dask path of ``--cluster`` reads it that way).
Reading and writing need pyarrow (``pip install tclose[parquet]``); without it the user gets
one sentence saying so.  A written release carries its metadata twice: in the JSON sidecar
every text release has, and in the file's own key-value metadata (key ``tclose``), so that
the Parquet file describes itself.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pandas as pd

from engine.errors import InputError
from engine.io.files import check_memory, human_size

#: first (and last) bytes of every Parquet file
PARQUET_MAGIC = b"PAR1"
PARQUET_SUFFIXES = (".parquet", ".pq", ".parq")
#: key of the release metadata in the file's key-value metadata
METADATA_KEY = b"tclose"
#: bytes in memory per byte of uncompressed column data (pandas copies, text objects)
PARQUET_EXPANSION = 3


def need_pyarrow(path: Path) -> None:
    """InputError unless pyarrow is installed."""
    if importlib.util.find_spec("pyarrow") is None:
        raise InputError(
            f"{path.name}: reading and writing Parquet needs the pyarrow package; install "
            "tclose with the parquet extra (pip install tclose[parquet])."
        )


def is_parquet(path: Path, head: bytes | None = None) -> bool:
    """Whether ``path`` is a Parquet file (by its first bytes or name) or a dataset folder."""
    if path.is_dir():
        return any(p.suffix.lower() in PARQUET_SUFFIXES for p in path.rglob("*"))
    if head is not None and head.startswith(PARQUET_MAGIC):
        return True
    return path.suffix.lower() in PARQUET_SUFFIXES


def parquet_files(path: Path) -> list[Path]:
    """The Parquet files of a dataset folder in name order (a file: itself)."""
    if not path.is_dir():
        return [path]
    files = sorted(
        (p for p in path.rglob("*") if p.suffix.lower() in PARQUET_SUFFIXES and p.is_file()),
        key=lambda p: p.relative_to(path).as_posix(),
    )
    if not files:
        raise InputError(f"{path} is a folder without .parquet files: there is nothing to read.")
    return files


def read_parquet(path: str | Path, *, memory_limit: int | None = None) -> pd.DataFrame:
    """The whole table of a Parquet file or dataset folder (parts in name order)."""
    path = Path(path)
    need_pyarrow(path)
    import pyarrow as pa
    import pyarrow.parquet as pq

    files = parquet_files(path)
    try:
        metas = [pq.ParquetFile(f).metadata for f in files]
    except (pa.ArrowException, OSError) as exc:
        raise InputError(f"{path.name} is not a readable Parquet file ({exc}).") from exc
    raw = sum(m.row_group(i).total_byte_size for m in metas for i in range(m.num_row_groups))
    check_memory(path, raw * PARQUET_EXPANSION, memory_limit)
    try:
        tables = [_decoded(pq.read_table(f)) for f in files]
        table = pa.concat_tables(tables, promote_options="permissive")
    except (pa.ArrowException, OSError) as exc:
        raise InputError(f"{path.name}: cannot read the Parquet data ({exc}).") from exc
    except MemoryError as exc:
        raise InputError(
            f"{path.name}: the computer ran out of memory while reading it "
            f"({human_size(raw)} of column data). Close other programs, or compute on a "
            "cluster (--cluster)."
        ) from exc
    return to_pandas(table)


def _decoded(table: Any) -> Any:
    """Dictionary (category) columns as their values, schema metadata dropped: parts written
    by different tools then concatenate, and a release's own metadata is not data."""
    import pyarrow as pa

    columns = []
    for col in table.columns:
        if pa.types.is_dictionary(col.type):
            col = col.cast(col.type.value_type)
        columns.append(col)
    return pa.table(columns, names=table.column_names)


def to_pandas(table: Any) -> pd.DataFrame:
    """A pyarrow table as the frame every reader returns (categories decoded)."""
    return _decoded(table).to_pandas().reset_index(drop=True)


def write_parquet(table: pd.DataFrame, tmp: Path, metadata: dict[str, Any] | None = None) -> None:
    """Write ``table`` to ``tmp`` (zstd-compressed) with ``metadata`` as JSON under ``tclose``."""
    need_pyarrow(tmp)
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        arrow = pa.Table.from_pandas(_plain_columns(table), preserve_index=False)
    except (pa.ArrowException, TypeError, ValueError) as exc:
        raise InputError(f"{tmp.name}: the table cannot be stored as Parquet ({exc}).") from exc
    meta = dict(arrow.schema.metadata or {})
    meta.pop(b"pandas", None)
    if metadata is not None:
        meta[METADATA_KEY] = json.dumps(metadata, ensure_ascii=False, default=str).encode()
    arrow = arrow.replace_schema_metadata(meta)
    pq.write_table(arrow, tmp, compression="zstd")  # an OSError reaches the caller as it is


def _plain_columns(table: pd.DataFrame) -> pd.DataFrame:
    """Object columns of mixed values (numbers and texts) as text: Parquet columns have one
    type; column names as text."""
    out = table.copy(deep=False)
    out.columns = [str(c) for c in table.columns]
    for name in out.columns:
        col = out[name]
        if col.dtype == object:
            kinds = {type(v) for v in col.dropna().head(100_000)}
            if len(kinds) > 1:
                out[name] = col.map(lambda v: None if pd.isna(v) else str(v)).astype("string")
    return out


def read_metadata(path: str | Path) -> dict[str, Any] | None:
    """The release metadata stored in a Parquet file by :func:`write_parquet`, if any."""
    path = Path(path)
    need_pyarrow(path)
    import pyarrow.parquet as pq

    meta = pq.read_schema(parquet_files(path)[0]).metadata or {}
    raw = meta.get(METADATA_KEY)
    return None if raw is None else json.loads(raw)
