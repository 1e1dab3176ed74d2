"""The one way tclose writes files: checked before the run, staged, then committed together.

Every command writes one or more files (the release, its JSON metadata, the report, a
summary, a sweep table, a plot, a project).  They all go through here, so that the same
promises hold for each of them:

* **Checked first.**  :func:`check_outputs` is called before any work starts (the CLI right
  after parsing its arguments, the GUI before it enables Export): the folder exists and can
  be written, the name is valid and not too long, no output is the input (by any spelling,
  symbolic link or hard link) or another output of the same command, an existing file can be
  replaced (not read-only, not held open), and an existing JSON file that tclose did not write
  (a project file, someone else's data) is not replaced unless the caller allows it.
* **Staged beside the target.**  Each file is written to a short temporary name in its own
  folder (``.~tc`` and 6 characters, so a long target name is never pushed over the limit),
  and so are scratch files such as a workbook's spooled sheets.
* **All or none.**  Only when every file is complete are they renamed onto their targets.
  Should one rename fail (a file that Excel holds open on Windows), the ones already renamed
  are put back as they were.  A failure or a cancellation leaves nothing new behind and the
  old files intact, and its message names the target, never a temporary file.
* **Nothing left for long.**  A run killed outright (``kill -9``, a power cut) cannot clean
  up; the next run that writes into the folder removes what it left (:func:`remove_stale`:
  tclose's own temporary names only, a day old).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import secrets
import shutil
import signal
import stat
import string
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import InputError
from engine.i18n import N_, _

#: first characters of every temporary or scratch file (hidden on macOS and Linux)
TEMP_PREFIX = ".~tc"
_TEMP_ALPHABET = string.ascii_lowercase + string.digits
_TEMP_RANDOM = 6
#: longest file name (one path component) most file systems accept, in bytes (POSIX) or
#: UTF-16 units (Windows)
NAME_MAX = 255
#: longest path Windows accepts without the long-path setting
WINDOWS_PATH_MAX = 259
#: an existing JSON file larger than this is not opened to see whether tclose wrote it
_JSON_PEEK_LIMIT = 64 << 20
_WINDOWS_RESERVED = frozenset(
    {"con", "prn", "aux", "nul"}
    | {f"com{i}" for i in range(1, 10)}
    | {f"lpt{i}" for i in range(1, 10)}
)
_WINDOWS_FORBIDDEN = set('<>:"/\\|?*') | {chr(i) for i in range(32)}

#: what each kind of output is called in messages
KIND_NAMES = {
    "release": N_("the release"),
    "metadata": N_("the release's metadata file (named after the release)"),
    "report": N_("the report"),
    "summary": N_("the summary"),
    "review": N_("the review record"),
    "project": N_("the project file"),
    "table": N_("the table"),
    "plot": N_("the plot"),
    "file": N_("the output"),
}
#: kinds that are tclose's own JSON run output: each may replace a file of the others
_RUN_JSON = frozenset({"metadata", "summary", "review"})


class OutputError(InputError):
    """An output path cannot be written as asked; ``path`` names it, ``reason`` says why.

    ``reason`` is one of ``"folder"``, ``"name"``, ``"input"``, ``"duplicate"``,
    ``"not_ours"`` (an existing JSON file tclose did not write: the GUI may ask and retry
    with ``replace_foreign=True``), ``"locked"``, ``"read_only"``, ``"write"``.
    """

    def __init__(self, message: str, *, path: Path, reason: str) -> None:
        super().__init__(message)
        self.path = path
        self.reason = reason

    @classmethod
    def about(cls, path: Path, reason: str, message: str, **fields: object) -> OutputError:
        """The error about ``path``: ``message`` (translated, naming the file as ``{path}``)
        with its other ``fields`` filled in, so that the file a message names is the one the
        error carries."""
        return cls(message.format(path=path, **fields), path=path, reason=reason)


@dataclass(frozen=True)
class Output:
    """One file a command will write.

    ``kind`` names it in messages and decides which existing JSON files it may replace;
    ``replace_foreign`` allows replacing an existing JSON file that tclose did not write.
    """

    path: Path
    kind: str = "file"
    replace_foreign: bool = False

    @property
    def label(self) -> str:
        """What the output is called in messages, in the reader's language."""
        return _(KIND_NAMES.get(self.kind, KIND_NAMES["file"]))


