"""Writing a release (first version; the import/export issue makes it safe and complete)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from engine.errors import InputError
from engine.progress import CancelFn, ProgressFn, step


def write_release(
    table: pd.DataFrame,
    path: str | Path,
    *,
    metadata: dict[str, Any] | None = None,
    sep: str = ",",
    input_path: str | Path | None = None,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
) -> list[Path]:
    """Write ``table`` to ``path`` (.csv or .xlsx) with its metadata; returns files written.

    For CSV the metadata goes to a JSON sidecar ``<name>.json``; for xlsx to a second sheet.
    """
    path = Path(path)
    if input_path is not None and Path(input_path).resolve() == path.resolve():
        raise InputError(f"{path}: refusing to overwrite the input file; choose another name.")
    step(progress, cancel, 0.0, f"Writing {path.name}")
    suffix = path.suffix.lower()
    if suffix == ".xlsx":
        with pd.ExcelWriter(path, engine="openpyxl") as xw:
            table.to_excel(xw, index=False, sheet_name="Release")
            if metadata:
                pd.DataFrame(
                    [(k, json.dumps(v, default=str)) for k, v in metadata.items()],
                    columns=["item", "value"],
                ).to_excel(xw, index=False, sheet_name="About this release")
        written = [path]
    elif suffix in {".csv", ".txt", ".tsv"}:
        table.to_csv(path, index=False, sep=sep)
        written = [path]
        if metadata:
            side = path.with_suffix(".json")
            side.write_text(json.dumps(metadata, indent=2, default=str), encoding="utf-8")
            written.append(side)
    else:
        raise InputError(f"{path}: unknown output type; use .csv or .xlsx.")
    step(progress, cancel, 1.0, "Written")
    return written
