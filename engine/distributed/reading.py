"""How a cluster reads its input: with the readers of one machine, part by part where it can.

A release computed on a cluster must start from the same table as one computed here, and a
file this computer refuses (binary data named ``.csv``, a damaged workbook) must be refused
there too, with the same sentence.  So every file is read by :mod:`engine.io`:

* **Parquet** (a file or a dataset folder): each row group is read by a worker with
  :func:`engine.io.parquet.read_piece`, which makes the columns plain exactly as
  :func:`~engine.io.parquet.read_parquet` does; the names are checked here first.  The file
  must be where the workers can read it (a shared disk), as with any Dask input.
* **A large text file** (:data:`BLOCKWISE_BYTES` or more, not compressed, in UTF-8 or a
  one-byte encoding): its layout (encoding, separator, title lines, header, decimal mark) is
  found here by the sniffing of :mod:`engine.io.sniff` on its first lines, then the workers
  read blocks of :data:`BLOCK_BYTES`, each checked as the one-machine reader checks a file
  (NUL bytes are binary data; a byte the encoding does not have names its line).
* **Everything else** (workbooks, SPSS/Stata, gzip, UTF-16/32 text, smaller text files):
  read here by :func:`engine.io.read_table` with the same :class:`~engine.io.ReadOptions`,
  then handed to the workers in parts of :data:`PART_ROWS` records.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.distributed.cluster import speaking
from engine.errors import InputError
from engine.i18n import _
from engine.io.info import ReadOptions
from engine.io.textblocks import TextLayout, read_text_block, text_layout

#: text files at least this large are read in blocks by the workers
BLOCKWISE_BYTES = 512 << 20
#: bytes per block of a text file read by the workers
BLOCK_BYTES = 64 << 20
#: records per part when a table read on this computer is handed to the workers
PART_ROWS = 500_000


def as_options(options: ReadOptions | str | None) -> ReadOptions:
    """The reading settings; a bare text is a separator (the older ``sep`` keyword)."""
    if isinstance(options, ReadOptions):
        return options
    return ReadOptions(sep=options or None)


def read_parts(
    client: Any,
    path: str | Path,
    columns: Sequence[str] | None,
    options: ReadOptions | str | None = None,
) -> tuple[list[Any], list[str]]:
    """Futures of the file's partitions (pandas frames, in file order) and its column names;
    with ``columns`` the partitions hold those of them the file has."""
    from engine.io.files import open_checked
    from engine.io.parquet import PARQUET_MAGIC, is_parquet

    options = as_options(options)
    path = Path(path)
    if path.is_dir() and is_parquet(path):
        return _parquet_parts(client, path, columns)
    path, head, size = open_checked(path)
    if head.startswith(PARQUET_MAGIC):
        return _parquet_parts(client, path, columns)
    layout = text_layout(path, head, options) if size >= BLOCKWISE_BYTES else None
    if layout is not None:
        return _text_parts(client, layout, path, columns)
    return _parts_read_here(client, path, options, columns)


def _select(names: list[str], columns: Sequence[str] | None) -> list[str]:
    """The ``columns`` the file has (all of them for None): each stage checks the names it
    needs on the file's names first, in its own words."""
    return names if columns is None else [c for c in columns if c in names]


def _parquet_parts(client: Any, path: Path, columns: Sequence[str] | None):
    from engine.io.parquet import parquet_pieces, read_piece

    pieces, names = parquet_pieces(path)
    wanted = _select(names, columns)
    if not pieces:
        raise InputError(_("{name} holds no records.").format(name=path.name))
    read = speaking(read_piece)
    futures = [client.submit(read, f, i, names, wanted, pure=False) for f, i in pieces]
    return futures, names


def _parts_read_here(client: Any, path: Path, options: ReadOptions, columns):
    from engine.io import read_table

    data = read_table(path, options=options).data
    names = [str(c) for c in data.columns]
    data.columns = names
    data = data[_select(names, columns)]
    n_parts = max(1, -(-len(data) // PART_ROWS))
    frames = [
        data.iloc[i * PART_ROWS : (i + 1) * PART_ROWS].reset_index(drop=True)
        for i in range(n_parts)
    ]
    # each part travels inside its task, not scattered: a worker lost later gets its part
    # computed again from the task, where scattered data would be gone with it
    return [client.submit(_part, frame, pure=False) for frame in frames], names


def _part(frame: Any) -> Any:
    return frame


def _text_parts(client: Any, layout: TextLayout, path: Path, columns: Sequence[str] | None):
    import dask
    from dask.bytes import read_bytes

    names = list(layout.names)
    wanted = _select(names, columns)
    _sample, blocks = read_bytes(str(path), delimiter=b"\n", blocksize=BLOCK_BYTES, sample=False)
    tasks = [
        dask.delayed(speaking(read_text_block))(block, layout, i == 0, wanted)
        for i, block in enumerate(blocks[0])
    ]
    return client.compute(tasks), names
