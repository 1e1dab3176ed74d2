"""The refinement of a t-close partition and its neighbour search, apart from the rest.

    python -m benchmarks.bench_refine                       # both cases below
    python -m benchmarks.bench_refine --case survey --households 80000
    python -m benchmarks.bench_refine --case synthetic --rows 1000000

Cases: ``survey``, the seeded household survey of ``tests/survey_data.py`` with the QIs
commune (100 categories, one column each), age, sex, married and educ (111 columns) at
t = 3, k = 3 (many small classes in many columns: the hardest case for a k-d tree); and
``synthetic``, the census file of :mod:`benchmarks.synthetic` (incomes to the cent, 11
columns) at t = 3, k = 10.  Buckets b = t + 1 on the confidential column; the classes are
those of the block partition (:func:`engine.release.tclose_blocks`), unrefined.

Printed per case: CPU seconds of one neighbour search over the class centroids, exact (a k-d
tree on the columns as they are) and as the refinement runs it
(:func:`engine.release.partition.neighbours.nearest_points`: a k-d tree on the principal
axes within a factor 1 + ``NEIGHBOUR_EPS`` in few columns, random-projection trees and a
window in many), with how much farther its last neighbour lies on average; then
the refinement itself (:func:`engine.release.refine_classes`, with the block route's budget,
as :func:`engine.release.best_partition` gives it these files): CPU seconds
and the QI SSE/SST before and after.  CPU seconds (``time.process_time``) are the figure to
compare on a shared machine.
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def case_data(case: str, rows: int, households: int) -> tuple[np.ndarray, np.ndarray, float, int]:
    """(QI matrix, bucket codes, t, k) of a case."""
    from engine.release import encode_qi, make_buckets

    if case == "survey":
        from tests.survey_data import household_survey

        data = household_survey(households, seed=0)
        qi, confidential, t, k = ["commune", "age", "sex", "married", "educ"], "illness_days", 3, 3
    else:
        from benchmarks.synthetic import generate

        data = generate(rows, seed=0, cents=True)
        qi, confidential, t, k = ["age", "hours", "region", "sector"], "income", 3, 10
    X = encode_qi(data, qi)
    codes = make_buckets(data, [confidential], None, t + 1).codes
    return X, codes, float(t), k


def centroids(X: np.ndarray, labels: np.ndarray) -> np.ndarray:
    m = int(labels.max()) + 1
    sizes = np.bincount(labels, minlength=m)
    sums = np.stack([np.bincount(labels, X[:, j], minlength=m) for j in range(X.shape[1])], 1)
    return sums / sizes[:, None]


def run(case: str, rows: int, households: int) -> None:
    from scipy.spatial import cKDTree

    from engine.release import (
        block_size,
        nearest_points,
        refine_classes,
        refine_passes,
        sse_sst,
        tclose_blocks,
    )

    X, codes, t, k = case_data(case, rows, households)
    labels = tclose_blocks(X, codes, k, t, refine=0)
    C = centroids(X, labels)
    reach = 9
    cpu = time.process_time()
    exact_d, _ = cKDTree(C).query(C, k=reach)
    exact = time.process_time() - cpu
    cpu = time.process_time()
    found = nearest_points(C, reach)
    ours = time.process_time() - cpu
    last = np.sqrt(((C[found[:, -1]] - C) ** 2).sum(axis=1))
    farther = float(np.mean(last / np.maximum(exact_d[:, -1], 1e-300))) - 1.0
    cpu = time.process_time()
    passes = refine_passes(len(X), len(X) / len(C), block=block_size(len(X)))
    refined = refine_classes(X, labels, codes, t=t, k=k, passes=passes)
    refine = time.process_time() - cpu
    print(
        f"{case}: {len(X):,} records, {X.shape[1]} columns, {len(C):,} classes\n"
        f"  neighbour search: exact k-d tree {exact:.2f} CPU-s; the refinement's: "
        f"{ours:.2f} CPU-s, last neighbour {100 * farther:.2f} % farther\n"
        f"  refinement ({passes:.1f} passes, the block route's budget): {refine:.2f} CPU-s, "
        f"QI SSE/SST {sse_sst(X, labels):.4f} -> {sse_sst(X, refined):.4f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=("survey", "synthetic", "both"), default="both")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--households", type=int, default=80_000)
    args = parser.parse_args(argv)
    for case in ("survey", "synthetic") if args.case == "both" else (args.case,):
        run(case, args.rows, args.households)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
