"""``tclose convert``: what a t or an ε means, as the calculator's table (KBS 2015, TIFS 2022).

    tclose convert --t 2 --k 5 --n 100
    tclose convert --epsilon 0.72 --k 5 --n 100 --mechanism laplace --json

Every line names its assumption and source; the statements that do *not* follow (TIFS 2022,
Theorems 1 and 5) are listed as well, marked with "does not follow".
"""

from __future__ import annotations

import argparse
import math
import sys

from engine.i18n import N_, _
from engine.params import MAX_EPSILON, Number
from engine.privacy import Guarantee, calculator_mechanisms, guarantees
from engine.streams import json_text

#: what :func:`engine.privacy.guarantees` states guarantees for: the registered mechanisms'
#: names and the ways a noise mechanism protects one column
MECHANISMS: tuple[str, ...] = calculator_mechanisms()


HELP = N_("translate t into ε and back, with every guarantee that follows")
DESCRIPTION = N_(
    "Print every guarantee that follows from t or ε (and, when given, k and N): "
    "t = exp(ε/2) under t-closeness's assumption, the stochastic t of ε-DP noise, "
    "(k, t)-closeness and (N − k, ε)-DP, and what does not follow."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    level = p.add_mutually_exclusive_group(required=True)
    level.add_argument("--t", metavar="T", help=_("t-closeness level (≥ 1)"))
    level.add_argument(
        "--epsilon",
        metavar="E",
        help=_("ε of differential privacy (0 … {MAX_EPSILON:g})").format(MAX_EPSILON=MAX_EPSILON),
    )
    p.add_argument("--k", metavar="K", help=_("smallest class size"))
    p.add_argument("--n", metavar="N", help=_("number of records"))
    p.add_argument(
        "--mechanism",
        choices=MECHANISMS,
        default="buckets",
        help=_("how the confidential values are protected (default: buckets, i.e. t-closeness)"),
    )
    p.add_argument("--json", action="store_true", help=_("machine-readable output"))


def _value(v: float | int) -> str:
    if isinstance(v, float):
        return "∞" if math.isinf(v) else f"{v:.6g}"
    return str(v)


def format_table(items: list[Guarantee], header: str) -> str:
    """The human-readable table: one block per guarantee."""
    lines = [header, ""]
    for g in items:
        values = ", ".join(f"{key} = {_value(v)}" for key, v in g.values.items())
        mark = _("follows") if g.holds else _("does not follow")
        lines.append(f"[{mark}] {g.name}" + (f": {values}" if values else ""))
        lines.append(f"    {g.statement}")
        if g.holds:
            lines.append(_("    Assumes: {assumption}").format(assumption=g.assumption))
            if g.broken_by:
                lines.append("    " + _("Broken by: {what}").format(what=g.broken_by))
        lines.append(_("    Source: {source}").format(source=g.source))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


#: how each number is read: the constraints of the release parameters (ε may be 0 here: t = 1)
NUMBERS = {
    "t": ("t", Number(low=1)),
    "epsilon": ("ε", Number(low=0, high=MAX_EPSILON)),
    "k": ("k", Number(low=1, whole=True)),
    "n": ("N", Number(low=1, whole=True)),
}


def _numbers(args: argparse.Namespace) -> None:
    """Replace the texts of --t, --epsilon, --k and --n by checked numbers (one message each)."""
    for field, (name, constraint) in NUMBERS.items():
        text = getattr(args, field)
        setattr(args, field, None if text is None else constraint.parse(name, text))


def run(args: argparse.Namespace) -> int:
    _numbers(args)
    items = guarantees(t=args.t, epsilon=args.epsilon, k=args.k, n=args.n, mechanism=args.mechanism)
    inputs = {
        "t": args.t,
        "epsilon": args.epsilon,
        "k": args.k,
        "n": args.n,
        "mechanism": args.mechanism,
    }
    if args.json:
        payload = {
            "inputs": {key: v for key, v in inputs.items() if v is not None},
            "guarantees": [g.to_dict() for g in items],
        }
        sys.stdout.write(json_text(payload, allow_nan=False) + "\n")
        return 0
    given = ", ".join(
        f"{name} = {_value(v)}"
        for name, v in (("t", args.t), ("ε", args.epsilon), ("k", args.k), ("N", args.n))
        if v is not None
    )
    header = _("{given} (mechanism: {mechanism})").format(given=given, mechanism=args.mechanism)
    sys.stdout.write(format_table(items, header))
    return 0
