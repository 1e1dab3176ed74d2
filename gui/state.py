"""The wizard's state as plain data: what was imported, how columns are tagged, the parameters.

Pages read and write one :class:`Session`; none of them keeps state of its own that another
page needs.  The session turns itself into the engine's :class:`~engine.params.ReleaseParams`,
so the wizard, a saved project and the command line all describe a release the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from engine.io import (
    ImportInfo,
    ImportResult,
    TypeGuess,
    apply_missing,
    infer_types,
    read_table,
)
from engine.params import ReleaseParams
from engine.release.result import Release
from engine.roles import ColumnType, Role

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
class ColumnSetup:
    """How the user tagged one column."""

    name: str
    guess: TypeGuess
    type: ColumnType
    role: Role | None = None
    #: missing-value codes of this column (added to the session-wide codes)
    missing: tuple[str, ...] = ()
    type_overridden: bool = False
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


@dataclass
class Session:
    """Everything the wizard knows; pages read and write it."""

    path: Path | None = None
    sheet: str | None = None
    #: the table as read (missing codes not yet applied)
    data: pd.DataFrame | None = None
    info: ImportInfo | None = None
    columns: dict[str, ColumnSetup] = field(default_factory=dict)
    #: missing-value codes that hold for every column
    missing: tuple[str, ...] = ()
    use_epsilon: bool = False
    t: float = 2.0
    epsilon: float = 1.0
    k: int = 5
    #: None = the engine's optimal bucket count for t
    n_buckets: int | None = None
    mechanism: str = "buckets"
    insensitive: bool = False
    seed: int | None = None
    #: public bounds (lo, hi) of numeric confidential columns, for the noise mechanism
    bounds: dict[str, tuple[float, float]] = field(default_factory=dict)
    qi_output: str = "centroid"
    confidential_output: str = "label"
    #: the last preview and the configuration it was computed for
    release: Release | None = None
    release_config: ReleaseParams | None = None
    #: files written by the last export
    exported: list[Path] = field(default_factory=list)

    # --- import ------------------------------------------------------------------------
    def set_data(
        self, data: pd.DataFrame, info: ImportInfo, analysis: ColumnAnalysis | None = None
    ) -> None:
        """Adopt a freshly read table; tags start from the inferred types and suggestions.

        ``analysis`` (from :func:`analyse_columns`, computed off the GUI thread for large
        tables) saves computing it here.
        """
        self.data, self.info = data, info
        self.path = Path(info.path)
        self.sheet = info.sheet
        guesses, suggestions = analysis if analysis is not None else analyse_columns(data)
        self.columns = {}
        for name in data.columns:
            role, reason, distinct = suggestions[name]
            guess = guesses[name]
            self.columns[str(name)] = ColumnSetup(
                name=str(name),
                guess=guess,
                type=guess.type,
                role=role,
                # texts in a mostly numeric column (e.g. "N/A") start out as its missing codes;
                # the roles table shows them, and the note says why
                missing=guess.suggested_missing,
                n_distinct=distinct,
                suggestion=reason,
            )
        self.invalidate()

    @property
    def n_rows(self) -> int:
        return 0 if self.data is None else len(self.data)

    # --- tagging -----------------------------------------------------------------------
    def set_role(self, column: str, role: Role | None) -> None:
        self.columns[column].role = role
        self.invalidate()

    def set_type(self, column: str, type_: ColumnType) -> None:
        setup = self.columns[column]
        setup.type = type_
        setup.type_overridden = type_ != setup.guess.type
        self.invalidate()

    def set_column_missing(self, column: str, codes: tuple[str, ...]) -> None:
        self.columns[column].missing = codes
        self._reinfer(column)
        self.invalidate()

    def set_missing(self, codes: tuple[str, ...]) -> None:
        self.missing = codes
        for name in self.columns:
            self._reinfer(name)
        self.invalidate()

    def _reinfer(self, column: str) -> None:
        """Guess the type again once missing codes are known (``N/A`` hides a number)."""
        if self.data is None:
            return
        setup = self.columns[column]
        frame = apply_missing(self.data[[column]], self.missing, {column: setup.missing})
        setup.guess = infer_types(frame)[column]
        if not setup.type_overridden:
            setup.type = setup.guess.type

    def columns_with(self, role: Role) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns.values() if c.role == role)

    def tagging_problem(self) -> str:
        """Why the tags are not enough to go on, or "" when they are."""
        if self.data is None:
            return "Open a file first."
        if not self.columns_with(Role.QI):
            return "Tag at least one column as quasi-identifier."
        if not self.columns_with(Role.CONFIDENTIAL):
            return "Tag at least one column as confidential."
        return ""

    # --- parameters --------------------------------------------------------------------
    def config(self, **overrides: Any) -> ReleaseParams:
        """The engine configuration these choices describe (raises InputError if invalid)."""
        params: dict[str, Any] = {
            "qi": self.columns_with(Role.QI),
            "confidential": self.columns_with(Role.CONFIDENTIAL),
            "identifiers": self.columns_with(Role.IDENTIFIER),
            "keep": self.columns_with(Role.OTHER),
            "k": int(self.k),
            "types": {c.name: c.type for c in self.columns.values() if c.role is not None},
            "missing": self.missing,
            "column_missing": {c.name: c.missing for c in self.columns.values() if c.missing},
            "n_buckets": self.n_buckets,
            "mechanism": self.mechanism,
            "insensitive": self.insensitive,
            "seed": self.seed,
            "bounds": dict(self.bounds) if self.mechanism != "buckets" else {},
            "qi_output": self.qi_output,
            "confidential_output": self.confidential_output,
        }
        if self.use_epsilon or self.mechanism != "buckets":
            params["epsilon"] = float(self.epsilon)
        else:
            params["t"] = float(self.t)
        params.update(overrides)
        return ReleaseParams(**params)

    def prepared_data(self) -> pd.DataFrame:
        """The table with the declared missing codes applied (what the engine works on)."""
        if self.data is None:
            raise ValueError("no data")
        codes = {c.name: c.missing for c in self.columns.values() if c.missing}
        return apply_missing(self.data, self.missing, codes)

    def invalidate(self) -> None:
        """Forget the preview: some choice it depended on changed."""
        self.release = None
        self.release_config = None

    @property
    def preview_is_current(self) -> bool:
        if self.release is None or self.release_config is None:
            return False
        try:
            return self.config() == self.release_config
        except Exception:
            return False
