"""``tclose verify``: check any release independently from its released table alone.

Prints JSON with the achieved ``k`` and ``t`` (and the number of classes); exits 0 when the
bounds given with ``--k``/``--t`` hold (or none were given), 4 when they do not.  With
``--household`` the bounds also hold for an intruder who follows the released household ids
(every id's pattern of classes shared by K households, the member's bucket within T), with
``--weight`` with the weight as one more key.
"""

from __future__ import annotations

import argparse
import math
import sys

from engine.cli.cluster_args import add_cluster_argument, parse_cluster
from engine.cli.params_args import columns
from engine.errors import InputError
from engine.i18n import N_, _
from engine.streams import json_text

HELP = N_("check the k and t a released table achieves")
DESCRIPTION = N_(
    "Read RELEASE, group its rows by the released quasi-identifier values and compare "
    "the released confidential values of every class with the whole file "
    "(KBS 2015, Definition 4)."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("release", metavar="RELEASE", help=_("released table (.csv, .xlsx, .parquet)"))
    p.add_argument("--qi", type=columns, default=(), metavar="COL,…")
    p.add_argument("--confidential", type=columns, default=(), metavar="COL,…")
    p.add_argument("--t", metavar="T", help=_("fail unless every class is t-close"))
    p.add_argument("--k", metavar="K", help=_("fail unless every class has ≥ K records"))
    p.add_argument(
        "--household",
        metavar="COL",
        help=_(
            "the release's household ids: every class must also hold records of ≥ K "
            "households, and an intruder who follows the ids must find every household's "
            "pattern of classes shared by ≥ K households and learn no more than T"
        ),
    )
    p.add_argument(
        "--weight",
        metavar="COL",
        help=_("the release's sampling weights: K and T must also hold with the weight as a key"),
    )
    p.add_argument(
        "--household-level",
        type=columns,
        default=(),
        metavar="COL,…",
        help=_("columns every member of a household must share (needs --household)"),
    )
    p.add_argument("--sep", metavar="SEP", help=_("CSV separator (sniffed if omitted)"))
    p.add_argument("--sheet", metavar="NAME", help=_("sheet of an Excel release"))
    add_cluster_argument(p)


def _number(value: float | None) -> float | str | None:
    """A distance as JSON: infinite as "inf"."""
    return None if value is None else ("inf" if math.isinf(value) else value)


def run(args: argparse.Namespace) -> int:
    from engine.io import read_table
    from engine.params import ReleaseParams
    from engine.release import verify_release

    # the bounds are read as the release parameters are: t ≥ 1 finite, k a whole number ≥ 1
    t_bound = None if args.t is None else ReleaseParams.parse("t", args.t)
    k_bound = None if args.k is None else ReleaseParams.parse("k", args.k)
    if args.household_level and not args.household:
        raise InputError(_("--household-level needs --household (the column of household ids)."))
    backend = parse_cluster(args.cluster)
    if backend.distributed and (args.household or args.weight):
        raise InputError(
            _("--household and --weight are checked on one computer; leave out --cluster.")
        )
    if backend.distributed:
        from engine.distributed.run import verify_file
        from engine.io import ReadOptions

        options = ReadOptions(sep=args.sep, sheet=args.sheet)
        v = verify_file(backend, args.release, args.qi, args.confidential, t=t_bound, k=k_bound,
                        options=options)  # fmt: skip
    else:
        table = read_table(args.release, sep=args.sep, sheet=args.sheet).data
        v = verify_release(
            table,
            args.qi,
            args.confidential,
            t=t_bound,
            k=k_bound,
            household=args.household,
            household_level=args.household_level,
            weight=args.weight,
        )
    out = {
        "k": v.k,
        "t": _number(v.t),
        "n_records": v.n_records,
        "n_classes": v.n_classes,
        "ok": v.ok,
        "message": v.message,
        "worst_class": v.worst_class,
        "worst_bucket": v.worst_bucket,
    }
    if args.household:
        out.update(
            households_k=v.households_k,
            n_households=v.n_households,
            split_households=v.split_households,
            shared_classes=v.shared_classes,
            pattern_k=v.pattern_k,
            linking_t=_number(v.linking_t),
            households_below_k=v.households_below_k,
            records_without_id=v.records_without_id,
        )
    if args.weight:
        out.update(weight_k=v.weight_k, weight_t=_number(v.weight_t))
    print(json_text(out, default=str))
    if not v.ok:
        print(_("tclose: {message}").format(message=v.message), file=sys.stderr)
        return 4
    return 0
