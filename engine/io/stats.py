"""SPSS (.sav, .zsav) and Stata (.dta) files in and out, through pyreadstat.

Reading keeps the codes in the table and the labels beside it, in the file's
:class:`~engine.io.codebook.Codebook` (``info.codebook``): variable labels, value labels,
SPSS user-missing codes (kept as values, declared missing in the codebook), measurement
levels, the file label and its notes.  Writing puts a release's codebook back into the file:
the same labels for every released code, the missing codes, the measurement level of each
column from the type the release gave it, and the published "About this release" text as
the file label and its notes (SPSS documents; Stata notes, ``notes list`` shows them).
"""

from __future__ import annotations

import json
import re
import struct
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import InputError
from engine.i18n import _, ngettext
from engine.io.codebook import Codebook, Variable, code_text
from engine.io.files import check_memory
from engine.io.formats import ReadJob, WriteJob, read_by
from engine.io.info import ImportInfo
from engine.text import number

STATS_SUFFIXES = frozenset(read_by("stats"))
#: bytes in memory per byte of the file, roughly (as for CSV)
_EXPANSION = 4
#: the longest file label: Stata's data label holds 80 characters, SPSS's 64
_LABEL_MAX = {".dta": 80, ".sav": 64, ".zsav": 64}
#: the longest Stata note (a characteristic may hold more, but Stata shows 67,784)
_NOTE_MAX = 67_000
#: the longest SPSS document line (the format stores lines of 80 characters)
_DOCUMENT_LINE = 80
#: the largest integer code a Stata value label takes (a 4-byte long)
_STATA_LONG = 2_147_483_620


def _pyreadstat(path: Path, verb: str) -> Any:
    try:
        import pyreadstat
    except ImportError as exc:
        if verb == "read":
            message = _(
                "{name}: reading {suffix} files needs the optional package pyreadstat, "
                "which is not installed. Install tclose with its 'stats' extra, or save the data "
                "as CSV or .xlsx from SPSS/Stata."
            )
        else:
            message = _(
                "{name}: writing {suffix} files needs the package pyreadstat, which is not "
                "installed. Install tclose with its 'stats' extra, or export as .csv or .xlsx."
            )
        raise InputError(message.format(name=path.name, suffix=path.suffix)) from exc
    return pyreadstat


def read_file(job: ReadJob) -> pd.DataFrame:
    """The SPSS and Stata formats' reader (:data:`engine.io.formats.FORMATS`)."""
    check_memory(job.path, job.size * _EXPANSION, job.memory_limit)
    return read_stats(job.path, job.info)


def read_stats(path: Path, info: ImportInfo) -> pd.DataFrame:
    """The file's codes as plain columns; its labels go to ``info.codebook``."""
    pyreadstat = _pyreadstat(path, "read")
    stata = path.suffix.lower() == ".dta"
    reader = pyreadstat.read_dta if stata else pyreadstat.read_sav
    try:
        # SPSS user-missing codes stay values (declared missing in the codebook, so that a
        # kept column still says -9 = "Refused"); Stata's .a–.z read as missing
        frame, meta = reader(str(path), user_missing=not stata)
    except Exception as exc:  # pyreadstat raises its own ReadstatError and plain ones
        raise InputError(
            _(
                "{name} cannot be read as a {suffix} file ({reason}). Save it again from "
                "SPSS/Stata, or export it as CSV."
            ).format(name=path.name, suffix=path.suffix, reason=exc)
        ) from exc
    codebook = _codebook(meta)
    out: dict[str, pd.Series] = {}
    for name in frame.columns:
        col = frame[name]
        if col.dtype == object:
            col = col.map(lambda v: v if isinstance(v, str) else code_text(v), na_action="ignore")
            col = col.astype("str")
        elif codebook.variable(str(name)).categorical and _whole(col):
            col = col.astype("Int64")  # codes, not measurements: 1, not 1.0
        out[name] = col
    info.codebook = codebook
    labelled = sorted(n for n, v in codebook.variables.items() if v.values)
    if labelled:
        info.notes.append(
            ngettext(
                "Value labels were kept for {n} column: {columns}; the table holds its codes.",
                "Value labels were kept for {n} columns: {columns}; the table holds their codes.",
                len(labelled),
            ).format(n=number(len(labelled)), columns=", ".join(labelled))
        )
    return pd.DataFrame(out)


