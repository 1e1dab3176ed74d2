"""What every mechanism does first: check the columns and the size, apply missing codes, type.

Both constructions (buckets and noise) start from the same cleaned, typed view of the columns
they protect, so the checks and messages are the same whichever mechanism the user chose.
Three things are settled here for both:

* a quasi-identifier whose values are (nearly) one per record is an identifier in disguise
  and is refused (:mod:`engine.identifiers`), naming the column and the identifier role;
* the numbers of a numeric column must be ones tclose can compute with: finite, and no larger
  than :data:`~engine.params.MAX_MAGNITUDE` in size (nor, apart from 0, smaller than its
  inverse), so that means, widths and sums of squares stay finite numbers;
* records with a missing confidential value are released in a bucket of their own, or, with
  ``missing_confidential="drop"``, left out of the release (:attr:`Prepared.rows` says which
  records remain, :attr:`Prepared.n_left_out` how many went).  Merging them into a value
  bucket is not offered: the released label would be false for them, and the one truthful
  merge, a label "X or missing", would blur every record of bucket X instead of the few
  missing ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from engine.checks import check_columns, check_type, read_weights
from engine.errors import InputError, quoted
from engine.i18n import _
from engine.identifiers import KEEP, QI, check_identifiers
from engine.io import apply_missing
from engine.params import MAX_MAGNITUDE, ReleaseParams
from engine.recoding import Hierarchy, Recoded, apply_recodings
from engine.release.columns import numeric_values, resolve_columns
from engine.release.households import Households, check_households, find_households
from engine.roles import ColumnType


@dataclass
class Prepared:
    """The quasi-identifier and confidential columns, cleaned and typed (never released)."""

    qi: list[str]
    confidential: list[str]
    #: QI and confidential columns with declared missing codes as NA, index 0..n-1 (only the
    #: records that are released)
    clean: pd.DataFrame
    types: dict[str, ColumnType]
    orders: dict[str, tuple]
    #: positions in the input of the records in ``clean`` (None: every record, in order)
    rows: np.ndarray | None = field(default=None, repr=False)
    #: records left out because a confidential value is missing (``missing_confidential``)
    n_left_out: int = 0
    #: the household of every released record and the household-level QIs (``household``)
    households: Households | None = field(default=None, repr=False)
    #: the sampling weight of every released record (``weight``)
    weights: np.ndarray | None = field(default=None, repr=False)
    #: the hierarchy of each QI that has one (``hierarchies``): its distance forms the
    #: classes and its lowest common level is released
    hierarchies: dict[str, Hierarchy] = field(default_factory=dict)
    #: what the review record says of the run's input (a column released although it looks
    #: like an identifier, ``allow_identifier``)
    notes: list[str] = field(default_factory=list)

    def released_input(self, data: pd.DataFrame) -> pd.DataFrame:
        """The rows of the input ``data`` that are released, index 0..n-1 (keep columns)."""
        data = data.reset_index(drop=True)
        return data if self.rows is None else data.iloc[self.rows].reset_index(drop=True)


def prepare(data: pd.DataFrame, params: ReleaseParams) -> Prepared:
    """Check ``data`` against ``params`` and return the cleaned, typed protected columns.

    Each check is a function of its own (below), so that a cluster, which holds the file in
    partitions, runs the same ones with the same words: on the column names
    (:func:`check_roles`, :func:`check_columns`), on every partition (:func:`clean_columns`,
    :func:`check_numbers`) and on the counts added up (:func:`check_records`).
    """
    check_roles(params)
    check_columns(params, data.columns)
    qi, confidential = list(params.qi), list(params.confidential)
    recoded, rows = clean_columns(data, params)
    clean = recoded.data
    left_out = 0 if rows is None else len(data) - len(rows)
    check_records(len(data), left_out)
    types, orders = resolve_columns(
        clean,
        [*qi, *confidential],
        {**params.types, **recoded.types},
        {**params.orders, **recoded.orders},
    )
    for col in (*qi, *confidential):  # a declared type reads every value (a date no number)
        check_type(clean[col], types[col])
    check_numbers(clean, [*qi, *confidential], types)
    prepared = Prepared(qi, confidential, clean, types, orders, rows, left_out)
    prepared.hierarchies = recoded.hierarchies
    released = prepared.released_input(data)
    # an identifier in disguise is refused whatever its role, per household where it is a
    # household's value
    shown = pd.concat([clean[qi], released[list(params.keep)]], axis=1)
    roles = {**dict.fromkeys(qi, QI), **dict.fromkeys(params.keep, KEEP)}
    homes = released[params.household] if params.household is not None else None
    prepared.notes = check_identifiers(
        shown, roles, types, allowed=params.allow_identifier, households=homes
    )
    if params.weight is not None:
        prepared.weights = read_weights(released[params.weight], rows)
    if params.household is not None:
        prepared.households = find_households(
            released[params.household], clean, qi, params.household_level, confidential
        )
        prepared.households.hierarchies = prepared.hierarchies
        check_households(prepared.households.n_households, params.k)
    return prepared


def check_roles(params: ReleaseParams) -> None:
    """Refuse parameters that protect nothing: no column tagged, or noise without a
    confidential column."""
    if not params.qi and not params.confidential:
        raise InputError(_("Tag at least one column as quasi-identifier or confidential."))
    if params.noise and not params.confidential:
        raise InputError(
            _(
                "The {mechanism} mechanism adds noise to confidential columns; tag at least "
                "one column as confidential."
            ).format(mechanism=params.mechanism)
        )


def clean_columns(data: pd.DataFrame, params: ReleaseParams) -> tuple[Recoded, np.ndarray | None]:
    """(the quasi-identifier and confidential columns of ``data`` in its column order, with
    the declared missing codes as NA, the agency's public recodings applied
    (:mod:`engine.recoding`) and index 0..n-1, with the types, orders and hierarchies the
    recodings give; the positions of the records that are released, None for all).

    Missing codes matter only where values are protected: ``keep`` columns pass unchanged.
    With ``missing_confidential="drop"`` a record with a missing confidential value is left
    out.  A cluster cleans every partition with this function.
    """
    qi, confidential = list(params.qi), list(params.confidential)
    used = [c for c in data.columns if c in (*qi, *confidential)]
    column_missing = {c: v for c, v in params.column_missing.items() if c in used}
    clean = apply_missing(data[used], params.missing, column_missing).reset_index(drop=True)
    # the agency's public recodings, before any record is grouped
    recoded = apply_recodings(
        clean,
        hierarchies={c: h for c, h in params.hierarchies.items() if c in qi},
        bands={c: b for c, b in params.bands.items() if c in qi},
        top_code={c: v for c, v in params.top_code.items() if c in used},
        bottom_code={c: v for c, v in params.bottom_code.items() if c in used},
    )
    if params.missing_confidential != "drop" or not confidential:
        return recoded, None
    lacking = recoded.data[confidential].isna().any(axis=1).to_numpy()
    if not lacking.any():
        return recoded, None
    rows = np.flatnonzero(~lacking)
    return replace(recoded, data=recoded.data.iloc[rows].reset_index(drop=True)), rows


def check_records(n: int, left_out: int) -> None:
    """Refuse an input of ``n`` records that leaves none to release (``left_out`` of them
    left out for a missing confidential value)."""
    if n == 0:
        raise InputError(_("The input has no records."))
    if left_out == n:
        raise InputError(
            _(
                "Every record has a missing confidential value: leaving them out "
                "(missing_confidential 'drop') leaves nothing to release."
            )
        )


def check_numbers(
    clean: pd.DataFrame, columns: Sequence[str], types: Mapping[str, ColumnType]
) -> None:
    """Refuse numbers tclose cannot compute with in the numeric ``columns``
    (:func:`check_magnitudes`)."""
    for col in columns:
        if types[col] == ColumnType.NUMERIC:
            check_magnitudes(col, numeric_values(clean[col], ColumnType.NUMERIC))


def check_magnitudes(column: str, values: np.ndarray) -> None:
    """Refuse infinite numbers, and numbers too large (or too small) to compute with.

    An infinite value has no place in a class mean or a bucket range; a value of 1e300 makes
    the sum of squares of a column overflow.  The message names the value and the way out.
    """
    size = np.abs(values)
    bad = ~np.isnan(values) & (
        ~np.isfinite(values) | (size > MAX_MAGNITUDE) | ((size > 0) & (size < 1 / MAX_MAGNITUDE))
    )
    if not bad.any():
        return
    first = float(values[np.argmax(bad)])
    count = int(bad.sum())
    if not np.isfinite(values[bad]).all():
        codes = " and ".join(repr(str(v)) for v in sorted({*values[bad]}) if not np.isfinite(v))
        raise InputError(
            _(
                "Column {column} holds {count:,} infinite value(s); correct them or declare "
                "{codes} missing-value codes."
            ).format(column=quoted(column), count=count, codes=codes)
        )
    raise InputError(
        _(
            "Column {column} holds {count:,} value(s) such as {first:g} that tclose cannot "
            "compute with (numbers between {low:g} and {high:g} in size, "
            "or 0); rescale the column (e.g. in thousands) or correct the values."
        ).format(
            column=quoted(column),
            count=count,
            first=first,
            low=1 / MAX_MAGNITUDE,
            high=MAX_MAGNITUDE,
        )
    )
