"""Building blocks of the hostile corpus that are not files of a table: huge archives made
cheaply, a shared Dask cluster, and a server that is not a Dask scheduler.

Huge members (a 2 GB picture in a workbook, a gzip of 4 GiB) are never written out: deflate
packs a block of repeated bytes into about a kilobyte, and after a full flush the compressor
starts afresh, so one compressed block repeated N times is a valid stream of N blocks.  A
2 GB member thus takes 2 MB on disk and a fraction of a second to make.  Members nobody may
unpack carry a CRC of 0: a reader that unpacks them anyway fails with a damaged-file message,
which the cases do not accept.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import zlib
from pathlib import Path
from typing import Any

#: one mebibyte
MIB = 1 << 20


def raw_deflate(head: bytes, filler: bytes, repeats: int, tail: bytes = b"") -> bytes:
    """A raw deflate stream of ``head + filler * repeats + tail``, made in milliseconds."""
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = comp.compress(head) + comp.flush(zlib.Z_FULL_FLUSH)
    block = comp.compress(filler) + comp.flush(zlib.Z_FULL_FLUSH)
    last = comp.compress(tail) + comp.flush(zlib.Z_FINISH)
    return first + block * repeats + last


def crc_of(head: bytes, filler: bytes, repeats: int, tail: bytes = b"") -> int:
    crc = zlib.crc32(head)
    for _ in range(repeats):
        crc = zlib.crc32(filler, crc)
    return zlib.crc32(tail, crc)


#: a member of :func:`write_zip`: name, raw deflate bytes, CRC-32, unpacked size
Member = tuple[str, bytes, int, int]


def member(name: str, data: bytes) -> Member:
    """An ordinary member (its bytes compressed here)."""
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    return name, comp.compress(data) + comp.flush(), zlib.crc32(data), len(data)


def write_zip(path: Path, members: list[Member]) -> Path:
    """A ZIP archive of already compressed members (sizes below 4 GiB, no ZIP64)."""
    date = (0 << 9) | (1 << 5) | 1  # 1980-01-01
    central = []
    with path.open("wb") as fh:
        for name, data, crc, size in members:
            offset = fh.tell()
            raw = name.encode("utf-8")
            fh.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, date, crc, len(data),
                                 size, len(raw), 0) + raw + data)  # fmt: skip
            central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, date,
                                       crc, len(data), size, len(raw), 0, 0, 0, 0, 0, offset)
                           + raw)  # fmt: skip
        start = fh.tell()
        directory = b"".join(central)
        fh.write(directory)
        fh.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members),
                             len(directory), start, 0))  # fmt: skip
    return path


def members_of(path: Path) -> list[Member]:
    """The members of an ordinary archive (a workbook openpyxl saved), recompressed."""
    import zipfile

    with zipfile.ZipFile(path) as archive:
        return [member(name, archive.read(name)) for name in archive.namelist()]


def write_gzip(path: Path, head: bytes, filler: bytes, repeats: int) -> Path:
    """A gzip file of ``head + filler * repeats`` whose size trailer says the true size
    modulo 4 GiB (as gzip writes it) and whose CRC is 0 (nobody may unpack it all)."""
    size = len(head) + len(filler) * repeats
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    body = raw_deflate(head, filler, repeats)
    path.write_bytes(header + body + struct.pack("<II", 0, size % (1 << 32)))
    return path


# -- servers ---------------------------------------------------------------------------------

_CLUSTER: Any = None
_FAKE: str | None = None
#: the greeting servers started by this process (socket, thread), stopped by stop_servers()
_LISTENING: list[tuple[socket.socket, threading.Thread]] = []


def scheduler_address() -> str:
    """The address of a local Dask cluster (one worker process) shared by every cluster case
    of a test file: started on first use, stopped by ``stop_servers`` when the file ends."""
    global _CLUSTER
    if _CLUSTER is None:
        from distributed import LocalCluster

        _CLUSTER = LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        )
    return _CLUSTER.scheduler.address


def greeting_server(greeting: bytes | None, keep_open: bool = False) -> str:
    """A local server that sends ``greeting`` to every connection (None: stays silent), then
    closes it, or with ``keep_open`` leaves it open until ``stop_servers``."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:  # stop_servers shut the socket
                break
            if greeting is not None:
                with contextlib.suppress(OSError):  # the client may have gone already
                    conn.sendall(greeting)
            if keep_open:
                held.append(conn)
            else:
                conn.close()
        for conn in held:
            conn.close()

    thread = threading.Thread(target=serve, daemon=True, name="greeting server")
    thread.start()
    _LISTENING.append((server, thread))
    return f"tcp://127.0.0.1:{server.getsockname()[1]}"


def not_a_scheduler_address() -> str:
    """A local server that greets every connection with an SSH banner (as a mistyped port
    does), where a Dask client once read an 8-byte length of 3 EiB."""
    global _FAKE
    if _FAKE is None:
        _FAKE = greeting_server(b"SSH-2.0-OpenSSH_9.6\r\n" + b"\xff" * 64)
    return _FAKE


def stop_servers() -> None:
    """Stop the shared Dask cluster and every greeting server started in this process.

    A test file's servers end with the file (``tests/conftest.py``): a cluster's event loop
    left running beside later files' tests, GUI tests among them, runs Python's garbage
    collector in its own thread whenever it allocates."""
    global _CLUSTER, _FAKE
    if _CLUSTER is not None:
        _CLUSTER.close()
        _CLUSTER = None
    while _LISTENING:
        server, thread = _LISTENING.pop()
        with contextlib.suppress(OSError):
            server.shutdown(socket.SHUT_RDWR)  # wakes the thread waiting in accept()
        server.close()
        thread.join()
    _FAKE = None
