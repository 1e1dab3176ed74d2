"""The whole wizard, driven as a user would: import, tag, choose, preview, export, verify."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox, QWizard

from engine.io import read_table
from engine.report.risk import release_risk
from engine.roles import Role
from gui.screenshots import SAMPLE_ROLES  # the sample tagged as the user guide's pictures show
from gui.wizard import PAGE_EXPORT, PAGE_PREVIEW, PAGE_PRIVACY, PAGE_TAG, MainWindow
from tests.factories import ADULT_QI

pytestmark = pytest.mark.gui

#: the adult data set tagged as in the published t-closeness examples
ADULT_ROLES = {**dict.fromkeys(ADULT_QI, Role.QI), "salary-class": Role.CONFIDENTIAL}


def idle(qtbot, win: MainWindow, timeout: int = 60_000) -> None:
    qtbot.waitUntil(lambda: not win.runner.busy, timeout=timeout)


def next_enabled(win: MainWindow) -> bool:
    return win.wizard.button(QWizard.WizardButton.NextButton).isEnabled()


def open_file(qtbot, win: MainWindow, path: Path) -> None:
    win.wizard.import_page.open_path(path)
    idle(qtbot, win)
    assert win.session.data is not None, win.wizard.import_page.info.text()
    assert next_enabled(win)


def tag(win: MainWindow, roles: dict[str, Role]) -> None:
    """Set roles through the roles table's model, as the combo box editor does."""
    from gui.pages.tag_page import COL_ROLE
    from gui.state import ROLE_LABELS

    wiz = win.wizard
    wiz.next()
    assert wiz.currentId() == PAGE_TAG
    model = wiz.tag_page.model
    names = list(win.session.columns)
    for row, name in enumerate(names):
        role = roles.get(name)
        assert model.setData(model.index(row, COL_ROLE), ROLE_LABELS[role])
    assert next_enabled(win), wiz.tag_page.reason.text()


def choose(qtbot, win: MainWindow, t: float, k: int) -> None:
    wiz = win.wizard
    wiz.next()
    assert wiz.currentId() == PAGE_PRIVACY
    page = wiz.privacy_page
    page.by_t.setChecked(True)
    page.t.setValue(t)
    page.k.setValue(k)
    page.refresh()
    settle_privacy(qtbot, win)
    assert next_enabled(win), page.feasibility.text()


def settle_privacy(qtbot, win: MainWindow) -> None:
    """Wait for the privacy page's background feasibility check."""
    qtbot.waitUntil(lambda: not win.wizard.privacy_page.checking, timeout=30_000)


def preview(qtbot, win: MainWindow) -> None:
    wiz = win.wizard
    wiz.next()
    assert wiz.currentId() == PAGE_PREVIEW
    idle(qtbot, win, timeout=120_000)
    assert win.session.preview_is_current, wiz.preview_page.status.text()
    assert next_enabled(win)
    page = wiz.preview_page
    for view in page.views.values():
        assert view.canvas is not None, "a preview plot is missing"
    assert page.rows_model.rowCount() > 0


def previewed(qtbot, win: MainWindow, sample_workbook: Path) -> MainWindow:
    """The sample opened, tagged, at t = 2 and k = 5, and previewed: where the tests of the
    preview and export pages start."""
    open_file(qtbot, win, sample_workbook)
    tag(win, SAMPLE_ROLES)
    choose(qtbot, win, t=2.0, k=5)
    preview(qtbot, win)
    assert not win.wizard.preview_page.stale.isVisible()
    return win


def export(qtbot, win: MainWindow, target: Path, report: bool = True) -> list[Path]:
    wiz = win.wizard
    wiz.next()
    assert wiz.currentId() == PAGE_EXPORT
    page = wiz.export_page
    page.format.setCurrentText(
        "Excel workbook (.xlsx)" if target.suffix == ".xlsx" else "CSV text (.csv)"
    )
    page.path.setText(str(target))
    page.report.setChecked(report)
    qtbot.waitUntil(page.export_button.isEnabled, timeout=5000)  # the target is checked
    page.export()
    idle(qtbot, win)
    assert win.session.exported, page.result.text()
    assert str(target) in page.result.text()
    return win.session.exported


