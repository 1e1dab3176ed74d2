"""Where a release is computed: this computer, a local Dask cluster, or a Dask scheduler.

:class:`Backend` is what ``--cluster`` and a project's ``backend`` field describe.  It is not a
parameter of the release (the same :class:`~engine.params.ReleaseParams` gives an equally
private release wherever it is computed), so it travels beside the parameters, never inside
them.  :func:`connect` opens the Dask client; :func:`wait_all` waits for futures with progress
and cancellation, and turns a lost worker into one clear sentence.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import CancelledError, InputError, TcloseError
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


def parse_cluster(text: str | None) -> Backend:
    """``local``, ``local:N`` or ``tcp://HOST:PORT`` (None or empty: this computer)."""
    if text is None or not str(text).strip():
        return Backend()
    text = str(text).strip()
    match = _LOCAL.match(text)
    if match:
        workers = int(match.group(1)) if match.group(1) else None
        if workers is not None and workers < 1:
            raise InputError("--cluster local:N needs at least one worker (N ≥ 1).")
        return Backend("local", workers)
    if _TCP.match(text):
        return Backend(text)
    raise InputError(
        f"--cluster takes local, local:N or tcp://HOST:PORT (a Dask scheduler), not {text!r}."
    )


def _need_dask() -> None:
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
    except ImportError as exc:
        raise InputError(
            "Computing on a cluster needs the distributed extra: pip install tclose[distributed]."
        ) from exc


@contextlib.contextmanager
def connect(backend: Backend) -> Iterator[Any]:
    """A Dask client for ``backend``; a local cluster is started and stopped with it.

    Local workers are processes with one thread each (the engine's numpy work holds the
    interpreter lock between calls); they start with the ``spawn`` method on Windows and macOS,
    which is why the command line's entry point is guarded by ``if __name__ == "__main__"``.
    """
    _need_dask()
    from distributed import Client, LocalCluster

    if backend.address == "local":
        n = backend.workers or os.cpu_count() or 1
        try:
            cluster = LocalCluster(
                n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None
            )
        except Exception as exc:  # no port, no fork: say so in one line
            raise ClusterError(f"Could not start a local Dask cluster ({exc}).") from exc
        with cluster, Client(cluster) as client:
            yield client
        return
    try:
        client = Client(backend.address, timeout="20s")
    except OSError as exc:
        raise ClusterError(
            f"No Dask scheduler answers at {backend.address} ({exc}). Start one with "
            "'dask scheduler' and workers with 'dask worker ADDRESS', or use --cluster local."
        ) from exc
    with client:
        yield client


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
            "A Dask worker was lost while computing the release (it ran out of memory or was "
            "stopped) and retrying did not help; nothing was written. Give the workers more "
            "memory or use more of them."
        ) from exc
    except TcloseError:
        raise
    except (OSError, EOFError) as exc:
        raise ClusterError(
            f"The connection to the Dask cluster broke ({exc}); nothing was written."
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
