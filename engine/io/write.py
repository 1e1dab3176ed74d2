"""Writing a release: .xlsx with an "About this release" sheet, CSV or Parquet with a JSON
sidecar, SPSS or Stata with the labels and the About text inside; a DDI codebook beside any.

Each format writes through the function it registers in :data:`engine.io.formats.FORMATS`;
this module stages the files, writes the JSON sidecar of a format that keeps its metadata
outside, and holds the workbook and text writers.

Safe to open in Excel: text cells that a spreadsheet would run as a formula (starting with
``=``, ``+``, ``-``, ``@``, tab or carriage return) are written as text, while numbers stay
numbers, and whole numbers too large for an Excel number are written as text (noted in the
About sheet) so that no digit changes.  Every file goes through :mod:`engine.io.outputs`:
checked first, staged beside its target, and committed with the release's other files, all
or none, so an error or a cancellation leaves no partial or mismatched file behind.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import json
import math
import re
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font
from openpyxl.worksheet._writer import ALL_TEMP_FILES, WorksheetWriter
from openpyxl.writer.excel import ExcelWriter

from engine.errors import InputError
from engine.i18n import LANGUAGES, N_, _, ngettext, use_language
from engine.io.about import about_rows, publishable
from engine.io.codebook import Codebook
from engine.io.csvfast import CsvFormat, write_csv
from engine.io.formats import WriteJob, format_of, release_suffixes
from engine.io.outputs import Output, Staging, write_outputs
from engine.progress import NO_TASK, Task
from engine.text import number
from engine.version import __version__

#: first characters that make Excel or LibreOffice treat a typed text as a formula
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
RELEASE_SHEET = N_("Release")
#: the most characters an Excel cell holds
_MAX_CELL_TEXT = 32_767
#: the size of an Excel sheet
EXCEL_MAX_ROWS = 1_048_576
EXCEL_MAX_COLUMNS = 16_384
#: the metadata sheet's name (in the language of the context, see :func:`about_sheet_names`)
ABOUT_SHEET = N_("About this release")
#: the codebook sheet's name (labels of the released variables and codes)
CODEBOOK_SHEET = N_("Codebook")
#: rows between two progress reports / cancellation checks
_BATCH = 5_000
_DATE_FORMAT = "yyyy-mm-dd"
#: an escape sequence of OOXML (``_x000D_``) that must itself be escaped when it is literal
_OOXML_ESCAPE = re.compile(r"_x[0-9A-Fa-f]{4}_")
#: text that needs more than a plain cell: OOXML escapes, CR, characters XML cannot hold
_NEEDS_CARE = re.compile(_OOXML_ESCAPE.pattern + r"|\r|" + ILLEGAL_CHARACTERS_RE.pattern)
_DATETIME_FORMAT = "yyyy-mm-dd hh:mm:ss"
#: the largest whole number every IEEE double below it holds exactly
_EXACT_INT = 2**53


def is_formula_like(value: object) -> bool:
    """True for text that a spreadsheet would evaluate if it were typed in."""
    return isinstance(value, str) and value.startswith(FORMULA_TRIGGERS)


REPORT_SUFFIXES = (".html", ".htm")


def _metadata_inside(path: Path) -> bool:
    """Whether a release file holds its published metadata itself (the About sheet)."""
    found = format_of(path.name)
    return found is not None and found.metadata_inside


def sidecar_path(path: str | Path) -> Path:
    """The JSON file that carries a text release's metadata: ``out.csv`` -> ``out.json``."""
    return Path(path).with_suffix(".json")


