"""A wizard a screen-reader and keyboard user can finish (EN 301 549 clause 11).

The walk goes through every page as a user does (both mechanisms, the details shown, every
preview tab, the export done, the sweep run, the settings and the user guide open) and asks
the accessibility API what it tells a screen reader (:func:`gui.accessibility.audit`): every
control the keyboard reaches has a name, every plot a description and its data as a table.
Then the keyboard: Enter never quits, Escape never quits, and the focus is always visible.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
import shiboken6
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QAccessible, QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QWidget, QWizard

from engine import ReleaseParams, anonymize
from engine.report import plots
from engine.report.sweep import sweep_figure
from gui import theme
from gui.accessibility import audit, controls
from gui.help import GuideWindow
from gui.plot_text import before_after_words, closeness_words, figure_text
from gui.screenshots import show_default, show_noise
from gui.widgets import FigureView
from tests.test_gui_wizard import (
    SAMPLE_ROLES,
    export,
    idle,
    open_file,
    settle_privacy,
    tag,
)

pytestmark = pytest.mark.gui


def problems_of(root: QWidget, where: str) -> list[str]:
    return [f"{where}: {p}" for p in audit(root)]


def test_every_page_is_accessible(qtbot, window, sample_workbook, tmp_path, monkeypatch) -> None:
    """One walk of the wizard, as a keyboard and screen-reader user meets it: every control
    named, every plot described with its data, the focus visible on every control of every
    preview tab, and Enter on every control of the export page after an export harmless."""
    monkeypatch.setattr(
        "gui.pages.export_page.QFileDialog.getSaveFileName", lambda *a, **k: ("", "")
    )
    monkeypatch.setattr("gui.pages.export_page.QDesktopServices.openUrl", lambda url: True)
    said: list[str] = []  # what a screen reader is asked to announce
    monkeypatch.setattr(
        QAccessible, "updateAccessibility", lambda event: said.append(event.message())
    )
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)
    wizard = window.wizard
    found: list[str] = problems_of(window, "start")
    seen: set[int] = set()

    def walk(where: str, root: QWidget = window) -> None:
        found.extend(problems_of(root, where))
        seen.update(id(w) for w, _ in controls(root))

    open_file(qtbot, window, sample_workbook)
    walk("import")
    tag(window, SAMPLE_ROLES)
    walk("tag")
    wizard.next()
    show_noise(wizard.privacy_page)
    settle_privacy(qtbot, window)
    walk("privacy, noise")
    show_default(wizard.privacy_page)
    settle_privacy(qtbot, window)
    walk("privacy, buckets")
    unseen = focus_unseen(window)
    wizard.next()
    idle(qtbot, window, 120_000)
    preview = wizard.preview_page
    preview.details_toggle.setChecked(True)
    for i in range(preview.tabs.count()):
        preview.tabs.setCurrentIndex(i)
        walk(f"preview, tab {preview.tabs.tabText(i)}")
        unseen += focus_unseen(window)
    assert not unseen, "no visible focus:\n" + "\n".join(unseen)
    # every plot says what it shows and holds its numbers
    for view in [*preview.views.values(), preview.before_after]:
        assert view.figure is not None and view.has_table
        assert view.canvas.accessibleDescription() == view.accessibleDescription() != ""
        assert view.table_model.rowCount() > 0
        view.table_button.setChecked(True)
        assert view.table.isVisibleTo(view) and not view.canvas.isVisibleTo(view)
        assert view.table_button.text() == "Show the plot"
        view.table_button.setChecked(False)
    export(qtbot, window, tmp_path / "release.xlsx", report=False)
    walk("export, done")
    # the statuses that change away from the focus were announced
    assert any(m.startswith("sample-survey.xlsx") for m in said), said
    assert any(m.startswith("Verified:") for m in said), said
    assert "Written: release.xlsx, release.ddi.xml" in said, said
    # Enter on every control of the export page, and on Close: the app stays
    page = wizard.export_page
    finish = wizard.button(QWizard.WizardButton.FinishButton)
    assert finish.isVisible() and finish.isEnabled()
    reachable = [w for w, _ in controls(page)]
    assert page.path in reachable and page.report in reachable and page.format in reachable
    enter_everywhere(qtbot, window, [*reachable, finish])
    page.format.setCurrentIndex(page.format.findData(".csv"))  # the CSV options enabled
    enter_everywhere(qtbot, window, [w for w, _ in controls(page)])
    QTest.keyClick(page.report, Qt.Key.Key_Escape)
    assert window.isVisible(), "Escape closed the app"
    window.open_sweep()
    sweep = window.sweep_dialog
    walk("sweep", sweep)
    sweep.levels_edit.setText("2, 3")  # a small grid: two points per curve, two curves
    sweep.k_edit.setText("5, 10")
    sweep.start()
    qtbot.waitUntil(lambda: not sweep.runner.busy, timeout=120_000)
    walk("sweep, run", sweep)
    assert sweep.figure_view.has_table and "k = " in sweep.figure_view.accessibleDescription()
    sweep.reject()
    walk("settings", window.open_settings())
    walk("guide", window.open_guide())
    assert not found, "\n".join(found)
    assert len(seen) > 80, f"only {len(seen)} controls walked"


def test_a_plot_without_its_text_is_a_problem(qtbot) -> None:
    """The audit does fail: a plot shown without words is caught, and an unnamed box."""
    from matplotlib.figure import Figure

    holder = QWidget()
    qtbot.addWidget(holder)
    view = FigureView(holder)
    box = QComboBox(holder)
    box.addItem("a value is not a name")
    view.set_figure(Figure())
    found = [p.what for p in audit(holder)]
    assert "a plot without its data as a table" in found
    assert "a control without an accessible name" in found


def enter_everywhere(qtbot, window, widgets: list[QWidget]) -> None:
    """Press Return and Enter on each of ``widgets``; the window stays open and on its page
    (a window a button opens, such as the user guide, is closed again)."""
    page = window.wizard.currentId()
    for widget in widgets:
        if not (widget.isVisible() and widget.isEnabled()):
            continue
        for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            widget.setFocus(Qt.FocusReason.TabFocusReason)
            QTest.keyClick(widget, key)
            idle(qtbot, window)
            for dialog in QApplication.topLevelWidgets():  # a window a button opened
                if dialog is not window and dialog.isVisible() and dialog.isWindow():
                    dialog.close()
            assert window.isVisible(), f"Enter on {widget!r} closed the app"
            assert window.wizard.currentId() == page, f"Enter on {widget!r} left the page"


def test_enter_never_leaves_a_page_from_a_field(qtbot, window, sample_workbook) -> None:
    """Enter in a box, a list or a check box is the control's own: no Next, no Close."""
    open_file(qtbot, window, sample_workbook)
    enter_everywhere(qtbot, window, [window.wizard.import_page.table])
    tag(window, SAMPLE_ROLES)
    enter_everywhere(qtbot, window, [window.wizard.tag_page.table, window.wizard.tag_page.missing])
    window.wizard.next()
    privacy = window.wizard.privacy_page
    settle_privacy(qtbot, window)
    fields = [privacy.k, privacy.t, privacy.n_buckets, privacy.seed, privacy.by_t]
    enter_everywhere(qtbot, window, fields)


