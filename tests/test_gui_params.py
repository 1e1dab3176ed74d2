"""The GUI holds the parameters exactly: a project opened, walked through and saved is equal.

The privacy and preview pages' boxes are made from the parameters' declared fields
(:mod:`gui.fields`): they hold any valid value as it is and write back only what the user
changed.  Each test here goes through the real window: File › Open project, Next through
every page the wizard allows, Back to the start, File › Save project.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QWizard

from engine import ReleaseParams
from engine.project import load_project, new_project, save_project
from gui import i18n
from gui.fields import NumberField
from gui.project_io import save_project_file
from tests.test_params import (
    EXTREME_BOUNDS,
    EXTREME_BUCKETS,
    EXTREME_EPSILON,
    EXTREME_K,
    EXTREME_T,
    few_examples,
    survey,
    valid_params,
)

pytestmark = pytest.mark.gui

BASE = {"qi": ("age", "region"), "confidential": ("income",), "identifiers": ("id",), "k": 5}
NOISE = {"mechanism": "laplace", "epsilon": 1.0}
#: the projects of issue 27's table, each of which the GUI used to change on the way
TABLE = {
    "bounds 0:1,234,567": {**NOISE, "bounds": {"income": EXTREME_BOUNDS[0]}},
    "bounds 0.125:99,999.875": {**NOISE, "bounds": {"income": EXTREME_BOUNDS[1]}},
    "t 2.3456": {"t": EXTREME_T[0]},
    "t 1500": {"t": EXTREME_T[1]},
    "ε 0.0005": {"epsilon": EXTREME_EPSILON[0]},
    "ε 60": {"epsilon": EXTREME_EPSILON[1]},
    "k 2,000,000": {"t": 2.0, "k": EXTREME_K},
    "buckets 5000": {"t": 2.0, "n_buckets": EXTREME_BUCKETS},
}


@pytest.fixture
def lean_preview(monkeypatch):
    """The preview page computes the release but draws no figures (the parameters are what
    is tested here, and drawing is most of a preview's time)."""
    from engine import anonymize
    from gui.previews import Preview

    def release_only(data, params, task, **_drawing):
        return Preview(anonymize(data, params, task=task))

    monkeypatch.setattr("gui.pages.preview_page.build_preview", release_only)
    monkeypatch.setattr(
        "gui.pages.preview_page.run_engine", lambda fn, *args, **kwargs: fn(*args, **kwargs)
    )


@pytest.fixture(scope="module")
def survey_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("gui-params") / "survey.csv"
    survey().to_csv(path, index=False)
    return path


def through_the_gui(qtbot, window, params: ReleaseParams, data_file, folder) -> ReleaseParams:
    """Open a project of ``params`` in ``window``, walk every page, save; what was saved."""
    project = save_project(new_project(data_file, params), folder / "opened.json")
    window.open_project(project)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=30_000)
    wizard = window.wizard
    assert window.session.params == params, "the project did not open whole"
    visited = {wizard.currentId()}
    while True:
        qtbot.waitUntil(
            lambda: not window.runner.busy and not wizard.privacy_page.checking, timeout=60_000
        )
        if not wizard.button(QWizard.WizardButton.NextButton).isEnabled():
            break
        wizard.next()
        visited.add(wizard.currentId())
    while wizard.currentId() != wizard.startId():
        wizard.back()
    saved = save_project_file(window, window.session, folder / "saved.json")
    assert saved is not None
    return load_project(saved).params


@pytest.mark.parametrize("changes", TABLE.values(), ids=TABLE.keys())
def test_the_table_comes_back_exact_from_the_gui(
    qtbot, window, lean_preview, changes, survey_file, tmp_path
) -> None:
    params = ReleaseParams(**{**BASE, **changes})
    assert through_the_gui(qtbot, window, params, survey_file, tmp_path) == params
    # the boxes show every digit (here in English conventions), bound to the session
    privacy = window.wizard.privacy_page
    for name, value in changes.items():
        box = getattr(privacy, name)
        if isinstance(box, NumberField):
            assert box.value() == value and box.value_of(box.text()) == value, box.text()
    if "bounds" in changes:
        assert privacy.bounds.text() in ("income=0:1,234,567", "income=0.125:99,999.875")


@few_examples(4)
@given(params=valid_params(extremes=True))
def test_any_valid_parameters_come_back_from_the_gui(
    params, qtbot, window, lean_preview, survey_file, tmp_path_factory
) -> None:
    folder = tmp_path_factory.mktemp("walk")
    assert through_the_gui(qtbot, window, params, survey_file, folder) == params


def test_spanish_boxes_show_and_read_the_decimal_comma(qtbot) -> None:
    """In Spanish t = 2.3456 reads "2,3456", two million "2.000.000"; both marks are typed."""
    from PySide6.QtCore import QCoreApplication

    app = QCoreApplication.instance()
    try:
        i18n.install(app, "es")
        assert QLocale().decimalPoint() == ","
        t, k = NumberField("t"), NumberField("k")
        qtbot.addWidget(t)
        qtbot.addWidget(k)
        t.set_value(2.3456)
        k.set_value(EXTREME_K)
        assert t.text() == "2,3456" and k.text() == "2.000.000"
        edits = []
        t.edited.connect(edits.append)
        for typed, value in (("2,5", 2.5), ("1500", 1500.0), ("1.5", 1.5), ("0,0005", None)):
            t.lineEdit().setText("")
            t.lineEdit().insert(typed)
            if value is None:
                assert t.problem.startswith("t debe ser un número ≥ 1")  # in the language
            else:
                assert t.value() == value and not t.problem
        assert edits == [2.5, 1500.0, 1.5]
    finally:
        i18n.install(app, "en")
    assert QLocale().decimalPoint() == "."