def release_outputs(
    path: str | Path,
    *,
    report: str | Path | None = None,
    summary: str | Path | None = None,
    ddi: str | Path | None = None,
    replace_foreign: bool = False,
) -> list[Output]:
    """The files a release to ``path`` writes (the release, its JSON metadata for a text
    file), plus an optional report, summary and DDI codebook: what to give
    :func:`check_outputs` before the run and :func:`write_outputs` after it.

    ``replace_foreign`` allows the JSON files to replace an existing JSON file that tclose
    did not write (the GUI asks first; the command line never does).
    """
    path = Path(path)
    suffix = path.suffix.lower()
    known = release_suffixes()
    if suffix not in known:
        raise InputError(
            _("{name}: unknown output type '{suffix}'; use .xlsx or .csv (or {others}).").format(
                name=path.name,
                suffix=suffix,
                others=", ".join(s for s in known if s not in (".xlsx", ".csv")),
            )
        )
    outputs = [Output(path, "release")]
    if not _metadata_inside(path):
        outputs.append(Output(sidecar_path(path), "metadata", replace_foreign))
    if report is not None:
        report = Path(report)
        if report.suffix.lower() not in REPORT_SUFFIXES:
            raise InputError(
                _("{report}: the report is an HTML file; name it ….html.").format(report=report)
            )
        outputs.append(Output(report, "report"))
    if summary is not None:
        outputs.append(Output(Path(summary), "summary", replace_foreign))
    if ddi is not None:
        from engine.io.ddi import check_ddi_name

        outputs.append(Output(check_ddi_name(ddi), "ddi"))
    return outputs


def check_sheet_size(name: str, rows: int, columns: int) -> None:
    """Refuse a table of ``rows`` × ``columns`` that does not fit in one Excel sheet (with
    its header), before anything is written."""
    if rows >= EXCEL_MAX_ROWS or columns > EXCEL_MAX_COLUMNS:
        raise InputError(
            _(
                "{name}: {rows} rows × {cols} columns do not fit in an "
                "Excel sheet (at most {max_rows} rows below the header and "
                "{max_cols} columns); export as .csv instead."
            ).format(
                name=name,
                rows=number(rows),
                cols=number(columns),
                max_rows=number(EXCEL_MAX_ROWS - 1),
                max_cols=number(EXCEL_MAX_COLUMNS),
            )
        )


def write_release(
    table: pd.DataFrame,
    path: str | Path,
    *,
    metadata: dict[str, Any] | None = None,
    sep: str = ",",
    input_path: str | Path | None = None,
    decimal: str = ".",
    bom: bool = True,
    replace_foreign: bool = False,
    codebook: Codebook | None = None,
    ddi: str | Path | None = None,
    stage: Staging | None = None,
    task: Task = NO_TASK,
) -> list[Path]:
    """Write ``table`` to ``path`` (any format of :data:`~engine.io.formats.FORMATS` that
    writes) with its metadata.

    For .xlsx the metadata fills a second sheet ``About this release``; for SPSS and Stata
    it is the file's documents or notes; for text and Parquet files it goes to a JSON
    sidecar ``<name>.json``.  The metadata is published with the release: a
    run's ``RunSummary.public_dict()``, never its review record (refused).
    ``codebook`` is the input's labels (:class:`~engine.io.codebook.Codebook`): the
    release carries them for the columns and codes it holds (:func:`released_codebook`).
    ``ddi`` names the DDI-Codebook 2.5 XML written beside the release
    (:mod:`engine.io.ddi`); a caller that stages the files itself lists it in
    :func:`release_outputs` too.
    ``sep``/``decimal`` apply to text files; ``bom`` starts a CSV with a UTF-8 byte-order
    mark so that Excel shows accented letters right.
    Returns the files written.  Refuses to overwrite ``input_path`` or a JSON file tclose did
    not write (unless ``replace_foreign``); writes all files or none.

    With ``stage`` (from :func:`write_outputs`, whose outputs include
    :func:`release_outputs` of ``path``) the files join a larger set committed by the
    caller, such as the release, its report and its summary.
    """
    outputs = release_outputs(path, ddi=ddi, replace_foreign=replace_foreign)
    path = outputs[0].path
    suffix = path.suffix.lower()
    csv_format = CsvFormat(sep=sep, decimal=decimal, bom=bom)
    if not _metadata_inside(path):
        csv_format.check(path.name)
    if suffix == ".xlsx":
        check_sheet_size(path.name, *table.shape)
    if stage is None:
        with write_outputs(outputs, inputs=[input_path]) as own:
            _stage_release(own, table, path, metadata, codebook, csv_format, ddi, task)
    else:
        _stage_release(stage, table, path, metadata, codebook, csv_format, ddi, task)
    task.step(1.0, _("Wrote {name}").format(name=path.name))
    return [o.path for o in outputs]


