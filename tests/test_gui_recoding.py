"""The tag page's recoding box: a hierarchy read from a file, bands and codes, each written
back as its own field of the parameters, with the engine's words for a bad value."""

from __future__ import annotations

import pytest

from engine.roles import ColumnType, Role
from tests.test_gui_wizard import open_file, tag

pytestmark = pytest.mark.gui


def select(page, column: str) -> None:
    row = list(page.session.columns).index(column)
    page.table.setCurrentIndex(page.model.index(row, 0))


def test_the_recoding_box_writes_each_field(qtbot, window, data_dir, tmp_path):
    survey = tmp_path / "survey.csv"
    import pandas as pd

    pd.read_csv(data_dir / "commune-survey.csv.gz").head(300).to_csv(survey, index=False)
    open_file(qtbot, window, survey)
    tag(window, {"commune": Role.QI, "age": Role.QI, "income": Role.CONFIDENTIAL})
    page, session = window.wizard.tag_page, window.session
    box = page.recoding
    assert not box.bands.isEnabled() or box.column is not None
    select(page, "commune")
    assert box.column == "commune" and "commune" in box.title()
    assert box.bands.accessibleName() == "bands"
    box.load(data_dir / "commune-hierarchy.csv")
    assert session.params.hierarchies["commune"][0] == ("commune", "district", "province")
    # codes with a hierarchy are categories (the type guess already reads commune codes so)
    assert session.column_type("commune") == ColumnType.NOMINAL
    assert "commune → district → province" in box.hierarchy.text()
    assert "96" in box.hierarchy.text() and box.remove.isEnabled()
    select(page, "age")
    box.bands.setText("15:25:65")
    box.bands.editingFinished.emit()
    box.top.setText("90")
    box.top.editingFinished.emit()
    assert session.params.bands == {"age": (15.0, 25.0, 65.0)}
    assert session.params.top_code == {"age": 90.0}
    box.bands.setText("65:15")  # refused with the parameters' words; nothing changes
    box.bands.editingFinished.emit()
    assert box.problem.isVisibleTo(box) and "increasing cut points" in box.problem.text()
    assert session.params.bands == {"age": (15.0, 25.0, 65.0)}
    select(page, "commune")
    box.remove.click()
    assert session.params.hierarchies == {}


def test_a_bad_hierarchy_file_gets_its_sentence(qtbot, window, data_dir, tmp_path):
    survey = tmp_path / "survey.csv"
    import pandas as pd

    pd.read_csv(data_dir / "commune-survey.csv.gz").head(100).to_csv(survey, index=False)
    bad = tmp_path / "bad.csv"
    bad.write_text("commune,district\n1101,11\n1101,12\n", encoding="utf-8")
    open_file(qtbot, window, survey)
    page = window.wizard.tag_page
    select(page, "commune")
    page.recoding.load(bad)
    assert "listed twice" in page.recoding.problem.text()
    assert window.session.params.hierarchies == {}
