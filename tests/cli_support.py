"""Command lines in tests written as a user types them: ``tclose("anonymize {src} -o {out} …")``.

A list of twenty quoted words hides the one flag a test is about; a line reads like the user
guide.  Paths are given by name and passed as they are (temporary folders may hold spaces).
"""

from __future__ import annotations

import shlex

from engine.cli import main


def cli_words(line: str, **paths: object) -> list[str]:
    """``line`` split as a POSIX shell would; each word ``{name}`` becomes ``str(paths[name])``."""
    words = shlex.split(line)
    return [str(paths[w[1:-1]]) if w[:1] + w[-1:] == "{}" else w for w in words]


def tclose(line: str, **paths: object) -> int:
    """Run ``tclose`` in this process on ``line`` (see :func:`cli_words`); its exit code."""
    return main(cli_words(line, **paths))
