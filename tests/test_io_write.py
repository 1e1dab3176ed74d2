"""Export: round trips keep values and types, formulas are neutralised, writes are atomic."""

from __future__ import annotations

import csv
import datetime as dt
import json
import os
from pathlib import Path

import numpy as np
import openpyxl
import pandas as pd
import pytest

from engine import Task
from engine.errors import CancelledError, InputError
from engine.io import read_table, write_release
from engine.io import write as write_module
from engine.io.write import ABOUT_SHEET, RELEASE_SHEET

DANGEROUS = ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\tTAB", "\rCR", '=HYPERLINK("x")']


def release_table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "age": np.array([25, -3, 47], dtype=np.int64),
            "income": [1234.5, np.nan, -20.25],
            "region": ["North", "=1+1", "-West"],
            "when": pd.to_datetime(["2020-01-02", None, "2021-06-30 12:30"], format="ISO8601"),
        }
    )


METADATA = {
    "parameters": {"k": 5, "t": 2.0, "qi": ["age", "region"], "confidential": ["income"]},
    "guarantees": {
        "t-closeness": {"t": 1.98, "assumption": "the intruder's prior is the overall table"},
        "epsilon": 1.37,
    },
    "information loss": 12.5,
}


def files_in(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


# --------------------------------------------------------------------------- xlsx


def test_xlsx_round_trip_keeps_values_and_types(tmp_path):
    table = release_table()
    written = write_release(table, tmp_path / "out.xlsx", metadata=METADATA)
    assert written == [tmp_path / "out.xlsx"]
    back = read_table(tmp_path / "out.xlsx", sheet=RELEASE_SHEET).data
    assert list(back.columns) == list(table.columns)
    assert back["age"].dtype == np.int64 and back["age"].tolist() == [25, -3, 47]
    assert back["income"].dtype == np.float64
    np.testing.assert_array_equal(back["income"].to_numpy(), table["income"].to_numpy())
    assert back["region"].tolist() == ["North", "=1+1", "-West"]
    assert back["when"].tolist()[0] == pd.Timestamp("2020-01-02")
    assert back["when"].tolist()[2] == pd.Timestamp("2021-06-30 12:30")
    assert pd.isna(back["when"].iloc[1])


def test_xlsx_to_engine_to_xlsx(tmp_path, sample_workbook):
    original = read_table(sample_workbook).data
    write_release(original, tmp_path / "again.xlsx")
    again = read_table(tmp_path / "again.xlsx").data
    pd.testing.assert_frame_equal(original, again)


def test_formula_injection_is_neutralised_in_xlsx(tmp_path):
    table = pd.DataFrame({"text": DANGEROUS, "number": np.arange(-3, 4)})
    write_release(table, tmp_path / "inj.xlsx")
    sheet = openpyxl.load_workbook(tmp_path / "inj.xlsx")[RELEASE_SHEET]
    for row, expected in enumerate(DANGEROUS, start=2):
        cell = sheet.cell(row, 1)
        assert cell.data_type == "s", expected
        assert cell.quotePrefix
        # openpyxl shows OOXML's escape of a carriage return as it is stored
        assert cell.value == expected.replace("\r", "_x000D_")
    # Excel, LibreOffice and calamine read the escape back as the carriage return
    assert read_table(tmp_path / "inj.xlsx").data["text"].tolist() == DANGEROUS
    numbers = [sheet.cell(row, 2) for row in range(2, 9)]
    assert [c.value for c in numbers] == list(range(-3, 4))
    assert all(c.data_type == "n" for c in numbers)  # negative numbers stay numbers


def test_xlsx_keeps_every_digit_of_a_float(tmp_path):
    values = [0.1 + 0.2, 2.26597837897788e18, 1 / 3, -5e-324, 1.5]
    write_release(pd.DataFrame({"x": values}), tmp_path / "f.xlsx")
    assert read_table(tmp_path / "f.xlsx").data["x"].tolist() == values
    sheet = openpyxl.load_workbook(tmp_path / "f.xlsx")[RELEASE_SHEET]
    assert [sheet.cell(r, 1).value for r in range(2, 7)] == values
    assert all(sheet.cell(r, 1).data_type == "n" for r in range(2, 7))


def test_formula_like_header_and_metadata_are_text(tmp_path):
    table = pd.DataFrame({"=cmd|' /C calc'!A0": [1]})
    write_release(table, tmp_path / "h.xlsx", metadata={"note": "=2*3"})
    book = openpyxl.load_workbook(tmp_path / "h.xlsx")
    assert book[RELEASE_SHEET].cell(1, 1).data_type == "s"
    about = {r[0].value: r[1] for r in book[ABOUT_SHEET].iter_rows(min_row=3) if r[0].value}
    assert about["note"].value == "=2*3" and about["note"].data_type == "s"


def test_about_sheet_renders_nested_metadata(tmp_path):
    meta = {
        **METADATA,
        "buckets": [{"label": "low", "count": 5}, {"label": "high", "count": 7}],
        "long": "x" * 40_000,
    }
    write_release(release_table(), tmp_path / "a.xlsx", metadata=meta)
    book = openpyxl.load_workbook(tmp_path / "a.xlsx")
    assert book.sheetnames == [RELEASE_SHEET, ABOUT_SHEET]
    rows = {r[0]: r[1] for r in book[ABOUT_SHEET].iter_rows(min_row=3, values_only=True) if r[0]}
    assert rows["parameters › k"] == 5
    assert rows["parameters › qi"] == "age, region"
    assert rows["guarantees › t-closeness › t"] == 1.98
    assert rows["guarantees › t-closeness › assumption"].startswith("the intruder")
    assert rows["information loss"] == 12.5
    assert rows["buckets › 2 › label"] == "high" and rows["buckets › 2 › count"] == 7
    assert rows["long"].endswith("(truncated)") and len(rows["long"]) <= 32_767
    assert rows["software"].startswith("tclose ")
    written = dt.datetime.strptime(rows["written"], "%Y-%m-%d %H:%M:%S UTC")
    assert abs((dt.datetime.now(dt.UTC).replace(tzinfo=None) - written).total_seconds()) < 600


# --------------------------------------------------------------------------- csv


def test_csv_round_trip_keeps_values_and_types(tmp_path):
    table = release_table()
    written = write_release(table, tmp_path / "out.csv", metadata=METADATA, sep=";")
    assert written == [tmp_path / "out.csv", tmp_path / "out.json"]
    result = read_table(tmp_path / "out.csv")
    back = result.data
    assert result.info.separator == ";" and result.info.encoding == "utf-8-sig"
    assert back["age"].tolist() == [25, -3, 47]
    np.testing.assert_array_equal(back["income"].to_numpy(), table["income"].to_numpy())
    assert back["region"].tolist() == ["North", "=1+1", "-West"]
    assert back["when"].dtype.kind == "M"
    assert back["when"].iloc[2] == pd.Timestamp("2021-06-30 12:30")


def test_csv_to_csv_real_file(tmp_path, data_dir):
    original = read_table(data_dir / "adult.csv.gz").data
    write_release(original, tmp_path / "adult.csv", sep=";")
    again = read_table(tmp_path / "adult.csv").data
    pd.testing.assert_frame_equal(original, again)


def test_csv_formula_injection_and_sidecar(tmp_path):
    table = pd.DataFrame({"text": DANGEROUS, "number": np.arange(-3, 4)})
    write_release(table, tmp_path / "inj.csv", metadata={"k": 3, "nested": {"a": [1, 2]}})
    with open(tmp_path / "inj.csv", encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["text", "number"]
    assert [r[0] for r in rows[1:]] == ["'" + v for v in DANGEROUS]
    assert [r[1] for r in rows[1:]] == [str(v) for v in range(-3, 4)]
    side = json.loads((tmp_path / "inj.json").read_text(encoding="utf-8"))
    assert side["k"] == 3 and side["nested"] == {"a": [1, 2]}
    assert side["columns"] == {"text": "str", "number": "int64"}
    assert side["software"].startswith("tclose ")


def test_csv_decimal_comma_and_tab(tmp_path):
    table = pd.DataFrame({"x": [1.5, -2.25]})
    write_release(table, tmp_path / "eu.csv", sep="\t", decimal=",", bom=False)
    assert (tmp_path / "eu.csv").read_bytes() == b"x\r\n1,5\r\n-2,25\r\n"
    assert read_table(tmp_path / "eu.csv").data["x"].tolist() == [1.5, -2.25]


# --------------------------------------------------------------------------- safety


def test_refuses_to_overwrite_the_input(tmp_path):
    source = tmp_path / "data.csv"
    source.write_text("a\n1\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"data\.csv: refusing to overwrite the input file"):
        write_release(pd.DataFrame({"a": [2]}), tmp_path / "data.csv", input_path=source)
    with pytest.raises(InputError, match="refusing to overwrite"):  # through another spelling
        write_release(
            pd.DataFrame({"a": [2]}), tmp_path / "sub" / ".." / "data.csv", input_path=source
        )
    assert source.read_text(encoding="utf-8") == "a\n1\n"


def test_refuses_when_the_sidecar_would_overwrite_the_input(tmp_path):
    source = tmp_path / "data.json"
    source.write_text("{}", encoding="utf-8")
    with pytest.raises(InputError, match=r"data\.json: refusing to overwrite the input file"):
        write_release(pd.DataFrame({"a": [1]}), tmp_path / "data.csv", input_path=source)


def test_cancel_leaves_no_file_and_keeps_the_old_one(tmp_path):
    target = tmp_path / "out.xlsx"
    target.write_bytes(b"old")
    big = pd.DataFrame({"x": np.arange(30_000)})
    calls = {"n": 0}

    def cancel() -> bool:
        calls["n"] += 1
        return calls["n"] > 3

    with pytest.raises(CancelledError):
        write_release(big, target, task=Task(cancel=cancel))
    assert target.read_bytes() == b"old"
    assert files_in(tmp_path) == {"out.xlsx"}
    with pytest.raises(CancelledError):
        write_release(big, tmp_path / "new.csv", task=Task(cancel=lambda: True))
    assert files_in(tmp_path) == {"out.xlsx"}


def test_error_while_writing_leaves_no_partial_file(tmp_path, monkeypatch):
    def boom(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(write_module.ExcelWriter, "write_data", boom)
    with pytest.raises(InputError, match=r"full\.xlsx: cannot write \(the disk is full\)"):
        write_release(release_table(), tmp_path / "full.xlsx")
    assert files_in(tmp_path) == set()


def test_xlsx_spools_beside_the_target_not_in_the_system_temp(tmp_path, monkeypatch):
    seen: list[Path] = []
    real = write_module.WorksheetWriter

    def spy(sheet, out=None):
        seen.append(Path(out))
        return real(sheet, out=out)

    monkeypatch.setattr(write_module, "WorksheetWriter", spy)
    write_release(release_table(), tmp_path / "s.xlsx")
    assert len(seen) == 2 and all(p.parent == tmp_path for p in seen)
    assert all(p.name.startswith(".~tc") and len(p.name) == 10 for p in seen)
    assert files_in(tmp_path) == {"s.xlsx"}


def test_int64_beyond_2_53_keeps_every_digit_in_xlsx(tmp_path):
    exact = 2**62  # a power of two: a double holds it exactly
    inexact = 2**62 + 1
    table = pd.DataFrame({"id": np.array([1, exact, inexact, -inexact], dtype=np.int64)})
    write_release(table, tmp_path / "big.xlsx")
    book = openpyxl.load_workbook(tmp_path / "big.xlsx")
    cells = [book[RELEASE_SHEET].cell(r, 1) for r in range(2, 6)]
    assert [c.data_type for c in cells] == ["n", "n", "s", "s"]
    assert cells[1].value == exact
    assert [cells[2].value, cells[3].value] == [str(inexact), str(-inexact)]
    about = {r[0]: r[1] for r in book[ABOUT_SHEET].iter_rows(min_row=3, values_only=True) if r[0]}
    note = about["export notes › column 'id'"]
    assert note.startswith("2 whole numbers larger than 2^53") and "as text" in note
    back = read_table(tmp_path / "big.xlsx").data["id"]
    assert back.dtype == np.int64 and back.tolist() == table["id"].tolist()  # every digit


def test_small_int64_stay_numbers_and_no_note(tmp_path):
    table = pd.DataFrame({"n": np.array([2**53, -(2**53), 7], dtype=np.int64)})
    write_release(table, tmp_path / "ok.xlsx")
    book = openpyxl.load_workbook(tmp_path / "ok.xlsx")
    assert [book[RELEASE_SHEET].cell(r, 1).value for r in range(2, 5)] == [2**53, -(2**53), 7]
    about = [r[0] for r in book[ABOUT_SHEET].iter_rows(min_row=3, values_only=True) if r[0]]
    assert not any(str(k).startswith("export notes") for k in about)


def test_written_file_has_ordinary_permissions(tmp_path):
    path = write_release(pd.DataFrame({"a": [1]}), tmp_path / "p.csv")[0]
    mask = os.umask(0)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask


@pytest.mark.parametrize(
    ("name", "kwargs", "message"),
    [
        ("out.pdf", {}, r"out\.pdf: unknown output type '\.pdf'; use \.xlsx or \.csv"),
        ("out.csv", {"sep": ";;"}, "separator must be one character"),
        ("out.csv", {"sep": ",", "decimal": ","}, "other than the decimal mark"),
        ("missing/out.xlsx", {}, r"the folder .*missing does not exist"),
    ],
)
def test_bad_output_requests(tmp_path, name, kwargs, message):
    with pytest.raises(InputError, match=message):
        write_release(pd.DataFrame({"a": [1]}), tmp_path / name, **kwargs)


def test_text_too_long_for_an_excel_cell(tmp_path):
    table = pd.DataFrame({"note": ["short", "y" * 40_000]})
    with pytest.raises(InputError, match=r"Column 'note' holds a text of 40,000 characters"):
        write_release(table, tmp_path / "long.xlsx")
    assert files_in(tmp_path) == set()
    write_release(table, tmp_path / "long.csv")  # CSV has no such limit
    assert read_table(tmp_path / "long.csv").data["note"].iloc[1] == "y" * 40_000


def test_table_too_large_for_a_sheet(tmp_path, monkeypatch):
    monkeypatch.setattr(write_module, "EXCEL_MAX_ROWS", 3)
    with pytest.raises(InputError, match=r"big\.xlsx: 3 rows × 1 columns do not fit .* \.csv"):
        write_release(pd.DataFrame({"a": [1, 2, 3]}), tmp_path / "big.xlsx")
    assert files_in(tmp_path) == set()


def test_progress_reaches_one(tmp_path):
    seen: list[float] = []
    write_release(release_table(), tmp_path / "p.xlsx", task=Task(lambda f, m: seen.append(f)))
    assert seen[0] == 0.0 and seen[-1] == 1.0 and seen == sorted(seen)
