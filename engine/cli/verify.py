"""``tclose verify``: check any release independently from its released table alone.

Prints JSON with the achieved ``k`` and ``t`` (and the number of classes); exits 0 when the
bounds given with ``--k``/``--t`` hold (or none were given), 4 when they do not.
"""

from __future__ import annotations

import argparse
import math
import sys

from engine.cli.cluster_args import add_cluster_argument, parse_cluster
from engine.cli.params_args import columns
from engine.streams import json_text


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "verify",
        help="check the k and t a released table achieves",
        description=(
            "Read RELEASE, group its rows by the released quasi-identifier values and compare "
            "the released confidential values of every class with the whole file "
            "(KBS 2015, Definition 4)."
        ),
    )
    p.add_argument("release", metavar="RELEASE", help="released table (.csv, .xlsx, .parquet)")
    p.add_argument("--qi", type=columns, default=(), metavar="COL,…")
    p.add_argument("--confidential", type=columns, default=(), metavar="COL,…")
    p.add_argument("--t", type=float, metavar="T", help="fail unless every class is t-close")
    p.add_argument("--k", type=int, metavar="K", help="fail unless every class has ≥ K records")
    p.add_argument("--sep", metavar="SEP", help="CSV separator (sniffed if omitted)")
    p.add_argument("--sheet", metavar="NAME", help="sheet of an Excel release")
    add_cluster_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from engine.io import read_table
    from engine.release.verify import verify_release

    backend = parse_cluster(args.cluster)
    if backend.distributed:
        from engine.distributed.run import verify_file

        v = verify_file(backend, args.release, args.qi, args.confidential, t=args.t, k=args.k,
                        sep=args.sep)  # fmt: skip
    else:
        table = read_table(args.release, sep=args.sep, sheet=args.sheet).data
        v = verify_release(table, args.qi, args.confidential, t=args.t, k=args.k)
    t = v.t
    out = {
        "k": v.k,
        "t": None if t is None else ("inf" if math.isinf(t) else t),
        "n_records": v.n_records,
        "n_classes": v.n_classes,
        "ok": v.ok,
        "message": v.message,
        "worst_class": v.worst_class,
        "worst_bucket": v.worst_bucket,
    }
    print(json_text(out, default=str))
    if not v.ok:
        print(f"tclose: {v.message}", file=sys.stderr)
        return 4
    return 0
