"""What an import found and guessed (kept apart so that every reader can fill it in)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd


@dataclass
class ImportInfo:
    """What was read and what was guessed, for the user to see and override.

    Every guessed setting (``encoding``, ``separator``, ``decimal``, ``header_row``, ``sheet``)
    is named in ``guessed``; passing it explicitly to :func:`~engine.io.read_table` overrides
    the guess.
    """

    path: Path
    format: str  # "csv", "xlsx", "xls", "ods", "sav", "dta"
    sheet: str | None = None
    sheets: list[str] = field(default_factory=list)
    encoding: str | None = None
    separator: str | None = None
    decimal: str | None = None
    #: 0-based row of the header in the file or sheet (rows above it are title lines)
    header_row: int = 0
    n_rows: int = 0
    n_columns: int = 0
    #: things the user should know (renamed headers, mixed columns, ...)
    notes: list[str] = field(default_factory=list)
    #: names of the settings above that were guessed rather than given
    guessed: list[str] = field(default_factory=list)
    #: new column name -> header text in the file, for every column that was renamed
    renamed: dict[str, str] = field(default_factory=dict)
    #: column -> {text: count} for mostly numeric columns that also hold texts; these texts
    #: are the natural candidates for missing codes
    mixed: dict[str, dict[str, int]] = field(default_factory=dict)
    #: size of the file in bytes
    size: int = 0
    #: rows left out because no cell had a value (``,,,`` or a blank row inside a sheet)
    blank_rows: int = 0
    #: lines under a sheet's table left out as footnotes (text in the first column only)
    footnotes: list[str] = field(default_factory=list)


@dataclass
class ImportResult:
    """The complete table (never a part of it) and what the import found."""

    data: pd.DataFrame
    info: ImportInfo
