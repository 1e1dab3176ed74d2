"""Make the synthetic household survey with a commune hierarchy of ``tests/data`` (run from
the repository: ``python -m tests.commune_fixtures``).

A country of 4 provinces, 16 districts and 96 communes (codes: province 1–4, district
11–44, commune 1101–4406, distinct across levels, as agencies' geographic codes are), and a
household survey of it: households drawn in communes of very unequal sizes (a few large
towns, many small villages, as a sample of communes is), 1 to 8 members each, with the
person's age, sex and education, the household's commune (a household-level
quasi-identifier), a sampling weight and a monthly income.  Seeded, so the files are the
same each time.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pandas as pd

DATA = Path(__file__).parent / "data"
SEED = 41
HOUSEHOLDS = 1_600


def hierarchy() -> pd.DataFrame:
    rows = []
    for province in range(1, 5):
        for d in range(1, 5):
            district = province * 10 + d
            for c in range(1, 7):
                rows.append((district * 100 + c, district, province))
    return pd.DataFrame(rows, columns=["commune", "district", "province"])


def survey() -> pd.DataFrame:
    rng = np.random.default_rng(SEED)
    communes = hierarchy()["commune"].to_numpy()
    # commune sizes: a few towns, many villages (a Zipf-like draw)
    weights = 1.0 / np.arange(1, len(communes) + 1) ** 0.9
    weights = rng.permutation(weights / weights.sum())
    home = rng.choice(communes, HOUSEHOLDS, p=weights)
    sizes = rng.choice(
        np.arange(1, 9), HOUSEHOLDS, p=[0.12, 0.18, 0.2, 0.2, 0.13, 0.09, 0.05, 0.03]
    )
    rows = []
    for h, (commune, size) in enumerate(zip(home, sizes, strict=True), 1):
        urban = weights[np.searchsorted(communes, commune)] > 1.5 / len(communes)
        weight = round(float(rng.uniform(80, 400)), 1)
        head_age = int(rng.integers(20, 80))
        for m in range(size):
            age = head_age if m == 0 else int(np.clip(head_age - rng.integers(-5, 45), 0, 95))
            sex = int(rng.integers(1, 3))
            education = int(np.clip(rng.normal(3 if urban else 2, 1.1), 1, 5)) if age >= 15 else 1
            working = age >= 15 and rng.random() < 0.65
            income = (
                round(float(np.exp(rng.normal(6.2 + 0.25 * education + 0.3 * urban, 0.6))))
                if working else 0
            )  # fmt: skip
            rows.append((h, m + 1, age, sex, education, int(commune), weight, income))
    return pd.DataFrame(
        rows,
        columns=["household", "member", "age", "sex", "education", "commune", "weight",
                 "income"],
    )  # fmt: skip


def write(folder: Path = DATA) -> tuple[Path, Path]:
    geo = folder / "commune-hierarchy.csv"
    hierarchy().to_csv(geo, index=False, lineterminator="\n")
    data = folder / "commune-survey.csv.gz"
    with gzip.GzipFile(data, "wb", mtime=0) as fh:
        fh.write(survey().to_csv(index=False, lineterminator="\n").encode("utf-8"))
    return geo, data


if __name__ == "__main__":
    print(*write(), sep="\n")
