"""What an analyst keeps: the old defaults against the new ones, on real skewed data.

    python -m benchmarks.bench_utility                 # acs, casc-census, casc-eia
    python -m benchmarks.bench_utility --data acs --t 3 --k 10

For every data set, t ∈ {2, 3, 5} and k ∈ {5, 10, 20} it releases the file twice:

* **before**: the old defaults, b = t + 1 (at most k) and the bucket median released;
* **after**: the new defaults, b searched with the class size (``n_buckets`` auto,
  ``utility_weight`` 0.5) and the bucket mean released (p%-rule).

Both use the same partition code, so the difference is b and the released value.  Per
release: QI SSE/SST, confidential SSE/SST, the relative error of the total, the mean
relative error of the group means (averaged over the QIs), the median relative error of the
regression coefficients, the achieved k and t, b, and two checks: the independent verifier on
the released table alone, and that every released confidential value lies inside the
column's central 99 %, widened by 1 % of its width for means (no extreme value is printed).
Losses are in %.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd

from benchmarks.data import absent, real_data
from engine.params import ReleaseParams
from engine.release.anonymize import anonymize
from engine.release.buckets import MEAN_SLACK, bucket_count
from engine.release.verify import verify_release
from engine.report.sweep import utility_measures


@dataclass(frozen=True)
class DataSet:
    name: str
    file: str
    qi: tuple[str, ...]
    confidential: str
    missing: tuple[str, ...] = ()
    sep: str = ","


SETS = {
    "acs": DataSet(
        "acs",
        "acs-census-sample.csv",
        ("Age", "Sex", "Marital status", "Education"),
        "Income",
        ("-10000",),
        ";",
    ),
    "casc-census": DataSet(
        "casc-census", "casc-census.csv", ("AGI", "EMCONTRB", "WSALVAL", "STATETAX"), "INTVAL"
    ),
    "casc-eia": DataSet(
        "casc-eia", "casc-eia.csv", ("RESSALES", "COMSALES", "INDSALES", "OTHRSALES"), "TOTREVENUE"
    ),
}


def read(ds: DataSet) -> pd.DataFrame | None:
    path = real_data(ds.file)
    if path is None:
        print(absent(ds.file, ds.name))
        return None
    frame = pd.read_csv(path, sep=ds.sep, dtype=str, keep_default_na=False)
    return frame[[*ds.qi, ds.confidential]]


def release_row(frame: pd.DataFrame, ds: DataSet, params: ReleaseParams) -> dict:
    release = anonymize(frame, params)
    summary = release.summary
    check = verify_release(release.table, list(ds.qi), [ds.confidential], t=params.t, k=params.k)
    original = pd.to_numeric(frame[ds.confidential], errors="coerce")
    original = original[~frame[ds.confidential].isin(ds.missing)].to_numpy(float)
    lo, hi = np.quantile(original[~np.isnan(original)], [0.005, 0.995])
    slack = MEAN_SLACK * (hi - lo)  # a mean this close to the central 99 % is no extreme
    lo, hi = lo - slack, hi + slack
    released = pd.to_numeric(release.table[ds.confidential], errors="coerce").dropna()
    measures = utility_measures(release)
    buckets = release.buckets
    return {
        "qi": summary.information_loss.qi_sse_sst,
        "conf": summary.information_loss.confidential_sse_sst,
        "total": measures["total_error"],
        "groups": measures["group_mean_error"],
        "coef": measures["coefficient_error"],
        "k": summary.k_achieved,
        "t": summary.t_achieved,
        "b": len(buckets.counts) - (buckets.missing_bucket is not None),
        "verified": release.verification.ok and check.ok,
        "inside": bool(((released >= lo) & (released <= hi)).all()),
    }


def pct(x: float) -> str:
    """A share in % with 3 significant digits; below 0.01 % (rounding) as "< 0.01"."""
    if x is None or np.isnan(x):
        return "—"
    return "< 0.01" if 100 * x < 0.01 else f"{100 * x:.3g}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="acs,casc-census,casc-eia")
    parser.add_argument("--t", default="2,3,5")
    parser.add_argument("--k", default="5,10,20")
    parser.add_argument(
        "--weight", type=float, default=None, help="utility_weight of the new defaults"
    )
    args = parser.parse_args(argv)
    header = (
        "| data | t | k | defaults | b | QI SSE/SST % | conf SSE/SST % | total err % | "
        "group-mean err % | coef err % | k achieved | t achieved | verified, inside 99 % |"
    )
    print(header)
    print("|---" * 13 + "|")
    failures = 0
    for name in args.data.split(","):
        ds = SETS[name]
        frame = read(ds)
        if frame is None:
            continue
        for t in (float(v) for v in args.t.split(",")):
            for k in (int(v) for v in args.k.split(",")):
                base = dict(qi=ds.qi, confidential=(ds.confidential,), missing=ds.missing, k=k, t=t)
                old = ReleaseParams(
                    **base, n_buckets=bucket_count(t, k), confidential_output="median", seed=1
                )
                new = ReleaseParams(**base, seed=1)
                if args.weight is not None:
                    new = new.replace(utility_weight=args.weight)
                for label, params in (("before", old), ("after", new)):
                    row = release_row(frame, ds, params)
                    failures += not (row["verified"] and row["inside"])
                    print(
                        f"| {name} | {t:g} | {k} | {label} | {row['b']} | {pct(row['qi'])} | "
                        f"{pct(row['conf'])} | {pct(row['total'])} | {pct(row['groups'])} | "
                        f"{pct(row['coef'])} | {row['k']} | {row['t']:.3g} | "
                        f"{'yes' if row['verified'] else 'NO'}, "
                        f"{'yes' if row['inside'] else 'NO'} |",
                        flush=True,
                    )
    if failures:
        print(f"{failures} release(s) failed a check", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
