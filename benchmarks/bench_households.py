"""Households and weights: what ``--household`` costs, and what it keeps, on a survey file.

    python -m benchmarks.bench_households                       # 400,000 households (~1M)
    python -m benchmarks.bench_households --households 5741     # the size of an agency survey
    python -m benchmarks.bench_households --households 5741 --t 2 --k 10   # the survey's bar
    python -m benchmarks.bench_households --households 5741 --groups 2,8,32   # group sizes
    python -m benchmarks.bench_households --households 5741 --no-refine   # groups unrefined

The file is the seeded synthetic household survey of ``tests/survey_data.py`` (households of
1 to 12 persons, commune and household size per household, age, sex, marital status and
education per person, stratified weights).  Two runs of the engine call
(:func:`engine.release.anonymize.anonymize`, from the data frame in memory to the verified
release, the plan included), each in a process of its own so that its peak memory is its
own: the QIs commune, age, sex, married, educ with the confidential ``illness_days`` at the
given t and k, once without and once with ``--household household --weight weight``.  The
table shows wall and CPU seconds, peak memory, QI loss and classes; the ratio of the two runs
is the cost of the households (and the confidential loss of each, with its number of
buckets: the household route pays for the protection of the ids with fewer buckets first).
For the household run it also checks, from the released table alone, what the release must
hold (the ids re-coded, the share of persons who keep one, every household's members in one
released commune, every class of at least k households, every released id's pattern shared
by k households and t-close under linking, k and t with the weight as a key, the weighted
total kept) and prints the risk figures of the summary (after: following the ids).
``--no-refine`` leaves the pattern groups as they are formed (no passes of
:mod:`engine.release.households.refine`, in the release nor in the search of b): what the
refinement gains.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.peak import own_peak_mb

ROOT = Path(__file__).resolve().parent.parent
QI = ("commune", "age", "sex", "married", "educ")


def run_case(
    households: int,
    household: bool,
    t: float,
    k: int,
    seed: int,
    qi: tuple[str, ...] = QI,
    refine: bool = True,
) -> dict:
    """One engine call in this process; its figures as a dict (``refine`` False: the pattern
    groups left unrefined)."""
    import importlib

    import numpy as np
    import pandas as pd

    if not refine:  # the module of the pattern route, whose passes this run sets to none
        patterns = importlib.import_module("engine.release.households.patterns")
        patterns.passes_for = lambda n_households: 0
        patterns.TRIAL_PASSES = 0

    from engine import anonymize
    from engine.params import ReleaseParams
    from engine.release import verify_release
    from tests.survey_data import household_survey

    data = household_survey(households, seed=seed)
    survey = {"household": "household", "weight": "weight"} if household else {}
    params = ReleaseParams(qi=qi, confidential=("illness_days",), t=t, k=k, **survey)
    wall, cpu = time.perf_counter(), time.process_time()
    release = anonymize(data, params)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    out = {
        "records": len(data),
        "households": int(data["household"].nunique()),
        "seconds": round(wall, 2),
        "cpu_seconds": round(cpu, 2),
        "peak_mb": round(own_peak_mb()),
        "qi_loss": release.summary.information_loss.qi_sse_sst,
        "classes": release.summary.n_classes,
        "k": release.summary.k_achieved,
        "t": release.summary.t_achieved,
    }
    out["confidential_loss"] = release.summary.information_loss.confidential_sse_sst
    out["buckets"] = len(release.buckets.counts) if release.buckets is not None else None
    if household:
        table, rows = release.table, release.source_rows
        original = data["household"].to_numpy()[rows]
        given = table["household"].notna().to_numpy()
        pairs = {(a, b) for a, b in zip(original[given], table["household"][given], strict=True)}
        level = ["commune"] if "commune" in qi else []
        # the release alone, as an intruder reads it: the ids followed, the weight a key
        v = verify_release(table, qi, ["illness_days"], t=t, k=k, household="household",
                           household_level=level, weight="weight")  # fmt: skip
        w = table["weight"].to_numpy()
        before = float((data["weight"] * data["illness_days"]).sum())
        after = float((w * table["illness_days"]).sum())
        summary = release.summary.to_dict()
        commune_kept = shares_commune = None
        if "commune" in qi:
            commune_kept = float(
                np.mean(table["commune"].to_numpy() == data["commune"].to_numpy()[rows])
            )
            shares_commune = bool((table.groupby("household")["commune"].nunique() == 1).all())
        spearman = pd.Series(original[given]).corr(
            pd.Series(table["household"][given].to_numpy(dtype=float)), method="spearman"
        )
        out.update(
            # one released id per household that has one, and the numbering says nothing of
            # the original: a rank correlation within three standard errors of none (a random
            # numbering of h households has a standard error of 1 / sqrt(h - 1))
            ids_recoded=len(pairs) == len({a for a, _ in pairs}) == len({b for _, b in pairs})
            and bool(abs(float(spearman)) < 3 / np.sqrt(max(len(pairs) - 1, 1))),
            id_rank_correlation=float(spearman),
            persons_with_id=float(given.mean()),
            members_share_commune=shares_commune,
            households_per_class=v.households_k,
            pattern_k=v.pattern_k,
            linking_t=v.linking_t,
            weight_k=v.weight_k,
            weight_t=v.weight_t,
            verified=v.ok,
            weighted_total_error=abs(after - before) / before,
            commune_kept=commune_kept,
            expected_reidentifications=summary["expected_reidentifications"],
            household_risk=summary["household_risk"],
            household_unique=(
                summary["risk"]["before"]["share_household_unique"],
                summary["risk"]["after"]["share_household_unique"],
            ),
        )
    return out


def group_table(households: int, t: float, k: int, seed: int, sizes: list[int]) -> None:
    """QI loss and commune kept for several sizes of household groups (GROUP_CLASSES): the
    route of a release that leaves the household ids out."""
    import importlib

    import numpy as np

    from engine import plan
    from engine.params import ReleaseParams
    from engine.release import household_partition, size_candidates
    from tests.survey_data import household_survey

    # the module of the household partition, whose GROUP_CLASSES this table varies
    homes = importlib.import_module(household_partition.__module__)

    data = household_survey(households, seed=seed)
    params = ReleaseParams(qi=QI, confidential=("illness_days",), t=t, k=k,
                           household="household", weight="weight")  # fmt: skip
    planned = plan(data, params)
    prepared = planned.prepared
    codes = planned.bucket_data.codes
    found = prepared.households
    print(f"{len(data):,} persons in {households:,} households; t = {t:g}, k = {k}")
    print(f"{'groups of':>10}{'size':>6}{'groups':>8}{'QI loss':>9}{'commune kept':>14}")
    default = homes.GROUP_CLASSES
    try:
        for classes in sizes:
            homes.GROUP_CLASSES = classes
            size = homes.household_size(
                prepared.clean, prepared.qi, prepared.types, prepared.orders, found, codes, t,
                k, size_candidates(np.bincount(codes), k, t),
            )  # fmt: skip
            _, groups, loss = homes.household_partition(
                prepared.clean, prepared.qi, prepared.types, prepared.orders, found, codes, t,
                k, size,
            )  # fmt: skip
            commune = prepared.clean["commune"].to_numpy()
            mode = {}
            for g, c in zip(groups, commune, strict=True):
                mode.setdefault(g, {}).setdefault(c, 0)
                mode[g][c] += 1
            top = {g: max(v, key=v.get) for g, v in mode.items()}
            kept = float(np.mean([top[g] == c for g, c in zip(groups, commune, strict=True)]))
            print(f"{classes:>10}{size:>6}{int(groups.max()) + 1:>8}{100 * loss:>8.1f}%"
                  f"{100 * kept:>13.1f}%")  # fmt: skip
    finally:
        homes.GROUP_CLASSES = default


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--households", type=int, default=400_000)
    parser.add_argument("--t", type=float, default=3.0)
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--qi",
        default=",".join(QI),
        help="quasi-identifiers (default: commune,age,sex,married,educ; without commune every "
        "QI is person-level and the households only bound the classes)",
    )
    parser.add_argument(
        "--groups",
        metavar="G1,G2,…",
        help="instead: the QI loss for household groups of G classes' worth of records",
    )
    parser.add_argument(
        "--no-refine",
        action="store_true",
        help="leave the pattern groups unrefined (what the refinement gains)",
    )
    parser.add_argument("--case", choices=("plain", "household"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.groups:
        group_table(args.households, args.t, args.k, args.seed,
                    [int(g) for g in args.groups.split(",")])  # fmt: skip
        return 0
    if args.case:
        qi = tuple(args.qi.split(","))
        result = run_case(args.households, args.case == "household", args.t, args.k, args.seed, qi,
                          refine=not args.no_refine)  # fmt: skip
        print(json.dumps(result))
        return 0
    results = {}
    for case in ("plain", "household"):
        command = [sys.executable, "-m", "benchmarks.bench_households", "--case", case,
                   "--households", str(args.households), "--t", str(args.t), "--k", str(args.k),
                   "--seed", str(args.seed), "--qi", args.qi,
                   *(["--no-refine"] if args.no_refine else [])]  # fmt: skip
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
        if done.returncode:
            print(done.stderr, file=sys.stderr)
            return done.returncode
        results[case] = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"{case}: {results[case]}", flush=True)
    plain, house = results["plain"], results["household"]
    print(f"{house['records']:,} persons in {house['households']:,} households; QIs {args.qi}; "
          f"t = {args.t:g}, k = {args.k}; load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    print(f"{'run':<22}{'wall s':>8}{'CPU s':>8}{'peak MB':>9}{'QI loss':>9}{'classes':>9}")
    for name, r in (("without --household", plain), ("--household --weight", house)):
        print(f"{name:<22}{r['seconds']:>8.1f}{r['cpu_seconds']:>8.1f}{r['peak_mb']:>9,}"
              f"{100 * r['qi_loss']:>8.2f}%{r['classes']:>9,}")  # fmt: skip
    print(f"ratio (household / plain): wall {house['seconds'] / plain['seconds']:.2f}, "
          f"CPU {house['cpu_seconds'] / plain['cpu_seconds']:.2f}")  # fmt: skip
    print(f"confidential loss: {plain['confidential_loss']:.3f} ({plain['buckets']} buckets) "
          f"without households, {house['confidential_loss']:.3f} ({house['buckets']} buckets) "
          f"with; QI loss ratio {house['qi_loss'] / plain['qi_loss']:.2f}")  # fmt: skip
    checks = ("ids_recoded", "id_rank_correlation", "persons_with_id", "members_share_commune",
              "households_per_class", "pattern_k", "linking_t", "weight_k", "weight_t", "verified",
              "weighted_total_error", "commune_kept", "expected_reidentifications",
              "household_risk", "household_unique")  # fmt: skip
    for key in checks:
        print(f"  {key}: {house[key]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
