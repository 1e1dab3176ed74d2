"""Reading workbooks with calamine: sheets, title lines, merged headers, dates, bad files."""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path

import numpy as np
import openpyxl
import pandas as pd
import pytest

from engine import Task
from engine.errors import CancelledError, InputError
from engine.io import list_sheets, read_table
from tests.hostile import write_book


def patch_sheet_xml(path: Path, replacements: dict[str, str]) -> None:
    """Edit the first sheet's XML in place (to store what openpyxl cannot: cached values)."""
    with zipfile.ZipFile(path) as src:
        items = [(info, src.read(info.filename)) for info in src.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for info, data in items:
            if info.filename == "xl/worksheets/sheet1.xml":
                text = data.decode()
                for old, new in replacements.items():
                    assert old in text
                    text = text.replace(old, new)
                data = text.encode()
            dst.writestr(info, data)


# --------------------------------------------------------------------------- good files


def test_real_tiny_workbook(data_dir):
    result = read_table(data_dir / "tiny-age-gender-zip.xlsx")
    data = result.data
    assert list(data.columns) == ["age", "gender", "zipcode"]
    assert data.shape == (7, 3)
    assert data["age"].dtype == np.int64 and data["zipcode"].dtype == np.int64
    assert data["age"].tolist() == [34, 45, 66, 70, 34, 70, 45]
    assert data["gender"].tolist()[:2] == ["male", "female"]
    assert result.info.sheet == "Tabelle1" and result.info.sheets == ["Tabelle1"]


def test_sample_workbook(sample_workbook):
    result = read_table(sample_workbook)
    assert result.info.n_rows == 400
    # whole numbers stay integers; every income is answered in the sample
    assert result.data["income"].dtype == np.int64
    assert result.data["income"].notna().all() and result.data["income"].min() == 0


def test_sheets_are_listed_and_chosen(tmp_path):
    path = write_book(tmp_path / "two.xlsx", {"First": [["a"], [1]], "Second": [["b"], [2], [3]]})
    assert list_sheets(path) == ["First", "Second"]
    guessed = read_table(path).info  # the larger table, said so, the other one listed
    assert guessed.sheet == "Second" and "sheet" in guessed.guessed
    assert any("The other sheets (filled table cells): 'First'" in n for n in guessed.notes)
    assert read_table(path, sheet="First").data["a"].tolist() == [1]
    second = read_table(path, sheet="Second")
    assert second.data["b"].tolist() == [2, 3]
    assert second.info.sheets == ["First", "Second"]
    assert read_table(path, sheet=1).info.sheet == "Second"
    assert read_table(path, sheet="second").info.sheet == "Second"  # case is forgiven


def test_bad_sheet_name_lists_the_sheets(tmp_path):
    path = write_book(tmp_path / "two.xlsx", {"First": [["a"], [1]], "Second": [["b"], [2]]})
    with pytest.raises(
        InputError, match=r"two\.xlsx has no sheet named 'Third'; its sheets are: 'First', 'Second'"
    ):
        read_table(path, sheet="Third")
    with pytest.raises(InputError, match="no sheet number 5"):
        read_table(path, sheet=4)


def test_empty_first_sheet_falls_back_to_the_first_with_data(tmp_path):
    path = write_book(tmp_path / "cover.xlsx", {"Cover": [], "Data": [["x"], [1]]})
    result = read_table(path)
    assert result.info.sheet == "Data"
    assert any("the first sheet, 'Cover', looks like a cover" in n for n in result.info.notes)
    with pytest.raises(InputError, match=r"cover\.xlsx, sheet 'Cover' is empty"):
        read_table(path, sheet="Cover")


def test_title_lines_above_the_header_are_skipped(tmp_path):
    rows = [
        ["Household survey 2024"],
        ["Source: statistical office"],
        [],
        ["id", "age", "income"],
        [1, 30, 1000.5],
        [2, 40, 2000],
    ]
    path = write_book(tmp_path / "titled.xlsx", {"S": rows})
    result = read_table(path)
    assert list(result.data.columns) == ["id", "age", "income"]
    assert result.data["income"].tolist() == [1000.5, 2000.0]
    assert result.info.header_row == 3
    assert any("look like a title" in n for n in result.info.notes)
    forced = read_table(path, header_row=3)
    assert forced.data.equals(result.data)


def test_merged_group_header_over_sub_headings(tmp_path):
    path = tmp_path / "merged.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Person", "Income", None, "Region"])
    sheet.append([None, "2019", "2020", None])
    sheet.append(["a", 10, 11, "N"])
    sheet.append(["b", 20, 21, "S"])
    sheet.merge_cells("B1:C1")
    sheet.merge_cells("A1:A2")
    sheet.merge_cells("D1:D2")
    book.save(path)
    result = read_table(path)
    assert list(result.data.columns) == ["Person", "Income 2019", "Income 2020", "Region"]
    assert result.data["Income 2020"].tolist() == [11, 21]
    assert any("two-line header" in n for n in result.info.notes)


