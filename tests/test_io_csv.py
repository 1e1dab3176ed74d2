"""Reading delimited text: every guess checked, every bad file gets its message.

The bad files are written by the tests themselves, one per case, and the expected message is
checked: the file name, the line where it can, and what to do.
"""

from __future__ import annotations

import codecs
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engine import Task
from engine.errors import CancelledError, InputError
from engine.io import ReadOptions, read_table
from engine.io import delimited as delimited_module
from engine.io.sniff import sniff_decimal, sniff_layout


def write(tmp_path: Path, name: str, content: str | bytes, encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode(encoding))
    return path


# --------------------------------------------------------------------------- guesses


@pytest.mark.parametrize("sep", [",", ";", "\t", "|"])
def test_separator_is_sniffed(tmp_path, sep):
    rows = [["name", "age", "city"], ["Ann", "34", "Graz"], ["Bob", "51", "Linz"]]
    path = write(tmp_path, "people.csv", "\n".join(sep.join(r) for r in rows) + "\n")
    result = read_table(path)
    assert result.info.separator == sep
    assert "separator" in result.info.guessed
    assert list(result.data.columns) == ["name", "age", "city"]
    assert result.data["age"].tolist() == [34, 51]


def test_separator_inside_quotes_does_not_count(tmp_path):
    text = 'name;note\n"Smith, John";"a, b, c"\n"Doe, Jane";"d, e"\n'
    result = read_table(write(tmp_path, "q.csv", text))
    assert result.info.separator == ";"
    assert result.data["name"].tolist() == ["Smith, John", "Doe, Jane"]


def test_sniff_layout_finds_title_lines():
    layout = sniff_layout("Survey 2024\nSource: office\n\na;b;c\n1;2;3\n4;5;6\n")
    assert layout.separator == ";"
    assert layout.header_row == 3
    assert layout.n_fields == 3


def test_title_lines_are_skipped_and_reported(tmp_path):
    text = "Income survey 2024\n\nid;income\n1;100\n2;200\n"
    result = read_table(write(tmp_path, "titled.csv", text))
    assert list(result.data.columns) == ["id", "income"]
    assert result.data["income"].tolist() == [100, 200]
    assert result.info.header_row == 2
    assert any("title" in n and "line 3" in n for n in result.info.notes)


def test_every_guess_can_be_overridden(tmp_path):
    text = "a|b\n1,5|2\n"
    result = read_table(
        write(tmp_path, "o.txt", text), sep="|", decimal=",", encoding="utf-8", header_row=0
    )
    assert result.info.guessed == []
    assert result.data["a"].tolist() == [1.5]


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        (["1,5", "2,25", "3"], ","),
        (["1.234,56", "7"], ","),
        (["1.5", "2.25"], "."),
        (["1,234", "1.234"], "."),  # ambiguous: the dot wins the tie
        (["abc", "10"], "."),
    ],
)
def test_decimal_mark_is_sniffed(cells, expected):
    assert sniff_decimal(cells) == expected


def test_decimal_comma_file(tmp_path):
    text = "id;amount;rate\n1;1.234,56;0,5\n2;12,5;1,25\n3;7;2\n"
    result = read_table(write(tmp_path, "eu.csv", text))
    assert result.info.decimal == ","
    assert result.data["amount"].tolist() == [1234.56, 12.5, 7.0]
    assert result.data["rate"].tolist() == [0.5, 1.25, 2.0]
    assert result.data["id"].dtype == np.int64


def test_decimal_comma_mixed_column_becomes_numbers_once_codes_are_declared(tmp_path):
    from engine.io import apply_missing

    text = "id;amount\n1;1.234,56\n2;N/A\n3;12,5\n"
    result = read_table(write(tmp_path, "eu.csv", text))
    assert result.info.mixed == {"amount": {"N/A": 1}}
    fixed = apply_missing(result.data, ["N/A"])
    assert fixed["amount"].tolist()[0] == 1234.56
    assert np.isnan(fixed["amount"].tolist()[1])


# --------------------------------------------------------------------------- encodings