def as_outputs(items: Iterable[Output | str | Path]) -> list[Output]:
    return [item if isinstance(item, Output) else Output(Path(item)) for item in items]


# -- names and paths ---------------------------------------------------------------------------


def name_problem(name: str, *, windows: bool | None = None) -> str:
    """Why ``name`` cannot be a file name here ("" when it can).

    The Windows rules (reserved device names, ``<>:"|?*``, a trailing dot or space) apply on
    Windows; ``windows=True`` applies them anywhere (for tests and for files meant to travel).
    """
    windows = sys.platform == "win32" if windows is None else windows
    if not name or name in {".", ".."}:
        return _("it names no file")
    if "\x00" in name:
        return _("it contains a NUL character")
    size = len(name.encode("utf-16-le")) // 2 if windows else len(os.fsencode(name))
    if size > NAME_MAX:
        return _(
            "the file name is too long ({size} characters; at most {name_max} are allowed)"
        ).format(size=size, name_max=NAME_MAX)
    if windows:
        bad = sorted({c for c in name if c in _WINDOWS_FORBIDDEN})
        if bad:
            shown = " ".join(repr(c)[1:-1] if c.isprintable() else f"\\x{ord(c):02x}" for c in bad)
            return _("Windows does not allow these characters in a file name: {characters}").format(
                characters=shown
            )
        if name[-1] in ". ":
            return _("Windows does not allow a file name that ends with a dot or a space")
        if name.split(".")[0].strip().casefold() in _WINDOWS_RESERVED:
            return _("'{device}' is a device name that Windows reserves").format(
                device=name.split(".")[0]
            )
    return ""


def _windows_long_paths() -> bool:  # pragma: no cover - exercised on Windows only
    """Whether Windows was set to accept paths beyond 260 characters (LongPathsEnabled)."""
    try:
        import winreg

        key = winreg.OpenKey(
            winreg.HKEY_LOCAL_MACHINE, r"SYSTEM\CurrentControlSet\Control\FileSystem"
        )
        with key:
            return bool(winreg.QueryValueEx(key, "LongPathsEnabled")[0])
    except OSError:
        return False


def _path_max(folder: Path) -> int:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        return 32_766 if _windows_long_paths() else WINDOWS_PATH_MAX
    try:
        return int(os.pathconf(folder, "PC_PATH_MAX"))
    except (OSError, ValueError, AttributeError):
        return 4096


def _name_max(folder: Path) -> int:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        return NAME_MAX
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):
        return NAME_MAX


def _final_path(path: Path) -> Path:
    """Where the bytes really go: absolute, with symbolic links followed (a link is written
    through, not replaced by a file)."""
    path = Path(os.path.abspath(path))
    with contextlib.suppress(OSError, RuntimeError):
        if path.is_symlink():
            return path.resolve()
    return path


