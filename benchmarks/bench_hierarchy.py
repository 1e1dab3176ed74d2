"""A commune hierarchy against the modal commune, on a household survey.

    python -m benchmarks.bench_hierarchy                 # k = 5, t = 3
    python -m benchmarks.bench_hierarchy --k 10 --t 2

The survey is ``tests/data/commune-survey.csv.gz`` (5,908 persons in 1,600 households of 96
communes, 16 districts, 4 provinces; ``tests/commune_fixtures.py``) with its hierarchy
``tests/data/commune-hierarchy.csv``.  Quasi-identifiers: age, sex, education and the
household's commune; confidential: income; households and weights declared.  Two routes:

* **modal** — today's release: the commune is a nominal category and a class releases its
  most frequent commune;
* **hierarchy** — ``--hierarchy commune=FILE``: classes formed with the hierarchy's distance,
  each releasing its members' lowest common level (commune, district, province or ``*``).

For each: k and t achieved (the verifier's, on the released table), the persons released
with a commune they do not live in (*false communes*), the persons whose released commune
value counts more persons than live in that commune, the commune's loss on one scale for
both routes (the hierarchy distance between a person's own commune and what is released
for it: 0 the commune itself, 1/3 its district, 2/3 its province, 1 nothing shared — for
the modal route the distance to the wrong commune, for the hierarchy route the height of
the released level), the SSE/SST of age and education, and the CPU seconds.
"""

from __future__ import annotations

import argparse
import resource
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from engine import ReleaseParams, anonymize
from engine.recoding import ROOT, Hierarchy, value_text

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
QI = ("age", "sex", "education", "commune")


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run(data: pd.DataFrame, rows: list[list[str]], k: int, t: float, hierarchy: bool) -> dict:
    params = ReleaseParams(
        qi=QI, confidential=("income",), k=k, t=t, household="household", weight="weight",
        types={"commune": "nominal", "sex": "nominal", "education": "ordinal"},
        hierarchies={"commune": rows} if hierarchy else {}, seed=1,
    )  # fmt: skip
    start = cpu()
    release = anonymize(data, params)
    seconds = cpu() - start
    geo = Hierarchy.from_rows(rows)
    table = release.table
    source = release.source_rows
    own = data["commune"].map(value_text).to_numpy()[source]
    shown = table["commune"].map(value_text).to_numpy()
    false = sum(1 for o, s in zip(own, shown, strict=True) if s in geo.paths and s != o)
    lives = pd.Series(own).value_counts()
    released = pd.Series(shown).value_counts()
    over = sum(int(n) for c, n in released.items() if c in geo.paths and n > lives.get(c, 0))
    loss = []
    for o, s in zip(own, shown, strict=True):
        if s == ROOT or s not in geo.paths:  # a level above the commune (or the root)
            loss.append(geo.level_of(s) / len(geo.levels))
        else:  # a commune: the distance from the person's own
            loss.append(geo.level_of(geo.common([o, s])) / len(geo.levels))
    levels = pd.Series([geo.level_of(s) if s == ROOT or s not in geo.paths else 0 for s in shown])
    original = data.iloc[source].reset_index(drop=True)
    sse = {}
    for column in ("age", "education"):
        x = original[column].to_numpy(float)
        y = pd.to_numeric(table[column], errors="coerce").to_numpy(float)
        sse[column] = float(np.sum((x - y) ** 2) / np.sum((x - x.mean()) ** 2))
    losses = [float(np.mean(loss)), sse["age"], sse["education"]]
    return {
        "route": "hierarchy" if hierarchy else "modal",
        "k": release.verification.k,
        "t": release.verification.t,
        "false communes": false,
        "over-released": over,
        "commune loss": float(np.mean(loss)),
        "levels": levels.value_counts().sort_index().to_dict(),
        "SSE/SST age": sse["age"],
        "SSE/SST education": sse["education"],
        "mean QI loss": float(np.mean(losses)),
        "CPU s": seconds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--t", type=float, default=3.0)
    args = parser.parse_args(argv)
    data = pd.read_csv(DATA / "commune-survey.csv.gz")
    geo = pd.read_csv(DATA / "commune-hierarchy.csv", dtype=str)
    rows = [list(geo.columns), *geo.to_numpy().tolist()]
    results = [run(data, rows, args.k, args.t, h) for h in (False, True)]
    frame = pd.DataFrame(results).set_index("route")
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(f"{len(data):,} persons, k = {args.k}, t = {args.t}")
        print(frame.to_string(float_format=lambda v: f"{v:.4f}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
