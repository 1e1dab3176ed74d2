"""The tag page: each column's share of empty cells, the order proposed for ordered
categories, and integer codes typed as categories, each with its reason."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import QCoreApplication

from engine import ColumnType
from gui import i18n
from gui.pages.tag_page import COL_EMPTY, COL_MISSING, COL_NOTE, COL_TYPE, type_label

pytestmark = pytest.mark.gui

LEVELS = ["Primary", "High school", "Bachelor's degree", "Doctorate"]


@pytest.fixture
def census(tmp_path):
    n = 1000
    rng = np.random.default_rng(5)
    income = rng.integers(0, 90_000, n).astype(float)
    income[:386] = np.nan  # 38.6 % empty
    frame = pd.DataFrame(
        {
            "commune": rng.integers(100, 160, n),
            "age": rng.integers(16, 90, n),
            "education": rng.choice(LEVELS, n),
            "income": income,
            "answer": rng.choice(["yes", "no", "-9"], n),
        }
    )
    path = tmp_path / "census.csv"
    frame.to_csv(path, index=False)
    return path


def tag_page(qtbot, window, path):
    window.wizard.import_page.open_path(path)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=30_000)
    window.wizard.next()
    page = window.wizard.tag_page
    rows = {name: row for row, name in enumerate(window.session.columns)}
    return page.model, rows


def test_the_share_of_empty_cells_in_the_readers_conventions(qtbot, window, census):
    model, rows = tag_page(qtbot, window, census)
    assert model.index(rows["income"], COL_EMPTY).data() == "38.6 %"
    assert model.index(rows["age"], COL_EMPTY).data() == "0 %"
    tip = model.index(rows["income"], COL_EMPTY).data(3)  # the tooltip
    assert tip == "386 of 1,000 cells are empty (38.6 %)"
    # a declared missing code empties its cells
    assert model.setData(model.index(rows["answer"], COL_MISSING), "-9")
    share = model.index(rows["answer"], COL_EMPTY).data()
    empty = pd.read_csv(census)["answer"].astype(str).eq("-9").mean()
    assert share == f"{100 * empty:.1f} %".replace(".0 %", " %")
    app = QCoreApplication.instance()
    try:
        i18n.install(app, "es")
        assert model.index(rows["income"], COL_EMPTY).data() == "38,6\u00a0%"
    finally:
        i18n.install(app, "en")


def test_levels_and_codes_are_typed_with_their_reason(qtbot, window, census):
    model, rows = tag_page(qtbot, window, census)
    session = window.session
    assert session.column_type("education") == ColumnType.ORDINAL
    note = model.index(rows["education"], COL_NOTE).data()
    assert " < ".join(LEVELS) in note
    assert session.column_type("commune") == ColumnType.NOMINAL
    assert model.index(rows["commune"], COL_TYPE).data().startswith(type_label(ColumnType.NOMINAL))
    note = model.index(rows["commune"], COL_NOTE).data()
    assert "60 different values" in note and "'commune'" in note
    assert session.column_type("age") == ColumnType.NUMERIC
