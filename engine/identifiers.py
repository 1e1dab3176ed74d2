"""Identifiers in disguise: released columns whose values are (nearly) one per record.

A released column prints what it holds: a quasi-identifier recoded per class (a category
column as the class's most frequent value or the set of its values, a number as the class
mean or its range), a kept column unchanged, a household-level column alike for every member
of a household.  When nearly every record (or household) has a value of its own (a record
number, an ID code, a name, an e-mail, free text), the release then prints real identifiers,
and k-anonymity on such a column buys nothing.  Such a column is refused whatever its role
(SPEC §1), with a message naming the column and the way out: the identifier role (which leaves
it out of the release), or, when the user knows it is not one, naming it in
``allow_identifier`` (``--allow-identifier COL``), which the review record then states.

A statistician expects many distinct values from a continuous quasi-identifier (an income
to the cent, exact ages on a small file, a birth date): microaggregation is made for them.
So the rule is narrow:

* a **category** column (nominal or ordinal: codes, names, free text) is refused when at
  least :data:`DISTINCT_SHARE` of its non-missing values are distinct;
* a **numeric** column only when its values are whole numbers and either

  - at least :data:`DISTINCT_SHARE` of them are distinct and they lie close together like a
    running number (distinct values fill at least :data:`DENSE_SHARE` of the range between
    the smallest and the largest; with no more than :data:`RUNNING_DISTINCT` values, at
    least :data:`TIGHT_SHARE` of it, as 1 to n with few gaps does and a small file's mostly
    distinct ages never do) or the column's name is an identifier's ("respondent_id",
    "CaseNo", "e-mail"); or
  - they run like a record number with some numbers repeated: dense as above, at least
    :data:`RUNNING_SHARE` of them distinct, and more than :data:`RUNNING_DISTINCT` different
    values (more than the years of a life: an age column on a small file is dense and mostly
    distinct too, but never has that many values).  An ID column with a quarter of its
    records repeating another's number is caught here; released per class its means would
    still be real ID numbers;

* a **date** column never.

A household-level column (one value per household) is judged per household: a value of its
own for nearly every household identifies households, and so their members (by its values
alone: household variables are named after the household, "household income", so the name
says nothing there).  Fewer than
:data:`MIN_VALUES` values say nothing either way.  The GUI computes a :class:`ValueProfile`
per column once (off its main thread) and asks :func:`identifier_reason` when the roles
change, so that the tag page and the engine apply the same rule; a cluster combines its
partitions' profiles (:meth:`ValueProfile.combined`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.errors import InputError, quoted
from engine.i18n import _
from engine.roles import ColumnType

#: share of distinct values (of the non-missing ones) from which a column is identifier-like
DISTINCT_SHARE = 0.9
#: fewest non-missing values for that share to mean anything
MIN_VALUES = 20
#: whole numbers whose distinct values fill this share of their range run like a record number
DENSE_SHARE = 0.5
#: a column with no more than RUNNING_DISTINCT values runs like a record number only when its
#: distinct values fill this share of their range (exact ages on a small file fill about half)
TIGHT_SHARE = 0.9
#: a running number with some numbers repeated: this share of its values distinct ...
RUNNING_SHARE = 0.7
#: ... and more different values than this (no age, no count of hours reaches it)
RUNNING_DISTINCT = 100
#: words (in English, Spanish and French) that name an identifier column
ID_WORDS = frozenset(
    {
        "id", "ids", "ident", "identifier", "identificador", "identifiant", "key", "code",
        "no", "nr", "num", "number", "numero", "número", "serial", "uuid", "guid", "ssn",
        "nif", "nie", "dni", "nir", "nss", "passport", "pasaporte", "passeport", "email",
        "mail", "correo", "courriel", "phone", "tel", "telephone", "telefono", "teléfono",
        "téléphone", "name", "surname", "firstname", "lastname", "nom", "nombre", "apellido",
        "prenom", "prénom", "respondent", "case", "record", "household", "folio",
    }
)  # fmt: skip


def named_like_an_identifier(name: str) -> bool:
    """Whether ``name`` is one an identifier column goes by ("respondent_id", "CaseNo",
    "e-mail", "nombre")."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(name))
    tokens = [t for t in re.split(r"[^0-9a-zA-Z\u00C0-\u024F]+", spaced.lower()) if t]
    words = {t.strip("0123456789") for t in tokens}
    joined = "".join(tokens)
    return bool(words & ID_WORDS) or (len(joined) > 2 and joined.endswith("id"))