def released_codebook(
    table: pd.DataFrame, metadata: Mapping[str, Any] | None, codebook: Codebook | None
) -> Codebook:
    """The codebook a release carries: the input's labels for the released columns and
    codes (:meth:`Codebook.released`), measured by the types the release gave them."""
    types = (metadata or {}).get("column_types") or {}
    return (codebook or Codebook()).released(table, types)


def _stage_release(
    stage: Staging,
    table: pd.DataFrame,
    path: Path,
    metadata: Mapping[str, Any] | None,
    codebook: Codebook | None,
    csv_format: CsvFormat,
    ddi: str | Path | None,
    task: Task,
) -> None:
    task.step(0.0, _("Writing {name}").format(name=path.name))
    meta = release_metadata(metadata)
    fmt = format_of(path.name)
    assert fmt is not None and fmt.write  # release_outputs refused any other name
    labels = released_codebook(table, meta, codebook)
    job = WriteJob(
        table, stage.temp(path), path.suffix.lower(), meta, labels, csv_format,
        lambda: stage.scratch(path), task,
    )  # fmt: skip
    fmt.writer_function()(job)
    if ddi is not None:
        from engine.io.ddi import stage_ddi

        stage_ddi(stage, ddi, table, meta, labels, release=path)
    if fmt.metadata_inside:
        return
    columns = {str(c): str(t) for c, t in table.dtypes.items()}
    stage.write_utf8(
        sidecar_path(path), sidecar_text(meta, columns, labels.to_dict() if codebook else None)
    )
    task.step(0.99, _("Finishing"))


def sidecar_text(
    meta: Mapping[str, Any],
    columns: Mapping[str, str],
    codebook: Mapping[str, Any] | None = None,
) -> str:
    """The JSON sidecar of a text or Parquet release: its metadata (:func:`release_metadata`),
    the type of every column and, when the release has one, its codebook."""
    payload = {**meta, "columns": dict(columns)}
    if codebook:
        payload["codebook"] = dict(codebook)
    return json.dumps(payload, indent=2, ensure_ascii=False, default=_json_default) + "\n"


def release_metadata(metadata: Mapping[str, Any] | None) -> dict[str, Any]:
    """What is published with a release: the caller's metadata (never a review record:
    :func:`~engine.io.about.publishable`) plus the software version and the time of
    writing."""
    meta = dict(publishable(metadata))
    meta.setdefault("software", f"tclose {__version__}")
    meta.setdefault("written", dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC"))
    return meta


def _json_default(value: object) -> object:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (dt.date, dt.datetime, pd.Timestamp)):
        return value.isoformat()
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    if hasattr(value, "__dataclass_fields__"):
        return {k: getattr(value, k) for k in value.__dataclass_fields__}
    return str(value)


# --------------------------------------------------------------------------- xlsx


def write_xlsx(job: WriteJob) -> None:
    """The workbook format's writer: the release sheet, the About sheet, and a codebook
    sheet when the release has labels."""
    _write_xlsx(job.table, job.target, job.metadata, job.scratch, job.task, job.codebook)


