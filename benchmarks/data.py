"""Where the benchmarks find the real data sets, and what they say when they are absent.

The real data sets (adult, acs, the CASC files) are reference material kept beside the project,
in ``../shared/data``, or wherever ``TCLOSE_DATA`` points; they are not part of the product.
A benchmark that needs one and does not find it prints one line and leaves that part out, so
that a fresh clone can still run every benchmark (exit code 0).
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("TCLOSE_DATA", ROOT.parent / "shared" / "data"))


def real_data(name: str) -> Path | None:
    """The path of data set ``name`` (e.g. ``adult.csv``), or None when it is not there."""
    path = DATA / name
    return path if path.is_file() else None


def absent(name: str, what: str) -> str:
    """The one line a benchmark prints when ``name`` is missing."""
    return f"{what} skipped: {name} is not in {DATA} (set TCLOSE_DATA to the data sets' folder)"
