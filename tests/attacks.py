"""Run every attack case of ``tests/hostile.py`` and print what happened, as a table.

    python tests/attacks.py [NAME-FILTER]

One row per case: its family, the exit code (expected and got), the one line it printed, the
files left in its folder, whether the input's SHA-256 checksum is unchanged, and whether
every promise held (the same checks as ``tests/test_hostile_io.py``).  Exits 1 if any case
failed.  The families: hostile files, output requests and faults while writing (the first
wave), numeric extremes, missing confidential values, malformed project files, tampered
releases for ``verify``, and signals; then (round two) the cluster path (every output
checked first, every format read, a scheduler address probed), Parquet column types and
dataset folders, identifiers in disguise as quasi-identifiers, a project's output paths,
archives that unpack to gigabytes, awkward workbooks and encodings, and a local cluster that
loses a worker or is interrupted; then (round three: no silent change of meaning) identifiers
in disguise under every role, the checks a cluster runs as one machine does (weights, types,
named columns), project files read as strictly as flags, column names with commas, numbers
as typed, devices, leftovers of a killed run, and projects saved from the command line.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.hostile import CASES, Case
from tests.hostile_build import stop_servers
from tests.test_hostile_io import LIBRARY_NOISE, allowed_codes, execute, sha256, snapshot

HEADER = ("family", "case", "exit", "message (or the first line printed)", "files left", "input")


def family(case: Case) -> str:
    if case.tags:
        return case.tags[0]
    return "fault" if case.fault else "files/outputs"


def attack(case: Case) -> tuple[tuple[str, ...], bool]:
    """Run one case in a fresh folder; the row of the table and whether every promise held."""
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as patch:
        folder = Path(tmp) / "work folder é"
        folder.mkdir()
        seen: dict[str, object] = {}

        def make(where: Path) -> Path:
            source = case.make(where)
            seen.update(digest=sha256(source), before=snapshot(where))
            return source

        from dataclasses import replace

        source, code, out, err = execute(replace(case, make=make), folder, patch)
        line = (err.strip().splitlines() or [""])[-1] if code else (out.splitlines() or [""])[0]
        line = line.replace(str(folder) + os.sep, "").replace(str(folder), ".")
        left = sorted(p.name for p in folder.iterdir())
        unchanged = sha256(source) == seen["digest"]
        held = (
            code == case.exit_code
            and code in allowed_codes(case)
            and "Traceback" not in err
            and not LIBRARY_NOISE.search(err)
            and unchanged
            and set(left) == set(case.files)
            and bool(re.search(case.message, line))
            and (not code or (len(err.strip().splitlines()) == 1 and line.startswith("tclose: ")))
            and (not code or snapshot(folder) == seen["before"])
        )
    exit_text = f"{code}" if code == case.exit_code else f"{code} (expected {case.exit_code})"
    row = (family(case), case.name, exit_text, line[:90], ", ".join(left), "same" if unchanged
           else "CHANGED")  # fmt: skip
    return row, held


def main(argv: list[str]) -> int:
    wanted = argv[0] if argv else ""
    rows, failed = [], []
    try:
        for case in CASES:
            if wanted not in case.name:
                continue
            row, held = attack(case)
            rows.append((*row, "held" if held else "FAILED"))
            if not held:
                failed.append(case.name)
    finally:
        stop_servers()  # the shared Dask cluster, if a case started it
    header = (*HEADER, "promises")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, tuple("-" * w for w in widths), *rows]:
        print(" | ".join(str(v).ljust(w) for v, w in zip(r, widths, strict=True)).rstrip())
    print(f"\n{len(rows)} cases, {len(rows) - len(failed)} held, {len(failed)} failed")
    for name in failed:
        print(f"FAILED: {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