def test_utf8_bom(tmp_path):
    path = write(tmp_path, "bom.csv", codecs.BOM_UTF8 + "név;kor\nÉva;30\n".encode())
    result = read_table(path)
    assert result.info.encoding == "utf-8-sig"
    assert list(result.data.columns) == ["név", "kor"]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le"])
def test_utf16_with_and_without_bom(tmp_path, encoding):
    path = write(tmp_path, "u16.csv", "name\tcity\nZoë\tMünchen\nAl\tKöln\n", encoding)
    result = read_table(path)
    assert result.data["city"].tolist() == ["München", "Köln"]
    assert result.info.separator == "\t"


def test_non_utf8_without_hints_is_read_as_cp1252_and_said_so(tmp_path):
    path = write(tmp_path, "win.csv", "name;price\nCafé;3\nCrème;5 €\n", "cp1252")
    result = read_table(path)
    assert result.info.encoding == "cp1252"
    assert result.data["name"].tolist() == ["Café", "Crème"]
    assert any("not UTF-8" in n and "line 2" in n for n in result.info.notes)


def test_wrong_encoding_given_names_the_line(tmp_path):
    path = write(tmp_path, "win.csv", "name;price\nok;1\nCafé;3\n", "cp1252")
    with pytest.raises(InputError, match=r"win\.csv, line 3: the text is not valid utf-8"):
        read_table(path, encoding="utf-8")


def test_unknown_encoding_name(tmp_path):
    path = write(tmp_path, "a.csv", "a\n1\n")
    with pytest.raises(InputError, match="'klingon' is not an encoding"):
        read_table(path, encoding="klingon")


# --------------------------------------------------------------------------- values


def test_only_empty_cells_are_missing(tmp_path):
    text = "a;b;c\nNone;NA;1\nN/A;;2\nnull;nan;3\n"
    result = read_table(write(tmp_path, "na.csv", text))
    data = result.data
    assert data["a"].tolist() == ["None", "N/A", "null"]
    assert data["b"].isna().tolist() == [False, True, False]
    assert data["b"].iloc[0] == "NA" and data["b"].iloc[2] == "nan"


def test_leading_zeros_stay_text(tmp_path):
    text = "zip,amount\n01234,10\n80331,-20\n"
    result = read_table(write(tmp_path, "zip.csv", text))
    assert result.data["zip"].tolist() == ["01234", "80331"]
    assert result.data["amount"].tolist() == [10, -20]
    assert any("leading zeros" in n for n in result.info.notes)


def test_leading_zeros_found_beyond_the_first_chunk(tmp_path, monkeypatch):
    monkeypatch.setattr(delimited_module, "CHUNK_ROWS", 50)
    codes = [str(10000 + i) for i in range(300)] + ["00999"]
    text = "code,v\n" + "".join(f"{c},{i}\n" for i, c in enumerate(codes))
    result = read_table(write(tmp_path, "late.csv", text))
    assert result.data["code"].iloc[-1] == "00999"
    assert result.data["code"].iloc[0] == "10000"


def test_mixed_column_is_reported_not_coerced(tmp_path):
    rows = "".join(f"{i};{i * 10}\n" for i in range(20)) + "20;N/A\n21;-\n22;N/A\n"
    result = read_table(write(tmp_path, "mixed.csv", "id;income\n" + rows))
    assert result.data["income"].iloc[20] == "N/A"
    assert result.info.mixed["income"] == {"N/A": 2, "-": 1}
    note = next(n for n in result.info.notes if "income" in n)
    assert "'N/A' (2×)" in note and "missing codes" in note


def test_chunks_that_disagree_on_a_column_type_are_reconciled(tmp_path, monkeypatch):
    monkeypatch.setattr(delimited_module, "CHUNK_ROWS", 10)
    rows = [f"{i};{i}.5" for i in range(30)] + ["30;unknown"]
    result = read_table(write(tmp_path, "late.csv", "n;x\n" + "\n".join(rows) + "\n"))
    x = result.data["x"]
    assert x.iloc[0] == "0.5" and x.iloc[-1] == "unknown"
    assert result.info.mixed["x"] == {"unknown": 1}


