"""The wizard's state as plain data: what was imported, how columns are tagged, the parameters.

Pages read and write one :class:`Session`; none of them keeps state of its own that another
page needs.  The release itself is described by the session's
:class:`~engine.params.ReleaseParams`, the same object a project file and the command line
hold, so the wizard, a saved project and a replay cannot disagree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from engine import ColumnType, InputError, Release, ReleaseParams, Role, Task
from engine.identifiers import ValueProfile, identifier_reason, named_like_an_identifier
from engine.io import (
    ImportInfo,
    ImportResult,
    TypeGuess,
    apply_missing,
    infer_types,
    read_table,
)
from engine.io.codebook import code_text, with_codebook
from engine.progress import NO_TASK


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name Qt's lupdate knows
    """Mark ``text`` for translation (the engine process loads this module: no Qt here)."""
    return text


def _translate(context: str, text: str) -> str:
    from PySide6.QtCore import QCoreApplication  # in the app only, never the engine process

    return QCoreApplication.translate(context, text)


#: share of distinct values above which a column may be an identifier
IDENTIFIER_DISTINCT_SHARE = 0.95
#: fewest values for that share to mean anything
IDENTIFIER_MIN_VALUES = 20

ROLE_LABELS: dict[Role | None, str] = {
    None: QT_TRANSLATE_NOOP("Roles", "not released"),
    Role.IDENTIFIER: QT_TRANSLATE_NOOP("Roles", "identifier"),
    Role.QI: QT_TRANSLATE_NOOP("Roles", "quasi-identifier"),
    Role.CONFIDENTIAL: QT_TRANSLATE_NOOP("Roles", "confidential"),
    Role.OTHER: QT_TRANSLATE_NOOP("Roles", "other (released unchanged)"),
    Role.HOUSEHOLD: QT_TRANSLATE_NOOP("Roles", "household"),
    Role.WEIGHT: QT_TRANSLATE_NOOP("Roles", "sampling weight"),
}

ROLE_HELP: dict[Role | None, str] = {
    None: QT_TRANSLATE_NOOP(
        "Roles", "Left out of the release (the safe default for a column you do not need)."
    ),
    Role.IDENTIFIER: QT_TRANSLATE_NOOP(
        "Roles", "Names a person directly (name, ID number, e-mail); never released."
    ),
    Role.QI: QT_TRANSLATE_NOOP(
        "Roles",
        "Quasi-identifier: not an identifier by itself, but an intruder may know it and link "
        "it to a person (age, sex, region). Released only after grouping records into classes "
        "of at least k.",
    ),
    Role.CONFIDENTIAL: QT_TRANSLATE_NOOP(
        "Roles",
        "The sensitive value to protect (income, diagnosis); released only in protected form.",
    ),
    Role.OTHER: QT_TRANSLATE_NOOP(
        "Roles", "Released exactly as it is; only for columns that cannot identify anyone."
    ),
    Role.HOUSEHOLD: QT_TRANSLATE_NOOP(
        "Roles",
        "The household a person belongs to: every class holds at least k households, "
        "household-level values are released alike for all members, the id is re-coded.",
    ),
    Role.WEIGHT: QT_TRANSLATE_NOOP(
        "Roles",
        "How many people of the population the record stands for (a number > 0): used for "
        "the risk and weighted totals; released unchanged.",
    ),
}


def role_label(role: Role | None) -> str:
    """The name of ``role`` in the app's language."""
    return _translate("Roles", ROLE_LABELS[role])


def role_help(role: Role | None) -> str:
    return _translate("Roles", ROLE_HELP[role])


