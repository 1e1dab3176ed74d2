"""Engine benchmark: time (wall and CPU), peak memory, information loss and achieved (k, t).

    python -m benchmarks.bench_engine                      # everything below (about an hour)
    python -m benchmarks.bench_engine --sizes 10000,100000 --no-io --no-memory --no-kernels \\
        --no-peers                                         # quick

Every measurement runs in a process of its own, so that its peak resident memory is its own
(:mod:`benchmarks.peak`: CPU seconds and peak RSS of the process itself, not of the
benchmark that started it; on Windows only wall time).

* **Engine table.**  One row per case: the seconds (wall and CPU, all threads) of the engine
  call :func:`engine.release.anonymize.anonymize` (everything from the data frame in memory
  to the verified release, planning and the search of b included), the peak RSS of the
  process, QI and confidential SSE/SST, the b chosen, achieved k and t, classes and path.
  Cases: the synthetic census file (:mod:`benchmarks.synthetic`, incomes to the cent: nearly
  every value distinct) at each ``--sizes``; the real files adult and ACS; and the tight
  settings of small files (t = 1.05, k = 500 and t = 2, k = 50) on the census-like file of
  :mod:`benchmarks.census_like` (29,501 records, a 51-category state QI) and on adult with
  its widest QIs (native-country: 41 categories, occupation, education, age).
* **I/O ratio** (``--repeat`` runs, median): the command line ``python -m engine anonymize``
  on the largest synthetic CSV (read, plan, anonymize, verify, write) against pandas
  ``read_csv`` + ``to_csv`` of the same file, measured in the same run, alternating.
* **Memory per million records** (``--memory-sizes``): the command line's peak RSS on CSV
  files of those sizes, and the growth per extra million between the smallest and largest.
* **Compiled kernels** (``--no-kernels`` leaves it out): the k-d split and class forming of
  the largest synthetic file with numba and with the numpy route (``TCLOSE_COMPILED=0``),
  checked to give the same classes; and the first-run cost of compiling them (a fresh
  ``NUMBA_CACHE_DIR``, which the engine honours instead of the user's cache folder) against
  loading them from that cache (the first split includes loading the kernels).
* **Peers**, for context, from a separate virtual environment (they pin old library
  versions and are never a dependency): pycanon's ``k_anonymity``/``t_closeness`` against our
  verifier on the same released table, and anjana's ``t_closeness`` on adult with simple
  interval hierarchies.  They are skipped with a note when that environment does not exist.

The machine's load average is printed with the results: the team's machine is shared, and
wall times on a loaded machine say little (CPU seconds say more).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.data import absent, real_data
from benchmarks.peak import own_peak_mb, run_measured

ROOT = Path(__file__).resolve().parent.parent
PEERS_PYTHON = Path(os.environ.get("TCLOSE_PEERS_PYTHON", ROOT.parent / "venv-peers/bin/python"))

SYNTHETIC = {
    "qi": ["age", "hours", "region", "sector"],
    "confidential": ["income"],
    "missing": [],
}
REAL = {
    "adult": {
        "file": "adult.csv",
        "sep": ";",
        "qi": ["age", "sex", "race", "marital-status", "education"],
        "confidential": ["salary-class"],
        "missing": [],
    },
    "acs": {
        "file": "acs-census-sample.csv",
        "sep": ";",
        "qi": ["Age", "Sex", "Marital status", "Education"],
        "confidential": ["Income"],
        "missing": ["-10000"],
    },
}
#: adult with its widest QIs: 41 countries, 14 occupations, 16 education levels, age
ADULT_WIDE = {
    **REAL["adult"],
    "qi": ["native-country", "occupation", "education", "age"],
}
CENSUS_LIKE = {
    "qi": ["state", "puma", "educ", "exper"],
    "confidential": ["incwage"],
    "missing": [],
}

#: small files with tight settings (t near 1 forces classes of hundreds of records)
TIGHT_ROWS = 29_501
TIGHT_CASES = ((1.05, 500), (2.0, 50))


def load_case(name: str, rows: int):
    """(data frame, spec) of a case."""
    import pandas as pd

    if name == "synthetic":
        from benchmarks.synthetic import generate

        return generate(rows, seed=0, cents=True), SYNTHETIC
    if name == "census-like":
        from benchmarks.census_like import generate as census

        return census(rows, seed=0), CENSUS_LIKE
    if name != "adult-wide" and name not in REAL:
        raise SystemExit(f"unknown data set {name}")
    spec = ADULT_WIDE if name == "adult-wide" else REAL[name]
    path = real_data(spec["file"])
    if path is None:
        raise SystemExit(absent(spec["file"], name))
    return pd.read_csv(path, sep=spec["sep"], dtype=str, keep_default_na=False), spec


def case_params(spec: dict, t: float, k: int):
    """The release a case asks for: its spec's columns and missing codes, t and k, seed 0."""
    from engine.params import ReleaseParams

    return ReleaseParams(
        qi=tuple(spec["qi"]),
        confidential=tuple(spec["confidential"]),
        k=k,
        t=t,
        missing=tuple(spec["missing"]),
        seed=0,
    )


