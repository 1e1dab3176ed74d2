"""Cost per record at every size: does a smaller file ever cost more than a larger one?

    python -m benchmarks.bench_sizes                    # both data sets, 30k … 3M (an hour)
    python -m benchmarks.bench_sizes --sizes 30000,200000,1000000 --data synthetic
    python -m benchmarks.bench_sizes --sizes ""         # the census-like preview cases only

For every data set and size, one engine call :func:`engine.release.anonymize` (plan with the
search of b, partition, release, verification, measures) with the defaults (b searched,
t = 3, k = 10 unless ``--t``/``--k`` say otherwise), each in a process of its own so that
its CPU seconds (all threads, ``getrusage``) and peak RSS are its own; the data are made in
that process before the clock starts.  Printed per run: CPU seconds, CPU microseconds per
record, the CPU against the 1,000,000-record run of the same data, peak RSS, QI and
confidential SSE/SST, b, the smallest class, the achieved t, the path, and whether the
release verified.

Data: ``synthetic`` (:mod:`benchmarks.synthetic`, incomes to the cent) and ``acs-like``
(:mod:`benchmarks.real_like`: the ACS sample of ``tests/data`` resampled with noise on Age
and incomes, nearly every record its own QI point).  Then the census-holdout stand-in (unless
``--no-preview``): ``acs-like`` at 29,501 records at the app's defaults (t = 2, k = 5) and at
t = 3, k = 10, its CPU against the synthetic 1,000,000-record run.

The machine is shared: CPU seconds are the figure to compare, wall seconds are printed for
context only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from benchmarks.bench_engine import case_params, load_case, timed_anonymize
from benchmarks.peak import own_peak_mb
from benchmarks.results import finish

ROOT = Path(__file__).resolve().parent.parent
SIZES = (30_000, 100_000, 200_000, 500_000, 1_000_000, 3_000_000)
#: the census holdout's size, and the app's defaults
PREVIEW_ROWS = 29_501
PREVIEW_CASES = ((2.0, 5), (3.0, 10))


def _load(name: str, rows: int):
    if name == "acs-like":
        from benchmarks.real_like import ACS_LIKE, acs_like

        return acs_like(rows, seed=0), ACS_LIKE
    return load_case(name, rows)  # synthetic, and bench_engine's other cases


def run_case(name: str, rows: int, t: float, k: int) -> dict:
    """One engine call in this process; its row of the table."""
    import numpy as np

    data, spec = _load(name, rows)
    release, wall, cpu = timed_anonymize(data, case_params(spec, t, k))
    s = release.summary
    sizes = np.bincount(np.unique(release.classes, return_inverse=True)[1])
    return {
        "data": name,
        "rows": rows,
        "t": t,
        "k": k,
        "cpu": round(cpu, 2),
        "wall": round(wall, 2),
        "peak_mb": round(own_peak_mb()),
        "qi": s.information_loss.qi_sse_sst,
        "conf": s.information_loss.confidential_sse_sst,
        "b": sum(not row.missing for row in s.buckets),
        "k_achieved": s.k_achieved,
        "smallest_class": int(sizes.min()),
        "t_achieved": s.t_achieved,
        "verified": bool(release.verification.ok),
    }


def _worker(name: str, rows: int, t: float, k: int) -> dict:
    command = [sys.executable, "-m", "benchmarks.bench_sizes", "--case", name, str(rows)]
    command += [str(t), str(k)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError((done.stderr.strip().splitlines() or ["failed"])[-1])
    return json.loads(done.stdout.strip().splitlines()[-1])


def _line(row: dict, reference: dict | None) -> str:
    per = 1e6 * row["cpu"] / row["rows"]
    ratio = f"{row['cpu'] / reference['cpu']:.2f}" if reference else "—"
    conf = "—" if row["conf"] is None else f"{100 * row['conf']:.2f}"
    return (
        f"| {row['data']} | {row['rows']:,} | {row['t']:g} | {row['k']} | {row['cpu']:.2f} | "
        f"{per:.1f} | {ratio} | {row['wall']:.1f} | {row['peak_mb']:,} | "
        f"{100 * row['qi']:.2f} | {conf} | {row['b']} | {row['k_achieved']} | "
        f"{row['t_achieved']:.3f} | {'yes' if row['verified'] else 'NO'} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", nargs=4, metavar=("DATA", "ROWS", "T", "K"))
    parser.add_argument("--sizes", default=",".join(str(s) for s in SIZES))
    parser.add_argument("--data", default="synthetic,acs-like")
    parser.add_argument("--t", type=float, default=3.0)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--no-preview", action="store_true", help="leave out the preview cases")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args(argv)
    if args.case:
        name, rows, t, k = args.case
        print(json.dumps(run_case(name, int(rows), float(t), int(k))))
        return 0
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(
        "| data | records | t | k | CPU s | CPU µs/record | × 1M CPU | wall s | peak MB | "
        "QI SSE/SST % | conf SSE/SST % | b | k achieved | t achieved | verified |"
    )
    print("|---" * 15 + "|")
    rows: list[dict] = []
    sizes = [int(s) for s in args.sizes.split(",") if s]
    failures = 0
    for name in args.data.split(","):
        done = {n: _worker(name, n, args.t, args.k) for n in sorted(sizes, key=lambda n: -n)}
        reference = done.get(1_000_000)
        for n in sorted(done):
            rows.append(done[n])
            failures += not done[n]["verified"]
            print(_line(done[n], reference), flush=True)
    preview_reference = next(
        (r for r in rows if r["data"] == "synthetic" and r["rows"] == 1_000_000), None
    )
    if not args.no_preview:
        for t, k in PREVIEW_CASES:
            row = _worker("acs-like", PREVIEW_ROWS, t, k)
            rows.append(row)
            failures += not row["verified"]
            print(_line(row, preview_reference), flush=True)
    return finish(rows, args.json, failures, "failed verification")


if __name__ == "__main__":
    raise SystemExit(main())