def test_merged_header_cell_without_sub_headings_gets_unique_names(tmp_path):
    path = tmp_path / "merged1.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["id", "score", None])
    sheet.append([1, 5, 6])
    sheet.append([2, 7, 8])
    sheet.merge_cells("B1:C1")
    book.save(path)
    result = read_table(path)
    assert list(result.data.columns) == ["id", "score", "score_2"]
    assert result.info.renamed == {"score_2": "score"}


def test_merged_cells_in_the_data_are_spread(tmp_path):
    path = tmp_path / "groups.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["region", "person", "income"])
    sheet.append(["North", "a", 10])
    sheet.append([None, "b", 20])
    sheet.append(["South", "c", 30])
    sheet.merge_cells("A2:A3")
    book.save(path)
    result = read_table(path)
    assert result.data["region"].tolist() == ["North", "North", "South"]
    assert any("merged cell range" in n for n in result.info.notes)


def test_blank_trailing_rows_and_columns_are_ignored(tmp_path):
    path = tmp_path / "trailing.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["a", "b"])
    sheet.append([1, "x"])
    sheet.append([2, "y"])
    sheet["H40"] = ""  # formatting far below and to the right of the data
    sheet["H40"].number_format = "0.00"
    sheet["D3"] = "   "
    book.save(path)
    result = read_table(path)
    assert list(result.data.columns) == ["a", "b"]
    assert result.data.shape == (2, 2)


def test_formulas_give_their_cached_values(tmp_path):
    path = write_book(tmp_path / "f.xlsx", {"S": [["a", "b"], [1, "=A2*2"], [2, "=A3*2"]]})
    patch_sheet_xml(
        path,
        {"<f>A2*2</f><v />": "<f>A2*2</f><v>2</v>", "<f>A3*2</f><v />": "<f>A3*2</f><v>4</v>"},
    )
    result = read_table(path)
    assert result.data["b"].tolist() == [2, 4]


def test_dates_and_bare_serial_numbers(tmp_path):
    path = tmp_path / "dates.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["when", "n"])
    sheet.append([dt.date(2020, 1, 2), 1])
    sheet.append([dt.datetime(2021, 6, 30, 12, 0), 2])
    sheet.append([45000, 3])  # a date typed without a date format: serial 45000
    book.save(path)
    result = read_table(path)
    when = result.data["when"]
    assert when.dtype.kind == "M"
    assert when.tolist() == [
        pd.Timestamp("2020-01-02"),
        pd.Timestamp("2021-06-30 12:00"),
        pd.Timestamp("2023-03-15"),
    ]
    assert any("bare serial number" in n for n in result.info.notes)


