"""An identifier tagged as a quasi-identifier is refused: ids, near-unique codes, free text.

Continuous quasi-identifiers with many distinct values (exact ages, incomes to the cent or
the dollar, dates, the CASC files' magnitudes) are what microaggregation is for, and pass.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.errors import InputError
from engine.identifiers import KEEP, QI, ValueProfile, check_identifiers, identifier_reason
from engine.io import read_table
from engine.io.types import infer_types
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


#: every real file of tests/data with the columns it is released with: its usual
#: quasi-identifiers, and every other column kept (released unchanged) where it has any
REAL = [
    ("adult.csv.gz", "age,sex,race,marital-status,education", "*"),
    ("acs-census-sample.csv.gz", "Age,Sex,Marital status,Education", "*"),
    ("casc-census.csv.gz", "*", ""),
    ("casc-tarragona.csv.gz", "*", ""),
    ("casc-eia.csv.gz", "*", ""),
    ("li2007-table.csv", "ZIP Code,Age", "Salary,Disease"),
    ("tiny-age-gender-zip.xlsx", "*", ""),
    ("labelled-survey.sav", "age,sex,region", "*"),
    ("labelled-survey.dta", "age,sex,region", "*"),
    ("commune-survey.csv.gz", "age,sex,education,commune", "member"),
]
#: files of households: the household column (judged per household, never released as such)
HOUSEHOLDS = {"commune-survey.csv.gz": "household"}


def _released(data: pd.DataFrame, qi: str, keep: str) -> dict[str, str]:
    qis = list(data.columns) if qi == "*" else qi.split(",")
    kept = [c for c in data.columns if c not in qis] if keep == "*" else keep.split(",")
    return {**dict.fromkeys(qis, QI), **dict.fromkeys([k for k in kept if k], KEEP)}


@pytest.mark.parametrize(("name", "qi", "keep"), REAL, ids=[r[0] for r in REAL])
def test_no_real_file_is_refused_with_its_usual_columns(name, qi, keep):
    """The rule's thresholds keep false positives out: on the whole file and on samples as
    small as a teaching file, no quasi-identifier or kept column of the real data sets is
    taken for an identifier."""
    data = read_table(DATA / name).data
    home = HOUSEHOLDS.get(name)
    roles = _released(data.drop(columns=[home] if home else []), qi, keep)
    types = {c: t.type for c, t in infer_types(data[list(roles)]).items()}
    rng = np.random.default_rng(5)
    for size in (len(data), 2_000, 500, 150, 60):
        part = data if size >= len(data) else data.iloc[rng.choice(len(data), size, False)]
        part = part.reset_index(drop=True)
        homes = part[home] if home else None
        assert check_identifiers(part, roles, types, households=homes) == []


@pytest.mark.parametrize("repeated", [0.1, 0.25, 0.3])
def test_a_record_number_with_some_numbers_repeated_is_refused(repeated):
    """400 records numbered 1 to 400, a share of them given another record's number: the
    class means of such a column are still real record numbers."""
    rng = np.random.default_rng(3)
    numbers = np.arange(1, 401)
    copies = rng.choice(400, int(400 * repeated), replace=False)
    numbers[copies] = rng.choice(numbers, len(copies))
    profile = ValueProfile.of(pd.Series(numbers))
    assert profile.running
    reason = identifier_reason("serial", profile, ColumnType.NUMERIC)
    assert "whole numbers that run like a record number" in reason


@settings(max_examples=60)
@given(n=st.integers(20, 400), low=st.integers(0, 30), width=st.integers(40, 100))
def test_exact_ages_on_a_small_file_are_never_an_identifier(n, low, width):
    """Ages are dense whole numbers, mostly distinct on a small file, but never have more
    than a hundred values: the rule for a record number with repeats leaves them alone."""
    ages = np.random.default_rng(n).integers(low, low + width, n)
    assert not identifier_reason("age", ValueProfile.of(pd.Series(ages)), ColumnType.NUMERIC)


def test_a_kept_identifier_is_refused_and_an_allowed_one_released(people):
    roles = {"age": QI, "respondent_id": KEEP, "note": KEEP}
    with pytest.raises(InputError) as err:
        check_identifiers(people, roles, {"age": ColumnType.NUMERIC})
    assert "Column 'respondent_id' looks like an identifier" in err.value.message
    assert "kept, it would be released unchanged" in err.value.message
    assert "--allow-identifier" in err.value.message
    notes = check_identifiers(
        people, roles, {"age": ColumnType.NUMERIC}, allowed=("respondent_id", "note")
    )
    assert len(notes) == 2 and "'note'" in notes[1]


def test_a_household_level_column_is_judged_per_household():
    """Each household's own code, repeated for its members: per record only a third of the
    values are distinct, per household every one is.  A household's income, different for
    every household but spread out, is no identifier, whatever its name."""
    homes = pd.Series(np.repeat(np.arange(150), 3))
    frame = pd.DataFrame(
        {
            "dwelling": [f"D{h:04d}" for h in homes],
            "household income": 20_000 + (homes * 7_919) % 90_000,
            "size": homes % 4 + 1,
        }
    )
    roles = dict.fromkeys(frame.columns, QI)
    types = {"dwelling": ColumnType.NOMINAL, "household income": ColumnType.NUMERIC}
    types["size"] = ColumnType.NUMERIC
    assert check_identifiers(frame, roles, types) == []  # per record: 150 of 450
    with pytest.raises(InputError, match=r"'dwelling' looks like a household identifier"):
        check_identifiers(frame, roles, types, households=homes)
    del roles["dwelling"]
    assert check_identifiers(frame, roles, types, households=homes) == []
    frame["dwelling"] = 70_000 + homes  # a running number per household
    roles["dwelling"] = QI
    types["dwelling"] = ColumnType.NUMERIC
    with pytest.raises(InputError, match=r"150 of its 150 households have a value of their"):
        check_identifiers(frame, roles, types, households=homes)
    assert check_identifiers(frame, roles, types, households=homes, allowed=["dwelling"])


def test_the_command_line_exits_2_naming_the_column(people, tmp_path, capsys):
    path = tmp_path / "people.csv"
    people.to_csv(path, index=False)
    argv = ["anonymize", str(path), "-o", str(tmp_path / "r.csv"), "--qi", "id,sex"]
    assert main([*argv, "--confidential", "wage", "--t", "2", "--k", "5"]) == 2
    err = capsys.readouterr().err
    assert "'id' looks like an identifier" in err and "Traceback" not in err
    assert not (tmp_path / "r.csv").exists()
