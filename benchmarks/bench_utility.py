"""What an analyst keeps: QI loss, confidential loss, regression and group means, real files.

    python -m benchmarks.bench_utility                          # every tests/data file, t = 2, 3, 5
    python -m benchmarks.bench_utility --data casc-census --t 3
    python -m benchmarks.bench_utility --json after.json --before before.json   # before → after

For every data set and t ∈ {2, 3, 5} (k = 10 unless ``--k``) it releases the file

* at the **default** settings (b searched with the class size, the bucket mean released);
* at **b = t + 1**, the paper's count (KBS 2015 §6.1; at most k), with the same released
  value, the reference the default must not lose to on the regression;
* and, once per data set and k, **k only**: k-anonymous microaggregation of the QIs with the
  confidential column kept as it is (no t), the ceiling a t-close release cannot pass.

Per release: QI SSE/SST of the released file (as the run summary reports it), confidential
SSE/SST, the mean relative error of the group means by released QI (the review record's,
averaged over the QIs), the coefficient error and the confidence-interval overlap of an
ordinary least-squares regression of the confidential column on the QIs, the achieved k and
t, b, and whether the release passed the independent check on the released table alone.

The regression is fitted here, independently of the engine, on the original records and on
the released ones (each released row matched to its input row): numeric QIs as numbers,
nominal ones as indicators of their categories of at least 20 records (the commonest the
reference), the outcome on a log scale where it is positive and skewed (skewness > 1), as
the review record does.  *coef err* is the median over the slopes of |released − original| /
|original|; *CI overlap* the mean over the slopes of the overlap of the two 95 % intervals
(Karr et al., *The American Statistician* 60, 2006: ½ of the overlap over each interval's
length; 1 when they coincide, 0 or less when they are apart).  Losses and errors in %.

Data: the real files in ``tests/data`` (nothing beside the repository is read): ACS incomes
(QIs Age, Sex, Marital status, Education; Income, −10000 "not applicable"); the CASC census
(QIs AGI, EMCONTRB, WSALVAL, STATETAX; INTVAL), Tarragona (QIs the four asset and sales
columns; OPERATING.PROFIT) and EIA files (QIs the four sales columns; TOTREVENUE); adult
(QIs sex, race, marital-status, education, occupation; age); and ``cps-like``, a seeded
synthetic wage file made from the published log-wage regression of the 1988 Current
Population Survey (``--data cps-like``; not in the default list, it is not a real file).

``--json`` writes every row; ``--before`` reads such a file from an earlier run (another
version of the engine) and prints each measure as before → after.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from benchmarks.results import finish
from engine.params import ReleaseParams
from engine.release import anonymize, bucket_count, verify_release
from engine.report.sweep import utility_measures

ROOT = Path(__file__).resolve().parent.parent
TEST_DATA = ROOT / "tests" / "data"
#: categories of a nominal QI with fewer records are left out of the regression's indicators
MIN_GROUP = 20
#: a positive outcome this skewed is regressed on a log scale (as the review record does)
SKEWED = 1.0
#: the normal quantile of a 95 % interval
Z95 = 1.959964


@dataclass(frozen=True)
class DataSet:
    name: str
    file: str
    qi: tuple[str, ...]
    confidential: str
    missing: tuple[str, ...] = ()
    sep: str = ","
    nominal: tuple[str, ...] = ()


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
        "acs-census-sample.csv.gz",
        ("Age", "Sex", "Marital status", "Education"),
        "Income",
        ("-10000",),
        ";",
        ("Sex", "Marital status", "Education"),
    ),
    "casc-census": DataSet(
        "casc-census", "casc-census.csv.gz", ("AGI", "EMCONTRB", "WSALVAL", "STATETAX"), "INTVAL"
    ),
    "casc-tarragona": DataSet(
        "casc-tarragona",
        "casc-tarragona.csv.gz",
        ("FIXED.ASSETS", "CURRENT.ASSETS", "SALES", "LABOR.COSTS"),
        "OPERATING.PROFIT",
    ),
    "casc-eia": DataSet(
        "casc-eia",
        "casc-eia.csv.gz",
        ("RESSALES", "COMSALES", "INDSALES", "OTHRSALES"),
        "TOTREVENUE",
    ),
    "adult": DataSet(
        "adult",
        "adult.csv.gz",
        ("sex", "race", "marital-status", "education", "occupation"),
        "age",
        sep=";",
        nominal=("sex", "race", "marital-status", "education", "occupation"),
    ),
    "cps-like": DataSet(
        "cps-like",
        "",
        ("education", "experience", "ethnicity", "smsa", "region", "parttime"),
        "wage",
        nominal=("ethnicity", "smsa", "region", "parttime"),
    ),
}
REAL = ("acs", "casc-census", "casc-tarragona", "casc-eia", "adult")


def read(ds: DataSet) -> pd.DataFrame:
    if not ds.file:
        return cps_like()[[*ds.qi, ds.confidential]]
    frame = pd.read_csv(TEST_DATA / ds.file, sep=ds.sep, dtype=str, keep_default_na=False)
    return frame[[*ds.qi, ds.confidential]]


def _design(frame: pd.DataFrame, ds: DataSet, levels: dict[str, list[str]]) -> np.ndarray:
    columns = [np.ones(len(frame))]
    for q in ds.qi:
        if q in ds.nominal:
            text = frame[q].astype(str).to_numpy()
            columns += [(text == level).astype(float) for level in levels[q]]
        else:
            columns.append(pd.to_numeric(frame[q], errors="coerce").to_numpy(float))
    return np.column_stack(columns)


def _ols(A: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Coefficients and their standard errors."""
    beta, *_ = np.linalg.lstsq(A, y, rcond=None)
    resid = y - A @ beta
    dof = max(len(y) - A.shape[1], 1)
    cov = np.linalg.pinv(A.T @ A) * float(resid @ resid) / dof
    return beta, np.sqrt(np.maximum(np.diag(cov), 0.0))


