"""Utility of ε-DP noise on the ACS income, plain Laplace versus insensitive microaggregation.

For ε ∈ {0.1, 1, 10} and k ∈ {1, 5, 25}: the mean absolute error of the released income and
the stochastic t (Proposition 1 at a smallest class of k records), the numbers behind the
poster's figure.  Income is clamped to the public bounds 0:250000; -10000 ("not applicable")
is missing and stays missing, so N counts the records with an income.  The plain mechanism
does not depend on k for its error (noise Δ/ε on every value); its stochastic t does.  The
insensitive variant adds noise Δ/(kε) to means of k sorted values, so its error falls with k
while its per-record ε, and hence its stochastic t, grows (k·ε).

Also times the noise for 1,000,000 values with both sources (OpenDP / OS entropy, seeded).

    python benchmarks/noise_table.py [--data acs-census-sample.csv] [--seed 1]

(without ``--data`` the ACS sample is looked for where :mod:`benchmarks.data` says.)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.data import absent, real_data  # noqa: E402
from engine.mechanisms.laplace import insensitive_release, laplace_release  # noqa: E402
from engine.mechanisms.sampling import OsEntropy, Seeded  # noqa: E402
from engine.privacy import stochastic_t  # noqa: E402

LO, HI = 0.0, 250_000.0
EPSILONS = (0.1, 1.0, 10.0)
KS = (1, 5, 25)


def income(path: Path) -> np.ndarray:
    df = pd.read_csv(path, sep=";", keep_default_na=False, usecols=["Income"])
    x = pd.to_numeric(df["Income"], errors="coerce").to_numpy(dtype=float)
    return x[(x != -10000) & ~np.isnan(x)]


def table(x: np.ndarray, seed: int) -> pd.DataFrame:
    rows = []
    n = x.size
    for eps in EPSILONS:
        for k in KS:
            plain = laplace_release(x, LO, HI, eps, Seeded(seed))
            ins = insensitive_release(x, LO, HI, eps, k, Seeded(seed))
            rows.append(
                {
                    "epsilon": eps,
                    "k": k,
                    "MAE plain": float(np.abs(plain.values - x).mean()),
                    "MAE insensitive": float(np.abs(ins.values - x).mean()),
                    "t plain": stochastic_t(eps, k, n),
                    "t insensitive": stochastic_t(k * eps, k, n),
                }
            )
    return pd.DataFrame(rows)


def fmt_t(t: float) -> str:
    return f"{t:.4g}" if t < 1e6 else f"{t:.3e}"


def timing(n: int) -> list[tuple[str, float, float]]:
    """(source, wall seconds, CPU seconds of this process) for noise on n values."""
    x = np.random.default_rng(0).uniform(LO, HI, n)
    out = []
    for name, source in (("OpenDP, OS entropy", OsEntropy()), ("seeded (PCG64)", Seeded(1))):
        wall, cpu = time.perf_counter(), time.process_time()
        laplace_release(x, LO, HI, 1.0, source)
        out.append((name, time.perf_counter() - wall, time.process_time() - cpu))
    return out


def print_table(x: np.ndarray, seed: int) -> None:
    print(f"ACS Income: N = {x.size} records with an income, bounds {LO:g}:{HI:g}")
    df = table(x, seed)
    print()
    print("| ε | k | MAE plain | MAE insensitive | stochastic t plain | stochastic t insensitive |")
    print("|---|---|---|---|---|---|")
    for r in df.itertuples(index=False):
        print(f"| {r[0]:g} | {r[1]} | {r[2]:,.0f} | {r[3]:,.0f} | {fmt_t(r[4])} | {fmt_t(r[5])} |")
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=real_data("acs-census-sample.csv"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timing-n", type=int, default=1_000_000)
    args = parser.parse_args()
    if args.data is None or not args.data.is_file():
        print(absent("acs-census-sample.csv", "the noise table"))
    else:
        print_table(income(args.data), args.seed)
    for name, wall, cpu in timing(args.timing_n):
        print(f"noise for {args.timing_n:,} values, {name}: {wall:.1f} s wall, {cpu:.1f} s CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
