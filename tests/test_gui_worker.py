"""The background task runner: results on the GUI thread, throttled progress, cancel, errors."""

from __future__ import annotations

import time

import pandas as pd
import pytest
from PySide6.QtCore import QThread
from PySide6.QtWidgets import QApplication

from engine.errors import InputError
from gui.table_model import MISSING_TEXT, DataFrameModel, format_value, missing_text
from gui.worker import TaskRunner
from tests.timing import CANCEL_SECONDS, check_time, retry_once

pytestmark = pytest.mark.gui


def wait_until_idle(qtbot, runner: TaskRunner, timeout: int = 10_000) -> None:
    qtbot.waitUntil(lambda: not runner.busy, timeout=timeout)


def test_result_arrives_on_the_gui_thread(qtbot) -> None:
    runner = TaskRunner()
    seen: dict[str, object] = {}

    def work(task):
        seen["worker"] = QThread.currentThread()
        return 42

    def done(result):
        seen["result"] = result
        seen["callback"] = QThread.currentThread()

    runner.start(work, title="answer", on_finished=done)
    wait_until_idle(qtbot, runner)
    gui_thread = QApplication.instance().thread()
    assert seen["result"] == 42
    assert seen["worker"] is not gui_thread
    assert seen["callback"] is gui_thread


def test_progress_is_throttled_to_about_ten_a_second(qtbot) -> None:
    runner = TaskRunner()
    updates: list[float] = []
    runner.progress.connect(lambda f, m: updates.append(f))

    def work(task):
        start = time.monotonic()
        i = 0
        while time.monotonic() - start < 0.6:
            i += 1
            task.step(min(i / 1e6, 0.99), "busy")
        task.step(1.0, "done")
        return i

    result: list[int] = []
    runner.start(work, title="busy", on_finished=result.append)
    wait_until_idle(qtbot, runner)
    assert result and result[0] > 1000  # the work called progress thousands of times
    assert 2 <= len(updates) <= 10
    assert updates[-1] == 1.0


@retry_once
def test_cancel_stops_the_work_and_reports_it(qtbot) -> None:
    runner = TaskRunner()
    outcome: list[str] = []

    def work(task):
        for i in range(10_000):
            task.step(i / 10_000, "looping")
            time.sleep(0.001)
        return "finished"

    runner.start(
        work,
        title="loop",
        on_finished=lambda r: outcome.append(r),
        on_cancelled=lambda: outcome.append("cancelled"),
    )
    qtbot.wait(100)
    started = time.monotonic()
    runner.cancel()
    wait_until_idle(qtbot, runner)
    assert outcome == ["cancelled"]
    # uncancelled, the work runs for more than 10 s
    check_time(time.monotonic() - started, CANCEL_SECONDS, "Cancel")


def test_errors_come_back_with_their_traceback(qtbot) -> None:
    runner = TaskRunner()
    failures: list[tuple[BaseException, str]] = []

    def work(task):
        raise InputError("age: not a number")

    runner.start(work, title="bad", on_failed=lambda e, d: failures.append((e, d)))
    wait_until_idle(qtbot, runner)
    ((err, detail),) = failures
    assert isinstance(err, InputError) and err.message == "age: not a number"
    assert "Traceback" in detail and "work" in detail


def test_progress_panel_appears_only_for_long_work(qtbot) -> None:
    from gui.widgets import ProgressPanel

    runner = TaskRunner(delay_ms=300)
    panel = ProgressPanel(runner)
    qtbot.addWidget(panel)
    panel.show()  # a parent would show it; the panel hides itself until needed
    panel.hide()
    runner.start(lambda task: 1, title="quick")
    wait_until_idle(qtbot, runner)
    assert not panel.isVisible()

    runner.start(lambda task: time.sleep(0.8), title="slow")
    qtbot.waitUntil(panel.isVisible, timeout=2000)
    assert "slow" in panel.title.text()
    wait_until_idle(qtbot, runner)
    assert not panel.isVisible()


def test_a_callback_may_start_the_next_task(qtbot) -> None:
    runner = TaskRunner()
    results: list[int] = []

    def first_done(value):
        results.append(value)
        runner.start(lambda task: value + 1, title="second", on_finished=results.append)

    runner.start(lambda task: 1, title="first", on_finished=first_done)
    qtbot.waitUntil(lambda: len(results) == 2, timeout=5000)
    assert results == [1, 2]


