"""Engine benchmark: wall time, peak memory, information loss and achieved (k, t) per data set.

    python -m benchmarks.bench_engine                      # 10k, 100k, 1M synthetic + adult + acs
    python -m benchmarks.bench_engine --sizes 10000,100000 --no-io --no-peers

Every case runs in its own process, so that its peak resident memory
(``resource.getrusage``) is its own.  The table has one row per case: records, the seconds of
the engine call (:func:`engine.release.anonymize.anonymize`, everything from the data frame
in memory to the verified release), peak RSS, QI SSE/SST (%), achieved k and t, and the
partition path.

The I/O ratio compares the whole command line run (``python -m engine anonymize`` on the
largest synthetic CSV: read, anonymize, verify, write) with the time pandas takes to read and
write the same CSV, measured in the same run.

Peers, for context, from a separate virtual environment (they pin old library versions and are
never a dependency): pycanon's ``k_anonymity``/``t_closeness`` against our verifier on the same
released table, and anjana's ``t_closeness`` on adult with simple interval hierarchies.  They
are skipped with a note when that environment does not exist.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.data import absent, real_data

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


#: small files with tight settings (t near 1 forces classes of hundreds of records): the
#: census extract of the issue had 29,501 records and 5 QIs
TIGHT_ROWS = 29_501
TIGHT_CASES = ((1.05, 500), (2.0, 50))


def tight_data(rows: int):
    """The synthetic census with a fifth QI (sex), for the tight-settings cases."""
    import numpy as np

    from benchmarks.synthetic import generate

    data = generate(rows, seed=1)
    data["sex"] = np.random.default_rng(1).choice(["F", "M"], rows)
    return data, {**SYNTHETIC, "qi": [*SYNTHETIC["qi"], "sex"]}


def _peak_rss_mb() -> float:
    # ru_maxrss is in kilobytes on Linux, bytes on macOS
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)


def run_case(name: str, rows: int, t: float, k: int, release_path: str | None) -> dict:
    """One engine call in this process; returns the row of the table."""
    import pandas as pd

    from engine.params import ReleaseParams
    from engine.release.anonymize import anonymize

    if name == "synthetic":
        from benchmarks.synthetic import generate

        data = generate(rows, seed=0)
        spec = SYNTHETIC
    elif name == "tight":
        data, spec = tight_data(rows)
    else:
        spec = REAL[name]
        path = real_data(spec["file"])
        if path is None:
            raise SystemExit(absent(spec["file"], name))
        data = pd.read_csv(path, sep=spec["sep"], dtype=str, keep_default_na=False)
    config = ReleaseParams(
        qi=tuple(spec["qi"]),
        confidential=tuple(spec["confidential"]),
        k=k,
        t=t,
        missing=tuple(spec["missing"]),
        seed=0,
    )
    before = _peak_rss_mb()
    started = time.perf_counter()
    release = anonymize(data, config)
    seconds = time.perf_counter() - started
    from engine.release.blocks import use_blocks
    from engine.release.encode import encode_qi, resolve_columns

    qi = list(spec["qi"])
    types, orders = resolve_columns(data[qi], qi, {}, {})
    path = "blocks" if use_blocks(encode_qi(data[qi], qi, types, orders)) else "exact"
    if release_path:
        release.table.to_csv(release_path, index=False)
    s = release.summary
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "cpu_seconds_process": round(usage.ru_utime + usage.ru_stime, 2),
        "case": name,
        "rows": len(data),
        "seconds": round(seconds, 2),
        "peak_rss_mb": round(_peak_rss_mb(), 0),
        "rss_before_mb": round(before, 0),
        "qi_sse_sst_pct": round(100 * s.information_loss.qi_sse_sst, 2),
        "conf_sse_sst_pct": round(100 * s.information_loss.confidential_sse_sst, 2),
        "b": sum(not row.missing for row in s.buckets),
        "k": s.k_achieved,
        "t": round(s.t_achieved, 3),
        "classes": s.n_classes,
        "path": path,
    }


def _worker(args: list[str]) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_engine", "--case", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr else "failed")
    return json.loads(out.stdout.strip().splitlines()[-1])


def io_ratio(rows: int, t: float, k: int, workdir: Path) -> dict:
    """Whole command line run against pandas read + write of the same CSV."""
    import pandas as pd

    from benchmarks.synthetic import generate

    src = workdir / f"synthetic-{rows}.csv"
    generate(rows, seed=0).to_csv(src, index=False)
    started = time.perf_counter()
    frame = pd.read_csv(src)
    frame.to_csv(workdir / "pandas-copy.csv", index=False)
    pandas_seconds = time.perf_counter() - started
    del frame
    started = time.perf_counter()
    cli = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "anonymize",
            str(src),
            "-o",
            str(workdir / "release.csv"),
            "--qi",
            ",".join(SYNTHETIC["qi"]),
            "--confidential",
            "income",
            "--t",
            str(t),
            "--k",
            str(k),
            "--seed",
            "0",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    cli_seconds = time.perf_counter() - started
    if cli.returncode != 0:
        raise RuntimeError(cli.stderr.strip())
    return {
        "rows": rows,
        "cli_seconds": round(cli_seconds, 2),
        "pandas_read_write_seconds": round(pandas_seconds, 2),
        "ratio": round(cli_seconds / pandas_seconds, 1),
    }


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

    from engine.release.verify import verify_release

    table = pd.read_csv(release_csv, dtype=str, keep_default_na=False)
    started = time.perf_counter()
    ours = verify_release(table, qi, confidential)
    ours_seconds = time.perf_counter() - started
    result: dict = {
        "release_rows": len(table),
        "tclose_verify": {"k": ours.k, "t": ours.t, "seconds": round(ours_seconds, 2)},
    }
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="tclose engine benchmark")
    parser.add_argument("--case", nargs=5, metavar=("NAME", "ROWS", "T", "K", "RELEASE"))
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--t", type=float, default=3.0)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--no-io", action="store_true")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--json", metavar="FILE", help="also write every number as JSON")
    args = parser.parse_args(argv)
    if args.case:
        name, rows, t, k, release = args.case
        row = run_case(name, int(rows), float(t), int(k), None if release == "-" else release)
        print(json.dumps(row))
        return 0

    sizes = [int(s) for s in args.sizes.split(",") if s]
    report: dict = {"t": args.t, "k": args.k, "cases": []}
    header = (
        f"{'case':<10} {'rows':>9} {'seconds':>8} {'peak MB':>8} {'QI loss %':>9} "
        f"{'conf %':>7} {'b':>3} {'k':>4} {'t':>6} {'classes':>8} path"
    )
    print(f"t = {args.t:g}, k = {args.k}, bucket mechanism; {os.cpu_count()} CPUs")
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        release = workdir / "release-10k.csv"
        jobs = [("synthetic", n, args.t, args.k) for n in sizes]
        for name, spec in REAL.items():
            if real_data(spec["file"]) is None:
                print(absent(spec["file"], name))
            else:
                jobs.append((name, 0, args.t, args.k))
        jobs += [("tight", TIGHT_ROWS, t, k) for t, k in TIGHT_CASES]
        for name, rows, t, k in jobs:
            keep = str(release) if (name == "synthetic" and rows == min(sizes)) else "-"
            try:
                row = _worker([name, str(rows), str(t), str(k), keep])
            except RuntimeError as err:
                print(f"{name:<10} {rows:>9} failed: {err}")
                continue
            row.update(t_asked=t, k_asked=k)
            report["cases"].append(row)
            label = row["case"] if name != "tight" else f"t{t:g}/k{k}"
            print(
                f"{label:<10} {row['rows']:>9,} {row['seconds']:>8.2f} "
                f"{row['peak_rss_mb']:>8.0f} {row['qi_sse_sst_pct']:>9.2f} "
                f"{row['conf_sse_sst_pct']:>7.2f} {row['b']:>3} {row['k']:>4} "
                f"{row['t']:>6.3f} {row['classes']:>8,} {row['path']}",
                flush=True,
            )
        if not args.no_io:
            io = io_ratio(max(sizes), args.t, args.k, workdir)
            report["io"] = io
            print(
                f"\nI/O ratio ({io['rows']:,} rows): tclose anonymize {io['cli_seconds']} s, "
                f"pandas read+write {io['pandas_read_write_seconds']} s: {io['ratio']}x"
            )
        if not args.no_peers and release.exists():
            result = peers(release, SYNTHETIC["qi"], SYNTHETIC["confidential"])
            report["peers"] = result
            print("\nPeers on the same released table (synthetic, smallest size):")
            print(json.dumps(result, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
