"""A process's own peak memory, and a command's wall, CPU and peak measured as its own.

Linux keeps, as a process's ``ru_maxrss``, the peak of the memory it replaced at ``exec``:
a child of a benchmark that holds a million-record data frame reports at least that frame,
whatever the child itself used (a bare ``python -c pass`` started from a process of 400 MB
reports 426 MB).  So a command is started from a small launcher process and its peak read
there (:func:`run_measured`), and a process reads its own peak from the kernel's high-water
mark of its memory (:func:`own_peak_mb`), which ``exec`` resets.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: started by :func:`run_measured`: runs the command, then writes its exit code, wall and CPU
#: seconds and ``ru_maxrss`` to the file named first; a bare interpreter, so that the peak it passes
#: on to the command at ``exec`` is smaller than any Python command's own
LAUNCHER = r"""
import json, os, subprocess, sys, time
started = time.perf_counter()
child = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(child.pid, 0)
wall = time.perf_counter() - started
with open(sys.argv[1], "w", encoding="utf-8") as f:
    json.dump({"code": os.waitstatus_to_exitcode(status), "wall": wall,
               "cpu": usage.ru_utime + usage.ru_stime, "maxrss": usage.ru_maxrss}, f)
"""


def rss_mb(maxrss: int) -> float:
    """``ru_maxrss`` in MB: kilobytes on Linux, bytes on macOS."""
    return maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)


def own_peak_mb() -> float:
    """This process's peak resident memory in MB: the kernel's high-water mark of its own
    memory (``VmHWM``) where there is one, else ``ru_maxrss``."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text(encoding="ascii", errors="replace").splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    import resource

    return rss_mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def run_measured(command: list[str], *, cwd: Path, env: dict | None = None) -> dict:
    """Run ``command``: its wall seconds, CPU seconds and peak RSS (MB, its own), its output.

    The wall seconds are the launcher's, from starting the command to its end, so that its
    own start-up is not counted.
    Where there is no ``os.wait4`` (Windows), wall time only (CPU and peak are NaN).  Raises
    RuntimeError with the command's last line of stderr when it fails.
    """
    environ = {**os.environ, **(env or {})}
    if not hasattr(os, "wait4"):
        started = time.perf_counter()
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=environ)
        wall = time.perf_counter() - started
        code, cpu, peak = done.returncode, float("nan"), float("nan")
        out, err = done.stdout, done.stderr
    else:
        with tempfile.TemporaryDirectory() as tmp:
            report = Path(tmp) / "usage.json"
            launched = [sys.executable, "-c", LAUNCHER, str(report), *command]
            done = subprocess.run(launched, cwd=cwd, capture_output=True, text=True, env=environ)
            out, err = done.stdout, done.stderr
            if not report.exists():
                raise RuntimeError((err.strip().splitlines() or ["the launcher failed"])[-1])
            usage = json.loads(report.read_text(encoding="utf-8"))
        code, wall, cpu = usage["code"], usage["wall"], usage["cpu"]
        peak = rss_mb(usage["maxrss"])
    if code != 0:
        raise RuntimeError((err.strip().splitlines() or ["failed"])[-1])
    return {"wall": wall, "cpu": cpu, "peak_mb": peak, "stdout": out}


__all__ = ["LAUNCHER", "own_peak_mb", "rss_mb", "run_measured"]
