"""One machine against a local Dask cluster on seeded synthetic Parquet files (not a test).

    python -m benchmarks.bench_distributed --sizes 1000000,10000000 --data /path/with/space

For every size a Parquet file of the synthetic census (:mod:`benchmarks.synthetic`; files
above a million rows are made of seeded one-million-row chunks, one row group each) is
written once and kept.  Then ``tclose anonymize`` runs on it as a user would run it:

* ``one machine``: no ``--cluster``;
* ``dask``: ``--cluster local:N`` (a LocalCluster of N worker processes on this computer).

Every process of a run is sampled (psutil) for its resident memory; the table shows the
peak of the command's own process and of the largest worker.  QI SSE/SST, k and t are read
from the run's review record (``--review``).  The I/O ratio divides the run's wall time by the
time pandas takes to read and write the same file (Parquet; with ``--csv`` also the CSV run of the
README's target).  ``--t``/``--k`` default to the bar's t = 3, k = 10.

    python -m benchmarks.bench_distributed --real

``--real`` runs the real files of ``tests/data`` and the CPS-like wage file of
:mod:`benchmarks.bench_utility` instead (written as plain CSV once), with the default
settings (b searched), on one machine and on ``--cluster local:N``: b, QI and confidential
SSE/SST of each, and the ratio of the cluster's QI loss to one machine's.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QI = "age,hours,region,sector"
CHUNK = 1_000_000


def make_parquet(rows: int, path: Path) -> Path:
    """The seeded synthetic file of ``rows`` rows (chunks of a million, seeds 0, 1, …)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from benchmarks.synthetic import generate

    if path.exists():
        return path
    tmp = path.with_suffix(".part")
    writer = None
    for i, start in enumerate(range(0, rows, CHUNK)):
        frame = generate(min(CHUNK, rows - start), seed=i)
        table = pa.Table.from_pandas(frame, preserve_index=False)
        if writer is None:
            writer = pq.ParquetWriter(tmp, table.schema, compression="zstd")
        writer.write_table(table)
    assert writer is not None
    writer.close()
    tmp.rename(path)
    return path


def run_measured(cmd: list[str]) -> dict:
    """Run ``cmd``: wall time, CPU seconds of it and every process it started (the local
    cluster's scheduler and workers), and the peak RSS of it and of its largest child.

    The CPU seconds are the kernel's count for the command and the descendants it waited for
    (``wait4``), which a LocalCluster's workers are; the sum of the last CPU times sampled for
    every process seen (``cpu_sampled``) is a check of it that misses only the last 0.2 s of
    each process.
    """
    import psutil

    started = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=err)
        root = psutil.Process(proc.pid)
        peak_main, peak_child, n_children = 0, 0, 0
        cpu_seen: dict[int, float] = {}
        status, usage = None, None
        while status is None:
            with contextlib.suppress(psutil.Error):
                peak_main = max(peak_main, root.memory_info().rss)
                times = root.cpu_times()
                cpu_seen[root.pid] = times.user + times.system
                children = root.children(recursive=True)
                n_children = max(n_children, len(children))
                for child in children:
                    with contextlib.suppress(psutil.Error):
                        peak_child = max(peak_child, child.memory_info().rss)
                        times = child.cpu_times()
                        cpu_seen[child.pid] = times.user + times.system
            pid, code, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                status = os.waitstatus_to_exitcode(code)
            else:
                time.sleep(0.2)
        proc.returncode = status
        seconds = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if status != 0:
        raise RuntimeError(stderr.decode(errors="replace").strip().splitlines()[-1])
    return {
        "seconds": round(seconds, 1),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
        "cpu_sampled": round(sum(cpu_seen.values()), 1),
        "peak_main_mb": round(peak_main / 2**20),
        "peak_worker_mb": round(peak_child / 2**20),
        "processes": 1 + n_children,
        "stdout": stdout.decode(errors="replace").strip(),
    }