def _same_existing(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _spelling_key(path: Path) -> str:
    """Equal for two spellings of one path on any file system we meet (case-insensitive
    ones included: refusing ``Out.csv`` next to ``out.csv`` costs nothing)."""
    real = os.path.realpath(path)
    return os.path.normcase(real).casefold()


# -- what an existing JSON file is --------------------------------------------------------------


def json_kind(path: Path) -> str:
    """``"project"``, ``"run"`` (a release's metadata or a run summary written by tclose) or
    ``"other"`` for an existing JSON file."""
    try:
        if path.stat().st_size > _JSON_PEEK_LIMIT:
            return "other"
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return "other"
    if not isinstance(doc, dict):
        return "other"
    if doc.get("format") == "tclose-project":
        return "project"
    if str(doc.get("software", "")).startswith("tclose"):
        return "run"
    return "other"


def _may_replace_json(output: Output, existing: Path) -> str:
    """Why ``output`` must not replace the existing JSON file ("" when it may)."""
    if output.replace_foreign:
        return ""
    kind = json_kind(existing)
    if kind == "run" and output.kind in _RUN_JSON | {"project"}:
        return ""
    if kind == "project" and output.kind == "project":
        return ""
    if kind == "project":
        said = _(
            "{path}: {label} would replace a tclose project file; it was left alone. Choose "
            "another name, or move that file away first."
        )
    else:
        said = _(
            "{path}: {label} would replace a JSON file tclose did not write; it was left alone. "
            "Choose another name, or move that file away first."
        )
    return said.format(path=output.path, label=output.label)


# -- checking ----------------------------------------------------------------------------------


def _probe_folder(folder: Path, shown: Path) -> None:
    """Create and remove a temporary file in ``folder``: the only test of "can I write here"
    that every system answers truthfully (``os.access`` does not on Windows shares)."""
    made: list[Path] = []  # recorded before the file exists: a signal never leaves it
    with _held_signals():
        try:
            try:
                fd, _ = _create_temp(folder, made)
            except OSError as exc:
                raise _os_error(shown, exc, where=folder) from exc
            os.close(fd)
        finally:
            for path in made:
                with contextlib.suppress(OSError):
                    path.unlink()


def _check_existing(output: Output, final: Path) -> None:
    if final.is_dir():
        raise OutputError.about(
            output.path,
            "name",
            _("{path} is a folder; {label} needs a file name."),
            label=output.label,
        )
    if not final.is_file():
        raise OutputError.about(
            output.path,
            "name",
            _("{path} exists and is not an ordinary file; choose another name."),
        )
    if final.suffix.lower() == ".json":
        problem = _may_replace_json(output, final)
        if problem:
            raise OutputError(problem, path=output.path, reason="not_ours")
    if not os.access(final, os.W_OK):
        raise OutputError.about(
            output.path,
            "read_only",
            _(
                "{path} is read-only, so it cannot be replaced. Choose another name, or make it "
                "writable first."
            ),
        )
    try:
        # opening for writing (without writing) is how Windows tells that another program
        # holds the file open; the file is not changed
        with open(final, "r+b"):
            pass
    except OSError as exc:
        raise OutputError.about(
            output.path,
            "locked",
            _(
                "{path} is open in another program (such as Excel), so it cannot be replaced. "
                "Close it there and try again, or choose another name."
            ),
        ) from exc


def _within(path: Path, folder: Path) -> bool:
    """Whether ``path`` lies inside the existing ``folder``, as the file system sees it: one of
    the folders above ``path`` is ``folder`` (by any spelling or link)."""
    return any(above.exists() and _same_existing(above, folder) for above in path.parents)


def check_not_input(output: Output, inputs: Iterable[str | Path | None]) -> None:
    """Refuse ``output`` when it is one of ``inputs`` or lies inside an input folder (the
    part of :func:`check_outputs` that a caller writing a folder of its own needs)."""
    final = _final_path(output.path)
    for source in inputs:
        if source is not None:
            _check_not_input(output, final, Path(source))


def _check_not_input(output: Output, final: Path, source: Path) -> None:
    """Refuse an output that is the input (by any spelling or link), or that lies inside an
    input folder (a Parquet dataset: a file written there would become part of the data)."""
    # the file system judges, not the spelling: on a case-sensitive disk IN.csv beside
    # in.csv is another file; on a case-insensitive one it exists and is the same file
    if source.exists():
        same = final.exists() and _same_existing(source, final)
    else:
        same = _spelling_key(source) == _spelling_key(final)
    if same:
        via = "" if os.path.abspath(source) == str(final) else f" {source}"
        if source.is_dir():
            said = _(
                "{path}: refusing to overwrite the input folder{via}; tclose never overwrites "
                "its input. Choose another name for {label}."
            )
        else:
            said = _(
                "{path}: refusing to overwrite the input file{via}; tclose never overwrites its "
                "input. Choose another name for {label}."
            )
        raise OutputError.about(output.path, "input", said, via=via, label=output.label)
    if source.is_dir() and _within(final, source):
        raise OutputError.about(
            output.path,
            "input",
            _(
                "{path}: refusing to write inside the input folder {source}: a file there would "
                "become part of the data read from it. Choose another folder for {label}."
            ),
            source=source,
            label=output.label,
        )


def check_outputs(
    outputs: Iterable[Output | str | Path],
    *,
    inputs: Iterable[str | Path | None] = (),
) -> list[Output]:
    """Check every output path before a run starts; returns the outputs, or raises
    :class:`OutputError` with a one-line message naming the path and what to do.

    Call it up front (before reading or computing anything) so that a bad ``--report`` or
    ``--summary`` path fails in a second, not after the release has been computed; the
    writer checks again when it commits, since files can change during a long run.
    """
    items = as_outputs(outputs)
    sources = [Path(p) for p in inputs if p is not None]
    seen: list[tuple[Output, Path]] = []
    probed: set[str] = set()
    for output in items:
        shown = output.path
        problem = name_problem(shown.name)
        if problem:
            raise OutputError.about(shown, "name", _("{path}: {problem}."), problem=problem)
        final = _final_path(shown)
        folder = final.parent
        if not folder.is_dir():
            if folder.exists():
                said = _("{path}: {folder} is not a folder. Choose another folder.")
            else:
                said = _(
                    "{path}: the folder {folder} does not exist. Create it or choose another "
                    "folder."
                )
            raise OutputError.about(shown, "folder", said, folder=folder)
        if len(os.fsencode(final.name)) > _name_max(folder):
            raise OutputError.about(
                shown,
                "name",
                _(
                    "{path}: the file name is too long for this disk ({value} characters; at "
                    "most {name_max}). Choose a shorter name."
                ),
                value=len(final.name),
                name_max=_name_max(folder),
            )
        if len(str(final)) > _path_max(folder):
            raise OutputError.about(
                shown,
                "name",
                _(
                    "{path}: the path is too long ({value} characters; this system allows "
                    "{path_max}). Choose a shorter name or a folder nearer the top of the disk."
                ),
                value=len(str(final)),
                path_max=_path_max(folder),
            )
        for source in sources:
            _check_not_input(output, final, source)
        for other, other_final in seen:
            same = _spelling_key(other_final) == _spelling_key(final) or (
                final.exists() and other_final.exists() and _same_existing(other_final, final)
            )
            if same:
                raise OutputError.about(
                    shown,
                    "duplicate",
                    _(
                        "{path}: {label} and {label2} would be the same file; choose different "
                        "names."
                    ),
                    label=output.label,
                    label2=other.label,
                )
        if final.exists() or final.is_symlink():
            _check_existing(output, final)
        key = _spelling_key(folder)
        if key not in probed:
            _probe_folder(folder, shown)
            probed.add(key)
        seen.append((output, final))
    return items


# -- staging and committing -------------------------------------------------------------------


#: the signals that stop a run (Ctrl+C, ``kill``, Windows' Ctrl+Break): held in a step
_STOPS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGBREAK") if hasattr(signal, name)
)


