"""The app for the screen-reader check: opens the sample and walks the wizard.

``drive.py SYNC walk`` stops on each page until ``SYNC/<page>.done`` exists (the AT-SPI dump
of that page is taken meanwhile); ``drive.py SYNC stay privacy|preview`` goes to that page,
puts the focus on its first field (the preview: its first plot) and waits for ``SYNC/end``
while Orca follows the Tab key.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    sync, mode = Path(sys.argv[1]), sys.argv[2]
    from gui.app import make_app

    app = make_app("en")
    from gui.screenshots import SAMPLE_ROLES, isolate_settings, wait_idle, wait_until
    from gui.wizard import MainWindow

    isolate_settings()
    window = MainWindow()
    window.resize(1100, 760)
    window.show()
    wizard = window.wizard

    def wait_for(name: str, limit: float = 900.0) -> None:
        start = time.monotonic()
        while not (sync / name).exists() and time.monotonic() - start < limit:
            app.processEvents()
            time.sleep(0.03)

    def page(name: str) -> None:
        if mode == "walk":
            (sync / f"{name}.ready").write_text("", encoding="utf-8")
            wait_for(f"{name}.done")

    wizard.import_page.open_sample()
    wait_idle(window)
    page("1-import")
    wizard.next()
    for column, role in SAMPLE_ROLES.items():
        window.session.set_role(column, role)
    wizard.tag_page.initializePage()
    page("2-tag")
    wizard.next()
    privacy = wizard.privacy_page
    privacy.refresh()
    wait_until(lambda: not privacy.checking)
    page("3-privacy")
    if mode == "stay" and sys.argv[3] == "privacy":
        privacy.by_t.setFocus()
    else:
        wizard.next()
        wait_idle(window)
        page("4-preview")
        if mode == "stay":
            wizard.preview_page.views["buckets"].table_button.setFocus()
        else:
            wizard.next()
            export = wizard.export_page
            export.path.setText(str(Path(tempfile.mkdtemp()) / "release.xlsx"))
            export.export()
            wait_idle(window)
            page("5-export")
    if mode == "stay":
        window.activateWindow()
        (sync / "ready").write_text("", encoding="utf-8")
        wait_for("end")
    window.close()


if __name__ == "__main__":
    main()
