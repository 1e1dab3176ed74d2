"""Garbage is collected on the GUI thread only (gui.collector), never by another thread."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest

pytestmark = pytest.mark.gui


class _Holder:
    """Half of a reference cycle that keeps a Qt object alive until a collection."""


def _qt_cycle() -> weakref.ref:
    from PySide6.QtCore import QObject

    holder = _Holder()
    holder.obj = QObject()
    holder.self = holder
    return weakref.ref(holder)


def test_garbage_waits_for_the_gui_thread(qapp) -> None:
    from gui.collector import MainThreadCollector

    collector = MainThreadCollector(interval_ms=60_000)
    old = gc.get_threshold()
    try:
        assert not gc.isenabled()
        gc.set_threshold(1, 1, 1)
        cycle = _qt_cycle()

        def allocate() -> None:  # another thread that allocates a lot
            for _ in range(10_000):
                [object() for _ in range(3)]

        worker = threading.Thread(target=allocate)
        worker.start()
        worker.join()
        assert cycle() is not None  # the other thread did not collect it
        collector.check()
        collector.check()
        collector.check()
        assert cycle() is None  # the GUI thread's timer did
    finally:
        gc.set_threshold(*old)
        collector.stop()
        collector.deleteLater()
    assert gc.isenabled()
