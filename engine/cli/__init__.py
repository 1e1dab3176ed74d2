"""The ``tclose`` command line: one sub-command per module in this package.

Each sub-command module defines ``register(subparsers)``, which adds its parser and sets
``func`` to a function ``(args) -> int`` returning the exit code.  :func:`main` turns every
:class:`~engine.errors.TcloseError` into one line on stderr and its exit code: 0 success,
2 bad usage or bad input, 3 infeasible parameters, 4 a release that failed verification,
130 cancelled.  Anything else is a bug and says so, still without a traceback unless
``TCLOSE_DEBUG`` is set.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from engine.errors import TcloseError
from engine.version import __version__

#: sub-command modules, in the order ``tclose --help`` lists them
COMMANDS = ("anonymize", "plan", "verify", "convert", "sweep", "run")


class _Parser(argparse.ArgumentParser):
    """argparse that exits with 2 and one line (no usage dump) on a bad flag."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"tclose: {message} (see 'tclose {self.prog.split()[-1]} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tclose",
        description=(
            "Publish microdata with k-anonymity and t-closeness (or ε-differential privacy) "
            "for the confidential columns, and verify any release independently."
        ),
    )
    parser.add_argument("--version", action="version", version=f"tclose {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        importlib.import_module(f"engine.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns (and as a script exits with) the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args))
    except TcloseError as err:
        print(f"tclose: {err.message}", file=sys.stderr)
        return err.exit_code
    except BrokenPipeError:  # e.g. `tclose verify … | head`: the reader has gone, not an error
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("tclose: interrupted; nothing was written.", file=sys.stderr)
        return 130
    except Exception as err:  # a bug: say so in one line, keep the traceback for debugging
        if os.environ.get("TCLOSE_DEBUG"):
            raise
        print(
            f"tclose: internal error ({type(err).__name__}: {err}). "
            "Please report it; set TCLOSE_DEBUG=1 to see the traceback.",
            file=sys.stderr,
        )
        return 1
