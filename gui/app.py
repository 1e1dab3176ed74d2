"""Entry point of ``tclose-gui``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtWidgets import QApplication

from engine.i18n import LANGUAGES
from engine.streams import make_streams_safe

#: what --lang accepts: the engine's one declared list of languages
LANGUAGE_CODES = tuple(LANGUAGES)
#: what --color-scheme accepts
COLOR_SCHEMES = ("light", "dark")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tclose-gui", description="The tclose desktop app.")
    parser.add_argument(
        "input",
        nargs="?",
        type=Path,
        help="a spreadsheet to open at start, or a tclose project file (.json)",
    )
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
    parser.add_argument(
        "--lang",
        choices=LANGUAGE_CODES,
        help="the language of the app (default: the settings' choice, else the system's)",
    )
    parser.add_argument(
        "--color-scheme",
        choices=COLOR_SCHEMES,
        help="show the app light or dark (default: the settings' choice, else the system's)",
    )
    return parser.parse_args(argv)


def make_app(lang: str | None = None, color_scheme: str | None = None) -> QApplication:
    """The QApplication with tclose's names (QSettings and the data folder use them), its
    language and colour scheme."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("tclose")
    app.setApplicationName("tclose")
    app.setApplicationDisplayName("tclose")
    from gui import settings

    settings.migrate()  # stored settings in this version's layout
    apply_look(app, color_scheme)
    from gui import i18n

    i18n.install(app, i18n.choose_language(lang))
    if not hasattr(app, "collector"):
        from gui.collector import MainThreadCollector

        # Qt objects must not be freed by a collection another thread happens to trigger
        app.collector = MainThreadCollector(app)  # type: ignore[attr-defined]
    return app  # type: ignore[return-value]


def apply_look(app: QApplication, color_scheme: str | None = None) -> None:
    """The window icon, the colour scheme and the style sheet shipped in ``resources``.

    ``color_scheme`` ("light", "dark") overrides the settings' choice, which overrides the
    system's; the style sheet takes its colours from the palette, so it suits either.
    """
    from PySide6.QtGui import QIcon

    from gui import settings
    from gui.theme import apply_color_scheme
    from resources import path

    icon = path("icons/tclose.svg")
    if icon.is_file():
        app.setWindowIcon(QIcon(str(icon)))
    apply_color_scheme(app, color_scheme or settings.color_scheme() or None)
    style = path("style.qss")
    if style.is_file():
        app.setStyleSheet(style.read_text(encoding="utf-8"))


def main(argv: Sequence[str] | None = None) -> int:
    import multiprocessing

    # a frozen (installed) app starts the engine's helper process through this entry point
    multiprocessing.freeze_support()
    make_streams_safe()  # --smoke-test prints an ε; a redirected Windows console is cp1252
    args = parse_args(sys.argv[1:] if argv is None else argv)
    app = make_app(args.lang, args.color_scheme)
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
        window.open_any(args.input)
    elif args.sample:
        window.wizard.import_page.open_sample()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
