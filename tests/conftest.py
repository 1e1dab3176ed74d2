"""Test set-up: offscreen Qt, hypothesis profiles, the real data sets kept in ``tests/data``."""

from __future__ import annotations

import gc
import gzip
import os
import shutil
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Qt must never look for a display, in CI or on a developer's machine.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MPLBACKEND", "Agg")
# The tests read English: a developer whose shell speaks Spanish or French gets the same
# run as CI (the tests of the languages set theirs).
for _name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"

# A run started in the background by a non-interactive shell ignores Ctrl+C, and the processes
# it starts inherit that: the tests that interrupt a tclose process need it to act on Ctrl+C
# as in a terminal (a handler set here is reset to the default in a child, not inherited).
if (
    threading.current_thread() is threading.main_thread()
    and signal.getsignal(signal.SIGINT) is signal.SIG_IGN
):
    signal.signal(signal.SIGINT, signal.default_int_handler)

# "ci" is derandomized so that a red run is reproducible; CI sets CI=true.
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=60,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dev", deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

ROOT = Path(__file__).resolve().parent.parent
#: the real data sets the tests use, inside the repository (provenance: tests/data/README.md)
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def project_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The folder of real data sets (``tests/data``); the large ones are ``.csv.gz``."""
    return DATA


@pytest.fixture(scope="session")
def unpacked(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """``unpacked("adult.csv.gz")``: a plain copy of a data set, as a user would have it.

    For tests whose subject is the file itself (its name in a report, its checksum, opening
    it in the wizard); the copy is made once per session and must not be changed.
    """
    folder = tmp_path_factory.mktemp("data")

    def copy(name: str) -> Path:
        target = folder / name.removesuffix(".gz")
        if not target.exists():
            with gzip.open(DATA / name, "rb") as src, target.open("wb") as dst:
                shutil.copyfileobj(src, dst)
        return target

    return copy


@pytest.fixture(scope="session")
def sample_workbook() -> Path:
    from resources import SAMPLE_WORKBOOK

    return SAMPLE_WORKBOOK


@pytest.fixture(autouse=True, scope="module")
def servers_end_with_their_file():
    """The local servers a test file starts (the hostile cases' Dask cluster and greeting
    servers) stop when its tests end: their threads must not run beside the next file's."""
    yield
    build = sys.modules.get("tests.hostile_build")
    if build is not None:
        build.stop_servers()


@pytest.fixture(autouse=True)
def gui_thread_garbage(request: pytest.FixtureRequest):
    """A GUI test's windows are deleted by Qt when it ends, on this thread, each parent
    before its children; the garbage collector then frees only Python's side of them.

    Collection is off during the test and runs here, so no collection started by another
    thread of the worker frees Qt objects (the app does the same with
    ``gui.collector.MainThreadCollector``).  A window left to the collector is destroyed in the
    order its reference cycle happens to be broken: a child object freed before the field
    that owned it once crashed a test worker."""
    if request.node.get_closest_marker("gui") is None:
        yield
        return
    gc.disable()
    yield
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication
    from shiboken6 import Shiboken

    if QApplication.instance() is not None:
        for widget in QApplication.topLevelWidgets():
            if Shiboken.createdByPython(widget):
                widget.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    gc.enable()


@pytest.fixture(autouse=True)
def isolated_settings(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """GUI tests keep their QSettings (language, colours, recent files) away from the user's.

    Only tests marked ``gui`` import Qt here, so the engine's tests run without it.
    """
    if request.node.get_closest_marker("gui") is None:
        return
    from PySide6.QtCore import QSettings, QStandardPaths

    QStandardPaths.setTestModeEnabled(True)
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "ini"))


@pytest.fixture
def window(qtbot):
    """The main window, shown at a laptop's size (1100 × 760)."""
    from gui.wizard import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1100, 760)
    win.show()
    return win


@pytest.fixture(scope="module")
def client():
    """A local Dask cluster of two worker processes, one per test module that asks for it."""
    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as c,
    ):
        yield c