def regression(original: pd.DataFrame, released: pd.DataFrame, ds: DataSet) -> tuple[float, float]:
    """(median relative coefficient error, mean CI overlap) of the slopes (module doc)."""
    levels = {}
    for q in ds.nominal:
        counts = original[q].astype(str).value_counts()
        levels[q] = [str(c) for c, n in counts.items() if n >= MIN_GROUP][1:]
    A, B = _design(original, ds, levels), _design(released, ds, levels)
    y = pd.to_numeric(original[ds.confidential], errors="coerce").to_numpy(float)
    z = pd.to_numeric(released[ds.confidential], errors="coerce").to_numpy(float)
    keep = ~np.isnan(y) & ~np.isnan(z) & ~np.isnan(A).any(axis=1) & ~np.isnan(B).any(axis=1)
    if keep.sum() <= A.shape[1]:
        return float("nan"), float("nan")
    log = bool((y[keep] > 0).all() and (z[keep] > 0).all() and pd.Series(y[keep]).skew() > SKEWED)
    ya, yb = (np.log(y[keep]), np.log(z[keep])) if log else (y[keep], z[keep])
    a, sa = _ols(A[keep], ya)
    b, sb = _ols(B[keep], yb)
    a, sa, b, sb = a[1:], sa[1:], b[1:], sb[1:]
    tiny = 1e-9 * float(np.abs(a).max()) if len(a) else 0.0
    ok = np.abs(a) > max(tiny, 1e-300)
    if not ok.any():
        return float("nan"), float("nan")
    error = float(np.median(np.abs(b[ok] - a[ok]) / np.abs(a[ok])))
    lo_a, hi_a, lo_b, hi_b = a - Z95 * sa, a + Z95 * sa, b - Z95 * sb, b + Z95 * sb
    inner = np.minimum(hi_a, hi_b) - np.maximum(lo_a, lo_b)
    with np.errstate(divide="ignore", invalid="ignore"):
        overlap = 0.5 * (inner / (hi_a - lo_a) + inner / (hi_b - lo_b))
    overlap = overlap[ok & np.isfinite(overlap)]
    return error, float(overlap.mean()) if len(overlap) else float("nan")


