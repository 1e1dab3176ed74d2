"""Where a release is computed: this computer, a local Dask cluster, or a Dask scheduler.

:class:`Backend` is what ``--cluster`` and a project's ``backend`` field describe.  It is not a
parameter of the release (the same :class:`~engine.params.ReleaseParams` gives an equally
private release wherever it is computed), so it travels beside the parameters, never inside
them.  :func:`connect` opens the Dask client; :func:`wait_all` waits for futures with progress
and cancellation, and turns a lost worker into one clear sentence.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import CancelledError, InputError, TcloseError
from engine.i18n import _, language, use_language
from engine.progress import NO_TASK, Task

_LOCAL = re.compile(r"^local(?::(\d+))?$")
_TCP = re.compile(r"^(tcp|tls)://[^\s:/]+:\d+$")


class ClusterError(TcloseError):
    """The cluster failed (a worker lost too often, the scheduler gone); nothing was written."""

    exit_code = 5


@dataclass(frozen=True)
class Backend:
    """Where to compute: ``local`` (this computer, N worker processes) or a scheduler address.

    ``Backend()`` is this computer without Dask (the one-machine path).
    """

    #: None: no cluster; "local": a LocalCluster; else a scheduler address tcp://HOST:PORT
    address: str | None = None
    #: worker processes of a local cluster (None: one per core)
    workers: int | None = None

    @property
    def distributed(self) -> bool:
        return self.address is not None

    def to_text(self) -> str | None:
        """The ``--cluster`` text that gives this backend (None for this computer)."""
        if self.address == "local":
            return "local" if self.workers is None else f"local:{self.workers}"
        return self.address

    def to_dict(self) -> dict[str, Any]:
        return {"cluster": self.to_text()}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Backend:
        return parse_cluster((data or {}).get("cluster"))


def cores() -> int:
    """The cores this process may run on (its affinity where the system says, else all)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def max_local_workers() -> int:
    """The most workers ``--cluster local:N`` starts: two per core, and 4 on any machine
    (one per core is what computes at once; the rest leaves room for a test or a
    demonstration on a small machine, and a thousand processes never start by a slip)."""
    return max(4, 2 * cores())


def parse_cluster(text: str | None) -> Backend:
    """``local``, ``local:N`` or ``tcp://HOST:PORT`` (None or empty: this computer)."""
    if text is None or not str(text).strip():
        return Backend()
    text = str(text).strip()
    match = _LOCAL.match(text)
    if match:
        workers = int(match.group(1)) if match.group(1) else None
        if workers is not None and workers < 1:
            raise InputError(_("--cluster local:N needs at least one worker (N ≥ 1)."))
        most = max_local_workers()
        if workers is not None and workers > most:
            raise InputError(
                _(
                    "--cluster local:{n}: this computer has {cores} core(s), and a local "
                    "cluster takes at most {most} workers (each is a process that computes on "
                    "one core; more only take memory). Give local:{cores}, or local for one "
                    "worker per core."
                ).format(n=workers, cores=cores(), most=most)
            )
        return Backend("local", workers)
    if _TCP.match(text):
        if text.startswith("tls://"):
            raise InputError(
                _(
                    "--cluster {text}: tclose connects to a scheduler over tcp:// only (a tls:// "
                    "scheduler needs certificates tclose cannot be given); use a tcp:// address "
                    "on a trusted network, or --cluster local."
                ).format(text=text)
            )
        return Backend(text)
    raise InputError(
        _(
            "--cluster takes local, local:N or tcp://HOST:PORT (a Dask scheduler), not {text}."
        ).format(text=repr(text))
    )


def _need_dask() -> None:
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
    except ImportError as exc:
        raise InputError(
            _(
                "Computing on a cluster needs the distributed extra: pip install "
                "tclose[distributed]."
            )
        ) from exc


#: seconds a scheduler has to greet a new connection before the address is refused
PROBE_TIMEOUT = 10.0
#: the largest greeting a scheduler sends (a few dozen bytes: compression, Python, pickle)
_GREETING_LIMIT = 1 << 16


def _no_scheduler(address: str, reason: object) -> InputError:
    return InputError(
        _(
            "--cluster {address}: no Dask scheduler answers there ({reason}). Start one with "
            "'dask scheduler' and workers with 'dask worker ADDRESS', or use --cluster local."
        ).format(address=address, reason=reason)
    )


