"""Recodings before the partition (engine.recoding): a hierarchy's checks, its distance and
its lowest common level; bands; top and bottom codes; their parameters and flags."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import InputError
from engine.params import ReleaseParams
from engine.recoding import (
    ROOT,
    Hierarchy,
    apply_bands,
    apply_recodings,
    apply_top_bottom,
    band_labels,
)

#: two provinces, three districts, six communes (codes distinct across levels)
ROWS = [
    ["commune", "district", "province"],
    [1101, 11, 1],
    [1102, 11, 1],
    [1201, 12, 1],
    [1202, 12, 1],
    [2101, 21, 2],
    [2102, 21, 2],
]
GEO = Hierarchy.from_rows(ROWS)


def test_the_lowest_common_level_is_one_every_member_holds():
    assert GEO.common([1101, 1101]) == "1101"
    assert GEO.common([1101, 1102]) == "11"
    assert GEO.common([1101, 1201]) == "1"
    assert GEO.common([1101, 2101]) == ROOT
    assert GEO.common(["1101", 1101.0]) == "1101"  # a code read as text or as a float
    assert GEO.level_of("11") == 1 and GEO.level_of(ROOT) == 3
    assert GEO.finest_under("1") == {"1101", "1102", "1201", "1202"}


@given(st.lists(st.sampled_from([r[0] for r in ROWS[1:]]), min_size=1, max_size=8))
def test_a_released_value_covers_every_member(members):
    released = GEO.common(members)
    assert {str(m) for m in members} <= GEO.finest_under(released)
    # and it is the finest such value: no value of a lower level covers them all
    level = GEO.level_of(released)
    for lower in range(level):
        assert len({GEO.paths[str(m)][lower] for m in members}) > 1


def test_the_encoding_measures_the_hierarchy():
    values = pd.Series([1101, 1102, 1201, 2101, None])
    x = GEO.encode(values)
    d2 = lambda i, j: float(np.sum((x[i] - x[j]) ** 2))  # noqa: E731
    assert d2(0, 0) == 0
    # each level counts as a nominal column: 1 per level climbed to the common one
    assert d2(0, 1) == pytest.approx(1.0)  # same district
    assert d2(0, 2) == pytest.approx(2.0)  # same province
    assert d2(0, 3) == pytest.approx(3.0)  # nothing shared
    assert not x[4].any()  # a missing value has no coordinates


@pytest.mark.parametrize(
    ("rows", "words"),
    [
        ([["commune"], [1]], "at least two levels"),
        ([["c", "c"], [1, 2]], "at least two levels"),
        ([["c", "d"], [1, 10], [1, 10]], "listed twice"),
        ([["c", "d"], [1, 10], [2, ""]], "none empty"),
        ([["c", "d", "p"], [1, 10, 100], [2, 10, 200]], "the d '10' lies in '100' and in '200'"),
        ([["c", "d"], [1, 10], [10, 20]], "'10' is a d and a c"),
        ([["c", "d"], [1, 2, 3]], "one value per level"),
        ("c,d", "must be a table"),
    ],
)
def test_a_bad_hierarchy_gets_one_sentence(rows, words):
    with pytest.raises(InputError, match=words.replace("(", r"\(")):
        Hierarchy.from_rows(rows, "hierarchy")


def test_a_value_missing_from_the_hierarchy_is_named():
    with pytest.raises(
        InputError, match=r"commune: 1 value\(s\) are not in .* \(commune\): '9999'"
    ):
        apply_recodings(pd.DataFrame({"commune": [1101, 9999]}), hierarchies={"commune": ROWS})


def test_bands_and_codes():
    assert band_labels([15, 25, 65]) == ["< 15", "[15, 25)", "[25, 65)", "≥ 65"]
    ages = pd.Series([3, 15, 24.9, 25, 80, None])
    assert apply_bands(ages, [15, 25, 65]).tolist() == [
        "< 15", "[15, 25)", "[15, 25)", "[25, 65)", "≥ 65", None,
    ]  # fmt: skip
    incomes = pd.Series([-5, 10, 500_000])
    assert apply_top_bottom(incomes, top=100_000, bottom=0).tolist() == [0, 10, 100_000]
    recoded = apply_recodings(
        pd.DataFrame({"age": [20, 70], "income": [1, 9e9]}),
        bands={"age": (15.0, 65.0)},
        top_code={"income": 1e6},
    )
    assert recoded.data["age"].tolist() == ["[15, 65)", "≥ 65"]
    assert recoded.types == {"age": "ordinal"}
    assert recoded.orders["age"] == ("< 15", "[15, 65)", "≥ 65")
    assert recoded.data["income"].tolist() == [1, 1e6]


def test_the_recodings_are_parameters_with_one_form():
    params = ReleaseParams(
        qi=("commune", "age"),
        k=5,
        hierarchies={"commune": ROWS},
        bands={"age": "15:25:65"},
        top_code={"income": "100000"},
        qi_output="common",
    )
    assert params.bands == {"age": (15.0, 25.0, 65.0)}
    assert params.hierarchies["commune"][1] == ("1101", "11", "1")
    assert ReleaseParams.from_dict(params.to_dict()) == params
    with pytest.raises(InputError, match="bands or a hierarchy, not both"):
        params.replace(bands={"commune": (1.0, 2.0)})
    with pytest.raises(InputError, match=r"increasing cut points"):
        params.replace(bands={"age": (25.0, 15.0)})
    with pytest.raises(InputError, match="bottom code must be below the top code"):
        params.replace(bottom_code={"income": 200000.0})


def test_hierarchy_flag_reads_a_file(tmp_path):
    from engine.cli import build_parser
    from engine.cli.params_args import params_from_args

    path = tmp_path / "communes.csv"
    pd.DataFrame(ROWS[1:], columns=ROWS[0]).to_csv(path, index=False)
    data = tmp_path / "in.csv"
    data.write_text("commune,age\n1101,30\n", encoding="utf-8")
    args = build_parser().parse_args(
        ["plan", str(data), "--qi", "commune,age", "--k", "2", "--hierarchy",
         f"commune={path}", "--bands", "age=15:65", "--top-code", "age=90"]
    )  # fmt: skip
    params = params_from_args(args)
    assert Hierarchy.from_rows(params.hierarchies["commune"]) == GEO
    assert params.bands == {"age": (15.0, 65.0)} and params.top_code == {"age": 90.0}


def test_every_pair_of_finest_values_is_as_far_as_its_lowest_common_level():
    finest = [str(r[0]) for r in ROWS[1:]]
    x = GEO.encode(pd.Series(finest))
    for i, j in itertools.combinations(range(len(finest)), 2):
        level = GEO.level_of(GEO.common([finest[i], finest[j]]))
        assert float(np.sum((x[i] - x[j]) ** 2)) == pytest.approx(level)


@pytest.mark.parametrize(
    "recoding",
    [{"bands": {"sex": (1.0, 2.0)}}, {"top_code": {"sex": 2.0}}, {"bottom_code": {"sex": 1.0}}],
)
def test_bands_or_codes_on_a_text_column_are_refused_not_emptied(recoding):
    """Bands cut numbers: on a column of words they would release every value empty, so the
    run stops with a sentence that names the column and its values, and what to do."""
    from engine.recoding import apply_recodings

    data = pd.DataFrame({"sex": ["M", "F", None, "M"], "age": [20, 30, 40, 50]})
    with pytest.raises(InputError, match=r"'sex' holds values that are not numbers \('F', 'M'\)"):
        apply_recodings(data, **recoding)
    banded = apply_recodings(data, bands={"age": (35.0,)}).data["age"]
    assert banded.tolist() == ["< 35", "< 35", "≥ 35", "≥ 35"]