def verify_exported(path: Path, roles: dict[str, Role], t: float, k: int) -> None:
    from engine.release import verify_release

    table = read_table(path).data
    qi = [c for c, r in roles.items() if r == Role.QI]
    confidential = [c for c, r in roles.items() if r == Role.CONFIDENTIAL]
    assert set(table.columns) == set(qi) | set(confidential), "only tagged columns are released"
    verdict = verify_release(table, qi, confidential, t=t, k=k)
    assert verdict.ok, verdict.message
    assert verdict.k >= k and verdict.t <= t * (1 + 1e-9)


def test_whole_wizard_on_the_sample(qtbot, window, sample_workbook, tmp_path) -> None:
    open_file(qtbot, window, sample_workbook)
    assert window.wizard.import_page.model.rowCount() == 400
    tag(window, SAMPLE_ROLES)
    choose(qtbot, window, t=2.0, k=5)
    preview(qtbot, window)
    release = window.session.release
    assert release.params.n_buckets is None  # "automatic": the engine's choice for t
    assert release.verification.ok and release.verification.k >= 5
    # disclosure risk before and after, from the engine's risk module
    summary = window.wizard.preview_page.summary.toPlainText()
    assert "Disclosure risk" in summary and "records unique on their QI values" in summary
    unique_after = release_risk(release)["after"].n_unique
    assert unique_after == 0  # every released class holds at least k = 5 records
    # change the number of buckets on the preview page and run again
    page = window.wizard.preview_page
    page.n_buckets.setValue(4)
    page.rerun.click()
    idle(qtbot, window)
    assert window.session.preview_is_current, page.status.text()
    buckets = window.session.release.buckets
    assert len(buckets.labels) == 4 and buckets.missing_bucket is None  # no missing incomes
    assert "income: 4 buckets" in page.views["buckets"].figure.axes[0].get_title()
    files = export(qtbot, window, tmp_path / "sample-release.xlsx")
    assert files[0] == tmp_path / "sample-release.xlsx"
    report = tmp_path / "sample-release-report.html"
    assert report in files and "achieved k" in report.read_text(encoding="utf-8")
    verify_exported(files[0], SAMPLE_ROLES, t=2.0, k=5)


def test_whole_wizard_on_adult(qtbot, window, unpacked, tmp_path) -> None:
    open_file(qtbot, window, unpacked("adult.csv.gz"))
    assert window.session.n_rows == 30162
    tag(window, ADULT_ROLES)
    choose(qtbot, window, t=2.0, k=10)
    preview(qtbot, window)
    files = export(qtbot, window, tmp_path / "adult-release.csv", report=False)
    assert [f.name for f in files] == [
        "adult-release.csv",
        "adult-release.json",
        "adult-release.ddi.xml",
    ]
    verify_exported(files[0], ADULT_ROLES, t=2.0, k=10)


def test_next_is_disabled_until_a_qi_and_a_confidential_column(qtbot, window, sample_workbook):
    from gui.pages.tag_page import COL_ROLE

    open_file(qtbot, window, sample_workbook)
    wiz = window.wizard
    wiz.next()
    page = wiz.tag_page
    model = page.model
    for row in range(model.rowCount()):
        model.setData(model.index(row, COL_ROLE), "not released")
    assert not next_enabled(window)
    assert "quasi-identifier" in page.reason.text() and page.reason.isVisibleTo(page)
    model.setData(model.index(1, COL_ROLE), "quasi-identifier")  # age
    assert not next_enabled(window)
    assert "confidential" in page.reason.text()
    model.setData(model.index(5, COL_ROLE), "confidential")  # income
    assert next_enabled(window)
    assert not page.reason.isVisibleTo(page)


