"""Entry script of the frozen ``tclose`` command line, shipped beside the desktop app.

``tclose --smoke-test`` runs the desktop app's smoke test and prints its one line.  The app
itself (``tclose-gui.exe``) is a windowed program on Windows: it has no console and prints
nothing there, so IT staff check an installation with this console program instead.
"""

import multiprocessing
import sys


def main(argv: list[str]) -> int:
    from engine.streams import make_streams_safe

    make_streams_safe()  # the smoke test's line has an ε: a redirected cp1252 console
    if argv == ["--smoke-test"]:
        from gui.app import main as gui_main

        return gui_main(["--smoke-test"])
    from engine.cli import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    # A frozen Windows or macOS program re-runs this script in the engine's helper process;
    # this makes that child run its task instead of the command line.
    multiprocessing.freeze_support()
    sys.exit(main(sys.argv[1:]))
