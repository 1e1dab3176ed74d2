"""Loading the compiled kernels (numba): where they are cached, and which route a run took.

numba compiles :mod:`engine.release.partition.compiled` at the first call of each kernel
(about 7 CPU-seconds) and can keep the machine code on disk, so that later processes load it
in well under a second.  Where it keeps it is decided here, not by numba's defaults, which
write into the package's own folder (``__pycache__`` beside the source) and, when no folder
they know is writable, refuse to define the kernels at all, so that a release silently took
the numpy route (the same classes, about 1.35 times the CPU).  So:

* the cache is the user's own, per version of tclose: ``%LOCALAPPDATA%\\tclose\\Cache\\<version>``
  on Windows, ``~/Library/Caches/tclose/<version>`` on macOS, ``$XDG_CACHE_HOME/tclose/<version>``
  (``~/.cache`` by default) elsewhere, in a folder ``kernels``; or the folder the user names in
  ``NUMBA_CACHE_DIR``.  Never the package: an installation may be read-only, and a folder
  shared by every user is not one to write machine code into.  (numba's own copy of
  ``appdirs`` gives the platform's folder.)
* the kernels are defined without a cache and given one here (``Dispatcher.enable_caching``
  with numba's ``CACHE_LOCATOR_CLASSES`` naming :class:`KernelCacheLocator` while they are
  loaded), so a folder that cannot be written costs the cache, never the compiled kernels:
  they are compiled in every process instead;
* whatever is not as it should be (no writable cache folder, numba missing or unable to
  start) is said once per process on stderr, and in the review record of every release that
  asked for the kernels (:attr:`engine.release.RunSummary.kernels`).  A frozen app has no
  source file beside the kernels; the locator then keys the cache by the executable, as
  numba's own user-wide cache does.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from engine.i18n import _


@dataclass(frozen=True)
class KernelRoute:
    """Which route forms the classes of large files in this process, and why."""

    #: the compiled kernels run (False: the numpy route, which gives the same classes)
    compiled: bool
    #: the folder the compiled kernels are cached in; None when they are compiled in every
    #: process (no writable folder) or not compiled at all
    cache: str | None
    #: why the route is not the compiled kernels with a cache ("" when it is)
    reason: str = ""
    #: the numba version that compiled them ("" without numba)
    numba: str = ""

    def sentence(self) -> str:
        """The route in words, for the review record and the smoke test."""
        if self.compiled and self.cache:
            return _("compiled kernels (numba {version}), cached in {folder}").format(
                version=self.numba, folder=self.cache
            )
        if self.compiled:
            return _("compiled kernels (numba {version}), not cached: {reason}").format(
                version=self.numba, reason=self.reason
            )
        return _("numpy route (the same classes, slower): {reason}").format(reason=self.reason)

    @property
    def degraded(self) -> bool:
        """True when the route is worth a word: no cache, or no compiled kernels."""
        return not (self.compiled and self.cache)


_lock = threading.Lock()
_loaded: tuple[ModuleType | None, KernelRoute] | None = None
#: times a run asked for the kernels (a run compares the count before and after)
_asked = 0


def cache_folder() -> Path:
    """Where the compiled kernels are cached: ``NUMBA_CACHE_DIR`` when the user set it, else
    the user's cache folder for this version of tclose (module doc)."""
    import numba
    from numba.misc.appdirs import AppDirs

    from engine.version import __version__

    if numba.config.CACHE_DIR:
        return Path(numba.config.CACHE_DIR)
    folder = AppDirs("tclose", appauthor=False, version=__version__).user_cache_dir
    return Path(folder) / "kernels"


def writable(folder: Path) -> bool:
    """Can files be written into ``folder`` (made if need be)?  numba's own test."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


@functools.cache
def _locator_class() -> type:
    """:class:`KernelCacheLocator`, made when numba is there (this module imports without it)."""
    from numba.core.caching import UserWideCacheLocator  # numba >= 0.62

    class KernelCacheLocator(UserWideCacheLocator):
        """numba's user-wide cache locator (which also serves a frozen app, keyed by its
        executable) with the folder of :func:`cache_folder`."""

        def __init__(self, py_func: Any, py_file: str) -> None:
            super().__init__(py_func, py_file)
            subpath = self.get_suitable_cache_subpath(py_file)
            self._cache_path = str(cache_folder() / subpath)

    return KernelCacheLocator


def __getattr__(name: str) -> Any:  # numba finds the locator by its dotted name
    if name == "KernelCacheLocator":
        return _locator_class()
    raise AttributeError(name)


def load_kernels() -> ModuleType | None:
    """The compiled kernels with their cache (module doc), or None when numba is missing or
    cannot start here; loaded once per process, and said once when not as it should be."""
    global _loaded, _asked
    with _lock:
        _asked += 1
        if _loaded is None:
            _loaded = _load()
            if _loaded[1].degraded:
                _say(_("note: {route}.").format(route=_loaded[1].sentence()))
        return _loaded[0]


def _say(line: str) -> None:
    """One line on stderr, where there is one (a windowed app may have none)."""
    if sys.stderr is None:
        return
    with contextlib.suppress(OSError, UnicodeError):  # a stream that cannot take it
        print(line, file=sys.stderr, flush=True)


def kernel_route() -> KernelRoute | None:
    """The route of this process (None: no run has asked for the kernels yet)."""
    return None if _loaded is None else _loaded[1]


def kernels_asked() -> int:
    """How many times runs of this process asked for the kernels (a run that compares the
    count before and after knows whether it did)."""
    return _asked


def _load() -> tuple[ModuleType | None, KernelRoute]:
    try:
        import numba
    except ImportError:
        return None, KernelRoute(False, None, _("numba is not installed here"))
    version = str(numba.__version__)
    try:
        from engine.release.partition import compiled
    except Exception as err:  # numba or its LLVM cannot start here: numpy gives the same
        reason = _("the compiled kernels could not be loaded ({error})").format(error=err)
        return None, KernelRoute(False, None, reason, version)
    folder = cache_folder()
    if not writable(folder):
        reason = _("no folder to keep them in could be written ({folder})").format(folder=folder)
        return compiled, KernelRoute(True, None, reason, version)
    try:
        _enable_caching(compiled)
    except Exception as err:  # a cache numba refuses: the kernels still compile
        reason = _("numba refused the cache folder {folder} ({error})").format(
            folder=folder, error=err
        )
        return compiled, KernelRoute(True, None, reason, version)
    return compiled, KernelRoute(True, str(folder), "", version)


def _enable_caching(module: ModuleType) -> None:
    """Give every kernel of ``module`` a cache in :func:`cache_folder` (numba's locator
    list names only :class:`KernelCacheLocator` meanwhile, so it is never another folder)."""
    import numba
    from numba.core.dispatcher import Dispatcher

    before = numba.config.CACHE_LOCATOR_CLASSES
    numba.config.CACHE_LOCATOR_CLASSES = f"{__name__}.KernelCacheLocator"
    try:
        for kernel in vars(module).values():
            if isinstance(kernel, Dispatcher):
                kernel.enable_caching()
    finally:
        numba.config.CACHE_LOCATOR_CLASSES = before


__all__ = [
    "KernelRoute",
    "cache_folder",
    "kernel_route",
    "kernels_asked",
    "load_kernels",
    "writable",
]