@contextlib.contextmanager
def _held_signals() -> Iterator[None]:
    """Within the block a stop signal is held, then acted on (its handler raises) at the end.

    A step that makes a file and records it, or renames a file and records that it did, must
    not be cut between the two: the record is what the clean-up and the roll-back read, so a
    signal there would leave a staged file, or a committed one, that nothing removes.  The
    steps are short (system calls), so the signal is late by microseconds.  Only the main
    thread has signal handlers; elsewhere the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous: dict[int, object] = {}
    try:
        for signum in _STOPS:
            if signal.getsignal(signum) is not None:  # None: a handler not set from Python
                previous[signum] = signal.signal(signum, lambda n, _f: held.append(n))
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)  # type: ignore[arg-type]
        for signum in held[:1]:  # one stop is enough; it raises here, after the step
            handler = previous[signum]
            if callable(handler):
                handler(signum, None)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(signum)  # the process ends as it would have


def _create_temp(folder: Path, created: list[Path] | None = None) -> tuple[int, str]:
    """A new, empty, private file ``.~tcXXXXXX`` in ``folder``: ``(fd, path)``.

    With ``created``, the path is added to it *before* the file exists, so that an interruption
    at any moment (SIGTERM and Ctrl+C arrive between any two steps) still finds and removes it.
    """
    for _attempt in range(100):
        name = TEMP_PREFIX + "".join(
            secrets.choice(_TEMP_ALPHABET) for _char in range(_TEMP_RANDOM)
        )
        path = os.path.join(folder, name)
        if created is not None:
            created.append(Path(path))
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                         0o600)  # fmt: skip
        except FileExistsError:
            if created is not None:
                created.pop()  # another program's file: never ours to remove
            continue
        return fd, path
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(folder))  # pragma: no cover


def _create_temp_folder(folder: Path, created: list[Path]) -> Path:
    """A new, empty, private folder ``.~tcXXXXXX`` in ``folder``, recorded in ``created``
    before it exists (as :func:`_create_temp` records a file)."""
    for _attempt in range(100):
        name = TEMP_PREFIX + "".join(
            secrets.choice(_TEMP_ALPHABET) for _char in range(_TEMP_RANDOM)
        )
        path = Path(folder) / name
        created.append(path)
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            created.pop()  # another program's folder: never ours to remove
            continue
        return path
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(folder))  # pragma: no cover


#: a temporary file older than this (seconds since its last change) is a killed run's: a
#: live run changes its files far more often (a staged sidecar can wait while the release is
#: written, hence a whole day)
STALE_AGE = 24 * 3600
_TEMP_NAME = re.compile(re.escape(TEMP_PREFIX) + f"[{_TEMP_ALPHABET}]{{{_TEMP_RANDOM}}}")


def remove_stale(folder: Path, *, now: float | None = None) -> list[Path]:
    """Remove the temporary files and folders a killed run left in ``folder`` (``kill -9``
    and a power cut skip every clean-up); returns what was removed.

    Only tclose's own: the exact name :func:`_create_temp` gives (``.~tc`` and 6 lower-case
    letters or digits), a file or folder (never a link), unchanged for :data:`STALE_AGE`,
    and, where the system has owners, owned by this user.  Anything else that merely looks
    alike is left as it is, and a file that cannot be removed is left without a word.
    """
    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    uid = os.getuid() if hasattr(os, "getuid") else None
    for entry in entries:
        if not _TEMP_NAME.fullmatch(entry.name):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        kind_ok = stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)
        owner_ok = uid is None or info.st_uid == uid
        if not (kind_ok and owner_ok and now - info.st_mtime > STALE_AGE):
            continue
        with contextlib.suppress(OSError):
            _remove(Path(entry.path))
            removed.append(Path(entry.path))
    return removed


def _remove(path: Path) -> None:
    """Remove a staged file or folder (a dataset folder is a tree)."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def _new_file_mode(final: Path) -> int:
    """Permissions for the committed file: those of the file it replaces, else the usual."""
    try:
        return final.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