def timed_anonymize(data, params):
    """(release, wall seconds, CPU seconds) of one engine call in this process."""
    import resource

    from engine.release import anonymize

    before = resource.getrusage(resource.RUSAGE_SELF)
    started = time.perf_counter()
    release = anonymize(data, params)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return release, wall, cpu


def run_case(name: str, rows: int, t: float, k: int, release_path: str | None) -> dict:
    """One engine call in this process; returns the row of the table."""
    from engine.release import encode_qi, resolve_columns, use_blocks

    data, spec = load_case(name, rows)
    release, seconds, cpu = timed_anonymize(data, case_params(spec, t, k))
    qi = list(spec["qi"])
    types, orders = resolve_columns(data[qi], qi, {}, {})
    path = "blocks" if use_blocks(encode_qi(data[qi], qi, types, orders)) else "exact"
    if release_path:
        release.table.to_csv(release_path, index=False)
    s = release.summary
    return {
        "case": name,
        "rows": len(data),
        "seconds": round(seconds, 2),
        "cpu_seconds": round(cpu, 2),
        "peak_rss_mb": round(own_peak_mb()),
        "qi_sse_sst_pct": round(100 * s.information_loss.qi_sse_sst, 2),
        "conf_sse_sst_pct": round(100 * (s.information_loss.confidential_sse_sst or 0.0), 2),
        "b": sum(not row.missing for row in s.buckets),
        "k": s.k_achieved,
        "t": round(s.t_achieved, 3),
        "classes": s.n_classes,
        "path": path,
    }


def _run(command: list[str], env: dict | None = None) -> dict:
    """Run ``command``; its wall seconds, CPU seconds and peak RSS (MB, its own), its output."""
    return run_measured(command, cwd=ROOT, env=env)


def _worker(args: list[str]) -> dict:
    done = _run([sys.executable, "-m", "benchmarks.bench_engine", "--case", *args])
    return json.loads(done["stdout"].strip().splitlines()[-1])


def _write_synthetic(rows: int, path: Path, name: str = "synthetic") -> None:
    if name == "census-like":
        from benchmarks.census_like import generate as census

        census(rows, seed=0).to_csv(path, index=False)
        return
    from benchmarks.synthetic import generate

    generate(rows, seed=0, cents=True).to_csv(path, index=False)


def _cli(
    src: Path,
    out: Path,
    t: float,
    k: int,
    extra: tuple[str, ...] = (),
    name: str = "synthetic",
) -> list[str]:
    spec = CENSUS_LIKE if name == "census-like" else SYNTHETIC
    return [
        sys.executable, "-m", "engine", "anonymize", str(src), "-o", str(out),
        "--qi", ",".join(spec["qi"]), "--confidential", ",".join(spec["confidential"]),
        "--t", str(t), "--k", str(k), "--seed", "0", *extra,
    ]  # fmt: skip


