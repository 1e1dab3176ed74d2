"""``tclose run PROJECT.json``: redo a release from a saved project file.

The project names the input (and its SHA-256 checksum), the roles, types, missing codes,
parameters, mechanism and seed.  The input is checked against the checksum first: a changed
file stops the run (exit 2) unless ``--accept-changed-input`` is given.  With a seed in the
project the release is the same file as the first time.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.cli.cluster_args import add_cluster_argument
from engine.cli.records import add_record_arguments
from engine.i18n import N_, _

HELP = N_("redo a release from a project file (input checked by its checksum)")
DESCRIPTION = N_(
    "Replay a project saved by the GUI or written by hand: check the input file's "
    "checksum, anonymize with the saved parameters, verify, and write the release "
    "(and the report, if the project or --report asks for one)."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("project", type=Path, metavar="PROJECT.json")
    p.add_argument(
        "-o", "--output", type=Path, help=_("release file (.csv/.xlsx); default: the project's")
    )
    p.add_argument(
        "--report",
        type=Path,
        metavar="FILE.html",
        help=_("write the release report (for the review, not for publication)"),
    )
    add_record_arguments(p)
    p.add_argument(
        "--input",
        type=Path,
        metavar="FILE",
        help=_("read this file instead of the project's (its checksum must still match)"),
    )
    p.add_argument(
        "--accept-changed-input",
        action="store_true",
        help=_("run even if the input's checksum differs from the project's (says so)"),
    )
    p.add_argument("--check", action="store_true", help=_("only check the input's checksum"))
    p.add_argument("-q", "--quiet", action="store_true", help=_("no progress on stderr"))
    add_cluster_argument(
        p, help=_("compute on a Dask cluster (overrides the project's backend field)")
    )


def project_backend(project, path: Path, override: str | None):
    """Where to compute: ``--cluster``, else the project's ``backend`` field (this computer).

    The field is ``"backend": {"cluster": "local:4"}`` (or a scheduler address): where a
    release is computed, not what is released, so it is kept apart from the parameters.  A
    project file alone never sends the data to another computer: a scheduler address in it
    must be confirmed with ``--cluster`` on the command line.
    """
    from engine.distributed.cluster import parse_cluster
    from engine.errors import InputError

    if override:
        return parse_cluster(override)
    backend = parse_cluster(project.backend)
    if backend.distributed and backend.address != "local":
        raise InputError(
            _(
                "{name} asks to compute on the Dask scheduler at {address}, which "
                "would send the data to another computer. Confirm it on the command line "
                "(--cluster {address}), or remove the project's backend field to "
                "compute on this computer."
            ).format(name=path.name, address=backend.address)
        )
    return backend


def _targets(args: argparse.Namespace, project) -> tuple[Path, Path | None]:
    """The release and report a run writes: given on the command line, or the project's,
    which must lie in the project's folder (:func:`engine.project.outside_folder`)."""
    from engine.errors import InputError
    from engine.project import outside_folder

    output = args.output or project.output
    if output is None:
        raise InputError(_("The project names no release file; give one with -o FILE.csv."))
    if args.output is None:
        outside_folder(args.project, output, "the release", "-o")
    report = args.report or project.report
    if args.report is None and report is not None:
        outside_folder(args.project, report, "the report", "--report")
    return output, report


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from engine.cli.records import review_output
    from engine.io import write_release
    from engine.io.outputs import check_outputs, write_outputs
    from engine.io.write import release_outputs
    from engine.project import InputChangedError, check_input, load_project
    from engine.project.replay import replay
    from engine.report.html import write_report

    project = load_project(args.project)
    if args.input is not None:
        project = replace(project, input=replace(project.input, path=args.input.resolve()))
    if args.check:
        check_input(project)
        print(_("{name}: checksum matches the project.").format(name=Path(project.input.path).name))
        return 0
    output, report = _targets(args, project)
    backend = project_backend(project, args.project, args.cluster)
    if backend.distributed:
        return _run_on_cluster(args, project, backend, output, report)
    # every output is checked before the run, and written together after it
    outputs = release_outputs(output, report=report) + review_output(args)
    inputs = [project.input.path, args.project]
    check_outputs(outputs, inputs=inputs)
    if args.accept_changed_input:
        try:
            check_input(project)
        except InputChangedError as err:
            print(_("tclose run: warning: {message}").format(message=err.message), file=sys.stderr)
    release, info = replay(project, accept_changed_input=args.accept_changed_input, task=args.task)
    summary = release.summary
    with write_outputs(outputs, inputs=inputs) as stage:
        written = write_release(
            release.table,
            output,
            metadata=_published(summary, args),
            input_path=project.input.path,
            codebook=info.codebook,
            stage=stage,
            task=args.task,
        )
        if report is not None:
            written.append(write_report(release, report, input_info=info, stage=stage))
        for path, text in _review_document(summary, project, args).items():
            stage.write_utf8(path, text)
            written.append(Path(path))
    return _done(args, summary, release.verification, written, report)


def _done(args: argparse.Namespace, summary, verification, written, report) -> int:
    """What a run says when its release is written, on one machine or a cluster alike."""
    from engine.cli.records import seed_note

    if not args.quiet:
        print(verification.message, file=sys.stderr)
    print(_("Wrote {files}").format(files=", ".join(str(p) for p in written)))
    note = seed_note(summary, review=args.review, report=report)
    if note and not args.quiet:
        print(_("{note} It is also in the project file.").format(note=note), file=sys.stderr)
    return 0


def _review_document(summary, project, args: argparse.Namespace) -> dict[str, str]:
    """``{FILE.json: text}`` for ``--review`` ({} without it): the review record, naming the
    project it was replayed from."""
    from engine.cli.records import json_text, review_record

    if not args.review:
        return {}
    record = review_record(summary, project.input.path).to_dict()
    return {args.review: json_text({**record, "project": str(args.project)})}


def _published(summary, args: argparse.Namespace) -> dict:
    """The release's published metadata, naming the project unless ``--anonymous``."""
    return {**summary.public_dict(anonymous=args.anonymous), **_published_project(args)}


def _published_project(args: argparse.Namespace) -> dict:
    return {} if args.anonymous else {"project": str(args.project.name)}


def _run_on_cluster(args, project, backend, output, report) -> int:
    from engine.cli.records import review_output
    from engine.distributed.output import check_cluster_outputs
    from engine.distributed.run import anonymize_file
    from engine.errors import InputError
    from engine.project import InputChangedError, check_input

    if report is not None:
        raise InputError(_("A release report is not available with a cluster yet; drop --report."))
    # the outputs are checked before anything is read (anonymize_file checks them again)
    records = review_output(args)
    check_cluster_outputs(output, extras=records, inputs=[project.input.path, args.project])
    try:
        check_input(project)
    except InputChangedError as err:
        if not args.accept_changed_input:
            raise
        print(_("tclose run: warning: {message}").format(message=err.message), file=sys.stderr)
    summary, ver, written = anonymize_file(
        backend, project.input.path, project.params, output, options=project.input.options,
        anonymous=args.anonymous, metadata=_published_project(args), extras=records,
        documents=lambda run: _review_document(run, project, args),
        inputs=[args.project], task=args.task,
    )  # fmt: skip
    return _done(args, summary, ver, written, None)