_ERRNO_WORDS = {
    errno.ENOSPC: N_("the disk is full"),
    errno.EDQUOT: N_("the disk quota is exhausted"),
    errno.EFBIG: N_("the file is too large for this disk or system"),
    errno.ENAMETOOLONG: N_("the file name or path is too long"),
    errno.EROFS: N_("the disk is read-only"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.ENOENT: N_("the folder no longer exists"),
    errno.EIO: N_("the disk reported an input/output error"),
}


def _os_error(shown: Path, exc: OSError, *, where: Path | None = None) -> OutputError:
    """An OSError as a one-line message about ``shown`` (never the temporary file)."""
    known = _ERRNO_WORDS.get(exc.errno or -1)
    words = _(known) if known else (exc.strerror or str(exc)).rstrip(".")
    if where is not None and exc.errno == errno.ENOENT and where.is_dir():
        # /proc and similar system folders exist but refuse every new file with ENOENT
        words = _("the system does not allow new files in this folder")
    if where is not None:
        return OutputError.about(
            shown,
            "folder",
            _("{path}: cannot write in the folder {where} ({words}). Choose another folder."),
            where=where,
            words=words,
        )
    return OutputError.about(
        shown, "write", _("{path}: cannot write ({words}). Nothing was written."), words=words
    )


@dataclass
class _Staged:
    output: Output
    final: Path
    temp: Path


@dataclass
class Staging:
    """Temporary files beside their targets, renamed onto them by :meth:`commit`.

    Obtained from :func:`write_outputs`; ``temp(path)`` is where the caller writes the bytes
    of ``path``, ``scratch(path)`` a further file in the same folder (removed at the end).
    """

    outputs: list[Output]
    _staged: dict[str, _Staged] = field(default_factory=dict)
    #: every temporary and scratch file made (recorded before it exists; see _create_temp)
    _created: list[Path] = field(default_factory=list)
    _current: Path | None = None

    def _find(self, path: str | Path) -> Output:
        key = _spelling_key(_final_path(Path(path)))
        for output in self.outputs:
            if _spelling_key(_final_path(output.path)) == key:
                return output
        raise ValueError(f"{path} is not one of the outputs being written")  # a caller's bug

    def temp(self, path: str | Path) -> Path:
        """The temporary file to write ``path``'s content to (created empty)."""
        output = self._find(path)
        key = str(output.path)
        if key not in self._staged:
            final = _final_path(output.path)
            try:
                fd, tmp = _create_temp(final.parent, self._created)
            except OSError as exc:
                raise _os_error(output.path, exc) from exc
            os.close(fd)
            self._staged[key] = _Staged(output, final, Path(tmp))
        self._current = output.path
        return self._staged[key].temp

    def temp_folder(self, path: str | Path) -> Path:
        """The temporary folder to fill with ``path``'s content, for an output that is a new
        folder (a Parquet dataset): renamed onto ``path`` by :meth:`commit`, which refuses
        to replace anything that appeared there meanwhile."""
        output = self._find(path)
        key = str(output.path)
        if key not in self._staged:
            final = _final_path(output.path)
            try:
                with _held_signals():
                    tmp = _create_temp_folder(final.parent, self._created)
            except OSError as exc:
                raise _os_error(output.path, exc) from exc
            self._staged[key] = _Staged(output, final, tmp)
        self._current = output.path
        return self._staged[key].temp

    def scratch(self, path: str | Path) -> Path:
        """A scratch file in ``path``'s folder (spooled sheets): never in the system's temp
        folder, so a failed run leaves nothing there and a full system disk does not matter."""
        output = self._find(path)
        fd, tmp = _create_temp(_final_path(output.path).parent, self._created)
        os.close(fd)
        return Path(tmp)

    def write_utf8(self, path: str | Path, text: str) -> None:
        """Stage ``text`` (UTF-8) as the content of ``path``."""
        with self.temp(path).open("w", encoding="utf-8", newline="") as fh:
            fh.write(text)

    def error(self, exc: OSError) -> OutputError:
        """``exc`` raised while staging, as a message that names the target."""
        shown = self._current or self.outputs[0].path
        for staged in self._staged.values():
            if exc.filename is not None and os.fspath(exc.filename) == str(staged.temp):
                shown = staged.output.path
        return _os_error(shown, exc)

    def commit(self) -> None:
        """Rename every temporary file onto its target, or, if one rename fails, put back
        the files already replaced and raise the error naming the target that failed."""
        missing = [o for o in self.outputs if str(o.path) not in self._staged]
        if missing:  # a caller's bug: every output checked must be written
            raise ValueError(f"{missing[0].path} was announced but never written")
        done: list[tuple[_Staged, Path | None]] = []
        current: _Staged | None = None
        try:
            for current in self._staged.values():
                # one step, never cut by a signal: the old file kept aside, the new one in
                # place, and the record the roll-back reads (a stop raises after it)
                with _held_signals():
                    if current.temp.is_dir():  # a new folder: never replaces anything
                        self._commit_folder(current)
                        done.append((current, None))
                        continue
                    backup, moved = self._keep_old(current.final)
                    try:
                        os.chmod(current.temp, _new_file_mode(current.final))
                        os.replace(current.temp, current.final)
                    except BaseException:
                        if backup is not None:
                            with contextlib.suppress(OSError):
                                if moved:  # the old file was moved aside: move it back
                                    os.replace(backup, current.final)
                                else:  # the old file never left: drop its second name
                                    backup.unlink()
                        raise
                    done.append((current, backup))
        except BaseException as exc:
            with _held_signals():
                self._roll_back(done)
            if isinstance(exc, OSError) and current is not None:
                raise _replace_error(current.output, exc) from exc
            raise
        for _staged, backup in done:
            if backup is not None:
                with contextlib.suppress(OSError):
                    backup.unlink()
        # the next run into a folder removes what a killed run left there
        for folder in {str(staged.final.parent) for staged in self._staged.values()}:
            remove_stale(Path(folder))

    @staticmethod
    def _commit_folder(staged: _Staged) -> None:
        if staged.final.exists() or staged.final.is_symlink():
            raise OutputError.about(
                staged.output.path,
                "name",
                _(
                    "{path} appeared while the release was computed; nothing was written. Choose "
                    "a new name for the release."
                ),
            )
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(staged.temp, 0o777 & ~mask)
        os.replace(staged.temp, staged.final)

    @staticmethod
    def _keep_old(final: Path) -> tuple[Path | None, bool]:
        """A second name for the file about to be replaced, so that it can be put back;
        and whether the file was moved there (no hard links on this disk)."""
        if not final.exists():
            return None, False
        fd, name = _create_temp(final.parent)
        os.close(fd)
        backup = Path(name)
        backup.unlink()
        if sys.platform != "win32":
            try:
                os.link(final, backup)  # a hard link: the old file stays in place meanwhile
                return backup, False
            except OSError:
                pass  # no hard links on this disk (FAT, some network shares)
        # move it aside; on Windows this is also what fails, before anything has changed,
        # when another program holds the file open
        os.replace(final, backup)
        return backup, True

    @staticmethod
    def _roll_back(done: Sequence[tuple[_Staged, Path | None]]) -> None:
        for staged, backup in reversed(done):
            with contextlib.suppress(OSError):
                if backup is None:
                    _remove(staged.final)
                else:
                    os.replace(backup, staged.final)

    def cleanup(self) -> None:
        """Remove every temporary and scratch file still there (after a commit, the scratch
        files only: the staged ones have become the targets)."""
        with _held_signals():  # a stop arriving now waits until every file is gone
            for path in self._created:
                with contextlib.suppress(OSError):
                    _remove(path)


def _replace_error(output: Output, exc: OSError) -> OutputError:
    if isinstance(exc, PermissionError) or exc.errno in (errno.EACCES, errno.EPERM, errno.EBUSY):
        return OutputError.about(
            output.path,
            "locked",
            _(
                "{path} cannot be replaced: it is open in another program (such as Excel) or "
                "write-protected. Close it and try again, or choose another name. Nothing was "
                "written."
            ),
        )
    return _os_error(output.path, exc)


@contextlib.contextmanager
def write_outputs(
    outputs: Iterable[Output | str | Path],
    *,
    inputs: Iterable[str | Path | None] = (),
) -> Iterator[Staging]:
    """Check ``outputs``, let the caller stage each one, then commit them all.

    ::

        with write_outputs([Output(report, "report")], inputs=[source]) as stage:
            stage.write_utf8(report, html)

    Any exception inside the block (an error, a cancellation, Ctrl+C) leaves every target as
    it was and removes every temporary file; an OSError becomes an :class:`OutputError`
    naming the target.
    """
    stage = Staging(check_outputs(outputs, inputs=inputs))
    try:
        try:
            yield stage
        except OSError as exc:
            raise stage.error(exc) from exc
        stage.commit()
    finally:
        stage.cleanup()


__all__ = [
    "KIND_NAMES",
    "TEMP_PREFIX",
    "Output",
    "OutputError",
    "Staging",
    "as_outputs",
    "check_not_input",
    "check_outputs",
    "json_kind",
    "name_problem",
    "remove_stale",
    "write_outputs",
]
