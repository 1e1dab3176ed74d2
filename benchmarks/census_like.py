"""A seeded census-style file with a wide categorical QI, for the tight-settings benchmarks.

Shaped like a person extract of a population census (29,501 records in the default size):
``state`` (51 categories, drawn with the shares of the US states' populations, so a few are
large and many small: 51 one-hot dimensions, as a state QI is), ``puma`` (the public-use
area inside the state: a numeric code, about 40 distinct per large state), ``educ`` (years
of schooling, 0–20, heaped at 12 and 16) and ``exper`` (potential experience, 0–50), and the
confidential ``incwage``: positive, skewed, in cents, so nearly every value is distinct,
and 0 for a fifth of the records.  Income depends on education, experience and state.

    python -m benchmarks.census_like 29501 census-like.csv
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

import numpy as np
import pandas as pd

#: 2020 census populations of the 50 states and DC, in millions (public figures, rounded)
STATE_POP = {
    "AL": 5.0, "AK": 0.7, "AZ": 7.2, "AR": 3.0, "CA": 39.5, "CO": 5.8, "CT": 3.6, "DE": 1.0,
    "DC": 0.7, "FL": 21.5, "GA": 10.7, "HI": 1.5, "ID": 1.8, "IL": 12.8, "IN": 6.8, "IA": 3.2,
    "KS": 2.9, "KY": 4.5, "LA": 4.7, "ME": 1.4, "MD": 6.2, "MA": 7.0, "MI": 10.1, "MN": 5.7,
    "MS": 3.0, "MO": 6.2, "MT": 1.1, "NE": 2.0, "NV": 3.1, "NH": 1.4, "NJ": 9.3, "NM": 2.1,
    "NY": 20.2, "NC": 10.4, "ND": 0.8, "OH": 11.8, "OK": 4.0, "OR": 4.2, "PA": 13.0, "RI": 1.1,
    "SC": 5.1, "SD": 0.9, "TN": 6.9, "TX": 29.1, "UT": 3.3, "VT": 0.6, "VA": 8.6, "WA": 7.7,
    "WV": 1.8, "WI": 5.9, "WY": 0.6,
}  # fmt: skip


def generate(n: int, *, seed: int = 0) -> pd.DataFrame:
    """``n`` records; the same ``seed`` gives the same file."""
    rng = np.random.default_rng(seed)
    names = np.array(list(STATE_POP))
    pop = np.array(list(STATE_POP.values()))
    state = rng.choice(len(names), size=n, p=pop / pop.sum())
    # about one public-use area per 100,000 people, numbered 100, 200, … inside each state
    areas = np.maximum(1, np.round(pop * 10)).astype(int)
    puma = (rng.random(n) * areas[state]).astype(int) * 100 + 100
    educ = np.clip(np.round(rng.normal(13.2, 2.8, n)), 0, 20).astype(int)
    heap = rng.random(n)
    educ[heap < 0.25] = 12
    educ[(heap >= 0.25) & (heap < 0.38)] = 16
    age = np.clip(rng.normal(42, 13, n), 18, 80)
    exper = np.clip(np.round(age - educ - 6), 0, 50).astype(int)
    level = 9.4 + 0.09 * (educ - 12) + 0.04 * exper - 0.0007 * exper**2
    level += rng.normal(0, 0.12, len(names))[state]
    wage = np.round(np.exp(level + rng.normal(0, 0.7, n)), 2)
    wage[rng.random(n) < 0.2] = 0.0
    return pd.DataFrame(
        {"state": names[state], "puma": puma, "educ": educ, "exper": exper, "incwage": wage}
    )


def generator_main(
    make: Callable[..., pd.DataFrame], count: str, doc: str, argv: list[str] | None
) -> int:
    """The command line of a generator of synthetic files: ``COUNT OUTPUT [--seed N]`` writes
    ``make(COUNT, seed=N)`` as a CSV file."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument(count, type=int)
    parser.add_argument("output")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    make(getattr(args, count), seed=args.seed).to_csv(args.output, index=False)
    return 0


def main(argv: list[str] | None = None) -> int:
    return generator_main(generate, "rows", __doc__, argv)


if __name__ == "__main__":
    sys.exit(main())
