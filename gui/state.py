"""The wizard's state as plain data: what was imported, how columns are tagged, the parameters.

Pages read and write one :class:`Session`; none of them keeps state of its own that another
page needs.  The release itself is described by the session's
:class:`~engine.params.ReleaseParams`, the same object a project file and the command line
hold, so the wizard, a saved project and a replay cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from engine import ColumnType, InputError, Release, ReleaseParams, Role
from engine.io import (
    ImportInfo,
    ImportResult,
    TypeGuess,
    apply_missing,
    infer_types,
    read_table,
)

#: share of distinct values above which a column is suggested as an identifier
IDENTIFIER_DISTINCT_SHARE = 0.95

ROLE_LABELS: dict[Role | None, str] = {
    None: "not released",
    Role.IDENTIFIER: "identifier",
    Role.QI: "quasi-identifier",
    Role.CONFIDENTIAL: "confidential",
    Role.OTHER: "other (released unchanged)",
}

ROLE_HELP: dict[Role | None, str] = {
    None: "Left out of the release (the safe default for a column you do not need).",
    Role.IDENTIFIER: "Names a person directly (name, ID number, e-mail); never released.",
    Role.QI: (
        "Quasi-identifier: not an identifier by itself, but an intruder may know it and link "
        "it to a person (age, sex, region). Released only after grouping records into classes "
        "of at least k."
    ),
    Role.CONFIDENTIAL: (
        "The sensitive value to protect (income, diagnosis); released only in protected form."
    ),
    Role.OTHER: "Released exactly as it is; only for columns that cannot identify anyone.",
}


@dataclass
class ColumnInfo:
    """What the import learned about one column (its role, type and codes live in the params)."""

    name: str
    #: the type guessed from the values (after the missing codes)
    guess: TypeGuess
    n_distinct: int = 0
    #: why a role is suggested, in words; empty when there is no suggestion
    suggestion: str = ""


def parse_bounds(text: str) -> dict[str, tuple[float, float]]:
    """``"income=0:250000, age=0:120"`` → {"income": (0.0, 250000.0), "age": (0.0, 120.0)}.

    Raises ValueError with a message for the user when the text does not parse.
    """
    bounds: dict[str, tuple[float, float]] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, sep, rest = part.rpartition("=")
        lo, colon, hi = rest.partition(":")
        try:
            if not sep or not colon or not name.strip():
                raise ValueError
            low, high = float(lo), float(hi)
        except ValueError:
            message = f"Write bounds as COLUMN=LOW:HIGH, e.g. income=0:250000 ({part!r})."
            raise ValueError(message) from None
        if not low < high:
            raise ValueError(f"{name.strip()}: the lower bound must be below the upper one.")
        bounds[name.strip()] = (low, high)
    return bounds


def parse_codes(text: str) -> tuple[str, ...]:
    """``"-1, N/A ,99"`` → ``("-1", "N/A", "99")``: codes as the user typed them."""
    return tuple(c.strip() for c in text.split(",") if c.strip())


def suggest_role(series: pd.Series) -> tuple[Role | None, str, int]:
    """A role suggestion with its reason, from how many values are distinct."""
    values = series.dropna()
    n, distinct = len(values), int(values.nunique())
    if n >= 20 and distinct >= IDENTIFIER_DISTINCT_SHARE * n:
        share = distinct / n
        reason = (
            f"{distinct:,} of {n:,} values are distinct ({share:.0%}): "
            "this is probably an identifier."
        )
        return Role.IDENTIFIER, reason, distinct
    return None, "", distinct


#: (type guesses, role suggestions) of every column
ColumnAnalysis = tuple[dict[str, TypeGuess], dict[str, tuple[Role | None, str, int]]]


def analyse_columns(data: pd.DataFrame) -> ColumnAnalysis:
    """Type guesses and role suggestions for every column (seconds on a million rows)."""
    guesses = infer_types(data)
    suggestions = {name: suggest_role(data[name]) for name in data.columns}
    return guesses, suggestions


def read_and_analyse(
    path: Path, *, progress: Any = None, cancel: Any = None, **options: Any
) -> tuple[ImportResult, ColumnAnalysis]:
    """Read a table and analyse its columns: the import step's work, in one call."""
    from engine.progress import scaled, step

    result = read_table(path, **options, progress=scaled(progress, 0.0, 0.9), cancel=cancel)
    step(progress, cancel, 0.9, "Looking at the columns")
    analysis = analyse_columns(result.data)
    step(progress, cancel, 1.0, "Read")
    return result, analysis


#: the parameters a new session starts from (k-anonymity with t-closeness, t = 2, k = 5)
DEFAULT_PARAMS = ReleaseParams(k=5, t=2.0)