@dataclass(frozen=True)
class ValueProfile:
    """What the identifier rule needs to know of one column's values (computed once)."""

    #: non-missing values, and how many of them are distinct
    n: int
    distinct: int
    #: every value is (or reads as) a finite whole number
    whole: bool = False
    #: the smallest and largest of those numbers (None when not all are numbers)
    low: float | None = None
    high: float | None = None

    @classmethod
    def of(cls, series: pd.Series, *, judged: bool = False) -> ValueProfile:
        """The profile of ``series`` (missing values already applied).

        ``judged``: only what :func:`identifier_reason` reads, which looks at the numbers
        (``whole``, ``low``, ``high``) of near-unique columns only: reading a million texts
        as numbers costs more than the rest of the check, so other columns are left without
        them.
        """
        values = series.dropna()
        n, distinct = len(values), int(values.nunique())
        if judged and not cls(n, distinct).suspect:
            return cls(n, distinct)
        if n == 0 or pd.api.types.is_bool_dtype(values):
            return cls(n, distinct)
        if pd.api.types.is_datetime64_any_dtype(values):
            return cls(n, distinct)
        numbers = pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)
        if np.isnan(numbers).any() or not np.isfinite(numbers).all():
            return cls(n, distinct)
        whole = bool(np.all(numbers == np.floor(numbers)))
        return cls(n, distinct, whole, float(numbers.min()), float(numbers.max()))

    @classmethod
    def combined(cls, parts: Sequence[ValueProfile], distinct: int | None = None) -> ValueProfile:
        """The profile of a column cut into ``parts`` (a cluster's partitions), with its
        exact ``distinct`` count when known, else with the sum of the parts' counts, which
        bounds it from above (and the rule only grows stricter with more distinct values)."""
        filled = [p for p in parts if p.n]
        numeric = bool(filled) and all(p.low is not None for p in filled)
        return cls(
            n=sum(p.n for p in filled),
            distinct=sum(p.distinct for p in filled) if distinct is None else distinct,
            whole=numeric and all(p.whole for p in filled),
            low=min(p.low for p in filled) if numeric else None,  # type: ignore[type-var]
            high=max(p.high for p in filled) if numeric else None,  # type: ignore[type-var]
        )

    @property
    def span(self) -> float | None:
        """Largest minus smallest number (None when not all values are numbers)."""
        return None if self.low is None or self.high is None else self.high - self.low

    @property
    def share(self) -> float:
        return self.distinct / self.n if self.n else 0.0

    @property
    def near_unique(self) -> bool:
        return self.n >= MIN_VALUES and self.share >= DISTINCT_SHARE

    @property
    def suspect(self) -> bool:
        """Distinct enough for the rule to look further (at the numbers); every column it
        refuses is suspect, and more distinct values never make a column less so."""
        running = self.share >= RUNNING_SHARE and self.distinct > RUNNING_DISTINCT
        return self.n >= MIN_VALUES and (self.share >= DISTINCT_SHARE or running)

    @property
    def running(self) -> bool:
        """A record number with some numbers repeated (see the module's rule)."""
        return (
            self.whole
            and self.dense
            and self.share >= RUNNING_SHARE
            and self.distinct > RUNNING_DISTINCT
        )

    @property
    def dense(self) -> bool:
        """Whole numbers that run like a record number (1, 2, 3, … with few gaps)."""
        return self.span is not None and self.distinct >= DENSE_SHARE * (self.span + 1)

    @property
    def record_like(self) -> bool:
        """Dense as a record number is: with more than :data:`RUNNING_DISTINCT` values,
        :attr:`dense`; with fewer (a small file), filling :data:`TIGHT_SHARE` of the range,
        which a column of exact ages that is also mostly distinct never does."""
        if self.distinct > RUNNING_DISTINCT:
            return self.dense
        return self.span is not None and self.distinct >= TIGHT_SHARE * (self.span + 1)


#: the roles a column is released under, and what the release does with it
QI, KEEP, HOUSEHOLD_LEVEL = "qi", "keep", "household_level"


