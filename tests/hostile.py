"""A corpus of hostile files and output requests, generated (no binary files in the repo).

Each :class:`Case` makes its input in an empty folder and names the ``tclose`` command to run
on it, the exit code that must come back (0, 2 or 3: never 1, an internal error), a pattern
the one-line message (or, on success, the printed line) must match, and the files that must
exist afterwards.  ``tests/test_hostile_io.py`` runs every case and also checks that the
input's SHA-256 checksum did not change.  Run this module to list the cases::

    python tests/hostile.py
"""

from __future__ import annotations

import codecs
import json
import os
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import openpyxl

#: the release every successful case asks for
RELEASE_ARGS = ["--qi", "age", "--confidential", "income", "--t", "3", "--k", "5", "--seed", "1"]


def rows(n: int = 120) -> list[list[object]]:
    """A small survey: header and ``n`` records (age, income, region), deterministic."""
    out: list[list[object]] = [["age", "income", "region"]]
    for i in range(n):
        out.append([20 + (i * 7) % 60, 1000 + ((i * 37) % 97) * 25, "NSEW"[i % 4]])
    return out


def csv_text(table: list[list[object]], sep: str = ",", end: str = "\n") -> str:
    return "".join(sep.join(str(v) for v in row) + end for row in table)


def write_csv(folder: Path, name: str = "in.csv", text: str | None = None) -> Path:
    path = folder / name
    path.write_bytes((csv_text(rows()) if text is None else text).encode("utf-8"))
    return path


def write_book(path: Path, sheets: dict[str, list[list[object]]], cells=(), merges=()) -> Path:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, table in sheets.items():
        sheet = book.create_sheet(name)
        for row in table:
            sheet.append(row)
    for sheet_name, ref, value in cells:
        book[sheet_name][ref] = value
    for sheet_name, ref in merges:
        book[sheet_name].merge_cells(ref)
    book.save(path)
    return path


@dataclass(frozen=True)
class Case:
    """One hostile input or output request and what ``tclose`` must do with it."""

    name: str
    #: writes the input (and anything else the case needs) into the folder; returns the input
    make: Callable[[Path], Path]
    #: the command line, given the folder and the input
    args: Callable[[Path, Path], list[str]]
    exit_code: int
    #: regex the one line on stderr (failure) or stdout (success) must match
    message: str
    #: names of the files in the folder afterwards
    files: frozenset[str]
    #: how the case is run: "process" (a real ``tclose`` process) or "inline" (main())
    run: str = "inline"
    #: extra settings for the run (resource limits, patched functions): see the test module
    fault: str = ""
    tags: tuple[str, ...] = field(default=())


def anonymize(
    out: str = "out.csv", *extra: str, release: list[str] = RELEASE_ARGS
) -> Callable[[Path, Path], list[str]]:
    """``tclose anonymize INPUT -o FOLDER/out …``; ``@name`` in ``extra`` is a file in the
    case's folder."""

    def args(folder: Path, source: Path) -> list[str]:
        target = out if os.path.isabs(out) else str(folder / out)
        resolved = [str(folder / e[1:]) if e.startswith("@") else e for e in extra]
        return ["anonymize", str(source), "-o", target, *release, *resolved]

    return args


def _in(*names: str) -> frozenset[str]:
    return frozenset(names)


# -- generators: reading ------------------------------------------------------------------------


def corner_cell(folder: Path) -> Path:
    """A 10 KB workbook with one cell at the sheet's far corner (XFD1048576)."""
    return write_book(folder / "in.xlsx", {"Data": rows()}, cells=[("Data", "XFD1048576", "x")])


def stray_far_below(folder: Path) -> Path:
    """A stray value 250,000 rows under the table."""
    return write_book(folder / "in.xlsx", {"Data": rows()}, cells=[("Data", "A250300", "x")])


def scattered_cells(folder: Path) -> Path:
    """Values scattered over the whole sheet: no table to trim to."""
    table = [[i] for i in range(1)]
    cells = [("S", f"{openpyxl.utils.get_column_letter(1 + i * 400)}{1 + i * 25_000}", i)
             for i in range(1, 40)]  # fmt: skip
    return write_book(folder / "in.xlsx", {"S": table}, cells=cells)


def lone_corner_cell(folder: Path) -> Path:
    return write_book(folder / "in.xlsx", {"S": []}, cells=[("S", "XFD1048576", "x")])


def blank_rows_csv(folder: Path) -> Path:
    table = rows()
    text = csv_text(table[:50]) + ",,\n,,\n" + csv_text(table[50:]) + ",,\n"
    return write_csv(folder, text=text)


