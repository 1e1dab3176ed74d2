"""The checks of a release's input that every route runs: one function per fact.

A release is made on one machine (:mod:`engine.release`) or on a Dask cluster from the file's
partitions (:mod:`engine.distributed`).  Both must refuse the same input with the same
sentence and exit code, so each fact is checked by one function here, which one machine
calls on the whole column and a cluster on every partition, combining the partitions'
findings in file order (:func:`first_problem`):

* **the named columns exist** (:func:`check_columns`): every column given a role, a type, a
  category order, missing-value codes, a hierarchy, bands or a top or bottom code of its own
  is in the input; a type for a column the file does not have would otherwise be ignored
  without a word;
* **the weights are weights** (:func:`weight_problem`, :func:`read_weights`): numbers > 0
  and no larger than :data:`~engine.params.MAX_MAGNITUDE`, each broken rule named with the
  first record that breaks it and how many do;
* **a declared type fits the values** (:func:`type_problem`, :func:`check_type`): a numeric
  column holds numbers (or declared missing codes), a date column holds dates written as
  dates, never plain numbers (which a date parser would read as nanoseconds since 1970, and
  release incomes as ``1970-01-01``).

Each ``*_problem`` function returns what it found (None when nothing), as a small picklable
value a cluster's worker sends back; the ``*_error`` functions turn it into the one
:class:`~engine.errors.InputError` both routes raise.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from engine.errors import InputError, cut, listing, quoted
from engine.i18n import _
from engine.params import MAX_MAGNITUDE, ReleaseParams
from engine.roles import ColumnType
from engine.text import number

#: the most characters of a cell value a message quotes
VALUE_LIMIT = 40


# -- the named columns --------------------------------------------------------------------------


def named_columns(params: ReleaseParams) -> list[str]:
    """Every column ``params`` names, roles first, then those given a type, a category order,
    missing-value codes or a recoding of their own (each once, in that order)."""
    named = [*params.qi, *params.confidential, *params.identifiers, *params.keep]
    named += [c for c in (params.household, params.weight) if c is not None]
    named += [*params.types, *params.orders, *params.column_missing]
    named += [*params.hierarchies, *params.bands, *params.top_code, *params.bottom_code]
    return list(dict.fromkeys(named))


def check_columns(params: ReleaseParams, names: Sequence[Any]) -> None:
    """Refuse ``params`` when a column it names is not among the input's ``names``: the
    message lists the missing ones (a few) and the first columns the input has."""
    have = {str(n) for n in names}
    absent = [c for c in named_columns(params) if c not in have]
    if absent:
        shown = ", ".join(cut(n) for n in list(names)[:12])
        raise InputError(
            _("No column named {columns} in the input (it has: {have}).").format(
                columns=listing(absent), have=shown
            )
        )


# -- combining what the partitions found ----------------------------------------------------------

P = TypeVar("P", bound="Problem")


@dataclass(frozen=True)
class Problem:
    """What a check found in a column (or a partition of it): the first bad value, where it
    is, and how many values are bad."""

    #: position of the first bad value (in the partition, or in the file once combined)
    position: int
    #: the first bad value as the file holds it
    value: Any
    #: how many values are bad
    count: int


def first_problem(problems: Iterable[tuple[int, P | None]]) -> P | None:
    """The file's problem from its partitions' ``(offset, problem)`` (in any order): the
    first bad value in file order, and the count over every partition."""
    found = [(offset + p.position, p) for offset, p in problems if p is not None]
    if not found:
        return None
    position, first = min(found, key=lambda item: item[0])
    total = sum(p.count for _offset, p in found)
    return type(first)(**{**first.__dict__, "position": position, "count": total})


def shown_value(value: Any) -> str:
    """A cell's value as a message quotes it: text in quotes, a number as it reads (1e+308,
    never 309 digits), an empty cell as such, cut to :data:`VALUE_LIMIT` characters."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return _("an empty cell")
    value = value.item() if isinstance(value, np.generic) else value
    if isinstance(value, str):
        return quoted(value, VALUE_LIMIT)
    if isinstance(value, float):
        return cut(f"{int(value)}" if value.is_integer() and abs(value) < 1e15 else repr(value))
    if isinstance(value, int) and abs(value) >= 10**15:
        return f"{float(value):.6g}"
    return cut(str(value), VALUE_LIMIT)


# -- weights ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WeightProblem(Problem):
    """The first weight that is not one, and the rule it breaks: "number" (not a number, or
    empty), "positive" (0 or below) or "size" (beyond MAX_MAGNITUDE)."""

    rule: str = "number"


def _weight_numbers(series: pd.Series) -> np.ndarray:
    return pd.to_numeric(series.reset_index(drop=True), errors="coerce").to_numpy(
        dtype=np.float64, na_value=np.nan
    )