class Suggestion(NamedTuple):
    """What the values of one column suggest about its role (computed off the GUI thread)."""

    #: the suggested role (None: no suggestion)
    role: Role | None
    #: values that are not missing, and how many of them are distinct
    n: int
    distinct: int
    #: near-unique whole numbers or texts: an identifier, whatever its name
    id_like: bool = False
    #: the name is one identifiers go by (id, code, name, e-mail …)
    id_name: bool = False
    #: what the engine's identifier rule reads (a quasi-identifier that is an identifier in
    #: disguise is refused: :func:`engine.identifiers.identifier_reason`)
    profile: ValueProfile | None = None


def suggest_role(series: pd.Series, name: str | None = None) -> Suggestion:
    """A role suggestion from the column's values and name.

    Identifier is suggested only for ID-like columns: near-unique (95 % or more of the values
    distinct), whole numbers or texts (codes, names, e-mails), and named like an identifier.
    A continuous measurement is near-unique too (an income to the cent), and is never one.
    """
    values = series.dropna()
    profile = ValueProfile.of(series)
    n, distinct = profile.n, profile.distinct
    near_unique = n >= IDENTIFIER_MIN_VALUES and distinct >= IDENTIFIER_DISTINCT_SHARE * n
    if not near_unique:
        return Suggestion(None, n, distinct, profile=profile)
    if pd.api.types.is_bool_dtype(values) or pd.api.types.is_datetime64_any_dtype(values):
        kind_ok = False
    elif pd.api.types.is_numeric_dtype(values):
        numbers = pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)
        kind_ok = bool(np.all(np.isfinite(numbers)) and np.all(numbers == np.floor(numbers)))
    else:
        kind_ok = True
    id_name = named_like_an_identifier(str(series.name if name is None else name))
    role = Role.IDENTIFIER if kind_ok and id_name else None
    return Suggestion(role, n, distinct, id_like=kind_ok, id_name=id_name, profile=profile)


def suggestion_text(suggestion: Suggestion) -> str:
    """Why the role was suggested, in words ("" when there is no suggestion)."""
    if suggestion.role != Role.IDENTIFIER:
        return ""
    from gui.numbers import number, percent  # in the app only (Qt): the reader's conventions

    return _translate(
        "Roles",
        QT_TRANSLATE_NOOP(
            "Roles",
            "{distinct} of {n} values are distinct ({share}) and the name is an "
            "identifier's: this is probably an identifier.",
        ),
    ).format(
        distinct=number(suggestion.distinct),
        n=number(suggestion.n),
        share=percent(suggestion.distinct / suggestion.n),
    )


#: (type guesses, role suggestions) of every column
ColumnAnalysis = tuple[dict[str, TypeGuess], dict[str, Suggestion]]


def analyse_columns(data: pd.DataFrame) -> ColumnAnalysis:
    """Type guesses and role suggestions for every column (seconds on a million rows)."""
    guesses = infer_types(data)
    suggestions = {name: suggest_role(data[name], str(name)) for name in data.columns}
    return guesses, suggestions


def read_and_analyse(
    path: Path, *, task: Task = NO_TASK, **options: Any
) -> tuple[ImportResult, ColumnAnalysis]:
    """Read a table and analyse its columns: the import step's work, in one call."""
    result = read_table(path, **options, task=task.sub(0.0, 0.9))
    task.step(0.9, QT_TRANSLATE_NOOP("Progress", "Looking at the columns"))
    analysis = analyse_columns(result.data)
    task.step(1.0, QT_TRANSLATE_NOOP("Progress", "Read"))
    return result, analysis


#: the parameters a new session starts from (k-anonymity with t-closeness, t = 2, k = 5)
DEFAULT_PARAMS = ReleaseParams(k=5, t=2.0)


@dataclass
class ColumnInfo:
    """What the import learned about one column (its role, type and codes live in the params)."""

    name: str
    #: the type guessed from the values (after the missing codes)
    guess: TypeGuess
    n_distinct: int = 0
    #: what the values and the name suggest about the role
    suggested: Suggestion | None = None

    @property
    def suggestion(self) -> str:
        """Why a role is suggested, in words; empty when there is no suggestion."""
        return suggestion_text(self.suggested) if self.suggested is not None else ""

    @property
    def id_like(self) -> bool:
        """Near-unique whole numbers or texts: as a quasi-identifier it singles people out."""
        return self.suggested is not None and self.suggested.id_like


