"""The app on the users' platforms: dark mode, Finder's "open", the keyboard, files and folders,
wide files.  Each test drives the window as a user (or the operating system) would."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import QStandardPaths, Qt
from PySide6.QtGui import QFileOpenEvent, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox, QTableView, QWidget, QWizard

from engine import CancelledError
from engine.io import ImportInfo
from engine.progress import NO_TASK
from engine.report import plots
from engine.roles import Role
from gui import settings
from gui.theme import apply_color_scheme, contrast_ratio, is_dark, luminance
from gui.wizard import PAGE_EXPORT, PAGE_IMPORT, PAGE_PRIVACY, PAGE_TAG, MainWindow
from tests.test_gui_wizard import (
    SAMPLE_ROLES,
    choose,
    export,
    idle,
    next_enabled,
    open_file,
    preview,
    previewed,
    settle_privacy,
    tag,
)

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def dark(qapp):
    """The app in the dark colour scheme for one test (the palette is restored after)."""
    saved = QApplication.palette()
    apply_color_scheme(qapp, "dark")
    yield qapp
    qapp.styleHints().unsetColorScheme()
    qapp.setPalette(saved)


# --- dark mode ------------------------------------------------------------------------------

COLOUR_PATTERNS = [
    re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?\b"),  # #rgb, #rrggbb
    re.compile(r"QColor\(\s*(?:\d|['\"])"),  # QColor(0, …), QColor("…")
    re.compile(
        r"\bQt\.(?:GlobalColor\.)?(?:black|white|gray|grey|darkGray|lightGray|red|green|blue)\b"
    ),
    re.compile(r"\brgba?\(\s*\d"),  # rgb(…) in a style sheet
]


def test_no_hard_coded_colours_in_the_app() -> None:
    """Every colour of the app is a palette role or derived from one (dark mode reads well)."""
    files = [*sorted((ROOT / "gui").rglob("*.py")), ROOT / "resources" / "style.qss"]
    hits = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if any(p.search(line) for p in COLOUR_PATTERNS):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not hits, "\n".join(hits)


def text_contrast(widget: QWidget) -> tuple[float, float]:
    """(contrast of the text against the background, background luminance), read off the
    widget's rendering: the background is the commonest colour, the text the one that
    stands out most from it."""
    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    counts: dict[int, int] = {}
    for y in range(image.height()):
        for x in range(image.width()):
            pixel = image.pixel(x, y)
            counts[pixel] = counts.get(pixel, 0) + 1
    from PySide6.QtGui import QColor

    background = QColor.fromRgb(max(counts, key=counts.get))
    best = max((contrast_ratio(QColor.fromRgb(p), background), p) for p in counts)
    return best[0], luminance(background)


def test_dark_scheme_pages_keep_their_text_readable(qtbot, dark, sample_workbook) -> None:
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1100, 760)
    win.show()
    assert is_dark(win.palette())
    open_file(qtbot, win, sample_workbook)
    tag(win, SAMPLE_ROLES)
    page = win.wizard.tag_page
    for widget in (page.summary, page.table.viewport()):
        contrast, background = text_contrast(widget)
        assert background < 0.2, "the page is not dark"
        assert contrast >= 4.5, f"{widget!r}: contrast {contrast:.2f}"
    choose(qtbot, win, t=2.0, k=5)
    privacy = win.wizard.privacy_page
    for widget in (privacy.summary, privacy.details.viewport()):
        contrast, background = text_contrast(widget)
        assert background < 0.2
        assert contrast >= 4.5, f"{widget!r}: contrast {contrast:.2f}"
    # the muted hints too (a hint is not a warning; it must still be readable)
    hint = win.wizard.import_page.info
    assert not hint.warning
    win.wizard.restart()
    contrast, _ = text_contrast(hint)
    assert contrast >= 4.5, f"muted hint: contrast {contrast:.2f}"


def test_previews_follow_the_scheme_and_files_stay_white(qtbot, dark, sample_workbook) -> None:
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1100, 760)
    win.show()
    open_file(qtbot, win, sample_workbook)
    tag(win, SAMPLE_ROLES)
    choose(qtbot, win, t=2.0, k=5)
    preview(qtbot, win)
    shown = win.wizard.preview_page.views["buckets"].figure
    assert luminance_of(shown.get_facecolor()) < 0.2  # drawn on the dark window
    release = win.session.release
    for figure in (plots.bucket_histogram(release), plots.class_size_histogram(release)):
        assert figure.get_facecolor()[:3] == (1.0, 1.0, 1.0)  # what the report saves


def luminance_of(rgba) -> float:
    from PySide6.QtGui import QColor

    return luminance(QColor.fromRgbF(*rgba[:3]))


# --- the system's "open this file" ------------------------------------------------------------


def test_finder_open_event_opens_a_table(qtbot, window, sample_workbook) -> None:
    QApplication.sendEvent(QApplication.instance(), QFileOpenEvent(str(sample_workbook)))
    idle(qtbot, window)
    assert window.session.n_rows == 400
    assert window.wizard.currentId() == PAGE_IMPORT


def test_finder_open_event_opens_a_project(qtbot, window, sample_workbook, tmp_path) -> None:
    from gui import project_io

    open_file(qtbot, window, sample_workbook)
    tag(window, SAMPLE_ROLES)
    window.session.update(k=7)
    project = project_io.save_project_file(window, window.session, tmp_path / "survey.json")
    assert project is not None and project.is_file()
    other = MainWindow()
    qtbot.addWidget(other)
    other.show()
    QApplication.sendEvent(QApplication.instance(), QFileOpenEvent(str(project)))
    qtbot.waitUntil(lambda: other.session.data is not None, timeout=60_000)
    idle(qtbot, other)
    assert other.session.params == window.session.params
    assert other.session.role("income") == Role.CONFIDENTIAL and other.session.params.k == 7


def test_a_json_on_the_command_line_opens_as_a_project(qtbot, monkeypatch, tmp_path) -> None:
    import logging
    import sys

    from gui import app as app_module

    opened: list[Path] = []
    monkeypatch.setattr(MainWindow, "open_any", lambda self, path: opened.append(Path(path)))
    monkeypatch.setattr(type(QApplication.instance()), "exec", lambda self: 0)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    monkeypatch.setattr("gui.errors._log_file", None)  # main() sets up logging for itself
    handlers = list(logging.getLogger().handlers)
    try:
        assert app_module.main([str(tmp_path / "survey.json")]) == 0
    finally:
        for handler in logging.getLogger().handlers[len(handlers) :]:
            logging.getLogger().removeHandler(handler)
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, MainWindow):
                widget.close()
    assert opened == [tmp_path / "survey.json"]


def test_open_any_sends_json_to_projects_and_tables_to_the_import(window, monkeypatch) -> None:
    calls = []
    monkeypatch.setattr(window, "open_project", lambda path: calls.append(("project", path)))
    monkeypatch.setattr(window, "open_file", lambda path: calls.append(("table", path)))
    window.open_any(Path("a/b.JSON"))
    window.open_any(Path("a/b.xlsx"))
    assert calls == [("project", Path("a/b.JSON")), ("table", Path("a/b.xlsx"))]


# --- the keyboard ------------------------------------------------------------------------------


def test_ctrl_o_opens_a_file_on_the_import_page(qtbot, window, monkeypatch, sample_workbook):
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(sample_workbook), ""))
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)
    assert window.wizard.currentId() == PAGE_IMPORT
    QTest.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    idle(qtbot, window)
    assert window.session.n_rows == 400, "Ctrl+O did nothing (an ambiguous shortcut?)"


def tab_until(qtbot, start: QWidget, target: QWidget, presses: int = 25) -> bool:
    """Press Tab from ``start`` until ``target`` has the focus; True when it got there."""
    start.setFocus()
    qtbot.waitUntil(start.hasFocus, timeout=2000)
    for _ in range(presses):
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        if QApplication.focusWidget() is target:
            return True
    return False


def test_tab_leaves_the_tables(qtbot, window, sample_workbook) -> None:
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)
    open_file(qtbot, window, sample_workbook)
    wizard = window.wizard
    next_button = wizard.button(QWizard.WizardButton.NextButton)
    assert tab_until(qtbot, wizard.import_page.table, next_button)
    tag(window, SAMPLE_ROLES)  # to the tag page; Next is enabled once tagged
    assert wizard.currentId() == PAGE_TAG
    page = wizard.tag_page
    assert tab_until(qtbot, page.table, page.missing)
    assert tab_until(qtbot, page.table, next_button)


def test_enter_in_save_as_exports_and_keeps_the_window(qtbot, window, sample_workbook, tmp_path):
    previewed(qtbot, window, sample_workbook)
    export(qtbot, window, tmp_path / "first.xlsx", report=False)
    page = window.wizard.export_page
    finish = window.wizard.button(QWizard.WizardButton.FinishButton)
    assert finish.isEnabled() and finish.isVisible()
    page.path.setText(str(tmp_path / "second.xlsx"))
    qtbot.waitUntil(page.export_button.isEnabled, timeout=5000)
    page.path.setFocus()
    QTest.keyClick(page.path, Qt.Key.Key_Return)
    idle(qtbot, window)
    assert (tmp_path / "second.xlsx").is_file(), "Enter did not export"
    assert window.isVisible(), "Enter in Save as closed the app"


def slow_plan(data, params, task=NO_TASK):
    """A plan that takes until it is cancelled (the window closes meanwhile)."""
    while not task.cancelled():
        time.sleep(0.01)
    raise CancelledError()


def test_closing_while_the_privacy_page_plans(qtbot, monkeypatch, sample_workbook) -> None:
    """Closing the window while the plan runs waits for its thread (Qt would abort)."""
    monkeypatch.setenv("TCLOSE_ENGINE_PROCESS", "0")  # the plan runs on the page's thread
    monkeypatch.setattr("gui.pages.privacy_page.make_plan", slow_plan)
    win = MainWindow()
    win.resize(1100, 760)
    win.show()
    open_file(qtbot, win, sample_workbook)
    tag(win, SAMPLE_ROLES)
    win.wizard.next()
    assert win.wizard.currentId() == PAGE_PRIVACY
    page = win.wizard.privacy_page
    qtbot.waitUntil(lambda: page._planner.busy, timeout=5000)
    win.close()
    assert page._planner.wait(0), "the plan's thread still runs after the window closed"
    for _ in range(5):
        QApplication.processEvents()
    assert not page._planner.busy  # no new plan was started by the cancellation
    win.deleteLater()
    QApplication.processEvents()


# --- files and folders -----------------------------------------------------------------------


def test_export_goes_to_documents_not_the_install_folder(qtbot, window, sample_workbook):
    import resources

    documents = Path(
        QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    )
    documents.mkdir(parents=True, exist_ok=True)
    previewed(qtbot, window, sample_workbook)
    window.wizard.next()
    assert window.wizard.currentId() == PAGE_EXPORT
    target = Path(window.wizard.export_page.path.text())
    assert target.parent == documents
    assert resources.ROOT not in target.parents and resources.ROOT.parent != target.parent


def foreign_json(path: Path) -> Path:
    """A JSON file some other program wrote, where tclose is about to write one of its own."""
    path.write_text('{"survey": "not tclose"}', encoding="utf-8")
    return path


def answer_cancel_then_yes(monkeypatch) -> None:
    """The user's answers to the next two "replace it?" questions: Cancel, then Yes."""
    answers = iter([QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Yes])
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: next(answers))


