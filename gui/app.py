"""Entry point of ``tclose-gui``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtWidgets import QApplication

from engine.streams import make_streams_safe


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


def make_app() -> QApplication:
    """The QApplication with tclose's names (QSettings and the data folder use them)."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("tclose")
    app.setApplicationName("tclose")
    app.setApplicationDisplayName("tclose")
    apply_look(app)
    return app  # type: ignore[return-value]


def apply_look(app: QApplication) -> None:
    """The window icon and the light style sheet shipped in ``resources``."""
    from PySide6.QtGui import QIcon

    from resources import path

    icon = path("icons/tclose.svg")
    if icon.is_file():
        app.setWindowIcon(QIcon(str(icon)))
    style = path("style.qss")
    if style.is_file():
        app.setStyleSheet(style.read_text(encoding="utf-8"))


def main(argv: Sequence[str] | None = None) -> int:
    import multiprocessing

    # a frozen (installed) app starts the engine's helper process through this entry point
    multiprocessing.freeze_support()
    make_streams_safe()  # --smoke-test prints an ε; a redirected Windows console is cp1252
    args = parse_args(sys.argv[1:] if argv is None else argv)
    app = make_app()
    if args.smoke_test:
        from gui.smoke import run_smoke_test

        return run_smoke_test(app)
    from gui.errors import install_excepthook, setup_logging

    setup_logging()
    if args.screenshots:
        from gui.screenshots import take_screenshots

        return take_screenshots(app, args.screenshots)
    install_excepthook()
    from gui.wizard import MainWindow

    window = MainWindow()
    window.show()
    if args.input is not None:
        window.open_file(args.input)
    elif args.sample:
        window.wizard.import_page.open_sample()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
