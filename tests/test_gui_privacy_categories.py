"""The privacy page's public categories: one field per category column of a noise release.

Randomized response draws from public categories only (the attack review's F1): the page
shows a text field per nominal confidential column when the noise mechanism is chosen, bound
to the session's ``categories`` as the bounds' field is bound to ``bounds``, and Next stays
disabled, with the engine's words, until every such column has them.
"""

from __future__ import annotations

import pytest

from engine import ColumnType, ReleaseParams
from engine.roles import Role
from gui.accessibility import audit
from gui.state import format_categories, parse_categories
from tests import test_gui_wizard as user  # drives the wizard as a user would

pytestmark = pytest.mark.gui

DIAGNOSES = (
    "No condition|Back pain|Hypertension|Asthma|Depression|Type 2 diabetes|Heart disease|Cancer"
)


def noise_on_diagnosis(qtbot, window, sample_workbook):
    """The sample with its diagnosis confidential, on the privacy page with noise at ε = 1."""
    user.open_file(qtbot, window, sample_workbook)
    user.tag(window, {**user.SAMPLE_ROLES, "income": None, "diagnosis": Role.CONFIDENTIAL})
    window.wizard.next()
    page = window.wizard.privacy_page
    page.set_mechanism("laplace")
    page.epsilon.setValue(1.0)
    page.refresh()
    user.settle_privacy(qtbot, window)
    return page


def test_a_category_column_gets_its_field_and_next_waits_for_it(
    qtbot, window, sample_workbook
) -> None:
    page = noise_on_diagnosis(qtbot, window, sample_workbook)
    assert list(page.categories.columns(True)) == ["diagnosis"]
    edit = page.categories.edits["diagnosis"]
    assert edit.isVisibleTo(page) and edit.isEnabled() and page.categories.isVisibleTo(page)
    assert edit.accessibleName() == "Public categories of diagnosis"
    assert not audit(page), audit(page)  # every control the keyboard reaches has a name
    assert "never used" in edit.toolTip() and edit.placeholderText() == "e.g. cold|flu|HIV"
    # without categories the engine refuses, in its words, and Next stays disabled
    assert not user.next_enabled(window)
    assert "needs the column&#x27;s categories declared" in page.feasibility.text()
    # ... shown as HTML: the reader sees the apostrophe, not the entity
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QTextDocument

    assert page.feasibility.textFormat() == Qt.TextFormat.RichText
    shown = QTextDocument()
    shown.setHtml(page.feasibility.text())
    assert "Randomized response on 'diagnosis' needs" in shown.toPlainText()
    # typed as on the command line: written to the session, and Next follows the plan
    edit.setText(DIAGNOSES)
    assert window.session.params.categories == {"diagnosis": tuple(DIAGNOSES.split("|"))}
    page.refresh()
    user.settle_privacy(qtbot, window)
    assert user.next_enabled(window), page.feasibility.text()
    assert "randomized response" in page.feasibility.text()
    # the buckets read no categories: the field goes, the declaration stays (as the bounds do)
    page.set_mechanism("buckets")
    assert not page.categories.isVisibleTo(page) and not edit.isEnabled()
    assert window.session.params.categories == {"diagnosis": tuple(DIAGNOSES.split("|"))}
    page.set_mechanism("laplace")
    assert edit.isVisibleTo(page) and edit.text() == DIAGNOSES


def test_a_text_that_is_no_list_of_categories_is_the_pages_problem(
    qtbot, window, sample_workbook
) -> None:
    page = noise_on_diagnosis(qtbot, window, sample_workbook)
    edit = page.categories.edits["diagnosis"]
    for text, words in (
        ("Asthma", "must be two or more different categories"),
        ("Asthma|Asthma", "names 'Asthma' twice"),
        ("Asthma||Cancer", "a category cannot be empty"),
    ):
        edit.setText(text)
        assert words in page.problem, (text, page.problem)
        assert window.session.params.categories == {}
        page.refresh()
        assert not user.next_enabled(window)
    edit.setText("")  # empty: none declared, no problem of the field's own
    assert not page.problem and window.session.params.categories == {}


def test_the_field_shows_what_the_session_holds(qtbot, window, sample_workbook) -> None:
    """A project or another page changes the categories: the field shows them, written as a
    flag writes them (a category with a "|" in double quotes), and reads them back equal."""
    page = noise_on_diagnosis(qtbot, window, sample_workbook)
    declared = ("Asthma", 'Back "pain"|strain', "Cancer")
    window.session.update(categories={"diagnosis": declared})
    edit = page.categories.edits["diagnosis"]
    assert edit.text() == 'Asthma|"Back ""pain""|strain"|Cancer'
    assert parse_categories("diagnosis", edit.text()) == declared
    assert format_categories(declared) == edit.text()
    # the role changes (as the tag page sets it): a column no longer confidential drops its
    # categories and its field
    window.session.set_role("diagnosis", None)
    assert window.session.params.categories == {}
    assert not page.categories.isVisibleTo(page) and not edit.isEnabled()
    # and a column that is no longer a category column drops them too
    window.session.set_role("diagnosis", Role.CONFIDENTIAL)
    window.session.update(categories={"diagnosis": declared})
    window.session.set_type("diagnosis", ColumnType.NUMERIC)
    assert window.session.params.categories == {}


def test_the_gui_reads_categories_as_the_engine_does() -> None:
    """One reader: the app's text is read by the parameters' own constraint."""
    for text in ("a|b", ' a | "b|c" ', 'x|"y ""z"""'):
        ours = parse_categories("c", text)
        engine = ReleaseParams(
            qi=("q",), confidential=("c",), k=2, epsilon=1.0, mechanism="laplace",
            categories={"c": text},
        ).categories["c"]  # fmt: skip
        assert ours == engine
        assert parse_categories("c", format_categories(ours)) == ours
    assert parse_categories("c", "   ") == ()


def test_value_labels_fill_in_the_categories(qtbot, window, data_dir) -> None:
    """An SPSS file declares region's codes (1 = North … 5 = Centre): tagged confidential,
    the column takes them as its public categories, shown in its field."""
    user.open_file(qtbot, window, data_dir / "labelled-survey.sav")
    user.tag(window, {"age": Role.QI, "sex": Role.QI, "region": Role.CONFIDENTIAL})
    assert window.session.params.categories == {"region": ("1", "2", "3", "4", "5")}
    window.wizard.next()
    page = window.wizard.privacy_page
    page.set_mechanism("laplace")
    page.epsilon.setValue(1.0)
    assert page.categories.edits["region"].text() == "1|2|3|4|5"
    page.refresh()
    user.settle_privacy(qtbot, window)
    assert user.next_enabled(window), page.feasibility.text()