def focus_unseen(window) -> list[str]:
    """The controls in view that look the same with and without the keyboard focus."""
    unseen = []
    for widget, control in controls(window):
        # a plan that arrives meanwhile replaces the privacy page's fix buttons: the new
        # ones are buttons like those already looked at; the deleted ones are skipped
        if not shiboken6.isValid(widget) or not (widget.isVisible() and widget.isEnabled()):
            continue
        area = QRect(widget.mapTo(window, widget.rect().topLeft()), widget.size())
        area = area.adjusted(-4, -4, 4, 4)
        window.menuBar().setFocus()
        if widget.hasFocus():  # it had the focus already (a page's first control)
            widget.clearFocus()
        QApplication.processEvents()
        before = settled(window, area)
        widget.setFocus(Qt.FocusReason.TabFocusReason)
        QApplication.processEvents()
        if not widget.hasFocus():  # the window lost the activation (a loaded machine): again
            window.activateWindow()
            widget.setFocus(Qt.FocusReason.TabFocusReason)
            QApplication.processEvents()
        if not repainted(window, area, before):
            taken = "" if widget.hasFocus() else " (the focus never arrived)"
            unseen.append(control.line() + taken)
    return unseen


def settled(window, area: QRect, tries: int = 40):
    """The image of ``area`` once two grabs 25 ms apart agree: a loaded machine may paint
    the focus leaving a control several event rounds late, and a grab taken before that
    would look like the focused control (seen on CI with 10 ms between grabs)."""
    image = window.grab(area).toImage()
    for _ in range(tries):
        QTest.qWait(25)
        again = window.grab(area).toImage()
        if again == image:
            return again
        image = again
    return image


def repainted(window, area: QRect, before, tries: int = 100) -> bool:
    """Whether ``area`` of the window looks other than ``before``, events processed up to
    ``tries`` times, a second in all (a loaded machine may paint the focus late); a control
    whose focus shows returns at the first difference."""
    for _ in range(tries):
        if window.grab(area).toImage() != before:
            return True
        QTest.qWait(10)
    return False


