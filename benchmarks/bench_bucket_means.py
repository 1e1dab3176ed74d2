"""What the rounding rule of bucket means costs the totals, and what it stops.

    python -m benchmarks.bench_bucket_means

A released bucket mean is a sum query: each value counts within its bucket's range (an
open end at a round number, see ``Scale.open_end``) and the mean is rounded to a step one
record cannot cross (``docs/method.md``, *the rounding rule for means*).  For the sample
survey, the ACS income and the CASC magnitudes, with b = 3 and b = 8, this prints the top
bucket (label, records, released mean, exact mean) and the relative error of the released
total.  Then the differencing attack of the issue that brought the rule: a 600-record
survey with one wage of 9,876,543.21 is bucketed with and without that person, and
n·mean − (n − 1)·mean′ of the top bucket is compared with the wage (exact before the rule).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchmarks.data import ROOT, absent, real_data
from engine.io import read_table
from engine.release import make_buckets

#: (file, column, missing code): numeric confidential columns with skewed tails
COLUMNS = [
    ("sample-survey.xlsx", "income", None),
    ("acs-census-sample.csv", "Income", -10000),
    ("casc-census.csv", "PTOTVAL", None),
    ("casc-eia.csv", "TOTREVENUE", None),
    ("casc-tarragona.csv", "SALES", None),
]
EXTREME = 9_876_543.21


def released_total_error(x: np.ndarray, b: int) -> tuple[str, int, float, float, float]:
    buckets = make_buckets(pd.DataFrame({"x": x}), ["x"], {"x": "numeric"}, b)
    means = np.array([m[0] for m in buckets.released("mean")], dtype=float)
    released = means[buckets.codes]
    top = len(buckets.labels) - 1
    exact = float(x[buckets.codes == top].mean())
    return (buckets.labels[top], int(buckets.counts[top]), float(means[top]), exact,
            float(released.sum() / x.sum() - 1))  # fmt: skip


def differencing() -> tuple[float, float]:
    """(the top bucket's n·mean − (n − 1)·mean′, the extreme wage)."""
    rng = np.random.default_rng(1)
    wages = np.round(np.exp(rng.normal(10.5, 0.6, 600)), 2)
    wages[17] = EXTREME
    tops = []
    for x in (wages, np.delete(wages, 17)):
        buckets = make_buckets(pd.DataFrame({"w": x}), ["w"], {"w": "numeric"}, 3)
        tops.append((int(buckets.counts[-1]), float(buckets.stats[-1][0].mean)))
    (n1, m1), (n0, m0) = tops
    return n1 * m1 - n0 * m0, EXTREME


def main() -> int:
    print(f"{'data':<24}{'b':>3}  {'top bucket':<16}{'records':>8}{'released':>12}"
          f"{'exact':>14}{'total error':>13}")  # fmt: skip
    for name, column, code in COLUMNS:
        path = ROOT / "resources" / "sample" / name if name.endswith(".xlsx") else real_data(name)
        if path is None:
            print(absent(name, f"{name}:"))
            continue
        x = read_table(path).data[column].to_numpy(dtype=float)
        x = x[~np.isnan(x) & (x != code)] if code is not None else x[~np.isnan(x)]
        for b in (3, 8):
            label, count, released, exact, error = released_total_error(x, b)
            print(f"{name:<24}{b:>3}  {label:<16}{count:>8,}{released:>12,.0f}{exact:>14,.1f}"
                  f"{100 * error:>12.3f}%")  # fmt: skip
    guess, wage = differencing()
    print(
        f"\ndifferencing the top bucket with and without one wage of {wage:,.2f}: "
        f"{guess:,.2f} ({100 * (guess / wage - 1):+.1f} %; exact to the cent before)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
