"""The sweep dialog and the project file functions, driven as the wizard drives them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PySide6.QtWidgets import QMessageBox

from engine.cli import main
from engine.io import read_table
from engine.params import ReleaseParams
from engine.project import load_project
from gui.project_io import apply_project, open_project_file, save_project_file
from gui.state import Session
from gui.sweep_dialog import SweepDialog
from tests.test_gui_wizard import ADULT_ROLES

pytestmark = pytest.mark.gui


def small_data(n: int = 400, seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "age": rng.integers(18, 90, n),
            "hours": rng.integers(1, 60, n),
            "illness": rng.choice(["flu", "cold", "asthma", "none"], n, p=[0.2, 0.3, 0.1, 0.4]),
        }
    )


@pytest.fixture
def dialog(qtbot) -> SweepDialog:
    config = ReleaseParams(qi=("age", "hours"), confidential=("illness",), k=5, t=2.0, seed=1)
    dlg = SweepDialog(small_data(), config)
    qtbot.addWidget(dlg)
    dlg.show()
    return dlg


def test_the_sweep_runs_in_the_engine_process_and_shows_each_point_as_it_is_done(
    qtbot, dialog, monkeypatch
) -> None:
    import gui.sweep_dialog
    from engine.report.sweep import run_sweep

    called = []
    real = gui.sweep_dialog.run_engine

    def spy(fn, *args, **kwargs):
        called.append(fn)
        return real(fn, *args, **kwargs)

    monkeypatch.setattr(gui.sweep_dialog, "run_engine", spy)
    shown: list[int] = []  # rows in the table whenever a point arrived during the run
    dialog.point_done.connect(lambda _row: shown.append(dialog.results.rowCount()))
    dialog.levels_edit.setText("2, 3, 4")
    dialog.k_edit.setText("5, 10")
    dialog.start()
    qtbot.waitUntil(lambda: not dialog.runner.busy, timeout=60_000)
    assert called == [run_sweep]
    assert len(shown) == 6 and dialog.results.rowCount() == 6
    assert shown[0] <= 1 < 6  # the table grew point by point
    assert "6 points" in dialog.status.text()


def test_cancelling_a_sweep_keeps_the_points_done(qtbot, dialog) -> None:
    dialog.levels_edit.setText("1.5, 2, 2.5, 3, 3.5, 4, 5, 6")
    dialog.k_edit.setText("5, 10, 20")
    dialog.start()
    qtbot.waitUntil(lambda: dialog.results.rowCount() >= 1, timeout=60_000)
    dialog.cancel()
    qtbot.waitUntil(lambda: not dialog.runner.busy, timeout=10_000)
    done = dialog.results.rowCount()
    assert 1 <= done < 24
    assert dialog.status.text().startswith(f"Sweep cancelled after {done} of 24 points")


def test_sweep_runs_in_background_and_emits_the_chosen_point(qtbot, dialog) -> None:
    dialog.levels_edit.setText("2, 4")
    dialog.k_edit.setText("5, 20")
    dialog.start()
    assert dialog.runner.busy and not dialog.run_button.isEnabled()
    qtbot.waitUntil(lambda: dialog.table is not None, timeout=30_000)
    qtbot.waitUntil(lambda: not dialog.runner.busy, timeout=5_000)
    table = dialog.table
    assert len(table) == 4 and dialog.results.rowCount() == 4
    assert table["feasible"].all()
    assert dialog.figure_view.figure is not None
    assert not dialog.use_button.isEnabled()  # nothing chosen yet
    # choosing a row of the table selects the point and rings it in the plot
    row = int(np.flatnonzero((table["t"] == 4.0) & (table["k"] == 20))[0])
    dialog.results.selectRow(row)
    assert dialog.chosen == ("t", 4.0, 20) and dialog.use_button.isEnabled()
    labels = [line.get_label() for line in dialog.figure_view.figure.axes[0].get_lines()]
    assert "chosen" in labels
    with qtbot.waitSignal(dialog.point_chosen, timeout=2_000) as signal:
        dialog.use_button.click()
    assert signal.args == ["t", 4.0, 20]


def test_sweep_can_be_cancelled(qtbot, dialog) -> None:
    dialog.levels_edit.setText("1.5, 2, 3, 4, 5, 6, 8, 10")
    dialog.k_edit.setText("5, 10, 20")
    dialog.start()
    dialog.cancel()
    qtbot.waitUntil(lambda: not dialog.runner.busy, timeout=30_000)
    assert dialog.table is None
    assert "cancelled" in dialog.status.text()
    assert dialog.run_button.isEnabled()


def test_bad_grid_is_shown_not_run(qtbot, dialog, monkeypatch) -> None:
    shown = []
    monkeypatch.setattr("gui.sweep_dialog.report_error", lambda *a, **k: shown.append(a[2]))
    dialog.levels_edit.setText("2, x")
    dialog.start()
    assert not dialog.runner.busy
    assert shown and "t values" in shown[0].message


@pytest.fixture
def adult_session(unpacked, tmp_path: Path) -> Session:
    """A session on the first 3,000 records of adult.csv, tagged as the issue asks."""
    src = unpacked("adult.csv.gz").read_text(encoding="utf-8").splitlines(keepends=True)
    path = tmp_path / "adult-3000.csv"
    path.write_text("".join(src[:3001]), encoding="utf-8")
    imported = read_table(path)
    session = Session()
    session.set_data(imported.data, imported.info)
    for name in session.columns:
        session.set_role(name, ADULT_ROLES.get(name))
    session.update(t=2.0, epsilon=None, k=10, seed=20261122)
    return session


def test_project_saved_from_gui_replays_from_cli(qtbot, adult_session, tmp_path) -> None:
    """GUI save → ``tclose run`` → the same release, verified the same, as the GUI's own run."""
    from engine.release import anonymize, verify_release

    project_path = save_project_file(None, adult_session, tmp_path / "adult")
    assert project_path == tmp_path / "adult.json"
    doc = json.loads(project_path.read_text(encoding="utf-8"))
    assert sorted(doc["params"]["qi"]) == sorted(set(ADULT_ROLES) - {"salary-class"})
    assert doc["seed_policy"]["seed"] == 20261122

    expected = anonymize(adult_session.data, adult_session.params)
    out = tmp_path / "replayed.csv"
    report = tmp_path / "replayed.html"
    assert main(["run", str(project_path), "-o", str(out), "--report", str(report), "-q"]) == 0
    replayed = read_table(out).data
    cfg = adult_session.params
    ours = verify_release(expected.table, cfg.qi, cfg.confidential, t=cfg.t, k=cfg.k)
    theirs = verify_release(replayed, cfg.qi, cfg.confidential, t=cfg.t, k=cfg.k)
    assert theirs.ok and ours.ok
    assert (theirs.k, theirs.t, theirs.n_classes) == (ours.k, ours.t, ours.n_classes)
    assert np.array_equal(theirs.class_sizes, ours.class_sizes)
    # with a seed the released table is the same, row for row
    pd.testing.assert_frame_equal(
        replayed.astype(str).reset_index(drop=True),
        expected.table.astype(str).reset_index(drop=True),
        check_dtype=False,
    )
    assert report.is_file() and f"achieved k = {ours.k}," in report.read_text(encoding="utf-8")


def test_open_project_restores_the_session(qtbot, adult_session, tmp_path) -> None:
    path = save_project_file(None, adult_session, tmp_path / "p.json")
    project = open_project_file(None, path)
    assert project is not None
    fresh = Session()
    apply_project(fresh, project, read_table(project.input.path))
    assert fresh.params == adult_session.params


def test_open_project_with_changed_input_asks(qtbot, adult_session, tmp_path, monkeypatch) -> None:
    path = save_project_file(None, adult_session, tmp_path / "p.json")
    data_file = load_project(path).input.path
    data_file.write_text(data_file.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    asked = []

    def answer(parent, title, text, *args):
        asked.append(text)
        return QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "question", answer)
    assert open_project_file(None, path) is None
    assert asked and "changed since the project was saved" in asked[0]
    # the command line refuses the changed file too, with exit code 2
    assert main(["run", str(path), "-o", str(tmp_path / "x.csv")]) == 2
    assert not (tmp_path / "x.csv").exists()
