"""Identifiers in disguise: quasi-identifiers whose values are (nearly) one per record.

A quasi-identifier is released recoded per class: a category column as the class's most
frequent value (or the set of its values), a number as the class mean (or its range).  When
nearly every record has a value of its own (a record number, an ID code, a name, free text),
the release then prints real identifiers, and k-anonymity on such a column buys nothing.
Such a column is refused as a quasi-identifier (SPEC §1), with a message that suggests the
identifier role (which leaves it out of the release).

A statistician expects many distinct values from a continuous quasi-identifier (an income
to the cent, exact ages on a small file, a birth date): microaggregation is made for them.
So the rule is narrow:

* a **category** column (nominal or ordinal: codes, names, free text) is refused when at
  least :data:`DISTINCT_SHARE` of its non-missing values are distinct;
* a **numeric** column only when its values are whole numbers, at least that share distinct,
  and they either lie close together like a running number (distinct values fill at least
  :data:`DENSE_SHARE` of the range between the smallest and the largest) or the column's name
  is an identifier's ("respondent_id", "CaseNo", "e-mail");
* a **date** column never.

Fewer than :data:`MIN_VALUES` values say nothing either way.  The GUI computes a
:class:`ValueProfile` per column once (off its main thread) and asks :func:`identifier_reason`
when the roles change, so that the tag page and the engine apply the same rule.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine.errors import InputError
from engine.i18n import _
from engine.roles import ColumnType

#: share of distinct values (of the non-missing ones) from which a column is identifier-like
DISTINCT_SHARE = 0.9
#: fewest non-missing values for that share to mean anything
MIN_VALUES = 20
#: whole numbers whose distinct values fill this share of their range run like a record number
DENSE_SHARE = 0.5
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
        if judged and not cls(n, distinct).near_unique:
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
    def dense(self) -> bool:
        """Whole numbers that run like a record number (1, 2, 3, … with few gaps)."""
        return self.span is not None and self.distinct >= DENSE_SHARE * (self.span + 1)


def identifier_reason(name: str, profile: ValueProfile, ctype: ColumnType | str) -> str:
    """Why ``name`` cannot be a quasi-identifier ("" when it can): the module's rule."""
    if not profile.near_unique:
        return ""
    ctype = ColumnType(ctype)
    if ctype == ColumnType.DATE:
        return ""
    if ctype == ColumnType.NUMERIC:
        if not profile.whole or not (profile.dense or named_like_an_identifier(name)):
            return ""
        like = _("whole numbers that run like a record number or ID")
    else:
        like = _("codes or texts of their own, like IDs, names or free text")
    return _(
        "Column {name} looks like an identifier, not a quasi-identifier: {distinct:,} "
        "of its {n:,} values are different ({share:.0f} %), {like}; "
        "released per class it would print real identifiers. Tag it as an identifier (it is "
        "then left out of the release), or group its values into fewer categories first."
    ).format(
        name=repr(name),
        distinct=profile.distinct,
        n=profile.n,
        share=100 * profile.share,
        like=like,
    )


def check_quasi_identifiers(
    data: pd.DataFrame, qi: list[str] | tuple[str, ...], types: dict[str, ColumnType]
) -> None:
    """Refuse the first identifier-like quasi-identifier of ``data`` (:class:`InputError`,
    exit code 2), naming the column and the identifier role."""
    for column in qi:
        profile = ValueProfile.of(data[column], judged=True)
        reason = identifier_reason(column, profile, types[column])
        if reason:
            raise InputError(reason)


__all__ = [
    "ValueProfile",
    "check_quasi_identifiers",
    "identifier_reason",
    "named_like_an_identifier",
]