def test_a_new_task_cancels_the_running_one_and_starts_when_it_stopped(qtbot) -> None:
    """Starting a task while another runs cancels that one (its callbacks are not called)
    and runs the new one after it; only the latest of several waiting requests runs."""
    runner = TaskRunner()
    outcome: list[str] = []

    def slow(task):
        for _ in range(2000):
            task.step(0.5, "waiting")
            time.sleep(0.005)
        return "slow"

    runner.start(
        slow,
        title="slow",
        on_finished=outcome.append,
        on_cancelled=lambda: outcome.append("slow cancelled"),
    )
    assert runner.busy
    assert runner.start(lambda task: "middle", title="middle", on_finished=outcome.append) is None
    runner.start(lambda task: "latest", title="latest", on_finished=outcome.append)
    assert runner.busy  # no error: the running task is being cancelled
    qtbot.waitUntil(lambda: outcome == ["latest"], timeout=10_000)
    wait_until_idle(qtbot, runner)
    assert outcome == ["latest"]


def test_table_model_is_lazy_on_a_million_rows(qtbot, monkeypatch) -> None:
    """The view asks only for the cells it shows, and only those are formatted.

    (How long showing a million rows takes: ``benchmarks/bench_table_model.py``.)
    """
    from PySide6.QtWidgets import QTableView

    from gui import table_model

    formatted: list[object] = []

    def counting_format(value, point="."):
        formatted.append(value)
        return format_value(value, point)

    monkeypatch.setattr(table_model, "format_value", counting_format)
    n = 1_000_000
    frame = pd.DataFrame(
        {
            "id": pd.RangeIndex(n),
            "income": pd.Series(range(n), dtype="float64") / 7,
            "region": pd.Series(["North", "South"] * (n // 2), dtype="str"),
        }
    )
    frame.loc[3, "income"] = float("nan")
    model = DataFrameModel(frame)
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.resize(600, 400)
    view.show()
    view.scrollToBottom()
    QApplication.processEvents()
    assert model.rowCount() == n and model.columnCount() == 3
    assert 0 < len(formatted) < 2_000, f"{len(formatted):,} cells formatted for one screenful"
    assert model.data(model.index(n - 1, 2)) == "South"
    assert model.data(model.index(3, 1)) == MISSING_TEXT
    assert model.data(model.index(1, 1)) == "0.142857"
    assert (
        model.headerData(0, __import__("PySide6.QtCore").QtCore.Qt.Orientation.Horizontal) == "id"
    )


def test_format_value() -> None:
    assert format_value(3.0) == "3"
    assert format_value(None) == MISSING_TEXT
    assert format_value(pd.NA) == MISSING_TEXT
    assert format_value(1234.5678) == "1234.57"
    assert format_value(1234567.5) == "1234567.5"  # no exponent for a spreadsheet's number
    assert format_value(-98765432.125, ",") == "-98765432,12"
    assert format_value("x") == "x"


def test_unexpected_errors_are_logged_and_shown(qtbot, tmp_path, monkeypatch, request) -> None:
    import logging
    import sys

    from PySide6.QtCore import QStandardPaths
    from PySide6.QtWidgets import QWidget

    import gui.errors
    from gui.errors import error_box, report_error, setup_logging

    # the log goes under this test's folder, not the shared home folder (parallel workers and
    # other runs use it too), and its handler is removed afterwards: later tests log nowhere
    QStandardPaths.setTestModeEnabled(True)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(gui.errors, "_log_file", None)
    root = logging.getLogger()
    before, level = set(root.handlers), root.level
    log_file = setup_logging()

    def remove_handler() -> None:
        for handler in set(root.handlers) - before:
            root.removeHandler(handler)
            handler.close()
        root.setLevel(level)

    request.addfinalizer(remove_handler)
    if sys.platform.startswith("linux"):
        assert log_file.is_relative_to(tmp_path)
    parent = QWidget()
    qtbot.addWidget(parent)
    try:
        raise ZeroDivisionError("division by zero in a slot")
    except ZeroDivisionError as err:
        box = report_error(parent, "Preview", err)
    assert "bug" in box.text() and "ZeroDivisionError" in box.text()
    assert str(log_file) in box.informativeText()
    assert "Traceback" in box.detailedText()
    for handler in root.handlers:
        handler.flush()
    assert "division by zero in a slot" in log_file.read_text(encoding="utf-8")
    box.close()

    friendly = error_box(parent, "Import", InputError("age: not a number", detail="row 7: 'x'"))
    assert friendly.text() == "age: not a number"
    assert friendly.detailedText() == "row 7: 'x'"


def test_a_date_column_without_times_shows_dates() -> None:
    frame = pd.DataFrame(
        {
            "born": pd.to_datetime(["1942-10-07", None, "1950-01-02"]),
            "seen": pd.to_datetime(["2020-01-01 08:30", "2020-01-02 00:00", None]),
        }
    )
    model = DataFrameModel(frame)
    shown = [[model.index(r, c).data() for c in range(2)] for r in range(3)]
    assert [row[0] for row in shown] == ["1942-10-07", missing_text(), "1950-01-02"]
    # a column with times keeps them, midnight included
    assert shown[0][1] == "2020-01-01 08:30:00" and shown[1][1] == "2020-01-02 00:00:00"
