"""``--save-project FILE.json``: the project the app would save, written by the command line.

A release made with flags can then be replayed with ``tclose run FILE.json``, as one made in
the app: the file records the input (its path and SHA-256 checksum, and how it was read:
sheet, separator, encoding, decimal mark, header row), every parameter
(:meth:`ReleaseParams.to_dict <engine.params.ReleaseParams.to_dict>`, the seed included),
where the release and the report went, and where it was computed (``--cluster``).  The file
is checked before the run and written with the release, through the same all-or-nothing
writer: a run that fails writes neither.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from engine.cli.records import json_output
from engine.errors import InputError
from engine.i18n import _

if TYPE_CHECKING:
    from engine.distributed.cluster import Backend
    from engine.io.info import ImportInfo, ReadOptions
    from engine.io.outputs import Output
    from engine.params import ReleaseParams
    from engine.project import Project


def add_project_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--save-project",
        metavar="FILE.json",
        help=_(
            "also write the project file the app would save (input, checksum, parameters, "
            "seed), so that tclose run FILE.json makes the same release again"
        ),
    )


def project_output(args: argparse.Namespace) -> list[Output]:
    """The ``--save-project`` file as an output to check before the run (none without it)."""
    outputs = json_output(
        getattr(args, "save_project", None),
        "project",
        _("{path}: a project file is a JSON file; name it ….json."),
    )
    if outputs and Path(args.input).is_dir():
        raise InputError(
            _(
                "--save-project: a project records one input file and its checksum, and "
                "{input} is a folder (a Parquet dataset); give a file, or run without "
                "--save-project."
            ).format(input=args.input)
        )
    return outputs


def start_project(
    args: argparse.Namespace,
    params: ReleaseParams,
    options: ReadOptions,
    *,
    backend: Backend | None = None,
) -> Project | None:
    """The project of this run, its input's checksum taken now, before the input is read
    (None without ``--save-project``)."""
    if not getattr(args, "save_project", None):
        return None
    from engine.project import new_project

    project = new_project(
        args.input,
        params,
        sheet=None if options.sheet is None else str(options.sheet),
        separator=options.sep,
        encoding=options.encoding,
        decimal=options.decimal,
        header_row=options.header_row,
        output=_absolute(getattr(args, "output", None)),
        report=_absolute(getattr(args, "report", None)),
    )
    if backend is not None and backend.distributed:
        project = replace(project, backend=backend.to_text())
    return project


def as_read(project: Project, info: ImportInfo) -> Project:
    """``project`` reading its input as it was read (the sheet, separator, encoding, decimal
    mark and header row found), as the app saves it."""
    from engine.io.info import ReadOptions

    options = ReadOptions(
        sep=info.separator,
        sheet=info.sheet,
        encoding=info.encoding,
        decimal=info.decimal,
        header_row=info.header_row,
    )
    return replace(project, input=replace(project.input, options=options))


def project_document(args: argparse.Namespace, project: Project | None) -> dict[str, str]:
    """``{FILE.json: text}`` for ``--save-project`` ({} without it)."""
    if project is None:
        return {}
    from engine.project import project_text

    return {args.save_project: project_text(project, args.save_project)}


def _absolute(path: str | Path | None) -> Path | None:
    """A path given on the command line, made absolute: a project resolves a relative path
    against its own folder, not against the folder the command ran in."""
    return None if path is None else Path(path).absolute()


__all__ = [
    "add_project_argument",
    "as_read",
    "project_document",
    "project_output",
    "start_project",
]
