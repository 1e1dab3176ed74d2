"""``python -m gui`` starts the desktop app."""

import sys

from gui.app import main

# guarded: the engine's helper process imports this module again under another name
if __name__ == "__main__":
    sys.exit(main())