def probe_scheduler(address: str, timeout: float = PROBE_TIMEOUT) -> dict[str, Any]:
    """The greeting of the Dask scheduler at ``address`` (``tcp://HOST:PORT``), or an
    InputError saying that nothing, or something else, answers there.

    A Dask scheduler speaks first: on a new connection it sends its handshake, a small
    msgpack map naming its Python and pickle protocol, framed by 8-byte lengths.  It is read
    here with a plain socket, a time limit and a size limit, and decoded by msgpack alone
    (never by pickle): a web server, an SSH server or a port that only listens is told apart
    before the Dask client, which would trust the peer, connects.
    """
    import socket
    import struct

    import msgpack

    host, _colon, port = address.split("://", 1)[1].rpartition(":")
    host = host.strip("[]")
    other = _(
        "--cluster {address}: the program that answers there is not a Dask scheduler. Check "
        "the address (the scheduler prints it when it starts, e.g. tcp://10.0.0.5:8786)."
    ).format(address=address)
    try:
        with socket.create_connection((host, int(port)), timeout=timeout) as sock:
            sock.settimeout(timeout)
            head = _recv_exactly(sock, 8)
            (total,) = struct.unpack("<Q", head)
            if not 16 <= total <= _GREETING_LIMIT:
                raise InputError(other)
            body = _recv_exactly(sock, total)
    except TimeoutError as exc:
        raise InputError(
            _(
                "--cluster {address}: the program there did not answer as a Dask scheduler "
                "within {seconds:g} seconds. Check the address, or use --cluster local."
            ).format(address=address, seconds=timeout)
        ) from exc
    except OSError as exc:
        raise _no_scheduler(address, exc.strerror or exc) from exc
    except EOFError as exc:
        raise InputError(other) from exc
    try:
        (n_frames,) = struct.unpack_from("<Q", body, 0)
        if not 1 <= n_frames <= 8 or len(body) < 8 + 8 * n_frames:
            raise ValueError("frames")
        lengths = struct.unpack_from(f"<{n_frames}Q", body, 8)
        frame = body[8 + 8 * n_frames : 8 + 8 * n_frames + lengths[0]]
        greeting = msgpack.unpackb(
            frame, raw=False, use_list=True, strict_map_key=True, ext_hook=_no_extension
        )
    except (ValueError, struct.error, msgpack.UnpackException, TypeError) as exc:
        raise InputError(other) from exc
    if not isinstance(greeting, dict) or "pickle-protocol" not in greeting:
        raise InputError(other)
    return greeting


def _recv_exactly(sock: Any, n: int) -> bytes:
    data = bytearray()
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError("the connection was closed")
        data += chunk
    return bytes(data)


def _no_extension(code: int, data: bytes) -> Any:
    raise ValueError(f"unexpected msgpack extension {code}")


#: settings a local cluster's worker processes inherit so that they stay quiet
_QUIET_ENV = {"DASK_LOGGING__DISTRIBUTED": "critical", "PYTHONWARNINGS": "ignore"}


def debugging() -> bool:
    """Whether the user asked to see everything (``TCLOSE_DEBUG``)."""
    return bool(os.environ.get("TCLOSE_DEBUG"))


@contextlib.contextmanager
def quiet_cluster() -> Iterator[None]:
    """Within the block, Dask, Tornado and asyncio log nothing in this process, and worker
    processes started in it inherit settings that keep them quiet (the user sees tclose's
    own messages, never a scheduler's log lines or a resource tracker's tracebacks);
    ``TCLOSE_DEBUG`` shows everything."""
    if debugging():
        yield
        return
    import logging

    previous_level = logging.root.manager.disable
    saved_env = {k: os.environ.get(k) for k in _QUIET_ENV}
    logging.disable(logging.CRITICAL)
    os.environ.update(_QUIET_ENV)
    try:
        yield
    finally:
        logging.disable(previous_level)
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@contextlib.contextmanager
def _stderr_to_null() -> Iterator[None]:
    """File descriptor 2 points to the null device within the block, so that processes
    started there (a local cluster's workers, multiprocessing's resource tracker) write
    their own messages nowhere; this process's stderr is restored after it."""
    if debugging():
        yield
        return
    import sys

    with contextlib.suppress(AttributeError, ValueError, OSError):
        sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no stderr at all (a windowed app): nothing to hide
        yield
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


#: Dask's settings for a tclose run (in this process, and in the local workers it starts):
#: no statistical profiler (it samples every task's stack 100 times a second for a
#: dashboard tclose does not open), and the event loops' watchdog and system monitor woken
#: once a second rather than 50 and twice: on two cores they cost a third more CPU than the
#: release itself (benchmarks/bench_distributed.py)
LEAN = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "1s",
}