def release_row(frame: pd.DataFrame, ds: DataSet, params: ReleaseParams) -> dict:
    release = anonymize(frame, params)
    summary = release.summary
    only_k = params.t is None
    conf = [] if only_k else [ds.confidential]
    check = verify_release(release.table, list(ds.qi), conf, t=params.t, k=params.k)
    original = release.data[list(ds.qi)].copy()
    original[ds.confidential] = (
        frame[ds.confidential].where(~frame[ds.confidential].isin(ds.missing)).to_numpy()
    )
    original = original.iloc[release.source_rows].reset_index(drop=True)
    table = release.table.reset_index(drop=True)
    coef, overlap = regression(original, table, ds)
    groups = float("nan") if only_k else utility_measures(release)["group_mean_error"]
    buckets = release.buckets
    n_buckets = (
        None if buckets is None else len(buckets.counts) - (buckets.missing_bucket is not None)
    )
    return {
        "qi": summary.information_loss.qi_sse_sst,
        "conf": 0.0 if only_k else summary.information_loss.confidential_sse_sst,
        "groups": groups,
        "coef": coef,
        "overlap": overlap,
        "k": summary.k_achieved,
        "t": summary.t_achieved if not only_k else float("nan"),
        "b": n_buckets,
        "coef_engine": None if only_k else utility_measures(release)["coefficient_error"],
        "verified": bool(release.verification.ok and check.ok),
    }


def pct(x: float | None) -> str:
    """A share in % with 3 significant digits; below 0.01 % (rounding) as "< 0.01"."""
    if x is None or np.isnan(x):
        return "—"
    return "< 0.01" if abs(100 * x) < 0.01 else f"{100 * x:.3g}"


def _pair(key: str, row: dict, before: dict | None) -> str:
    if before is None or key not in before:
        return pct(row[key])
    return f"{pct(before[key])} → {pct(row[key])}"


Run = tuple[str, float | None, ReleaseParams]


def runs(ds: DataSet, t_values: list[float], k: int) -> list[Run]:
    """(label, t, parameters) of every release of one data set."""
    base = dict(qi=ds.qi, confidential=(ds.confidential,), missing=ds.missing, k=k, seed=1)
    out: list[Run] = []
    for t in t_values:
        out.append(("default", t, ReleaseParams(**base, t=t)))
        out.append(("b = t + 1", t, ReleaseParams(**base, t=t, n_buckets=bucket_count(t, k))))
    only_k = ReleaseParams(
        qi=ds.qi,
        keep=(ds.confidential,),
        missing=ds.missing,
        k=k,
        seed=1,
        allow_identifier=(ds.confidential,),
    )
    out.append(("k only", None, only_k))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=",".join(REAL))
    parser.add_argument("--t", default="2,3,5")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--json", help="write every row to this file")
    parser.add_argument("--before", help="rows of an earlier run: print before → after")
    args = parser.parse_args(argv)
    before: dict[str, dict] = {}
    if args.before:
        before = {r["key"]: r for r in json.loads(Path(args.before).read_text(encoding="utf-8"))}
    print(
        "| data | t | k | release | b | QI SSE/SST % | conf SSE/SST % | group-mean err % | "
        "coef err % | CI overlap % | k achieved | t achieved | verified |"
    )
    print("|---" * 13 + "|")
    rows, failures = [], 0
    t_values = [float(v) for v in args.t.split(",")]
    for name in args.data.split(","):
        ds = SETS[name]
        frame = read(ds)
        for label, t, params in runs(ds, t_values, args.k):
            row = release_row(frame, ds, params)
            key = f"{name}|{'-' if t is None else f'{t:g}'}|{args.k}|{label}"
            row = {"key": key, **row}
            rows.append(row)
            failures += not row["verified"]
            old = before.get(key)
            t_text = "—" if t is None else f"{t:g}"
            t_got = "—" if np.isnan(row["t"]) else f"{row['t']:.3g}"
            print(
                f"| {name} | {t_text} | {args.k} | {label} | {row['b'] or '—'} | "
                f"{_pair('qi', row, old)} | {_pair('conf', row, old)} | "
                f"{_pair('groups', row, old)} | {_pair('coef', row, old)} | "
                f"{_pair('overlap', row, old)} | {row['k']} | {t_got} | "
                f"{'yes' if row['verified'] else 'NO'} |",
                flush=True,
            )
    return finish(rows, args.json, failures, "failed a check")


if __name__ == "__main__":
    raise SystemExit(main())
