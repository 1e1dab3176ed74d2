"""The export page offers what the engine's format table says (engine.io.formats)."""

from __future__ import annotations

import pytest

from engine.io import formats
from engine.io.formats import FORMATS, FileFormat
from gui.pages.export_page import ExportPage

#: a delimited format the app would export, its description in a JSON file beside it
FAKE_TEXT = FileFormat(
    "Fake text", (".fake", ".fk"), "delimited", writes=True, exported_by_app=True
)
#: a format that keeps its description inside, not delimited
FAKE_BOOK = FileFormat(
    "Fake book", (".fbk",), "workbook", metadata_inside=True, exported_by_app=True
)


def offered(page: ExportPage) -> list[tuple[str, str]]:
    return [(page.format.itemData(i), page.format.itemText(i)) for i in range(page.format.count())]


def test_the_table_as_it_stands(window):
    page = window.wizard.export_page
    assert offered(page) == [
        (".xlsx", "Excel workbook (.xlsx)"),
        (".csv", "CSV text (.csv)"),
        (".sav", "SPSS data (.sav)"),
        (".dta", "Stata data (.dta)"),
    ]
    assert page.format.currentIndex() == 0 and page.suffix == ".xlsx"  # the default
    assert page.format.toolTip() == (
        "Excel workbook keeps the description inside the file; "
        "CSV text puts it in a JSON file beside it; "
        "SPSS data keeps the description inside the file; "
        "Stata data keeps the description inside the file"
    )
    assert not page.separator.isEnabled() and not page.bom.isEnabled()
    page.format.setCurrentIndex(page.format.findData(".csv"))
    assert page.separator.isEnabled() and page.decimal.isEnabled() and page.bom.isEnabled()
    page.path.setText("release.parquet")  # written by the CLI, not offered by the app
    assert page.check_target() == "The file name must end in .xlsx, .csv, .sav or .dta."


@pytest.mark.parametrize("extra", [(FAKE_TEXT,), (FAKE_TEXT, FAKE_BOOK)])
def test_a_format_added_to_the_table_is_offered(window, monkeypatch, extra):
    monkeypatch.setattr(formats, "FORMATS", (*FORMATS, *extra))
    page = ExportPage(window.wizard)  # reads the table when it is made
    assert offered(page) == [
        (".xlsx", "Excel workbook (.xlsx)"),
        (".csv", "CSV text (.csv)"),
        (".sav", "SPSS data (.sav)"),
        (".dta", "Stata data (.dta)"),
        *((f.suffixes[0], f"{f.label} ({f.suffixes[0]})") for f in extra),
    ]
    assert "Fake text puts it in a JSON file beside it" in page.format.toolTip()
    # the CSV options follow the format's reader (delimited text), not its name
    for fmt in [*extra, *FORMATS[:1]]:
        page.format.setCurrentIndex(page.format.findData(fmt.suffixes[0]))
        assert page.file_format == fmt
        assert page.separator.isEnabled() == page.bom.isEnabled() == (fmt.reader == "delimited")
    page.format.setCurrentIndex(page.format.findData(".fake"))
    page.path.setText("release.fake")
    assert "must end in" not in page.check_target()
    page.path.setText("release.fk")  # a release is written with the first name only
    names = ", ".join(f.suffixes[0] for f in extra[:-1])
    expected = f".xlsx, .csv, .sav, .dta{', ' + names if names else ''} or {extra[-1].suffixes[0]}"
    assert page.check_target() == f"The file name must end in {expected}."
    if FAKE_BOOK in extra:
        assert "Fake book keeps the description inside the file" in page.format.toolTip()


def test_one_format_offered(window, monkeypatch):
    table = tuple(f if f.suffixes[0] == ".xlsx" else _not_exported(f) for f in FORMATS)
    monkeypatch.setattr(formats, "FORMATS", table)
    page = ExportPage(window.wizard)
    assert offered(page) == [(".xlsx", "Excel workbook (.xlsx)")]
    page.path.setText("release.csv")
    assert page.check_target() == "The file name must end in .xlsx."


def _not_exported(fmt: FileFormat) -> FileFormat:
    from dataclasses import replace

    return replace(fmt, exported_by_app=False)


@pytest.mark.gui
@pytest.mark.parametrize(
    ("language", "sep", "decimal"), [("en", ",", "."), ("es", ";", ","), ("fr", ";", ",")]
)
def test_the_csv_options_follow_the_language(qtbot, language, sep, decimal):
    """A Spanish or French spreadsheet reads "1,5" as a number and ";" between values."""
    from PySide6.QtCore import QCoreApplication

    from gui import i18n
    from gui.wizard import MainWindow

    app = QCoreApplication.instance()
    try:
        i18n.install(app, language)
        window = MainWindow()
        qtbot.addWidget(window)
        page = window.wizard.export_page
        assert (page.separator.currentData(), page.decimal.currentData()) == (sep, decimal)
    finally:
        i18n.install(app, "en")
