"""A seeded synthetic census-style file for benchmarks and the large-file tests.

Columns: two numeric quasi-identifiers (``age``, ``hours`` worked per week), two nominal ones
(``region``, ``sector``) and one numeric confidential column (``income``) with the ties real
income data has: about a quarter of the records earn exactly 0 and the rest is rounded to
hundreds.  Income depends on the quasi-identifiers, so a good partition has work to do.
With ``cents=True`` (``--cents``) the positive incomes are kept to the cent, as a real income
column records them: then nearly every one is distinct (700,000 values in a million records),
which is what the bucket split and the search of b have to cope with; the benchmarks use it.

    python -m benchmarks.synthetic 1000000 synthetic-1m.csv --cents
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd

REGIONS = [f"R{i:02d}" for i in range(12)]
SECTORS = [
    "Agriculture",
    "Construction",
    "Education",
    "Finance",
    "Health",
    "Industry",
    "Public",
    "Retail",
]


def generate(n: int, *, seed: int = 0, cents: bool = False) -> pd.DataFrame:
    """``n`` records; the same ``seed`` gives the same file (module doc for ``cents``)."""
    rng = np.random.default_rng(seed)
    age = np.clip(rng.normal(44, 15, n), 16, 90).round().astype(np.int64)
    working = rng.random(n) < np.where((age > 20) & (age < 66), 0.82, 0.25)
    hours = np.where(working, np.clip(rng.normal(39, 9, n), 1, 80).round(), 0).astype(np.int64)
    hours[working & (rng.random(n) < 0.45)] = 40  # the contractual week: a heavy tie
    region_p = rng.dirichlet(np.full(len(REGIONS), 2.0))
    region = rng.choice(len(REGIONS), size=n, p=region_p)
    sector_p = np.array([0.04, 0.09, 0.1, 0.06, 0.14, 0.2, 0.17, 0.2])
    sector = rng.choice(len(SECTORS), size=n, p=sector_p)
    level = 9.6 + 0.02 * (age - 40) - 0.0004 * (age - 45) ** 2 + 0.012 * (hours - 35)
    level += np.array([-0.3, 0.0, 0.05, 0.45, 0.15, 0.1, 0.05, -0.2])[sector]
    level += rng.normal(0, 0.08, len(REGIONS))[region]
    income = np.exp(level + rng.normal(0, 0.55, n))
    income = income.round(2) if cents else (income / 100).round() * 100
    income[~working & (rng.random(n) < 0.85)] = 0
    return pd.DataFrame(
        {
            "age": age,
            "hours": hours,
            "region": np.array(REGIONS)[region],
            "sector": np.array(SECTORS)[sector],
            "income": income if cents else income.astype(np.int64),
        }
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", type=int)
    parser.add_argument("output")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cents", action="store_true", help="incomes to the cent")
    args = parser.parse_args(argv)
    generate(args.rows, seed=args.seed, cents=args.cents).to_csv(args.output, index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
