"""The real data sets import correctly (tests/data), and SPSS/Stata files with labels."""

from __future__ import annotations

import builtins
import sys

import numpy as np
import pandas as pd
import pytest

from engine.errors import InputError
from engine.io import apply_missing, infer_types, read_table
from engine.roles import ColumnType


def test_acs_census_sample(data_dir):
    result = read_table(data_dir / "acs-census-sample.csv.gz")
    data, info = result.data, result.info
    assert data.shape == (68725, 30)
    assert info.separator == ";" and info.encoding == "utf-8" and info.decimal == "."
    assert data["Income"].dtype == np.int64 and data["Age"].dtype == np.int64
    # "N/A" stays a value until the user declares it missing
    assert (data["Workclass"] == "N/A").sum() > 0
    assert data["Workclass"].isna().sum() == 0

    guesses = infer_types(data)
    assert guesses["Income"].suggested_missing == ("-10000",)
    assert "N/A" in guesses["Workclass"].suggested_missing

    clean = apply_missing(data, ["N/A"], {"Income": [-10000]})
    assert clean["Income"].isna().sum() == (data["Income"] == -10000).sum() == 10907
    assert clean["Workclass"].isna().sum() == (data["Workclass"] == "N/A").sum()


def test_adult(data_dir):
    result = read_table(data_dir / "adult.csv.gz")
    assert result.data.shape == (30162, 9)
    assert result.data["age"].dtype == np.int64
    guesses = infer_types(result.data)
    assert guesses["age"].type == ColumnType.NUMERIC
    assert guesses["salary-class"].type == ColumnType.NOMINAL


@pytest.mark.parametrize(
    ("name", "shape"),
    [
        ("li2007-table.csv", (9, 4)),
        ("casc-census.csv.gz", (1080, 13)),
        ("casc-tarragona.csv.gz", (834, 13)),
        ("casc-eia.csv.gz", (4092, 11)),
    ],
)
def test_comma_files(data_dir, name, shape):
    result = read_table(data_dir / name)
    assert result.info.separator == ","
    assert result.data.shape == shape


def test_li2007_values(data_dir):
    data = read_table(data_dir / "li2007-table.csv").data
    assert data["Salary"].tolist()[:3] == [3000, 4000, 5000]
    assert data["Disease"].iloc[2] == "stomach cancer"


def test_tarragona_negative_numbers(data_dir):
    data = read_table(data_dir / "casc-tarragona.csv.gz").data
    assert data["FINANCIAL.OUTCOME"].iloc[0] == -18931
    assert all(pd.api.types.is_numeric_dtype(data[c]) for c in data.columns)


def test_a_gzip_compressed_csv_reads_like_the_csv(data_dir, unpacked):
    packed = read_table(data_dir / "adult.csv.gz")
    plain = read_table(unpacked("adult.csv.gz"))
    pd.testing.assert_frame_equal(packed.data, plain.data)
    assert packed.info.separator == plain.info.separator == ";"
    assert any("gzip-compressed" in note for note in packed.info.notes)


def test_a_truncated_gzip_file_gets_a_clear_message(data_dir, tmp_path):
    broken = tmp_path / "broken.csv.gz"
    broken.write_bytes((data_dir / "casc-census.csv.gz").read_bytes()[:5000])
    with pytest.raises(InputError, match=r"broken\.csv\.gz is a damaged or truncated gzip file"):
        read_table(broken)


# --------------------------------------------------------------------------- SPSS / Stata


def test_sav_with_value_labels(tmp_path):
    pyreadstat = pytest.importorskip("pyreadstat")  # a test dependency (pyproject [test])
    frame = pd.DataFrame({"sex": [1.0, 2.0, 1.0, 3.0], "age": [30.0, 40.0, 50.0, 60.0]})
    path = tmp_path / "survey.sav"
    pyreadstat.write_sav(
        frame, str(path), variable_value_labels={"sex": {1.0: "Male", 2.0: "Female"}}
    )
    result = read_table(path)
    # the codes stay in the table (a released category keeps its code), the labels beside it
    assert result.data["sex"].tolist() == [1, 2, 1, 3]
    assert result.info.codebook.variable("sex").values == {1.0: "Male", 2.0: "Female"}
    assert result.data["age"].tolist() == [30.0, 40.0, 50.0, 60.0]
    assert any("Value labels were kept" in n and "sex" in n for n in result.info.notes)


def test_dta(tmp_path):
    pyreadstat = pytest.importorskip("pyreadstat")
    path = tmp_path / "d.dta"
    pyreadstat.write_dta(pd.DataFrame({"x": [1.0, 2.0], "s": ["a", "b"]}), str(path))
    result = read_table(path)
    assert result.data["s"].tolist() == ["a", "b"]
    assert result.info.format == "dta"


def test_sav_without_pyreadstat_says_what_to_install(tmp_path, monkeypatch):
    path = tmp_path / "x.sav"
    path.write_bytes(b"$FL2" + b"\x00" * 100)
    real_import = builtins.__import__

    def no_pyreadstat(name, *args, **kwargs):
        if name == "pyreadstat":
            raise ImportError("No module named 'pyreadstat'")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "pyreadstat", raising=False)
    monkeypatch.setattr(builtins, "__import__", no_pyreadstat)
    with pytest.raises(InputError, match=r"x\.sav: reading \.sav files needs the optional"):
        read_table(path)


def test_corrupt_sav(tmp_path):
    path = tmp_path / "broken.sav"
    path.write_bytes(b"$FL2" + b"\x01" * 50)
    with pytest.raises(InputError, match=r"broken\.sav cannot be read as a \.sav file"):
        read_table(path)
