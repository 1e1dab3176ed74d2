"""``python -m engine`` is the ``tclose`` command line."""

import sys

from engine.cli import main

if __name__ == "__main__":  # worker processes started with "spawn" import this module again
    sys.exit(main())