def blank_rows_xlsx(folder: Path) -> Path:
    table = rows()
    return write_book(folder / "in.xlsx", {"S": [*table[:40], [], [None, None], *table[40:]]})


def cr_only_csv(folder: Path) -> Path:
    return write_csv(folder, text=csv_text(rows(), end="\r"))


def bare_cr_csv(folder: Path) -> Path:
    table = rows()
    for row in table[1::9]:
        row[2] = f'"{row[2]}\rx"'
    return write_csv(folder, text=csv_text(table))


def cover_sheet(folder: Path) -> Path:
    cover = [["Survey 2024: read me"], ["The data are on the next sheet."]]
    return write_book(folder / "in.xlsx", {"Read me": cover, "Data": rows(), "Notes": cover})


def footnotes(folder: Path) -> Path:
    notes = [[], ["Source: statistical office."], ["1) Incomes in euros."]]
    return write_book(folder / "in.xlsx", {"S": rows() + notes})


def merged_two_level_header(folder: Path) -> Path:
    table = [["age", "Weekly wage", None, "region"], [None, 1987, 1988, None]]
    table += [[a, i, i + 10, r] for a, i, r in rows()[1:]]
    return write_book(folder / "in.xlsx", {"S": table}, merges=[("S", "B1:C1")])


def european_numbers_as_text(folder: Path) -> Path:
    table = [["age", "income", "region"]]
    for a, i, r in rows()[1:]:
        table.append([a, f"{i // 1000}.{i % 1000:03d},{i % 7}0", r])
    return write_book(folder / "in.xlsx", {"S": table})


def big_integers(folder: Path) -> Path:
    table = rows()
    table[0].append("serial")
    for i, row in enumerate(table[1:]):
        row.append(2**62 + 2 * i + 1)  # odd: no double holds them exactly
    return write_csv(folder, text=csv_text(table))


def binary_named_csv(folder: Path) -> Path:
    path = folder / "in.csv"
    path.write_bytes(bytes(range(256)) * 8)
    return path


