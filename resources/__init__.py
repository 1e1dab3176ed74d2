"""Files shipped with tclose: the sample data set, icons, style sheet, translations."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent

#: the bundled sample workbook that "Open the sample" and ``tclose-gui --sample`` open
SAMPLE_WORKBOOK = ROOT / "sample" / "sample-survey.xlsx"


def path(relative: str) -> Path:
    """The absolute path of a resource file, e.g. ``path("icons/tclose.png")``."""
    return ROOT / relative