def pandas_io_seconds(path: Path, workdir: Path) -> float:
    """pandas reading and writing the same file (the I/O ratio's denominator)."""
    code = (
        "import sys, time, pandas as pd\n"
        "p = sys.argv[1]; t = time.perf_counter()\n"
        "f = pd.read_parquet(p) if p.endswith('.parquet') else pd.read_csv(p)\n"
        "(f.to_parquet if p.endswith('.parquet') else f.to_csv)(sys.argv[2], index=False)\n"
        "print(time.perf_counter() - t)\n"
    )
    copy = workdir / ("copy" + path.suffix)
    out = subprocess.run([sys.executable, "-c", code, str(path), str(copy)], check=True,
                         capture_output=True, text=True)  # fmt: skip
    copy.unlink()
    return float(out.stdout.strip())


def one_run(source: Path, out: Path, summary: Path, t: float, k: int, cluster: str | None):
    cmd = [sys.executable, "-m", "engine", "anonymize", str(source), "-o", str(out),
           "--qi", QI, "--confidential", "income", "--t", str(t), "--k", str(k), "--seed", "0",
           "--review", str(summary)]  # fmt: skip
    if cluster:
        cmd += ["--cluster", cluster]
    row = run_measured(cmd)
    s = json.loads(summary.read_text(encoding="utf-8"))
    row.update(
        qi_sse_sst=round(s["information_loss"]["qi_sse_sst"], 5),
        k=s["k_achieved"],
        t=round(s["t_achieved"], 3),
        n_released=s["n_released"],
        partitions=(s.get("backend") or {}).get("partitions", 1),
    )
    return row


#: the real files: (name, file in tests/data, separator, QIs, confidential, missing codes)
REAL = (
    ("acs", "acs-census-sample.csv.gz", ";", "Age,Sex,Marital status,Education", "Income",
     "-10000"),
    ("casc-census", "casc-census.csv.gz", ",", "AGI,EMCONTRB,WSALVAL,STATETAX", "INTVAL", ""),
    ("casc-eia", "casc-eia.csv.gz", ",", "RESSALES,COMSALES,INDSALES,OTHRSALES", "TOTREVENUE",
     ""),
    ("adult", "adult.csv.gz", ";", "sex,race,marital-status,education,occupation", "age", ""),
    ("cps-like", "", ",", "education,experience,ethnicity,smsa,region,parttime", "wage", ""),
)  # fmt: skip


def real_file(name: str, file: str, sep: str, folder: Path) -> Path:
    """The data set as a plain comma-separated file (kept in ``folder``)."""
    import pandas as pd

    path = folder / f"{name}.csv"
    if not path.exists():
        if file:
            frame = pd.read_csv(ROOT / "tests" / "data" / file, sep=sep, dtype=str,
                                keep_default_na=False)  # fmt: skip
        else:
            from benchmarks.bench_utility import cps_like

            frame = cps_like()
        frame.to_csv(path, index=False)
    return path


def _print_header(header: str) -> None:
    print(header)
    print("-" * len(header))


