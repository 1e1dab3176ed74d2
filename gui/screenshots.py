"""``tclose-gui --screenshots DIR``: walk the wizard on the sample and save every page as PNG.

Anyone can look at every page this way (and the tests do): the sample is opened, its columns
tagged (respondent_id identifier; age, sex, region, occupation quasi-identifiers; income
confidential; diagnosis left out), t = 2 and k = 5 chosen, the preview computed and the release
exported into DIR.  Beside the pictures, ``accessibility.txt`` lists what a screen reader is
told on each page (:func:`gui.accessibility.report`: every control the keyboard reaches with
its role, name and description, then any problem).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QEventLoop, QSettings
from PySide6.QtWidgets import QApplication, QWidget

from engine import MECHANISMS, Role
from gui.accessibility import report
from gui.pages.privacy_page import PrivacyPage
from gui.wizard import MainWindow

SAMPLE_ROLES: dict[str, Role | None] = {
    "respondent_id": Role.IDENTIFIER,
    "age": Role.QI,
    "sex": Role.QI,
    "region": Role.QI,
    "occupation": Role.QI,
    "income": Role.CONFIDENTIAL,
    "diagnosis": None,
}


def wait_until(condition, timeout: float = 120.0) -> None:
    """Process events until ``condition()`` holds."""
    app = QApplication.instance()
    deadline = time.monotonic() + timeout
    while True:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        if condition():
            break
        if time.monotonic() > deadline:
            raise TimeoutError("the background task did not finish in time")
        time.sleep(0.01)
    for _ in range(5):
        app.processEvents()


def wait_idle(window: MainWindow, timeout: float = 120.0) -> None:
    """Process events until the window's background task (if any) has finished."""
    wait_until(lambda: not window.runner.busy, timeout)


def save(widget: QWidget, path: Path) -> None:
    QApplication.instance().processEvents()
    if not widget.grab().save(str(path)):
        raise OSError(f"could not write {path}")
    with (path.parent / "accessibility.txt").open("a", encoding="utf-8") as out:
        out.write(f"== {path.stem}\n{report(widget.window())}\n\n")


def isolate_settings() -> Path:
    """Keep the walk away from the user's settings (recent files, geometry): fresh ones."""
    place = Path(tempfile.mkdtemp(prefix="tclose-screenshots-"))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(place))
    return place


def take_screenshots(app: QApplication, folder: Path) -> int:
    """Walk the wizard and write the PNGs; returns the exit code."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "accessibility.txt").write_text("", encoding="utf-8")
    settings_place = isolate_settings()
    try:
        return _walk(app, folder)
    finally:
        shutil.rmtree(settings_place, ignore_errors=True)


def _walk(app: QApplication, folder: Path) -> int:
    window = MainWindow()
    window.resize(1100, 760)
    window.show()
    wait_idle(window)
    save(window, folder / "0-start.png")
    for step in (_import, _tag, _privacy, _preview, _export):
        if not step(window, folder):
            return 1
    window.close()
    return 0


def _import(window: MainWindow, folder: Path) -> bool:
    window.wizard.import_page.open_sample()
    wait_idle(window)
    if window.session.data is None:
        print("screenshots: the sample could not be read", file=sys.stderr)
        return False
    save(window, folder / "1-import.png")
    return True


def _tag(window: MainWindow, folder: Path) -> bool:
    wizard = window.wizard
    wizard.next()
    for column, role in SAMPLE_ROLES.items():
        if column in window.session.columns:
            window.session.set_role(column, role)
    wizard.tag_page.initializePage()
    save(window, folder / "2-tag.png")
    return True


def show_noise(privacy: PrivacyPage) -> None:
    """The privacy page on the noise route, as the pictures show it: ε = 1, public bounds
    for none (so the missing ones are estimated privately), details open; then its check."""
    privacy.set_mechanism(next(name for name, m in MECHANISMS.items() if m.noise))
    privacy.epsilon.setValue(1.0)
    privacy.private_bounds.setChecked(True)
    privacy.details_toggle.setChecked(True)
    privacy.refresh()


def show_default(privacy: PrivacyPage) -> None:
    """The privacy page back on the default mechanism with t = 2 and k = 5, details closed;
    then its check."""
    default, *_ = MECHANISMS
    privacy.details_toggle.setChecked(False)
    privacy.private_bounds.setChecked(False)
    privacy.set_mechanism(default)
    privacy.by_t.setChecked(True)
    privacy.t.setValue(2.0)
    privacy.k.setValue(5)
    privacy.refresh()


def _privacy(window: MainWindow, folder: Path) -> bool:
    """The noise route first, then the default mechanism, with and without details."""
    window.wizard.next()
    privacy = window.wizard.privacy_page
    show_noise(privacy)
    wait_until(lambda: not privacy.checking)
    save(window, folder / "3b-privacy-noise.png")
    show_default(privacy)
    wait_until(lambda: not privacy.checking)
    save(window, folder / "3-privacy.png")
    privacy.details_toggle.setChecked(True)  # the guarantees and the search of b
    save(window, folder / "3c-privacy-details.png")
    privacy.details_toggle.setChecked(False)
    return True


def _preview(window: MainWindow, folder: Path) -> bool:
    """The preview's pages, its figures' end, each tab, and the page out of date; the
    figures themselves as PNG."""
    window.wizard.next()
    wait_idle(window)
    page = window.wizard.preview_page
    if not window.session.preview_is_current:
        print(f"screenshots: the preview failed: {page.status.text()}", file=sys.stderr)
        save(window, folder / "4-preview.png")
        return False
    save(window, folder / "4-preview.png")
    bar = page.summary.verticalScrollBar()
    bar.setValue(bar.maximum())  # the end of the figures: risk, what an analysis keeps
    save(window, folder / "4g-preview-figures-end.png")
    bar.setValue(0)
    names = ["buckets", "class-sizes", "closeness", "before-after", "released-rows"]
    for i, name in enumerate(names):
        page.tabs.setCurrentIndex(i)
        save(window, folder / f"4{chr(ord('a') + i)}-preview-{name}.png")
    page.tabs.setCurrentIndex(0)
    page.k.setValue(page.k.value() + 1)  # a setting changed: the results are out of date
    save(window, folder / "4f-preview-out-of-date.png")
    page.k.setValue(page.k.value() - 1)
    preview = page.preview
    assert preview is not None
    for name, figure in preview.figures.items():
        figure.savefig(folder / f"plot-{name.replace('_', '-')}.png", dpi=100)
    for column, figure in preview.before_after.items():
        figure.savefig(folder / f"plot-before-after-{column}.png", dpi=100)
    return True


def _export(window: MainWindow, folder: Path) -> bool:
    window.wizard.next()
    export = window.wizard.export_page
    export.path.setText(str(folder / "sample-release.xlsx"))
    export.export()
    wait_idle(window)
    save(window, folder / "5-export.png")
    if not window.session.exported:
        print(f"screenshots: the export failed: {export.result.text()}", file=sys.stderr)
        return False
    return True
