"""``tclose sweep``: information loss over a grid of privacy levels and k, as CSV and PNG.

Example::

    tclose sweep adult.csv --sep ';' --qi age,sex,race --confidential salary-class \\
        --t 1.5,2,3,5,10 --k 5,10,25 --buckets 3,6,auto -o sweep.csv --plot sweep.png

One row per (privacy level, k, b); points that cannot be met on the data have
``feasible=False`` and the reason in ``message``.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from engine.cli.cluster_args import add_cluster_argument, parse_cluster
from engine.cli.params_args import (
    add_input_arguments,
    add_release_arguments,
    grid_buckets,
    params_from_args,
    parse_list,
    read_input,
    read_options,
)
from engine.errors import InputError
from engine.i18n import N_, _
from engine.params import ReleaseParams
from engine.progress import Task

#: the sweep's own progress messages ("t = 2, k = 10 (3 of 15)"), one line per point
POINT = re.compile(r"\(\d+ of \d+\)$")


HELP = N_("tabulate and plot information loss over a grid of t (or ε), k and b")
DESCRIPTION = N_(
    "Run the anonymization for every combination of privacy level and k and write "
    "one row per point: t, epsilon, k, buckets (asked) and n_buckets (formed), "
    "feasible, qi_sse_sst, confidential_sse_sst, total_error, group_mean_error, "
    "coefficient_error, achieved k and t, number of classes, dominated, seconds, "
    "message. --buckets takes a list (e.g. 3,6,auto): a third axis. Nothing is "
    "released."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_input_arguments(p)
    p.add_argument("-o", "--output", type=Path, required=True, metavar="TABLE.csv")
    p.add_argument("--plot", type=Path, metavar="PLOT.png", help=_("also draw the curves"))
    p.add_argument("-q", "--quiet", action="store_true", help=_("no progress on stderr"))
    add_release_arguments(p, grid=True)
    add_cluster_argument(p)


def run(args: argparse.Namespace) -> int:
    from engine.io.outputs import Output, check_outputs, write_outputs
    from engine.report.sweep import run_sweep, sweep_figure

    if not args.confidential:
        raise InputError(_("Name the confidential column(s) with --confidential."))
    if args.output.suffix.lower() != ".csv":
        raise InputError(
            _("{path}: the sweep table is written as CSV; name it ….csv.").format(path=args.output)
        )
    if args.plot is not None and args.plot.suffix.lower() != ".png":
        raise InputError(
            _("{path}: the plot is written as PNG; name it ….png.").format(path=args.plot)
        )
    ts = parse_list("t", args.t)
    epsilons = parse_list("epsilon", args.epsilon)
    ks = parse_list("k", args.k)
    buckets = (
        [ReleaseParams.parse("n_buckets", b) for b in args.n_buckets.split(",") if b.strip()]
        if grid_buckets(args)
        else None
    )
    if not ks:
        raise InputError(_("Give the k values of the sweep with --k, e.g. --k 5,10."))
    level = {"t": ts[0]} if ts else {"epsilon": epsilons[0]} if epsilons else {}
    params = params_from_args(args, k=ks[0], **level)
    backend = parse_cluster(args.cluster)
    outputs = [Output(args.output, "table")]
    if args.plot is not None:
        outputs.append(Output(args.plot, "plot"))
    check_outputs(outputs, inputs=[args.input])  # before the sweep, which takes a while
    last = [""]

    def progress(fraction: float, message: str) -> None:
        if not args.quiet and POINT.search(message) and message != last[0]:
            last[0] = message
            print(_("tclose sweep: {message}").format(message=message), file=sys.stderr)

    grid = {"ts": ts or None, "epsilons": epsilons or None, "ks": ks, "buckets": buckets}
    if backend.distributed:
        from engine.distributed.cluster import connect
        from engine.distributed.release import anonymize_on_cluster

        with connect(backend) as client:

            def on_cluster(point, **kwargs):
                return anonymize_on_cluster(
                    client, args.input, point, options=read_options(args), **kwargs
                )

            table = run_sweep(None, params, **grid, task=Task(progress), release_fn=on_cluster)
    else:
        imported, params, _project = read_input(args, params)
        table = run_sweep(imported.data, params, **grid, task=Task(progress))
    with write_outputs(outputs, inputs=[args.input]) as stage:
        table.to_csv(stage.temp(args.output), index=False, encoding="utf-8")
        if args.plot is not None:
            fig = sweep_figure(table)
            fig.savefig(stage.temp(args.plot), format="png", dpi=120, facecolor="white")
    written = [o.path for o in outputs]
    n_bad = int((~table["feasible"]).sum())
    print(
        _("{n} points ({bad} infeasible) written to {paths}").format(
            n=len(table), bad=n_bad, paths=_(" and ").join(str(p) for p in written)
        )
    )
    return 0
