"""Real-looking files of any size: a real file of ``tests/data`` resampled, with small noise.

A census file of tens of thousands of records whose numeric QIs are nearly all distinct is
what agencies mostly hold and what the exact partition finds hardest (every record its own
QI point).  The real files in the repository have few distinct QI points (ACS: ages in whole
years beside three categorical QIs), so this module draws records from one of them, with
replacement when more are asked than it holds, and adds small noise:

* ``acs-like``, from ``tests/data/acs-census-sample.csv.gz`` (68,725 records): QIs ``Age``
  (plus a uniform draw in [−0.5, 0.5), kept to two decimals: nearly every record its own
  point), ``Sex``, ``Marital status``, ``Education``; confidential ``Income`` (positive incomes
  times e^N(0, 0.05), to the dollar; 0 and the code −10000 for "not applicable" kept).

The same ``seed`` and size give the same file.  Used by :mod:`benchmarks.bench_sizes` (a
census-holdout-like file of 29,501 records, and the same file replicated up to millions).

    python -m benchmarks.real_like 29501 acs-like.csv
"""

from __future__ import annotations

import argparse
import gzip
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
ACS = ROOT / "tests" / "data" / "acs-census-sample.csv.gz"

#: the QIs, confidential column and missing-value code of ``acs-like``
ACS_LIKE = {
    "qi": ["Age", "Sex", "Marital status", "Education"],
    "confidential": ["Income"],
    "missing": ["-10000"],
}


def acs_like(n: int, *, seed: int = 0) -> pd.DataFrame:
    """``n`` records drawn from the ACS sample with noise on Age and positive incomes."""
    with gzip.open(ACS, "rt", encoding="utf-8") as handle:
        base = pd.read_csv(handle, sep=";", dtype=str, keep_default_na=False)
    base = base[[*ACS_LIKE["qi"], *ACS_LIKE["confidential"]]]
    rng = np.random.default_rng(seed)
    rows = rng.choice(len(base), n, replace=n > len(base))
    out = base.iloc[rows].reset_index(drop=True)
    age = pd.to_numeric(out["Age"]).to_numpy(float)
    age = np.maximum(np.round(age + rng.uniform(-0.5, 0.5, n), 2), 0.0)
    income = pd.to_numeric(out["Income"]).to_numpy(float)
    positive = income > 0
    income[positive] = np.round(income[positive] * np.exp(rng.normal(0, 0.05, positive.sum())))
    out["Age"] = age
    out["Income"] = income.astype(np.int64)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", type=int)
    parser.add_argument("output")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    acs_like(args.rows, seed=args.seed).to_csv(args.output, index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
