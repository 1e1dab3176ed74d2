"""CPU of the app's privacy–utility sweep: in the app's process (as the dialog ran it) and in
the engine's helper process (as it runs now), on a census-like file.

    python -m benchmarks.bench_sweep [ROWS] [--where app|engine|both] [--fresh-trials]

A 15-point sweep (t = 1.5, 2, 3, 5, 10 × k = 5, 10, 25, the dialog's default grid) of the
census-like file (``benchmarks.census_like``, 29,501 records by default; QIs state, puma,
educ, exper; confidential incwage; every other setting the app's default).  ``app`` runs
:func:`engine.report.sweep.run_sweep` in this process, as the dialog's worker thread did:
all of its CPU is the app's, under the GUI's interpreter lock.  ``engine`` runs it through
:func:`gui.engine_process.EngineProcess` with the points streamed back, as the dialog does
now: the app's process only waits and receives rows.  ``--fresh-trials`` forms every trial
partition afresh, as the sweep did before its points shared them.  Prints CPU-seconds (user +
system, from ``resource.getrusage``) of each process, the points, and the seconds until the
first point arrived.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pandas as pd

from engine import ReleaseParams
from engine.progress import NO_TASK, Task

TS = (1.5, 2.0, 3.0, 5.0, 10.0)
KS = (5, 10, 25)


def cpu(*, task: Task = NO_TASK) -> float:
    """CPU-seconds of this process so far (user + system)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed_sweep(
    data: pd.DataFrame,
    params: ReleaseParams,
    *,
    on_point=None,
    share_trials: bool = True,
    task: Task = NO_TASK,
) -> tuple[pd.DataFrame, float]:
    """The sweep and the CPU-seconds it took in the process that ran it."""
    from engine.report.sweep import run_sweep

    before = cpu()
    table = run_sweep(
        data, params, ts=TS, ks=KS, on_point=on_point, share_trials=share_trials, task=task
    )
    return table, cpu() - before


def params() -> ReleaseParams:
    return ReleaseParams(
        qi=("state", "puma", "educ", "exper"), confidential=("incwage",), k=5, t=2.0
    )


def in_app(data: pd.DataFrame, share_trials: bool = True) -> None:
    before = cpu()
    started = time.perf_counter()
    first: list[float] = []
    table, _ = timed_sweep(
        data,
        params(),
        on_point=lambda row: first or first.append(time.perf_counter()),
        share_trials=share_trials,
    )
    shared = "shared" if share_trials else "fresh"
    print(
        f"app process ({shared} trials): {cpu() - before:7.1f} CPU-s in the app's process; "
        f"{len(table)} points ({int(table['feasible'].sum())} feasible); first point after "
        f"{first[0] - started:.1f} s"
    )


def in_engine(data: pd.DataFrame, share_trials: bool = True) -> None:
    from gui.engine_process import EngineProcess, Stream

    engine = EngineProcess()
    engine.start()
    engine.call(cpu)  # started and its imports done: not counted
    before = cpu()
    started = time.perf_counter()
    arrived: list[float] = []
    table, helper = engine.call(
        timed_sweep,
        data,
        params(),
        on_point=Stream(lambda row: arrived.append(time.perf_counter())),
    )
    app = cpu() - before
    engine.stop()
    shared = "shared" if share_trials else "fresh"
    print(
        f"engine process ({shared} trials): {app:7.1f} CPU-s in the app's process, "
        f"{helper:.1f} CPU-s in the engine's; {len(table)} points "
        f"({int(table['feasible'].sum())} feasible), {len(arrived)} streamed, "
        f"the first after {arrived[0] - started:.1f} s"
    )


def main(argv: list[str] | None = None) -> int:
    from benchmarks.census_like import generate

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rows", nargs="?", type=int, default=29_501)
    parser.add_argument("--where", choices=("app", "engine", "both"), default="both")
    parser.add_argument(
        "--fresh-trials",
        action="store_true",
        help="form every trial partition afresh (what the sweep did before it shared them)",
    )
    args = parser.parse_args(argv)
    data = generate(args.rows)
    print(f"{args.rows:,} records, {len(TS) * len(KS)} points (t {TS} × k {KS})")
    share = not args.fresh_trials
    if args.where in ("app", "both"):
        in_app(data, share)
    if args.where in ("engine", "both"):
        in_engine(data, share)
    return 0


if __name__ == "__main__":
    sys.exit(main())