def weight_problem(series: pd.Series) -> WeightProblem | None:
    """The first value of ``series`` that is not a weight (a number > 0 and ≤
    MAX_MAGNITUDE), the rule it breaks, and how many values break one (None: all good)."""
    values = _weight_numbers(series)
    not_number = np.isnan(values)  # text, an empty cell
    with np.errstate(invalid="ignore"):
        not_positive = ~not_number & (values <= 0)
        too_large = ~not_number & (values > MAX_MAGNITUDE)  # inf included
    bad = not_number | not_positive | too_large
    if not bad.any():
        return None
    first = int(np.argmax(bad))
    rule = "number" if not_number[first] else "positive" if not_positive[first] else "size"
    return WeightProblem(first, series.iloc[first], int(bad.sum()), rule)


def weight_error(column: str, problem: WeightProblem, rows: np.ndarray | None = None) -> InputError:
    """The one sentence a bad weight gets, naming the rule it breaks and the record (its
    number in the input, the first data row being record 1; ``rows``: the input positions
    of the values checked, None for 0..n−1)."""
    record = (int(rows[problem.position]) if rows is not None else problem.position) + 1
    rules = {
        "number": _("every weight must be a number > 0"),
        "positive": _("every weight must be a number > 0"),
        "size": _("every weight must be a number > 0 and at most {max}").format(
            max=number(MAX_MAGNITUDE, digits=3)
        ),
    }
    return InputError(
        _(
            "Weight column {column}: record {record:,} holds {shown}; {rule} ({bad:,} "
            "record(s) are not)."
        ).format(
            column=quoted(column),
            record=record,
            shown=shown_value(problem.value),
            rule=rules[problem.rule],
            bad=problem.count,
        )
    )


def read_weights(series: pd.Series, rows: np.ndarray | None = None) -> np.ndarray:
    """The weights of a column as floats, refused (:func:`weight_error`) unless every one is
    a number > 0 and ≤ MAX_MAGNITUDE."""
    problem = weight_problem(series)
    if problem is not None:
        raise weight_error(str(series.name), problem, rows)
    return _weight_numbers(series)


# -- declared types ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TypeProblem(Problem):
    """The first value a column's type cannot read: "number" (a numeric column's text),
    "date" (a date column's text that is no date) or "plain-number" (a date column's number)."""

    rule: str = "number"


def type_problem(series: pd.Series, ctype: ColumnType | str) -> TypeProblem | None:
    """The first value of ``series`` (missing codes already applied) that its type
    ``ctype`` cannot read, and how many there are (None: every value reads; categories
    read anything)."""
    ctype = ColumnType(ctype)
    values = series.reset_index(drop=True)
    present = values.notna().to_numpy()
    if ctype == ColumnType.NUMERIC:
        bad = present & pd.to_numeric(values, errors="coerce").isna().to_numpy()
        rule = "number"
    elif ctype == ColumnType.DATE:
        if pd.api.types.is_datetime64_any_dtype(values):
            return None
        numbers = present & _numbers(values)
        if numbers.any():  # 2450 is not a date: read as one it is 1970-01-01 plus 2450 ns
            first = int(np.argmax(numbers))
            return TypeProblem(first, values.iloc[first], int(numbers.sum()), "plain-number")
        bad = present & pd.to_datetime(values, errors="coerce").isna().to_numpy()
        rule = "date"
    else:
        return None
    if not bad.any():
        return None
    first = int(np.argmax(bad))
    return TypeProblem(first, values.iloc[first], int(bad.sum()), rule)


def _numbers(values: pd.Series) -> np.ndarray:
    """Which values are numbers as the file holds them (not texts of digits, which a date
    parser reads as written: "20240131", "1999")."""
    if pd.api.types.is_bool_dtype(values):
        return np.zeros(len(values), dtype=bool)
    if pd.api.types.is_numeric_dtype(values):
        return np.ones(len(values), dtype=bool)
    return np.fromiter(
        (isinstance(v, (int, float, np.number)) and not isinstance(v, (bool, np.bool_))
         for v in values), dtype=bool, count=len(values),
    )  # fmt: skip


def type_error(column: str, problem: TypeProblem) -> InputError:
    """The one sentence a value its column's type cannot read gets."""
    value = shown_value(problem.value)
    if problem.rule == "plain-number":
        text = _(
            "Column {column} is declared a date, but it holds numbers ({value} is not a "
            "date): write its dates as dates (2024-01-31) or as text, or declare it numeric."
        )
    elif problem.rule == "date":
        text = _(
            "Column {column} is a date column but {value} is not a date; declare it missing "
            "or change the type."
        )
    else:
        text = _(
            "Column {column} is numeric but {value} is not a number; declare it as a "
            "missing-value code or change the column type."
        )
    return InputError(text.format(column=quoted(column), value=value))


def check_type(series: pd.Series, ctype: ColumnType | str) -> None:
    """Refuse ``series`` (:func:`type_error`) when its type cannot read one of its values."""
    problem = type_problem(series, ctype)
    if problem is not None:
        raise type_error(str(series.name), problem)


__all__ = [
    "Problem",
    "TypeProblem",
    "WeightProblem",
    "check_columns",
    "check_type",
    "first_problem",
    "named_columns",
    "read_weights",
    "shown_value",
    "type_error",
    "type_problem",
    "weight_error",
    "weight_problem",
]
