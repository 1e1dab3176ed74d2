"""How long the preview table takes to show a large data frame (the model is lazy).

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_table_model.py [ROWS]

Builds a frame of ROWS rows (default 1,000,000; an integer, a decimal and a text column),
wraps it in the wizard's table model, shows it in a 600 × 400 view and scrolls to the last
row.  Prints the seconds from the model's creation until the view has painted, and how many
cells were formatted (a screenful, whatever the number of rows).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pandas as pd
from PySide6.QtWidgets import QApplication, QTableView

from gui import table_model


def main(rows: int) -> None:
    app = QApplication.instance() or QApplication([])
    frame = pd.DataFrame(
        {
            "id": pd.RangeIndex(rows),
            "income": pd.Series(range(rows), dtype="float64") / 7,
            "region": pd.Series(["North", "South"] * (rows // 2 + 1), dtype="str")[:rows],
        }
    )
    formatted = 0
    plain = table_model.format_value

    def counting(value: object) -> str:
        nonlocal formatted
        formatted += 1
        return plain(value)

    table_model.format_value = counting
    started = time.perf_counter()
    model = table_model.DataFrameModel(frame)
    view = QTableView()
    view.setModel(model)
    view.resize(600, 400)
    view.show()
    view.scrollToBottom()
    app.processEvents()
    elapsed = time.perf_counter() - started
    print(f"rows={rows:,} show_and_scroll={elapsed:.3f}s cells_formatted={formatted}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
