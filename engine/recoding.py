"""Recoding quasi-identifiers before the partition: hierarchies, bands, top and bottom codes.

An agency recodes its quasi-identifiers with its own public classifications before any
record is grouped: ages into bands at its cut points, incomes top-coded at a public value,
communes into districts and provinces (ARX's hierarchies, sdcMicro's ``globalRecode`` and
``topBotCoding``, μ-ARGUS's global recoding).  This module holds those recodings as plain
data, checked once, with the arithmetic the release needs:

* :class:`Hierarchy` — a nominal column's classification, a table from the finest level
  (commune) to the coarsest (province).  Records are grouped with a distance that knows it
  (two communes of one district are nearer than two of different provinces:
  :meth:`Hierarchy.encode`), and a class releases its members' **lowest common level**
  (:meth:`Hierarchy.common`): the commune when all live in one, else their district, else
  their province, else :data:`ROOT`.  A released value is therefore never a category a
  member does not hold, and a commune is released only for people who live there.
* :func:`band_labels` / :func:`apply_bands` — intervals at public cut points ("[25, 45)").
* :func:`apply_top_bottom` — values beyond a public top (bottom) code replaced by it.

The parameters hold them (``hierarchies``, ``bands``, ``top_code``, ``bottom_code`` of
:class:`engine.params.ReleaseParams`); :func:`apply_recodings` applies them to a table.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import InputError
from engine.i18n import _

#: what a class releases when its members share no level of the hierarchy (ARX's "*")
ROOT = "*"
#: the most rows a hierarchy may have (every commune of a large country is far fewer)
MAX_ROWS = 1_000_000


def value_text(value: Any) -> str:
    """A cell as a hierarchy names it: whole numbers without ".0" (a commune code read as
    1010.0 is "1010"), texts stripped."""
    if isinstance(value, (bool, np.bool_)):
        return str(value)
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        number = float(value)
        if number.is_integer() and abs(number) < 2**53:
            return str(int(number))
        return repr(number)
    return str(value).strip()


@dataclass(frozen=True)
class Hierarchy:
    """A nominal column's classification from its finest level to its coarsest (module doc).

    ``levels`` names the levels (the table's header), ``paths`` maps every finest value to
    its path up the levels (its own value first).
    """

    levels: tuple[str, ...]
    paths: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[Any]], where: str = "hierarchy") -> Hierarchy:
        """The hierarchy of a table whose first row names the levels (finest first) and
        whose other rows each give one finest value and its ancestors; one sentence naming
        ``where`` and the first problem otherwise."""
        if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence) or len(rows) < 2:
            raise InputError(
                _(
                    "{where} must be a table: a header naming the levels from the finest to "
                    "the coarsest, then one row per finest value."
                ).format(where=where)
            )
        if len(rows) - 1 > MAX_ROWS:
            raise InputError(
                _("{where} has {n:,} rows; at most {max:,} are read.").format(
                    where=where, n=len(rows) - 1, max=MAX_ROWS
                )
            )
        header = [value_text(c) for c in _cells(rows[0], where, 0)]
        if len(header) < 2 or any(not h for h in header) or len(set(header)) != len(header):
            raise InputError(
                _(
                    "{where}: the first row must name at least two levels, each once (the "
                    "finest first), not {header}."
                ).format(where=where, header=", ".join(map(repr, header)))
            )
        paths: dict[str, tuple[str, ...]] = {}
        parent: list[dict[str, str]] = [{} for _ in header[:-1]]
        level_of: dict[str, int] = {}
        for i, row in enumerate(rows[1:], 2):
            cells = [value_text(c) for c in _cells(row, where, i)]
            if len(cells) != len(header) or any(not c or c == ROOT for c in cells):
                raise InputError(
                    _(
                        "{where}, row {row}: every row gives one value per level ({n}), none "
                        "empty or '*'."
                    ).format(where=where, row=i, n=len(header))
                )
            if cells[0] in paths:
                raise InputError(
                    _("{where}, row {row}: {value!r} is listed twice.").format(
                        where=where, row=i, value=cells[0]
                    )
                )
            for level, value in enumerate(cells):
                seen = level_of.setdefault(value, level)
                if seen != level:
                    raise InputError(
                        _(
                            "{where}, row {row}: {value!r} is a {a} and a {b}; a released "
                            "value must name one place, so rename one of them."
                        ).format(where=where, row=i, value=value, a=header[seen], b=header[level])
                    )
                if level < len(header) - 1:
                    up = parent[level].setdefault(value, cells[level + 1])
                    if up != cells[level + 1]:
                        raise InputError(
                            _(
                                "{where}, row {row}: the {level} {value!r} lies in {a!r} and "
                                "in {b!r}; each value has one {up}."
                            ).format(
                                where=where,
                                row=i,
                                level=header[level],
                                value=value,
                                a=up,
                                b=cells[level + 1],
                                up=header[level + 1],
                            )
                        )
            paths[cells[0]] = tuple(cells)
        return cls(tuple(header), paths)

    def to_rows(self) -> list[list[str]]:
        """The table again (header first): the parameters' and the project file's form."""
        return [list(self.levels), *(list(p) for p in self.paths.values())]

    # -- the release's arithmetic ------------------------------------------------------

    def check_values(self, values: Iterable[Any], column: str) -> None:
        """Refuse a column holding a value that is not a finest value of the hierarchy."""
        unknown = sorted({value_text(v) for v in values} - set(self.paths))
        if unknown:
            shown = ", ".join(map(repr, unknown[:5])) + (" …" if len(unknown) > 5 else "")
            raise InputError(
                _(
                    "{column}: {n:,} value(s) are not in its hierarchy's finest level "
                    "({level}): {values}. Add them to the hierarchy file."
                ).format(column=column, n=len(unknown), level=self.levels[0], values=shown)
            )

    def common(self, values: Iterable[Any]) -> str:
        """The members' lowest common level: the value they all hold at the finest level
        where they agree, or :data:`ROOT`."""
        paths = {self.paths[value_text(v)] for v in values}
        if not paths:
            return ROOT
        for level in range(len(self.levels)):
            at = {p[level] for p in paths}
            if len(at) == 1:
                return next(iter(at))
        return ROOT

    def level_of(self, released: str) -> int:
        """The level a released value names (``len(levels)`` for :data:`ROOT`)."""
        if released == ROOT:
            return len(self.levels)
        for path in self.paths.values():
            if released in path:
                return path.index(released)
        raise KeyError(released)

    def finest_under(self, released: str) -> set[str]:
        """The finest values a released value stands for (every one for :data:`ROOT`)."""
        if released == ROOT:
            return set(self.paths)
        return {finest for finest, path in self.paths.items() if released in path}

    def encode(self, values: pd.Series) -> np.ndarray:
        """The column as numbers whose squared Euclidean distance is the hierarchy's
        distance: 0 for one commune, 1 per level climbed to the lowest common one (two
        communes of one district 1, of one province 2, of nothing shared L).

        Each level is one-hot encoded as a plain nominal column is (weight √½): the
        hierarchy counts as its L classifications, the commune, the district and the
        province, each a nominal quasi-identifier; two records differ in two indicator
        coordinates of every level below their lowest common one.
        """
        n_levels = len(self.levels)
        weight = math.sqrt(0.5)
        texts = values.map(value_text, na_action="ignore")
        blocks = []
        for level in range(n_levels):
            names = sorted({p[level] for p in self.paths.values()})
            index = {name: j for j, name in enumerate(names)}
            codes = texts.map(
                lambda v, lv=level, ix=index: ix[self.paths[v][lv]], na_action="ignore"
            )
            present = codes.notna().to_numpy()
            block = np.zeros((len(values), len(names)))
            rows = np.flatnonzero(present)
            block[rows, codes[present].astype(int).to_numpy()] = weight
            blocks.append(block)
        return np.hstack(blocks)


def _cells(row: Any, where: str, i: int) -> list[Any]:
    if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
        raise InputError(_("{where}, row {row}: not a row of values.").format(where=where, row=i))
    return list(row)


def hierarchy_of(table: pd.DataFrame, where: str) -> Hierarchy:
    """A hierarchy read from a table (a CSV or a sheet): its columns are the levels."""
    rows = [list(map(str, table.columns))]
    rows += [[value_text(v) if not pd.isna(v) else "" for v in r] for r in table.to_numpy()]
    return Hierarchy.from_rows(rows, where)


# -- bands, top and bottom codes ----------------------------------------------------------


def _num(x: float) -> str:
    return f"{x:g}"


def band_labels(cuts: Sequence[float]) -> list[str]:
    """The labels of the intervals that ``cuts`` make, lowest first: "< 15", "[15, 25)",
    …, "≥ 65" (the form of the buckets' labels)."""
    if not cuts:
        return []
    labels = [f"< {_num(cuts[0])}"]
    labels += [f"[{_num(a)}, {_num(b)})" for a, b in itertools.pairwise(cuts)]
    labels.append(f"≥ {_num(cuts[-1])}")
    return labels


def apply_bands(values: pd.Series, cuts: Sequence[float]) -> pd.Series:
    """Each value replaced by the label of its band (missing stays missing)."""
    numbers = pd.to_numeric(values, errors="coerce")
    labels = np.array(band_labels(cuts), dtype=object)
    index = np.searchsorted(np.asarray(cuts, dtype=float), numbers.to_numpy(float), side="right")
    out = pd.Series(labels[np.minimum(index, len(labels) - 1)], index=values.index, dtype=object)
    return out.where(numbers.notna(), None)


def apply_top_bottom(
    values: pd.Series, top: float | None = None, bottom: float | None = None
) -> pd.Series:
    """Values above ``top`` replaced by ``top``, below ``bottom`` by ``bottom``."""
    numbers = pd.to_numeric(values, errors="coerce")
    out = numbers.clip(lower=bottom, upper=top)
    if pd.api.types.is_integer_dtype(values) and all(
        b is None or float(b).is_integer() for b in (top, bottom)
    ):
        return out.astype(values.dtype)
    return out


def _check_numbers(values: pd.Series, column: str) -> None:
    """Bands and top or bottom codes cut numbers: a column holding text would lose every
    value that is not one (all of them for a column of words), so it is refused."""
    present = values.dropna()
    numbers = pd.to_numeric(present, errors="coerce")
    if numbers.notna().all():
        return
    texts = sorted({str(v) for v in present[numbers.isna()]})
    raise InputError(
        _(
            "{column} holds values that are not numbers ({values}): bands and top or bottom "
            "codes apply to numeric columns only. Remove them from {column}, or give the "
            "column a hierarchy instead."
        ).format(column=repr(column), values=", ".join(map(repr, texts[:3])))
    )


@dataclass(frozen=True)
class Recoded:
    """A table with its quasi-identifiers recoded, and what the partition must know of them."""

    data: pd.DataFrame
    #: the type each banded column now has (ordinal) and each hierarchy column (nominal)
    types: dict[str, str]
    #: the order of each banded column's labels
    orders: dict[str, tuple[str, ...]]
    #: the hierarchy of each column that has one
    hierarchies: dict[str, Hierarchy]


def apply_recodings(
    data: pd.DataFrame,
    *,
    hierarchies: Mapping[str, Sequence[Sequence[str]]] | None = None,
    bands: Mapping[str, Sequence[float]] | None = None,
    top_code: Mapping[str, float] | None = None,
    bottom_code: Mapping[str, float] | None = None,
) -> Recoded:
    """``data`` with the declared recodings applied (top and bottom codes first, then the
    bands); the hierarchies are checked against the column's values (every value must be
    a finest value) and returned for the partition and the release."""
    out = data.copy(deep=False)
    types: dict[str, str] = {}
    orders: dict[str, tuple[str, ...]] = {}
    for column in {*(top_code or {}), *(bottom_code or {}), *(bands or {})}:
        _check_numbers(out[column], column)
    for column in {*(top_code or {}), *(bottom_code or {})}:
        out[column] = apply_top_bottom(
            out[column], (top_code or {}).get(column), (bottom_code or {}).get(column)
        )
    for column, cuts in (bands or {}).items():
        out[column] = apply_bands(out[column], cuts)
        types[column] = "ordinal"
        orders[column] = tuple(band_labels(cuts))
    built: dict[str, Hierarchy] = {}
    for column, rows in (hierarchies or {}).items():
        hierarchy = Hierarchy.from_rows(rows, f"hierarchy of {column}")
        hierarchy.check_values(out[column].dropna(), column)
        out[column] = out[column].map(value_text, na_action="ignore").astype(object)
        built[column] = hierarchy
        types[column] = "nominal"
    return Recoded(out, types, orders, built)


__all__ = [
    "ROOT",
    "Hierarchy",
    "Recoded",
    "apply_bands",
    "apply_recodings",
    "apply_top_bottom",
    "band_labels",
    "hierarchy_of",
    "value_text",
]
