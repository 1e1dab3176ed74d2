"""Worst pause of the GUI thread while the wizard computes a release of a large table.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_gui_responsiveness.py [ROWS]

Runs the preview of a synthetic survey (ROWS rows, default 200,000; quasi-identifiers age,
sex, region, hours; confidential income; t = 2, k = 5) to the end with a 20 ms timer on the GUI
thread, and prints the run time, the number of timer ticks and the longest gap between two.
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

from engine.io import ImportInfo
from engine.roles import Role
from gui.app import make_app


def main(rows: int) -> None:
    import numpy as np
    import pandas as pd

    from gui.wizard import MainWindow

    app = make_app()
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
    s.set_data(data, ImportInfo(Path(tempfile.gettempdir()) / "survey.csv", "csv"))
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
    while win.runner.busy:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 10)
        time.sleep(0.002)
    elapsed = time.perf_counter() - started
    timer.stop()
    ok = win.session.preview_is_current
    print(
        f"rows={rows:,} run={elapsed:.1f}s preview_ok={ok} ticks={len(gaps)} "
        f"worst_gap={max(gaps) * 1000:.0f}ms median_gap={np.median(gaps) * 1000:.0f}ms"
    )
    if not ok:
        print(win.wizard.preview_page.status.text())


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200_000)