@contextlib.contextmanager
def connect(backend: Backend) -> Iterator[Any]:
    """A Dask client for ``backend``; a local cluster is started and stopped with it.

    Local workers are processes with one thread each (the engine's numpy work holds the
    interpreter lock between calls); they start with the ``spawn`` method on Windows and macOS,
    which is why the command line's entry point is guarded by ``if __name__ == "__main__"``.
    A scheduler address is probed first (:func:`probe_scheduler`).
    """
    _need_dask()
    import dask

    with quiet_cluster(), dask.config.set(LEAN):
        from distributed import Client, LocalCluster

        if backend.address == "local":
            n = backend.workers or cores()
            try:
                with _stderr_to_null():
                    from multiprocessing import resource_tracker

                    resource_tracker.ensure_running()  # it, too, inherits the null stderr
                    cluster = LocalCluster(
                        n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None
                    )
            except Exception as exc:  # no port, no fork: say so in one line
                raise ClusterError(
                    _("Could not start a local Dask cluster ({exc}).").format(exc=exc)
                ) from exc
            with cluster, Client(cluster) as client, _lost_connection_is_a_cluster_error():
                yield client
            return
        probe_scheduler(str(backend.address))
        try:
            client = Client(backend.address, timeout="20s")
        except (OSError, TimeoutError) as exc:
            raise _no_scheduler(str(backend.address), exc) from exc
        with client, _lost_connection_is_a_cluster_error():
            yield client


@contextlib.contextmanager
def _lost_connection_is_a_cluster_error() -> Iterator[None]:
    """A connection to the scheduler or a worker that closed mid-run (a worker killed while
    it received its data, the scheduler stopped) ends the run with one sentence."""
    from concurrent.futures import CancelledError as FutureCancelled

    from distributed import KilledWorker
    from distributed.comm.core import CommClosedError

    try:
        yield
    except (CommClosedError, KilledWorker, FutureCancelled) as exc:
        # a future cancelled by the cluster (its data lost with a worker, the scheduler
        # restarted), not by the user: tclose cancels through its task, as CancelledError
        raise ClusterError(
            _(
                "The Dask cluster lost a worker or its connection while computing the release "
                "({reason}), and could not recover; nothing was written. Run it again, or give "
                "the workers more memory."
            ).format(reason=type(exc).__name__)
        ) from exc


def speaking(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` as a task that runs in the language of this process.

    A worker's thread speaks English unless told otherwise (the language is context-local,
    :mod:`engine.i18n`): a task that may refuse the input carries the user's language with
    it, so that its message reads as one machine's would.
    """
    return functools.partial(_in_language, language(), function)


def _in_language(code: str, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    with use_language(code):
        return function(*args, **kwargs)


def n_workers(client: Any) -> int:
    """Workers the scheduler has now."""
    return len(client.scheduler_info().get("workers", {}))


def wait_all(
    client: Any,
    futures: Sequence[Any],
    *,
    task: Task = NO_TASK,
    message: str = "Computing on the cluster",
    poll: float = 0.2,
) -> None:
    """Wait until every future is done, reporting the share done and honouring ``task``'s cancel.

    A cancelled run cancels its futures (workers drop the tasks) and raises CancelledError.
    A task that failed raises its own error; a worker that died while running the same task
    too often (Dask retries lost work by itself) becomes a :class:`ClusterError`.
    """
    from distributed import wait

    futures = list(futures)
    total = max(len(futures), 1)
    while True:
        if task.cancelled():
            client.cancel(futures)
            raise CancelledError()
        try:
            wait(futures, timeout=poll)
            done = True
        except TimeoutError:
            done = False
        finished = sum(f.done() for f in futures)
        task.report(finished / total, message)
        failed = [f for f in futures if f.status == "error"]
        if failed:
            raise_for(failed[0])
        if done:
            return
        time.sleep(0)


def raise_for(future: Any) -> None:
    """Re-raise a failed future's error, a lost worker as a ClusterError."""
    from distributed import KilledWorker

    try:
        future.result()
    except KilledWorker as exc:
        raise ClusterError(
            _(
                "A Dask worker was lost while computing the release (it ran out of memory or "
                "was stopped) and retrying did not help; nothing was written. Give the workers "
                "more memory or use more of them."
            )
        ) from exc
    except TcloseError:
        raise
    except (OSError, EOFError) as exc:
        raise ClusterError(
            _("The connection to the Dask cluster broke ({reason}); nothing was written.").format(
                reason=exc
            )
        ) from exc


def gather(
    client: Any,
    futures: Sequence[Any],
    *,
    task: Task = NO_TASK,
    message: str = "Computing on the cluster",
) -> list[Any]:
    """:func:`wait_all`, then the results."""
    wait_all(client, futures, task=task, message=message)
    try:
        return client.gather(list(futures))
    except Exception:
        for f in futures:
            if f.status == "error":
                raise_for(f)
        raise
