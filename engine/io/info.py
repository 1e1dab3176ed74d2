"""How to read a table, and what an import found and guessed (kept apart so that every
reader can take the one and fill in the other)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from engine.errors import InputError
from engine.i18n import _
from engine.io.codebook import Codebook


@dataclass(frozen=True)
class ReadOptions:
    """How to read a table; every setting left as None is guessed by the reader.

    The settings travel together, from :func:`~engine.io.read_table`, the import page or a
    project file down to the reader of the file's format, so that they are named and checked
    in one place rather than repeated as keyword arguments at every step.
    """

    #: the separator of a text file: one character such as , ; | or tab
    sep: str | None = None
    #: the sheet of a workbook: its name or 0-based index
    sheet: str | int | None = None
    #: the text encoding of a text file (utf-8, cp1252, ...)
    encoding: str | None = None
    #: the decimal mark, '.' or ','; for a workbook, how numbers stored as text are read
    decimal: str | None = None
    #: 0-based row of the header (rows above it are title lines)
    header_row: int | None = None

    def check(self, name: str, *, text: bool) -> None:
        """Raise InputError, naming the file ``name``, for a setting no file can have.

        The separator is checked for text files only (``text``): a workbook has none, and
        ignores it.
        """
        if text and self.sep is not None and (len(self.sep) != 1 or self.sep in '"\r\n'):
            raise InputError(
                _("{name}: the separator must be one character such as , ; | or tab.").format(
                    name=name
                )
            )
        if self.decimal not in (None, ".", ","):
            raise InputError(_("{name}: the decimal mark must be '.' or ','.").format(name=name))


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
    #: the labels the file carries with its data (SPSS/Stata: variable and value labels,
    #: missing codes); empty for a file that carries none
    codebook: Codebook = field(default_factory=Codebook)


@dataclass
class ImportResult:
    """The complete table (never a part of it) and what the import found."""

    data: pd.DataFrame
    info: ImportInfo
