"""Every page shows what the session holds: after any kind of edit, going forward and back.

The pages bind their widgets to the session (:mod:`gui.binding`).  Here the user makes each
kind of edit the app offers (typing t, ε, k, b; choosing the level's view, a mechanism, the
noise's options, the release format; missing codes and roles on the tag page; a one-click
fix; a point of the sweep; a project opened), and after each one the test walks every page
the wizard allows forward and back to the start, comparing every bound widget of every page
with the session, and on the privacy page the plan on show with the session's parameters.
The comparison is written here, from the parameters, not by the binding layer.
"""

from __future__ import annotations

import math

import pytest
from PySide6.QtWidgets import QWizard

from engine import Fix, Role, epsilon_from_t, t_from_epsilon
from engine.project import new_project, save_project
from gui.pages.tag_page import COL_ROLE
from gui.state import ROLE_LABELS, parse_bounds, parse_codes, role_label
from gui.wizard import PAGE_PRIVACY, MainWindow
from tests.test_params import survey

pytestmark = pytest.mark.gui

ROLES = {"id": Role.IDENTIFIER, "age": Role.QI, "region": Role.QI, "income": Role.CONFIDENTIAL}


@pytest.fixture
def lean(monkeypatch):
    """Plans and releases in the test's process; the preview draws no figures."""
    from engine import anonymize
    from gui.previews import Preview

    def release_only(data, params, task, **_drawing):
        return Preview(anonymize(data, params, task=task))

    def here(fn, *args, **kwargs):
        return fn(*args, **kwargs)

    monkeypatch.setattr("gui.pages.preview_page.build_preview", release_only)
    monkeypatch.setattr("gui.pages.preview_page.run_engine", here)
    monkeypatch.setattr("gui.pages.privacy_page.run_engine", here)


@pytest.fixture
def survey_file(tmp_path):
    path = tmp_path / "survey.csv"
    survey(300).to_csv(path, index=False)
    return path


def settle(qtbot, window: MainWindow) -> None:
    qtbot.waitUntil(
        lambda: not window.runner.busy and not window.wizard.privacy_page.checking,
        timeout=60_000,
    )


def close_level(shown: float, held: float, to_epsilon) -> bool:
    """The level a box shows is the session's level in the other unit, to 4 digits."""
    return math.isclose(to_epsilon(shown), held, rel_tol=5e-4, abs_tol=1e-9)


def mismatches(window: MainWindow) -> list[str]:
    """Every bound widget of every page that does not show the session's value."""
    s, wiz = window.session, window.wizard
    p = s.params
    privacy, preview, tag = wiz.privacy_page, wiz.preview_page, wiz.tag_page
    found = []

    def check(name: str, shown, expected) -> None:
        if shown != expected:
            found.append(f"{name}: shows {shown!r}, the session holds {expected!r}")

    check("privacy: t chosen", privacy.by_t.isChecked(), p.epsilon is None)
    check("privacy: ε chosen", privacy.by_epsilon.isChecked(), p.epsilon is not None)
    if p.t is not None:
        check("privacy: t", privacy.t.value(), p.t)
        if not close_level(privacy.epsilon.value(), p.t, t_from_epsilon):
            found.append(f"privacy: ε {privacy.epsilon.value()} is not the level t = {p.t}")
    else:
        check("privacy: ε", privacy.epsilon.value(), p.epsilon)
        if not close_level(privacy.t.value(), p.epsilon, epsilon_from_t):
            found.append(f"privacy: t {privacy.t.value()} is not the level ε = {p.epsilon}")
    for box in (privacy.t, privacy.epsilon, privacy.k, privacy.n_buckets):
        check(f"privacy: text of {box.name}", box.text(), box.text_of(box.value()))
    check("privacy: k", privacy.k.value(), p.k)
    check("privacy: b", privacy.n_buckets.value(), p.n_buckets)
    checked = [m for m, b in privacy.mechanism_buttons.items() if b.isChecked()]
    check("privacy: mechanism", checked, [p.mechanism])
    check(
        "privacy: drop missing", privacy.drop_missing.isChecked(), p.missing_confidential == "drop"
    )
    check("privacy: insensitive", privacy.insensitive.isChecked(), p.insensitive)
    check("privacy: log scale", privacy.log_scale.isChecked(), p.transform == "log")
    check("privacy: bounds", parse_bounds(privacy.bounds.text()), dict(p.bounds))
    check("privacy: private", privacy.private_bounds.isChecked(), p.private_bounds is not None)
    if p.private_bounds is not None:
        check("privacy: share", privacy.private_share.value(), p.private_bounds)
    check("privacy: seed", privacy.seed.text(), "" if p.seed is None else str(p.seed))
    check("privacy: release type", privacy.release_type.currentData(), p.release_type)
    check("privacy: scenario", privacy.scenario.text(), p.scenario)
    check("preview: k", preview.k.value(), p.k)
    check("preview: b", preview.n_buckets.value(), p.n_buckets)
    check("preview: QIs as", preview.qi_output.currentData(), p.qi_output)
    check("preview: confidential as", preview.confidential_output.currentData(),
          p.confidential_output)  # fmt: skip
    check("tag: missing codes", parse_codes(tag.missing.text()), tuple(p.missing))
    check("tag: household-level", parse_codes(tag.level.text()), tuple(p.household_level))
    model = tag.model
    for row, column in enumerate(s.columns):
        role = next(
            (r for r, names in ((Role.QI, p.qi), (Role.CONFIDENTIAL, p.confidential),
                                (Role.IDENTIFIER, p.identifiers), (Role.OTHER, p.keep))
             if column in names),
            None,
        )  # fmt: skip
        check(f"tag: role of {column}", model.index(row, COL_ROLE).data(), role_label(role) + " ▾")
    if wiz.currentId() == PAGE_PRIVACY and privacy.current_plan is not None:
        check("privacy: plan of", privacy.current_plan.params, p)
    return found