def real_runs(args: argparse.Namespace) -> int:
    """One machine against the cluster on real files, default settings (``--real``)."""
    print(f"t = {args.t:g}, k = {args.k}, default settings; {os.cpu_count()} CPUs")
    _print_header(
        f"{'data':<12} {'run':<14} {'seconds':>8} {'CPU s':>7} {'b':>3} {'QI loss':>8} "
        f"{'conf loss':>9} {'k':>4} {'t':>6} {'QI ratio':>8}"
    )
    with tempfile.TemporaryDirectory(dir=args.data) as tmp:
        work = Path(tmp)
        for name, file, sep, qi, conf, missing in REAL:
            source = real_file(name, file, sep, args.data)
            base = None
            for run, cluster in (("one machine", None), (f"dask local:{args.workers}",
                                                        f"local:{args.workers}")):  # fmt: skip
                summary = work / "s.json"
                cmd = [sys.executable, "-m", "engine", "anonymize", str(source), "-o",
                       str(work / "out.csv"), "--qi", qi, "--confidential", conf,
                       "--t", str(args.t), "--k", str(args.k), "--seed", "0",
                       "--review", str(summary)]  # fmt: skip
                if missing:
                    cmd.append(f"--missing={missing}")
                if cluster:
                    cmd += ["--cluster", cluster]
                row = run_measured(cmd)
                s = json.loads(summary.read_text(encoding="utf-8"))
                loss = s["information_loss"]
                qi_loss = loss["qi_sse_sst"]
                base = qi_loss if base is None else base
                b = sum(1 for row_b in s["buckets"] if not row_b.get("missing"))
                print(
                    f"{name:<12} {run:<14} {row['seconds']:>8.1f} {row['cpu_seconds']:>7.1f} "
                    f"{b:>3} {qi_loss:>8.4f} {loss['confidential_sse_sst']:>9.4f} "
                    f"{s['k_achieved']:>4} {s['t_achieved']:>6.3f} {qi_loss / base:>8.4f}",
                    flush=True,
                )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000000,10000000")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--t", type=float, default=3.0)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "tclose-bench")
    parser.add_argument("--csv", action="store_true", help="also the one-machine CSV run")
    parser.add_argument("--no-single", action="store_true", help="skip the one-machine runs")
    parser.add_argument("--no-cluster", action="store_true", help="skip the cluster runs")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON")
    parser.add_argument("--real", action="store_true", help="the real files, default settings")
    args = parser.parse_args(argv)
    args.data.mkdir(parents=True, exist_ok=True)
    if args.real:
        return real_runs(args)
    print(f"t = {args.t:g}, k = {args.k}; {os.cpu_count()} CPUs; data in {args.data}")
    _print_header(
        f"{'rows':>11} {'run':<14} {'seconds':>8} {'CPU s':>7} {'I/O ×':>6} {'main MB':>8} "
        f"{'worker MB':>9} {'parts':>5} {'SSE/SST':>8} {'k':>4} {'t':>6}"
    )
    rows = []
    with tempfile.TemporaryDirectory(dir=args.data) as tmp:
        work = Path(tmp)
        for n in [int(s) for s in args.sizes.split(",") if s]:
            source = make_parquet(n, args.data / f"synthetic-{n}.parquet")
            base = pandas_io_seconds(source, work)
            runs: list[tuple[str, Path, str | None]] = []
            if not args.no_single:
                runs.append(("one machine", source, None))
            if not args.no_cluster:
                runs.append((f"dask local:{args.workers}", source, f"local:{args.workers}"))
            if args.csv and not args.no_single:
                csv = args.data / f"synthetic-{n}.csv"
                if not csv.exists():
                    import pandas as pd

                    pd.read_parquet(source).to_csv(csv, index=False)
                runs.append(("one machine csv", csv, None))
            for name, src, cluster in runs:
                suffix = ".csv" if src.suffix == ".csv" else ".parquet"
                denominator = base if suffix == ".parquet" else pandas_io_seconds(src, work)
                try:
                    row = one_run(src, work / f"out{suffix}", work / "s.json", args.t, args.k,
                                  cluster)  # fmt: skip
                except RuntimeError as err:
                    print(f"{n:>11,} {name:<14} failed: {err}", flush=True)
                    continue
                row.update(rows_in=n, run=name, io_ratio=round(row["seconds"] / denominator, 1),
                           pandas_io_seconds=round(denominator, 2))  # fmt: skip
                rows.append(row)
                print(
                    f"{n:>11,} {name:<14} {row['seconds']:>8.1f} {row['cpu_seconds']:>7.1f} "
                    f"{row['io_ratio']:>6.1f} "
                    f"{row['peak_main_mb']:>8} {row['peak_worker_mb']:>9} "
                    f"{row['partitions']:>5} {row['qi_sse_sst']:>8.4f} {row['k']:>4} "
                    f"{row['t']:>6.3f}",
                    flush=True,
                )
                assert row["n_released"] == n, "every record must be released"
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
