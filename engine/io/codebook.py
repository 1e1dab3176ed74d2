"""The labels a statistics file carries with its data: :class:`Codebook`.

An SPSS or Stata file says what each column means (a variable label), what each code of a
categorical column stands for (value labels: ``1`` = "Male"), which codes mean a missing
answer (SPSS user-missing values: ``-9`` = "Refused") and how a column is measured (nominal,
ordinal, scale).  tclose reads them with the data (:func:`engine.io.stats.read_stats`) and
keeps them apart from it: the table holds the codes, so that a released category keeps its
code, and the codebook travels beside the table to every release file (the labels inside a
``.sav`` or ``.dta``, a codebook sheet in ``.xlsx``, a ``codebook`` section in the JSON
beside a CSV or Parquet release, the DDI codebook).

Two facts of a codebook decide how a column is released, and those become parameters
(:func:`with_codebook`): a column whose codes carry value labels is categorical (nominal, or
ordinal when the file says so), and user-missing codes are missing values.  They are then
part of the one description of the release (:class:`engine.params.ReleaseParams`), saved in
project files like any type or missing code the user gives.

What a release carries is :meth:`Codebook.released`: the labels of the columns released,
and value labels only for the codes that occur in the released table (and the missing
codes), so a published codebook names no category the release does not show.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from engine.params import ReleaseParams
from engine.roles import ColumnType

#: measurement levels as SPSS names them (Stata has none; the DDI uses the same words)
MEASURES = ("nominal", "ordinal", "scale")
Code = float | str


def _code(value: Any) -> Code | None:
    """A code as the codebook keys it: numbers as floats (1 == 1.0), texts as they are."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, (bool, np.bool_)):
        return float(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        number = float(value)
        return None if math.isnan(number) else number
    return str(value)


def _number(text: str) -> Code | None:
    """A text that writes a number, as the number (the key value labels have)."""
    try:
        return float(text)
    except ValueError:
        return None


def code_text(code: Code) -> str:
    """A code as people and missing-value parameters write it: ``1`` not ``1.0``."""
    if isinstance(code, float) and code.is_integer() and abs(code) < 2**53:
        return str(int(code))
    return str(code)


@dataclass(frozen=True)
class Variable:
    """What a file says about one column."""

    #: what the column means ("Sex of the respondent"); "" when the file gives none
    label: str = ""
    #: code → what it stands for
    values: Mapping[Code, str] = field(default_factory=dict)
    #: codes that stand for a missing answer (SPSS user-missing values)
    missing: tuple[Code, ...] = ()
    #: "nominal", "ordinal", "scale" or "" (not said)
    measure: str = ""

    @property
    def categorical(self) -> bool:
        """Whether the column's codes are categories: labels on codes that are not missing
        codes, and not measured as a scale (a scale column may label only its missing
        codes, income's -9 = "Refused")."""
        return self.measure != "scale" and any(c not in self.missing for c in self.values)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.label:
            out["label"] = self.label
        if self.values:
            out["values"] = [[_json_code(c), text] for c, text in self.values.items()]
        if self.missing:
            out["missing"] = [_json_code(c) for c in self.missing]
        if self.measure:
            out["measure"] = self.measure
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Variable:
        values = {_code(c): str(text) for c, text in data.get("values", ())}
        return cls(
            label=str(data.get("label", "")),
            values={c: t for c, t in values.items() if c is not None},
            missing=tuple(c for c in map(_code, data.get("missing", ())) if c is not None),
            measure=str(data.get("measure", "")),
        )


def _json_code(code: Code) -> int | float | str:
    if isinstance(code, float) and code.is_integer() and abs(code) < 2**53:
        return int(code)
    return code


@dataclass(frozen=True)
class Codebook:
    """The labels of a table's columns and of the file (module doc).  Empty for a file
    that carries none (CSV, a workbook)."""

    variables: Mapping[str, Variable] = field(default_factory=dict)
    #: the file's own label (SPSS file label, Stata data label)
    label: str = ""
    #: the file's notes (SPSS documents, Stata notes)
    notes: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.variables or self.label or self.notes)

    def variable(self, column: str) -> Variable:
        return self.variables.get(column, Variable())

    def types(self) -> dict[str, ColumnType]:
        """The type each value-labelled column has: its codes are categories, not numbers
        (ordinal where the file measures it so)."""
        return {
            name: ColumnType.ORDINAL if var.measure == "ordinal" else ColumnType.NOMINAL
            for name, var in self.variables.items()
            if var.categorical
        }

    def missing_codes(self) -> dict[str, tuple[str, ...]]:
        """The user-missing codes of each column, as missing-value parameters write them."""
        return {
            name: tuple(code_text(c) for c in var.missing)
            for name, var in self.variables.items()
            if var.missing
        }

    def released(self, table: pd.DataFrame, column_types: Mapping[str, str]) -> Codebook:
        """The codebook of a release of this file (module doc): its variables' labels,
        without the file's own label and notes.

        ``column_types`` is the release's published ``column_types`` (what the engine
        treated each column as); a column's measure follows it, and a column released as
        text labels (a bucket's interval, a range) keeps no value labels, since its values
        are no longer codes.
        """
        out: dict[str, Variable] = {}
        for name in table.columns:
            var = self.variable(str(name))
            column = table[name]
            kind = column_types.get(str(name), "")
            values: dict[Code, str] = {}
            if var.values:
                distinct = pd.unique(column.dropna())
                present = {_code(v) for v in distinct}
                keep = present | set(var.missing)
                values = {c: t for c, t in var.values.items() if c in keep}
                if not pd.api.types.is_numeric_dtype(column):
                    # codes released as text (a hierarchy's levels: "1101", "11", "*") keep
                    # the labels of the codes they name, keyed as the column holds them
                    texts = {_number(v): v for v in distinct if isinstance(v, str)}
                    values |= {
                        texts[c]: t for c, t in var.values.items() if c in texts and c is not None
                    }
                    shown = set(texts.values())
                    values = {c: t for c, t in values.items() if c in keep or c in shown}
            categories = var.measure != "scale" and any(c not in var.missing for c in values)
            measure = _measure(column, kind, var.measure, categories)
            out[str(name)] = Variable(var.label, values, var.missing, measure)
        # the file's own label and notes describe the source (they may say "internal"):
        # a release carries its own (the About text), never these
        return Codebook(out)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types (the JSON sidecar's ``codebook`` section)."""
        out: dict[str, Any] = {}
        if self.label:
            out["label"] = self.label
        if self.notes:
            out["notes"] = list(self.notes)
        out["variables"] = {name: var.to_dict() for name, var in self.variables.items()}
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Codebook:
        if not data:
            return cls()
        variables = {
            str(name): Variable.from_dict(var) for name, var in data.get("variables", {}).items()
        }
        return cls(variables, str(data.get("label", "")), tuple(data.get("notes", ())))


def sidecar_codebook(metadata: Mapping[str, Any] | None) -> Codebook:
    """The codebook a release's published metadata carries (its JSON sidecar or Parquet
    metadata: the ``codebook`` section), or an empty one."""
    if not isinstance(metadata, Mapping) or not isinstance(metadata.get("codebook"), Mapping):
        return Codebook()
    try:
        return Codebook.from_dict(metadata["codebook"])
    except (TypeError, ValueError, AttributeError):
        return Codebook()  # a hand-edited section: the data is read all the same


def _measure(column: pd.Series, kind: str, given: str, labelled: bool) -> str:
    """A released column's measurement level: from the type the release gave it."""
    if kind == "ordinal":
        return "ordinal"
    if kind == "nominal" or labelled:
        return "ordinal" if given == "ordinal" else "nominal"
    numeric = pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)
    if numeric or pd.api.types.is_datetime64_any_dtype(column):
        return "scale"
    return "nominal"


def with_codebook(params: ReleaseParams, codebook: Codebook) -> ReleaseParams:
    """``params`` with what ``codebook`` says about how columns are released: value-labelled
    columns typed as categories and user-missing codes declared missing, wherever the
    parameters do not already say otherwise (a type or codes given by the user win)."""
    if not codebook:
        return params
    types = {**codebook.types(), **params.types}
    missing = dict(params.column_missing)
    for name, codes in codebook.missing_codes().items():
        missing.setdefault(name, codes)
    if types == dict(params.types) and missing == dict(params.column_missing):
        return params
    return params.replace(types=types, column_missing=missing)


__all__ = [
    "MEASURES",
    "Codebook",
    "Variable",
    "code_text",
    "sidecar_codebook",
    "with_codebook",
]