def test_iso_and_unambiguous_dates_become_dates(tmp_path):
    text = "a;b;c\n2024-01-31;31/01/2024;03/04/2024\n2023-12-01;15.02.2023;05/06/2024\n"
    result = read_table(write(tmp_path, "d.csv", text))
    data = result.data
    assert data["a"].dtype.kind == "M"
    assert data["b"].tolist() == [pd.Timestamp("2024-01-31"), pd.Timestamp("2023-02-15")]
    assert data["c"].tolist() == ["03/04/2024", "05/06/2024"]  # day or month first? unknown


def test_excel_separator_hint_line(tmp_path):
    result = read_table(write(tmp_path, "hint.csv", "sep=;\na;b\n1,5;x\n"))
    assert list(result.data.columns) == ["a", "b"]
    assert result.info.separator == ";"
    assert result.data["a"].tolist() == [1.5]


def test_cells_of_spaces_are_empty(tmp_path):
    result = read_table(write(tmp_path, "sp.csv", "a;b\n1;x\n  ;y\n3; \n"))
    assert result.data["a"].tolist()[0] == 1 and np.isnan(result.data["a"].iloc[1])
    assert result.data["a"].dtype == np.float64
    assert result.data["b"].isna().tolist() == [False, False, True]
    assert any("only spaces" in n for n in result.info.notes)


def test_thousands_commas_in_quoted_numbers(tmp_path):
    text = 'id,amount\n1,"1,234,567.5"\n2,12\n3,"-2,000"\n'
    result = read_table(write(tmp_path, "k.csv", text))
    assert result.data["amount"].tolist() == [1234567.5, 12.0, -2000.0]
    assert any("thousands separators" in n for n in result.info.notes)


def test_short_rows_are_reported(tmp_path):
    text = "id;note;n\n1;fine;3\n2;broken\nline;4\n\n5;ok;6\n"
    result = read_table(write(tmp_path, "short.csv", text))
    assert result.data.shape == (4, 3)
    assert any("2 rows have fewer fields" in n and "line 3" in n for n in result.info.notes)
    clean = read_table(write(tmp_path, "ok.csv", "a;b\n1;2\n\n3;4\n"))
    assert not any("fewer fields" in n for n in clean.info.notes)


@pytest.mark.parametrize(
    ("text", "short_line"),
    [
        ("a;b;c\n1;2;3\n4;5;6", None),  # no line break after the last row
        ("a;b;c\n1;2;3\n4;5", 3),  # ... and the last row short
        ("a;b;c\n1;2\n4;5;6\n", 2),
        ("a;b;c\n1;2;3\n4;5;6\n", None),
    ],
)
def test_a_short_row_is_found_wherever_it_is(tmp_path, text, short_line):
    """Files whose every row is full take a quicker count; a short row anywhere (the last
    one, without a line break after it) is still reported with its line."""
    notes = read_table(write(tmp_path, "rows.csv", text)).info.notes
    found = [n for n in notes if "fewer fields" in n]
    if short_line is None:
        assert not found
    else:
        assert len(found) == 1 and f"line {short_line}" in found[0]


def test_blank_and_duplicate_headers_get_unique_names(tmp_path):
    text = "age;;age;Age\n1;2;3;4\n"
    result = read_table(write(tmp_path, "h.csv", text))
    assert list(result.data.columns) == ["age", "column_2", "age_2", "Age_3"]
    assert result.info.renamed == {"column_2": "", "age_2": "age", "Age_3": "Age"}
    assert result.data.iloc[0].tolist() == [1, 2, 3, 4]
    assert any("Column 2 (blank) had no name" in n for n in result.info.notes)


def test_trailing_separator_column_without_name_or_values_is_left_out(tmp_path):
    text = "a;b;\n1;2;\n3;4;\n"
    result = read_table(write(tmp_path, "t.csv", text))
    assert list(result.data.columns) == ["a", "b"]
    assert any("without a name" in n for n in result.info.notes)