def read_codebook(path: Path) -> Codebook:
    """The labels of an SPSS or Stata file, read without its data."""
    pyreadstat = _pyreadstat(path, "read")
    reader = pyreadstat.read_dta if path.suffix.lower() == ".dta" else pyreadstat.read_sav
    try:
        _frame, meta = reader(str(path), metadataonly=True, user_missing=True)
    except Exception as exc:
        raise InputError(
            _(
                "{name} cannot be read as a {suffix} file ({reason}). Save it again from "
                "SPSS/Stata, or export it as CSV."
            ).format(name=path.name, suffix=path.suffix, reason=exc)
        ) from exc
    return _codebook(meta)


def _whole(col: pd.Series) -> bool:
    values = col.dropna().to_numpy(dtype=float)
    return bool(np.all(np.isfinite(values)) and np.all(values == np.round(values)))


def _codebook(meta: Any) -> Codebook:
    labels = meta.column_names_to_labels or {}
    value_labels = meta.variable_value_labels or {}
    missing = _missing_codes(meta.missing_ranges or {})
    measures = meta.variable_measure or {}
    variables = {}
    for name in meta.column_names:
        measure = measures.get(name, "")
        variables[name] = Variable(
            label=labels.get(name) or "",
            values={_key(c): str(t) for c, t in (value_labels.get(name) or {}).items()},
            missing=missing.get(name, ()),
            measure=measure if measure in ("nominal", "ordinal", "scale") else "",
        )
    return Codebook(variables, meta.file_label or "", tuple(meta.notes or ()))


def _key(code: Any) -> float | str:
    return float(code) if isinstance(code, (int, float, np.integer, np.floating)) else str(code)


def _missing_codes(ranges: Mapping[str, list[dict[str, Any]]]) -> dict[str, tuple]:
    """SPSS's discrete missing values (a range lo–hi is kept by its ends only when they are
    one value; a real range is rare in public files and has no single code to label)."""
    out = {}
    for name, items in ranges.items():
        codes = tuple(_key(r["lo"]) for r in items if r.get("lo") == r.get("hi"))
        if codes:
            out[name] = codes
    return out


# --------------------------------------------------------------------------- writing


def write_file(job: WriteJob) -> None:
    """The SPSS and Stata formats' writer: the release as an SPSS (.sav, .zsav) or Stata
    (.dta) file at ``job.target``, with its codebook and the About sheet's text inside."""
    table, tmp, suffix, codebook = job.table, job.target, job.suffix, job.codebook
    about = about_lines(job.metadata)
    pyreadstat = _pyreadstat(Path(f"release{suffix}"), "write")
    stata = suffix == ".dta"
    frame, value_labels = _for_stats(table, codebook, stata)
    column_labels = {n: v.label for n, v in codebook.variables.items() if v.label}
    file_label = _file_label(codebook, job.metadata)[: _LABEL_MAX[suffix]]
    try:
        if stata:
            pyreadstat.write_dta(
                frame, str(tmp), file_label=file_label, column_labels=column_labels,
                variable_value_labels=value_labels, version=15,
            )  # fmt: skip
            _add_stata_notes(tmp, about)
        else:
            missing = {
                n: [float(c) if not isinstance(c, str) else c for c in v.missing]
                for n, v in codebook.variables.items()
                if v.missing and n in frame.columns and _numeric_column(frame[n])
            }
            measures = {n: v.measure for n, v in codebook.variables.items() if v.measure}
            pyreadstat.write_sav(
                frame, str(tmp), file_label=file_label, column_labels=column_labels,
                compress=suffix == ".zsav", note=_document_lines(about),
                variable_value_labels=value_labels, missing_ranges=missing or None,
                variable_measure=measures,
            )  # fmt: skip
    except InputError:
        raise
    except Exception as exc:
        raise InputError(
            _("{suffix}: the release cannot be written in this format ({reason}).").format(
                suffix=suffix, reason=exc
            )
        ) from exc


def _file_label(codebook: Codebook, metadata: Mapping[str, Any]) -> str:
    """The release's own label: the codebook's, or what it is and its k."""
    if codebook.label:
        return codebook.label
    return _("Release of {input} with k = {k} ({software})").format(
        input=metadata.get("input") or _("a table"),
        k=metadata.get("k_achieved", "?"),
        software=metadata.get("software", "tclose"),
    )


def _numeric_column(col: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col)


