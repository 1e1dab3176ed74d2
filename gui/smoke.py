"""``tclose-gui --smoke-test``: prove that an installed app works end to end.

An installer build can look complete and still miss a data file, a Qt plugin or a native
library that only one code path loads.  The smoke test walks the path a newcomer takes --
open the bundled sample (in the engine's helper process, like the wizard), release it with
t-closeness, verify the release, show the main window -- and also releases it once with
each noise mechanism (Laplace: the path that loads OpenDP's native library).  The sample is
too small for the compiled kernels (numba) that form the classes of large files, so they
are run on their own and compared with the numpy route, and the line says which route ran
and where its machine code is cached.  It prints one line and returns 0 only when every
release verifies and, where numba publishes wheels, the compiled kernels ran and agreed;
the build scripts run it against the freshly built bundle, and IT staff can run it on a
target machine.
"""

from __future__ import annotations

import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
from PySide6.QtWidgets import QApplication

#: the small release the smoke test runs on the bundled sample (400 records)
SMOKE_QI = ("age", "sex", "region")
SMOKE_CONFIDENTIAL = ("income",)
SMOKE_T = 2.0
SMOKE_K = 5
SMOKE_SEED = 20151
#: the noise release: ε and public bounds of the sample's income
SMOKE_EPSILON = 1.0
SMOKE_INCOME_BOUNDS = (0.0, 250_000.0)


def run_smoke_test(app: QApplication) -> int:
    """Run the end-to-end check and print its one-line result; 0 when every release verifies.

    Every failure, including a missing module or file in a broken bundle, becomes a line
    starting with ``smoke test FAILED`` and exit code 1 rather than a traceback, because the
    windowed app has no console to show one in on Windows.
    """
    started = time.perf_counter()
    try:
        data, line, ok = _release_and_verify()
        noise_line, noise_ok = _noise_release_and_verify(data)
        kernels_line, kernels_ok = _compiled_kernels()
        title = _show_main_window(app)
    except Exception as err:
        print(f"tclose smoke test FAILED: {type(err).__name__}: {err}")
        return 1
    seconds = time.perf_counter() - started
    passed = ok and noise_ok and kernels_ok
    verdict = "passed" if passed else "FAILED"
    print(
        f"tclose smoke test {verdict}: {line}; {noise_line}; {kernels_line}; "
        f"window {title!r} shown; {seconds:.1f} s"
    )
    return 0 if passed else 1


def numba_expected(system: str = sys.platform, machine: str = platform.machine()) -> bool:
    """Whether this platform has numba wheels, so that a build must bundle the compiled
    kernels: the marker of numba's requirement in ``pyproject.toml`` (Windows x64, Linux
    x86-64 and aarch64, Apple-silicon macOS; not Intel Macs)."""
    return (
        (system == "win32" and machine == "AMD64")
        or (system == "linux" and machine in ("x86_64", "aarch64"))
        or (system == "darwin" and machine == "arm64")
    )


def _compiled_kernels() -> tuple[str, bool]:
    """Run the compiled kernels on a few thousand records against the numpy route: which
    route ran, where it is cached, and whether it agreed (and ran where it should)."""
    from engine import kernel_check

    route, n_classes, same = kernel_check()
    agreed = "the same as" if same else "NOT the same as"
    line = f"{route.sentence()}: {n_classes} classes, {agreed} the numpy route"
    return line, same and (route.compiled or not numba_expected())


def _release_and_verify() -> tuple[pd.DataFrame, str, bool]:
    """Release the sample with t = 2, k = 5 and verify it independently."""
    from engine import ReleaseParams, anonymize, read_table, verify_release
    from resources import SAMPLE_WORKBOOK

    data = _read_in_helper_process(read_table, SAMPLE_WORKBOOK)
    config = ReleaseParams(
        qi=SMOKE_QI, confidential=SMOKE_CONFIDENTIAL, k=SMOKE_K, t=SMOKE_T, seed=SMOKE_SEED
    )
    release = anonymize(data, config)
    check = verify_release(
        release.table, list(SMOKE_QI), list(SMOKE_CONFIDENTIAL), t=SMOKE_T, k=SMOKE_K
    )
    achieved_t = "n/a" if check.t is None else f"{check.t:.3g}"
    line = (
        f"{len(data)} records of {SAMPLE_WORKBOOK.name} (read by the engine process) released in "
        f"{check.n_classes} classes, k = {check.k} (asked {SMOKE_K}), "
        f"t = {achieved_t} (asked {SMOKE_T:g}), verified {'ok' if check.ok else 'NOT ok'}"
    )
    return data, line, bool(check.ok) and check.n_records == len(data)


def _read_in_helper_process(read_table: Callable[..., Any], path: Path) -> pd.DataFrame:
    """Read the sample in the engine's helper process, as the wizard does.

    The helper is a second copy of the app started by multiprocessing, which is what breaks
    first in a frozen app (or is blocked by endpoint security); the wizard would fall back to
    a slower in-process mode, the smoke test fails instead.
    """
    from gui.engine_process import EngineProcess

    helper = EngineProcess()
    try:
        return helper.call(read_table, path).data
    finally:
        helper.stop()


def _noise_release_and_verify(data: pd.DataFrame) -> tuple[str, bool]:
    """Release the sample once with each registered noise mechanism (Laplace: OpenDP's
    native library) and check its k-anonymity."""
    from engine import MECHANISMS, ReleaseParams, anonymize, verify_release

    lines, ok = [], True
    for name in (name for name, m in MECHANISMS.items() if m.noise):
        config = ReleaseParams(
            qi=SMOKE_QI,
            confidential=SMOKE_CONFIDENTIAL,
            k=SMOKE_K,
            epsilon=SMOKE_EPSILON,
            mechanism=name,
            bounds={SMOKE_CONFIDENTIAL[0]: SMOKE_INCOME_BOUNDS},
            seed=SMOKE_SEED,
        )
        release = anonymize(data, config)
        check = verify_release(release.table, list(SMOKE_QI), [], k=SMOKE_K)
        lines.append(
            f"{name.capitalize()} ε = {SMOKE_EPSILON:g}: k = {check.k}, "
            f"verified {'ok' if check.ok else 'NOT ok'}"
        )
        ok = ok and bool(check.ok) and check.n_records == len(data)
    return "; ".join(lines), ok


def _show_main_window(app: QApplication) -> str:
    """Build the main window once and let Qt lay it out; returns its title.

    The window is hidden, not closed, so that the check leaves the user's saved window
    geometry alone.
    """
    from gui.wizard import MainWindow

    window = MainWindow()
    window.show()
    app.processEvents()
    title = window.windowTitle()
    window.hide()
    window.deleteLater()
    app.processEvents()
    return title
