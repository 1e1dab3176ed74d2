"""Persons in households: the structure of a survey file.

Survey microdata holds persons within households (the guidance of sdcMicro and μ-ARGUS; Templ,
*Statistical Disclosure Control for Microdata*, 2017, chapter on households).  Here: which
records share a household (:func:`find_households`, :class:`Households`); which QIs are
household-level, constant within every household (region, commune, dwelling type, household
size), and so must be released with one value per household; how the household-level values
and the household id are released, the id re-coded to a fresh random numbering per release
(:func:`recode_ids`), which lets analysts group the members of a household without linking
back; and what a plan says of the households (:class:`HouseholdPlan`).  The classes that
respect households are formed in :mod:`engine.release.households.classes`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
import pandas as pd

from engine.errors import FeasibleAlternative, InfeasibleError, quoted
from engine.i18n import _, ngettext
from engine.params import ReleaseParams
from engine.release.columns import decimals, recode_qi
from engine.roles import ColumnType
from engine.text import number, percent_fixed

#: a QI constant within this share of the households (of two or more members), but not all,
#: is reported as nearly household-level (a candidate to declare)
NEAR_LEVEL = 0.95


#: ... and from this share on it is taken as household-level (a few data-entry slips, such as
#: a commune mistyped for one member, must not spread a family over two communes)
AUTO_LEVEL = 0.99


@dataclass
class Households:
    """Which household every released record belongs to, and the household-level QIs."""

    column: str
    #: household index (0..n_households − 1) of every released record
    codes: np.ndarray = field(repr=False)
    n_households: int
    #: the QIs released alike for every member: found constant within every household, and
    #: those declared
    level: tuple[str, ...] = ()
    #: the QIs found constant within every household (a subset of ``level``)
    detected: tuple[str, ...] = ()
    #: household-level QIs (declared, or constant in ≥ :data:`AUTO_LEVEL` of the households)
    #: that vary within some households → how many households; each such household is
    #: released with its members' most frequent value
    varied: dict[str, int] = field(default_factory=dict)
    #: the QIs taken as household-level because nearly every household has one value
    promoted: tuple[str, ...] = ()
    #: QIs constant within most households of several members but not all → that share
    nearly: dict[str, float] = field(default_factory=dict)
    #: records without a household id (each counted as a household of its own)
    n_missing: int = 0
    #: confidential columns constant within every household (household expenditure): the
    #: members of a household are kept in different classes (:func:`separate_members`)
    confidential_level: tuple[str, ...] = ()
    #: the hierarchy of each QI that has one (engine.recoding): household groups are formed
    #: with its distance and release its lowest common level
    hierarchies: dict[str, Any] = field(default_factory=dict)

    def sizes(self) -> np.ndarray:
        """Members of every household."""
        return np.bincount(self.codes, minlength=self.n_households)

    def sample(self, records: int, seed: int = 0) -> np.ndarray:
        """Positions of the records of whole households drawn at random (fixed ``seed``)
        until about ``records`` records are in, in file order; all when the file is smaller."""
        n = len(self.codes)
        if n <= records:
            return np.arange(n)
        drawn = np.random.default_rng(seed).permutation(self.n_households)
        enough = np.searchsorted(np.cumsum(self.sizes()[drawn]), records) + 1
        return np.flatnonzero(np.isin(self.codes, drawn[:enough]))

    def subset(self, rows: np.ndarray) -> Households:
        """The households of the records at ``rows`` (renumbered 0..)."""
        codes = _dense(self.codes[rows])
        return replace(self, codes=codes, n_households=int(codes.max()) + 1 if len(codes) else 0)

    def sampled(
        self, clean: pd.DataFrame, records: int
    ) -> tuple[np.ndarray, pd.DataFrame, Households]:
        """(the rows of whole households drawn at random, about ``records`` of them
        (:meth:`sample`); those records of ``clean``; their households): the sample the
        household routes try their class sizes and buckets on."""
        rows = self.sample(records)
        return rows, clean.iloc[rows].reset_index(drop=True), self.subset(rows)


@dataclass(frozen=True)
class HouseholdPlan:
    """What the plan says of the households (the privacy page, ``tclose plan``)."""

    column: str
    n_households: int
    #: records without a household id (each a household of its own)
    n_missing: int
    #: the QIs released alike for every member, those of them found constant within every
    #: household, declared ones that vary (→ households), and QIs nearly household-level
    #: (→ the share of households of two or more members where they are constant)
    household_level: tuple[str, ...]
    detected: tuple[str, ...]
    varied: dict[str, int]
    nearly: dict[str, float]
    #: the largest household
    largest: int
    #: confidential columns constant within every household (members kept apart)
    confidential_level: tuple[str, ...] = ()
    #: the QIs taken as household-level because nearly every household has one value
    promoted: tuple[str, ...] = ()

    @classmethod
    def of(cls, households: Households) -> HouseholdPlan:
        return cls(
            column=households.column,
            n_households=households.n_households,
            n_missing=households.n_missing,
            household_level=households.level,
            detected=households.detected,
            varied=dict(households.varied),
            nearly=dict(households.nearly),
            largest=int(households.sizes().max(initial=0)),
            confidential_level=households.confidential_level,
            promoted=households.promoted,
        )

    def warnings(self) -> list[str]:
        """What the user should know before the run, in words."""
        out = []
        for col, count in self.varied.items():
            if col in self.promoted:
                text = ngettext(
                    "{col} is the same for all members of nearly every household, so it is "
                    "taken as household-level, but differs between the members of {n} "
                    "household; it is released with its members' most frequent value.",
                    "{col} is the same for all members of nearly every household, so it is "
                    "taken as household-level, but differs between the members of {n} "
                    "households; each of them is released with its members' most frequent "
                    "value.",
                    count,
                )
            else:
                text = ngettext(
                    "{col} is declared household-level but differs between the members of {n} "
                    "household; it is released with its members' most frequent value.",
                    "{col} is declared household-level but differs between the members of {n} "
                    "households; each of them is released with its members' most frequent "
                    "value.",
                    count,
                )
            out.append(text.format(col=quoted(col), n=number(count)))
        for col, share in self.nearly.items():
            out.append(
                _(
                    "{col} is the same for all members in {share} of the households of two or "
                    "more persons: declare it household-level (household_level, "
                    "--household-level) to release it alike for every member."
                ).format(col=quoted(col), share=percent_fixed(share))
            )
        if self.n_missing:
            out.append(
                ngettext(
                    "{n} record has no household id ({column}); it counts as a household of "
                    "its own.",
                    "{n} records have no household id ({column}); each counts as a household "
                    "of its own.",
                    self.n_missing,
                ).format(n=number(self.n_missing), column=repr(self.column))
            )
        return out


def household_codes(series: pd.Series) -> tuple[np.ndarray, int, int]:
    """(household index of every record, number of households, records without an id).

    Ids are compared as texts (1, "1" and 1.0 read from a spreadsheet are one household);
    a record without an id is a household of its own.
    """
    text = series.astype("string")
    codes, uniques = pd.factorize(text, use_na_sentinel=True)
    codes = codes.astype(np.int64)
    lacking = codes < 0
    n_missing = int(lacking.sum())
    n = len(uniques)
    if n_missing:
        codes[lacking] = n + np.arange(n_missing)
    return codes, n + n_missing, n_missing


def varying_households(values: pd.Series, hh: np.ndarray) -> np.ndarray:
    """The households whose members do not all share one value (missing is a value)."""
    if len(hh) < 2:
        return np.zeros(0, dtype=np.int64)
    v = pd.factorize(values.astype("string"), use_na_sentinel=False)[0]
    order = np.lexsort((v, hh))
    hs, vs = hh[order], v[order]
    differ = (hs[1:] == hs[:-1]) & (vs[1:] != vs[:-1])
    return np.unique(hs[1:][differ])


def find_households(
    ids: pd.Series,
    clean: pd.DataFrame,
    qi: Sequence[str],
    declared: Sequence[str] = (),
    confidential: Sequence[str] = (),
) -> Households:
    """The household structure of the released records (``ids`` aligned with ``clean``).

    Every QI of ``clean`` (missing codes applied) that is constant within every household is
    household-level, and so is one constant in at least :data:`AUTO_LEVEL` of the households of
    two or more members (data-entry slips); ``declared`` ones are too, whether or not they
    vary.  A confidential column constant within every household of two or more members is
    household-level too.
    """
    column = str(ids.name)
    hh, n_households, n_missing = household_codes(ids.reset_index(drop=True))
    members = np.bincount(hh, minlength=n_households)
    shared = int((members > 1).sum())
    detected, varied, nearly, promoted = [], {}, {}, []
    for col in qi:
        bad = varying_households(clean[col].reset_index(drop=True), hh)
        alike = 1 - len(bad) / shared if shared else 1.0
        if len(bad) == 0:
            detected.append(col)
        elif col in declared:
            varied[col] = len(bad)
        elif alike >= AUTO_LEVEL:
            varied[col] = len(bad)
            promoted.append(col)
        elif alike >= NEAR_LEVEL:
            nearly[col] = alike
    level = tuple(c for c in qi if c in detected or c in declared or c in promoted)
    confidential_level = tuple(
        c
        for c in confidential
        if shared and not len(varying_households(clean[c].reset_index(drop=True), hh))
    )
    return Households(
        column=column,
        codes=hh,
        n_households=n_households,
        level=level,
        detected=tuple(detected),
        varied=varied,
        nearly=nearly,
        n_missing=n_missing,
        confidential_level=confidential_level,
        promoted=tuple(promoted),
    )


def household_frame(data: pd.DataFrame, columns: Sequence[str], hh: np.ndarray) -> pd.DataFrame:
    """One row per household (index 0..H−1): each column's value among its members.

    A column constant within the household gives that value; one that varies (a declared
    household-level column) gives the members' most frequent known value, ties to the first
    member's.
    """
    n_households = int(hh.max()) + 1 if len(hh) else 0
    first = np.full(n_households, -1, dtype=np.int64)
    first[hh[::-1]] = np.arange(len(hh))[::-1]
    out = data[list(columns)].iloc[first].reset_index(drop=True)
    for col in columns:
        bad = varying_households(data[col].reset_index(drop=True), hh)
        if not len(bad):
            continue
        inside = np.isin(hh, bad)
        frame = pd.DataFrame({"h": hh[inside], "v": data[col].to_numpy()[inside]}).dropna()
        if frame.empty:
            continue
        counts = frame.groupby(["h", "v"], sort=False).size().reset_index(name="n")
        counts["neg"] = -counts["n"]
        top = counts.sort_values(["h", "neg"], kind="stable").drop_duplicates("h")
        values = out[col].astype(object)
        values.iloc[top["h"].to_numpy()] = top["v"].to_numpy()
        out[col] = values.astype(data[col].dtype) if data[col].dtype != object else values
    return out


def clashing_ids(ids: pd.Series, n_households: int) -> tuple[bool, int]:
    """(whether an id of ``ids`` is one of the numbers 1..``n_households`` as text, the
    digits of the largest numeric id or of ``n_households``)."""
    given = pd.Series(pd.unique(ids.dropna().astype("string")))
    clash = bool(given.isin(pd.Series(np.arange(1, n_households + 1)).astype("string")).any())
    values = pd.to_numeric(given, errors="coerce").abs()
    top = max(float(values.max(skipna=True)) if values.notna().any() else 0.0, n_households)
    return clash, len(str(int(top)))


def recode_ids(
    hh: np.ndarray,
    n_households: int,
    rng: np.random.Generator,
    original: pd.Series | None = None,
    linked: np.ndarray | None = None,
) -> pd.Series:
    """A fresh random numbering of the households (one per release; nothing links back).

    The numbers are 1..H in random order, or, when one of those is also an id of the input
    (``original``: households numbered 1, 2, … already), the same shifted past every numeric
    id of the input (1..H + 10^d, d the digits of the largest), so that no released id is an
    input id: a released 17 can never be mistaken for the input's household 17.
    ``linked`` (per household) says which households are released with an id; the others'
    members get an empty id (H counts only the linked ones).
    """
    keep = np.ones(n_households, dtype=bool) if linked is None else np.asarray(linked, bool)
    count = int(keep.sum())
    numbers = np.zeros(n_households, dtype=np.int64)
    numbers[keep] = rng.permutation(count).astype(np.int64) + 1
    if original is not None:
        clash, digits = clashing_ids(original, count)
        if clash:
            numbers[keep] += 10**digits
    out = pd.array(numbers[hh], dtype="Int64")
    if not keep.all():
        out[~keep[hh]] = pd.NA
    return pd.Series(out)


def unit_level_values(
    clean: pd.DataFrame,
    columns: Sequence[str],
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
    units: np.ndarray,
    mode: Literal["centroid", "range", "common"] = "centroid",
    hierarchies: Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """The released household-level QIs of every record, recoded per ``units`` (of every
    record): a pattern group (whole households of one size, so one record per member weighs
    every household alike) or, for a household released without an id, its member's class.
    A column with a hierarchy (``hierarchies``) releases the unit's lowest common level (a
    group of households of two communes of one district: the district).

    A value missing for a record of a unit is withheld for the whole unit (a known value
    withheld, never one made up), so that every household of a group keeps one released
    tuple.
    """
    frame = clean[list(columns)].reset_index(drop=True)
    places = {c: decimals(frame[c]) for c in columns}
    released = recode_qi(frame, columns, types, orders, units, mode, places, hierarchies)
    return _withhold_missing(released, frame, columns, units)


def _dense(labels: np.ndarray) -> np.ndarray:
    _, inv = np.unique(labels, return_inverse=True)
    return inv.astype(np.int64).ravel()


def survey_columns(
    params: ReleaseParams,
    clean: pd.DataFrame,
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
    households: Households | None,
    groups: np.ndarray | None,
    original: pd.DataFrame,
    rng: np.random.Generator,
    *,
    avoid_ids: bool = True,
    classes: np.ndarray | None = None,
    weights: np.ndarray | None = None,
    linked: np.ndarray | None = None,
) -> dict[str, pd.Series]:
    """The released columns a survey adds, aligned with the records of ``clean``.

    Household-level QIs recoded per household group (``groups``, of every record): on the
    household file (one record per household, so a large household weighs no more than a
    small one), then carried to every member; or, on the route of pattern groups
    (``linked``: per household, released with an id; :mod:`.patterns`), per group of
    households of one size and, for a household without an id, per class.  The household id
    re-coded (:func:`recode_ids`) when the release carries it; the weight as
    :meth:`ReleaseParams.released_weight` says: its class's mean (``classes``, ``weights``:
    the records' classes and weights, :func:`~engine.release.households.class_weights`) or
    unchanged.  ``original`` is the input's released rows
    (:meth:`engine.release.stages.prepare.Prepared.released_input`); ``avoid_ids`` keeps the
    new numbers clear of the input's ids (:func:`recode_ids`; a cluster partition leaves
    that to the run, which sees every partition's ids).
    """
    from engine.release.households.weights import class_weights

    out: dict[str, pd.Series] = {}
    if households is not None and groups is not None and households.level:
        if linked is not None:
            level = unit_level_values(clean, households.level, types, orders, groups,
                                      params.qi_output, households.hierarchies)  # fmt: skip
        else:
            level = household_level_values(clean, types, orders, households, groups,
                                           params.qi_output)  # fmt: skip
        out.update({c: level[c] for c in level.columns})
    if households is not None and params.released_household():
        avoid = original[households.column] if avoid_ids else None
        ids = recode_ids(households.codes, households.n_households, rng, avoid, linked)
        out[households.column] = ids.rename(households.column)
    released = params.released_weight()
    if released == "keep":
        out[params.weight] = original[params.weight].reset_index(drop=True)
    elif released == "class" and classes is not None and weights is not None:
        out[params.weight] = pd.Series(class_weights(weights, classes), name=params.weight)
    return out


def _withhold_missing(
    released: pd.DataFrame, frame: pd.DataFrame, columns: Sequence[str], units: np.ndarray
) -> pd.DataFrame:
    """``released`` with a column empty for every unit (``units``: of every row of ``frame``)
    that holds a row missing it: a known value withheld, never one made up."""
    for col in columns:
        lacking = frame[col].isna().to_numpy()
        if not lacking.any():
            continue
        hidden = np.isin(units, np.unique(units[lacking]))
        values = released[col]
        if pd.api.types.is_integer_dtype(values) and not pd.api.types.is_extension_array_dtype(
            values
        ):
            values = values.astype("Int64")
        released[col] = values.mask(hidden)
    return released


def household_release(
    frame: pd.DataFrame,
    households: Households,
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
    groups: np.ndarray,
    mode: Literal["centroid", "range"] = "centroid",
) -> pd.DataFrame:
    """The released household-level QIs of every household (``frame``: the household file,
    :func:`household_frame`): recoded per household group (``groups``: of every record).

    A value missing for a household stays missing: a group holding such a household releases
    that QI empty for all its households (a known value withheld, never one made up; the
    ordering of :func:`household_order` keeps households with a missing value together, so
    this is rare), and every household of a group keeps one released tuple.
    """
    group_of = np.zeros(households.n_households, dtype=np.int64)
    group_of[households.codes] = groups
    places = {c: decimals(frame[c]) for c in households.level}
    released = recode_qi(
        frame, households.level, types, orders, group_of, mode, places, households.hierarchies
    )
    return _withhold_missing(released, frame, households.level, group_of)


def household_level_values(
    clean: pd.DataFrame,
    types: Mapping[str, ColumnType],
    orders: Mapping[str, Sequence[str]],
    households: Households,
    groups: np.ndarray,
    mode: Literal["centroid", "range"] = "centroid",
) -> pd.DataFrame:
    """The released household-level QIs of every record of ``clean``: recoded per household
    group on the household file (one record per household), then carried to the members."""
    frame = household_frame(clean, households.level, households.codes)
    released = household_release(frame, households, types, orders, groups, mode)
    return released.iloc[households.codes].reset_index(drop=True)


def check_households(n_households: int, k: int) -> None:
    """Refuse k above the number of households: no class could hold k of them (exit 3, with
    the largest k that can be met)."""
    if k > n_households:
        raise InfeasibleError(
            _(
                "k = {k} needs records of at least {k2} households in every class, but the file "
                "has {n_households} households."
            ).format(k=number(k), k2=number(k), n_households=number(n_households)),
            alternatives=[
                FeasibleAlternative(
                    _("k = {n_households} (one class holding every household)").format(
                        n_households=number(n_households)
                    ),
                    {"k": n_households},
                )
            ],
        )


__all__ = [
    "HouseholdPlan",
    "Households",
    "check_households",
    "clashing_ids",
    "find_households",
    "household_codes",
    "household_frame",
    "household_level_values",
    "recode_ids",
    "survey_columns",
    "unit_level_values",
]
