"""Agency workbooks as agencies lay them out, and workbooks built to break the reader.

Every workbook is generated here with openpyxl (cover sheets, several tables, footnotes,
merged two-level headers, numbers stored as text, stray cells at the far corner), so the
repository holds no binary test files.
"""

from __future__ import annotations

import re
import zipfile

import numpy as np
import openpyxl
import pytest

from engine.errors import InputError
from engine.io import read_table
from engine.io.extent import cell_name, measure_workbook
from tests.hostile import write_book


def table(n: int, start: int = 1) -> list[list[object]]:
    rows: list[list[object]] = [["person_id", "age", "income"]]
    rows += [[start + i, 20 + i % 50, 1000.5 + i] for i in range(n)]
    return rows


COVER = [["Household survey 2024: read me"], ["Data are on the next sheet."], ["Contact: x"]]


# -- which sheet --------------------------------------------------------------------------------


def test_cover_sheet_first_the_data_sheet_is_read_and_said_so(tmp_path):
    path = write_book(tmp_path / "cover.xlsx", {"Read me": COVER, "Data": table(40)})
    result = read_table(path)
    assert result.info.sheet == "Data" and result.data.shape == (40, 3)
    assert result.info.sheets == ["Read me", "Data"]
    note = next(n for n in result.info.notes if n.startswith("Sheet 'Data' was read"))
    assert "the first sheet, 'Read me', looks like a cover or notes sheet" in note
    assert "'Read me' (1)" in note  # the other sheets are listed, with their table cells


def test_two_data_sheets_the_larger_table_is_read_and_the_other_listed(tmp_path):
    path = write_book(tmp_path / "two.xlsx", {"2019": table(10), "2020": table(30), "Notes": COVER})
    result = read_table(path)
    assert result.info.sheet == "2020" and len(result.data) == 30
    note = next(n for n in result.info.notes if "was read" in n)
    assert "'2019' (33)" in note and "'Notes'" in note
    assert read_table(path, sheet="2019").info.notes == []  # a named sheet: nothing to say


def test_our_own_export_reads_its_release_sheet(tmp_path):
    import pandas as pd

    from engine.io import write_release

    write_release(pd.DataFrame({"x": [1, 2]}), tmp_path / "r.xlsx", metadata={"k": 5})
    assert read_table(tmp_path / "r.xlsx").data["x"].tolist() == [1, 2]


# -- the end of the table -----------------------------------------------------------------------


def test_footnotes_under_a_blank_row_are_left_out(tmp_path):
    rows = [*table(20), [], ["Source: statistical office, 2024."], ["1) Weekly wages in euros."]]
    result = read_table(write_book(tmp_path / "notes.xlsx", {"S": rows}))
    data = result.data
    assert len(data) == 20 and data["person_id"].dtype == np.int64
    assert result.info.footnotes == [
        "Source: statistical office, 2024.",
        "1) Weekly wages in euros.",
    ]
    assert result.info.mixed == {}  # the notes are not proposed as missing codes
    note = next(n for n in result.info.notes if "footnotes" in n)
    assert note.startswith("Rows 22–24 of sheet 'S', under a blank row") and "'Source:" in note


def test_a_data_row_with_one_text_value_is_not_a_footnote(tmp_path):
    rows = [["name", "age"], ["Ann", 30], ["Bob", None], ["Cy", 41]]
    result = read_table(write_book(tmp_path / "n.xlsx", {"S": rows}))
    assert result.data["name"].tolist() == ["Ann", "Bob", "Cy"] and not result.info.footnotes


def test_blank_rows_inside_a_sheet_are_dropped_and_counted(tmp_path):
    rows = [["a", "b"], [1, "x"], [None, None], [2, "y"], [], ["  ", None], [3, "z"]]
    result = read_table(write_book(tmp_path / "gaps.xlsx", {"S": rows}))
    assert result.data.to_dict("list") == {"a": [1, 2, 3], "b": ["x", "y", "z"]}
    assert result.data["a"].dtype == np.int64
    assert result.info.blank_rows == 3
    assert "3 blank rows inside the table (no value in any column) were left out." in (
        result.info.notes
    )


# -- headers ------------------------------------------------------------------------------------


@pytest.mark.parametrize("id_merged_down", [False, True])
def test_two_level_header_with_years_joins_both_levels(tmp_path, id_merged_down):
    rows = [
        ["person_id", "Weekly wage", None, "region"],
        [None, 1987, 1988, None],
        [1, 310.5, 320.0, "N"],
        [2, 410.0, 415.25, "S"],
    ]
    merges = [("S", "B1:C1")] + ([("S", "A1:A2"), ("S", "D1:D2")] if id_merged_down else [])
    result = read_table(write_book(tmp_path / "wage.xlsx", {"S": rows}, merges=merges))
    assert list(result.data.columns) == [
        "person_id",
        "Weekly wage 1987",
        "Weekly wage 1988",
        "region",
    ]
    assert result.data["Weekly wage 1988"].tolist() == [320.0, 415.25]
    assert result.data["person_id"].tolist() == [1, 2]


def test_numbers_under_a_merged_header_that_are_data_are_not_a_header(tmp_path):
    rows = [["id", "wage", None], [1, 1987, 1988], [2, 2001, 2002]]
    result = read_table(write_book(tmp_path / "d.xlsx", {"S": rows}, merges=[("S", "B1:C1")]))
    assert list(result.data.columns) == ["id", "wage", "wage_2"] and len(result.data) == 2


# -- numbers stored as text ---------------------------------------------------------------------


