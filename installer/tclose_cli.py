"""Entry script of the frozen ``tclose`` command line, shipped beside the desktop app."""

import multiprocessing
import sys

from engine.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main())
