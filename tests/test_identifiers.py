"""An identifier tagged as a quasi-identifier is refused: ids, near-unique codes, free text.

Continuous quasi-identifiers with many distinct values (exact ages, incomes to the cent or
the dollar, dates, the CASC files' magnitudes) are what microaggregation is for, and pass.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from engine.cli import main
from engine.errors import InputError
from engine.identifiers import ValueProfile, identifier_reason
from engine.io import read_table
from engine.params import ReleaseParams
from engine.release import plan
from engine.roles import ColumnType
from tests.conftest import DATA

N = 300


@pytest.fixture(scope="module")
def people() -> pd.DataFrame:
    rng = np.random.default_rng(8)
    codes = [f"C{i:05d}" for i in rng.choice(100_000, N, replace=False)]
    codes[:12] = codes[12:24]  # near-unique: 288 of 300 distinct
    words = ["lives", "near", "the", "river", "works", "at", "mill", "has", "two", "dogs"]
    return pd.DataFrame(
        {
            "id": np.arange(1, N + 1),
            "respondent_id": rng.choice(9_000_000, N, replace=False) + 1_000_000,
            "code": codes,
            "note": [" ".join(rng.choice(words, 6)) + f" {i}" for i in range(N)],
            "age": rng.integers(18, 90, N),
            "income": rng.choice(200_000, N, replace=False).astype(float),
            "height": np.round(rng.normal(170, 10, N), 1),
            "born": pd.Timestamp("1950-01-01") + pd.to_timedelta(rng.choice(20_000, N), "D"),
            "sex": rng.choice(["F", "M"], N),
            "wage": np.round(np.exp(rng.normal(10, 0.5, N))),
        }
    )


@pytest.mark.parametrize("column", ["id", "respondent_id", "code", "note"])
def test_identifier_like_quasi_identifiers_are_refused(people, column):
    with pytest.raises(InputError) as err:
        plan(people, ReleaseParams(qi=(column, "sex"), confidential=("wage",), k=5, t=2.0))
    message = err.value.message
    assert f"Column {column!r} looks like an identifier" in message
    assert "Tag it as an identifier" in message and err.value.exit_code == 2


@pytest.mark.parametrize("column", ["age", "income", "height", "born"])
def test_continuous_quasi_identifiers_with_many_values_pass(people, column):
    planned = plan(people, ReleaseParams(qi=(column, "sex"), confidential=("wage",), k=5, t=2.0))
    assert planned.feasibility.ok


def test_the_rule_reads_the_type_and_the_name():
    running = ValueProfile.of(pd.Series(np.arange(100)))
    assert running.whole and running.dense and running.near_unique
    assert identifier_reason("x", running, ColumnType.NUMERIC)  # 0, 1, 2, …: a record number
    assert identifier_reason("x", running, ColumnType.NOMINAL)
    assert not identifier_reason("x", running, ColumnType.DATE)
    spread = ValueProfile.of(pd.Series(np.arange(100) * 997))
    assert not identifier_reason("income", spread, ColumnType.NUMERIC)  # a measurement
    assert identifier_reason("case_no", spread, ColumnType.NUMERIC)  # named like an id
    few = ValueProfile.of(pd.Series(np.arange(19)))
    assert not identifier_reason("id", few, ColumnType.NOMINAL)  # too few values to tell
    halves = ValueProfile.of(pd.Series(np.arange(100) + 0.5))
    assert not identifier_reason("id", halves, ColumnType.NUMERIC)  # not whole numbers


@pytest.mark.parametrize(
    ("name", "qi"),
    [
        ("casc-census.csv.gz", "AFNLWGT,AGI,EMCONTRB,FEDTAX,PTOTVAL,STATETAX,TAXINC"),
        ("adult.csv.gz", "age,sex,race,marital-status,education"),
    ],
)
def test_the_test_data_quasi_identifiers_pass(name, qi):
    data = read_table(DATA / name).data
    columns = tuple(qi.split(","))
    assert all(
        not identifier_reason(
            c, ValueProfile.of(data[c]), "numeric" if data[c].dtype.kind in "if" else "nominal"
        )
        for c in columns
    )


def test_the_command_line_exits_2_naming_the_column(people, tmp_path, capsys):
    path = tmp_path / "people.csv"
    people.to_csv(path, index=False)
    argv = ["anonymize", str(path), "-o", str(tmp_path / "r.csv"), "--qi", "id,sex"]
    assert main([*argv, "--confidential", "wage", "--t", "2", "--k", "5"]) == 2
    err = capsys.readouterr().err
    assert "'id' looks like an identifier" in err and "Traceback" not in err
    assert not (tmp_path / "r.csv").exists()