PANDAS_SCRIPT = r"""
import json, sys, time
import pandas as pd
c, w = time.process_time(), time.perf_counter()
pd.read_csv(sys.argv[1]).to_csv(sys.argv[2], index=False)
print(json.dumps({"cpu": time.process_time() - c, "wall": time.perf_counter() - w}))
"""


def io_ratio(
    src: Path, t: float, k: int, workdir: Path, repeat: int, name: str = "synthetic"
) -> dict:
    """Whole command line run against pandas read + write of the same CSV (median of runs).

    The command line is timed whole (start-up, imports, reading, planning, anonymizing,
    verifying, writing); pandas only for its ``read_csv`` + ``to_csv`` (in a process of its
    own, timed inside), and its peak RSS is that process's (interpreter and pandas import
    included, as the command line's is).  The two alternate, so that a change of the
    machine's load hits both.  ``release_sha256`` fingerprints the released file, so that a
    change meant only for speed can be shown to release the same bytes.
    """
    import hashlib

    pandas, cli = [], []
    digests = set()
    for _ in range(repeat):
        done = _run([sys.executable, "-c", PANDAS_SCRIPT, str(src), str(workdir / "copy.csv")])
        pandas.append(
            json.loads(done["stdout"].strip().splitlines()[-1]) | {"peak_mb": done["peak_mb"]}
        )
        cli.append(_run(_cli(src, workdir / "release.csv", t, k, name=name)))
        digests.add(hashlib.sha256((workdir / "release.csv").read_bytes()).hexdigest())
    med = {
        key: {
            "pandas": statistics.median(r[key] for r in pandas),
            "cli": statistics.median(r[key] for r in cli),
        }
        for key in ("wall", "cpu", "peak_mb")
    }
    return {
        "runs": repeat,
        "pandas_wall": round(med["wall"]["pandas"], 2),
        "pandas_cpu": round(med["cpu"]["pandas"], 2),
        "cli_wall": round(med["wall"]["cli"], 2),
        "cli_cpu": round(med["cpu"]["cli"], 2),
        "cli_peak_mb": round(med["peak_mb"]["cli"]),
        "pandas_peak_mb": round(med["peak_mb"]["pandas"]),
        "ratio_wall": round(med["wall"]["cli"] / med["wall"]["pandas"], 2),
        "ratio_cpu": round(med["cpu"]["cli"] / med["cpu"]["pandas"], 2),
        "ratio_peak": round(med["peak_mb"]["cli"] / med["peak_mb"]["pandas"], 2),
        "release_sha256": sorted(digests),
    }


def memory_per_million(sizes: list[int], t: float, k: int, workdir: Path) -> dict:
    """The command line's peak RSS on CSV files of ``sizes`` records, and its slope."""
    peaks = {}
    for rows in sizes:
        src = workdir / f"memory-{rows}.csv"
        _write_synthetic(rows, src)
        done = _run(_cli(src, workdir / "memory-release.csv", t, k))
        peaks[rows] = {"peak_mb": round(done["peak_mb"]), "cpu": round(done["cpu"], 1)}
        src.unlink()
    lo, hi = min(sizes), max(sizes)
    slope = (peaks[hi]["peak_mb"] - peaks[lo]["peak_mb"]) / ((hi - lo) / 1e6) if hi > lo else None
    return {"peaks": peaks, "mb_per_extra_million": round(slope) if slope else None}


