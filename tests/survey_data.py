"""A seeded synthetic household survey: persons within households, with sampling weights.

What an agency's survey file looks like, with known structure for tests and benchmarks:

* households of 1 to 12 persons (mean about 2.6), each in a ``commune`` of a ``region``;
  ``region``, ``commune``, ``hh_size`` and ``dwelling`` are household-level (one value per
  household), as is ``expenditure`` (a household-level confidential value);
* persons: ``age``, ``sex``, ``married`` and ``educ`` (ordinal) vary within a household (a
  head, often a spouse of the other sex and similar age, children, now and then a parent);
  ``illness_days`` (person-level, zero for most people, more with age) is confidential;
* ``weight``: a stratified design, regions sampled at different rates (1 in 150 to 1 in 900),
  adjusted ±15 % per household for non-response; every member carries the household's weight
  (so the weight tells the stratum).

    python -m tests.survey_data 400000 survey.csv     # about a million persons
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

#: persons per household 1..12
SIZE_P = np.array([28, 30, 17, 13, 6, 3, 1.5, 0.8, 0.4, 0.15, 0.1, 0.05])
#: regions: (name, number of communes, inverse sampling fraction)
REGIONS = (
    ("North", 14, 300),
    ("South", 22, 150),
    ("East", 9, 900),
    ("West", 18, 450),
    ("Centre", 30, 200),
    ("Islands", 6, 600),
)
EDUCATION = ("no schooling", "primary", "secondary", "upper secondary", "tertiary")
DWELLINGS = ("house", "flat", "other")


def household_survey(n_households: int, *, seed: int = 0) -> pd.DataFrame:
    """``n_households`` households and their members; the same ``seed`` gives the same file."""
    rng = np.random.default_rng(seed)
    h = n_households
    size = rng.choice(np.arange(1, 13), size=h, p=SIZE_P / SIZE_P.sum())
    region = rng.choice(len(REGIONS), size=h, p=np.array([3, 5, 1, 3, 6, 1]) / 19)
    n_communes = np.array([r[1] for r in REGIONS])
    first_commune = np.r_[0, np.cumsum(n_communes)[:-1]]
    # communes of a region differ in size (a few towns, many villages)
    pick = np.floor(n_communes[region] * rng.random(h) ** 1.8).astype(np.int64)
    commune = first_commune[region] + pick
    dwelling = rng.choice(len(DWELLINGS), size=h, p=[0.55, 0.38, 0.07])
    expenditure = np.round(rng.lognormal(7.2, 0.5, h) * size**0.6, -1)
    fraction = np.array([r[2] for r in REGIONS], dtype=float)
    weight = np.round(fraction[region] * rng.uniform(0.85, 1.15, h), 2)

    hh = np.repeat(np.arange(h), size)
    n = len(hh)
    pos = np.arange(n) - np.repeat(np.cumsum(size) - size, size)  # 0 = the head
    head_age = np.clip(rng.normal(48, 16, h), 18, 95).round()
    head_sex = rng.integers(0, 2, h)
    spouse = (size >= 2) & (rng.random(h) < 0.75)
    parent = (size >= 3) & (rng.random(h) < 0.08)

    age = np.empty(n)
    sex = rng.integers(0, 2, n)
    married = np.full(n, "single", dtype=object)
    is_head = pos == 0
    age[is_head] = head_age
    sex[is_head] = head_sex
    is_spouse = (pos == 1) & spouse[hh]
    age[is_spouse] = np.clip(head_age[hh[is_spouse]] + rng.normal(-2, 4, is_spouse.sum()), 18, 99)
    sex[is_spouse] = 1 - head_sex[hh[is_spouse]]
    married[is_head & spouse[hh]] = "married"
    married[is_spouse] = "married"
    alone = is_head & ~spouse[hh]
    married[alone] = rng.choice(["single", "divorced", "widowed"], alone.sum(), p=[0.5, 0.3, 0.2])
    is_parent = (pos == size[hh] - 1) & parent[hh] & ~is_head & ~is_spouse
    age[is_parent] = np.clip(head_age[hh[is_parent]] + rng.normal(27, 5, is_parent.sum()), 60, 105)
    married[is_parent] = "widowed"
    child = ~(is_head | is_spouse | is_parent)
    room = np.clip(head_age[hh[child]] - 17, 1, 35)
    age[child] = np.floor(rng.random(child.sum()) * room)
    age = age.round().astype(np.int64)

    level = np.clip(np.round(rng.normal(2.2, 1.0, n) + 0.15 * (region[hh] % 3)), 0, 4)
    level = np.where(age < 6, 0, level)
    level = np.where((age >= 6) & (age < 12), np.minimum(level, 1), level)
    level = np.where((age >= 12) & (age < 18), np.minimum(level, 2), level).astype(np.int64)

    sick = rng.random(n) < np.clip(0.25 + 0.005 * age, 0, 0.9)
    days = np.where(sick, rng.geometric(1 / (3 + age / 12), n), 0)
    days = np.minimum(days, 365)

    names = np.array([f"{REGIONS[r][0][:2].upper()}{c:03d}" for r, c in
                      zip(region, commune, strict=True)], dtype=object)  # fmt: skip
    return pd.DataFrame(
        {
            "household": (np.arange(h) * 7 + 100_003)[hh],  # ids as agencies number them
            "person": pos + 1,
            "region": np.array([r[0] for r in REGIONS], dtype=object)[region][hh],
            "commune": names[hh],
            "hh_size": size[hh],
            "dwelling": np.array(DWELLINGS, dtype=object)[dwelling][hh],
            "age": age,
            "sex": np.where(sex == 0, "female", "male"),
            "married": married,
            "educ": np.array(EDUCATION, dtype=object)[level],
            "illness_days": days.astype(np.int64),
            "expenditure": expenditure[hh].astype(np.int64),
            "weight": weight[hh],
        }
    )


def main(argv: list[str] | None = None) -> int:
    from benchmarks.census_like import generator_main

    return generator_main(household_survey, "households", __doc__, argv)


if __name__ == "__main__":
    sys.exit(main())
