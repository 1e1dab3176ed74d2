"""What an analyst keeps: the paper's b against the default search, on real skewed data.

    python -m benchmarks.bench_utility                 # acs, casc-census, casc-eia, adult, cps-like
    python -m benchmarks.bench_utility --data acs --t 3 --k 10

For every data set, t ∈ {2, 3, 5} and k ∈ {5, 10, 20} it releases the file twice:

* **paper**: b = t + 1 (at most k, KBS 2015 §6.1) and the bucket median released;
* **default**: the defaults, b searched with the class size (``n_buckets`` auto, the default
  ``utility_weight``) and the bucket mean released (p%-rule);

and, with ``--alternatives``, also at the other points the plan offers (one click away).
Both use the same partition code, so the difference is b and the released value.  Per
release: QI SSE/SST (of the released file), confidential SSE/SST, the signed relative error
of the total, the mean relative error of the group means (averaged over the QIs), the median
relative error of the coefficients of the regression of the confidential column on the QIs,
the achieved k and t, b, and two checks: the independent verifier on the released table
alone, and that every released confidential value lies inside the column's central 99 %,
widened by 1 % of its width for means (no extreme value is printed).  Losses are in %.

Data: the real files of ``tests/data`` (acs incomes; the CASC census and EIA files; adult,
a census extract, with ``age`` as the numeric column and five nominal QIs, standing in for a
general social survey), and ``cps-like``, a seeded synthetic wage file made from the
published log-wage regression of the 1988 Current Population Survey (Kleiber & Zeileis,
*Applied Econometrics with R*, §3: education, experience and its square, ethnicity; plus
metropolitan area, region and part-time), 28,155 records as in that survey.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd

from benchmarks.data import absent, real_data
from engine.params import ReleaseParams
from engine.release import MEAN_SLACK, anonymize, bucket_count, plan, verify_release
from engine.report.sweep import utility_measures


@dataclass(frozen=True)
class DataSet:
    name: str
    file: str
    qi: tuple[str, ...]
    confidential: str
    missing: tuple[str, ...] = ()
    sep: str = ","


def cps_like(n: int = 28_155, seed: int = 0) -> pd.DataFrame:
    """Weekly wages from the CPS 1988 log-wage regression (module doc), ~all-distinct values."""
    rng = np.random.default_rng(seed)
    educ = np.clip(np.round(rng.normal(13.07, 2.9, n)), 0, 18).astype(int)
    exper = np.clip(np.round(rng.gamma(2.0, 9.1, n) - 2), -4, 63).astype(int)
    afam = rng.random(n) < 0.076
    smsa = rng.random(n) < 0.743
    areas = ["northeast", "midwest", "south", "west"]
    region = rng.choice(areas, n, p=[0.229, 0.246, 0.309, 0.216])
    part = rng.random(n) < 0.093
    shift = pd.Series({"northeast": 0.05, "midwest": -0.02, "south": -0.08, "west": 0.03})
    log_wage = (
        4.321 + 0.0857 * educ + 0.0778 * exper - 0.00129 * exper**2 - 0.243 * afam
        + 0.12 * smsa + shift[region].to_numpy() - 0.9 * part + rng.normal(0, 0.52, n)
    )  # fmt: skip
    return pd.DataFrame(
        {
            "wage": np.round(np.exp(log_wage), 2),
            "education": educ,
            "experience": exper,
            "ethnicity": np.where(afam, "afam", "cauc"),
            "smsa": np.where(smsa, "yes", "no"),
            "region": region,
            "parttime": np.where(part, "yes", "no"),
        }
    ).astype(str)


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
    "adult": DataSet(
        "adult",
        "adult.csv",
        ("sex", "race", "marital-status", "education", "occupation"),
        "age",
        sep=";",
    ),
    "cps-like": DataSet(
        "cps-like",
        "",
        ("education", "experience", "ethnicity", "smsa", "region", "parttime"),
        "wage",
    ),
}


def read(ds: DataSet) -> pd.DataFrame | None:
    if not ds.file:
        return cps_like()[[*ds.qi, ds.confidential]]
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
    return "< 0.01" if abs(100 * x) < 0.01 else f"{100 * x:.3g}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="acs,casc-census,casc-eia,adult,cps-like")
    parser.add_argument("--t", default="2,3,5")
    parser.add_argument("--k", default="5,10,20")
    parser.add_argument("--weight", type=float, default=None, help="utility_weight of the search")
    parser.add_argument(
        "--alternatives", action="store_true", help="also release at the plan's other points"
    )
    args = parser.parse_args(argv)
    header = (
        "| data | t | k | release | b | QI SSE/SST % | conf SSE/SST % | total err % | "
        "group-mean err % | coef err % | k achieved | t achieved | verified, inside 99 % |"
    )
    print(header)
    print("|---" * 13 + "|")
    failures = 0
    coefficient: dict[str, list[float]] = {}
    for name in args.data.split(","):
        ds = SETS[name]
        frame = read(ds)
        if frame is None:
            continue
        for t in (float(v) for v in args.t.split(",")):
            for k in (int(v) for v in args.k.split(",")):
                base = dict(qi=ds.qi, confidential=(ds.confidential,), missing=ds.missing, k=k, t=t)
                paper = ReleaseParams(
                    **base, n_buckets=bucket_count(t, k), confidential_output="median", seed=1
                )
                default = ReleaseParams(**base, seed=1)
                if args.weight is not None:
                    default = default.replace(utility_weight=args.weight)
                runs = [("paper", paper), ("default", default)]
                if args.alternatives:
                    runs += [
                        (f"other b = {fix.changes['n_buckets']}", fix.apply(default))
                        for fix in plan(frame, default).alternatives
                    ]
                for label, params in runs:
                    row = release_row(frame, ds, params)
                    failures += not (row["verified"] and row["inside"])
                    if label == "default" and not np.isnan(row["coef"]):
                        coefficient.setdefault(name, []).append(row["coef"])
                    print(
                        f"| {name} | {t:g} | {k} | {label} | {row['b']} | {pct(row['qi'])} | "
                        f"{pct(row['conf'])} | {pct(row['total'])} | {pct(row['groups'])} | "
                        f"{pct(row['coef'])} | {row['k']} | {row['t']:.3g} | "
                        f"{'yes' if row['verified'] else 'NO'}, "
                        f"{'yes' if row['inside'] else 'NO'} |",
                        flush=True,
                    )
    for name, values in coefficient.items():
        print(
            f"{name}: coefficient error at the default, median over the grid "
            f"{pct(float(np.median(values)))} % (range {pct(min(values))}–{pct(max(values))} %)"
        )
    if failures:
        print(f"{failures} release(s) failed a check", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