def test_apostrophe_guard_from_our_export_is_removed(tmp_path):
    text = "formula,n\n'=1+1,1\nplain,2\n"
    result = read_table(write(tmp_path, "g.csv", text))
    assert result.data["formula"].tolist() == ["=1+1", "plain"]


def test_workbook_named_csv_is_read_as_workbook(tmp_path, sample_workbook):
    path = tmp_path / "disguised.csv"
    path.write_bytes(sample_workbook.read_bytes())
    result = read_table(path)
    assert result.info.format == "xlsx"
    assert result.info.n_rows == 400
    assert any("workbook despite its name" in n for n in result.info.notes)


# --------------------------------------------------------------------------- bad files


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.csv", b"", r"empty\.csv is empty \(0 bytes\)"),
        ("blank.csv", b"\n  \n\n", r"blank\.csv is empty"),
        ("header.csv", b"a;b;c\n", r"header\.csv has a header but no data rows"),
        ("header2.csv", b"a;b;c\n\n\n", r"header2\.csv has a header but no data rows"),
        (
            "ragged.csv",
            b"a;b;c\n1;2;3\n4;5;6;7\n",
            r"ragged\.csv, line 3: 4 fields where the header has 3\. A value probably contains "
            r"the separator \(semicolon\)",
        ),
        (
            "quote.csv",
            b'a,b\n1,"open\n2,3\n',
            r"quote\.csv: a quote \(\"\) opened near row \d+ is never closed",
        ),
        (
            "garbage.csv",
            bytes(range(256)) * 40,
            r"garbage\.csv does not look like a text \(CSV\) file: it contains binary data",
        ),
    ],
)
def test_bad_text_files_get_clear_messages(tmp_path, name, content, message):
    with pytest.raises(InputError, match=message):
        read_table(write(tmp_path, name, content))


def test_ragged_row_far_into_the_file_names_its_line(tmp_path, monkeypatch):
    monkeypatch.setattr(delimited_module, "CHUNK_ROWS", 100)
    lines = ["a,b"] + [f"{i},{i}" for i in range(1, 500)] + ["x,y,z"] + ["1,2"] * 10
    path = write(tmp_path, "late.csv", "\n".join(lines) + "\n")
    with pytest.raises(InputError, match=r"late\.csv, line 501: 3 fields where the header has 2"):
        read_table(path)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(InputError, match=r"nope\.csv: no such file\. Check the name"):
        read_table(tmp_path / "nope.csv")
    with pytest.raises(InputError, match="is a folder, not a file"):
        read_table(tmp_path)


def test_unreadable_file(tmp_path, monkeypatch):
    path = write(tmp_path, "locked.csv", "a\n1\n")
    real_open = Path.open

    def deny(self, *args, **kwargs):
        if self.name == "locked.csv":
            raise PermissionError(13, "Permission denied")
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", deny)
    with pytest.raises(InputError, match=r"locked\.csv: cannot be read \(permission denied\)"):
        read_table(path)


def test_file_larger_than_memory_is_refused_early_with_its_size(tmp_path):
    path = write(tmp_path, "big.csv", "a;b\n" + "1;2\n" * 5000)
    with pytest.raises(InputError, match=r"big\.csv is too large .* about 78\.1 KB.* 1\.0 KB"):
        read_table(path, memory_limit=1024)


def test_running_out_of_memory_while_reading_is_a_message(tmp_path, monkeypatch):
    path = write(tmp_path, "huge.csv", "a;b\n1;2\n")

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(delimited_module, "_parse", exhausted)
    with pytest.raises(InputError, match=r"huge\.csv: the computer ran out of memory"):
        read_table(path)


def test_the_settings_can_be_given_as_one_object(tmp_path):
    path = write(tmp_path, "a.csv", "title\nx;y\n1,5;2\n")
    options = ReadOptions(sep=";", decimal=",", header_row=1)
    by_object = read_table(path, options=options)
    by_keywords = read_table(path, sep=";", decimal=",", header_row=1)
    pd.testing.assert_frame_equal(by_object.data, by_keywords.data)
    assert by_object.data["x"].tolist() == [1.5] and by_object.info.guessed == ["encoding"]
    with pytest.raises(TypeError, match="not both"):
        read_table(path, sep=";", options=options)


