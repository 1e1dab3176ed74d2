"""Files shipped with tclose: the sample data set, icons, style sheet, translations, the guide."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent

#: the bundled sample workbook that "Open the sample" and ``tclose-gui --sample`` open
SAMPLE_WORKBOOK = ROOT / "sample" / "sample-survey.xlsx"


def path(relative: str) -> Path:
    """The absolute path of a resource file, e.g. ``path("icons/tclose.png")``."""
    return ROOT / relative


def docs_folder() -> Path:
    """The folder of the user guide (``user-guide.md``) and its ``images``.

    An installed app has them inside this package (``resources/docs``: the wheel's build step
    and the installer copy them there); a source checkout reads the repository's ``docs``.
    """
    for folder in (ROOT / "docs", ROOT.parent / "docs"):
        if (folder / "user-guide.md").is_file():
            return folder
    raise FileNotFoundError("the user guide is not installed with this copy of tclose")