def _write_xlsx(
    table: pd.DataFrame,
    tmp: Path,
    meta: dict[str, Any],
    scratch: Callable[[], Path],
    task: Task,
    codebook: Codebook | None = None,
) -> None:
    """Stream the workbook to ``tmp``; its sheets spool to ``scratch()`` files beside it.

    openpyxl would spool to the system's temp folder and, on a full disk, leave its ZIP
    archive to be closed (and fail again, with a traceback) by the garbage collector; here
    the archive is closed at once and the error is raised once.
    """
    book = Workbook(write_only=True)
    try:
        _fill_xlsx(book, table, meta, scratch, task)
        if codebook is not None and _has_labels(codebook):
            _write_codebook(book, codebook, scratch)
        task.step(0.95, _("Saving the workbook"))
        book.properties.modified = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        with tmp.open("wb") as fh:
            archive = zipfile.ZipFile(fh, "w", zipfile.ZIP_DEFLATED, allowZip64=True)
            try:
                ExcelWriter(book, archive).write_data()
            except BaseException:
                with contextlib.suppress(Exception):
                    archive.close()
                raise
            archive.close()
    except BaseException:
        _discard(book)
        raise


def _spool_beside(sheet: Any, path: Path) -> None:
    """Make a write-only sheet spool its rows to ``path`` instead of the system temp folder."""
    writer = WorksheetWriter(sheet, out=str(path))
    ALL_TEMP_FILES.append(str(path))  # openpyxl removes it from this list when it is done
    sheet._writer = writer
    writer.write_top()


def _discard(book: Workbook) -> None:
    """Close the streaming sheets of an abandoned workbook and delete their scratch files.

    Their generators are closed here, not by the garbage collector, so that a write error
    (a full disk) is not raised a second time as an "Exception ignored" traceback.
    """
    for sheet in book.worksheets:
        rows = getattr(sheet, "_rows", None)
        writer = getattr(sheet, "_writer", None)
        with contextlib.suppress(Exception):
            if rows is not None:
                rows.close()
        with contextlib.suppress(Exception):
            if writer is not None:
                writer.xf.close()
        with contextlib.suppress(Exception):
            if writer is not None:
                writer.cleanup()


def _fill_xlsx(
    book: Workbook,
    table: pd.DataFrame,
    meta: dict[str, Any],
    scratch: Callable[[], Path],
    task: Task,
) -> None:
    sheet = book.create_sheet(_(RELEASE_SHEET))
    _spool_beside(sheet, scratch())
    bold = Font(bold=True)
    header = []
    for name in table.columns:
        cell = _text_cell(sheet, str(name))
        cell.font = bold
        header.append(cell)
    sheet.append(header)
    n = len(table)
    notes: dict[str, str] = {}
    for start in range(0, n, _BATCH):
        stop = min(start + _BATCH, n)
        part = table.iloc[start:stop]
        cells = [_column_cells(sheet, part.iloc[:, j], notes) for j in range(part.shape[1])]
        for row in zip(*cells, strict=True):
            sheet.append(list(row))
        task.step(
            0.9 * stop / max(n, 1),
            _("Wrote {stop} of {n} rows").format(stop=number(stop), n=number(n)),
        )
    if notes:
        meta = {**meta, _("export notes"): _big_number_notes(notes, table)}
    _write_about(book, meta, scratch)


def about_sheet_names() -> set[str]:
    """The About sheet's name in every language a release may have been written in."""
    return _names(ABOUT_SHEET)


def metadata_sheet_names() -> set[str]:
    """The names of a release's metadata sheets (About, Codebook) in every language: a
    reader never takes them for the data."""
    return _names(ABOUT_SHEET) | _names(CODEBOOK_SHEET)


def _names(text: str) -> set[str]:
    names = set()
    for code in LANGUAGES:
        with use_language(code):
            names.add(_(text))
    return names


def _write_about(book: Workbook, meta: Mapping[str, Any], scratch: Callable[[], Path]) -> None:
    """The "About this release" sheet: label and value per row, in sections
    (:func:`engine.io.about.about_rows`; a run summary reads as a reviewer expects it)."""
    about = book.create_sheet(_(ABOUT_SHEET))
    _spool_beside(about, scratch())
    about.column_dimensions["A"].width = 48
    about.column_dimensions["B"].width = 90
    title = WriteOnlyCell(about, value=_(ABOUT_SHEET))
    title.font = Font(bold=True, size=14)
    about.append([title])
    about.append([])
    top = Alignment(wrap_text=True, vertical="top")
    for i, row in enumerate(about_rows(meta)):
        if row.section:
            if i:
                about.append([])
            heading = _text_cell(about, row.label)
            heading.font = Font(bold=True, size=12)
            about.append([heading])
            continue
        label = _text_cell(about, row.label)
        label.alignment = top
        value = _about_value(about, row.value)
        value.alignment = top
        if isinstance(value.value, int) and not isinstance(value.value, bool):
            value.number_format = "#,##0"
        about.append([label, value])