def truncated_xlsx(folder: Path) -> Path:
    path = write_book(folder / "full.xlsx", {"S": rows(400)})
    data = path.read_bytes()
    path.unlink()
    cut = folder / "in.xlsx"
    cut.write_bytes(data[: len(data) // 2])
    return cut


def empty_csv(folder: Path) -> Path:
    return write_csv(folder, text="")


def long_first_row(folder: Path) -> Path:
    return write_csv(folder, text="age,income,region\n30,1000,N,extra\n" + csv_text(rows()[1:]))


def bad_utf16(folder: Path) -> Path:
    path = folder / "in.csv"
    path.write_bytes(codecs.BOM_UTF16_LE + "age,income\n".encode("utf-16-le") + b"\x00\xd8")
    return path


def zip_not_a_workbook(folder: Path) -> Path:
    path = folder / "in.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("hello.txt", "not a workbook")
    return path


# -- generators: writing ------------------------------------------------------------------------


def plain(folder: Path) -> Path:
    return write_csv(folder)


def input_named_html(folder: Path) -> Path:
    return write_csv(folder, name="in.html")


def with_symlink_to_input(folder: Path) -> Path:
    source = write_csv(folder)
    (folder / "link.csv").symlink_to(source)
    return source


def with_hard_link_to_input(folder: Path) -> Path:
    source = write_csv(folder)
    os.link(source, folder / "hard.csv")
    return source


def with_project_beside(folder: Path) -> Path:
    source = write_csv(folder)
    doc = {"format": "tclose-project", "format_version": 1, "notes": "keep me"}
    (folder / "out.json").write_text(json.dumps(doc), encoding="utf-8")
    return source


def with_foreign_json_beside(folder: Path) -> Path:
    source = write_csv(folder)
    (folder / "out.json").write_text('{"mine": true}', encoding="utf-8")
    return source


def with_old_release(folder: Path) -> Path:
    source = write_csv(folder)
    (folder / "out.csv").write_text("old release\n", encoding="utf-8")
    (folder / "out.json").write_text('{"software": "tclose 0.0"}', encoding="utf-8")
    return source


def with_folder_named_like_the_output(folder: Path) -> Path:
    (folder / "sub.csv").mkdir()
    return write_csv(folder)


def with_read_only_folder(folder: Path) -> Path:
    """A folder the run may not write in (the test makes every write there fail: file
    permissions do not stop the administrator account tests may run under)."""
    (folder / "ro").mkdir()
    return write_csv(folder)


def project_file(folder: Path) -> Path:
    """A project whose release would put its JSON sidecar over the project itself."""
    from engine.params import ReleaseParams
    from engine.report.project import InputSpec, Project, file_sha256, save_project

    source = write_csv(folder)
    config = ReleaseParams(qi=("age",), confidential=("income",), k=5, t=3.0, seed=1)
    project = Project(InputSpec(source, file_sha256(source)), config)
    return save_project(project, folder / "p.json")


# -- the corpus ---------------------------------------------------------------------------------

OK_CSV = _in("in.csv", "out.csv", "out.json")
OK_XLSX = _in("in.xlsx", "out.csv", "out.json")
RELEASED = r"^Released \d+ records in \d+ classes"

CASES: list[Case] = [
    # reading
    Case("corner-cell", corner_cell, anonymize(), 0, RELEASED, OK_XLSX),
    Case("stray-far-below", stray_far_below, anonymize(), 0, RELEASED, OK_XLSX),
    Case(
        "scattered-cells",
        scattered_cells,
        anonymize(),
        2,
        r"in\.xlsx, sheet 'S': its 40 filled cells are spread over A1:\w+975001 .* Delete the "
        r"cells far from the table",
        _in("in.xlsx"),
        run="process",
    ),
    Case(
        "lone-corner-cell",
        lone_corner_cell,
        anonymize(),
        2,
        r"in\.xlsx, sheet 'S' has a header but no data rows",
        _in("in.xlsx"),
    ),
    Case("blank-rows-csv", blank_rows_csv, anonymize(), 0, RELEASED, OK_CSV),
    Case("blank-rows-xlsx", blank_rows_xlsx, anonymize(), 0, RELEASED, OK_XLSX),
    Case("cr-only-line-ends", cr_only_csv, anonymize(), 0, RELEASED, OK_CSV),
    Case("bare-cr-in-fields", bare_cr_csv, anonymize(), 0, RELEASED, OK_CSV),
    Case("cover-sheet-first", cover_sheet, anonymize(), 0, RELEASED, OK_XLSX),
    Case("footnotes-under-table", footnotes, anonymize(), 0, RELEASED, OK_XLSX),
    Case(
        "two-level-header",
        merged_two_level_header,
        anonymize(
            release=[
                "--qi",
                "age",
                "--confidential",
                "Weekly wage 1988",
                "--t",
                "3",
                "--k",
                "5",
                "--seed",
                "1",
            ]
        ),
        0,
        RELEASED,
        OK_XLSX,
    ),
    Case("numbers-as-text-eu", european_numbers_as_text, anonymize(), 0, RELEASED, OK_XLSX),
    Case(
        "int64-beyond-2^53-to-xlsx",
        big_integers,
        anonymize("out.xlsx", "--keep", "serial"),
        0,
        RELEASED,
        _in("in.csv", "out.xlsx"),
    ),
    Case(
        "binary-named-csv",
        binary_named_csv,
        anonymize(),
        2,
        r"in\.csv does not look like a text \(CSV\) file",
        _in("in.csv"),
    ),
    Case(
        "truncated-xlsx",
        truncated_xlsx,
        anonymize(),
        2,
        r"in\.xlsx is damaged or incomplete",
        _in("in.xlsx"),
    ),
    Case(
        "zip-not-a-workbook",
        zip_not_a_workbook,
        anonymize(),
        2,
        r"in\.xlsx is damaged or incomplete",
        _in("in.xlsx"),
    ),
    Case("empty-csv", empty_csv, anonymize(), 2, r"in\.csv is empty \(0 bytes\)", _in("in.csv")),
    Case(
        "first-row-longer-than-header",
        long_first_row,
        anonymize(),
        2,
        r"in\.csv, line 2: 4 fields where the header has 3",
        _in("in.csv"),
    ),
    Case(
        "invalid-utf16",
        bad_utf16,
        anonymize(),
        2,
        r"in\.csv, line \d+: the text looks like UTF-16",
        _in("in.csv"),
    ),
    # writing
    Case(
        "summary-is-the-input",
        plain,
        anonymize("out.csv", "--summary", "@in.csv"),
        2,
        r"in\.csv: refusing to overwrite the input file",
        _in("in.csv"),
    ),
    Case(
        "report-is-the-input",
        input_named_html,
        anonymize("out.csv", "--report", "@in.html"),
        2,
        r"in\.html: refusing to overwrite the input file",
        _in("in.html"),
    ),
    Case(
        "output-is-the-input",
        plain,
        anonymize("in.csv"),
        2,
        r"in\.csv: refusing to overwrite the input file",
        _in("in.csv"),
    ),
    Case(
        "output-is-the-input-via-dotdot",
        plain,
        anonymize("sub/../in.csv"),
        2,
        r"refusing to overwrite the input file",
        _in("in.csv"),
    ),
    Case(
        "output-is-a-symlink-to-the-input",
        with_symlink_to_input,
        anonymize("link.csv"),
        2,
        r"link\.csv: refusing to overwrite the input file",
        _in("in.csv", "link.csv"),
    ),
    Case(
        "output-is-a-hard-link-to-the-input",
        with_hard_link_to_input,
        anonymize("hard.csv"),
        2,
        r"hard\.csv: refusing to overwrite the input file",
        _in("in.csv", "hard.csv"),
    ),
    Case(
        "summary-is-the-release",
        plain,
        anonymize("out.csv", "--summary", "@out.csv"),
        2,
        r"out\.csv: the summary and the release would be the same file",
        _in("in.csv"),
    ),
    Case(
        "summary-is-the-sidecar",
        plain,
        anonymize("out.csv", "--summary", "@out.json"),
        2,
        r"out\.json: the summary and the release's metadata file \(named after the release\) "
        r"would be the same file",
        _in("in.csv"),
    ),
    Case(
        "report-is-the-release",
        plain,
        anonymize("out.html", "--report", "@out.html"),
        2,
        r"out\.html: unknown output type '\.html'",
        _in("in.csv"),
    ),
    Case(
        "project-file-beside-the-release",
        with_project_beside,
        anonymize(),
        2,
        r"out\.json: the release's metadata file \(named after the release\) would replace a "
        r"tclose project file",
        _in("in.csv", "out.json"),
    ),
    Case(
        "foreign-json-beside-the-release",
        with_foreign_json_beside,
        anonymize(),
        2,
        r"out\.json: .* would replace a JSON file tclose did not write",
        _in("in.csv", "out.json"),
    ),
    Case(
        "report-folder-missing",
        plain,
        anonymize("out.csv", "--report", "@missing/r.html"),
        2,
        r"r\.html: the folder .*missing does not exist",
        _in("in.csv"),
    ),
    Case(
        "summary-name-too-long",
        plain,
        anonymize("out.csv", "--summary", "@" + "s" * 300 + ".json"),
        2,
        r"the file name is too long \(305 characters; at most 255",
        _in("in.csv"),
    ),
    Case(
        "output-is-a-folder",
        with_folder_named_like_the_output,
        anonymize("sub.csv"),
        2,
        r"sub\.csv is a folder",
        _in("in.csv", "sub.csv"),
    ),
    Case(
        "replace-old-release-and-sidecar",
        with_old_release,
        anonymize(),
        0,
        RELEASED,
        OK_CSV,
    ),
    Case(
        "sweep-table-is-the-input",
        plain,
        lambda folder, source: [
            "sweep",
            str(source),
            "--qi",
            "age",
            "--confidential",
            "income",
            "--t",
            "3",
            "--k",
            "5",
            "-o",
            str(source),
        ],
        2,
        r"in\.csv: refusing to overwrite the input file",
        _in("in.csv"),
    ),
    Case(
        "run-sidecar-over-the-project",
        project_file,
        lambda folder, project: ["run", str(project), "-o", str(folder / "p.csv")],
        2,
        r"p\.json: refusing to overwrite the input file",
        _in("in.csv", "p.json"),
    ),
    # faults while writing
    Case(
        "disk-full-writing-xlsx",
        plain,
        anonymize("out.xlsx"),
        2,
        r"out\.xlsx: cannot write \(the file is too large for this disk or system\)\. Nothing "
        "was written",
        _in("in.csv"),
        run="process",
        fault="fsize",
    ),
    Case(
        "disk-full-writing-csv",
        plain,
        anonymize("out.csv"),
        2,
        r"out\.csv: cannot write \(the file is too large for this disk or system\)\. Nothing "
        "was written",
        _in("in.csv"),
        run="process",
        fault="fsize",
    ),
    Case(
        "release-locked-by-another-program",
        with_old_release,
        anonymize(),
        2,
        r"out\.csv cannot be replaced: it is open in another program \(such as Excel\)",
        OK_CSV,
        fault="locked:out.csv",
    ),
    Case(
        "report-folder-read-only",
        with_read_only_folder,
        anonymize("out.csv", "--report", "@ro/r.html"),
        2,
        r"r\.html: cannot write in the folder .*ro \(permission denied\)",
        _in("in.csv", "ro"),
        fault="readonly:ro",
    ),
]


if __name__ == "__main__":
    for case in CASES:
        print(f"{case.name:40} exit {case.exit_code}  {case.run:7} {case.fault}")
