"""``tclose anonymize``: read a table, release it k-anonymous and t-close, write it out.

The flags are a contract that scripts and checks depend on; see ``--help``.  With
``--epsilon E`` the bucket mechanism uses t = exp(E/2) (KBS 2015, Proposition 3) and says so.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.cli.cluster_args import add_cluster_argument, parse_cluster
from engine.cli.noise_args import bounds_hint_on_error
from engine.cli.params_args import (
    add_input_arguments,
    add_release_arguments,
    params_from_args,
    read_input,
    read_options,
)
from engine.cli.project_args import (
    add_project_argument,
    project_document,
    project_output,
    start_project,
)
from engine.cli.records import (
    add_record_arguments,
    json_text,
    review_output,
    review_record,
    seed_note,
)
from engine.errors import InputError
from engine.i18n import N_, _
from engine.release import join, summary_words
from engine.text import number

HELP = N_("release a table with k-anonymity and t-closeness (or ε-DP noise)")
DESCRIPTION = N_(
    "Release INPUT as OUTPUT (.csv, .xlsx, .sav, .dta or .parquet): quasi-identifiers "
    "recoded into classes of "
    "at least k records, confidential values replaced by buckets so that every class "
    "is t-close to the whole file (or given ε-DP noise). The release is verified "
    "before it is written."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_input_arguments(p)
    p.add_argument(
        "-o", "--output", required=True, metavar="OUTPUT",
        help=_(".csv, .xlsx, .sav or .dta (SPSS and Stata keep the input's labels), .parquet"),
    )  # fmt: skip
    p.add_argument(
        "--summary",
        metavar="FILE.json",
        help=_("write the published metadata as JSON (what the sidecar or About sheet holds)"),
    )
    p.add_argument(
        "--report",
        metavar="FILE.html",
        help=_("write the release report (HTML; for the review, not for publication)"),
    )
    p.add_argument(
        "--ddi",
        metavar="FILE.xml",
        help=_("write a DDI-Codebook 2.5 description of the release (published facts only)"),
    )
    add_record_arguments(p)
    add_project_argument(p)
    add_release_arguments(p)
    add_cluster_argument(p)


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from engine.io import write_release
    from engine.io.outputs import check_outputs, write_outputs
    from engine.io.write import release_outputs
    from engine.release import anonymize

    params = params_from_args(args)
    if args.report and Path(args.report).suffix.lower() not in {".html", ".htm"}:
        raise InputError(
            _("{report}: the report is an HTML file; name it ….html.").format(report=args.report)
        )
    backend = parse_cluster(args.cluster)
    if backend.distributed:
        return _run_on_cluster(args, params, backend)
    # every output is checked before the (long) run, and written together after it
    outputs = release_outputs(args.output, report=args.report, summary=args.summary, ddi=args.ddi)
    outputs += review_output(args) + project_output(args)
    check_outputs(outputs, inputs=[args.input])
    project = start_project(args, params, read_options(args))
    imported, params, project = read_input(args, params, project, task=args.task)
    with bounds_hint_on_error():
        release = anonymize(imported.data, params, task=args.task)
    summary = replace(release.summary, input=Path(args.input).name)
    release = replace(release, summary=summary)
    published = summary.public_dict(anonymous=args.anonymous)
    with write_outputs(outputs, inputs=[args.input]) as stage:
        write_release(
            release.table,
            args.output,
            metadata=published,
            input_path=args.input,
            codebook=imported.info.codebook,
            ddi=args.ddi,
            stage=stage,
            task=args.task,
        )
        if args.report:
            from engine.report.html import write_report

            write_report(release, args.report, input_info=imported.info, stage=stage)
        _write_records(stage, summary, args)
        for path, text in project_document(args, project).items():
            stage.write_utf8(path, text)
    print(release_line(release.summary, args.output))
    if plain := plain_words(release.summary):
        print(plain)
    for note in imported.info.notes:  # what the reader noticed in the file (sheet, footnotes…)
        print(_("note: {note}").format(note=note), file=sys.stderr)
    for warning in release.warnings:
        print(_("warning: {warning}").format(warning=warning), file=sys.stderr)
    _say_where_the_seed_went(summary, args)
    return 0


def _run_on_cluster(args: argparse.Namespace, params, backend) -> int:
    """The same release computed on a Dask cluster (engine.distributed), which writes the
    release itself; the summary and the review record are checked before the run."""
    from engine.distributed.run import anonymize_file
    from engine.io.outputs import Output

    if args.report:
        raise InputError(_("--report is not available with --cluster yet; use --review FILE.json."))
    records = review_output(args) + project_output(args)
    if args.summary:
        records.append(Output(Path(args.summary), "summary"))
    project = start_project(args, params, read_options(args), backend=backend)
    # every output (the release, the summary, the review record) is checked before the run
    # and committed together with the release
    summary, _release, _report = anonymize_file(
        backend, args.input, params, args.output, options=read_options(args),
        anonymous=args.anonymous, extras=records, ddi=args.ddi,
        documents=lambda run: {**_records(run, args), **project_document(args, project)},
        task=args.task,
    )  # fmt: skip
    b = summary.backend or {}
    print(
        release_line(summary, args.output)
        + " "
        + _("Computed on Dask: {workers} workers, {partitions} partitions.").format(
            workers=b.get("workers"), partitions=b.get("partitions")
        )
    )
    if plain := plain_words(summary):
        print(plain)
    for warning in summary.warnings:
        print(_("warning: {warning}").format(warning=warning), file=sys.stderr)
    _say_where_the_seed_went(summary, args)
    return 0


def _write_records(stage, summary, args: argparse.Namespace) -> None:
    """``--summary`` (the published metadata) and ``--review`` (the review record)."""
    for path, text in _records(summary, args).items():
        stage.write_utf8(path, text)


def _records(summary, args: argparse.Namespace) -> dict[str, str]:
    """The text of ``--summary`` and ``--review``, by file."""
    out = {}
    if args.summary:
        out[args.summary] = json_text(summary.public_dict(anonymous=args.anonymous))
    if args.review:
        out[args.review] = json_text(review_record(summary, args.input).to_dict())
    return out


def _say_where_the_seed_went(summary, args: argparse.Namespace) -> None:
    note = seed_note(
        summary,
        review=args.review,
        report=getattr(args, "report", None),
        project=getattr(args, "save_project", None),
    )
    if note:
        print(note, file=sys.stderr)


def release_line(summary, output: str | Path) -> str:
    """What a run released, in the words and numbers every command prints."""
    line = _("Released {records:,} records in {classes:,} classes: k = {k:,}").format(
        records=summary.n_released, classes=summary.n_classes, k=summary.k_achieved
    )
    if summary.households is not None and summary.households.households_k is not None:
        line += _(" (every class holds ≥ {n:,} households)").format(
            n=summary.households.households_k
        )
    noise = summary.noise
    if noise is None and summary.t_achieved is not None:
        line += f", t = {number(summary.t_achieved)} (ε = {number(summary.epsilon_achieved)})"
    line += _(". Written to {output}.").format(output=output)
    if noise is not None:
        line += "\n" + _(
            "ε = {epsilon} on the confidential values ({draws} "
            "draw(s): ε spent {spent}); stochastic t = "
            "{t} (Proposition 1)."
        ).format(
            epsilon=number(summary.epsilon),
            draws=noise.draws,
            spent=number(noise.epsilon_spent),
            t=number(noise.stochastic_t),
        )
        private = [
            f"{col} {number(lo)}:{number(hi)}"
            for col, (lo, hi) in noise.bounds.items()
            if noise.columns[col].bounds_source != "public"
        ]
        if private:
            line += "\n" + _(
                "Of ε, {epsilon} was spent on private bounds (DP quantiles): {bounds}."
            ).format(epsilon=number(noise.bounds_epsilon), bounds="; ".join(private))
    elif summary.epsilon_from == "given":
        line += "\n" + _(
            "ε = {epsilon} was given: the buckets use t = exp(ε/2) = "
            "{t} (Proposition 3: ε-differential privacy for the confidential "
            "data under the t-closeness assumptions)."
        ).format(epsilon=number(summary.epsilon), t=number(summary.t))
    homes = summary.households
    if homes is not None and homes.records_without_id:
        line += "\n" + _(
            "{n:,} records are released without a household id (too few households of "
            "their size could share their pattern of classes)."
        ).format(n=homes.records_without_id)
    weight = summary.weight
    if weight is not None and weight.output == "keep" and weight.k is not None:
        line += "\n" + _(
            "The weights are released unchanged: with the weight as a key the release has "
            "k = {k:,}{t}."
        ).format(k=weight.k, t="" if weight.t is None else f", t = {number(weight.t)}")
    return line


def plain_words(summary) -> str:
    """What the release achieves in plain words (the phrases the app and the report show)."""
    plain = summary_words(summary)
    return _("In plain words") + f": {join(plain)}" if plain else ""
