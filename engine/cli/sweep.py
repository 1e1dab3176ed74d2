"""``tclose sweep``: information loss over a grid of privacy levels and k, as CSV and PNG.

Example::

    tclose sweep adult.csv --sep ';' --qi age,sex,race --confidential salary-class \\
        --t 1.5,2,3,5,10 --k 5,10,25 -o sweep.csv --plot sweep.png

One row per (privacy level, k); points that cannot be met on the data have
``feasible=False`` and the reason in ``message``.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from engine.cli.anonymize import add_cluster_argument, codes, columns, parse_cluster
from engine.cli.noise_args import add_noise_arguments, noise_config_kwargs
from engine.errors import InputError
from engine.params import ReleaseParams
from engine.roles import ColumnType

#: the sweep's own progress messages ("t = 2, k = 10 (3 of 15)"), one line per point
POINT = re.compile(r"\(\d+ of \d+\)$")


def _numbers(text: str | None, name: str, kind: type = float) -> list:
    if text is None:
        return []
    try:
        return [kind(part) for part in text.split(",") if part.strip()]
    except ValueError as err:
        raise InputError(
            f"--{name} takes numbers separated by commas (e.g. 1.5,2,3), not {text!r}."
        ) from err


def _types(items: list[str] | None) -> dict[str, ColumnType]:
    out: dict[str, ColumnType] = {}
    for item in items or ():
        col, sep, kind = item.partition("=")
        try:
            out[col.strip()] = ColumnType(kind.strip())
        except ValueError as err:
            allowed = ", ".join(t.value for t in ColumnType)
            raise InputError(f"--type takes COLUMN=TYPE with TYPE one of {allowed}.") from err
        if not sep:
            raise InputError(f"--type takes COLUMN=TYPE, not {item!r}.")
    return out


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sweep",
        help="tabulate and plot information loss over a grid of t (or ε) and k",
        description=(
            "Run the anonymization for every combination of privacy level and k and write "
            "one row per point: t, epsilon, k, feasible, qi_sse_sst, confidential_sse_sst, "
            "achieved k and t, number of classes, seconds, message. Nothing is released."
        ),
    )
    p.add_argument("input", type=Path, metavar="INPUT", help="CSV/TSV/TXT or Excel file")
    p.add_argument("--sheet", help="Excel sheet (default: the first)")
    p.add_argument("--sep", help="CSV separator (default: detected)")
    p.add_argument("--encoding", help="text encoding of a CSV (default: UTF-8)")
    p.add_argument("--decimal", help="decimal mark of a CSV (default: .)")
    p.add_argument("--qi", type=columns, default=(), metavar="COL[,COL…]")
    p.add_argument("--confidential", type=columns, default=(), metavar="COL[,COL…]")
    p.add_argument(
        "--type",
        action="append",
        dest="types",
        metavar="COLUMN=TYPE",
        help="override a column's type (numeric, ordinal, nominal, date)",
    )
    p.add_argument("--missing", type=codes, default=(), metavar="CODE,…")
    level = p.add_mutually_exclusive_group(required=True)
    level.add_argument("--t", metavar="T1,T2,…", help="t values to try, e.g. 1.5,2,3")
    level.add_argument("--epsilon", metavar="E1,E2,…", help="ε values to try, e.g. 0.1,1,10")
    p.add_argument("--k", required=True, metavar="K1,K2,…", help="k values to try, e.g. 5,10")
    p.add_argument("--buckets", type=int, help="number of confidential buckets (default: optimal)")
    p.add_argument("--seed", type=int, help="fixed seed, for a reproducible table")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="TABLE.csv")
    p.add_argument("--plot", type=Path, metavar="PLOT.png", help="also draw the curves")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    add_cluster_argument(p)
    add_noise_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from engine.io import read_table
    from engine.report.sweep import run_sweep, sweep_figure

    qi, confidential = tuple(args.qi), tuple(args.confidential)
    if not confidential:
        raise InputError("Name the confidential column(s) with --confidential.")
    if args.output.suffix.lower() != ".csv":
        raise InputError(f"{args.output}: the sweep table is written as CSV; name it ….csv.")
    if args.plot is not None and args.plot.suffix.lower() != ".png":
        raise InputError(f"{args.plot}: the plot is written as PNG; name it ….png.")
    ts = _numbers(args.t, "t")
    epsilons = _numbers(args.epsilon, "epsilon")
    ks = _numbers(args.k, "k", int)
    config = ReleaseParams(
        qi=qi,
        confidential=confidential,
        k=min(ks) if ks else 1,
        t=ts[0] if ts else None,
        epsilon=epsilons[0] if epsilons else None,
        types=_types(args.types),
        missing=tuple(args.missing),
        n_buckets=args.buckets,
        seed=args.seed,
        **noise_config_kwargs(args),
    )
    backend = parse_cluster(args.cluster)
    last = [""]

    def progress(fraction: float, message: str) -> None:
        if not args.quiet and POINT.search(message) and message != last[0]:
            last[0] = message
            print(f"tclose sweep: {message}", file=sys.stderr)

    if backend.distributed:
        from engine.distributed.cluster import connect
        from engine.distributed.release import anonymize_on_cluster

        with connect(backend) as client:

            def on_cluster(cfg, **kwargs):
                return anonymize_on_cluster(client, args.input, cfg, sep=args.sep, **kwargs)

            table = run_sweep(None, config, ts=ts or None, epsilons=epsilons or None, ks=ks,
                              progress=progress, release_fn=on_cluster)  # fmt: skip
    else:
        imported = read_table(
            args.input, sep=args.sep, sheet=args.sheet, encoding=args.encoding,
            decimal=args.decimal,
        )  # fmt: skip
        table = run_sweep(imported.data, config, ts=ts or None, epsilons=epsilons or None,
                          ks=ks, progress=progress)  # fmt: skip
    try:
        table.to_csv(args.output, index=False)
    except OSError as err:
        raise InputError(f"{args.output}: cannot write ({err.strerror or err}).") from err
    written = [args.output]
    if args.plot is not None:
        fig = sweep_figure(table)
        try:
            fig.savefig(args.plot, format="png", dpi=120, facecolor="white")
        except OSError as err:
            raise InputError(f"{args.plot}: cannot write ({err.strerror or err}).") from err
        written.append(args.plot)
    n_bad = int((~table["feasible"]).sum())
    print(
        f"{len(table)} points ({n_bad} infeasible) written to "
        + " and ".join(str(p) for p in written)
    )
    return 0
