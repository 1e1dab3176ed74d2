"""Numbers in the reader's conventions: shown, typed and read back, in English, Spanish and
French; the files keep machine-readable numbers."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QLocale

from engine.i18n import LANGUAGES
from engine.text import number as english_number
from gui.numbers import exact, localize, localize_figures, number, parse, parse_whole, percent

pytestmark = pytest.mark.gui

LOCALES = {code: QLocale(code) for code in LANGUAGES}  # the one declared list
NNBSP, NBSP = "\u202f", "\u00a0"


def test_figures_read_the_readers_way() -> None:
    es, fr, en = LOCALES["es"], LOCALES["fr"], LOCALES["en"]
    assert number(1.846, locale=es) == "1,846" and number(1.846, locale=en) == "1.846"
    assert number(11160, locale=es) == "11.160" and number(11160, locale=fr) == f"11{NNBSP}160"
    assert number(2.0, locale=es) == "2"  # not "2,000", not two thousand
    assert percent(0.123, locale=es) == f"12,3{NBSP}%" and percent(0.123, locale=en) == "12.3 %"
    assert number(None, locale=es) == "—" and number(float("inf"), locale=fr) == "∞"
    assert localize("[20,000, 40,000)", es) == "[20,000, 40,000)"  # a released label: as is
    assert localize_figures("90 (22.5 %) → 0.038", es) == f"90 (22,5{NBSP}%) → 0,038"
    # English is exactly what the engine writes
    for value in (0.000123, 1.846, 12_345.678, 2_000_000, -3.5):
        assert number(value, locale=en) == english_number(value)


def test_figures_the_engine_wrote_in_spanish_are_not_read_again_as_english() -> None:
    """In the app the engine speaks the reader's language, so "1,386" is one point three
    (the preview once showed ε = 1386 and t achieved 1935)."""
    from engine.i18n import use_language

    es = LOCALES["es"]
    with use_language("es"):
        assert number(1.386294, locale=es) == "1,386" and number(1.935, locale=es) == "1,935"
        assert number(11160, locale=es) == "11.160" and percent(0.369, locale=es) == f"36,9{NBSP}%"
        assert localize("1,386", es) == "1,386"
        assert localize_figures("ε = 1,386 → 0,5", es) == "ε = 1,386 → 0,5"


def test_given_values_keep_every_digit() -> None:
    es = LOCALES["es"]
    assert exact(2.3456, es) == "2,3456" and exact(0.0005, es) == "0,0005"
    assert exact(99_999.875, es) == "99.999,875" and exact(1_234_567.0, es) == "1.234.567"
    assert exact(2_000_000, es) == "2.000.000" and exact(1e150, es) == "1e+150"
    assert exact(2**64 - 1, es, grouping=False) == "18446744073709551615"


@pytest.mark.parametrize("code", LOCALES)
@settings(max_examples=100, deadline=None)
@given(value=st.floats(allow_nan=False, allow_infinity=False, min_value=-1e20, max_value=1e20))
def test_what_is_shown_reads_back_exactly(code, value) -> None:
    locale = LOCALES[code]
    assert parse(exact(value, locale), locale) == value


@pytest.mark.parametrize("code", LOCALES)
@settings(max_examples=100, deadline=None)
@given(value=st.integers(0, 2**64 - 1))
def test_whole_numbers_read_back_exactly(code, value) -> None:
    locale = LOCALES[code]
    assert parse_whole(exact(value, locale), locale) == value


def test_both_decimal_marks_are_read() -> None:
    es, en = LOCALES["es"], LOCALES["en"]
    assert parse("2,5", es) == parse("2.5", es) == 2.5
    assert parse("1.234.567", es) == parse("1 234 567", es) == 1_234_567
    assert parse("1.500", es) == 1500  # a Spanish reader's thousands separator
    assert parse("1,500", en) == 1500 and parse("2,5", en) == 2.5
    assert parse("1.234,5", en) == parse("1,234.5", es) == 1234.5
    for bad in ("", "abc", "1,2,3", "--1"):
        with pytest.raises(ValueError):
            parse(bad, es)
    with pytest.raises(ValueError):
        parse_whole("2,5", es)


def test_bounds_and_lists_in_a_decimal_comma_language() -> None:
    from gui.state import format_bounds, parse_bounds
    from gui.sweep_dialog import format_numbers, parse_numbers

    saved = QLocale()
    try:
        QLocale.setDefault(LOCALES["es"])
        bounds = {"income": (0.125, 99_999.875), "age": (0.0, 120.0)}
        text = format_bounds(bounds)
        assert text == "income=0,125:99.999,875; age=0:120"
        assert parse_bounds(text) == bounds
        assert parse_bounds("income=0:1,5, age=0:120") == {"income": (0, 1.5), "age": (0, 120)}
        assert format_numbers((1.5, 2.0)) == "1,5; 2"
        assert parse_numbers("1,5; 2; 3", "t") == parse_numbers("1.5, 2, 3", "t") == [1.5, 2, 3]
    finally:
        QLocale.setDefault(saved)


def test_tables_show_the_local_decimal_mark_and_files_keep_the_point(tmp_path) -> None:
    from engine.io import read_table, write_release
    from gui.table_model import DataFrameModel

    frame = pd.DataFrame({"income": [1234.5, 7.25]})
    saved = QLocale()
    try:
        QLocale.setDefault(LOCALES["fr"])
        model = DataFrameModel(frame)
        assert model.data(model.index(0, 0)) == "1234,5"
        target = tmp_path / "release.csv"
        write_release(frame, target, metadata={})
    finally:
        QLocale.setDefault(saved)
    assert "1234.5" in target.read_text(encoding="utf-8-sig")
    assert read_table(target).data["income"].tolist() == [1234.5, 7.25]