def walk(qtbot, window: MainWindow, what: str) -> None:
    """Forward as far as the wizard goes, then back to the start; every page compared."""
    wizard = window.wizard
    seen = []

    def compare() -> None:
        settle(qtbot, window)
        seen.append(wizard.currentId())
        problems = mismatches(window)
        assert not problems, f"after {what}, on page {wizard.currentId()}: {problems}"

    compare()
    while wizard.button(QWizard.WizardButton.NextButton).isEnabled():
        wizard.next()
        compare()
    while wizard.currentId() != wizard.startId():
        wizard.back()
        compare()
    assert len(set(seen)) >= 4, f"after {what} the walk reached only pages {seen}"


def go_to(qtbot, window: MainWindow, page_id: int) -> None:
    wizard = window.wizard
    while wizard.currentId() < page_id:
        settle(qtbot, window)
        assert wizard.button(QWizard.WizardButton.NextButton).isEnabled(), wizard.currentId()
        wizard.next()
    settle(qtbot, window)
    assert wizard.currentId() == page_id


def typed(box, text: str) -> None:
    """Type ``text`` into a number box as a user does (select all, type)."""
    box.setFocus()
    box.lineEdit().selectAll()
    box.lineEdit().insert(text)


def test_t_typed_is_shown_as_epsilon_and_noise_keeps_that_level(qtbot, window, lean, survey_file):
    """t = 1.01 shows ε = 0.0199 at once in the greyed ε box, and choosing noise releases at
    that level (not at the ε of the t before)."""
    open_and_tag(qtbot, window, survey_file)
    go_to(qtbot, window, PAGE_PRIVACY)
    page = window.wizard.privacy_page
    typed(page.t, "1.01")
    assert window.session.params.t == 1.01
    assert page.epsilon.text() == "0.0199" and not page.epsilon.isEnabled()
    page.set_mechanism("laplace")
    p = window.session.params
    assert p.noise and p.t is None and p.epsilon == 0.0199
    assert math.isclose(p.epsilon, epsilon_from_t(1.01), rel_tol=1e-4)
    assert page.epsilon.text() == "0.0199" and page.by_epsilon.isChecked()
    # and back: the buckets keep ε = 0.0199; choosing t gives 1.01 again, not 1.0100…
    page.set_mechanism("buckets")
    page.by_t.setChecked(True)
    assert window.session.params.t == 1.01 and page.t.text() == "1.01"


def test_changing_k_on_the_preview_shows_on_the_privacy_page_going_back(
    qtbot, window, lean, survey_file
):
    open_and_tag(qtbot, window, survey_file)
    go_to(qtbot, window, PAGE_PRIVACY + 1)
    typed(window.wizard.preview_page.k, "12")
    assert window.session.params.k == 12
    window.wizard.back()
    settle(qtbot, window)
    page = window.wizard.privacy_page
    assert page.k.value() == 12 and page.current_plan.params.k == 12
    assert "k = 12" in page.feasibility.text()
    assert window.wizard.button(QWizard.WizardButton.NextButton).isEnabled()


