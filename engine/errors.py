"""Errors the engine raises on purpose.

Every error a user can cause derives from :class:`TcloseError` and carries a message written
for that user: one clear sentence saying what is wrong and what to do.  The command line prints
the message and exits with :attr:`TcloseError.exit_code`; the GUI shows it in a dialog.  Any
other exception is a bug in tclose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: the most characters of one name (a column, a sheet, a value) a message quotes
NAME_LIMIT = 40


def cut(text: object, limit: int = NAME_LIMIT) -> str:
    """``text`` as a message shows it: at most ``limit`` characters, the rest an ellipsis (a
    header cell can hold megabytes, and a message is one line a person reads)."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def quoted(name: object, limit: int = NAME_LIMIT) -> str:
    """A name as a message quotes it, ``'Region, coded'``, cut to about ``limit`` characters
    (``'aaaa…'``): the quotes show where it starts and ends, the cut keeps the message short."""
    text = repr(name) if isinstance(name, str) else repr(str(name))
    return text if len(text) <= limit + 2 else text[: limit + 1] + "…" + text[-1]


def listing(values: Sequence[object], limit: int = 8) -> str:
    """``'a', 'b', 'c' and 79,997 more``: the names a message quotes, never thousands of them
    (a project file can name 80,000 columns), each cut to :data:`NAME_LIMIT` characters."""
    shown = ", ".join(map(quoted, values[:limit]))
    return shown + (f" and {len(values) - limit:,} more" if len(values) > limit else "")


class TcloseError(Exception):
    """Base of all user-facing errors.  ``str(err)`` is the message to show."""

    exit_code: int = 2

    def __init__(self, message: str, *, detail: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        #: optional longer explanation (the GUI shows it under "Details")
        self.detail = detail


class InputError(TcloseError):
    """The input file, a column name or a parameter cannot be used as given."""

    exit_code = 2


class CancelledError(TcloseError):
    """The caller's ``cancel`` callable returned True; nothing was written."""

    exit_code = 130

    def __init__(self, message: str = "Cancelled; nothing was written.") -> None:
        super().__init__(message)


@dataclass
class FeasibleAlternative:
    """One set of parameters that would work on the same data."""

    description: str
    params: dict[str, Any] = field(default_factory=dict)


class InfeasibleError(TcloseError):
    """The requested (t, k, b) cannot be met on this data.

    ``alternatives`` names the nearest parameters that can, so that the command line can print
    them and the GUI can offer a one-click fix.
    """

    exit_code = 3

    def __init__(
        self,
        message: str,
        *,
        alternatives: list[FeasibleAlternative] | None = None,
        detail: str | None = None,
    ) -> None:
        super().__init__(message, detail=detail)
        self.alternatives = list(alternatives or [])


class VerificationError(TcloseError):
    """A release failed the independent check of its guarantee and must not be written."""

    exit_code = 4
