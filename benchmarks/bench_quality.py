"""Quality of the scalable path against the exact one on 50,000-record samples.

    python -m benchmarks.bench_quality               # acs and synthetic, t = 2 and 3, k = 10

For each data set and t: the QI SSE/SST (%) and seconds of the exact bucket-capped MDAV
(:func:`engine.release.partition.tclose_partition`) and of the block path
(:func:`engine.release.partition.blocks.tclose_blocks`, default settings), their ratio
(target ≤ 1.15), and the achieved k and t of the block path's classes.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import pandas as pd

from benchmarks.data import absent, real_data
from benchmarks.synthetic import generate
from engine.io import apply_missing
from engine.release import (
    class_distances,
    encode_qi,
    make_buckets,
    paper_bucket_count,
    resolve_columns,
    sse_sst,
    tclose_blocks,
    tclose_partition,
)


def prepare(
    frame: pd.DataFrame, qi: list[str], conf: str, t: float, missing: tuple[str, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """The encoded QI matrix and bucket codes, as :func:`engine.release.anonymize.anonymize`."""
    clean = apply_missing(frame[[*qi, conf]], missing, {}).reset_index(drop=True)
    types, orders = resolve_columns(clean, [*qi, conf], {}, {})
    X = encode_qi(clean, qi, types, orders)
    buckets = make_buckets(clean, [conf], types, paper_bucket_count(t), orders=orders)
    return X, buckets.codes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--t", default="2,3")
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args(argv)
    sets = {}
    acs_path = real_data("acs-census-sample.csv")
    if acs_path is None:
        print(absent("acs-census-sample.csv", "acs"))
    else:
        acs = pd.read_csv(acs_path, sep=";", dtype=str, keep_default_na=False)
        sets["acs"] = (
            acs.sample(args.rows, random_state=0),
            ["Age", "Sex", "Marital status", "Education"],
            "Income",
            ("-10000",),
        )
    sets["synthetic"] = (
        generate(args.rows, seed=0),
        ["age", "hours", "region", "sector"],
        "income",
        (),
    )
    print(
        f"{'data':<10} {'t':>4} {'exact %':>8} {'s':>6} {'blocks %':>9} {'s':>6} {'ratio':>6} "
        f"{'k':>3} {'t achieved':>10}"
    )
    for name, (frame, qi, conf, missing) in sets.items():
        for t in (float(v) for v in args.t.split(",")):
            X, codes = prepare(frame, qi, conf, t, missing)
            started = time.perf_counter()
            exact = tclose_partition(X, codes, args.k, t)
            exact_s = time.perf_counter() - started
            started = time.perf_counter()
            blocks = tclose_blocks(X, codes, args.k, t)
            blocks_s = time.perf_counter() - started
            e, b = 100 * sse_sst(X, exact), 100 * sse_sst(X, blocks)
            print(
                f"{name:<10} {t:>4g} {e:>8.2f} {exact_s:>6.1f} {b:>9.2f} {blocks_s:>6.1f} "
                f"{b / e:>6.3f} {np.bincount(blocks).min():>3} "
                f"{class_distances(blocks, codes).max():>10.3f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