def test_numbers_stored_as_text_and_mixed_columns(tmp_path):
    rows = [["code", "num_text", "income"]]
    rows += [[f"0{i}", str(i), i * 100] for i in range(1, 9)]
    rows += [["09", "9", "N/A"], ["10", "10", "N/A"]]
    path = write_book(tmp_path / "m.xlsx", {"S": rows})
    result = read_table(path)
    data = result.data
    assert data["code"].tolist()[0] == "01"
    assert data["num_text"].dtype == np.int64
    assert data["income"].iloc[-1] == "N/A" and data["income"].iloc[0] == "100"
    assert result.info.mixed == {"income": {"N/A": 2}}


def test_ods_write_book(tmp_path):
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
        ' xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"'
        ' xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        '<office:body><office:spreadsheet><table:table table:name="Blatt1">'
        '<table:table-row><table:table-cell office:value-type="string"><text:p>x</text:p>'
        '</table:table-cell><table:table-cell office:value-type="string"><text:p>y</text:p>'
        "</table:table-cell></table:table-row>"
        '<table:table-row><table:table-cell office:value-type="float" office:value="1.5">'
        '<text:p>1.5</text:p></table:table-cell><table:table-cell office:value-type="string">'
        "<text:p>a</text:p></table:table-cell></table:table-row>"
        "</table:table></office:spreadsheet></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
        'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" '
        'manifest:version="1.2"><manifest:file-entry manifest:full-path="/" '
        'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    path = tmp_path / "calc.ods"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("META-INF/manifest.xml", manifest)
        archive.writestr("content.xml", content)
    result = read_table(path)
    assert result.info.sheet == "Blatt1"
    assert result.data["x"].tolist() == [1.5]
    assert result.data["y"].tolist() == ["a"]


def test_progress_and_cancel(tmp_path, sample_workbook):
    seen: list[float] = []
    read_table(sample_workbook, task=Task(lambda f, m: seen.append(f)))
    assert seen[0] == 0.0 and seen[-1] == 1.0 and seen == sorted(seen)
    with pytest.raises(CancelledError):
        read_table(sample_workbook, task=Task(cancel=lambda: len(seen) > 0))


# --------------------------------------------------------------------------- bad files


def test_truncated_write_book(tmp_path, sample_workbook):
    data = sample_workbook.read_bytes()
    path = tmp_path / "cut.xlsx"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(InputError, match=r"cut\.xlsx is damaged or incomplete.*save it again"):
        read_table(path)


def test_corrupt_workbook_with_broken_content(tmp_path):
    path = tmp_path / "corrupt.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("[Content_Types].xml", "<not xml")
        archive.writestr("xl/workbook.xml", "garbage")
    with pytest.raises(InputError, match=r"corrupt\.xlsx is damaged or incomplete"):
        read_table(path)


def test_text_named_xlsx(tmp_path):
    path = tmp_path / "fake.xlsx"
    path.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"fake\.xlsx is damaged .*not an Excel or OpenDocument"):
        read_table(path)


def test_password_protected_write_book(tmp_path):
    # an encrypted .xlsx is an OLE compound file holding an "EncryptionInfo" stream
    header = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504
    directory = "EncryptionInfo".encode("utf-16-le") + b"\x00" * 100
    path = tmp_path / "secret.xlsx"
    path.write_bytes(header + b"\x00" * 512 + directory + b"\x00" * 2000)
    with pytest.raises(InputError, match=r"secret\.xlsx is protected with a password.*copy"):
        read_table(path)


def test_sheet_with_header_only(tmp_path):
    path = write_book(tmp_path / "h.xlsx", {"S": [["a", "b"]]})
    with pytest.raises(InputError, match=r"h\.xlsx, sheet 'S' has a header but no data rows"):
        read_table(path)


def test_workbook_too_large_for_memory_names_its_size(tmp_path, sample_workbook):
    with pytest.raises(InputError, match=r"sample-survey\.xlsx is too large .*about .*KB"):
        read_table(sample_workbook, memory_limit=10_000)


def test_empty_xlsx_file(tmp_path):
    path = tmp_path / "zero.xlsx"
    path.write_bytes(b"")
    with pytest.raises(InputError, match=r"zero\.xlsx is empty \(0 bytes\)"):
        read_table(path)
