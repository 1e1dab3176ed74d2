"""Command lines in tests written as a user types them: ``tclose("anonymize {src} -o {out} …")``.

A list of twenty quoted words hides the one flag a test is about; a line reads like the user
guide.  Paths are given by name and passed as they are (temporary folders may hold spaces).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from engine.cli import main
from tests.conftest import ROOT


def cli_words(line: str, **paths: object) -> list[str]:
    """``line`` split as a POSIX shell would; each word ``{name}`` becomes ``str(paths[name])``."""
    words = shlex.split(line)
    return [str(paths[w[1:-1]]) if w[:1] + w[-1:] == "{}" else w for w in words]


def tclose(line: str, **paths: object) -> int:
    """Run ``tclose`` in this process on ``line`` (see :func:`cli_words`); its exit code."""
    return main(cli_words(line, **paths))


def screenshots(folder: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``python -m gui --screenshots FOLDER`` with ``options``, offscreen, in a process of its
    own (the walk builds its own application and window, as a user's start would)."""
    return subprocess.run(
        [sys.executable, "-m", "gui", "--screenshots", str(folder), *options],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        check=False,
    )