def test_european_numbers_stored_as_text_are_read_as_numbers(tmp_path):
    rows = [["id", "wage"], [1, "3.549,40"], [2, "1.234,00"], [3, "987,5"], [4, 12.5]]
    result = read_table(write_book(tmp_path / "eu.xlsx", {"S": rows}))
    assert result.data["wage"].tolist() == [3549.4, 1234.0, 987.5, 12.5]
    assert result.info.decimal == "," and "decimal" in result.info.guessed
    assert any(
        n.startswith("Column 'wage': 3 numbers stored as text (such as '3.549,40')")
        and n.endswith("with a decimal comma.")
        for n in result.info.notes
    )


def test_dot_numbers_stored_as_text_and_whole_numbers(tmp_path):
    rows = [["n", "x"], ["1", "3,549.40"], ["2", "12.5"], ["3", "7"]]
    result = read_table(write_book(tmp_path / "dot.xlsx", {"S": rows}))
    assert result.data["n"].dtype == np.int64 and result.data["n"].tolist() == [1, 2, 3]
    assert result.data["x"].tolist() == [3549.4, 12.5, 7.0]
    assert result.info.decimal == "."


def test_the_decimal_mark_can_be_chosen_for_workbooks(tmp_path):
    rows = [["x"], ["1.234"], ["2.500"]]
    path = write_book(tmp_path / "amb.xlsx", {"S": rows})
    assert read_table(path).data["x"].tolist() == [1.234, 2.5]  # ambiguous: the dot
    chosen = read_table(path, decimal=",")
    assert chosen.data["x"].tolist() == [1234, 2500] and "decimal" not in chosen.info.guessed
    with pytest.raises(InputError, match="decimal mark must be"):
        read_table(path, decimal=";")


def test_texts_and_codes_stay_texts(tmp_path):
    rows = [["zip", "wage"], ["01234", "3.549,40"], ["80331", "n/a"], ["10115", "1.000,00"]]
    result = read_table(write_book(tmp_path / "codes.xlsx", {"S": rows}))
    assert result.data["zip"].tolist() == ["01234", "80331", "10115"]
    assert result.info.mixed == {"wage": {"n/a": 1}}
    assert result.data["wage"].tolist() == ["3549.40", "n/a", "1000.00"]  # canonical numbers


# -- hostile extents ----------------------------------------------------------------------------


def test_a_cell_at_the_far_corner_is_trimmed_before_any_dense_read(tmp_path):
    write_book(
        tmp_path / "corner.xlsx", {"Sheet": table(300)}, cells=[("Sheet", "XFD1048576", "x")]
    )
    assert (tmp_path / "corner.xlsx").stat().st_size < 20_000
    result = read_table(tmp_path / "corner.xlsx")
    assert result.data.shape == (300, 3)
    assert any(
        "1 cell far from the table was left out (XFD1048576)" in n for n in result.info.notes
    )


def test_a_stray_cell_far_below_is_trimmed_not_250000_blank_records(tmp_path):
    write_book(tmp_path / "below.xlsx", {"Sheet": table(50)}, cells=[("Sheet", "A250300", "stray")])
    result = read_table(tmp_path / "below.xlsx")
    assert result.data.shape == (50, 3) and result.info.blank_rows == 0
    assert any("(A250300); the table is A1:C51" in n for n in result.info.notes)


def test_cells_scattered_over_the_whole_sheet_are_refused_with_their_range(tmp_path):
    book = openpyxl.Workbook()
    sheet = book.active
    for i in range(40):
        sheet.cell(row=1 + i * 25_000, column=1 + i * 400, value=i)
    book.save(tmp_path / "scatter.xlsx")
    message = (
        r"scatter\.xlsx, sheet 'Sheet': its 40 filled cells are spread over A1:\w+975001 "
        r"\(975,001 rows × 15,601 columns\), which would need about .* GB of memory to read\. "
        r"Delete the cells far from the table \(the last one is \w+975001\)"
    )
    with pytest.raises(InputError, match=message):
        read_table(tmp_path / "scatter.xlsx", memory_limit=2**34)


def test_a_lone_cell_at_the_corner_reads_as_one_cell(tmp_path):
    book = openpyxl.Workbook()
    book.active["XFD1048576"] = "only"
    book.save(tmp_path / "alone.xlsx")
    with pytest.raises(InputError, match=r"alone\.xlsx, sheet 'Sheet' has a header but no data"):
        read_table(tmp_path / "alone.xlsx")


def test_cells_without_references_are_measured_exactly(tmp_path):
    """OOXML allows cells without an ``r`` attribute; the quick scan hands them over."""
    path = write_book(tmp_path / "noref.xlsx", {"S": table(3)})
    with zipfile.ZipFile(path) as src:
        items = [(i, src.read(i.filename)) for i in src.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for item, data in items:
            if item.filename == "xl/worksheets/sheet1.xml":
                data = re.sub(rb'(<c) r="[A-Z]+\d+"', rb"\1", data)
                data = data.replace(b"</sheetData>", b'<row r="900000"><c r="Z900000" t="n">'
                                    b"<v>1</v></c></row></sheetData>")  # fmt: skip
            dst.writestr(item, data)
    extent = measure_workbook(path)["S"]
    assert extent.stray == [(899_999, 25)] and (extent.n_rows, extent.n_cols) == (4, 3)
    assert read_table(path).data.shape == (3, 3)


def test_cell_names():
    assert [cell_name(0, 0), cell_name(1048575, 16383), cell_name(9, 26)] == [
        "A1",
        "XFD1048576",
        "AA10",
    ]
