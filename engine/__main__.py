"""``python -m engine`` is the ``tclose`` command line."""

import sys

from engine.cli import main

sys.exit(main())
