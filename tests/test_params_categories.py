"""``categories``: the public categories of category columns, a parameter like ``bounds``.

Declared once in :class:`ReleaseParams` (constraint, label and help, flag), written to a dict
and a project file and read back equal, given on the command line as ``--categories
COL=CAT|CAT|…`` (:mod:`tests.test_cli_noise`), and shown among the parameters of the About
sheet and the report.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

from engine import InputError, ReleaseParams
from engine.cli.flags import argv_for, field_argv
from engine.io.about import parameter_rows
from engine.params import join_categories, split_categories
from engine.project import load_project, new_project, save_project
from engine.release import applied_parameters

DECLARED = {"diag": ("cold", "flu", 'H|IV "x"')}


def params(**fields) -> ReleaseParams:
    base = {
        "qi": ("age", "sex"),
        "confidential": ("diag", "income"),
        "k": 5,
        "epsilon": 1.0,
        "mechanism": "laplace",
        "bounds": {"income": (0.0, 1e5)},
        "categories": DECLARED,
    }
    return ReleaseParams(**{**base, **fields})


def test_categories_round_trip_through_a_dict_and_json() -> None:
    p = params()
    data = p.to_dict()
    assert data["categories"] == {"diag": ["cold", "flu", 'H|IV "x"']}
    assert ReleaseParams.from_dict(json.loads(json.dumps(data))) == p
    # a text in a project file means the same list, and is written back as a list
    text = params(categories={"diag": ' cold |flu|"H|IV ""x"""'})
    assert text == p and text.to_dict()["categories"] == data["categories"]
    assert params(categories={}).to_dict()["categories"] == {}


def test_categories_round_trip_through_a_project_file(tmp_path) -> None:
    source = tmp_path / "in.csv"
    pd.DataFrame({"age": [1], "sex": ["F"], "diag": ["cold"], "income": [1]}).to_csv(
        source, index=False, encoding="utf-8"
    )
    path = save_project(new_project(source, params()), tmp_path / "p.json")
    assert json.loads(path.read_text(encoding="utf-8"))["params"]["categories"] == {
        "diag": ["cold", "flu", 'H|IV "x"']
    }
    assert load_project(path).params == params()


def test_categories_said_as_flags_come_back_equal() -> None:
    argv = field_argv("categories", DECLARED)
    assert argv == ['--categories=diag=cold|flu|"H|IV ""x"""']
    assert split_categories(argv[0].split("=", 2)[2]) == list(DECLARED["diag"])
    assert join_categories(DECLARED["diag"]) == argv[0].split("=", 2)[2]
    assert argv[0] in argv_for(params())


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (["a"], "categories['diag'] must be two or more different categories"),
        ("a", "categories['diag'] must be two or more different categories"),
        (["a", "a"], "categories['diag'] names 'a' twice."),
        (["a", " a "], "categories['diag'] names 'a' twice."),
        (["a", ""], "categories['diag']: a category cannot be empty."),
        ("a|", "categories['diag']: a category cannot be empty."),
        ('"a|b', "not '\"a|b'"),
        ([1, 2], "not list [1, 2]"),
        (5, "not 5"),
    ],
)
def test_a_bad_list_is_refused_with_the_fields_sentence(value, words) -> None:
    with pytest.raises(InputError) as refused:
        params(categories={"diag": value})
    assert words in refused.value.message and "\n" not in refused.value.message


def test_categories_belong_to_confidential_columns_without_bounds() -> None:
    with pytest.raises(InputError, match="categories are for confidential columns; 'sex' is not"):
        params(categories={"sex": ("F", "M")})
    with pytest.raises(InputError, match=r"'income': a column has bounds .* not both"):
        params(categories={"income": ("a", "b")})


def test_the_about_sheet_and_the_report_name_them() -> None:
    p = params()
    field = ReleaseParams.describe("categories")
    assert field.info.label == "public categories"
    assert "never used" in field.info.help and "COLUMN=CAT|CAT|…" in field.info.help
    assert ReleaseParams.FLAGS["categories"].option("categories") == "--categories"
    rows = {name: (label, value) for name, label, value in parameter_rows(applied_parameters(p))}
    assert rows["categories"] == ("public categories", 'diag: cold, flu, H|IV "x"')
    # a release that declares none says nothing of them
    none = {n for n, _label, _value in parameter_rows(applied_parameters(params(categories={})))}
    assert "categories" not in none
