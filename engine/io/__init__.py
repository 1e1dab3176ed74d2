"""Reading spreadsheets and writing releases: never loses data, explains every bad file."""

from engine.io.about import value_choices
from engine.io.excel import list_sheets
from engine.io.outputs import Output, OutputError, check_outputs, write_outputs
from engine.io.read import ImportInfo, ImportResult, ReadOptions, read_table
from engine.io.types import TypeGuess, apply_missing, infer_types
from engine.io.write import release_outputs, write_release

__all__ = [
    "ImportInfo",
    "ImportResult",
    "Output",
    "OutputError",
    "ReadOptions",
    "TypeGuess",
    "apply_missing",
    "check_outputs",
    "infer_types",
    "list_sheets",
    "read_table",
    "release_outputs",
    "value_choices",
    "write_outputs",
    "write_release",
]
