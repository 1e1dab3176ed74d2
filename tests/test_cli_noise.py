"""``tclose anonymize --mechanism laplace``: the noise route end to end on the command line."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from engine.cli import main
from engine.io import read_table
from engine.release import verify_release
from tests.cli_support import cli_words


@pytest.fixture
def survey(tmp_path):
    rng = np.random.default_rng(5)
    n = 400
    frame = pd.DataFrame(
        {
            "age": rng.integers(18, 80, n),
            "sex": rng.choice(["F", "M"], n),
            "income": rng.integers(0, 90_000, n),
            "smoker": rng.choice(["yes", "no"], n),
        }
    )
    path = tmp_path / "survey.csv"
    frame.to_csv(path, index=False)
    return path


def run(survey, tmp_path, *extra: str) -> tuple[int, dict, pd.DataFrame]:
    out, summary = tmp_path / "release.csv", tmp_path / "summary.json"
    line = (
        "anonymize {survey} -o {out} --qi age,sex --confidential income,smoker --epsilon 1"
        " --k 5 --mechanism laplace --summary {summary} --seed 7"
    )
    words = [*cli_words(line, survey=survey, out=out, summary=summary)]
    code = main([*words, "--categories", "smoker=yes|no", *extra])
    if code != 0:
        return code, {}, pd.DataFrame()
    return code, json.loads(summary.read_text(encoding="utf-8")), read_table(out).data


def test_laplace_with_public_bounds(survey, tmp_path, capsys):
    code, summary, table = run(survey, tmp_path, "--bounds", "income=0:100000")
    assert code == 0
    assert "stochastic t" in capsys.readouterr().out
    assert summary["mechanism"] == "laplace"
    assert summary["noise"]["bounds"]["income"] == [0.0, 100000.0]
    assert summary["epsilon"] == 1.0
    assert verify_release(table, ["age", "sex"], [], k=5).ok
    assert set(table["smoker"].dropna()) <= {"yes", "no"}
    # noise of scale Δ/ε = 100,000 moves the incomes far from any bucket label
    assert pd.api.types.is_numeric_dtype(table["income"])


def test_laplace_without_bounds_is_refused(survey, tmp_path, capsys):
    """The data's own min/max are never the bounds: exit 2, one line that says what to give."""
    code, _, _ = run(survey, tmp_path)
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'income' needs public bounds" in err
    assert "--bounds income=LO:HI" in err and "--bounds private" in err
    assert not (tmp_path / "release.csv").exists()


def test_bad_bounds_are_one_line_errors(survey, tmp_path, capsys):
    code, _, _ = run(survey, tmp_path, "--bounds", "income=10:1")
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "low < high, not [10, 1]" in err


# --- --categories: the public categories of randomized response ------------------------------


def test_categories_are_read_from_the_flag_with_csv_quotes(survey, tmp_path) -> None:
    """COLUMN=CAT|CAT|…; a category that holds a "|" in double quotes; spaces ignored."""
    from engine.cli import build_parser
    from engine.cli.params_args import params_from_args

    argv = ["plan", str(survey), "--qi", "age,sex", "--confidential", "income,smoker"]
    argv += ["--k", "5", "--epsilon", "1", "--mechanism", "laplace"]
    argv += ["--bounds", "income=0:100000", "--categories", 'smoker= yes | "no|never" ']
    params = params_from_args(build_parser().parse_args(argv))
    assert params.categories == {"smoker": ("yes", "no|never")}
    assert params.to_dict()["categories"] == {"smoker": ["yes", "no|never"]}


def test_the_published_metadata_lists_the_declared_categories(survey, tmp_path) -> None:
    code, summary, table = run(survey, tmp_path, "--bounds", "income=0:100000")
    assert code == 0
    assert summary["parameters"]["categories"] == {"smoker": ["yes", "no"]}
    assert summary["noise"]["columns"]["smoker"]["categories"] == ["yes", "no"]
    assert set(table["smoker"].dropna()) <= {"yes", "no"}


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        (["smoker"], "--categories 'smoker': write COLUMN=CATEGORY|CATEGORY|…"),
        (["=yes|no"], "--categories '=yes|no': write COLUMN=CATEGORY|CATEGORY|…"),
        (["smoker=yes|no", "smoker=no|yes"], "--categories given twice for 'smoker'."),
        (["smoker=yes|yes"], "categories['smoker'] names 'yes' twice."),
        (["smoker=yes"], "categories['smoker'] must be two or more different categories"),
        (["smoker=yes||no"], "categories['smoker']: a category cannot be empty."),
        (['smoker="yes|no'], "categories['smoker'] must be two or more different categories"),
        (["sex=F|M"], "categories are for confidential columns; 'sex' is not one."),
        (["income=a|b"], "'income': a column has bounds (numbers) or categories, not both."),
    ],
)
def test_a_malformed_or_repeated_categories_flag_is_a_one_line_error(
    spec, words, survey, tmp_path, capsys
) -> None:
    """As --bounds: exit 2, one line naming what to write, nothing written."""
    extra = ["--bounds", "income=0:100000"]
    for item in spec:
        extra += ["--categories", item]
    out, summary = tmp_path / "release.csv", tmp_path / "summary.json"
    line = (
        "anonymize {survey} -o {out} --qi age,sex --confidential income,smoker --epsilon 1"
        " --k 5 --mechanism laplace --summary {summary}"
    )
    assert main([*cli_words(line, survey=survey, out=out, summary=summary), *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tclose: ") and err.count("\n") == 1, err
    assert words in err
    assert not out.exists()


def test_a_category_column_without_categories_is_refused_with_the_flag_to_give(
    survey, tmp_path, capsys
) -> None:
    out = tmp_path / "release.csv"
    line = (
        "anonymize {survey} -o {out} --qi age,sex --confidential smoker --epsilon 1 --k 5"
        " --mechanism laplace"
    )
    assert main(cli_words(line, survey=survey, out=out)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'smoker' needs the column's categories declared" in err
    assert err.rstrip().endswith("On the command line: --categories smoker=CAT1|CAT2|CAT3.")
    assert not out.exists()
