"""The import and tag pages on agency workbooks: notes shown, the decimal mark for workbooks,
identifiers suggested only for ID-like columns and a warning when one becomes a QI."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from engine.roles import Role
from gui.state import named_like_an_identifier, suggest_role
from gui.wizard import PAGE_TAG
from tests.hostile import write_book
from tests.test_gui_wizard import idle, next_enabled, open_file, tag
from tests.test_io_workbooks import COVER, table

pytestmark = pytest.mark.gui


def shown_text(rich: str) -> str:
    """What a label with rich text shows (tags dropped, entities decoded)."""
    import html
    import re

    return html.unescape(re.sub(r"<[^>]+>", " ", rich))


def test_the_reader_s_notes_are_shown(qtbot, window, tmp_path) -> None:
    rows = [*table(40), [], ["Source: statistical office, 2024."]]
    path = write_book(tmp_path / "agency.xlsx", {"Read me": COVER, "Data": rows})
    open_file(qtbot, window, path)
    page = window.wizard.import_page
    text = shown_text(page.info.text())
    assert "Sheet 'Data' was read" in text and "'Read me'" in text  # the sheet and the others
    assert "footnotes" in text and "Source: statistical office" in text
    assert page.sheet.isEnabled() and page.sheet.currentText() == "Data"
    assert [page.sheet.itemText(i) for i in range(page.sheet.count())] == ["Read me", "Data"]


def test_each_renamed_column_is_said_once(qtbot, window, tmp_path) -> None:
    """A blank and a repeated header: the reader's note on each, and nothing said twice."""
    path = tmp_path / "renamed.csv"
    rows = ["age,,age,income"] + [f"{20 + i},{i},{30 + i},{1000 + i}" for i in range(30)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    open_file(qtbot, window, path)
    text = shown_text(window.wizard.import_page.info.text())
    assert text.count("column_2") == 1 and text.count("age_2") == 1, text
    assert "Columns renamed" not in text


def test_the_decimal_mark_applies_to_workbooks(qtbot, window, tmp_path) -> None:
    path = write_book(tmp_path / "amb.xlsx", {"S": [["x"], *[[f"{i}.500"] for i in range(1, 30)]]})
    open_file(qtbot, window, path)
    page = window.wizard.import_page
    assert page.decimal.isEnabled(), "the decimal mark is offered for workbooks"
    assert not page.separator.isEnabled() and not page.encoding.isEnabled()
    assert window.session.data["x"].iloc[0] == 1.5
    page.decimal.setCurrentIndex(page.decimal.findData(","))
    page.read_again()
    idle(qtbot, window)
    assert window.session.data["x"].iloc[0] == 1500


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("respondent_id", True),
        ("PersonID", True),
        ("caseid", True),
        ("Case No", True),
        ("e-mail", True),
        ("nombre", True),
        ("numéro", False),  # a plain "number" of something is not a name for an identifier
        ("income", False),
        ("weekly wage", False),
        ("valid", True),  # ends in "id": near-unique whole numbers so named are suggested
    ],
)
def test_identifier_names(name: str, expected: bool) -> None:
    assert named_like_an_identifier(name) is expected


def test_only_id_like_columns_are_suggested_as_identifiers() -> None:
    rng = np.random.default_rng(1)
    n = 500
    income = pd.Series(rng.lognormal(10, 1, n).round(2), name="income")  # 100 % distinct
    assert len(income.unique()) == n
    suggestion = suggest_role(income)
    assert suggestion.role is None and not suggestion.id_like
    ids = pd.Series(rng.permutation(n) + 1000, name="person_id")
    assert suggest_role(ids).role == Role.IDENTIFIER
    unnamed = pd.Series(rng.permutation(n), name="serial_x")
    assert suggest_role(unnamed).role == Role.IDENTIFIER
    counts = pd.Series(rng.permutation(n), name="hours_worked")  # near-unique whole numbers
    assert suggest_role(counts).role is None and suggest_role(counts).id_like
    names = pd.Series([f"Person {i}" for i in range(n)], name="name")
    assert suggest_role(names).role == Role.IDENTIFIER
    few = pd.Series(range(10), name="id")  # too few values to tell
    assert suggest_role(few).role is None


def test_an_id_like_quasi_identifier_draws_a_warning(qtbot, window, tmp_path) -> None:
    rng = np.random.default_rng(2)
    n = 200
    frame = pd.DataFrame(
        {
            "person_id": rng.permutation(n) + 1,
            "age": rng.integers(18, 80, n),
            "income": rng.lognormal(10, 1, n).round(2),
        }
    )
    path = tmp_path / "people.csv"
    frame.to_csv(path, index=False)
    open_file(qtbot, window, path)
    session = window.session
    assert session.role("person_id") == Role.IDENTIFIER
    assert session.role("income") is None, "a continuous column is never pre-tagged"
    from gui.pages.tag_page import COL_NOTE, COL_ROLE
    from gui.state import ROLE_LABELS

    window.wizard.next()
    assert window.wizard.currentId() == PAGE_TAG
    page = window.wizard.tag_page
    roles = {"person_id": Role.QI, "age": Role.QI, "income": Role.CONFIDENTIAL}
    for row, name in enumerate(session.columns):
        assert page.model.setData(page.model.index(row, COL_ROLE), ROLE_LABELS[roles[name]])
    assert page.warning.isVisible()
    assert page.warning.text().startswith("person_id: nearly every value is different")
    # the engine would refuse it: Next stays disabled, with the engine's reason
    assert not page.isComplete() and not next_enabled(window)
    assert "'person_id' looks like an identifier" in page.reason.text()
    assert "Tag it as an identifier" in page.reason.text()

    row = list(session.columns).index("person_id")
    assert "Looks like an identifier" in page.model.index(row, COL_NOTE).data()
    tag_again = {"person_id": Role.IDENTIFIER, "age": Role.QI, "income": Role.CONFIDENTIAL}
    window.wizard.back()
    tag(window, tag_again)
    assert not page.warning.isVisible() and page.isComplete()


def test_the_open_dialog_offers_every_table_then_each_format(window, monkeypatch) -> None:
    from PySide6.QtWidgets import QFileDialog

    from engine.io.formats import FORMATS, open_patterns

    asked: list[str] = []
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", lambda *a, **k: (asked.append(a[3]), ("", ""))[1]
    )
    window.wizard.import_page.choose_file()
    filters = asked[0].split(";;")
    # every readable file first (the default), then one filter per format, then anything
    assert filters[0] == f"Tables ({open_patterns()})"
    assert filters[-1] == "All files (*)"
    assert len(filters) == len(FORMATS) + 2
    assert "Excel workbook (*.xlsx)" in filters and "Parquet (*.parquet *.pq *.parq)" in filters
    each = [p for f in filters[1:-1] for p in f[f.index("(") + 1 : -1].split()]
    assert sorted(each) == sorted(open_patterns().split())
    assert window.session.data is None  # cancelled: nothing was opened
