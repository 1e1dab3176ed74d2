"""Laplace noise on the column's own scale against noise on log(1 + value) (``--transform log``).

On skewed, positive confidential columns (ACS Income, CASC census INTVAL, the synthetic
income), for ε ∈ {1, 5}, plain and insensitive (groups of k = 10), both scales: the
confidential SSE/SST, the relative error of the total and the median relative error of the
regression coefficients (OLS of the column, log scale where positive and skewed, on the QIs),
all from the release summary's analysis measures.  Every release is checked on the released
table alone, and every released value lies within the public bounds.

    python -m benchmarks.bench_log_scale [--data acs,casc-census,synthetic] [--seed 1]

The public bounds are round numbers above the column's largest value, as an agency would
publish them (they are not taken from the data by the engine).
"""

from __future__ import annotations

import argparse
import math

import numpy as np
import pandas as pd

from benchmarks.bench_utility import SETS, DataSet, pct, read
from benchmarks.synthetic import generate
from engine.params import ReleaseParams
from engine.release import anonymize
from engine.report.sweep import utility_measures

#: public bounds per data set (round numbers, lower bound 0: the log scale starts there)
BOUNDS = {"acs": (0.0, 1_000_000.0), "casc-census": (0.0, 100_000.0), "synthetic": (0.0, 1e6)}
SYNTHETIC = DataSet("synthetic", "", ("age", "hours", "region", "sector"), "income")


def frame_of(name: str) -> tuple[DataSet, pd.DataFrame | None]:
    if name == "synthetic":
        return SYNTHETIC, generate(20_000, seed=0)[[*SYNTHETIC.qi, SYNTHETIC.confidential]]
    ds = SETS[name]
    return ds, read(ds)


def row(frame: pd.DataFrame, ds: DataSet, params: ReleaseParams) -> dict[str, float | bool]:
    release = anonymize(frame, params)
    lo, hi = params.bounds[ds.confidential]
    values = pd.to_numeric(release.table[ds.confidential], errors="coerce").dropna()
    measures = utility_measures(release)
    return {
        "conf": release.summary.information_loss.confidential_sse_sst,
        "total": measures["total_error"],
        "coef": measures["coefficient_error"],
        "ok": release.verification.ok and bool(((values >= lo) & (values <= hi)).all()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="acs,casc-census,synthetic")
    parser.add_argument("--epsilon", default="1,5")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(
        "| data | ε | groups of k | scale | conf SSE/SST % | total err % | coef err % | "
        "verified, within bounds |"
    )
    print("|---" * 8 + "|")
    failures = 0
    for name in args.data.split(","):
        ds, frame = frame_of(name)
        if frame is None:
            continue
        for epsilon in (float(v) for v in args.epsilon.split(",")):
            for insensitive in (False, True):
                for transform in ("none", "log"):
                    params = ReleaseParams(
                        qi=ds.qi,
                        confidential=(ds.confidential,),
                        missing=ds.missing,
                        k=10,
                        epsilon=epsilon,
                        mechanism="laplace",
                        bounds={ds.confidential: BOUNDS[name]},
                        insensitive=insensitive,
                        transform=transform,
                        seed=args.seed,
                    )
                    r = row(frame, ds, params)
                    failures += not r["ok"]
                    conf = r["conf"]
                    print(
                        f"| {name} | {epsilon:g} | {'yes' if insensitive else 'no'} | "
                        f"{'log(1 + x)' if transform == 'log' else 'x'} | "
                        f"{'—' if conf is None or math.isnan(conf) else f'{100 * conf:.3g}'} | "
                        f"{pct(r['total'])} | {pct(r['coef'])} | {'yes' if r['ok'] else 'NO'} |",
                        flush=True,
                    )
    return 1 if failures else 0


if __name__ == "__main__":
    np.seterr(all="ignore")
    raise SystemExit(main())
