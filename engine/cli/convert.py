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

from engine.privacy import Guarantee, guarantees
from engine.streams import json_text

MECHANISMS = ("buckets", "laplace", "insensitive", "randomized_response")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "convert",
        help="translate t into ε and back, with every guarantee that follows",
        description=(
            "Print every guarantee that follows from t or ε (and, when given, k and N): "
            "t = exp(ε/2) under t-closeness's assumption, the stochastic t of ε-DP noise, "
            "(k, t)-closeness and (N − k, ε)-DP, and what does not follow."
        ),
    )
    level = p.add_mutually_exclusive_group(required=True)
    level.add_argument("--t", type=float, metavar="T", help="t-closeness level (≥ 1)")
    level.add_argument("--epsilon", type=float, metavar="E", help="ε of differential privacy")
    p.add_argument("--k", type=int, metavar="K", help="smallest class size")
    p.add_argument("--n", type=int, metavar="N", help="number of records")
    p.add_argument(
        "--mechanism",
        choices=MECHANISMS,
        default="buckets",
        help="how the confidential values are protected (default: buckets, i.e. t-closeness)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def _value(v: float | int) -> str:
    if isinstance(v, float):
        return "∞" if math.isinf(v) else f"{v:.6g}"
    return str(v)


def format_table(items: list[Guarantee], header: str) -> str:
    """The human-readable table: one block per guarantee."""
    lines = [header, ""]
    for g in items:
        values = ", ".join(f"{key} = {_value(v)}" for key, v in g.values.items())
        mark = "follows" if g.holds else "does not follow"
        lines.append(f"[{mark}] {g.name}" + (f": {values}" if values else ""))
        lines.append(f"    {g.statement}")
        if g.holds:
            lines.append(f"    Assumes: {g.assumption}")
        lines.append(f"    Source: {g.source}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def run(args: argparse.Namespace) -> int:
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
    sys.stdout.write(format_table(items, f"{given} (mechanism: {args.mechanism})"))
    return 0
