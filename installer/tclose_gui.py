"""Entry script of the frozen ``tclose-gui`` app (PyInstaller starts here)."""

import multiprocessing
import sys

if __name__ == "__main__":
    # A frozen Windows or macOS app re-runs this script in the engine's helper process (the
    # spawn start method); freeze_support() makes that child run its task instead of opening
    # a second window -- before Qt is imported, so the helper never loads it.
    multiprocessing.freeze_support()
    from gui.app import main

    sys.exit(main())