def identifier_reason(
    name: str, profile: ValueProfile, ctype: ColumnType | str, *, role: str = QI
) -> str:
    """Why ``name`` cannot be released under ``role`` (``QI``, ``KEEP`` or
    ``HOUSEHOLD_LEVEL``, whose ``profile`` counts households) ("" when it can): the
    module's rule."""
    if not profile.suspect:
        return ""
    ctype = ColumnType(ctype)
    if ctype == ColumnType.DATE:
        return ""
    if ctype == ColumnType.NUMERIC:
        if not profile.whole:
            return ""
        # a household's values go by the household's name ("household income"): per
        # household the name says nothing
        named = role != HOUSEHOLD_LEVEL and named_like_an_identifier(name)
        if not (profile.running or (profile.near_unique and (profile.record_like or named))):
            return ""
        like = _("whole numbers that run like a record number or ID")
    elif profile.near_unique:
        like = _("codes or texts of their own, like IDs, names or free text")
    else:
        return ""
    values = {
        "name": quoted(name),
        "distinct": profile.distinct,
        "n": profile.n,
        "share": 100 * profile.share,
        "like": like,
    }
    if role == KEEP:
        return _(
            "Column {name} looks like an identifier: {distinct:,} of its {n:,} values are "
            "different ({share:.0f} %), {like}; kept, it would be released unchanged and "
            "print real identifiers. Leave it out of the kept columns (or tag it as an "
            "identifier), or, if it is not one, name it in allow_identifier "
            "(--allow-identifier)."
        ).format(**values)
    if role == HOUSEHOLD_LEVEL:
        return _(
            "Column {name} looks like a household identifier: {distinct:,} of its {n:,} "
            "households have a value of their own ({share:.0f} %), {like}; released alike "
            "for every member it would name each household. Tag it as an identifier, group "
            "its values into fewer categories first, or, if it is not one, name it in "
            "allow_identifier (--allow-identifier)."
        ).format(**values)
    return _(
        "Column {name} looks like an identifier, not a quasi-identifier: {distinct:,} "
        "of its {n:,} values are different ({share:.0f} %), {like}; "
        "released per class it would print real identifiers. Tag it as an identifier (it is "
        "then left out of the release), or group its values into fewer categories first."
    ).format(**values)


def column_kind(series: pd.Series) -> ColumnType:
    """How the rule reads a column no type was declared or inferred for (a kept one): numbers
    as numbers, dates as dates, anything else as categories."""
    if pd.api.types.is_bool_dtype(series):
        return ColumnType.NOMINAL
    if pd.api.types.is_numeric_dtype(series):
        return ColumnType.NUMERIC
    if pd.api.types.is_datetime64_any_dtype(series):
        return ColumnType.DATE
    return ColumnType.NOMINAL


def per_household(series: pd.Series, households: pd.Series) -> pd.Series | None:
    """One value per household when ``series`` is constant within every household (a
    household-level column), else None (a person-level one, judged per record)."""
    frame = pd.DataFrame({"value": series.to_numpy(), "home": households.to_numpy()})
    frame = frame[frame["home"].notna()]
    if frame.empty:
        return None
    if (frame.groupby("home", sort=False)["value"].nunique(dropna=False) > 1).any():
        return None
    return frame.drop_duplicates("home")["value"]


def released_reason(
    name: str,
    series: pd.Series,
    ctype: ColumnType | str,
    role: str,
    households: pd.Series | None = None,
) -> str:
    """Why the column ``series`` cannot be released under ``role`` ("" when it can): judged
    per household when ``households`` is given and the column is constant within each,
    else per record."""
    homes = per_household(series, households) if households is not None else None
    if homes is not None:
        profile = ValueProfile.of(homes, judged=True)
        reason = identifier_reason(name, profile, ctype, role=HOUSEHOLD_LEVEL)
        if reason:
            return reason
    return identifier_reason(name, ValueProfile.of(series, judged=True), ctype, role=role)


def check_identifiers(
    data: pd.DataFrame,
    roles: dict[str, str],
    types: dict[str, ColumnType],
    *,
    allowed: Sequence[str] = (),
    households: pd.Series | None = None,
) -> list[str]:
    """Refuse the first released column of ``data`` that looks like an identifier
    (:class:`InputError`, exit code 2), naming the column and the way out.

    ``roles`` maps each released column to ``QI`` or ``KEEP``; ``types`` gives the type of
    those that have one (a kept column without one is read by :func:`column_kind`).  The
    columns named in ``allowed`` are released all the same: the returned sentences say so,
    for the review record."""
    notes = []
    for column, role in roles.items():
        ctype = types.get(column) or column_kind(data[column])
        reason = released_reason(column, data[column], ctype, role, households)
        if reason and column in allowed:
            notes.append(allowed_note(column))
        elif reason:
            raise InputError(reason)
    return notes


def allowed_note(column: str) -> str:
    """What the review record says of a column the rule refuses and ``allow_identifier``
    releases all the same."""
    return _(
        "Column {name} looks like an identifier and is released all the same, because "
        "allow_identifier names it."
    ).format(name=quoted(column))


def check_quasi_identifiers(
    data: pd.DataFrame, qi: list[str] | tuple[str, ...], types: dict[str, ColumnType]
) -> None:
    """Refuse the first identifier-like quasi-identifier of ``data`` (:class:`InputError`,
    exit code 2), naming the column and the identifier role."""
    check_identifiers(data, dict.fromkeys(qi, QI), types)


__all__ = [
    "HOUSEHOLD_LEVEL",
    "KEEP",
    "QI",
    "ValueProfile",
    "allowed_note",
    "check_identifiers",
    "check_quasi_identifiers",
    "column_kind",
    "identifier_reason",
    "named_like_an_identifier",
    "per_household",
    "released_reason",
]
