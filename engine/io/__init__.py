"""Reading spreadsheets and writing releases: never loses data, explains every bad file."""

from engine.io.excel import list_sheets
from engine.io.read import ImportInfo, ImportResult, read_table
from engine.io.types import TypeGuess, apply_missing, infer_types
from engine.io.write import write_release

__all__ = [
    "ImportInfo",
    "ImportResult",
    "TypeGuess",
    "apply_missing",
    "infer_types",
    "list_sheets",
    "read_table",
    "write_release",
]
