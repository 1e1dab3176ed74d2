"""Parquet in and out: a ``.parquet`` file or a dataset folder of them.

Registers and census files of tens of millions of records are often kept as Parquet: typed,
compressed, and readable part by part (the Dask path of ``--cluster`` reads it that way).
Reading and writing need pyarrow (``pip install tclose[parquet]``); without it the user gets
one sentence saying so.  A written release carries its metadata twice: in the JSON sidecar
every text release has, and in the file's own key-value metadata (key ``tclose``), so that
the Parquet file describes itself.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
from pathlib import Path
from typing import Any

import pandas as pd

from engine.errors import InputError
from engine.i18n import _
from engine.io.columns import BEYOND_64_BITS
from engine.io.files import check_memory, human_size
from engine.io.formats import ReadJob, read_by

#: first (and last) bytes of every Parquet file
PARQUET_MAGIC = b"PAR1"
PARQUET_SUFFIXES = read_by("parquet")
#: key of the release metadata in the file's key-value metadata
METADATA_KEY = b"tclose"
#: bytes in memory per byte of uncompressed column data (pandas copies, text objects)
PARQUET_EXPANSION = 3


def need_pyarrow(path: Path) -> None:
    """InputError unless pyarrow is installed."""
    if importlib.util.find_spec("pyarrow") is None:
        raise InputError(
            _(
                "{name}: reading and writing Parquet needs the pyarrow package; install "
                "tclose with the parquet extra (pip install tclose[parquet])."
            ).format(name=path.name)
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
        raise InputError(
            _("{path} is a folder without .parquet files: there is nothing to read.").format(
                path=path
            )
        )
    return files


def read_parquet(
    path: str | Path, *, memory_limit: int | None = None, notes: list[str] | None = None
) -> pd.DataFrame:
    """The whole table of a Parquet file or dataset folder (parts in name order).

    Columns of types a table of records does not hold are made plain (see
    :func:`plain_table`); what was changed is added to ``notes``.
    """
    path = Path(path)
    need_pyarrow(path)
    import pyarrow as pa
    import pyarrow.parquet as pq

    files = parquet_files(path)
    try:
        metas = [pq.ParquetFile(f).metadata for f in files]
    except (pa.ArrowException, OSError) as exc:
        raise InputError(
            _("{name} is not a readable Parquet file ({reason}).").format(
                name=path.name, reason=_first_line(exc)
            )
        ) from exc
    for f, meta in zip(files, metas, strict=True):
        check_names(path if f == path else f, meta.schema.to_arrow_schema().names)
    raw = sum(m.row_group(i).total_byte_size for m in metas for i in range(m.num_row_groups))
    check_memory(path, raw * PARQUET_EXPANSION, memory_limit)
    try:
        tables = [_decoded(pq.read_table(f)) for f in files]
        table = pa.concat_tables(tables, promote_options="permissive")
    except (pa.ArrowException, OSError) as exc:
        raise InputError(
            _("{name}: cannot read the Parquet data ({reason}).").format(
                name=path.name, reason=_first_line(exc)
            )
        ) from exc
    except MemoryError as exc:
        raise InputError(
            _(
                "{name}: the computer ran out of memory while reading it "
                "({size} of column data). Close other programs, or compute on a "
                "cluster (--cluster)."
            ).format(name=path.name, size=human_size(raw))
        ) from exc
    return to_pandas(plain_table(table, notes))


def _first_line(exc: BaseException) -> str:
    """pyarrow's messages run over many lines (a whole schema); the first says what failed."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return (lines[0] if lines else type(exc).__name__).rstrip(".:")