def test_identifier_is_suggested_with_a_reason(qtbot, window, sample_workbook) -> None:
    open_file(qtbot, window, sample_workbook)
    assert window.session.role("respondent_id") == Role.IDENTIFIER
    assert "400 of 400 values are distinct" in window.session.columns["respondent_id"].suggestion
    assert window.session.role("age") is None


def test_texts_in_a_numeric_column_are_suggested_as_missing_codes(qtbot, window, tmp_path) -> None:
    path = tmp_path / "codes.csv"
    rows = "".join(f"{20 + i % 50},{'N/A' if i % 7 == 0 else i * 100}\n" for i in range(60))
    path.write_text("age,income\n" + rows, encoding="utf-8")
    open_file(qtbot, window, path)
    assert window.session.column_type("income").value == "numeric"
    # suggested in the note, not applied: only the user declares a value missing
    assert window.session.column_missing("income") == ()
    assert "N/A" in window.session.columns["income"].guess.note
    window.session.set_column_missing("income", ("N/A",))
    prepared = window.session.prepared_data()
    assert prepared["income"].isna().sum() == 9
    assert prepared["income"].dropna().astype(float).min() == 100


def test_a_bad_file_shows_a_dialog_and_the_app_stays_usable(
    qtbot, window, tmp_path, sample_workbook
):
    bad = tmp_path / "broken.xlsx"
    bad.write_bytes(b"this is not a workbook")
    window.wizard.import_page.open_path(bad)
    idle(qtbot, window)
    qtbot.waitUntil(lambda: bool(window.findChildren(QMessageBox)), timeout=5000)
    box = window.findChildren(QMessageBox)[-1]
    assert box.text()
    box.close()
    assert window.session.data is None and not next_enabled(window)
    open_file(qtbot, window, sample_workbook)


def test_export_refuses_to_overwrite_the_input(qtbot, window, tmp_path) -> None:
    source = tmp_path / "people.csv"
    rows = "".join(f"{20 + i % 40},{'FM'[i % 2]},{1000 * (i % 13)}\n" for i in range(200))
    source.write_text("age,sex,income\n" + rows, encoding="utf-8")
    open_file(qtbot, window, source)
    tag(window, {"age": Role.QI, "sex": Role.QI, "income": Role.CONFIDENTIAL})
    choose(qtbot, window, t=2.0, k=5)
    preview(qtbot, window)
    window.wizard.next()
    page = window.wizard.export_page
    page.format.setCurrentText("CSV text (.csv)")
    page.path.setText(str(source))
    qtbot.waitUntil(lambda: bool(page.problem.text()), timeout=5000)
    assert "never overwrites" in page.problem.text()
    assert not page.export_button.isEnabled()
    page.export()
    idle(qtbot, window)
    assert window.session.exported == []
    assert source.read_text(encoding="utf-8").startswith("age,sex,income\n20,F,0")


def test_infeasible_settings_offer_a_one_click_fix(qtbot, window, sample_workbook) -> None:
    open_file(qtbot, window, sample_workbook)
    tag(window, SAMPLE_ROLES)
    choose(qtbot, window, t=2.0, k=5)
    page = window.wizard.privacy_page
    page.k.setValue(1000)  # more than the 400 records
    page.refresh()
    settle_privacy(qtbot, window)
    assert not next_enabled(window)
    assert "Next is disabled" in page.feasibility.text() and "400" in page.feasibility.text()
    fixes = [page.fixes.itemAt(i).widget() for i in range(page.fixes.count() - 1)]
    assert fixes and "largest k" in fixes[0].text()
    fixes[0].click()
    settle_privacy(qtbot, window)
    assert 1 < page.k.value() < 400 and window.session.params.k == page.k.value()
    assert next_enabled(window)
    assert "can be met" in page.feasibility.text()


