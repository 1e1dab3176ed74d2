"""``tclose anonymize``: read a table, release it k-anonymous and t-close, write it out.

The flags are a contract that scripts and checks depend on (issue 3); see ``--help``.  With
``--epsilon E`` the bucket mechanism uses t = exp(E/2) (KBS 2015, Proposition 3) and says so.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from engine.cli.noise_args import add_noise_arguments, noise_config_kwargs
from engine.errors import InputError
from engine.params import ReleaseParams


def columns(text: str) -> tuple[str, ...]:
    """A comma-separated list of column names (spaces around names are ignored)."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if not names:
        raise argparse.ArgumentTypeError("expected one or more column names, separated by commas")
    return names


def codes(text: str) -> tuple[str, ...]:
    """A comma-separated list of missing-value codes (kept as written)."""
    return tuple(code.strip() for code in text.split(","))


def add_cluster_argument(p: argparse.ArgumentParser) -> None:
    """``--cluster``: where the work runs (needs tclose[distributed]); not a release parameter."""
    p.add_argument(
        "--cluster",
        metavar="local[:N]|tcp://HOST:PORT",
        help="compute on a Dask cluster: local (N worker processes) or a scheduler address",
    )


def parse_cluster(text: str | None):
    from engine.distributed.cluster import parse_cluster as parse

    return parse(text)


def _run_on_cluster(args: argparse.Namespace, config: ReleaseParams, backend) -> int:
    from engine.distributed.run import anonymize_file

    if args.report:
        raise InputError("--report is not available with --cluster yet; use --summary FILE.json.")
    summary, v, _ = anonymize_file(backend, args.input, config, args.output, sep=args.sep)
    if args.summary:
        Path(args.summary).write_text(
            json.dumps(summary, indent=2, ensure_ascii=False, default=str), encoding="utf-8"
        )
    b = summary["backend"]
    print(
        f"Released {v.n_records} records in {v.n_classes} classes: k = {v.k}, t = {v.t:.4g} "
        f"(ε = {2 * math.log(v.t):.4g}) on Dask ({b['workers']} workers, {b['partitions']} "
        f"partitions). Written to {args.output}."
    )
    for warning in summary.get("warnings", []):
        print(f"warning: {warning}", file=sys.stderr)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "anonymize",
        help="release a table with k-anonymity and t-closeness (bucket construction)",
        description=(
            "Release INPUT as OUTPUT (.csv or .xlsx): quasi-identifiers recoded into classes of "
            "at least k records, confidential values replaced by buckets so that every class "
            "is t-close to the whole file. The release is verified before it is written."
        ),
    )
    p.add_argument("input", metavar="INPUT", help="input table (.csv, .tsv, .txt, .xlsx, .parquet)")
    p.add_argument(
        "-o", "--output", required=True, metavar="OUTPUT", help=".csv, .xlsx or .parquet"
    )
    p.add_argument("--qi", type=columns, default=(), metavar="COL[,COL…]")
    p.add_argument("--confidential", type=columns, default=(), metavar="COL[,COL…]")
    level = p.add_mutually_exclusive_group()
    level.add_argument("--t", type=float, metavar="T", help="t-closeness level (≥ 1)")
    level.add_argument(
        "--epsilon",
        type=float,
        metavar="E",
        help="ε; buckets: t = exp(E/2); laplace: the ε of the noise",
    )
    p.add_argument("--k", type=int, required=True, metavar="K", help="smallest class size")
    p.add_argument("--identifier", type=columns, default=(), metavar="COL,…")
    p.add_argument("--keep", type=columns, default=(), metavar="COL,…")
    p.add_argument("--buckets", type=int, metavar="B", help="number of buckets (default t+1)")
    p.add_argument("--qi-output", choices=("centroid", "range"), default="centroid")
    p.add_argument("--confidential-output", choices=("label", "representative"), default="label")
    p.add_argument("--missing", type=codes, default=(), metavar="CODE,…")
    p.add_argument("--per-column", action="store_true", help="t-closeness per column, not jointly")
    p.add_argument("--sep", metavar="SEP", help="CSV separator of INPUT (sniffed if omitted)")
    p.add_argument("--sheet", metavar="NAME", help="sheet of an Excel INPUT")
    p.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="reproducible run for audits (row order; noise: only as private as N is secret)",
    )
    p.add_argument("--summary", metavar="FILE.json", help="write the run's numbers as JSON")
    p.add_argument("--report", metavar="FILE.html", help="write the release report (HTML)")
    add_cluster_argument(p)
    add_noise_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from engine.io import read_table, write_release
    from engine.release.anonymize import anonymize

    if args.t is None and args.epsilon is None and args.confidential:
        raise InputError("Give the privacy level with --t T or --epsilon E.")
    if args.report and Path(args.report).suffix.lower() not in {".html", ".htm"}:
        raise InputError(f"{args.report}: the report is an HTML file; name it ….html.")
    if args.buckets is not None and args.buckets < 1:
        raise InputError(f"--buckets must be at least 1, not {args.buckets}.")
    config = ReleaseParams(
        qi=args.qi,
        confidential=args.confidential,
        k=args.k,
        t=args.t,
        epsilon=args.epsilon,
        identifiers=args.identifier,
        keep=args.keep,
        missing=args.missing,
        n_buckets=args.buckets,
        qi_output=args.qi_output,
        confidential_output=args.confidential_output,
        joint=not args.per_column,
        seed=args.seed,
        **noise_config_kwargs(args),
    )
    backend = parse_cluster(args.cluster)
    if backend.distributed:
        return _run_on_cluster(args, config, backend)
    imported = read_table(args.input, sep=args.sep, sheet=args.sheet)
    release = anonymize(imported.data, config)
    summary = dict(release.summary)
    summary["input"] = Path(args.input).name
    write_release(release.table, args.output, metadata=summary, input_path=args.input)
    if args.report:
        from engine.report.html import write_report

        write_report(release, args.report, input_info=imported.info)
    if args.summary:
        Path(args.summary).write_text(
            json.dumps(summary, indent=2, ensure_ascii=False, default=str), encoding="utf-8"
        )
    v = release.verification
    line = f"Released {v.n_records} records in {v.n_classes} classes: k = {v.k}"
    if v.t is not None:
        line += f", t = {v.t:.4g} (ε = {2 * math.log(v.t):.4g})"
    print(f"{line}. Written to {args.output}.")
    if config.mechanism != "buckets":
        s = release.summary
        print(
            f"ε = {s['epsilon']:g} on the confidential values ({s['draws']} draw(s): ε spent "
            f"{s['epsilon_spent']:g}); stochastic t = {s['stochastic_t']:.4g} (Proposition 1)."
        )
    elif args.epsilon is not None:
        print(
            f"ε = {args.epsilon:g} was given: the buckets use t = exp(ε/2) = "
            f"{math.exp(args.epsilon / 2):.4g} (Proposition 3: ε-differential privacy for the "
            "confidential data under the t-closeness assumptions)."
        )
    for warning in release.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return 0
