"""The command-line flags of a release and of its input, shared by anonymize, plan and sweep.

:func:`add_release_arguments` declares one flag per :class:`~engine.params.ReleaseParams`
field; :func:`params_from_args` builds the parameters from them.  Number flags are read as
text and parsed by :meth:`ReleaseParams.parse`, so a bad value gets the same message here as
in a project file or a GUI field.
"""

from __future__ import annotations

import argparse
from typing import Any

from engine.cli.noise_args import add_noise_arguments, noise_config_kwargs
from engine.errors import InputError
from engine.i18n import _
from engine.io import ReadOptions
from engine.params import ReleaseParams
from engine.roles import ColumnType


def columns(text: str) -> tuple[str, ...]:
    """A comma-separated list of column names (spaces around names are ignored)."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if not names:
        raise argparse.ArgumentTypeError("expected one or more column names, separated by commas")
    return names


def codes(text: str) -> tuple[str, ...]:
    """A comma-separated list of missing-value codes (kept as written)."""
    return tuple(code.strip() for code in text.split(","))


def column_types(items: list[str] | None) -> dict[str, str]:
    """``["age=numeric"]`` → ``{"age": "numeric"}`` (the values are checked by ReleaseParams)."""
    out: dict[str, str] = {}
    for item in items or ():
        col, sep, kind = item.partition("=")
        if not sep or not col.strip():
            allowed = ", ".join(t.value for t in ColumnType)
            raise InputError(
                _("--type takes COLUMN=TYPE with TYPE one of {allowed}, not {item}.").format(
                    allowed=allowed, item=repr(item)
                )
            )
        out[col.strip()] = kind.strip()
    return out


def add_input_arguments(parser: argparse.ArgumentParser) -> None:
    """INPUT and how to read it (every reading option is detected when not given)."""
    parser.add_argument("input", metavar="INPUT", help="input table (.csv, .tsv, .txt, .xlsx, …)")
    group = parser.add_argument_group("reading the input (detected when not given)")
    group.add_argument("--sep", metavar="SEP", help="CSV separator")
    group.add_argument("--sheet", metavar="NAME", help="sheet of a workbook")
    group.add_argument("--encoding", metavar="NAME", help="text encoding of a CSV")
    group.add_argument("--decimal", metavar="MARK", help="decimal mark, . or ,")


def read_options(args: argparse.Namespace) -> ReadOptions:
    """How to read INPUT, from the input flags (None where the reader is to guess)."""
    return ReadOptions(sep=args.sep, sheet=args.sheet, encoding=args.encoding, decimal=args.decimal)


def add_release_arguments(parser: argparse.ArgumentParser, *, grid: bool = False) -> None:
    """One flag per release parameter; with ``grid``, --t, --epsilon and --k take lists."""
    roles = parser.add_argument_group("columns")
    roles.add_argument("--qi", type=columns, default=(), metavar="COL[,COL…]")
    roles.add_argument("--confidential", type=columns, default=(), metavar="COL[,COL…]")
    roles.add_argument("--identifier", type=columns, default=(), metavar="COL,…")
    roles.add_argument(
        "--keep", type=columns, default=(), metavar="COL,…", help="release unchanged"
    )
    survey = parser.add_argument_group("survey files: households and sampling weights")
    survey.add_argument(
        "--household",
        metavar="COL",
        help="household id of every person (any type): every class then holds records of at "
        "least k households, household-level QIs are released alike for all members, and the "
        "id is released re-coded",
    )
    survey.add_argument(
        "--weight",
        metavar="COL",
        help="sampling weight of every record (a number > 0): used for the risk estimates and "
        "weighted bucket means; released unchanged",
    )
    survey.add_argument(
        "--household-level",
        type=columns,
        default=(),
        metavar="COL,…",
        help="QIs to release alike for all members of a household, besides those found "
        "constant within every household",
    )
    survey.add_argument(
        "--household-output",
        choices=("recode", "none"),
        default="recode",
        help="the household id in the release: recode (a fresh random numbering; the "
        "default) or none (left out)",
    )
    survey.add_argument(
        "--weight-output",
        choices=("keep", "none"),
        default="keep",
        help="the weight in the release: keep (unchanged, the default; weights can reveal the "
        "sampling stratum) or none (left out)",
    )
    roles.add_argument(
        "--type",
        action="append",
        dest="types",
        metavar="COLUMN=TYPE",
        help="a column's type: numeric, ordinal, nominal or date (inferred when not given)",
    )
    roles.add_argument("--missing", type=codes, default=(), metavar="CODE,…")
    roles.add_argument(
        "--missing-confidential",
        choices=("bucket", "drop"),
        default="bucket",
        help=(
            "records with a missing confidential value: bucket (released empty, in a bucket "
            "every class must hold; the default) or drop (left out of the release, counted)"
        ),
    )
    level = parser.add_argument_group("privacy level")
    both = level.add_mutually_exclusive_group(required=grid)
    if grid:
        both.add_argument("--t", metavar="T1,T2,…", help="t values to try, e.g. 1.5,2,3")
        both.add_argument("--epsilon", metavar="E1,E2,…", help="ε values to try, e.g. 0.1,1")
        level.add_argument("--k", required=True, metavar="K1,K2,…", help="k values, e.g. 5,10")
    else:
        both.add_argument("--t", metavar="T", help="t-closeness level (≥ 1)")
        both.add_argument(
            "--epsilon", metavar="E", help="ε; buckets: t = exp(E/2); laplace: the ε of the noise"
        )
        level.add_argument("--k", required=True, metavar="K", help="smallest class size")
    if grid:
        level.add_argument(
            "--buckets",
            metavar="B1,B2,…",
            help="numbers of confidential buckets to try, 'auto' among them (default: auto)",
        )
    else:
        level.add_argument(
            "--buckets",
            metavar="B",
            help="number of confidential buckets, or 'auto' (default): searched with the class "
            "size for the least combined loss",
        )
    level.add_argument(
        "--utility-weight",
        metavar="W",
        help="how the search of b weighs confidential against QI loss, 0 to 1 (default 0.25)",
    )
    level.add_argument("--per-column", action="store_true", help="t-closeness per column")
    output = parser.add_argument_group("released form")
    output.add_argument("--qi-output", choices=("centroid", "range"), default="centroid")
    output.add_argument(
        "--confidential-output",
        choices=("mean", "median", "label", "representative"),
        default="mean",
        help="a bucket's mean (default; keeps totals), its median, or its label "
        "('representative' is the median)",
    )
    output.add_argument(
        "--seed",
        metavar="N",
        help="reproducible run for audits (noise: only as private as N is secret)",
    )
    add_noise_arguments(parser)


def _parse(name: str, text: str | None) -> Any:
    return None if text is None else ReleaseParams.parse(name, text)


def parse_list(name: str, text: str | None) -> list[Any]:
    """``"1.5,2,3"`` → [1.5, 2.0, 3.0], each value checked as parameter ``name``."""
    if text is None:
        return []
    return [ReleaseParams.parse(name, part) for part in text.split(",") if part.strip()]


def grid_buckets(args: argparse.Namespace) -> bool:
    """True when --buckets holds a list (a sweep's b axis), which the sweep reads itself."""
    return args.buckets is not None and "," in args.buckets


def params_from_args(args: argparse.Namespace, **overrides: Any) -> ReleaseParams:
    """The release the flags describe (``overrides`` replace single fields, e.g. for a grid)."""
    fields: dict[str, Any] = {
        "qi": args.qi,
        "confidential": args.confidential,
        "identifiers": args.identifier,
        "keep": args.keep,
        "household": args.household,
        "weight": args.weight,
        "household_level": args.household_level,
        "household_output": args.household_output,
        "weight_output": args.weight_output,
        "types": column_types(args.types),
        "missing": args.missing,
        "missing_confidential": args.missing_confidential,
        "n_buckets": None if grid_buckets(args) else _parse("n_buckets", args.buckets),
        "qi_output": args.qi_output,
        "confidential_output": args.confidential_output,
        "joint": not args.per_column,
        "seed": _parse("seed", args.seed),
        **noise_config_kwargs(args),
    }
    if args.utility_weight is not None:
        fields["utility_weight"] = _parse("utility_weight", args.utility_weight)
    if "k" not in overrides:
        fields["k"] = _parse("k", args.k)
    if "t" not in overrides and "epsilon" not in overrides:
        fields["t"] = _parse("t", args.t)
        fields["epsilon"] = _parse("epsilon", args.epsilon)
    fields.update(overrides)
    return ReleaseParams(**fields)