def test_export_asks_before_replacing_a_json_it_did_not_write(
    qtbot, window, monkeypatch, sample_workbook, tmp_path
) -> None:
    foreign = foreign_json(tmp_path / "release.json")
    previewed(qtbot, window, sample_workbook)
    window.wizard.next()
    page = window.wizard.export_page
    page.format.setCurrentIndex(page.format.findData(".csv"))
    page.report.setChecked(False)
    page.path.setText(str(tmp_path / "release.csv"))
    qtbot.waitUntil(lambda: bool(page.problem.text()), timeout=5000)
    assert "did not write" in page.problem.text()
    assert page.export_button.isEnabled()  # the user may choose to replace it
    answer_cancel_then_yes(monkeypatch)
    page.export()
    idle(qtbot, window)
    assert not (tmp_path / "release.csv").exists() and "not tclose" in foreign.read_text(
        encoding="utf-8"
    )
    page.export()
    idle(qtbot, window)
    assert (tmp_path / "release.csv").is_file()
    assert json.loads(foreign.read_text(encoding="utf-8"))["software"].startswith("tclose")


def test_save_project_asks_before_replacing_a_json_it_did_not_write(
    qtbot, window, monkeypatch, sample_workbook, tmp_path
) -> None:
    from gui import project_io

    foreign = foreign_json(tmp_path / "survey.json")
    open_file(qtbot, window, sample_workbook)
    tag(window, SAMPLE_ROLES)
    answer_cancel_then_yes(monkeypatch)
    assert project_io.save_project_file(window, window.session, foreign) is None
    assert "not tclose" in foreign.read_text(encoding="utf-8")
    assert project_io.save_project_file(window, window.session, foreign) == foreign
    assert json.loads(foreign.read_text(encoding="utf-8"))["format"] == "tclose-project"


