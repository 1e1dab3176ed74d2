"""Entry point of ``tclose-gui``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWizard, QWizardPage

from engine.version import __version__


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tclose-gui", description="The tclose desktop app.")
    parser.add_argument("input", nargs="?", type=Path, help="a spreadsheet to open at start")
    parser.add_argument("--sample", action="store_true", help="open the bundled sample data")
    parser.add_argument(
        "--screenshots",
        type=Path,
        metavar="DIR",
        help="walk the wizard on the sample, save one PNG per page, exit",
    )
    parser.add_argument(
        "--smoke-test",
        action="store_true",
        help="open the sample, run a small release, exit 0 if it verifies",
    )
    return parser.parse_args(argv)


def build_window() -> QWizard:
    wizard = QWizard()
    wizard.setWindowTitle(f"tclose {__version__}")
    page = QWizardPage()
    page.setTitle("Import")
    page.setSubTitle("Open the spreadsheet that holds one row per person.")
    layout = QVBoxLayout(page)
    layout.addWidget(QLabel("The import page is being built."))
    wizard.addPage(page)
    wizard.resize(900, 640)
    return wizard


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    if args.smoke_test:
        from gui.smoke import run_smoke_test

        return run_smoke_test(app)
    window = build_window()
    if args.screenshots:
        args.screenshots.mkdir(parents=True, exist_ok=True)
        window.show()
        app.processEvents()
        window.grab().save(str(args.screenshots / "1-import.png"))
        return 0
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
