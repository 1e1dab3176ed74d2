"""The version of the installed distribution, for reports and release metadata."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tclose")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+source"