def test_bad_separator_or_decimal_argument(tmp_path):
    path = write(tmp_path, "a.csv", "a,b\n1,2\n")
    with pytest.raises(InputError, match="separator must be one character"):
        read_table(path, sep=";;")
    with pytest.raises(InputError, match="cannot both be a comma"):
        read_table(path, sep=",", decimal=",")


# --------------------------------------------------------------------------- progress


def test_progress_is_reported_and_cancel_stops_without_a_result(tmp_path, monkeypatch):
    monkeypatch.setattr(delimited_module, "CHUNK_ROWS", 100)
    path = write(tmp_path, "p.csv", "a;b\n" + "".join(f"{i};{i}\n" for i in range(1000)))
    seen: list[float] = []
    result = read_table(path, task=Task(lambda f, m: seen.append(f)))
    assert result.info.n_rows == 1000
    assert seen[-1] == 1.0 and seen == sorted(seen) and len(seen) >= 10

    calls = {"n": 0}

    def cancel_after_three() -> bool:
        calls["n"] += 1
        return calls["n"] > 3

    with pytest.raises(CancelledError):
        read_table(path, task=Task(cancel=cancel_after_three))


# --------------------------------------------------------------------------- line ends, blank rows


def test_carriage_return_line_ends_are_line_ends(tmp_path):
    path = write(tmp_path, "mac.csv", b"age,city\r30,Lyon\r41,Metz\r")
    result = read_table(path)
    assert result.data.to_dict("list") == {"age": [30, 41], "city": ["Lyon", "Metz"]}
    assert any("carriage return only" in n for n in result.info.notes)


@pytest.mark.parametrize("line_end", ["\n", "\r\n"])
def test_bare_carriage_returns_inside_values_are_kept(tmp_path, line_end):
    text = line_end.join(["id,note", "1,a\rb", '2,"c\rd"', "3,e"]) + line_end
    result = read_table(write(tmp_path, "cr.csv", text))
    assert result.data["id"].tolist() == [1, 2, 3]
    assert result.data["note"].tolist() == ["a\rb", "c\rd", "e"]
    assert any("2 carriage returns inside values were kept" in n for n in result.info.notes)


def test_rows_without_any_value_are_dropped_and_counted(tmp_path):
    text = "a,b,c\n1,x,2\n,,\n , ,\n3,y,4\n,,\n"
    result = read_table(write(tmp_path, "blank.csv", text))
    assert result.data.to_dict("list") == {"a": [1, 3], "b": ["x", "y"], "c": [2, 4]}
    assert result.data["a"].dtype == np.int64  # the blank rows do not make it float
    assert result.info.blank_rows == 3 and result.info.n_rows == 2
    assert "3 blank rows (no value in any column) were left out." in result.info.notes


def test_a_row_with_one_value_is_a_record(tmp_path):
    result = read_table(write(tmp_path, "one.csv", "a,b\n1,2\n,5\n"))
    assert result.data["b"].tolist() == [2, 5] and result.info.blank_rows == 0


def test_first_data_row_longer_than_the_header_is_an_error_not_a_loss(tmp_path):
    with pytest.raises(InputError, match=r"long\.csv, line 2: 3 fields where the header has 2"):
        read_table(write(tmp_path, "long.csv", "a,b\n1,2,3\n4,5\n"))


def test_a_field_longer_than_the_csv_module_allows(tmp_path):
    big = "x" * 200_000
    result = read_table(write(tmp_path, "wide.csv", f'a,"{big}"\n1,"{big}"\n'))
    assert result.data.shape == (1, 2)
    assert result.data["a"].tolist() == [1] and result.data.iloc[0, 1] == big


def test_utf16_that_is_not_valid_utf16_names_the_encoding(tmp_path):
    path = write(tmp_path, "bad16.csv", codecs.BOM_UTF16_LE + b"a\x00,\x00b\x00\n\x00\x00\xd8")
    with pytest.raises(InputError, match=r"bad16\.csv, line \d+: the text looks like UTF-16"):
        read_table(path)