KERNEL_SCRIPT = r"""
import json, sys, time
import numpy as np
from benchmarks.synthetic import generate
from engine.release import (
    check_feasible, encode_qi, form_classes, layout_counts, make_buckets, resolve_columns,
    split_nodes,
)
rows, mode = int(sys.argv[1]), sys.argv[2]
data = generate(rows, seed=0, cents=True)
qi = ["age", "hours", "region", "sector"]
types, orders = resolve_columns(data, qi)
X = encode_qi(data, qi, types, orders)
codes = make_buckets(data, ["income"], None, 4).codes
counts = np.bincount(codes)
shares = counts / counts.sum()
per_class = layout_counts(counts, check_feasible(counts, 3.0, 11, shares))
out = {}
def timed(name, f):
    c, w = time.process_time(), time.perf_counter()
    value = f()
    cpu, wall = time.process_time() - c, time.perf_counter() - w
    out[name] = {"cpu": round(cpu, 2), "wall": round(wall, 2)}
    return value
if mode == "cold":
    small = 3000
    cc = np.bincount(codes[:small])
    sp = layout_counts(cc, 300)
    Xs, cs = X[:small], codes[:small]
    node, end = timed(
        "first split", lambda: split_nodes(Xs, cs, sp, max_records=500, compiled=True)
    )
    timed(
        "first forming",
        lambda: form_classes(Xs, cs, node, end, sp, cc / small, 3.0, 10, compiled=True),
    )
else:
    block = 1000 if rows > 200_000 else 2000
    node, end = timed("split", lambda: split_nodes(X, codes, per_class, max_records=block))
    labels = timed("forming", lambda: form_classes(X, codes, node, end, per_class, shares, 3.0, 11))
    out["checksum"] = int((labels * np.arange(len(labels)) % 1000003).sum())
print(json.dumps(out))
"""


def kernels(rows: int, workdir: Path) -> dict:
    """Split and class forming with numba and with numpy; compiling once against loading."""
    script = workdir / "kernels.py"
    script.write_text(KERNEL_SCRIPT, encoding="utf-8")
    env = {"PYTHONPATH": str(ROOT)}
    result = {}
    for label, extra in (("compiled", {}), ("numpy", {"TCLOSE_COMPILED": "0"})):
        done = _run([sys.executable, str(script), str(rows), "run"], env={**env, **extra})
        result[label] = json.loads(done["stdout"].strip().splitlines()[-1])
    result["same_classes"] = result["compiled"]["checksum"] == result["numpy"]["checksum"]
    cache = workdir / "numba-cache"
    for label in ("first run (compiles)", "second run (cached)"):
        done = _run(
            [sys.executable, str(script), "3000", "cold"],
            env={**env, "NUMBA_CACHE_DIR": str(cache)},
        )
        result[label] = json.loads(done["stdout"].strip().splitlines()[-1])
    return result


PEER_SCRIPT = r"""
import json, sys, time
import pandas as pd
kind, path = sys.argv[1], sys.argv[2]
out = {}
if kind == "pycanon":
    from pycanon import anonymity
    qi, sa = json.loads(sys.argv[3]), json.loads(sys.argv[4])
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    t0 = time.perf_counter(); out["k"] = int(anonymity.k_anonymity(df, qi))
    out["k_seconds"] = round(time.perf_counter() - t0, 2)
    t0 = time.perf_counter(); out["t_emd"] = float(anonymity.t_closeness(df, qi, sa))
    out["t_seconds"] = round(time.perf_counter() - t0, 2)
else:
    import numpy as np
    from anjana.anonymity import t_closeness
    df = pd.read_csv(path, sep=";", dtype=str, keep_default_na=False)
    qi = ["age", "sex", "race", "marital-status", "education"]
    df = df[qi + ["salary-class"]]
    ages = df["age"].astype(int)
    hierarchies = {
        "age": dict(enumerate([
            ages.astype(str).to_numpy(),
            (ages // 5 * 5).map(lambda a: f"[{a}, {a + 5})").to_numpy(),
            (ages // 10 * 10).map(lambda a: f"[{a}, {a + 10})").to_numpy(),
            (ages // 20 * 20).map(lambda a: f"[{a}, {a + 20})").to_numpy(),
            np.full(len(df), "*"),
        ])),
    }
    for col in ["sex", "race", "marital-status", "education"]:
        hierarchies[col] = {0: df[col].to_numpy(), 1: np.full(len(df), "*")}
    t0 = time.perf_counter()
    res = t_closeness(df, [], qi, "salary-class", 10, 0.15, 5.0, hierarchies)
    out["seconds"] = round(time.perf_counter() - t0, 2)
    out["rows_released"] = int(len(res))
    out["rows_suppressed"] = int(len(df) - len(res))
    out["generalised_to"] = {c: int(res[c].nunique()) for c in qi} if len(res) else {}
print(json.dumps(out))
"""