# --- wide files ---------------------------------------------------------------------------------


def test_a_wide_table_sizes_only_the_columns_in_view(qtbot, window, monkeypatch) -> None:
    """200 × 10,000: the import page measures the columns it shows, not all of them."""
    from gui.state import analyse_columns

    n_columns = 10_000
    rng = np.random.default_rng(0)
    data = pd.DataFrame(
        rng.integers(0, 100, (200, n_columns)), columns=[f"v{i}" for i in range(n_columns)]
    )
    guesses, suggestions = analyse_columns(data.iloc[:, :1])
    analysis = (
        {c: guesses["v0"] for c in data.columns},
        {c: suggestions["v0"] for c in data.columns},
    )
    page = window.wizard.import_page
    measured: list[int] = []
    original = page.table.resizeColumnToContents
    monkeypatch.setattr(
        page.table, "resizeColumnToContents", lambda c: (measured.append(c), original(c))
    )

    def refuse(*_args):
        raise AssertionError("every column was measured")

    monkeypatch.setattr(page.table, "resizeColumnsToContents", refuse)
    info = ImportInfo(Path("wide.csv"), "csv", n_rows=200, n_columns=n_columns)
    window.session.set_data(data, info, analysis)
    page.show_session()
    for _ in range(5):
        QApplication.processEvents()
    visible = page.table.viewport().width() // 40 + 2  # columns are at least ~40 px wide
    assert 0 < len(measured) <= visible
    assert len(set(measured)) == len(measured), "a column was measured twice"
    first = set(measured)
    page.table.horizontalScrollBar().setValue(page.table.horizontalScrollBar().maximum())
    for _ in range(5):
        QApplication.processEvents()
    assert n_columns - 1 in measured, "the columns scrolled into view were not sized"
    assert len(measured) <= 2 * visible and first < set(measured)
    window.wizard.next()  # the tag page lists 10,000 columns without measuring all rows
    assert window.wizard.currentId() == PAGE_TAG
    assert window.wizard.tag_page.model.rowCount() == n_columns


def test_tab_order_reaches_next_from_the_privacy_page(qtbot, window, sample_workbook) -> None:
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)
    open_file(qtbot, window, sample_workbook)
    tag(window, SAMPLE_ROLES)
    choose(qtbot, window, t=2.0, k=5)
    settle_privacy(qtbot, window)
    assert next_enabled(window)
    page = window.wizard.privacy_page
    assert tab_until(qtbot, page.k, window.wizard.button(QWizard.WizardButton.NextButton), 40)


def test_import_table_is_a_table_view(window) -> None:
    assert isinstance(window.wizard.import_page.table, QTableView)
    assert not window.wizard.import_page.table.tabKeyNavigation()
    assert not window.wizard.tag_page.table.tabKeyNavigation()
    assert settings.export_folder().is_dir()
