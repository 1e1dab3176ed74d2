"""The identifier rule over partitions (``ValueProfile.combined``, which a cluster uses in
engine/distributed/identifiers.py) gives one machine's verdict: the parts' profiles make the
whole column's, and the bound that spares the exact count never clears a column the exact
count refuses."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from engine.identifiers import ValueProfile, identifier_reason
from engine.roles import ColumnType

#: columns of the kinds the rule tells apart: record numbers, ages, amounts, codes, texts
COLUMNS = st.one_of(
    st.lists(st.integers(0, 60), min_size=0, max_size=80),
    st.lists(st.integers(1_000, 1_080), min_size=0, max_size=80, unique=True),
    st.lists(st.floats(0, 1e6, allow_nan=False), min_size=0, max_size=80),
    st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=0, max_size=80),
    st.lists(st.text(min_size=1, max_size=4), min_size=0, max_size=80),
)


@given(values=COLUMNS, cuts=st.lists(st.integers(0, 80), max_size=4), missing=st.booleans())
def test_the_parts_make_the_whole_column_s_verdict(values, cuts, missing):
    column = pd.Series(values, dtype=object if values and isinstance(values[0], str) else None)
    if missing and len(column):
        column = column.astype(object)
        column.iloc[0] = None
    frame = pd.DataFrame({"record number": column})
    edges = sorted({0, len(frame), *(min(c, len(frame)) for c in cuts)})
    parts = [frame.iloc[a:b] for a, b in itertools.pairwise(edges)] or [frame]
    summed = [ValueProfile.of(part["record number"]) for part in parts]
    whole = ValueProfile.of(frame["record number"].dropna())
    exact = ValueProfile.combined(summed, whole.distinct)
    assert (exact.n, exact.distinct, exact.whole) == (whole.n, whole.distinct, whole.whole)
    assert exact.span == whole.span or np.isclose(exact.span, whole.span)
    bound = ValueProfile.combined(summed)
    assert bound.distinct >= whole.distinct
    for ctype in (ColumnType.NUMERIC, ColumnType.NOMINAL):
        if identifier_reason("record number", whole, ctype):
            assert identifier_reason("record number", bound, ctype)
