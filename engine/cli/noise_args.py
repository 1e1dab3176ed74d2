"""Command-line flags of the noise mechanisms, for ``tclose anonymize`` to include.

``add_noise_arguments(parser)`` adds the flags of the fields declared in the "noise" group
(``--mechanism``, ``--bounds``, ``--categories``, ``--insensitive``, ``--resample-until-t``,
``--transform``); ``noise_config_kwargs(args)`` turns them into keyword arguments of
:class:`engine.params.ReleaseParams`, with one clear message for every bad value;
:func:`bounds_hint` says how to give the bounds that Laplace noise needs, and
:func:`categories_hint` the categories that randomized response needs.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from typing import Any

from engine.cli.flags import (
    add_field_flags,
    fields_from_args,
    parse_bounds,
    parse_categories,
    parse_private,
)
from engine.errors import InputError
from engine.i18n import _
from engine.mechanisms.response import CategoriesRequiredError


def add_noise_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the noise flags (in their own help group) to ``parser``, from their declarations."""
    add_field_flags(parser, groups=("noise",))


def noise_config_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """ReleaseParams keyword arguments from the parsed noise flags (every noise field, at its
    default when its flag was not given).

    Only the flags' syntax is read here; which options go with which mechanism, and the
    ranges, are checked by :class:`~engine.params.ReleaseParams`, with the words a project
    file or the GUI gets.
    """
    return fields_from_args(args, groups=("noise",), defaults=True)


def bounds_hint(columns: list[str]) -> str:
    """The command-line way to give missing bounds, appended to the engine's message."""
    flags = " ".join(f"--bounds {c}=LO:HI" for c in columns)
    return _("On the command line: {flags}, or --bounds private[=SHARE].").format(flags=flags)


def categories_hint(columns: list[str]) -> str:
    """The command-line way to declare missing categories, appended to the engine's message."""
    flags = " ".join(f"--categories {c}=CAT1|CAT2|CAT3" for c in columns)
    return _("On the command line: {flags}.").format(flags=flags)


@contextlib.contextmanager
def bounds_hint_on_error() -> Iterator[None]:
    """Add the command line's ways of giving what the noise needs to the engine's message:
    bounds to "needs public bounds", categories to "needs its categories declared"."""
    from engine.release import BoundsRequiredError

    try:
        yield
    except BoundsRequiredError as err:
        raise InputError(f"{err.message} {bounds_hint(err.columns)}") from err
    except CategoriesRequiredError as err:
        raise InputError(f"{err.message} {categories_hint(err.columns)}") from err


__all__ = [
    "add_noise_arguments",
    "bounds_hint",
    "bounds_hint_on_error",
    "categories_hint",
    "noise_config_kwargs",
    "parse_bounds",
    "parse_categories",
    "parse_private",
]