def _has_labels(codebook: Codebook) -> bool:
    return any(v.label or v.values or v.missing for v in codebook.variables.values())


def _write_codebook(book: Workbook, codebook: Codebook, scratch: Callable[[], Path]) -> None:
    """The "Codebook" sheet: one row per released variable and per labelled code (variable,
    its label, its measurement level, a code, what the code stands for, whether it means
    missing); every text written as text, never run as a formula."""
    from engine.io.codebook import code_text

    sheet = book.create_sheet(_(CODEBOOK_SHEET))
    _spool_beside(sheet, scratch())
    for letter, width in zip("ABCDEF", (24, 48, 12, 12, 48, 10), strict=True):
        sheet.column_dimensions[letter].width = width
    head = [_("variable"), _("label"), _("measure"), _("code"), _("code label"), _("missing")]
    cells = []
    for text in head:
        cell = _text_cell(sheet, text)
        cell.font = Font(bold=True)
        cells.append(cell)
    sheet.append(cells)
    for name, var in codebook.variables.items():
        sheet.append([_text_cell(sheet, name), _text_cell(sheet, var.label),
                      _text_cell(sheet, var.measure)])  # fmt: skip
        codes = dict(var.values)
        for code in var.missing:
            codes.setdefault(code, "")
        for code, label in codes.items():
            shown = code if isinstance(code, str) else code_text(code)
            missing = _("yes") if code in var.missing else ""
            sheet.append([_text_cell(sheet, name), None, None, _text_cell(sheet, shown),
                          _text_cell(sheet, label), _text_cell(sheet, missing)])  # fmt: skip


def _big_number_notes(notes: Mapping[str, str], table: pd.DataFrame) -> dict[str, str]:
    """One sentence per column whose whole numbers were too large for an Excel number."""
    out = {}
    for name in notes:
        col = table[name]
        n = sum(1 for v in col.tolist() if _inexact_integer(v))
        out[_("column '{name}'").format(name=name)] = ngettext(
            "{n} whole number larger than 2^53 = {limit} was written as text, to keep every "
            "digit: Excel stores numbers with about 15 significant digits.",
            "{n} whole numbers larger than 2^53 = {limit} were written as text, to keep every "
            "digit: Excel stores numbers with about 15 significant digits.",
            n,
        ).format(n=number(n), limit=number(2**53))
    return out