#: where one column's bounds end and the next begin: a semicolon, a new line, or a comma that
#: comes before the next "COLUMN=" (a comma between digits is a decimal comma)
_BOUNDS_BREAK = re.compile(r"[;\n]|,(?=\s*[^,;:=\s][^,;:=]*=)")


def parse_bounds(text: str) -> dict[str, tuple[float, float]]:
    """``"income=0:250000, age=0:120"`` → {"income": (0.0, 250000.0), "age": (0.0, 120.0)}.

    Numbers are read in the reader's conventions or the English ones
    (:func:`gui.numbers.parse`: "0,125:99.999,875" for a Spanish reader); columns are
    separated by semicolons, or by commas where a comma cannot be a decimal mark.  Raises
    ValueError with a message for the user when the text does not parse; the values
    (finite, LOW < HIGH) are checked by the engine's parameters, with the words the command
    line and a project file get.
    """
    from gui.numbers import parse

    bounds: dict[str, tuple[float, float]] = {}
    for part in (p.strip() for p in _BOUNDS_BREAK.split(text)):
        if not part:
            continue
        name, sep, rest = part.rpartition("=")
        lo, colon, hi = rest.partition(":")
        try:
            if not sep or not colon or not name.strip():
                raise ValueError
            low, high = parse(lo), parse(hi)
        except ValueError:
            message = _translate(
                "Session",
                QT_TRANSLATE_NOOP(
                    "Session", "Write bounds as COLUMN=LOW:HIGH, e.g. income=0:250000 ({part})."
                ),
            )
            raise ValueError(message.format(part=repr(part))) from None
        bounds[name.strip()] = (low, high)
    return bounds


def format_bounds(bounds: Mapping[str, tuple[float, float]]) -> str:
    """The text :func:`parse_bounds` reads back as ``bounds``, every digit kept, in the
    reader's conventions (columns separated by "; " where the decimal mark is a comma)."""
    from gui.numbers import exact, reader_locale

    locale = reader_locale()
    separator = "; " if locale.decimalPoint() == "," else ", "
    return separator.join(
        f"{column}={exact(lo, locale)}:{exact(hi, locale)}" for column, (lo, hi) in bounds.items()
    )


def parse_categories(column: str, text: str) -> tuple[str, ...]:
    """``"cold|flu|HIV"`` → ``("cold", "flu", "HIV")``: the public categories typed for
    ``column`` (an empty text: none declared).

    Read by the engine's parameters (:class:`~engine.ReleaseParams`, the reader of
    ``--categories`` and of a project file), so the text means the same in the app: a category
    holding a "|" in double quotes, spaces around a category ignored.  Raises
    :class:`~engine.InputError` with the engine's words when the text is not a list of two or
    more different categories.
    """
    if not text.strip():
        return ()
    constraint = ReleaseParams.CONSTRAINTS["categories"]
    return tuple(constraint.check("categories", {column: text})[column])


def format_categories(categories: Iterable[str]) -> str:
    """The text :func:`parse_categories` reads back as ``categories``: ``cold|flu|HIV``, a
    category that holds a "|" or a double quote in double quotes (a quote inside doubled)."""

    def one(category: str) -> str:
        if "|" in category or '"' in category:
            return '"' + category.replace('"', '""') + '"'
        return category

    return "|".join(one(c) for c in categories)


