"""The window never freezes: a timer on the GUI thread keeps ticking during a long run,
Cancel stops the run promptly, and a cancelled export leaves no file.

The bounds leave room for a loaded two-core machine and are tried twice (``tests/timing.py``);
the figures themselves come from ``benchmarks/bench_gui_responsiveness.py``.
"""

from __future__ import annotations

import gc
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import QTimer

from engine.io import ImportInfo
from engine.roles import Role
from gui.wizard import PAGE_PREVIEW, MainWindow
from tests.timing import CANCEL_SECONDS, TooSlow, check_time, retry_once

pytestmark = pytest.mark.gui

#: how long the test lets the run go before pressing Cancel (seconds)
OBSERVE = 1.5
#: the worst pause the GUI thread may take while the engine works (seconds); a quiet machine
#: shows 20–100 ms, a window that computes on its own thread freezes for the whole run
MAX_GAP = 0.5
#: the 20 ms timer must tick at least this often (per second) while the engine works
MIN_TICK_RATE = 10


def synthetic_survey(n: int, seed: int = 0) -> pd.DataFrame:
    """A survey-like table: numeric and categorical quasi-identifiers, a skewed income."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "age": rng.integers(16, 95, n),
            "sex": rng.choice(["F", "M"], n),
            "region": rng.choice([f"R{i}" for i in range(12)], n),
            "hours": rng.integers(0, 70, n),
            "income": np.round(rng.lognormal(10, 0.8, n), -2),
        }
    )


class GapMeter:
    """A 20 ms QTimer on the GUI thread; records the longest wait between two ticks."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.ticks = 0
        self._last = time.perf_counter()
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.worst = max(self.worst, now - self._last)
        self._last = now
        self.ticks += 1

    def start(self) -> None:
        # What earlier tests left on the heap is collected now and kept out of later full
        # collections, so that a collection of the test suite's garbage (hundreds of ms late
        # in a long run) does not count as a pause of the app.
        gc.collect()
        gc.freeze()
        self._last = time.perf_counter()
        self.timer.start()

    def reset(self) -> None:
        """Forget what was measured so far (e.g. the test's own set-up)."""
        self.worst, self.ticks, self._last = 0.0, 0, time.perf_counter()

    def stop(self) -> None:
        self.timer.stop()
        gc.unfreeze()


def window_on_survey(qtbot, n: int, tmp_path: Path) -> MainWindow:
    """A shown window whose session holds ``synthetic_survey(n)``: the size under test is
    put in directly, as reading a file that large would take most of the test's time."""
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    data = synthetic_survey(n)
    win.session.set_data(data, ImportInfo(tmp_path / "survey.csv", "csv", n_rows=n, n_columns=5))
    return win


def start_preview(qtbot, n: int, tmp_path: Path) -> MainWindow:
    win = window_on_survey(qtbot, n, tmp_path)
    s = win.session
    for name, role in {
        "age": Role.QI,
        "sex": Role.QI,
        "region": Role.QI,
        "hours": Role.QI,
        "income": Role.CONFIDENTIAL,
    }.items():
        s.set_role(name, role)
    win.wizard.import_page.show_session()
    win.wizard.next()
    win.wizard.next()
    s.update(t=2.0, epsilon=None, k=5)
    win.wizard.privacy_page.initializePage()
    # The feasibility check runs on its own worker thread; let it end here, as a user's would
    # before pressing Next: a thread still running when the test's window is destroyed aborts
    # the whole test process.
    qtbot.waitUntil(lambda: not win.wizard.privacy_page.checking, timeout=60_000)
    win.wizard.next()
    assert win.wizard.currentId() == PAGE_PREVIEW
    return win


def check_gaps(meter: GapMeter) -> None:
    if meter.worst >= MAX_GAP:
        raise TooSlow(f"the GUI thread froze for {meter.worst * 1000:.0f} ms")


@retry_once
def test_a_long_run_never_freezes_the_window_and_cancels_quickly(qtbot, tmp_path) -> None:
    meter = GapMeter()
    meter.start()
    win = start_preview(qtbot, 200_000, tmp_path)
    assert win.runner.busy, "the preview should run in the background"
    meter.reset()  # measure the run, not the set-up above (done by the test on this thread)
    started = time.perf_counter()
    qtbot.waitUntil(lambda: time.perf_counter() - started > OBSERVE, timeout=10_000)
    assert win.runner.busy, "the run finished too early to test responsiveness; use more rows"
    qtbot.waitUntil(win.progress.isVisible, timeout=1000)  # progress + Cancel after 0.5 s
    win.progress.cancel_button.click()
    cancelled_at = time.perf_counter()
    qtbot.waitUntil(lambda: not win.runner.busy, timeout=5000)
    stop_time = time.perf_counter() - cancelled_at
    meter.stop()
    check_time(stop_time, CANCEL_SECONDS, "Cancel")
    if meter.ticks < OBSERVE * MIN_TICK_RATE:
        raise TooSlow(f"the GUI thread ticked {meter.ticks} times in {OBSERVE} s")
    check_gaps(meter)
    assert not win.session.preview_is_current
    assert "Cancelled" in win.wizard.preview_page.status.text()
    assert not win.progress.isVisible()


@retry_once
def test_cancelling_an_export_leaves_no_file(qtbot, tmp_path, monkeypatch) -> None:
    from engine import Release, ReleaseParams, Verification
    from tests.factories import summary_for

    # pyarrow's writer finishes 600,000 rows before Cancel can be clicked: use the pandas
    # writer here (same cancellation checks); tests/test_parquet.py cancels the fast one
    monkeypatch.setattr("engine.io.write.write_csv", lambda *args, **kwargs: False)

    n = 600_000
    win = window_on_survey(qtbot, n, tmp_path)
    s = win.session
    data = s.data
    config = ReleaseParams(qi=("age", "sex"), confidential=("income",), k=5, t=2.0)
    verification = Verification(5, 1.5, n, n // 5, np.full(n // 5, 5), True, "ok")
    summary = summary_for(config, verification)
    release = Release(
        data[["age", "sex", "income"]], config, summary, verification, np.zeros(n), data
    )
    s.release = release
    page = win.wizard.export_page
    page.initializePage()
    page.format.setCurrentText("CSV text (.csv)")
    target = tmp_path / "out" / "release.csv"
    target.parent.mkdir(exist_ok=True)
    page.report.setChecked(False)
    page.path.setText(str(target))
    meter = GapMeter()
    meter.start()
    page.export()
    assert win.runner.busy
    qtbot.wait(300)
    assert win.runner.busy, "the export finished too early to test Cancel"
    win.progress.cancel_button.click()
    cancelled_at = time.perf_counter()
    qtbot.waitUntil(lambda: not win.runner.busy, timeout=5000)
    meter.stop()
    # the release writer checks Cancel between batches of rows; what matters most here is
    # that nothing is left behind
    check_time(time.perf_counter() - cancelled_at, CANCEL_SECONDS, "Cancelling the export")
    assert list(target.parent.iterdir()) == [], "a cancelled export left files behind"
    assert "nothing was written" in page.result.text()
    assert win.session.exported == []
    check_gaps(meter)