def _for_stats(
    table: pd.DataFrame, codebook: Codebook, stata: bool
) -> tuple[pd.DataFrame, dict[str, dict[Any, str]]]:
    """The table as pyreadstat writes it, and the value labels keyed as its columns are.

    Whole-number code columns become integers (Stata labels only integers; SPSS stores
    numbers as doubles either way); text columns stay text (a label such as "[10, 20)" or a
    range is a category of its own, with no code to label); a column of mixed values is
    written as text.
    """
    frame = {}
    labels: dict[str, dict[Any, str]] = {}
    for name in table.columns:
        col = table[name]
        var = codebook.variable(str(name))
        if pd.api.types.is_bool_dtype(col):
            col = col.astype("Int64")
        if _numeric_column(col):
            whole = _whole(col)
            if whole and (col.dropna().abs() <= _STATA_LONG).all():
                col = col.astype("Int64") if col.hasnans else col.astype("int64")
            else:
                col = col.astype(float)
            if var.values:
                keys = {
                    (int(c) if whole else float(c)): t
                    for c, t in var.values.items()
                    if not isinstance(c, str) and (not stata or float(c).is_integer())
                }
                if stata and not whole:
                    keys = {}
                if keys:
                    labels[str(name)] = keys
        elif not pd.api.types.is_datetime64_any_dtype(col):
            col = col.map(lambda v: v if isinstance(v, str) else code_text(v), na_action="ignore")
            col = col.astype(object).where(col.notna(), None)
            text_labels = {c: t for c, t in var.values.items() if isinstance(c, str)}
            if text_labels and not stata:
                labels[str(name)] = text_labels
        frame[str(name)] = col
    return pd.DataFrame(frame), labels


def _document_lines(about: list[str]) -> list[str]:
    """The About text as SPSS document lines (80 bytes of UTF-8 each, cut at spaces)."""
    lines: list[str] = []
    for line in about:
        while len(line.encode("utf-8")) > _DOCUMENT_LINE:
            fit = _DOCUMENT_LINE
            while len(line[:fit].encode("utf-8")) > _DOCUMENT_LINE:
                fit -= 1
            cut = line.rfind(" ", 0, fit)
            cut = cut if cut > 0 else fit
            lines.append(line[:cut])
            line = line[cut:].lstrip()
        lines.append(line)
    return lines


# Stata notes are characteristics of the data set (``_dta[note0]`` = how many,
# ``_dta[note1]`` … the texts).  pyreadstat writes an empty <characteristics> section; the
# notes are put into it here and the file's map of section offsets moved by their length
# (Stata's dta format 119, which pyreadstat writes for version 15).
_MAP = b"<map>"
_CHARACTERISTICS = b"<characteristics></characteristics>"
_NAME_BYTES = 129  # a variable or characteristic name in format 118/119


def _add_stata_notes(path: Path, about: list[str]) -> None:
    notes = [n[:_NOTE_MAX] for n in about if n.strip()]
    if not notes:
        return
    data = path.read_bytes()
    at = data.find(_CHARACTERISTICS)
    start = data.find(_MAP)
    if at < 0 or start < 0:
        return  # another layout: the file is valid without its notes
    chars = [("_dta", "note0", str(len(notes)))]
    chars += [("_dta", f"note{i}", text) for i, text in enumerate(notes, 1)]
    order = "<" if b"<byteorder>LSF</byteorder>" in data[:200] else ">"
    body = b"".join(_characteristic(*c, order) for c in chars)
    insert_at = at + len(b"<characteristics>")
    new = data[:insert_at] + body + data[insert_at:]
    # the map: 14 8-byte offsets after <map>, in the file's byte order
    offsets_at = start + len(_MAP)
    offsets = list(struct.unpack(order + "14Q", new[offsets_at : offsets_at + 112]))
    offsets = [o + len(body) if o > insert_at else o for o in offsets]
    new = new[:offsets_at] + struct.pack(order + "14Q", *offsets) + new[offsets_at + 112 :]
    path.write_bytes(new)


def _characteristic(var: str, name: str, text: str, order: str) -> bytes:
    def fixed(word: str) -> bytes:
        raw = word.encode("utf-8")[: _NAME_BYTES - 1]
        return raw + b"\0" * (_NAME_BYTES - len(raw))

    contents = text.encode("utf-8") + b"\0"
    payload = fixed(var) + fixed(name) + contents
    return b"<ch>" + struct.pack(order + "I", len(payload)) + payload + b"</ch>"


def about_lines(metadata: Mapping[str, Any]) -> list[str]:
    """The About sheet's rows as lines of text, for a file that carries no sheet."""
    from engine.io.about import about_rows

    lines: list[str] = []
    for row in about_rows(metadata):
        if row.section:
            lines.append(f"== {row.label} ==")
        elif row.value is None or row.value == "":
            lines.append(str(row.label))
        else:
            lines.append(f"{row.label}: {_plain(row.value)}")
    return lines


def _plain(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        if all(isinstance(v, (str, int, float)) for v in value):
            return ", ".join(str(v) for v in value)
        return json.dumps(value, ensure_ascii=False, default=str)
    text = str(value)
    return re.sub(r"\s+", " ", text)