def parse_codes(text: str) -> tuple[str, ...]:
    """``"-1, N/A ,99"`` → ``("-1", "N/A", "99")``: codes as the user typed them."""
    return tuple(c.strip() for c in text.split(",") if c.strip())


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
    #: called after every change of :attr:`params`, with the session (the pages' bindings:
    #: a widget shows what the session holds whichever page or dialog changed it)
    watchers: list[Callable[[Session], None]] = field(
        default_factory=list, repr=False, compare=False
    )

    def watch(self, callback: Callable[[Session], None]) -> None:
        """Call ``callback(session)`` after every change of :attr:`params`."""
        self.watchers.append(callback)

    def _set_params(self, params: ReleaseParams) -> None:
        """The one place :attr:`params` changes: every watcher hears of it."""
        self.params = params
        for callback in list(self.watchers):
            callback(self)

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
        for name in data.columns:
            suggested = suggestions[name]
            guess = guesses[name]
            self.columns[str(name)] = ColumnInfo(str(name), guess, suggested.distinct, suggested)
            if suggested.role is not None:
                roles[suggested.role].append(str(name))
        # codes that look like missing values ("N/A", "refused", a frequent -9) are only
        # suggested, in the column's note: tclose never declares a value missing by itself
        self._set_params(
            self.params.replace(
                qi=tuple(roles[Role.QI]),
                confidential=tuple(roles[Role.CONFIDENTIAL]),
                identifiers=tuple(roles[Role.IDENTIFIER]),
                keep=tuple(roles[Role.OTHER]),
                types={},
                orders={},
                missing=(),
                column_missing={},
                bounds={},
                categories={},
            )
        )
        # an SPSS/Stata file says itself which codes are categories and which mean missing
        self.params = with_codebook(self.params, info.codebook)
        self.invalidate()

    @property
    def n_rows(self) -> int:
        return 0 if self.data is None else len(self.data)

    # --- tagging -----------------------------------------------------------------------
    def role(self, column: str) -> Role | None:
        p = self.params
        if column in (p.household, p.weight):
            return Role.HOUSEHOLD if column == p.household else Role.WEIGHT
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

    def labelled_categories(self, column: str) -> tuple[str, ...]:
        """The codes the imported file's value labels declare for ``column`` (an SPSS or
        Stata file's questionnaire codes, without its missing-value codes), as categories;
        empty when it declares fewer than two."""
        if self.info is None or not self.info.codebook or column not in self.columns:
            return ()
        if self.column_type(column) not in (ColumnType.NOMINAL, ColumnType.ORDINAL):
            return ()
        variable = self.info.codebook.variable(column)
        if not variable.categorical:
            return ()
        codes = tuple(code_text(c) for c in variable.values if c not in variable.missing)
        return codes if len(set(codes)) == len(codes) >= 2 else ()

    def set_role(self, column: str, role: Role | None) -> None:
        """Give ``column`` a role (None: not released); bounds and categories follow the
        confidential ones, and a value-labelled column made confidential takes the codes its
        labels declare as its public categories (:meth:`labelled_categories`), which the
        privacy page shows and the user may change."""
        roles = {c: self.role(c) for c in self.columns}
        if role in (Role.HOUSEHOLD, Role.WEIGHT):  # one column each: the new one takes over
            roles = {c: None if r == role else r for c, r in roles.items()}
        roles[column] = role
        by_role = {r: tuple(c for c in self.columns if roles[c] == r) for r in Role}
        confidential = by_role[Role.CONFIDENTIAL]
        household = next(iter(by_role[Role.HOUSEHOLD]), None)
        weight = next(iter(by_role[Role.WEIGHT]), None)
        p = self.params
        categories = {c: v for c, v in p.categories.items() if c in confidential}
        if role == Role.CONFIDENTIAL and column not in categories and column not in p.bounds:
            labelled = self.labelled_categories(column)
            if labelled:
                categories[column] = labelled
        self.update(
            qi=by_role[Role.QI],
            confidential=confidential,
            identifiers=by_role[Role.IDENTIFIER],
            keep=by_role[Role.OTHER],
            bounds={c: b for c, b in p.bounds.items() if c in confidential},
            categories=categories,
            household=household,
            weight=weight,
            household_level=tuple(c for c in p.household_level if c in by_role[Role.QI])
            if household
            else (),
            household_output=p.household_output if household else "recode",
            weight_output=p.weight_output if weight else "class",
        )

    def set_type(self, column: str, type_: ColumnType) -> None:
        """Give ``column`` a type; a column that is no longer nominal or ordinal drops its
        public categories (its field on the privacy page is gone)."""
        types = dict(self.params.types)
        if type_ == self.columns[column].guess.type:
            types.pop(column, None)
        else:
            types[column] = type_
        categories = dict(self.params.categories)
        if ColumnType(type_) not in (ColumnType.NOMINAL, ColumnType.ORDINAL):
            categories.pop(column, None)
        self.update(types=types, categories=categories)

    def set_column_missing(self, column: str, codes: tuple[str, ...]) -> None:
        per_column = dict(self.params.column_missing)
        if codes:
            per_column[column] = codes
        else:
            per_column.pop(column, None)
        new = self.params.replace(column_missing=per_column)
        self._reinfer(column, new)  # before the watchers hear of it: they read the guesses
        self._commit(new)

    def set_missing(self, codes: tuple[str, ...]) -> None:
        new = self.params.replace(missing=codes)
        for name in self.columns:
            self._reinfer(name, new)
        self._commit(new)

    def _reinfer(self, column: str, params: ReleaseParams | None = None) -> None:
        """Guess the type again once missing codes are known (``N/A`` hides a number)."""
        if self.data is None:
            return
        p = self.params if params is None else params
        frame = apply_missing(
            self.data[[column]], p.missing, {column: tuple(p.column_missing.get(column, ()))}
        )
        self.columns[column].guess = infer_types(frame)[column]
        suggested = self.columns[column].suggested
        if suggested is not None:
            self.columns[column].suggested = suggested._replace(
                profile=ValueProfile.of(frame[column])
            )

    def columns_with(self, role: Role) -> tuple[str, ...]:
        return tuple(c for c in self.columns if self.role(c) == role)

    def tagging_problem(self) -> str:
        """Why the tags are not enough to go on, or "" when they are."""
        if self.data is None:
            return _translate("Session", QT_TRANSLATE_NOOP("Session", "Open a file first."))
        if not self.params.qi:
            return _translate(
                "Session",
                QT_TRANSLATE_NOOP("Session", "Tag at least one column as quasi-identifier."),
            )
        if not self.params.confidential:
            return _translate(
                "Session", QT_TRANSLATE_NOOP("Session", "Tag at least one column as confidential.")
            )
        for column in self.params.qi:  # an identifier in disguise: the engine's rule
            profile = self.columns[column].suggested
            if profile is not None and profile.profile is not None:
                reason = identifier_reason(column, profile.profile, self.column_type(column))
                if reason:
                    return reason
        return ""

    # --- parameters --------------------------------------------------------------------
    def update(self, **changes: Any) -> None:
        """Change fields of :attr:`params` (InputError, and nothing changed, when invalid)."""
        self._commit(self.params.replace(**changes))

    def _commit(self, new: ReleaseParams) -> None:
        if new != self.params:
            self.invalidate()
            self._set_params(new)

    def adopt(self, params: ReleaseParams) -> None:
        """Take over ``params`` whole (a project's): every column they name must exist."""
        named = (*params.qi, *params.confidential, *params.identifiers, *params.keep)
        named += tuple(c for c in (params.household, params.weight) if c is not None)
        absent = [c for c in named if c not in self.columns]
        if absent:
            message = _translate(
                "Session",
                QT_TRANSLATE_NOOP("Session", "The project names columns the file lacks: {names}."),
            )
            raise InputError(message.format(names=", ".join(absent)))
        for name in self.columns:
            self._reinfer(name, params)
        self.release = None
        self.invalidate()
        self._set_params(params)

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