def test_high_contrast_shows_the_system_colours_unmuted(qtbot, monkeypatch) -> None:
    palette = QApplication.palette()
    text = palette.color(QPalette.ColorRole.WindowText)
    assert theme.muted_text(palette) != text  # a hint is muted normally
    monkeypatch.setattr(theme, "high_contrast", lambda: True)
    assert theme.muted_text(palette) == text
    plot = theme.plot_theme(palette)
    assert (
        plot.before == text.name()
        and plot.background == palette.color(QPalette.ColorRole.Window).name()
    )
    saved = QApplication.palette()
    theme.apply_color_scheme(QApplication.instance(), "dark")  # the system's colours win
    assert QApplication.palette() == saved


def test_the_plots_text_grows_with_the_system_font() -> None:
    from gui.plot_text import plot_fonts

    with plot_fonts(40):  # a 40-pixel system font
        fig = sweep_figure(
            pd.DataFrame(
                {"t": [2.0, 3.0], "k": [5, 5], "feasible": [True, True], "qi_sse_sst": [0.3, 0.2]}
            ),
            level="t",
        )
    assert fig.axes[0].title.get_fontsize() > 20


def test_curves_and_series_differ_by_more_than_colour() -> None:
    table = pd.DataFrame(
        {
            "t": [2.0, 3.0] * 3,
            "k": [5, 5, 10, 10, 25, 25],
            "feasible": [True] * 6,
            "qi_sse_sst": [0.3, 0.2, 0.4, 0.3, 0.5, 0.45],
        }
    )
    lines = [line for line in sweep_figure(table, level="t").axes[0].lines if line.get_label()]
    assert len({line.get_marker() for line in lines}) == 3
    assert len({line.get_linestyle() for line in lines}) == 3
    data = pd.DataFrame({"age": np.arange(60) % 40 + 20, "income": np.arange(60) * 100.0})
    release = anonymize(data, ReleaseParams(qi=("age",), confidential=("income",), k=5, t=3.0))
    ax = plots.qi_before_after(release, "age").axes[0]
    hatches = {patch.get_hatch() for patch in ax.patches}
    assert None in hatches and "//" in hatches  # "after" is hatched, "before" plain


def test_a_closeness_map_of_many_classes_counts_the_cells_outside(qtbot) -> None:
    """Above 200 classes a cell is too small to outline: each bucket's count of cells outside
    the band is written on the map, and the plot's words and table say the same."""
    rng = np.random.default_rng(3)
    n = 2400
    # an all-distinct QI: no two released classes share their released values
    data = pd.DataFrame({"age": rng.uniform(18, 90, n), "income": rng.exponential(3e4, n)})
    params = ReleaseParams(qi=("age",), confidential=("income",), k=5, t=20.0, n_buckets=2)
    release = anonymize(data, params)
    # judged against a tighter t than it was made for, cells fall outside the band
    strict = dataclasses.replace(release, params=params.replace(t=1.2))
    text = figure_text(closeness_words(strict))
    n_classes = plots.closeness_matrix(strict)[0].shape[0]  # the released file's classes
    assert n_classes > 200 and text.table.shape == (n_classes, 2 + 2)
    ratios = text.table.iloc[:, 2:].to_numpy(float)
    outside = int(((ratios < 1 / 1.2 - 1e-9) | (ratios > 1.2 + 1e-9)).sum())
    assert outside > 0 and f"{outside:,} ratios are outside the band" in text.description
    marks = [t.get_text() for t in plots.closeness_heatmap(strict).axes[0].texts]
    counts = [int(m.split()[0].replace(",", "")) for m in marks if "✗" in m]
    assert sum(counts) == outside
    # a release judged at its own t has none: the map says so in words
    assert "Every ratio is inside the band." in figure_text(closeness_words(release)).description


def test_before_after_words_give_the_means_and_the_counts() -> None:
    data = pd.DataFrame({"age": np.arange(100) % 50 + 20, "income": np.arange(100) * 10.0})
    release = anonymize(data, ReleaseParams(qi=("age",), confidential=("income",), k=5, t=3.0))
    text = figure_text(before_after_words(release, "age"))
    assert text.title == "age: before and after"
    assert f"mean {data['age'].mean():g}" in text.description
    assert text.table["before"].sum() == 100 and text.table["after"].sum() == 100


def test_the_guide_window_is_named(qtbot) -> None:
    guide = GuideWindow()
    qtbot.addWidget(guide)
    assert not audit(guide)
