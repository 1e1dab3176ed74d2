"""The keyboard and the eye: Esc cancels from any control, each page starts on its first
input, and a selected cell reads at 4.5:1 or more in light and dark."""

from __future__ import annotations

import threading

import pandas as pd
import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QApplication, QTableView

from gui import theme
from gui.table_model import DataFrameModel
from gui.wizard import PAGE_EXPORT, PAGE_PREVIEW, PAGE_PRIVACY, PAGE_TAG
from tests.test_gui_wizard import SAMPLE_ROLES, idle, open_file, settle_privacy, tag

pytestmark = pytest.mark.gui


def long_task(window) -> threading.Event:
    """Start a task on the window's runner that runs until it is cancelled."""
    started = threading.Event()

    def work(task):
        started.set()
        while True:
            task.step(0.5, "waiting")
            threading.Event().wait(0.01)

    window.runner.start(work, title="a long task")
    started.wait(5)
    return started


def test_escape_cancels_the_running_task_from_any_control(qtbot, window, sample_workbook):
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)
    open_file(qtbot, window, sample_workbook)
    tag(window, SAMPLE_ROLES)
    wizard = window.wizard
    wizard.next()
    settle_privacy(qtbot, window)
    page = wizard.privacy_page
    controls = [
        page.t,  # a spin box (its text field)
        page.bounds,  # a text field
        page.seed,
        page.by_t,  # a radio button
        page.insensitive.parent(),  # the page's form (no control: the page itself)
        page.details_toggle,  # a tool button
        wizard.tag_page.table,  # a table (a page not shown: its window is the same)
    ]
    page.details_toggle.setChecked(True)
    controls.append(page.details)  # a text browser
    tried = []
    for control in controls:
        long_task(window)
        assert window.runner.busy
        control.setFocus()
        QTest.keyClick(control, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda: not window.runner.busy, timeout=5000)
        tried.append(type(control).__name__)
    assert window.isVisible(), "Escape closed the app"
    assert len(tried) == len(controls)


def test_each_page_starts_on_its_first_input(qtbot, window, sample_workbook):
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)
    wizard = window.wizard
    qtbot.waitUntil(lambda: QApplication.focusWidget() is wizard.import_page.open_button)
    open_file(qtbot, window, sample_workbook)
    tag(window, SAMPLE_ROLES)  # goes to the tag page
    qtbot.waitUntil(lambda: QApplication.focusWidget() is wizard.tag_page.table)
    expected = {
        PAGE_PRIVACY: wizard.privacy_page.t,
        PAGE_PREVIEW: wizard.preview_page.k,
        PAGE_EXPORT: wizard.export_page.format,
    }
    for page_id, first in expected.items():
        wizard.next()
        settle_privacy(qtbot, window)
        idle(qtbot, window)
        assert wizard.currentId() == page_id
        qtbot.waitUntil(lambda first=first: QApplication.focusWidget() is first, timeout=3000)
    wizard.back()  # going back, too
    qtbot.waitUntil(lambda: QApplication.focusWidget() is wizard.preview_page.k, timeout=3000)
    while wizard.currentId() != PAGE_TAG:
        wizard.back()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is wizard.tag_page.table, timeout=3000)


def selected_cell_contrast(qtbot, focused: bool) -> float:
    """The contrast of a selected cell's text on its background, measured on its pixels."""
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(DataFrameModel())
    view.model().set_frame(pd.DataFrame({"name": ["WWWWWWWW", "b"], "n": [1, 2]}))
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.resize(400, 200)
    view.setColumnWidth(0, 200)
    view.show()
    qtbot.waitExposed(view)
    index = view.model().index(0, 0)
    view.selectionModel().select(
        index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.Rows
    )
    if focused:
        view.setFocus()
        qtbot.waitUntil(view.hasFocus)
    else:
        view.clearFocus()
    image = view.viewport().grab().toImage()
    rect = view.visualRect(index)
    # the background as painted; the text in the palette's colour for selected text (its
    # glyphs' edges are blended with the background, as every text's are)
    background = QColor(image.pixel(rect.left() + 2, rect.center().y()))
    text = view.palette().color(QPalette.ColorRole.HighlightedText)
    pixels = [
        QColor(image.pixel(x, y))
        for x in range(rect.left() + 1, rect.right() - 1)
        for y in range(rect.top() + 1, rect.bottom() - 1)
    ]
    strongest = max(pixels, key=lambda p: theme.contrast_ratio(background, p))
    # the text drawn is the selected text's colour, not the unselected one
    assert theme.contrast_ratio(strongest, text) < theme.contrast_ratio(strongest, background)
    return theme.contrast_ratio(background, text)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_selected_cell_reads_at_4_5_to_1(qtbot, qapp, scheme):
    saved = QApplication.palette()
    try:
        theme.apply_color_scheme(qapp, scheme)
        assert theme.is_dark(QApplication.palette()) == (scheme == "dark")
        for focused in (True, False):
            contrast = selected_cell_contrast(qtbot, focused)
            assert contrast >= theme.SELECTION_CONTRAST, (scheme, focused, contrast)
    finally:
        qapp.styleHints().unsetColorScheme()
        qapp.setPalette(saved)
