"""One build step beyond pyproject.toml: the user guide goes into the package.

Help › User guide (gui/help.py) opens ``docs/user-guide.md`` and its screenshots offline.  A
source checkout reads them from ``docs/``; an installed app has no ``docs/`` folder, so the
wheel carries a copy in ``resources/docs`` (the installer's spec copies the same files).  The
guide stays in ``docs/`` in the repository, where it is read on GitHub and linked from the
other documents.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
#: what the app's help needs, relative to docs/: every document (the guide links to the
#: others) and the guide's images
GUIDE_FILES = ("*.md", "images/*.png")


def copy_guide(target: Path, source: Path = ROOT / "docs") -> list[Path]:
    """Copy the documents and their images from ``source`` into ``target``; returns the copies."""
    copied = []
    for pattern in GUIDE_FILES:
        for path in sorted(source.glob(pattern)):
            destination = target / path.relative_to(source)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)
            copied.append(destination)
    return copied


class BuildWithGuide(build_py):
    """``build_py`` that also puts the user guide into ``resources/docs``."""

    def run(self) -> None:
        super().run()
        if not self.dry_run:
            copy_guide(Path(self.build_lib) / "resources" / "docs")


setup(cmdclass={"build_py": BuildWithGuide})
