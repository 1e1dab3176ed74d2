"""Reading a table from a file (first version; the import issue makes it robust)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from engine.errors import InputError
from engine.progress import CancelFn, ProgressFn, step


@dataclass
class ImportInfo:
    """What was read and what was guessed, for the user to see and override."""

    path: Path
    format: str  # "csv", "xlsx", ...
    sheet: str | None = None
    sheets: list[str] = field(default_factory=list)
    encoding: str | None = None
    separator: str | None = None
    decimal: str | None = None
    header_row: int = 0
    n_rows: int = 0
    n_columns: int = 0
    #: things the user should know (renamed headers, mixed columns, ...)
    notes: list[str] = field(default_factory=list)


@dataclass
class ImportResult:
    data: pd.DataFrame
    info: ImportInfo


def read_table(
    path: str | Path,
    *,
    sep: str | None = None,
    sheet: str | None = None,
    encoding: str | None = None,
    decimal: str | None = None,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
) -> ImportResult:
    """Read a CSV/TSV/TXT or Excel file into a DataFrame, with what was guessed."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: no such file.")
    step(progress, cancel, 0.0, f"Reading {path.name}")
    suffix = path.suffix.lower()
    if suffix in {".xlsx", ".xlsm", ".xls", ".ods"}:
        df = pd.read_excel(path, sheet_name=sheet or 0, engine="calamine")
        info = ImportInfo(path, suffix[1:], sheet=sheet)
    else:
        df = pd.read_csv(
            path,
            sep=sep,
            engine="python" if sep is None else "c",
            encoding=encoding or "utf-8-sig",
            decimal=decimal or ".",
            keep_default_na=False,
            na_values=[""],
        )
        info = ImportInfo(path, "csv", separator=sep, encoding=encoding or "utf-8")
    info.n_rows, info.n_columns = df.shape
    step(progress, cancel, 1.0, "Read")
    return ImportResult(df, info)
