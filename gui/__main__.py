"""``python -m gui`` starts the desktop app."""

import sys

from gui.app import main

sys.exit(main())