def check_names(path: Path, names: list[str]) -> None:
    """InputError when a column name occurs twice: the columns could not be told apart."""
    seen: dict[str, int] = {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
    dupes = [name for name, n in seen.items() if n > 1]
    if dupes:
        shown = ", ".join(f"{name!r} ({seen[name]} times)" for name in dupes[:5])
        raise InputError(
            _(
                "{name}: several columns have the same name: {shown}. Rename them with the "
                "program that wrote the file, so that every column has a name of its own."
            ).format(name=path.name, shown=shown)
        )


def plain_table(table: Any, notes: list[str] | None = None) -> Any:
    """``table`` with every column of a type a table of records holds (numbers, texts, dates,
    true/false), so that the rest of tclose never meets a nested value or raw bytes:

    * a time-zone-aware timestamp becomes the local time of its zone (as people read it);
    * a date becomes a timestamp; a time of day, text (``12:30:00``); a duration, seconds;
    * a decimal becomes a float (a whole-number decimal: a whole number, or text when it is
      beyond 2^53, as the text readers keep such numbers);
    * bytes become text when they are UTF-8, else hexadecimal text;
    * a struct, list or map becomes its JSON text (one category per distinct value);
    * a half-precision float becomes a float, a column without type an empty column.

    Each change is described in ``notes``.
    """
    import pyarrow as pa

    columns = []
    for name, col in zip(table.column_names, table.columns, strict=True):
        columns.append(_plain_column(str(name), col, notes if notes is not None else []))
    return pa.table(columns, names=table.column_names)


def _plain_column(name: str, col: Any, notes: list[str]) -> Any:
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = col.type
    if isinstance(kind, pa.ExtensionType):
        return _plain_column(name, pa.chunked_array([c.storage for c in col.chunks],
                                                    type=kind.storage_type), notes)  # fmt: skip
    if pa.types.is_dictionary(kind):
        return _plain_column(name, col.cast(kind.value_type), notes)
    if (pa.types.is_timestamp(kind) or pa.types.is_date(kind)) and not _in_ns_range(col):
        notes.append(
            _(
                "Column '{name}' holds dates before 1678 or after 2261, which tclose cannot "
                "compute with; they were read as text."
            ).format(name=name)
        )
        return _iso_text(col)
    if pa.types.is_timestamp(kind) and kind.tz is not None:
        notes.append(
            _(
                "Column '{name}' holds times with the time zone {zone}; they were read as "
                "local times of that zone."
            ).format(name=name, zone=kind.tz)
        )
        return pc.local_timestamp(col)
    if pa.types.is_time(kind):
        notes.append(
            _("Column '{name}' holds times of day; they were read as text (12:30:00).").format(
                name=name
            )
        )
        return pa.array([None if v is None else v.isoformat() for v in col.to_pylist()],
                        type=pa.string())  # fmt: skip
    if pa.types.is_duration(kind):
        per_second = {"s": 1, "ms": 1e3, "us": 1e6, "ns": 1e9}[kind.unit]
        notes.append(
            _("Column '{name}' holds durations; they were read as seconds.").format(name=name)
        )
        return pc.divide(col.cast(pa.int64()).cast(pa.float64()), per_second)
    if pa.types.is_decimal(kind):
        return _plain_decimal(name, col, notes)
    if pa.types.is_integer(kind) and _inexact_integers(col):
        notes.append(_(BEYOND_64_BITS).format(name=name))
        return col.cast(pa.string())
    if pa.types.is_float16(kind):
        return col.cast(pa.float32())
    if pa.types.is_null(kind):
        return col.cast(pa.float64())
    if _is_binary(kind):
        try:
            return col.cast(pa.string())
        except pa.ArrowInvalid:
            notes.append(
                _(
                    "Column '{name}' holds bytes that are not text; they were read as "
                    "hexadecimal text."
                ).format(name=name)
            )
            values = [None if v is None else v.hex() for v in col.to_pylist()]
            return pa.array(values, type=pa.string())
    if _is_nested(kind):
        notes.append(
            _(
                "Column '{name}' holds nested values ({kind}); each was read as its JSON text."
            ).format(name=name, kind=_kind_name(kind))
        )
        values = [None if v is None else _json_text(v) for v in col.to_pylist()]
        return pa.array(values, type=pa.string())
    return col


#: the dates a pandas timestamp (nanoseconds) holds, with a day to spare at each end
_NS_RANGE = (dt.datetime(1677, 9, 23), dt.datetime(2262, 4, 10))


def _in_ns_range(col: Any) -> bool:
    """Whether every date or time of ``col`` lies where nanosecond timestamps reach (the
    range every date of tclose is computed in, as in the other readers)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    wide = col.cast(pa.timestamp("us", tz=getattr(col.type, "tz", None)))
    low, high = (v.as_py() for v in pc.min_max(wide).values())
    if low is None:
        return True
    low, high = low.replace(tzinfo=None), high.replace(tzinfo=None)
    return _NS_RANGE[0] <= low and high <= _NS_RANGE[1]


def _iso_text(col: Any) -> Any:
    import pyarrow as pa

    def text(v: Any) -> str | None:
        if v is None:
            return None
        return v.isoformat(sep=" ") if isinstance(v, dt.datetime) else v.isoformat()

    return pa.array([text(v) for v in col.to_pylist()], type=pa.string())


def _inexact_integers(col: Any) -> bool:
    """Whether pandas would turn the integers into floats that drop digits: some beyond 2^53
    with empty cells (a float column), or beyond what int64 holds."""
    import pyarrow.compute as pc

    low, high = (v.as_py() for v in pc.min_max(col).values())
    if low is None:
        return False
    if high > 2**63 - 1:
        return True
    return max(abs(low), abs(high)) > 2**53 and col.null_count > 0


def _is_binary(kind: Any) -> bool:
    import pyarrow as pa

    checks = ("is_binary", "is_large_binary", "is_fixed_size_binary", "is_binary_view")
    return any(getattr(pa.types, check, lambda _: False)(kind) for check in checks)


def _is_nested(kind: Any) -> bool:
    import pyarrow as pa

    return pa.types.is_nested(kind) or pa.types.is_union(kind)


def _kind_name(kind: Any) -> str:
    """What a nested column holds, in the reader's words."""
    import pyarrow as pa

    if pa.types.is_struct(kind):
        return _("records of fields")
    if pa.types.is_map(kind):
        return _("maps of keys to values")
    if pa.types.is_union(kind):
        return _("values of several types")
    return _("lists")


def _json_text(value: Any) -> str:
    if isinstance(value, list) and value and all(isinstance(v, tuple) and len(v) == 2
                                                 for v in value):  # fmt: skip
        value = {str(k): v for k, v in value}  # a map arrives as (key, value) pairs
    return json.dumps(value, ensure_ascii=False, default=str, sort_keys=False)


def _plain_decimal(name: str, col: Any, notes: list[str]) -> Any:
    import pyarrow as pa

    if col.type.scale == 0:
        try:
            whole = col.cast(pa.int64())
        except pa.ArrowInvalid:
            whole = None
        if whole is not None:
            import pyarrow.compute as pc

            big = pc.max(pc.abs(whole)).as_py()
            if big is None or big <= 2**53:
                return whole
        notes.append(
            _(
                "Column '{name}' holds whole numbers too large for exact arithmetic; they were "
                "read as text, digit for digit."
            ).format(name=name)
        )
        return col.cast(pa.string())
    return col.cast(pa.float64())


def parquet_pieces(path: str | Path) -> tuple[list[tuple[Path, int]], list[str]]:
    """The row groups of a Parquet file or dataset folder, as (file, index) in order, and the
    column names (first seen first); the names are checked on the way."""
    path = Path(path)
    need_pyarrow(path)
    import pyarrow as pa
    import pyarrow.parquet as pq

    pieces: list[tuple[Path, int]] = []
    names: list[str] = []
    for f in parquet_files(path):
        try:
            meta = pq.ParquetFile(f).metadata
        except (pa.ArrowException, OSError) as exc:
            raise InputError(
                _("{name} is not a readable Parquet file ({first_line}).").format(
                    name=f.name, first_line=_first_line(exc)
                )
            ) from exc
        own = meta.schema.to_arrow_schema().names
        check_names(f, own)
        names += [n for n in own if n not in names]
        pieces += [(f, i) for i in range(meta.num_row_groups)]
    return pieces, names


def read_piece(file: Path, index: int, names: list[str], columns: list[str] | None) -> pd.DataFrame:
    """One row group as the frame :func:`read_parquet` would give for its rows (columns a
    part lacks are empty): what a cluster worker reads."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    wanted = names if columns is None else list(columns)
    try:
        handle = pq.ParquetFile(file)
        own = handle.schema_arrow.names
        table = handle.read_row_group(index, columns=[c for c in wanted if c in own])
    except (pa.ArrowException, OSError) as exc:
        raise InputError(
            _("{name}: cannot read the Parquet data ({first_line}).").format(
                name=file.name, first_line=_first_line(exc)
            )
        ) from exc
    frame = to_pandas(plain_table(_decoded(table)))
    return frame.reindex(columns=wanted)


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


def read_file(job: ReadJob) -> pd.DataFrame:
    """The Parquet format's reader (:data:`engine.io.formats.FORMATS`)."""
    from engine.io.codebook import sidecar_codebook

    job.info.format = "parquet"
    data = read_parquet(job.path, memory_limit=job.memory_limit, notes=job.info.notes)
    job.info.codebook = sidecar_codebook(read_metadata(job.path))
    return data


def write_file(job: Any) -> None:
    """The Parquet format's writer: the table, and the published metadata (with the
    codebook, when the release has labels) inside the file's schema."""
    meta = dict(job.metadata)
    if job.codebook:
        meta["codebook"] = job.codebook.to_dict()
    write_parquet(job.table, job.target, meta)


def to_pandas(table: Any) -> pd.DataFrame:
    """A pyarrow table as the frame every reader returns (categories decoded, dates as
    timestamps)."""
    return _decoded(table).to_pandas(date_as_object=False).reset_index(drop=True)


def write_parquet(table: pd.DataFrame, tmp: Path, metadata: dict[str, Any] | None = None) -> None:
    """Write ``table`` to ``tmp`` (zstd-compressed) with ``metadata`` as JSON under ``tclose``."""
    need_pyarrow(tmp)
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        arrow = pa.Table.from_pandas(_plain_columns(table), preserve_index=False)
    except (pa.ArrowException, TypeError, ValueError) as exc:
        raise InputError(
            _("{name}: the table cannot be stored as Parquet ({exc}).").format(
                name=tmp.name, exc=exc
            )
        ) from exc
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
