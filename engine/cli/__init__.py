"""The ``tclose`` command line: one sub-command per module in this package.

Each sub-command module defines ``HELP`` (its line in ``tclose --help``), ``DESCRIPTION``,
``add_arguments(parser)`` and ``run(args) -> int``, which returns the exit code.  :func:`main`
turns every :class:`~engine.errors.TcloseError` into one line on stderr and its exit code:
0 success, 2 bad usage or bad input, 3 infeasible parameters, 4 a release that failed
verification, 130 interrupted (Ctrl+C), 143 terminated (SIGTERM).  Anything else is a bug and
says so, still without a traceback unless ``TCLOSE_DEBUG`` is set.

:mod:`engine.streams` makes the output safe for any console encoding;
:mod:`engine.cli.console` turns SIGTERM into an interruption, keeps library warnings off
stderr and draws the progress bar: a command passes ``args.task`` (an
:class:`~engine.progress.Task` holding the bar, if any) to the engine calls that take long.
Every command accepts ``-q``/``--quiet``: no progress on stderr, and ``--lang en|es|fr``: the
language of what it writes for people (the report, the About sheet, the messages), by default
the environment's (``LC_ALL``, ``LC_MESSAGES``, ``LANGUAGE``, ``LANG``), else English.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from engine import streams
from engine.cli import console
from engine.errors import TcloseError, cut
from engine.i18n import LANGUAGES, _, language_from_environment, use_language
from engine.progress import Task
from engine.version import __version__

#: sub-command modules, in the order ``tclose --help`` lists them
COMMANDS = ("anonymize", "plan", "verify", "convert", "sweep", "run")


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help with its own words ("usage:") in the reader's language."""

    def add_usage(self, usage, actions, groups, prefix=None):  # type: ignore[no-untyped-def]
        return super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


class _Parser(argparse.ArgumentParser):
    """argparse that exits with 2 and one line (no usage dump) on a bad flag, and whose help
    is in the reader's language throughout: argparse's own words (the section titles, the
    help of -h, "usage:") are the engine's, translated as its other messages are."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        for action in self._actions:
            if isinstance(action, argparse._HelpAction):
                action.help = _("show this help message and exit")

    def _get_values(self, action: argparse.Action, arg_strings: list[str]):  # type: ignore[override]
        # "--t=--": argparse drops the "--" and hands the option an empty list, unchecked
        value = super()._get_values(action, arg_strings)
        if action.option_strings and action.nargs is None and value == []:
            raise argparse.ArgumentError(action, _("expected one argument"))
        return value

    def error(self, message: str) -> None:  # type: ignore[override]
        words = " ".join(self.prog.split()[:2])  # "tclose" or "tclose plan"
        self.exit(
            2, _("tclose: {message} (see '{words} --help')\n").format(message=message, words=words)
        )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tclose",
        description=(
            _(
                "Publish microdata with k-anonymity and t-closeness (or ε-differential privacy) "
                "for the confidential columns, and verify any release independently."
            )
        ),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"tclose {__version__}",
        help=_("show the version number and exit"),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        module = importlib.import_module(f"engine.cli.{name}")
        command = sub.add_parser(name, help=_(module.HELP), description=_(module.DESCRIPTION))
        module.add_arguments(command)
        command.set_defaults(func=module.run)
    for command in sub.choices.values():
        _add_quiet(command)
        command.add_argument(
            "--lang",
            choices=sorted(LANGUAGES),
            default=None,
            help=_(
                "the language of the report, the About sheet and the messages "
                "(default: from LC_ALL, LC_MESSAGES, LANGUAGE or LANG, else English)"
            ),
        )
    return parser


def _add_quiet(parser: argparse.ArgumentParser) -> None:
    """``-q``/``--quiet`` for a command that does not define it itself."""
    if "--quiet" not in parser._option_string_actions:
        parser.add_argument("-q", "--quiet", action="store_true", help=_("no progress on stderr"))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns (and as a script exits with) the exit code."""
    streams.make_streams_safe()
    argv = list(sys.argv[1:] if argv is None else argv)
    # the help of the release flags is in the reader's language: build the parser in it
    with use_language(_asked_language(argv) or language_from_environment()):
        parser = build_parser()
        args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    args.progress = console.progress_bar(quiet=args.quiet)
    args.task = Task(progress=args.progress)
    with use_language(args.lang or language_from_environment()):
        return _run(args)


def _asked_language(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` in ``argv`` (before argparse reads it, which needs the
    language for the help it writes), None when not given."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


#: a word (no space) longer than this in a message is a quoted name or value, cut to
#: :data:`~engine.errors.NAME_LIMIT` characters; a message longer than :data:`MESSAGE_LIMIT`
#: is cut there
WORD_LIMIT = 200
MESSAGE_LIMIT = 1000


def one_line(message: str) -> str:
    """``message`` as one line a person can read, whatever a library or a file put in it
    (pyarrow quotes whole schemas, a header cell can hold megabytes): its lines joined, any
    over-long word cut to its first characters and an ellipsis, the whole at most
    :data:`MESSAGE_LIMIT` characters.  Messages quote names with
    :func:`engine.errors.quoted` already; this is the last guard."""
    lines = (line.strip() for line in message.splitlines())
    words = " ".join(line for line in lines if line).split(" ")
    text = " ".join(cut(word) if len(word) > WORD_LIMIT else word for word in words)
    return cut(text, MESSAGE_LIMIT)


def _run(args: argparse.Namespace) -> int:
    try:
        with console.sigterm_as_interrupt(), console.library_warnings_hidden():
            try:
                return int(args.func(args))
            finally:
                if args.progress is not None:
                    args.progress.close()
    except TcloseError as err:
        print(_("tclose: {line}").format(line=one_line(err.message)), file=sys.stderr)
        return err.exit_code
    except BrokenPipeError:  # e.g. `tclose verify … | head`: the reader has gone, not an error
        sys.stderr.close()
        return 0
    except console.Terminated as stop:
        print(_("tclose: terminated; nothing was written."), file=sys.stderr)
        return stop.exit_code
    except KeyboardInterrupt:
        print(_("tclose: interrupted; nothing was written."), file=sys.stderr)
        return 130
    except Exception as err:  # a bug: say so in one line, keep the traceback for debugging
        if os.environ.get("TCLOSE_DEBUG"):
            raise
        said = one_line(str(err))
        print(
            _(
                "tclose: internal error ({type}: {said}). Please report it; set TCLOSE_DEBUG=1 to"
                " see the traceback."
            ).format(type=type(err).__name__, said=said),
            file=sys.stderr,
        )
        return 1