@dataclass
class Session:
    """Everything the wizard knows; pages read and write it.

    The release is described by :attr:`params`, the engine's one parameter object, and by
    nothing else: the roles, types and missing codes the tag page edits and the privacy level
    the privacy page edits are fields of it, changed through :meth:`update` (which validates).
    The rest is the data and what the import learned about each column.
    """

    path: Path | None = None
    sheet: str | None = None
    #: the table as read (missing codes not yet applied)
    data: pd.DataFrame | None = None
    info: ImportInfo | None = None
    columns: dict[str, ColumnInfo] = field(default_factory=dict)
    params: ReleaseParams = DEFAULT_PARAMS
    #: the last preview (its parameters are ``release.params``)
    release: Release | None = None
    #: files written by the last export
    exported: list[Path] = field(default_factory=list)

    # --- import ------------------------------------------------------------------------
    def set_data(
        self, data: pd.DataFrame, info: ImportInfo, analysis: ColumnAnalysis | None = None
    ) -> None:
        """Adopt a freshly read table; tags start from the inferred types and suggestions.

        ``analysis`` (from :func:`analyse_columns`, computed off the GUI thread for large
        tables) saves computing it here.  The privacy level and k carry over; the roles,
        types and missing codes start afresh from the suggestions.
        """
        self.data, self.info = data, info
        self.path = Path(info.path)
        self.sheet = info.sheet
        guesses, suggestions = analysis if analysis is not None else analyse_columns(data)
        self.columns = {}
        roles: dict[Role, list[str]] = {role: [] for role in Role}
        column_missing = {}
        for name in data.columns:
            role, reason, distinct = suggestions[name]
            guess = guesses[name]
            self.columns[str(name)] = ColumnInfo(str(name), guess, distinct, reason)
            if role is not None:
                roles[role].append(str(name))
            if guess.suggested_missing:
                # texts in a mostly numeric column (e.g. "N/A") start out as its missing codes;
                # the roles table shows them, and the note says why
                column_missing[str(name)] = tuple(guess.suggested_missing)
        self.params = self.params.replace(
            qi=tuple(roles[Role.QI]),
            confidential=tuple(roles[Role.CONFIDENTIAL]),
            identifiers=tuple(roles[Role.IDENTIFIER]),
            keep=tuple(roles[Role.OTHER]),
            types={},
            orders={},
            missing=(),
            column_missing=column_missing,
            bounds={},
        )
        self.invalidate()

    @property
    def n_rows(self) -> int:
        return 0 if self.data is None else len(self.data)

    # --- tagging -----------------------------------------------------------------------
    def role(self, column: str) -> Role | None:
        p = self.params
        for role, names in (
            (Role.QI, p.qi),
            (Role.CONFIDENTIAL, p.confidential),
            (Role.IDENTIFIER, p.identifiers),
            (Role.OTHER, p.keep),
        ):
            if column in names:
                return role
        return None

    def column_type(self, column: str) -> ColumnType:
        """The type the release will use: the user's choice, else the guess."""
        return ColumnType(self.params.types.get(column, self.columns[column].guess.type))

    def type_overridden(self, column: str) -> bool:
        return column in self.params.types

    def column_missing(self, column: str) -> tuple[str, ...]:
        return tuple(self.params.column_missing.get(column, ()))

    def set_role(self, column: str, role: Role | None) -> None:
        """Give ``column`` a role (None: not released); bounds follow the confidential ones."""
        roles = {c: self.role(c) for c in self.columns}
        roles[column] = role
        by_role = {r: tuple(c for c in self.columns if roles[c] == r) for r in Role}
        confidential = by_role[Role.CONFIDENTIAL]
        self.update(
            qi=by_role[Role.QI],
            confidential=confidential,
            identifiers=by_role[Role.IDENTIFIER],
            keep=by_role[Role.OTHER],
            bounds={c: b for c, b in self.params.bounds.items() if c in confidential},
        )

    def set_type(self, column: str, type_: ColumnType) -> None:
        types = dict(self.params.types)
        if type_ == self.columns[column].guess.type:
            types.pop(column, None)
        else:
            types[column] = type_
        self.update(types=types)

    def set_column_missing(self, column: str, codes: tuple[str, ...]) -> None:
        per_column = dict(self.params.column_missing)
        if codes:
            per_column[column] = codes
        else:
            per_column.pop(column, None)
        self.update(column_missing=per_column)
        self._reinfer(column)

    def set_missing(self, codes: tuple[str, ...]) -> None:
        self.update(missing=codes)
        for name in self.columns:
            self._reinfer(name)

    def _reinfer(self, column: str) -> None:
        """Guess the type again once missing codes are known (``N/A`` hides a number)."""
        if self.data is None:
            return
        frame = apply_missing(
            self.data[[column]], self.params.missing, {column: self.column_missing(column)}
        )
        self.columns[column].guess = infer_types(frame)[column]

    def columns_with(self, role: Role) -> tuple[str, ...]:
        return tuple(c for c in self.columns if self.role(c) == role)

    def tagging_problem(self) -> str:
        """Why the tags are not enough to go on, or "" when they are."""
        if self.data is None:
            return "Open a file first."
        if not self.params.qi:
            return "Tag at least one column as quasi-identifier."
        if not self.params.confidential:
            return "Tag at least one column as confidential."
        return ""

    # --- parameters --------------------------------------------------------------------
    def update(self, **changes: Any) -> None:
        """Change fields of :attr:`params` (InputError, and nothing changed, when invalid)."""
        new = self.params.replace(**changes)
        if new != self.params:
            self.params = new
            self.invalidate()

    def adopt(self, params: ReleaseParams) -> None:
        """Take over ``params`` whole (a project's): every column they name must exist."""
        named = (*params.qi, *params.confidential, *params.identifiers, *params.keep)
        absent = [c for c in named if c not in self.columns]
        if absent:
            raise InputError(f"The project names columns the file lacks: {', '.join(absent)}.")
        self.params = params
        for name in self.columns:
            self._reinfer(name)
        self.release = None
        self.invalidate()

    def prepared_data(self) -> pd.DataFrame:
        """The table with the declared missing codes applied (what the engine works on)."""
        if self.data is None:
            raise ValueError("no data")
        return apply_missing(self.data, self.params.missing, dict(self.params.column_missing))

    def invalidate(self) -> None:
        """Forget the exported files: the release they hold is no longer what is shown."""
        self.exported = []

    @property
    def preview_is_current(self) -> bool:
        """True when the last preview was computed with exactly the present parameters."""
        return self.release is not None and self.release.params == self.params
