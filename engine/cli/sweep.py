"""``tclose sweep``: not built yet (see the issue tracker)."""

from __future__ import annotations

import argparse

from engine.errors import InputError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sweep", help="(not available yet)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    raise InputError("'tclose sweep' is not available in this version yet.")