def _inexact_integer(value: object) -> bool:
    """True for a whole number that Excel (an IEEE double) cannot hold exactly."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        return False
    value = int(value)
    return abs(value) > _EXACT_INT and int(float(value)) != value


def _xml_text(text: str) -> str:
    """Text as OOXML stores it: a carriage return as ``_x000D_`` (XML readers would turn a
    bare one into a line feed), a literal ``_xHHHH_`` escaped, other control characters that
    XML cannot hold replaced by U+FFFD."""
    text = _OOXML_ESCAPE.sub(r"_x005F\g<0>", text)
    text = text.replace("\r", "_x000D_")
    return ILLEGAL_CHARACTERS_RE.sub("\ufffd", text)


def _text_cell(sheet: Any, text: str) -> WriteOnlyCell:
    """A cell that holds ``text`` as text, whatever its first character.

    openpyxl would store ``=1+1`` as a formula; forcing the data type to string and setting
    Excel's quote-prefix flag makes Excel and LibreOffice show the text and never run it.
    """
    risky = is_formula_like(text)
    cell = WriteOnlyCell(sheet, value=_xml_text(text))
    if risky or cell.data_type != "s":
        cell.data_type = "s"
        cell.quotePrefix = True
    return cell


def _column_cells(sheet: Any, column: pd.Series, notes: dict[str, str]) -> list[object]:
    """The values openpyxl should write for one column: numbers as numbers, dates with a
    date format, missing as empty cells, risky texts as protected text cells.

    Whole numbers beyond 2^53 that a double cannot hold are written as text (and noted in
    ``notes``, for the About sheet), so that no digit changes on export.  Vectorised per
    column (the cell-by-cell work is left to openpyxl itself).
    """
    dtype = column.dtype
    if pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_integer_dtype(dtype):
        values = column.tolist()
        if column.hasnans:  # nullable integers
            values = [None if pd.isna(v) else v for v in values]
        if not pd.api.types.is_bool_dtype(dtype):
            big = column.abs() > _EXACT_INT if len(column) else column.astype(bool)
            for i in np.flatnonzero(big.fillna(False).to_numpy(bool)):
                if _inexact_integer(values[i]):
                    values[i] = _text_cell(sheet, str(int(values[i])))
                    notes[str(column.name)] = ""
        return values
    if pd.api.types.is_float_dtype(dtype):
        values = column.to_numpy(dtype=float)
        out = values.tolist()
        for i in np.flatnonzero(~np.isfinite(values)):
            out[i] = None
        for i, v in enumerate(out):
            if v is not None and float(f"{v:.16g}") != v:
                out[i] = _exact_number(sheet, v)
        return out
    if pd.api.types.is_datetime64_any_dtype(dtype):
        return [_date_cell(sheet, v) for v in column.tolist()]
    values = column.tolist()
    too_long = [i for i, v in enumerate(values) if isinstance(v, str) and len(v) > _MAX_CELL_TEXT]
    if too_long:
        raise InputError(
            _(
                "Column '{column}' holds a text of {n} characters, "
                "more than an Excel cell holds ({max}); export as .csv instead."
            ).format(
                column=column.name, n=number(len(values[too_long[0]])), max=number(_MAX_CELL_TEXT)
            )
        )
    cells = [_generic_cell(sheet, v) for v in values]
    if any(_inexact_integer(v) for v in values):
        notes[str(column.name)] = ""
    return cells


def _exact_number(sheet: Any, value: float) -> WriteOnlyCell:
    """A number cell that keeps all 17 significant digits of ``value``.

    openpyxl writes numbers with 16 significant digits, which changes some doubles in the
    last bit (0.1 + 0.2 would come back as 0.3); the shortest exact text is written instead.
    """
    cell = WriteOnlyCell(sheet, value=value)
    cell._value = repr(value)  # written as it is under the number type "n"
    return cell


def _date_cell(sheet: Any, value: object) -> object:
    if _missing(value):
        return None
    stamp = pd.Timestamp(value)
    if stamp.tzinfo is not None:
        stamp = stamp.tz_localize(None)
    cell = WriteOnlyCell(sheet, value=stamp.to_pydatetime())
    cell.number_format = _DATETIME_FORMAT if stamp != stamp.normalize() else _DATE_FORMAT
    return cell


def _generic_cell(sheet: Any, value: object) -> object:
    """Cells of text (or mixed) columns: numbers as numbers, everything else as text."""
    if isinstance(value, str):
        if value.startswith(FORMULA_TRIGGERS) or _NEEDS_CARE.search(value):
            return _text_cell(sheet, value)
        return value
    if _missing(value):
        return None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return _text_cell(sheet, str(int(value))) if _inexact_integer(value) else int(value)
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value):
            return None
        value = float(value)
        return value if float(f"{value:.16g}") == value else _exact_number(sheet, value)
    if isinstance(value, (dt.datetime, dt.date, pd.Timestamp)):
        return _date_cell(sheet, value)
    return _generic_cell(sheet, str(value))


def _missing(value: object) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    try:
        return bool(isinstance(value, (float, np.floating)) and np.isnan(value))
    except TypeError:
        return False


def _about_value(sheet: Any, value: object) -> WriteOnlyCell:
    """One metadata value: numbers as numbers, lists joined, anything else as text (cut to
    what an Excel cell holds)."""
    if isinstance(value, str) and len(value) > _MAX_CELL_TEXT:
        value = value[: _MAX_CELL_TEXT - 20] + " … (truncated)"
    cell = _about_cell(sheet, value)
    if isinstance(cell.value, str) and len(cell.value) >= _MAX_CELL_TEXT:
        # a joined list or JSON that grew too long: openpyxl cut it, say so
        cell.value = cell.value[: _MAX_CELL_TEXT - 20] + " … (truncated)"
        cell.data_type = "s"
    return cell


def _about_cell(sheet: Any, value: object) -> WriteOnlyCell:
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool):
        return _text_cell(sheet, "yes" if value else "no")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if isinstance(value, float) and not math.isfinite(value):
            return _text_cell(sheet, str(value))
        return WriteOnlyCell(sheet, value=value)
    if isinstance(value, (list, tuple, set, frozenset, np.ndarray)):
        items = list(value)
        if all(isinstance(v, (str, int, float, np.generic)) for v in items):
            return _text_cell(sheet, ", ".join(str(v) for v in items))
        return _text_cell(sheet, json.dumps(items, default=_json_default, ensure_ascii=False))
    if isinstance(value, (dt.datetime, dt.date)):
        return _text_cell(sheet, value.isoformat())
    if value is None:
        return _text_cell(sheet, "")
    return _text_cell(sheet, str(value))


# --------------------------------------------------------------------------- csv


def write_text(job: WriteJob) -> None:
    """The delimited formats' writer (CSV, TSV, TXT)."""
    _write_csv(job.table, job.target, job.csv_format, task=job.task)


