"""Parquet in and out (engine.io.parquet) and the pyarrow CSV writer (engine.io.csvfast)."""

from __future__ import annotations

import csv
import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from engine import Task
from engine.errors import InputError
from engine.io import read_table, write_release
from engine.io import write as write_module
from engine.io.csvfast import CsvFormat, write_csv
from engine.io.parquet import read_metadata
from engine.progress import NO_TASK

DANGEROUS = ["=1+1", "+A", "-B", "@C", "\tD", "\rE", "plain", "a,b", 'say "hi"']


def mixed_table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "age": [25, -3, 47, 0, 12, 8, 1, 2, 3],
            "income": [1.5, np.nan, 0.1, 1e20, 1 / 3, -2.25, 7.0, 0.0, 1e-7],
            "text": DANGEROUS,
            "when": pd.to_datetime(["2020-01-02"] * 8 + [None]),
            "flag": [True, False] * 4 + [True],
            "maybe": pd.array([1, None, 3, 4, 5, 6, 7, 8, 9], dtype="Int64"),
            "mixed": [1, "x", -3, None, "=2", 2.5, "y", "z", "w"],
        }
    )


def test_parquet_file_round_trip_keeps_types_and_metadata(tmp_path):
    table = mixed_table().drop(columns=["mixed"])
    written = write_release(table, tmp_path / "out.parquet", metadata={"k": 3})
    assert written == [tmp_path / "out.parquet", tmp_path / "out.json"]
    back = read_table(tmp_path / "out.parquet")
    assert back.info.format == "parquet"
    pd.testing.assert_frame_equal(back.data, table, check_dtype=False)
    assert back.data["age"].dtype == np.int64
    assert read_metadata(tmp_path / "out.parquet")["k"] == 3
    assert json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["k"] == 3


def test_mixed_object_column_is_stored_as_text(tmp_path):
    write_release(mixed_table(), tmp_path / "m.parquet")
    back = read_table(tmp_path / "m.parquet").data
    assert back["mixed"].tolist()[:3] == ["1", "x", "-3"]
    assert pd.isna(back["mixed"].iloc[3])


def test_parquet_dataset_folder_is_read_in_part_order(tmp_path):
    folder = tmp_path / "data set"
    (folder / "sub").mkdir(parents=True)
    pq.write_table(pa.table({"x": [3, 4], "c": pd.Categorical(["b", "a"])}), folder / "b.parquet")
    pq.write_table(pa.table({"x": [1, 2], "c": ["a", "a"]}), folder / "a.parquet")
    pq.write_table(pa.table({"x": [5], "c": ["c"]}), folder / "sub" / "c.parquet")
    result = read_table(folder)
    assert result.data["x"].tolist() == [1, 2, 3, 4, 5]
    assert result.data["c"].tolist() == ["a", "a", "b", "a", "c"]  # categories decoded
    assert (result.info.n_rows, result.info.n_columns) == (5, 2)


def test_parquet_named_csv_is_read_by_content(tmp_path):
    pq.write_table(pa.table({"x": [1, 2]}), tmp_path / "really.csv")
    result = read_table(tmp_path / "really.csv")
    assert result.info.format == "parquet" and result.data["x"].tolist() == [1, 2]


def test_broken_parquet_and_empty_folder_are_refused(tmp_path):
    (tmp_path / "bad.parquet").write_bytes(b"PAR1 this is not parquet")
    with pytest.raises(InputError, match=r"bad\.parquet is not a readable Parquet file"):
        read_table(tmp_path / "bad.parquet")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="is a folder, not a file"):
        read_table(tmp_path / "empty")


def test_fast_csv_writer_reads_back_like_the_pandas_writer(tmp_path):
    table = mixed_table()
    csv_format = CsvFormat(sep=",", decimal=".", bom=True)
    assert write_csv(table, tmp_path / "fast.csv", csv_format)
    write_module._write_csv(table, tmp_path / "slow.csv", csv_format, task=NO_TASK)
    fast = pd.read_csv(tmp_path / "fast.csv", encoding="utf-8-sig")
    slow = pd.read_csv(tmp_path / "slow.csv", encoding="utf-8-sig")
    pd.testing.assert_frame_equal(fast, slow)  # every number reads back to the same double
    raw = (tmp_path / "fast.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbfage,income,text,when,flag,maybe,mixed\r\n")
    with (tmp_path / "fast.csv").open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.reader(fh))
    assert [r[2] for r in rows[1:]] == [
        "'" + v if v[0] in "=+-@\t\r" else v for v in DANGEROUS
    ]  # formula guard kept, quotes and commas survive
    assert [r[6] for r in rows[1:]][:3] == ["1", "x", "-3"]  # numbers in a text column unguarded
    assert rows[1][3] == "2020-01-02" and rows[9][3] == ""  # dates as pandas writes them
    assert rows[1][4] == "True" and rows[2][5] == ""


def test_fast_writer_declines_a_comma_decimal_mark(tmp_path):
    assert not write_csv(pd.DataFrame({"x": [1.5]}), tmp_path / "x.csv",
                         CsvFormat(sep=";", decimal=",", bom=False))  # fmt: skip
    write_release(pd.DataFrame({"x": [1.5, -2.25]}), tmp_path / "eu.csv", sep=";", decimal=",",
                  bom=False)  # fmt: skip
    assert (tmp_path / "eu.csv").read_bytes() == b"x\r\n1,5\r\n-2,25\r\n"


def test_xlsx_refused_above_the_excel_sheet_with_the_reason(tmp_path):
    wide = pd.DataFrame(np.zeros((1, 16_385)))
    with pytest.raises(InputError, match=r"16,385 columns do not fit in an Excel sheet"):
        write_release(wide, tmp_path / "wide.xlsx")
    assert not (tmp_path / "wide.xlsx").exists()


def test_cancelling_the_fast_csv_writer_leaves_no_file(tmp_path):
    from engine.errors import CancelledError

    table = pd.DataFrame({"x": np.arange(450_000), "label": ["=a", "b", "c"] * 150_000})
    calls = []

    def cancel() -> bool:
        calls.append(1)
        return len(calls) > 2  # after the first batch of rows

    with pytest.raises(CancelledError):
        write_release(table, tmp_path / "big.csv", task=Task(cancel=cancel))
    assert list(tmp_path.iterdir()) == []
