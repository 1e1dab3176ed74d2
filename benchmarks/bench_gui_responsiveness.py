"""Worst pause of the GUI thread while the wizard computes a release of a large table.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_gui_responsiveness.py [ROWS [SECONDS]]

Imports a synthetic survey (ROWS rows, default 200,000; quasi-identifiers age,
sex, region, hours; confidential income; t = 2, k = 5) through the import page, then runs the
preview with a 20 ms timer on the GUI thread,
to the end or, given SECONDS, for that long and then presses Cancel.  Prints the run time, the
number of timer ticks, the longest gap between two, and how long Cancel took to stop the run.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtCore import QEventLoop, QTimer

from engine.roles import Role
from gui.app import make_app


def main(rows: int, seconds: float | None = None) -> None:
    import numpy as np
    import pandas as pd

    from gui.wizard import MainWindow

    app = make_app()
    from gui.screenshots import isolate_settings

    isolate_settings()  # leave the user's recent files alone
    rng = np.random.default_rng(0)
    data = pd.DataFrame(
        {
            "age": rng.integers(16, 95, rows),
            "sex": rng.choice(["F", "M"], rows),
            "region": rng.choice([f"R{i}" for i in range(12)], rows),
            "hours": rng.integers(0, 70, rows),
            "income": np.round(rng.lognormal(10, 0.8, rows), -2),
        }
    )
    win = MainWindow()
    win.show()
    s = win.session
    # import the table as a user would (the engine process reads it and keeps it)
    folder = Path(tempfile.mkdtemp(prefix="tclose-bench-"))
    data.to_csv(folder / "survey.csv", index=False)
    win.wizard.import_page.open_path(folder / "survey.csv")
    while win.runner.busy or s.data is None:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 10)
        time.sleep(0.002)
    roles = {
        "age": Role.QI,
        "sex": Role.QI,
        "region": Role.QI,
        "hours": Role.QI,
        "income": Role.CONFIDENTIAL,
    }
    for name, role in roles.items():
        s.set_role(name, role)
    s.t, s.k = 2.0, 5
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    timer = QTimer()
    timer.setInterval(20)
    timer.timeout.connect(tick)
    win.wizard.next()
    win.wizard.next()
    win.wizard.privacy_page.initializePage()
    timer.start()
    last[0] = time.perf_counter()
    started = time.perf_counter()
    win.wizard.next()  # starts the preview in the background
    cancel_took = None
    while win.runner.busy:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 10)
        time.sleep(0.002)
        if seconds is not None and cancel_took is None and time.perf_counter() - started > seconds:
            win.progress.cancel_button.click()
            cancel_took = time.perf_counter()
    elapsed = time.perf_counter() - started
    if cancel_took is not None:
        cancel_took = time.perf_counter() - cancel_took
    timer.stop()
    ok = win.session.preview_is_current
    stopped = (
        "" if cancel_took is None else f" cancel_after={seconds}s stop_took={cancel_took:.2f}s"
    )
    print(
        f"rows={rows:,} run={elapsed:.1f}s preview_ok={ok} ticks={len(gaps)} "
        f"worst_gap={max(gaps) * 1000:.0f}ms median_gap={np.median(gaps) * 1000:.0f}ms{stopped}"
    )
    if not ok:
        print(win.wizard.preview_page.status.text())


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 200_000,
        float(sys.argv[2]) if len(sys.argv) > 2 else None,
    )