def open_and_tag(qtbot, window: MainWindow, path) -> None:
    window.wizard.import_page.open_path(path)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    window.wizard.next()
    model = window.wizard.tag_page.model
    for row, name in enumerate(window.session.columns):
        assert model.setData(model.index(row, COL_ROLE), ROLE_LABELS[ROLES.get(name)])


def test_every_page_shows_the_session_after_every_kind_of_edit(
    qtbot, window, lean, survey_file, tmp_path
):
    open_and_tag(qtbot, window, survey_file)
    s, wiz = window.session, window.wizard
    privacy, preview, tag = wiz.privacy_page, wiz.preview_page, wiz.tag_page
    walk(qtbot, window, "tagging")

    def on(page_id: int, what: str, edit) -> None:
        go_to(qtbot, window, page_id)
        edit()
        walk(qtbot, window, what)

    on(PAGE_PRIVACY, "typing t", lambda: typed(privacy.t, "1.5"))
    on(PAGE_PRIVACY, "choosing ε", lambda: privacy.by_epsilon.setChecked(True))
    on(PAGE_PRIVACY, "typing ε", lambda: typed(privacy.epsilon, "1.2"))
    on(PAGE_PRIVACY, "choosing t", lambda: privacy.by_t.setChecked(True))
    on(PAGE_PRIVACY, "typing k", lambda: typed(privacy.k, "6"))
    on(PAGE_PRIVACY, "typing b", lambda: typed(privacy.n_buckets, "4"))
    on(PAGE_PRIVACY, "typing bounds", lambda: privacy.bounds.setText("income=0:100000"))
    on(PAGE_PRIVACY, "choosing noise", lambda: privacy.set_mechanism("laplace"))
    on(PAGE_PRIVACY, "ticking insensitive", lambda: privacy.insensitive.setChecked(True))
    on(PAGE_PRIVACY, "ticking log scale", lambda: privacy.log_scale.setChecked(True))
    on(PAGE_PRIVACY, "typing a seed", lambda: privacy.seed.setText("42"))
    other = next(
        privacy.release_type.itemData(i)
        for i in range(privacy.release_type.count())
        if privacy.release_type.itemData(i) != s.params.release_type
    )
    release_type = privacy.release_type.findData(other)
    on(PAGE_PRIVACY, "a release type", lambda: privacy.release_type.setCurrentIndex(release_type))
    on(PAGE_PRIVACY, "a scenario", lambda: privacy.scenario.setText("a neighbour who knows age"))
    on(PAGE_PRIVACY, "private bounds", lambda: privacy.private_bounds.setChecked(True))
    on(PAGE_PRIVACY, "choosing buckets", lambda: privacy.set_mechanism("buckets"))
    on(PAGE_PRIVACY, "a fix", lambda: privacy.apply(Fix("k = 4", {"k": 4, "n_buckets": None})))
    drop = Fix("leave them out", {"missing_confidential": "drop"})
    on(PAGE_PRIVACY, "a fix the page shows", lambda: privacy.apply(drop))
    assert privacy.drop_missing.isChecked()
    on(PAGE_PRIVACY, "undoing it", lambda: privacy.drop_missing.setChecked(False))
    on(PAGE_PRIVACY + 1, "k on the preview", lambda: typed(preview.k, "9"))
    on(PAGE_PRIVACY + 1, "b on the preview", lambda: typed(preview.n_buckets, "3"))
    ranges = preview.qi_output.findData("range")
    on(PAGE_PRIVACY + 1, "QIs as ranges", lambda: preview.qi_output.setCurrentIndex(ranges))
    median = preview.confidential_output.findData("median")
    on(PAGE_PRIVACY + 1, "median", lambda: preview.confidential_output.setCurrentIndex(median))

    def codes() -> None:
        tag.missing.setText("-1, 999")
        tag.missing.editingFinished.emit()

    on(PAGE_PRIVACY - 1, "missing codes", codes)

    def role() -> None:
        row = list(s.columns).index("hours")
        assert tag.model.setData(tag.model.index(row, COL_ROLE), ROLE_LABELS[Role.QI])

    on(PAGE_PRIVACY - 1, "a role", role)
    on(PAGE_PRIVACY + 1, "a point of the sweep", lambda: window.adopt_point("epsilon", 2.0, 7))
    assert s.params.epsilon == 2.0 and preview.k.value() == 7

    project = save_project(
        new_project(survey_file, s.params.replace(k=11, t=3.0, epsilon=None)),
        tmp_path / "project.json",
    )

    def open_project() -> None:
        window.open_project(project)
        qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)

    open_project()
    assert s.params.k == 11 and privacy.k.value() == 11 and privacy.t.value() == 3.0
    walk(qtbot, window, "a project opened")
