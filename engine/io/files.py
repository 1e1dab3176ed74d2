"""File checks for reading: readable paths, the memory budget, encrypted Office files.

Every problem becomes an :class:`~engine.errors.InputError` whose message names the file and
says what to do, so the GUI and the command line can show it as it is.  (Writing is
:mod:`engine.io.outputs`.)
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from pathlib import Path

from engine.errors import InputError
from engine.i18n import N_, _
from engine.progress import NO_TASK, Task
from engine.text import fixed

#: first bytes of a ZIP archive (.xlsx, .xlsm, .ods are ZIP archives)
ZIP_MAGIC = b"PK\x03\x04"
#: first bytes of an OLE compound file (.xls, and any password-protected Office file)
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
#: name of the stream that an encrypted OOXML package keeps inside its OLE container
_ENCRYPTION_INFO = "EncryptionInfo".encode("utf-16-le")


#: a size in each unit, as the reader's language writes it (French says Ko, Mo, Go)
_SIZE_UNITS = (N_("{size} bytes"), N_("{size} KB"), N_("{size} MB"), N_("{size} GB"))


def human_size(n_bytes: float) -> str:
    """``1536`` -> ``"1.5 KB"`` ("1,5 Ko" in French): sizes in messages are for people."""
    size = float(n_bytes)
    for places, unit in enumerate(_SIZE_UNITS):
        if size < 1024 or unit == _SIZE_UNITS[-1]:
            return _(unit).format(size=fixed(size, min(places, 1)))
        size /= 1024
    raise AssertionError("the last unit always returns")  # pragma: no cover


def special_kind(mode: int) -> str:
    """What a file that is not a regular file is, in words ("" for a regular file)."""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return ""
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("a device")
    if stat.S_ISFIFO(mode):
        return _("a pipe")
    if stat.S_ISSOCK(mode):
        return _("a socket")
    return _("a special file")


def check_readable(path: Path) -> int:
    """Size in bytes of ``path``, or an InputError saying why it cannot be read."""
    try:
        if not path.exists():
            raise InputError(
                _("{path}: no such file. Check the name and the folder, then try again.").format(
                    path=path
                )
            )
        if path.is_dir():
            raise InputError(
                _("{path} is a folder, not a file. Choose the data file inside it.").format(
                    path=path
                )
            )
        kind = special_kind(path.stat().st_mode)
        if kind:  # read before opening: a pipe blocks, /dev/zero never ends
            raise InputError(
                _(
                    "{path} is {kind}, not a file of data; tclose reads a table from a file "
                    "(save the data to a file first)."
                ).format(path=path, kind=kind)
            )
        with path.open("rb") as fh:
            fh.read(1)
        return path.stat().st_size
    except PermissionError as exc:
        raise InputError(
            _(
                "{path}: cannot be read (permission denied). Copy it to a folder you own, "
                "or ask its owner for read access."
            ).format(path=path)
        ) from exc
    except OSError as exc:
        raise InputError(
            _("{path}: cannot be read ({reason}).").format(path=path, reason=exc.strerror or exc)
        ) from exc


def available_memory() -> int | None:
    """Bytes of memory the process can still use, or None when the system does not say.

    Linux: ``MemAvailable`` (free memory plus reclaimable cache); other POSIX systems:
    ``os.sysconf`` free pages; Windows: ``GlobalMemoryStatusEx``.  No extra dependency.
    """
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        try:
            import ctypes

            class _MemoryStatus(ctypes.Structure):
                _fields_ = [
                    ("dwLength", ctypes.c_ulong),
                    ("dwMemoryLoad", ctypes.c_ulong),
                    ("ullTotalPhys", ctypes.c_ulonglong),
                    ("ullAvailPhys", ctypes.c_ulonglong),
                    ("ullTotalPageFile", ctypes.c_ulonglong),
                    ("ullAvailPageFile", ctypes.c_ulonglong),
                    ("ullTotalVirtual", ctypes.c_ulonglong),
                    ("ullAvailVirtual", ctypes.c_ulonglong),
                    ("ullAvailExtendedVirtual", ctypes.c_ulonglong),
                ]

            status = _MemoryStatus()
            status.dwLength = ctypes.sizeof(_MemoryStatus)
            if ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):
                return int(status.ullAvailPhys)
        except (OSError, AttributeError):
            return None
        return None
    for pages in ("SC_AVPHYS_PAGES", "SC_PHYS_PAGES"):
        try:
            n_pages = os.sysconf(pages)
            page_size = os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            continue
        if n_pages > 0 and page_size > 0:
            return int(n_pages) * int(page_size)
    return None


def check_memory(path: Path, needed: int, limit: int | None = None) -> None:
    """Refuse early when reading ``path`` would need more memory than there is.

    ``needed`` is an estimate of the bytes the table takes once in memory; ``limit`` overrides
    the measured free memory (tests, or a user who wants a safety margin).
    """
    budget = memory_budget(limit)
    if budget is None or needed <= budget:
        return
    raise too_large(path, needed, budget)


def memory_budget(limit: int | None = None) -> int | None:
    """The bytes a read may take: ``limit`` when given, else the free memory (None: unknown)."""
    return available_memory() if limit is None else limit


def too_large(path: Path, needed: int, budget: int, *, more: bool = False) -> InputError:
    """The message for a file that needs ``needed`` bytes of memory where ``budget`` are
    free (``more``: at least that much, found while unpacking it)."""
    if more:
        text = _(
            "{name} is too large for the memory of this computer: reading it needs more than "
            "{needed}, and {budget} is available. Close other programs, "
            "or split the file (fewer rows or columns) and import the parts."
        )
    else:
        text = _(
            "{name} is too large for the memory of this computer: reading it needs about "
            "{needed}, and {budget} is available. Close other programs, "
            "or split the file (fewer rows or columns) and import the parts."
        )
    return InputError(
        text.format(name=path.name, needed=human_size(needed), budget=human_size(budget))
    )


def is_encrypted_office_file(head: bytes, path: Path) -> bool:
    """True when ``path`` is a password-protected Office document.

    Encrypted .xlsx/.docx files are not ZIP archives but OLE containers holding an
    ``EncryptionInfo`` stream; its UTF-16 name is in the container's directory.
    """
    if not head.startswith(OLE_MAGIC):
        return False
    try:
        with path.open("rb") as fh:
            while chunk := fh.read(1 << 22):
                if _ENCRYPTION_INFO in chunk:
                    return True
    except OSError:
        return False
    return False


def open_checked(path: str | Path) -> tuple[Path, bytes, int]:
    """``(path, first bytes, size)`` of a readable file, or the InputError saying why not."""
    path = Path(path)
    size = check_readable(path)
    with path.open("rb") as fh:
        head = fh.read(4096)
    if size == 0:
        raise InputError(
            _("{name} is empty (0 bytes): there is nothing to import.").format(name=path.name)
        )
    if is_encrypted_office_file(head, path):
        raise InputError(
            _(
                "{name} is protected with a password (encrypted), so it cannot be read. Open "
                "it in Excel, remove the password (File > Info > Protect Workbook) and save a "
                "copy, then import the copy."
            ).format(name=path.name)
        )
    return path, head, size


def file_sha256(path: str | Path, *, task: Task = NO_TASK) -> str:
    """SHA-256 of a file's bytes, read in chunks (input files can be large)."""
    path = Path(path)
    try:
        size = path.stat().st_size
        digest = hashlib.sha256()
        done = 0
        with path.open("rb") as fh:
            while chunk := fh.read(1 << 20):
                digest.update(chunk)
                done += len(chunk)
                task.step(done / size if size else 1.0, _("Checking {name}").format(name=path.name))
    except OSError as err:
        raise InputError(
            _("{path}: cannot be read ({reason}).").format(path=path, reason=err.strerror or err)
        ) from err
    return digest.hexdigest()