def _write_csv(table: pd.DataFrame, tmp: Path, csv_format: CsvFormat, *, task: Task) -> None:
    """UTF-8 text; text cells that look like formulas get a leading apostrophe."""
    if write_csv(table, tmp, csv_format, task=task):
        return  # pyarrow's writer (engine.io.csvfast): the same guard, many times faster
    safe = table.copy(deep=False)
    for name in safe.columns:
        col = safe[name]
        if not (pd.api.types.is_numeric_dtype(col) or pd.api.types.is_datetime64_any_dtype(col)):
            safe[name] = _guard_column(col)
    header = [_csv_text(str(c)) for c in safe.columns]
    n = len(safe)
    encoding = "utf-8-sig" if csv_format.bom else "utf-8"
    with tmp.open("w", encoding=encoding, newline="") as fh:
        writer = csv.writer(fh, delimiter=csv_format.sep, lineterminator="\r\n")
        writer.writerow(header)
        for start in range(0, max(n, 1), _BATCH * 10):
            stop = min(start + _BATCH * 10, n)
            safe.iloc[start:stop].to_csv(
                fh, sep=csv_format.sep, decimal=csv_format.decimal, index=False, header=False,
                lineterminator="\r\n",
            )  # fmt: skip
            task.step(
                0.95 * stop / max(n, 1),
                _("Wrote {stop} of {n} rows").format(stop=number(stop), n=number(n)),
            )


def _guard_column(col: pd.Series) -> pd.Series:
    """``col`` with formula-like texts prefixed, decided once per distinct value."""
    codes, uniques = pd.factorize(col, use_na_sentinel=True)
    guarded = [_csv_text(u) for u in uniques]
    if all(g is u for g, u in zip(guarded, uniques, strict=True)):
        return col
    values = np.array(guarded, dtype=object)
    cells = np.full(len(col), None, dtype=object)
    present = codes >= 0
    cells[present] = values[codes[present]]
    return pd.Series(cells, index=col.index)


def _csv_text(value: object) -> object:
    """Text that a spreadsheet would run as a formula, prefixed with ``'``."""
    if isinstance(value, str) and is_formula_like(value):
        return "'" + value
    return value
