"""tclose engine: everything that reads, protects, verifies and writes microdata.

The engine is plain Python on numpy, pandas and scipy.  It knows nothing of Qt or of the
``gui`` package (an import-linter contract in ``pyproject.toml`` enforces this), so scripts,
the ``tclose`` command line, the desktop app and the tests all call the same functions.
"""

from engine.version import __version__

__all__ = ["__version__"]
