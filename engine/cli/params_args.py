"""The command-line flags of a release and of its input, shared by anonymize, plan and sweep.

:func:`add_release_arguments` makes one flag per :class:`~engine.params.ReleaseParams` field
from the field's declaration (:mod:`engine.cli.flags`); :func:`params_from_args` builds the
parameters from them, every value read by :meth:`ReleaseParams.parse`, so a bad value gets the
same message here as in a project file or a GUI field; :func:`argv_for` gives the flags of
given parameters.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from engine.cli.flags import (
    add_field_flags,
    argv_for,
    codes,
    column_pairs,
    columns,
    fields_from_args,
    is_list,
)
from engine.cli.project_args import as_read
from engine.i18n import _
from engine.io import ImportResult, ReadOptions
from engine.params import ReleaseParams
from engine.progress import NO_TASK, Task

if TYPE_CHECKING:
    from engine.project import Project


def column_types(items: list[str] | None) -> dict[str, str]:
    """``["age=numeric"]`` → ``{"age": "numeric"}`` (the values are checked by ReleaseParams)."""
    return column_pairs("--type", items or (), ReleaseParams.FLAGS["types"].values)


def add_input_arguments(parser: argparse.ArgumentParser) -> None:
    """INPUT and how to read it (every reading option is detected when not given)."""
    parser.add_argument(
        "input", metavar="INPUT", help=_("input table (.csv, .tsv, .txt, .xlsx, …)")
    )
    group = parser.add_argument_group(_("reading the input (detected when not given)"))
    group.add_argument("--sep", metavar="SEP", help=_("CSV separator"))
    group.add_argument("--sheet", metavar="NAME", help=_("sheet of a workbook"))
    group.add_argument("--encoding", metavar="NAME", help=_("text encoding of a CSV"))
    group.add_argument("--decimal", metavar="MARK", help=_("decimal mark, . or ,"))


def read_options(args: argparse.Namespace) -> ReadOptions:
    """How to read INPUT, from the input flags (None where the reader is to guess)."""
    return ReadOptions(sep=args.sep, sheet=args.sheet, encoding=args.encoding, decimal=args.decimal)


def read_input(
    args: argparse.Namespace,
    params: ReleaseParams,
    project: Project | None = None,
    *,
    task: Task = NO_TASK,
) -> tuple[ImportResult, ReleaseParams, Project | None]:
    """INPUT read as the flags say, the parameters with its codebook (value-labelled codes are
    categories, user-missing codes are missing, unless told), and the project reading its
    input as it was read (the parameters stay as given: a replay reads the codebook again)."""
    from engine.io import read_table
    from engine.io.codebook import with_codebook

    imported = read_table(args.input, options=read_options(args), task=task)
    if project is not None:
        project = as_read(project, imported.info)
    return imported, with_codebook(params, imported.info.codebook), project


def add_release_arguments(parser: argparse.ArgumentParser, *, grid: bool = False) -> None:
    """One flag per release parameter, built from its declaration (:mod:`engine.cli.flags`);
    with ``grid`` (``tclose sweep``), --t, --epsilon, --k and --buckets take lists."""
    add_field_flags(parser, grid=grid)


def parse_list(name: str, text: str | None) -> list[Any]:
    """``"1.5,2,3"`` → [1.5, 2.0, 3.0], each value checked as parameter ``name``."""
    if text is None:
        return []
    return [ReleaseParams.parse(name, part) for part in text.split(",") if part.strip()]


def grid_buckets(args: argparse.Namespace) -> bool:
    """True when --buckets holds a list (a sweep's b axis), which the sweep reads itself."""
    return is_list(getattr(args, "n_buckets", None))


def params_from_args(args: argparse.Namespace, **overrides: Any) -> ReleaseParams:
    """The release the flags describe (``overrides`` replace single fields, e.g. for a grid)."""
    skip = set(overrides)
    if grid_buckets(args):  # a sweep's b axis, which the sweep reads itself
        skip.add("n_buckets")
    fields = fields_from_args(args, skip=skip)
    fields.update(overrides)
    return ReleaseParams(**fields)


__all__ = [
    "add_input_arguments",
    "add_release_arguments",
    "argv_for",
    "codes",
    "column_types",
    "columns",
    "grid_buckets",
    "params_from_args",
    "parse_list",
    "read_input",
    "read_options",
]