def noise_page(qtbot, win: MainWindow, path: Path, epsilon: float):
    """The privacy page of the sample with income confidential, set to noise at ``epsilon``."""
    open_file(qtbot, win, path)
    tag(win, SAMPLE_ROLES)
    win.wizard.next()
    page = win.wizard.privacy_page
    page.set_mechanism("laplace")
    page.epsilon.setValue(epsilon)
    return page


def with_bounds(qtbot, win: MainWindow, text: str) -> bool:
    """Type ``text`` as the public bounds; whether Next is then enabled."""
    page = win.wizard.privacy_page
    page.bounds.setText(text)
    page.refresh()
    settle_privacy(qtbot, win)
    return next_enabled(win)


def test_noise_mechanism_with_public_bounds(qtbot, window, sample_workbook) -> None:
    """ε-DP noise on income: bounds from the page reach the engine; the release keeps k."""
    page = noise_page(qtbot, window, sample_workbook, epsilon=1.0)
    page.k.setValue(5)
    assert not with_bounds(qtbot, window, "income=0:oops")
    assert "COLUMN=LOW:HIGH" in page.feasibility.text()
    assert with_bounds(qtbot, window, "income=0:250000"), page.feasibility.text()
    assert window.session.params.bounds == {"income": (0.0, 250000.0)}
    window.wizard.next()
    idle(qtbot, window)
    assert window.session.preview_is_current, window.wizard.preview_page.status.text()
    release = window.session.release
    assert release.buckets is None and release.verification.k >= 5
    assert not any("No public bounds" in w for w in release.warnings)
    tabs = window.wizard.preview_page.tabs
    assert tabs.tabText(0) == "Confidential values"
    # noise makes no buckets: no closeness map, so no empty tab for it
    assert not tabs.isTabVisible(tabs.indexOf(window.wizard.preview_page.views["closeness"]))


def test_noise_on_the_log_scale(qtbot, window, sample_workbook) -> None:
    """The log-scale box reaches the engine; the page states the factor; bounds below 0 are
    refused while it is ticked."""
    page = noise_page(qtbot, window, sample_workbook, epsilon=5.0)
    page.insensitive.setChecked(True)
    page.log_scale.setChecked(True)
    assert not with_bounds(qtbot, window, "income=-5:250000")
    assert "≥ 0" in page.feasibility.text()
    assert with_bounds(qtbot, window, "income=0:250000"), page.feasibility.text()
    assert window.session.params.transform == "log"
    assert "within a factor" in page.feasibility.text()
    page.set_mechanism("buckets")  # the box goes with the noise
    settle_privacy(qtbot, window)
    assert window.session.params.transform == "none" and not page.log_scale.isEnabled()
    assert not page.log_scale.isChecked()  # the box shows what the session holds
    page.set_mechanism("laplace")
    assert not page.log_scale.isChecked() and page.log_scale.isEnabled()
    page.log_scale.setChecked(True)
    settle_privacy(qtbot, window)
    window.wizard.next()
    idle(qtbot, window)
    details = window.session.release.summary.noise.columns["income"]
    assert details.transform == "log"


def test_drop_a_file_and_find_it_among_the_recent_ones(qtbot, window, tmp_path) -> None:
    from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
    from PySide6.QtGui import QDropEvent

    from gui import settings

    source = tmp_path / "dropped.csv"
    source.write_text(
        "age;sex\n" + "".join(f"{20 + i};{'FM'[i % 2]}\n" for i in range(30)), encoding="utf-8"
    )
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(source))])
    page = window.wizard.import_page
    event = QDropEvent(
        QPoint(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    page.dropEvent(event)
    idle(qtbot, window)
    assert window.session.n_rows == 30
    assert window.session.info.separator == ";"
    assert page.separator.currentText() == "semicolon ;"
    assert settings.recent_files()[0] == source.resolve()
    other = MainWindow()
    qtbot.addWidget(other)
    first = other.wizard.import_page.recent.item(0)
    assert first.text() == "dropped.csv"
