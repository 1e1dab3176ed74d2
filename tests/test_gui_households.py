"""The tag page with a survey file: the household and weight roles, the household-level QIs."""

from __future__ import annotations

import pytest

from engine.roles import Role
from tests.survey_data import household_survey
from tests.test_gui_wizard import open_file, tag

pytestmark = pytest.mark.gui

SURVEY_ROLES = {
    "household": Role.HOUSEHOLD,
    "weight": Role.WEIGHT,
    "commune": Role.QI,
    "age": Role.QI,
    "sex": Role.QI,
    "illness_days": Role.CONFIDENTIAL,
}


def test_tag_page_takes_household_and_weight_and_shows_household_level_qis(
    qtbot, window, tmp_path
) -> None:
    from gui.state import role_help

    path = tmp_path / "survey.csv"
    household_survey(60, seed=1).to_csv(path, index=False)
    open_file(qtbot, window, path)
    tag(window, SURVEY_ROLES)
    session, page = window.session, window.wizard.tag_page
    assert session.params.household == "household" and session.params.weight == "weight"
    assert session.role("household") == Role.HOUSEHOLD
    assert "re-coded" in role_help(Role.HOUSEHOLD) and "> 0" in role_help(Role.WEIGHT)
    assert page.households.isVisibleTo(page)
    assert "60 households" in page.households.text()
    assert "commune" in page.households.text() and "age" not in page.households.text()
    assert "household (released re-coded)" in page.summary.text()
    # one weight column: tagging another one moves the role
    session.set_role("hh_size", Role.WEIGHT)
    assert session.params.weight == "hh_size" and session.role("weight") is None
    # a declared household-level QI
    page.level.setText("sex")
    page.level.editingFinished.emit()
    assert session.params.household_level == ("sex",)
    assert "sex" in page.households.text()
    # without a household column the declared ones go, and the line hides
    session.set_role("household", None)
    page.initializePage()
    assert session.params.household_level == () and not page.households.isVisibleTo(page)
