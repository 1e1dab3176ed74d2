"""Command-line flags of the noise mechanisms, for ``tclose anonymize`` to include.

``add_noise_arguments(parser)`` adds ``--mechanism``, ``--bounds``, ``--insensitive``,
``--transform`` and ``--resample-until-t``; ``noise_config_kwargs(args)`` turns them into
keyword arguments of :class:`engine.params.ReleaseParams`, with one clear message for every
bad value;
:func:`bounds_hint` says how to give the bounds that Laplace noise needs.
"""

from __future__ import annotations

import argparse
import contextlib
import math
from collections.abc import Iterator
from typing import Any

from engine.errors import InputError
from engine.i18n import _
from engine.mechanisms import MECHANISMS
from engine.mechanisms.bounds import DEFAULT_SHARE


def add_noise_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the noise flags (in their own help group) to ``parser``."""
    group = parser.add_argument_group(
        "noise mechanism (ε-differential privacy for the confidential columns)"
    )
    group.add_argument(
        "--mechanism",
        choices=tuple(MECHANISMS),
        default="buckets",
        help=(
            "buckets: t-closeness by bucketization (default); laplace: ε-DP noise, Laplace on "
            "numeric columns and randomized response on nominal ones (needs --epsilon)"
        ),
    )
    group.add_argument(
        "--bounds",
        action="append",
        default=[],
        metavar="COL=LO:HI|private[=SHARE]",
        help=(
            "public bounds of a numeric confidential column, known without the data (repeat "
            "per column). laplace needs them for every numeric confidential column: values "
            "are clamped to them before and after the noise; buckets: the outer labels end "
            "at them. 'private' estimates the bounds of the columns without public ones from "
            f"DP quantiles, spending SHARE of each such column's ε (default {DEFAULT_SHARE:g})"
        ),
    )
    group.add_argument(
        "--insensitive",
        action="store_true",
        help=(
            "aggregate numeric confidential values in groups of k by value order first: "
            "noise of scale Δ/(k·ε) instead of Δ/ε"
        ),
    )
    group.add_argument(
        "--transform",
        choices=("none", "log"),
        default="none",
        help=(
            "log: add the noise to log(1 + value) and release it back on the column's scale, "
            "so the error grows with the value (for positive, skewed columns such as incomes; "
            "the bounds must be >= 0)"
        ),
    )
    group.add_argument(
        "--resample-until-t",
        type=float,
        metavar="T",
        help="redraw the noise until the release is actually T-close; spends ε per draw",
    )


def parse_private(items: list[str]) -> tuple[list[str], float | None]:
    """The ``private[=SHARE]`` items taken out of ``--bounds``: (the rest, the share or None).

    SHARE is a fraction (0.1) or a percentage (10%) of ε, strictly between 0 and 1.
    """
    rest, share = [], None
    for item in items:
        word, _eq, value = item.partition("=")
        if word.strip().lower() != "private" or ":" in value:
            rest.append(item)
            continue
        if share is not None:
            raise InputError(_("--bounds private was given twice."))
        text = value.strip()
        try:
            share = float(text[:-1]) / 100 if text.endswith("%") else float(text or DEFAULT_SHARE)
        except ValueError:
            raise InputError(
                _("--bounds {item}: write private or private=SHARE, e.g. private=0.1.").format(
                    item=repr(item)
                )
            ) from None
        if not (math.isfinite(share) and 0 < share < 1):
            raise InputError(
                _("--bounds {item}: the share of ε must lie between 0 and 1.").format(
                    item=repr(item)
                )
            )
    return rest, share


def parse_bounds(items: list[str]) -> dict[str, tuple[float, float]]:
    """``["Income=0:250000"]`` → ``{"Income": (0.0, 250000.0)}``: the syntax only; the values
    are checked by :class:`~engine.params.ReleaseParams`, so that bounds given on the command
    line, in a project file or in the GUI are refused with the same sentence."""
    bounds: dict[str, tuple[float, float]] = {}
    for item in items:
        column, sep, span = item.rpartition("=")
        lo_text, colon, hi_text = span.partition(":")
        if not sep or not column or not colon:
            raise InputError(
                _("--bounds {item}: write COLUMN=LO:HI, e.g. Income=0:250000.").format(
                    item=repr(item)
                )
            )
        try:
            lo, hi = float(lo_text), float(hi_text)
        except ValueError:
            raise InputError(
                _("--bounds {item}: LO and HI must be numbers, e.g. Income=0:250000.").format(
                    item=repr(item)
                )
            ) from None
        # the range (finite, LO < HI) is checked by ReleaseParams, as for a project file
        if column in bounds:
            raise InputError(_("--bounds given twice for {column}.").format(column=repr(column)))
        bounds[column] = (lo, hi)
    return bounds


def noise_config_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """ReleaseParams keyword arguments from the parsed noise flags.

    Only the flags' syntax is read here; which options go with which mechanism, and the
    ranges, are checked by :class:`~engine.params.ReleaseParams`, with the words a project
    file or the GUI gets.
    """
    items, private = parse_private(list(args.bounds))
    return {
        "mechanism": args.mechanism,
        "bounds": parse_bounds(items),
        "private_bounds": private,
        "insensitive": bool(args.insensitive),
        "resample_until_t": args.resample_until_t,
        "transform": args.transform,
    }


def bounds_hint(columns: list[str]) -> str:
    """The command-line way to give missing bounds, appended to the engine's message."""
    flags = " ".join(f"--bounds {c}=LO:HI" for c in columns)
    return f"On the command line: {flags}, or --bounds private[=SHARE]."


@contextlib.contextmanager
def bounds_hint_on_error() -> Iterator[None]:
    """Add the command line's ways of giving bounds to the engine's "needs public bounds"."""
    from engine.release.noise import BoundsRequiredError

    try:
        yield
    except BoundsRequiredError as err:
        raise InputError(f"{err.message} {bounds_hint(err.columns)}") from err
