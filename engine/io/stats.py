"""Reading SPSS (.sav) and Stata (.dta) files through the optional pyreadstat package."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from engine.errors import InputError
from engine.i18n import _
from engine.io.formats import read_by
from engine.io.info import ImportInfo

STATS_SUFFIXES = frozenset(read_by("stats"))


def read_stats(path: Path, info: ImportInfo) -> pd.DataFrame:
    """The file's data with value labels applied (``1`` -> ``"Male"``), as plain columns."""
    try:
        import pyreadstat
    except ImportError as exc:
        raise InputError(
            _(
                "{name}: reading {suffix} files needs the optional package pyreadstat, "
                "which is not installed. Install tclose with its 'stats' extra, or save the data "
                "as CSV or .xlsx from SPSS/Stata."
            ).format(name=path.name, suffix=path.suffix)
        ) from exc
    reader = pyreadstat.read_dta if path.suffix.lower() == ".dta" else pyreadstat.read_sav
    try:
        frame, meta = reader(str(path), apply_value_formats=True, formats_as_category=False)
    except Exception as exc:  # pyreadstat raises its own ReadstatError and plain ones
        raise InputError(
            _(
                "{name} cannot be read as a {suffix} file ({reason}). Save it again from "
                "SPSS/Stata, or export it as CSV."
            ).format(name=path.name, suffix=path.suffix, reason=exc)
        ) from exc
    out: dict[str, pd.Series] = {}
    for name in frame.columns:
        col = frame[name]
        if col.dtype == object:
            # labelled columns mix labels with unlabelled codes: keep every cell, as text
            kinds = {type(v) for v in col.dropna()}
            if kinds and not kinds <= {str}:
                col = col.map(lambda v: v if isinstance(v, str) else _code(v), na_action="ignore")
            col = col.astype("str")
        out[name] = col
    labelled = sorted(set(meta.variable_value_labels or {}))
    if labelled:
        info.notes.append(
            f"Value labels were applied to {len(labelled)} column(s): {', '.join(labelled)}."
        )
    return pd.DataFrame(out)


def _code(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
