"""The end of a benchmark that checks what it releases: its rows written as JSON when asked,
and an exit code that fails when a release failed its check (so a script or CI notices)."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def finish(rows: list[dict], json_path: str | None, failures: int, what: str) -> int:
    """Write ``rows`` to ``json_path`` (when given); 1 after saying how many releases ``what``
    (e.g. "failed verification") when ``failures``, else 0."""
    if json_path:
        Path(json_path).write_text(json.dumps(rows, indent=1), encoding="utf-8")
    if failures:
        print(f"{failures} release(s) {what}", file=sys.stderr)
    return 1 if failures else 0
