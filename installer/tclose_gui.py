"""Entry script of the frozen ``tclose-gui`` app (PyInstaller starts here)."""

import multiprocessing
import sys

from gui.app import main

if __name__ == "__main__":
    # A frozen Windows or macOS app re-runs this script in worker processes; this makes
    # those children run their task instead of opening a second window.
    multiprocessing.freeze_support()
    sys.exit(main())
