"""Previews that stay honest, plans in plain words, the release format, noise in the wizard."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from engine import ReleaseParams
from engine.io import ImportInfo
from engine.progress import NO_TASK
from engine.roles import Role
from engine.text import percent
from gui.wizard import PAGE_PREVIEW, PAGE_PRIVACY, MainWindow
from tests import test_gui_wizard as user  # drives the wizard as a user would

pytestmark = pytest.mark.gui


def assert_stale(window: MainWindow) -> None:
    page = window.wizard.preview_page
    assert page.stale.isVisible(), "old results are shown as if current"
    assert page.stale.geometry() == page.results.rect(), "the cover does not lie over them"
    assert page.tabs.width() > page.results.width() / 2  # and takes no room from them
    assert "Out of date" in page.stale.label.text()
    assert not user.next_enabled(window)


def with_slow_preview(monkeypatch) -> None:
    """Make the next preview wait for Cancel (the run would otherwise end at once)."""
    import time

    from engine import CancelledError

    def slow(data, params, task=NO_TASK, **_kwargs):
        while not task.cancelled():
            time.sleep(0.01)
        raise CancelledError()

    monkeypatch.setenv("TCLOSE_ENGINE_PROCESS", "0")
    monkeypatch.setattr("gui.pages.preview_page.build_preview", slow)


# --- stale previews ------------------------------------------------------------------------------


def test_a_changed_k_greys_the_results_and_holds_next(qtbot, window, sample_workbook) -> None:
    user.previewed(qtbot, window, sample_workbook)
    page = window.wizard.preview_page
    page.k.setValue(7)
    assert_stale(window)
    page.rerun.click()
    user.idle(qtbot, window)
    assert not page.stale.isVisible() and user.next_enabled(window)
    assert window.session.release.params.k == 7


def test_a_changed_format_greys_the_results(qtbot, window, sample_workbook) -> None:
    user.previewed(qtbot, window, sample_workbook)
    page = window.wizard.preview_page
    page.qi_output.setCurrentIndex(page.qi_output.findData("range"))
    assert_stale(window)


def test_a_rerun_greys_the_results_while_it_runs(qtbot, window, sample_workbook, monkeypatch):
    user.previewed(qtbot, window, sample_workbook)
    page = window.wizard.preview_page
    with_slow_preview(monkeypatch)
    page.rerun.click()
    assert window.runner.busy
    assert page.stale.isVisible() and "being computed" in page.stale.label.text()
    assert not user.next_enabled(window)
    window.runner.cancel()
    user.idle(qtbot, window)
    assert "Cancelled" in page.status.text()
    # the settings did not change: the release on show is still theirs, verified
    assert not page.stale.isVisible() and user.next_enabled(window)


def test_a_cancelled_run_of_new_settings_leaves_the_old_greyed(
    qtbot, window, sample_workbook, monkeypatch
) -> None:
    user.previewed(qtbot, window, sample_workbook)
    page = window.wizard.preview_page
    with_slow_preview(monkeypatch)
    page.k.setValue(8)
    page.rerun.click()
    assert window.runner.busy and page.stale.isVisible()
    window.runner.cancel()
    user.idle(qtbot, window)
    assert "Cancelled" in page.status.text()
    assert_stale(window)
    assert window.session.release.params.k == 5  # the old release is not taken for k = 8


def test_a_role_change_greys_the_old_preview(qtbot, window, sample_workbook, monkeypatch):
    from gui.pages.tag_page import COL_ROLE
    from gui.state import role_label

    user.previewed(qtbot, window, sample_workbook)
    wizard = window.wizard
    wizard.back()
    wizard.back()  # to the tag page
    model = wizard.tag_page.model
    row = list(window.session.columns).index("occupation")
    model.setData(model.index(row, COL_ROLE), role_label(None))
    wizard.next()
    user.settle_privacy(qtbot, window)
    with_slow_preview(monkeypatch)
    wizard.next()
    assert wizard.currentId() == PAGE_PREVIEW
    page = wizard.preview_page
    assert page.stale.isVisible(), "the previous role's release is shown as current"
    window.runner.cancel()
    user.idle(qtbot, window)
    assert_stale(window)


# --- plans and fixes ---------------------------------------------------------------------------


def test_the_privacy_page_leads_with_plain_words(qtbot, window, sample_workbook) -> None:
    user.open_file(qtbot, window, sample_workbook)
    user.tag(window, user.SAMPLE_ROLES)
    user.choose(qtbot, window, t=2.0, k=5)
    page = window.wizard.privacy_page
    # the fewest people a 2-close group of the sample's buckets can hold: 6, more than k
    assert page.summary.text().startswith(
        "Each group of at least 5 people looks like the whole file in its income mix, "
        "within a factor 2."
    )
    assert not page.details.isVisible()
    page.details_toggle.click()
    assert page.details.isVisible()
    assert "Proposition 3" in page.details.toPlainText()


def test_details_show_the_search_of_b_unless_b_is_set(qtbot, window, sample_workbook) -> None:
    user.open_file(qtbot, window, sample_workbook)
    user.tag(window, user.SAMPLE_ROLES)
    user.choose(qtbot, window, t=2.0, k=5)
    page = window.wizard.privacy_page
    chosen = [c for c in page.current_plan.bucket_choices if c.chosen]
    assert len(chosen) == 1
    text = page.details.toPlainText()
    assert "Number of buckets" in text and "confidential loss" in text
    page.n_buckets.setValue(4)
    page.refresh()
    user.settle_privacy(qtbot, window)
    assert page.current_plan.params.n_buckets == 4
    assert "Number of buckets" not in page.details.toPlainText()
    page.n_buckets.setValue(2)
    page.n_buckets.stepDown()  # below 2 is "automatic", never b = 1
    assert page.n_buckets.text() == page.n_buckets.specialValueText()
    page.refresh()
    user.settle_privacy(qtbot, window)
    assert page.current_plan.params.n_buckets is None


def test_a_fix_says_what_it_changed(qtbot, window, sample_workbook) -> None:
    user.open_file(qtbot, window, sample_workbook)
    user.tag(window, user.SAMPLE_ROLES)
    user.choose(qtbot, window, t=2.0, k=5)
    page = window.wizard.privacy_page
    page.k.setValue(1000)
    page.refresh()
    user.settle_privacy(qtbot, window)
    fixes = [page.fixes.itemAt(i).widget() for i in range(page.fixes.count() - 1)]
    assert fixes and "k = " in fixes[0].toolTip()
    fixes[0].click()
    user.settle_privacy(qtbot, window)
    assert page.applied.isVisible()
    assert page.applied.text().startswith("Changed: smallest group size k from 1,000 to ")
    assert str(window.session.params.k) in page.applied.text().replace(",", "")


def test_one_class_is_a_prominent_warning(qtbot, window, tmp_path) -> None:
    path = tmp_path / "tiny.csv"
    rows = [f"{age},{'A' if age < 7 else 'B'}" for age in range(18)]
    path.write_text("age,diag\n" + "\n".join(rows) + "\n", encoding="utf-8")
    user.open_file(qtbot, window, path)
    user.tag(window, {"age": Role.QI, "diag": Role.CONFIDENTIAL})
    window.wizard.next()
    page = window.wizard.privacy_page
    page.by_t.setChecked(True)
    page.t.setValue(1.0)
    page.k.setValue(2)
    page.refresh()
    user.settle_privacy(qtbot, window)
    assert page.one_class_box.isVisible()
    assert page.one_class.text().startswith("Only one class:") and page.one_class.warning
    assert page.summary.text().startswith("At this level the release would be one single group")


def test_why_the_groups_are_larger_than_k(qtbot, window, sample_workbook) -> None:
    user.open_file(qtbot, window, sample_workbook)
    user.tag(window, user.SAMPLE_ROLES)
    user.choose(qtbot, window, t=1.2, k=5)
    page = window.wizard.privacy_page
    assert page.class_sizes.isVisible()
    assert "Why the groups will be larger than k: Classes will hold " in (page.class_sizes.text())
    user.preview(qtbot, window)
    summary = window.wizard.preview_page.summary.toPlainText()
    assert window.session.release.verification.k > 5
    assert "Why the groups are larger than k: Classes will hold " in summary


def test_the_preview_says_what_an_analysis_keeps(qtbot, window, sample_workbook) -> None:
    user.previewed(qtbot, window, sample_workbook)
    summary = window.wizard.preview_page.summary.toPlainText()
    utility = window.session.release.summary.analysis_utility["income"]
    assert "What an analysis keeps" in summary
    # the default bucket means keep the total up to their rounding step (a step one record
    # cannot cross): the panel shows the summary's own figure
    assert utility.total_relative_error is not None and utility.total_relative_error < 1e-2
    assert f"income total: relative error\n  {percent(utility.total_relative_error)}" in summary
    assert "income means by region: mean relative error" in summary


# --- the release format and the rows side by side --------------------------------------------


@pytest.mark.parametrize("output", ["median", "mean"])
def test_ranges_and_bucket_values_side_by_side(qtbot, window, sample_workbook, output) -> None:
    user.previewed(qtbot, window, sample_workbook)
    page = window.wizard.preview_page
    page.qi_output.setCurrentIndex(page.qi_output.findData("range"))
    page.confidential_output.setCurrentIndex(page.confidential_output.findData(output))
    assert "range they span" in page.format_help.text()
    page.rerun.click()
    user.idle(qtbot, window)
    release = window.session.release
    assert release.params.qi_output == "range"
    assert release.params.confidential_output == output
    original, released = page.original_model.frame, page.rows_model.frame
    assert len(original) == min(1000, len(release.table)) and list(original.columns) == list(
        released.columns
    )
    bounds = [b for b in release.buckets.bounds]
    values = [r[0] for r in release.buckets.released(output)]
    for i in range(len(original)):
        # each released row was made from the original row beside it: its income is the
        # value of the bucket the original income falls in
        income = float(original["income"].iloc[i])
        bucket = values.index(released["income"].iloc[i])
        lo, hi = bounds[bucket]
        assert (lo is None or income >= lo) and (hi is None or income < hi or income == hi)
        assert original["sex"].iloc[i] in str(released["sex"].iloc[i])


def test_confidential_choices_come_from_the_parameters(qtbot, monkeypatch) -> None:
    from engine.params import Options

    values = (*ReleaseParams.CONSTRAINTS["confidential_output"].values, "future")
    monkeypatch.setitem(
        ReleaseParams.CONSTRAINTS, "confidential_output", Options(values=tuple(values))
    )
    win = MainWindow()
    qtbot.addWidget(win)
    box = win.wizard.preview_page.confidential_output
    offered = [box.itemData(i) for i in range(box.count())]
    assert offered == list(values)
    assert box.itemText(offered.index("mean")) == "the bucket's mean"
    assert box.itemText(offered.index("future")) == "future"


# --- noise: randomized response and bounds ------------------------------------------------------


def test_randomized_response_in_the_preview(qtbot, window, sample_workbook) -> None:
    """A text column under noise: randomized response, no crash, share changed shown."""
    user.open_file(qtbot, window, sample_workbook)
    roles = {**user.SAMPLE_ROLES, "income": None, "diagnosis": Role.CONFIDENTIAL}
    user.tag(window, roles)
    window.wizard.next()
    page = window.wizard.privacy_page
    label = f"{page.mechanism_buttons['laplace'].text()} ({page.mechanism_notes['laplace'].text()})"
    assert label.replace("&", "") == (
        "Noise: ε-differential privacy (Laplace on numbers, randomized response on categories)"
    )
    page.set_mechanism("laplace")
    page.epsilon.setValue(1.0)
    # randomized response draws from public categories, typed as on the command line
    page.categories.edits["diagnosis"].setText(
        "No condition|Back pain|Hypertension|Asthma|Depression|Type 2 diabetes|Heart disease|Cancer"
    )
    page.refresh()
    user.settle_privacy(qtbot, window)
    assert user.next_enabled(window), page.feasibility.text()
    assert "randomized response" in page.feasibility.text()
    assert "each answer is kept with probability" in page.summary.text()
    window.wizard.next()
    user.idle(qtbot, window)
    assert window.session.preview_is_current, window.wizard.preview_page.status.text()
    preview_page = window.wizard.preview_page
    assert preview_page.tabs.tabText(0) == "Confidential values"
    summary = preview_page.summary.toPlainText()
    changed = window.session.release.summary.information_loss.confidential_columns["diagnosis"]
    assert "diagnosis: values changed" in summary
    assert f"{100 * changed['share_changed']:.3g} %" in summary


def test_noise_without_bounds_blocks_next_until_private_bounds(qtbot, window, sample_workbook):
    user.open_file(qtbot, window, sample_workbook)
    user.tag(window, user.SAMPLE_ROLES)
    window.wizard.next()
    assert window.wizard.currentId() == PAGE_PRIVACY
    page = window.wizard.privacy_page
    assert "never used" in page.bounds.toolTip() and "minimum and maximum" in (
        page.bounds.toolTip()
    )
    page.set_mechanism("laplace")
    page.epsilon.setValue(1.0)
    page.refresh()
    user.settle_privacy(qtbot, window)
    assert not user.next_enabled(window)
    assert "Next is disabled" in page.feasibility.text()
    assert "needs public bounds" in page.feasibility.text()
    page.private_bounds.setChecked(True)
    page.private_share.setValue(0.2)  # the field's value; the box shows it as "20 %"
    assert page.private_share.text() == "20 %"
    page.refresh()
    user.settle_privacy(qtbot, window)
    assert window.session.params.private_bounds == 0.2
    # ε = 0.2 for the bounds of 400 incomes: a private median would be any candidate
    assert not user.next_enabled(window)
    assert "would be noise" in page.feasibility.text()
    page.epsilon.setValue(10.0)  # 2 for the bounds: enough for 400 values
    page.refresh()
    user.settle_privacy(qtbot, window)
    assert user.next_enabled(window), page.feasibility.text()
    assert "estimated privately" in page.feasibility.text()
    window.wizard.next()
    user.idle(qtbot, window)
    assert window.session.preview_is_current, window.wizard.preview_page.status.text()
    noise = window.session.release.summary.noise
    assert noise.bounds_epsilon == pytest.approx(2.0)


def test_a_preview_of_a_hand_made_session_without_source_rows(qtbot, window) -> None:
    """A release that does not say where its rows came from shows the released rows only."""
    from gui.pages.preview_page import original_rows

    data = pd.DataFrame({"age": np.arange(30) % 7 + 20, "income": np.arange(30) * 100.0})
    info = ImportInfo(__import__("pathlib").Path("x.csv"), "csv", n_rows=30, n_columns=2)
    window.session.set_data(data, info)
    from engine import anonymize

    release = anonymize(data, ReleaseParams(qi=("age",), confidential=("income",), k=3, t=2.0))
    assert original_rows(release, 10) is not None
    release.source_rows = None
    assert original_rows(release, 10) is None
