"""Garbage collection on the GUI thread only.

Python's cyclic garbage collector runs in whichever thread happens to allocate when a
generation's threshold is passed: a worker ``QThread``, or a library's event-loop thread.  If
the garbage holds Qt objects (a closed dialog kept in a cycle by a connected slot), they are
then destroyed outside the GUI thread, and Qt may crash the process.  The remedy pyqtgraph
uses: turn the automatic collector off and collect on a timer of the GUI thread, generation
by generation, with Python's own thresholds.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

#: how often the GUI thread looks whether a generation is due (milliseconds)
INTERVAL_MS = 1000


class MainThreadCollector(QObject):
    """Collects garbage on the thread it lives on (the GUI thread), never on another."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        gc.disable()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.check)
        self.timer.start(interval_ms)

    def check(self) -> None:
        """Collect the oldest generation that is due, as the automatic collector would."""
        counts, thresholds = gc.get_count(), gc.get_threshold()
        for generation in (2, 1, 0):
            if counts[generation] > thresholds[generation]:
                gc.collect(generation)
                return

    def stop(self) -> None:
        """Collect once more and hand collection back to Python."""
        self.timer.stop()
        gc.collect()
        gc.enable()


__all__ = ["INTERVAL_MS", "MainThreadCollector"]