def peers(release_csv: Path, qi: list[str], confidential: list[str]) -> dict:
    """Time pycanon and anjana from their own environment; a note when it is absent."""
    if not PEERS_PYTHON.exists():
        return {"note": f"peers skipped: no environment at {PEERS_PYTHON.name}"}
    import pandas as pd

    from engine.release import verify_release

    table = pd.read_csv(release_csv, dtype=str, keep_default_na=False)
    started = time.perf_counter()
    ours = verify_release(table, qi, confidential)
    ours_seconds = time.perf_counter() - started
    result: dict = {
        "release_rows": len(table),
        "tclose_verify": {"k": ours.k, "t": ours.t, "seconds": round(ours_seconds, 2)},
    }
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False, encoding="utf-8") as f:
        f.write(PEER_SCRIPT)
        script = f.name
    adult = real_data("adult.csv")
    jobs = [("pycanon", [str(release_csv), json.dumps(qi), json.dumps(confidential)])]
    if adult is None:
        result["anjana"] = {"note": absent("adult.csv", "anjana")}
    else:
        jobs.append(("anjana", [str(adult)]))
    for name, args in jobs:
        started = time.perf_counter()
        run = subprocess.run(
            [str(PEERS_PYTHON), script, name, *args],
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
        wall = round(time.perf_counter() - started, 2)
        if run.returncode == 0:
            result[name] = {**json.loads(run.stdout.strip().splitlines()[-1]), "wall": wall}
        else:
            tail = run.stderr.strip().splitlines()[-1:] or ["failed"]
            result[name] = {"error": tail[0], "wall": wall}
    os.unlink(script)
    return result


def _load_average() -> str:
    try:
        return " / ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:  # Windows
        return "n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="tclose engine benchmark")
    parser.add_argument("--case", nargs=5, metavar=("NAME", "ROWS", "T", "K", "RELEASE"))
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--t", type=float, default=3.0)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3, help="runs of the I/O ratio")
    parser.add_argument(
        "--io-data",
        choices=("synthetic", "census-like"),
        default="synthetic",
        help="the file of the I/O ratio (census-like: 51 states one-hot, the widest QIs)",
    )
    parser.add_argument("--memory-sizes", default="1000000,3000000")
    parser.add_argument("--no-table", action="store_true", help="leave out the engine table")
    parser.add_argument("--no-io", action="store_true")
    parser.add_argument("--no-memory", action="store_true")
    parser.add_argument("--no-kernels", action="store_true")
    parser.add_argument("--no-tight", action="store_true")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--json", metavar="FILE", help="also write every number as JSON")
    args = parser.parse_args(argv)
    if args.case:
        name, rows, t, k, release = args.case
        row = run_case(name, int(rows), float(t), int(k), None if release == "-" else release)
        print(json.dumps(row))
        return 0

    sizes = [int(s) for s in args.sizes.split(",") if s]
    report: dict = {"t": args.t, "k": args.k, "cpus": os.cpu_count(), "cases": []}
    header = (
        f"{'case':<20} {'rows':>9} {'wall s':>7} {'CPU s':>7} {'peak MB':>8} {'QI %':>6} "
        f"{'conf %':>6} {'b':>3} {'k':>4} {'t':>6} {'classes':>8} path"
    )
    print(f"tclose engine benchmark; {os.cpu_count()} CPUs; load average {_load_average()}")
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        release = workdir / "release-small.csv"
        jobs = [] if args.no_table else [("synthetic", n, args.t, args.k) for n in sizes]
        for name, spec in {} if args.no_table else REAL.items():
            if real_data(spec["file"]) is None:
                print(absent(spec["file"], name))
            else:
                jobs.append((name, 0, args.t, args.k))
        if not (args.no_tight or args.no_table):
            jobs += [("census-like", TIGHT_ROWS, t, k) for t, k in TIGHT_CASES]
            if real_data(ADULT_WIDE["file"]) is not None:
                jobs += [("adult-wide", 0, t, k) for t, k in TIGHT_CASES]
        for name, rows, t, k in jobs:
            keep = str(release) if (name == "synthetic" and rows == min(sizes)) else "-"
            try:
                row = _worker([name, str(rows), str(t), str(k), keep])
            except RuntimeError as err:
                print(f"{name:<20} {rows:>9} failed: {err}")
                continue
            row.update(t_asked=t, k_asked=k)
            report["cases"].append(row)
            label = row["case"] if (t, k) == (args.t, args.k) else f"{row['case']} {t:g}/{k}"
            print(
                f"{label:<20} {row['rows']:>9,} {row['seconds']:>7.2f} {row['cpu_seconds']:>7.2f} "
                f"{row['peak_rss_mb']:>8.0f} {row['qi_sse_sst_pct']:>6.2f} "
                f"{row['conf_sse_sst_pct']:>6.2f} {row['b']:>3} {row['k']:>4} "
                f"{row['t']:>6.3f} {row['classes']:>8,} {row['path']}",
                flush=True,
            )
        if not args.no_io:
            src = workdir / f"{args.io_data}-{max(sizes)}.csv"
            _write_synthetic(max(sizes), src, args.io_data)
            io = io_ratio(src, args.t, args.k, workdir, args.repeat, args.io_data)
            report["io"] = io
            print(
                f"\nI/O ratio ({args.io_data}, {max(sizes):,} rows, median of {io['runs']}): "
                f"tclose anonymize {io['cli_wall']} s wall, {io['cli_cpu']} s CPU, "
                f"{io['cli_peak_mb']} MB; pandas read+write {io['pandas_wall']} s wall, "
                f"{io['pandas_cpu']} s CPU, {io['pandas_peak_mb']} MB: {io['ratio_wall']}x wall, "
                f"{io['ratio_cpu']}x CPU, {io['ratio_peak']}x peak; released file sha256 "
                f"{', '.join(d[:16] for d in io['release_sha256'])}",
                flush=True,
            )
            src.unlink()
        if not args.no_memory:
            memory_sizes = [int(s) for s in args.memory_sizes.split(",") if s]
            mem = memory_per_million(memory_sizes, args.t, args.k, workdir)
            report["memory"] = mem
            peaks = ", ".join(f"{r:,}: {p['peak_mb']} MB" for r, p in mem["peaks"].items())
            print(
                f"\nMemory of the command line (peak RSS): {peaks}; "
                f"{mem['mb_per_extra_million']} MB per extra million records",
                flush=True,
            )
        if not args.no_kernels:
            result = kernels(max(sizes), workdir)
            report["kernels"] = result
            print(f"\nCompiled kernels ({max(sizes):,} records, t = 3, k = 11, b = 4):")
            print(json.dumps(result, indent=2))
        if not args.no_peers and release.exists():
            result = peers(release, SYNTHETIC["qi"], SYNTHETIC["confidential"])
            report["peers"] = result
            print("\nPeers on the same released table (synthetic, smallest size):")
            print(json.dumps(result, indent=2))
    report["load_average_after"] = _load_average()
    print(f"\nload average at the end: {report['load_average_after']}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
