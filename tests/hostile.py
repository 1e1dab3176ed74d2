"""A corpus of hostile files and output requests, generated (no binary files in the repo).

Each :class:`Case` makes its input in an empty folder and names the ``tclose`` command to run
on it, the exit code that must come back (0, 2 or 3; 4 from ``verify`` for a release that
breaks its bounds; 130 or 143 for a signal: never 1, an internal error), a pattern the
one-line message (or, on success, the printed line) must match, and the files that must exist
afterwards.  ``tests/test_hostile_io.py`` runs every case and also checks that the input's
SHA-256 checksum did not change; ``tests/attacks.py`` runs them all and prints a table.  The
families: hostile files, output requests and faults while writing, then (tagged) numeric
extremes, missing confidential values, malformed project files, tampered releases and
signals.  Run this module to list the cases::

    python tests/hostile.py
"""

from __future__ import annotations

import codecs
import dataclasses
import json
import math
import os
import shlex
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import openpyxl

if __package__ in (None, ""):  # run as a script: python tests/hostile.py
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import hostile_build as build

#: words of a command line that name a server: a shared local Dask cluster, and a server
#: that greets every connection as something else does
SERVERS: dict[str, Callable[[], str]] = {
    "SCHEDULER": build.scheduler_address,
    "NOT_A_SCHEDULER": build.not_a_scheduler_address,
}
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
    """A workbook of ``sheets`` (name: rows), then ``cells`` (sheet, ref, value) set one by one
    and ``merges`` (sheet, range); every test workbook is made here, none is checked in."""
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
    from engine.project import InputSpec, Project, file_sha256, save_project

    source = write_csv(folder)
    config = ReleaseParams(qi=("age",), confidential=("income",), k=5, t=3.0, seed=1)
    project = Project(InputSpec(source, file_sha256(source)), config)
    return save_project(project, folder / "p.json")


# -- generators: numeric extremes, project files, tampered releases, signals ------------------


def command(line: str) -> Callable[[Path, Path], list[str]]:
    """Any ``tclose`` command line, split as a shell would; ``@name`` is a file in the case's
    folder, ``INPUT`` the case's input."""
    words = shlex.split(line)

    def args(folder: Path, source: Path) -> list[str]:
        def resolve(word: str) -> str:
            if word == "INPUT":
                return str(source)
            if word in SERVERS:  # started on first use (a Dask cluster takes seconds)
                return SERVERS[word]()
            return str(folder / word[1:]) if word.startswith("@") else word

        return [resolve(w) for w in words]

    return args


def release(flags: str, out: str = "out.csv") -> Callable[[Path, Path], list[str]]:
    """``tclose anonymize INPUT -o out --qi age --confidential income`` and ``flags``."""
    return command(f"anonymize INPUT -o @{out} --qi age --confidential income {flags}")


def with_values(change: Callable[[int, list[object]], None], n: int = 120):
    """An input whose records ``change(i, row)`` edits (age, income, region)."""

    def make(folder: Path) -> Path:
        table = rows(n)
        for i, row in enumerate(table[1:]):
            change(i, row)
        return write_csv(folder, text=csv_text(table))

    make.__doc__ = change.__doc__
    return make


def _set(column: int, value: object, every: int = 20) -> Callable[[int, list[object]], None]:
    def change(i: int, row: list[object]) -> None:
        if i % every == 3 % every:
            row[column] = value

    return change


def one_blank_income(folder: Path) -> Path:
    """One blank confidential cell among 300 records: its bucket holds one record."""
    table = rows(300)
    table[8][1] = ""
    return write_csv(folder, text=csv_text(table))


def binary_confidential(folder: Path) -> Path:
    table = rows()
    for i, row in enumerate(table[1:]):
        row[1] = "yes" if i % 3 else "no"
    return write_csv(folder, text=csv_text(table))


def project(change: Callable[[dict], object] | None = None, text: str | None = None):
    """A project file for ``plain`` (t = 3, k = 5, seed 1), its document edited by ``change``
    (or replaced by ``text``); the case's input is the project file."""

    def make(folder: Path) -> Path:
        from engine.params import ReleaseParams
        from engine.project import new_project, project_to_dict

        source = write_csv(folder)
        params = ReleaseParams(qi=("age",), confidential=("income",), k=5, t=3.0, seed=1)
        doc = project_to_dict(new_project(source, params), base=folder)
        if change is not None:
            change(doc)
        body = json.dumps(doc) if text is None else text
        path = folder / "p.json"
        path.write_text(body, encoding="utf-8")
        return path

    return make


def _params(**changes: object) -> Callable[[dict], None]:
    return lambda doc: doc["params"].update(changes)


def _input(**changes: object) -> Callable[[dict], None]:
    return lambda doc: doc["input"].update(changes)


def _deep(doc: dict) -> None:
    doc["params"]["qi"] = "DEEP"


def deep_project(folder: Path) -> Path:
    """params.qi nested 100,000 lists deep (the JSON reader's recursion)."""
    path = project(_deep)(folder)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"DEEP"', "[" * 100_000 + "]" * 100_000), encoding="utf-8")
    return path


def project_on_changed_input(folder: Path) -> Path:
    path = project()(folder)
    with (folder / "in.csv").open("a", encoding="utf-8") as fh:
        fh.write("99,1000,N\n")
    return path


def project_without_input(folder: Path) -> Path:
    path = project()(folder)
    (folder / "in.csv").unlink()
    return path


def a_release(edit: Callable[[list[list[str]]], None] | None = None):
    """A release of ``plain`` (t = 3, k = 5, seed 1; classes of 10 or more) as ``rel.csv``,
    its rows (header first) edited by ``edit``: the case's input is the release."""

    def make(folder: Path) -> Path:
        import csv
        import io

        path = released(folder, "rel.csv")
        (folder / "rel.json").unlink()
        table = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
        if edit is not None:
            edit(table)
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows(table)
        path.write_text(out.getvalue(), encoding="utf-8")
        return path

    return make


def _lone_record(table: list[list[str]]) -> None:
    """One record's age made unique: its class has a single record."""
    table[1][0] = "1000"


def _one_class_one_bucket(table: list[list[str]]) -> None:
    """Every record of the first record's class given that record's income bucket."""
    age, income = table[1]
    for row in table[1:]:
        if row[0] == age:
            row[1] = income


def _drop_column(table: list[list[str]]) -> None:
    for row in table:
        del row[1]


def _thin_a_class(table: list[list[str]]) -> None:
    """All but three records of the first record's class removed."""
    age = table[1][0]
    keep = [row for row in table[1:] if row[0] != age] + [r for r in table[1:] if r[0] == age][:3]
    table[1:] = keep


def large_survey(folder: Path) -> Path:
    """15,000 records: long enough to be stopped while the workbook is written."""
    return write_csv(folder, text=csv_text(rows(15_000)))


# -- the corpus ---------------------------------------------------------------------------------

OK_CSV = _in("in.csv", "out.csv", "out.json")
OK_XLSX = _in("in.xlsx", "out.csv", "out.json")
IN_CSV = _in("in.csv")
IN_XLSX = _in("in.xlsx")
RELEASED = r"^Released \d+ records in \d+ classes"


def ok(name: str, make, args, files=OK_CSV, message: str = RELEASED, **how: str) -> Case:
    """A case that must succeed: exit 0, ``message`` printed, ``files`` in the folder after."""
    return Case(name, make, args, 0, message, files, **how)


def refused(name: str, make, args, message: str, files=IN_CSV, code: int = 2, **how: str) -> Case:
    """A case that must stop with exit ``code`` (2 unless said) and one line matching
    ``message``, leaving only ``files``."""
    return Case(name, make, args, code, message, files, **how)


def refused_to_overwrite(name: str, make, args, files=IN_CSV, path: str = r"in\.csv") -> Case:
    """An output request that names the input (or a link to it): refused, nothing written."""
    return refused(name, make, args, path + r": refusing to overwrite the input file", files)


SCATTERED = (
    r"in\.xlsx, sheet 'S': its 40 filled cells are spread over A1:\w+975001 .* Delete the "
    r"cells far from the table"
)
TWO_LEVEL_RELEASE = shlex.split("--qi age --confidential 'Weekly wage 1988' --t 3 --k 5 --seed 1")
SUMMARY_IS_THE_SIDECAR = (
    r"out\.json: the summary and the release's metadata file \(named after the release\) "
    r"would be the same file"
)
PROJECT_BESIDE = (
    r"out\.json: the release's metadata file \(named after the release\) would replace a "
    r"tclose project file"
)
SWEEP_OVER_INPUT = "sweep INPUT --qi age --confidential income --t 3 --k 5 -o INPUT"


#: the one line for a write that fails on a full disk (or past a file size limit)
TOO_LARGE = (
    r": cannot write \(the file is too large for this disk or system\)\. Nothing was written"
)


CASES: list[Case] = [
    # reading
    ok("corner-cell", corner_cell, anonymize(), OK_XLSX),
    ok("stray-far-below", stray_far_below, anonymize(), OK_XLSX),
    refused("scattered-cells", scattered_cells, anonymize(), SCATTERED, IN_XLSX, run="process"),
    refused(
        "lone-corner-cell",
        lone_corner_cell,
        anonymize(),
        r"in\.xlsx, sheet 'S' has a header but no data rows",
        IN_XLSX,
    ),
    ok("blank-rows-csv", blank_rows_csv, anonymize()),
    ok("blank-rows-xlsx", blank_rows_xlsx, anonymize(), OK_XLSX),
    ok("cr-only-line-ends", cr_only_csv, anonymize()),
    ok("bare-cr-in-fields", bare_cr_csv, anonymize()),
    ok("cover-sheet-first", cover_sheet, anonymize(), OK_XLSX),
    ok("footnotes-under-table", footnotes, anonymize(), OK_XLSX),
    ok("two-level-header", merged_two_level_header, anonymize(release=TWO_LEVEL_RELEASE), OK_XLSX),
    ok("numbers-as-text-eu", european_numbers_as_text, anonymize(), OK_XLSX),
    ok(
        "int64-beyond-2^53-to-xlsx",
        big_integers,
        anonymize("out.xlsx", "--keep", "serial", "--allow-identifier", "serial"),
        _in("in.csv", "out.xlsx"),
    ),
    refused(
        "binary-named-csv",
        binary_named_csv,
        anonymize(),
        r"in\.csv does not look like a text \(CSV\) file",
    ),
    refused(
        "truncated-xlsx", truncated_xlsx, anonymize(), r"in\.xlsx is damaged or incomplete", IN_XLSX
    ),
    refused(
        "zip-not-a-workbook",
        zip_not_a_workbook,
        anonymize(),
        r"in\.xlsx is damaged or incomplete",
        IN_XLSX,
    ),
    refused("empty-csv", empty_csv, anonymize(), r"in\.csv is empty \(0 bytes\)"),
    refused(
        "first-row-longer-than-header",
        long_first_row,
        anonymize(),
        r"in\.csv, line 2: 4 fields where the header has 3",
    ),
    refused(
        "invalid-utf16", bad_utf16, anonymize(), r"in\.csv, line \d+: the text looks like UTF-16"
    ),
    # writing
    refused_to_overwrite(
        "summary-is-the-input", plain, anonymize("out.csv", "--summary", "@in.csv")
    ),
    refused_to_overwrite(
        "report-is-the-input",
        input_named_html,
        anonymize("out.csv", "--report", "@in.html"),
        _in("in.html"),
        r"in\.html",
    ),
    refused_to_overwrite("output-is-the-input", plain, anonymize("in.csv")),
    refused(
        "output-is-the-input-via-dotdot",
        plain,
        anonymize("sub/../in.csv"),
        r"refusing to overwrite the input file",
    ),
    refused_to_overwrite(
        "output-is-a-symlink-to-the-input",
        with_symlink_to_input,
        anonymize("link.csv"),
        _in("in.csv", "link.csv"),
        r"link\.csv",
    ),
    refused_to_overwrite(
        "output-is-a-hard-link-to-the-input",
        with_hard_link_to_input,
        anonymize("hard.csv"),
        _in("in.csv", "hard.csv"),
        r"hard\.csv",
    ),
    refused(
        "summary-is-the-release",
        plain,
        anonymize("out.csv", "--summary", "@out.csv"),
        r"out\.csv: the summary and the release would be the same file",
    ),
    refused(
        "summary-is-the-sidecar",
        plain,
        anonymize("out.csv", "--summary", "@out.json"),
        SUMMARY_IS_THE_SIDECAR,
    ),
    refused(
        "report-is-the-release",
        plain,
        anonymize("out.html", "--report", "@out.html"),
        r"out\.html: unknown output type '\.html'",
    ),
    refused(
        "project-file-beside-the-release",
        with_project_beside,
        anonymize(),
        PROJECT_BESIDE,
        _in("in.csv", "out.json"),
    ),
    refused(
        "foreign-json-beside-the-release",
        with_foreign_json_beside,
        anonymize(),
        r"out\.json: .* would replace a JSON file tclose did not write",
        _in("in.csv", "out.json"),
    ),
    refused(
        "report-folder-missing",
        plain,
        anonymize("out.csv", "--report", "@missing/r.html"),
        r"r\.html: the folder .*missing does not exist",
    ),
    refused(
        "summary-name-too-long",
        plain,
        anonymize("out.csv", "--summary", "@" + "s" * 300 + ".json"),
        r"the file name is too long \(305 characters; at most 255",
    ),
    refused(
        "output-is-a-folder",
        with_folder_named_like_the_output,
        anonymize("sub.csv"),
        r"sub\.csv is a folder",
        _in("in.csv", "sub.csv"),
    ),
    ok("replace-old-release-and-sidecar", with_old_release, anonymize()),
    refused_to_overwrite("sweep-table-is-the-input", plain, command(SWEEP_OVER_INPUT)),
    refused_to_overwrite(
        "run-sidecar-over-the-project",
        project_file,
        command("run INPUT -o @p.csv"),
        _in("in.csv", "p.json"),
        r"p\.json",
    ),
    # faults while writing
    refused(
        "disk-full-writing-xlsx",
        plain,
        anonymize("out.xlsx"),
        r"out\.xlsx" + TOO_LARGE,
        run="process",
        fault="fsize",
    ),
    refused(
        "disk-full-writing-csv",
        plain,
        anonymize("out.csv"),
        r"out\.csv" + TOO_LARGE,
        run="process",
        fault="fsize",
    ),
    refused(
        "release-locked-by-another-program",
        with_old_release,
        anonymize(),
        r"out\.csv cannot be replaced: it is open in another program \(such as Excel\)",
        OK_CSV,
        fault="locked:out.csv",
    ),
    refused(
        "report-folder-read-only",
        with_read_only_folder,
        anonymize("out.csv", "--report", "@ro/r.html"),
        r"r\.html: cannot write in the folder .*ro \(permission denied\)",
        _in("in.csv", "ro"),
        fault="readonly:ro",
    ),
]

VERIFY = "verify INPUT --qi age --confidential income"
LAPLACE = "--mechanism laplace --bounds income=0:5000"
CONVERT_OK = r"^\S.* \(mechanism: \w+\)$"
PLANNED = r"^\d[\d,]* records"
#: a k beyond a million billion reads in powers of ten, as every number of that size does
K_2_63 = r"k = 9\.223 × 10¹⁸ needs at least"
PROJECT_IN = _in("in.csv", "p.json")
RUN_PROJECT = command("run INPUT -o @o.csv")
REL = _in("rel.csv")


def tagged(tag: str, cases: list[Case]) -> list[Case]:
    """``cases`` as one family (``tests/attacks.py`` and the extremes tests pick by tag)."""
    return [dataclasses.replace(case, tags=(tag,)) for case in cases]


def bad_project(name: str, make, message: str, files=PROJECT_IN) -> Case:
    """``tclose run`` on a malformed project file: exit 2, one line, nothing written."""
    return refused(name, make, RUN_PROJECT, message, files)


def verify(name: str, edit, flags: str, code: int, message: str) -> Case:
    """``tclose verify`` with ``flags`` on a release edited by ``edit`` after it was written."""
    return Case(name, a_release(edit), command(f"{VERIFY} {flags}"), code, message, REL)


def stopped(signal: str, code: int, said: str) -> Case:
    """``tclose`` stopped by SIG``signal`` while it writes a large workbook: exit ``code``."""
    return refused(
        f"sig{signal.lower()}-while-writing-xlsx",
        large_survey,
        release("--t 3 --k 5", out="out.xlsx"),
        rf"^tclose: {said}; nothing was written\.$",
        code=code,
        run="process",
        fault=f"signal:{signal}",
    )


#: malformed parameters in a project file: (case, the changed params, the one line printed)
BAD_PARAMS = [
    ("project-t-abc", {"t": "abc"}, r"p\.json: t must be a number ≥ 1, not 'abc'"),
    ("project-k-infinity", {"k": math.inf}, r"k must be a whole number ≥ 1, not inf"),
    ("project-k-list", {"k": [5]}, r"k must be a whole number ≥ 1, not list \[5\]"),
    ("project-k-true", {"k": True}, r"k must be a whole number ≥ 1, not True"),
    (
        "project-bounds-null",
        {"t": None, "epsilon": 1.0, "mechanism": "laplace", "bounds": {"income": [None, 1]}},
        r"bounds\['income'\] must be \[low, high\]",
    ),
    ("project-joint-no", {"joint": "no"}, r"joint must be true or false, not 'no'"),
    (
        "project-mechanism-gaussian",
        {"t": None, "epsilon": 1.0, "mechanism": "gaussian"},
        r"mechanism must be one of 'buckets' or 'laplace', not 'gaussian'",
    ),
    (
        "project-qi-output-bogus",
        {"qi_output": "bogus"},
        r"qi_output must be one of 'centroid', 'range' or 'common', not 'bogus'",
    ),
    (
        "project-confidential-output-5",
        {"confidential_output": 5},
        r"confidential_output must be one of 'mean', 'median' or 'label', not 5",
    ),
    (
        "project-n-buckets-0",
        {"n_buckets": 0},
        r"n_buckets must be 'auto' or a whole number ≥ 2, not 0",
    ),
    (
        "project-missing-merge",
        {"missing_confidential": "merge"},
        r"missing_confidential must be one of 'bucket' or 'drop', not 'merge'",
    ),
    ("project-unknown-parameter", {"kk": 3}, r"Unknown parameter\(s\) 'kk'"),
]

CASES += tagged(
    "numeric",  # a valid release or exit 2, never an overflow
    [
        ok("t-1e308", plain, release("--t 1e308 --k 5")),
        ok("t-1e200", plain, release("--t 1e200 --k 5")),
        ok(
            "plan-t-1e200-feasible",
            plain,
            command("plan INPUT --qi age --confidential income --t 1e200 --k 5"),
            IN_CSV,
            PLANNED,
        ),
        ok(
            "sweep-t-1e200-1e308",
            plain,
            command(
                "sweep INPUT -o @s.csv --qi age --confidential income --t 1e200,1e308 --k 5,120"
            ),
            _in("in.csv", "s.csv"),
            r"^4 points \(0 infeasible\)",
        ),
        ok("epsilon-700", plain, release("--epsilon 700 --k 5")),
        refused(
            "epsilon-700.5",
            plain,
            release("--epsilon 700.5 --k 5"),
            r"epsilon must be a number > 0 and ≤ 700, not 700\.5",
        ),
        refused(
            "epsilon-1e6-sweep",
            plain,
            command("sweep INPUT -o @s.csv --qi age --confidential income --epsilon 1,1e6 --k 5"),
            r"epsilon must be a number > 0 and ≤ 700, not 1e6",
        ),
        ok("epsilon-700-laplace", plain, release(f"--epsilon 700 --k 5 {LAPLACE}")),
        refused(
            "epsilon-1e-300-laplace",
            plain,
            release(f"--epsilon 1e-300 --k 5 {LAPLACE}"),
            r"laplace mechanism takes ε ≥ 1e-06, not 1e-300",
        ),
        refused(
            "private-bounds-share-1e-7",
            plain,
            release("--epsilon 1e-6 --k 5 --mechanism laplace --bounds private=0.0000001"),
            r"Private bounds would be noise here: with ε = 1e-13 for the bounds",
        ),
        refused(
            "bounds-plus-minus-1e308",
            plain,
            release("--epsilon 1 --k 5 --mechanism laplace --bounds income=-1e308:1e308"),
            r"bounds\['income'\] must be \[low, high\] with numbers between -1e\+150 and 1e\+150",
        ),
        ok(
            "bounds-0-1e150-integer-column",
            plain,
            release("--epsilon 1 --k 5 --mechanism laplace --bounds income=0:1e150"),
        ),
        refused(
            "resample-until-t-1e308",
            plain,
            release(f"--epsilon 1 --k 5 {LAPLACE} --resample-until-t 1e308"),
            r"None of 100 draws of the noise was actually 1e\+308-close",
            code=3,
        ),
        refused(
            "qi-with-inf",
            with_values(_set(0, "inf")),
            release("--t 3 --k 5"),
            r"Column 'age' holds 6 infinite value\(s\); correct them or declare 'inf' "
            "missing-value codes",
        ),
        refused(
            "confidential-with-minus-inf",
            with_values(_set(1, "-inf")),
            release("--t 3 --k 5"),
            r"Column 'income' holds 6 infinite value\(s\)",
        ),
        ok(
            "inf-declared-missing",
            with_values(_set(0, "inf")),
            release("--t 3 --k 5 --missing=inf"),
        ),
        refused(
            "qi-with-1e308",
            with_values(_set(0, "1e308")),
            release("--t 3 --k 5"),
            r"Column 'age' holds 6 value\(s\) such as 1e\+308 that tclose cannot compute with",
        ),
        refused(
            "subnormal-values",
            with_values(_set(1, "5e-324", every=1)),
            release("--t 3 --k 5 --qi-output range"),
            r"Column 'income' holds 120 value\(s\) such as 4\.94066e-324",
        ),
        refused("k-2^63", plain, release(f"--t 3 --k {2**63}"), K_2_63, code=3),
        refused(
            "k-2^63-laplace", plain, release(f"--epsilon 1 --k {2**63} {LAPLACE}"), K_2_63, code=3
        ),
        ok("buckets-10^30", plain, release(f"--t 3 --k 5 --buckets {10**30}")),
        ok("buckets-10-binary-column", binary_confidential, release("--t 2 --k 5 --buckets 10")),
        refused(
            "seed-2^64",
            plain,
            release(f"--t 3 --k 5 --seed {2**64}"),
            r"seed must be a whole number ≥ 0 and ≤ 1\.84e\+19, not 18446744073709551616",
        ),
        ok("seed-2^64-1", plain, release(f"--t 3 --k 5 --seed {2**64 - 1}")),
        refused(
            "seed-minus-1",
            plain,
            release("--t 3 --k 5 --seed=-1"),
            r"seed must be a whole number ≥ 0",
        ),
        ok(
            "convert-epsilon-700",
            plain,
            command("convert --epsilon 700 --k 5 --n 100 --mechanism insensitive"),
            IN_CSV,
            CONVERT_OK,
        ),
        refused(
            "convert-epsilon-2000",
            plain,
            command("convert --epsilon 2000"),
            r"ε must be a number ≥ 0 and ≤ 700, not 2000",
        ),
        ok(
            "convert-t-1e308",
            plain,
            command("convert --t 1e308 --k 5 --n 100 --mechanism laplace"),
            IN_CSV,
            CONVERT_OK,
        ),
        refused(
            "convert-t-inf", plain, command("convert --t inf"), r"t must be a number ≥ 1, not inf"
        ),
        verify("verify-t-nan", None, "--t nan", 2, r"t must be a number ≥ 1, not nan"),
        verify("verify-k-minus-1", None, "--k=-1", 2, r"k must be a whole number ≥ 1, not -1"),
        verify(
            "verify-k-2^63",
            None,
            f"--k {2**63}",
            4,
            r"a class has only \d+ records \(k = 9\.223 × 10¹⁸ required\)",
        ),
    ],
)
CASES += tagged(
    "missing",  # one blank confidential cell: one class, or the record left out
    [
        ok(
            "one-blank-income",
            one_blank_income,
            release("--t 3 --k 5"),
            message=r"^Released 300 records in 1 classes",
        ),
        ok(
            "one-blank-income-dropped",
            one_blank_income,
            release("--t 3 --k 5 --missing-confidential drop"),
            message=r"^Released 299 records in \d\d+ classes",
        ),
    ],
)
CASES += tagged(
    "project",  # malformed project files: one line, exit 2, nothing written
    [
        *(bad_project(name, project(_params(**params)), msg) for name, params, msg in BAD_PARAMS),
        bad_project(
            "project-separator-5",
            project(_input(separator=5)),
            r"input\.separator must be a text or null, not 5",
        ),
        bad_project(
            "project-encoding-8",
            project(_input(encoding=8)),
            r"input\.encoding must be a text or null, not 8",
        ),
        bad_project(
            "project-nested-100000-deep",
            deep_project,
            r"p\.json: nested too deeply to be a tclose project file",
        ),
        bad_project(
            "project-format-version-text",
            project(lambda d: d.update(format_version="1")),
            r"format_version must be a whole number ≥ 1, not '1'",
        ),
        bad_project(
            "project-format-version-3",
            project(lambda d: d.update(format_version=3)),
            r"layout version 3; this tclose reads versions 1 to 2",
        ),
        bad_project(
            "project-not-json",
            project(text="{not json"),
            r"p\.json: not valid JSON \(line 1, column 2",
        ),
        bad_project(
            "project-a-list", project(text="[1, 2]"), r"p\.json: not a tclose project file"
        ),
        bad_project(
            "project-input-changed",
            project_on_changed_input,
            r"The input file in\.csv changed since the project was saved",
        ),
        bad_project(
            "project-input-gone",
            project_without_input,
            r"The project's input file .*in\.csv is not there",
            _in("p.json"),
        ),
        ok(
            "project-t-1e308",
            project(_params(t=1e308)),
            RUN_PROJECT,
            _in("in.csv", "p.json", "o.csv", "o.json"),
            r"^Wrote .*o\.csv",
        ),
    ],
)
CASES += tagged(
    "tampered",  # verify is not fooled (exit 4), and reads what it is given
    [
        verify("verify-untampered", None, "--k 5 --t 3", 0, r"^\{"),
        verify(
            "verify-a-lone-record",
            _lone_record,
            "--k 5",
            4,
            r"Verification failed: a class has only 1 records \(k = 5 required\)",
        ),
        verify(
            "verify-a-class-of-one-bucket",
            _one_class_one_bucket,
            "--t 3",
            4,
            r"Verification failed: a class is at distance infinite \(t = 3 required\)",
        ),
        verify(
            "verify-a-thinned-class",
            _thin_a_class,
            "--k 5 --t 3",
            4,
            r"Verification failed: a class has only 3 records",
        ),
        Case(
            "verify-a-column-named-twice",
            a_release(),
            command("verify INPUT --qi age,age --confidential income"),
            2,
            r"A column can be named only once: 'age'",
            REL,
        ),
        verify(
            "verify-a-column-removed",
            _drop_column,
            "--k 5",
            2,
            r"The release has no column 'income'",
        ),
    ],
)
CASES += tagged(
    "signals",  # stopped while the workbook is written, nothing is left
    [stopped("TERM", 143, "terminated"), stopped("INT", 130, "interrupted")],
)


# -- round two: generators ---------------------------------------------------------------------


def survey_frame(n: int = 120):
    import pandas as pd

    table = rows(n)
    return pd.DataFrame(table[1:], columns=table[0])


def dataset(folder: Path) -> Path:
    """A Parquet dataset folder ``ds`` of two parts: the survey's first and last 60 records."""
    frame = survey_frame()
    (folder / "ds").mkdir()
    frame.iloc[:60].to_parquet(folder / "ds" / "part-0.parquet")
    frame.iloc[60:].to_parquet(folder / "ds" / "part-1.parquet")
    return folder / "ds"


def parquet_types(folder: Path) -> Path:
    """The survey with a column of each Parquet type a table of records does not hold
    (struct, list, map, bytes that are not UTF-8, times with a time zone) and of those it
    holds differently (decimal, date, time of day, duration, UTF-8 bytes)."""
    import datetime as dt
    import decimal

    import pyarrow as pa
    import pyarrow.parquet as pq

    frame = survey_frame()
    n = len(frame)
    paris = dt.timezone(dt.timedelta(hours=1))
    columns = {
        "age": pa.array(frame["age"]),
        "income": pa.array(frame["income"]),
        "region": pa.array(frame["region"]),
        "st": pa.array([{"a": i % 3, "b": "x"} for i in range(n)]),
        "li": pa.array([[i % 3, 1] for i in range(n)]),
        "mp": pa.array([[("k", i % 3)] for i in range(n)], pa.map_(pa.string(), pa.int64())),
        "bi": pa.array([bytes([200 + i % 3]) for i in range(n)], pa.binary()),
        "tz": pa.array([dt.datetime(2020, 1, 1 + i % 20, 9, tzinfo=paris) for i in range(n)]),
        "dec": pa.array([decimal.Decimal(i % 7) / 4 for i in range(n)], pa.decimal128(10, 3)),
        "day": pa.array([dt.date(2020, 1, 1 + i % 20) for i in range(n)]),
        "tm": pa.array([dt.time(i % 24, 30) for i in range(n)]),
        "du": pa.array([dt.timedelta(seconds=i % 40) for i in range(n)]),
        "utf": pa.array([("é" * (i % 3)).encode() for i in range(n)], pa.binary()),
    }
    path = folder / "in.parquet"
    pq.write_table(pa.table(columns), path)
    return path


def duplicate_names_parquet(folder: Path) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    frame = survey_frame()
    columns = [pa.array(frame["age"]), pa.array(frame["income"]), pa.array(frame["age"])]
    path = folder / "in.parquet"
    pq.write_table(pa.table(columns, names=["age", "income", "age"]), path)
    return path


def encoded(encoding: str, name: str = "in.csv"):
    """The survey (with an accented region) written in ``encoding`` (a BOM where it has one)."""

    def make(folder: Path) -> Path:
        table = rows()
        for row in table[1::7]:
            row[2] = "Nördlich"
        path = folder / name
        path.write_bytes(csv_text(table).encode(encoding))
        return path

    make.__doc__ = f"The survey as {encoding} text."
    return make


def gzip_csv(folder: Path) -> Path:
    import gzip

    path = folder / "in.csv.gz"
    path.write_bytes(gzip.compress(csv_text(rows()).encode("utf-8"), mtime=0))
    return path


def xlsx_survey(folder: Path) -> Path:
    return write_book(folder / "in.xlsx", {"Data": rows()})


def sav_survey(folder: Path) -> Path:
    import pyreadstat

    path = folder / "in.sav"
    pyreadstat.write_sav(survey_frame(), str(path))
    return path


def nul_in_a_line(folder: Path) -> Path:
    """A CSV with a NUL byte in one value, beyond the first 64 KB that are sniffed."""
    table = rows(6_000)
    table[5_500][2] = "N\x00"
    return write_csv(folder, text=csv_text(table))


def released(folder: Path, name: str) -> Path:
    """The survey released by the command line as ``folder / name`` (its input removed)."""
    import contextlib
    import io

    from engine.cli import main

    source = write_csv(folder, name="data.csv")
    args = ["anonymize", str(source), "-o", str(folder / name), "-q", *RELEASE_ARGS]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(args) == 0
    source.unlink()
    return folder / name


def release_xlsx(folder: Path) -> Path:
    """A release of the survey as a workbook (``verify`` reads it)."""
    return released(folder, "rel.xlsx")


def project_at(
    change: Callable[[dict], object] | None = None,
    *,
    where: str = ".",
    make_input: Callable[[Path], Path] | None = None,
    encoding: str | None = None,
    victim: bool = False,
):
    """A project file ``p.json`` in the sub-folder ``where`` (t = 3, k = 5, seed 1) on the
    survey in that folder (made by ``make_input``, read with ``encoding``), its document
    edited by ``change``; with ``victim``, a ``victim.csv`` beside the sub-folder.  The
    case's input is the project file."""

    def make(folder: Path) -> Path:
        from engine.params import ReleaseParams
        from engine.project import new_project, project_to_dict

        home = folder / where
        home.mkdir(exist_ok=True)
        source = (make_input or plain)(home)
        params = ReleaseParams(qi=("age",), confidential=("income",), k=5, t=3.0, seed=1)
        doc = project_to_dict(new_project(source, params, encoding=encoding), base=home)
        if change is not None:
            change(doc)
        if victim:
            (folder / "victim.csv").write_text("keep me\n", encoding="utf-8")
        path = home / "p.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        return path

    return make


def _output(release: str | None = None, report: str | None = None) -> Callable[[dict], None]:
    return lambda doc: doc["output"].update(release=release, report=report)


def _release_beside_the_folder(doc: dict) -> None:
    """The release named by an absolute path, beside the project's folder."""
    doc["output"]["release"] = str(Path(doc["input"]["path"]).parent.parent / "victim.csv")


def _backend(value: object) -> Callable[[dict], None]:
    return lambda doc: doc.update(backend=value)


def _many_qi(doc: dict) -> None:
    """80,000 quasi-identifier names, none in the file."""
    doc["params"]["qi"] = [f"c{i}" for i in range(80_000)]


def media_blob_xlsx(folder: Path) -> Path:
    """A workbook whose table has a stray cell far below it (so a trimmed copy is made) and a
    2 GB picture of zeros in xl/media (2 MB on disk)."""
    book = write_book(folder / "book.xlsx", {"Data": rows()}, cells=[("Data", "A250300", "x")])
    members = build.members_of(book)
    book.unlink()
    filler = b"\0" * build.MIB
    blob = ("xl/media/image1.png", build.raw_deflate(b"", filler, 2048), 0, 2048 * build.MIB)
    return build.write_zip(folder / "in.xlsx", [*members, blob])


def _book_with(
    folder: Path, member: str, change: Callable[[bytes], tuple[bytes, int, int]]
) -> Path:
    """A workbook of ``rows()`` whose ``member`` is replaced by ``change`` of its unpacked
    bytes: (the raw deflate stream, its CRC, its unpacked size)."""
    import zlib

    book = write_book(folder / "book.xlsx", {"Data": rows()})
    members = build.members_of(book)
    book.unlink()
    out = []
    for name, data, crc, size in members:
        if name == member:
            data, crc, size = change(zlib.decompress(data, -15))
        out.append((name, data, crc, size))
    return build.write_zip(folder / "in.xlsx", out)


def padded_workbook_part(folder: Path) -> Path:
    """A workbook whose list of sheets (xl/workbook.xml) unpacks to 2 GB of spaces."""

    def pad(head: bytes) -> tuple[bytes, int, int]:
        filler = b" " * build.MIB
        return build.raw_deflate(head, filler, 2048), 0, len(head) + 2048 * build.MIB

    return _book_with(folder, "xl/workbook.xml", pad)


def padded_sheet(folder: Path) -> Path:
    """A workbook whose sheet holds 48 MB of spaces between two rows (text between tags,
    which a scan that carried it along copied over and over)."""

    def pad(xml: bytes) -> tuple[bytes, int, int]:
        cut = xml.index(b"</row>") + len(b"</row>")
        head, tail, filler = xml[:cut], xml[cut:], b" " * build.MIB
        data = build.raw_deflate(head, filler, 48, tail)
        return data, build.crc_of(head, filler, 48, tail), len(head) + 48 * build.MIB + len(tail)

    return _book_with(folder, "xl/worksheets/sheet1.xml", pad)


def wrapping_gzip(folder: Path) -> Path:
    """A gzip of 4 GiB and a little more, whose size trailer (modulo 4 GiB) claims under a
    megabyte: 4 MB on disk."""
    head = csv_text(rows(20)).encode("utf-8")
    filler = b"30,1000,N\n" * (build.MIB // 10)
    repeats = -(-((1 << 32) - len(head)) // len(filler)) + 1
    return build.write_gzip(folder / "in.csv.gz", head, filler, repeats)


def very_hidden_sheet(folder: Path) -> Path:
    """A visible data sheet and a larger, very hidden one (a lookup table, an old version)."""
    path = write_book(folder / "in.xlsx", {"Data": rows(), "Old": rows(600)})
    book = openpyxl.load_workbook(path)
    book["Old"].sheet_state = "veryHidden"
    book.save(path)
    return path


def vertical_merge_two_level(folder: Path) -> Path:
    """A two-line header whose first row also holds a name merged down over both rows:
    ``person_id`` over A1:A2, "Demographics" over B1:E1, "Weekly wage" over F1:G1."""
    table: list[list[object]] = [
        ["person_id", "Demographics", None, None, None, "Weekly wage", None],
        [None, "age", "sex", "region", "educ", 1987, 1988],
    ]
    for i, (age, income, region) in enumerate(rows()[1:]):
        table.append([1000 + i, age, "MF"[i % 2], region, i % 3, income, income + 10])
    merges = [("S", "A1:A2"), ("S", "B1:E1"), ("S", "F1:G1")]
    return write_book(folder / "in.xlsx", {"S": table}, merges=merges)


def with_identifiers(folder: Path) -> Path:
    """The survey with a record number and a name per person (identifiers, not QIs)."""
    table = rows()
    table[0] += ["person_no", "name"]
    for i, row in enumerate(table[1:]):
        row += [5001 + i, f"Person {i:03d}"]
    return write_csv(folder, text=csv_text(table))


def cluster_survey(folder: Path) -> Path:
    """4,000 records: a cluster run long enough to lose a worker or be interrupted in."""
    return write_csv(folder, text=csv_text(rows(4_000)))


def _cluster(line: str) -> Callable[[Path, Path], list[str]]:
    """``line`` on the shared local Dask cluster."""
    return command(f"{line} --cluster SCHEDULER")


# -- round two: the corpus --------------------------------------------------------------------

CLUSTER_RELEASE = f"anonymize INPUT -o @out.csv {' '.join(RELEASE_ARGS)}"
#: a cluster run's line: the release and the cluster's size
ON_DASK = r"^Released [\d,]+ records in [\d,]+ classes.* Computed on Dask"
DS = _in("ds")
REFUSED_IN_DS = r"refusing to write inside the input folder .*ds"
PARQUET_RELEASE = "--t 3 --k 5 --seed 1"
PROJECT_HOME = _in("proj", "victim.csv")
OUTSIDE = r"p\.json would write the {} to .*, outside the project's folder"
KEPT_TYPES = "st,li,mp,bi,tz,dec,day,tm,du,utf"
TWO_LEVEL_2 = "--qi 'Demographics age' --confidential 'Weekly wage 1988' --t 3 --k 5 --seed 1"
GZ = _in("in.csv.gz")

ROUND_TWO: list[Case] = tagged(
    "cluster",  # the cluster path: every output checked first, every format read
    [
        refused_to_overwrite(
            "cluster-summary-is-the-input", plain, _cluster(f"{CLUSTER_RELEASE} --summary INPUT")
        ),
        refused(
            "cluster-summary-is-the-release",
            plain,
            _cluster(f"{CLUSTER_RELEASE} --summary @out.csv"),
            r"out\.csv: the summary and the release would be the same file",
        ),
        refused(
            "cluster-summary-is-the-sidecar",
            plain,
            _cluster(f"{CLUSTER_RELEASE} --summary @out.json"),
            SUMMARY_IS_THE_SIDECAR,
        ),
        refused(
            "cluster-summary-folder-missing",
            plain,
            _cluster(f"{CLUSTER_RELEASE} --summary @nope/s.json"),
            r"s\.json: the folder .*nope does not exist",
        ),
        ok(
            "cluster-summary-with-the-release",
            plain,
            _cluster(f"{CLUSTER_RELEASE} --summary @s.json"),
            _in("in.csv", "out.csv", "out.json", "s.json"),
            ON_DASK,
        ),
        refused(
            "cluster-dataset-folder-inside-the-input",
            dataset,
            _cluster(
                f"anonymize INPUT -o @ds/rel {PARQUET_RELEASE} --qi age --confidential income"
            ),
            REFUSED_IN_DS,
            DS,
        ),
        refused(
            "cluster-parquet-inside-the-input",
            dataset,
            _cluster(
                f"anonymize INPUT -o @ds/rel.parquet {PARQUET_RELEASE} --qi age "
                "--confidential income"
            ),
            REFUSED_IN_DS,
            DS,
        ),
        refused(
            "cluster-summary-inside-the-input",
            dataset,
            _cluster(
                f"anonymize INPUT -o @rel.parquet --summary @ds/s.json {PARQUET_RELEASE} --qi age "
                "--confidential income"
            ),
            REFUSED_IN_DS,
            DS,
        ),
        ok("cluster-utf16", encoded("utf-16"), _cluster(CLUSTER_RELEASE), message=ON_DASK),
        ok("cluster-utf32", encoded("utf-32"), _cluster(CLUSTER_RELEASE), message=ON_DASK),
        ok("cluster-latin1", encoded("latin-1"), _cluster(CLUSTER_RELEASE), message=ON_DASK),
        ok(
            "cluster-gzip",
            gzip_csv,
            _cluster(CLUSTER_RELEASE),
            _in("in.csv.gz", "out.csv", "out.json"),
            ON_DASK,
        ),
        ok("cluster-xlsx", xlsx_survey, _cluster(CLUSTER_RELEASE), OK_XLSX, ON_DASK),
        ok(
            "cluster-sav",
            sav_survey,
            _cluster(CLUSTER_RELEASE),
            _in("in.sav", "out.csv", "out.json"),
            ON_DASK,
        ),
        refused(
            "cluster-nul-bytes",
            nul_in_a_line,
            _cluster(CLUSTER_RELEASE),
            r"in\.csv does not look like a text \(CSV\) file: it contains binary data",
        ),
        ok(
            "cluster-verify-xlsx",
            release_xlsx,
            _cluster(f"{VERIFY} --k 5 --t 3"),
            _in("rel.xlsx"),
            r"^\{",
        ),
        ok(
            "cluster-project-latin1",
            project_at(make_input=encoded("latin-1"), encoding="latin-1"),
            _cluster("run INPUT -o @o.csv"),
            _in("in.csv", "p.json", "o.csv", "o.json"),
            r"^Wrote .*o\.csv",
        ),
        refused(
            "cluster-not-a-scheduler",
            plain,
            command(f"{CLUSTER_RELEASE} --cluster NOT_A_SCHEDULER"),
            r"--cluster tcp://127\.0\.0\.1:\d+: the program that answers there is not a Dask "
            "scheduler",
        ),
        refused(
            "cluster-tls-address",
            plain,
            command(f"{CLUSTER_RELEASE} --cluster tls://10.0.0.5:8786"),
            r"tclose connects to a scheduler over tcp:// only",
        ),
        bad_project(
            "project-remote-backend-without-the-flag",
            project(_backend({"cluster": "tcp://127.0.0.1:9"})),
            r"p\.json asks to compute on the Dask scheduler at tcp://127\.0\.0\.1:9, which "
            r"would send the data to another computer\. Confirm it on the command line",
        ),
        bad_project(
            "project-backend-a-list",
            project(_backend(["local"])),
            r'Project file: backend must be \{"cluster": "local"\}',
        ),
        bad_project(
            "project-backend-bogus",
            project(_backend({"cluster": "spark://x"})),
            r"backend\.cluster: --cluster takes local, local:N or tcp://HOST:PORT",
        ),
        refused(
            "cluster-sweep-table-inside-the-input",
            dataset,
            _cluster("sweep INPUT -o @ds/s.csv --qi age --confidential income --t 2,3 --k 5 -q"),
            REFUSED_IN_DS,
            DS,
        ),
    ],
)
ROUND_TWO += tagged(
    "parquet",  # every Parquet column type a release can meet, and dataset folders
    [
        refused(
            "output-inside-the-input-dataset",
            dataset,
            command(
                f"anonymize INPUT -o @ds/rel.parquet --qi age --confidential income "
                f"{PARQUET_RELEASE}"
            ),
            REFUSED_IN_DS,
            DS,
        ),
        refused(
            "summary-inside-the-input-dataset",
            dataset,
            command(
                f"anonymize INPUT -o @rel.csv --summary @ds/s.json --qi age "
                f"--confidential income {PARQUET_RELEASE}"
            ),
            REFUSED_IN_DS,
            DS,
        ),
        refused(
            "output-is-the-input-dataset",
            dataset,
            command(f"anonymize INPUT -o @ds --qi age --confidential income {PARQUET_RELEASE}"),
            r"ds: unknown output type",
            DS,
        ),
        ok(
            "dataset-released-beside-itself",
            dataset,
            command(
                f"anonymize INPUT -o @rel.parquet --qi age --confidential income {PARQUET_RELEASE}"
            ),
            _in("ds", "rel.parquet", "rel.json"),
            r"^Released 120 records",
        ),
        *(
            ok(
                f"parquet-{kind}-as-qi",
                parquet_types,
                command(
                    f"anonymize INPUT -o @out.csv --qi age,{kind} --confidential income "
                    f"{PARQUET_RELEASE}"
                ),
                _in("in.parquet", "out.csv", "out.json"),
            )
            for kind in ("st", "li", "mp", "bi", "tz", "dec", "day", "tm", "du")
        ),
        *(
            ok(
                f"parquet-{kind}-as-confidential",
                parquet_types,
                command(
                    f"anonymize INPUT -o @out.csv --qi age --confidential {kind} {PARQUET_RELEASE}"
                ),
                _in("in.parquet", "out.csv", "out.json"),
            )
            for kind in ("st", "bi", "tz")
        ),
        ok(
            "parquet-every-type-kept",
            parquet_types,
            command(
                f"anonymize INPUT -o @out.xlsx --qi age --confidential income "
                f"--keep {KEPT_TYPES} {PARQUET_RELEASE}"
            ),
            _in("in.parquet", "out.xlsx"),
        ),
        refused(
            "parquet-duplicate-names",
            duplicate_names_parquet,
            command(
                f"anonymize INPUT -o @out.csv --qi age --confidential income {PARQUET_RELEASE}"
            ),
            r"in\.parquet: several columns have the same name: 'age' \(2 times\)",
            _in("in.parquet"),
        ),
    ],
)
ID_LIKE = r"Column '{}' looks like an identifier"
ROUND_TWO += tagged(
    "id-like-qi",  # an identifier in disguise as a quasi-identifier (the privacy issue)
    [
        refused(
            "id-like-qi-record-number",
            with_identifiers,
            command(
                "anonymize INPUT -o @out.csv --qi age,person_no --confidential income --t 3 --k 5"
            ),
            ID_LIKE.format("person_no"),
        ),
        refused(
            "id-like-qi-names",
            with_identifiers,
            command("anonymize INPUT -o @out.csv --qi name --confidential income --t 3 --k 5"),
            ID_LIKE.format("name"),
        ),
        refused(
            "id-like-qi-on-the-cluster",
            with_identifiers,
            _cluster(
                "anonymize INPUT -o @out.csv --qi age,person_no --confidential income --t 3 --k 5"
            ),
            ID_LIKE.format("person_no"),
        ),
        refused(
            "id-like-qi-in-a-sweep",
            with_identifiers,
            command("sweep INPUT -o @s.csv --qi person_no --confidential income --t 2,3 --k 5 -q"),
            ID_LIKE.format("person_no"),
        ),
        ok(
            "id-like-column-as-identifier",
            with_identifiers,
            command(
                "anonymize INPUT -o @out.csv --qi age --confidential income "
                "--identifier person_no,name --t 3 --k 5"
            ),
        ),
    ],
)
ROUND_TWO += tagged(
    "project-paths",  # a project writes in its own folder unless the user names the place
    [
        refused(
            "project-release-outside-its-folder",
            project_at(_output(release="../victim.csv"), where="proj", victim=True),
            command("run INPUT"),
            OUTSIDE.format("release"),
            PROJECT_HOME,
        ),
        refused(
            "project-report-outside-its-folder",
            project_at(_output("o.csv", report="../r.html"), where="proj", victim=True),
            command("run INPUT"),
            OUTSIDE.format("report"),
            PROJECT_HOME,
        ),
        refused(
            "project-release-absolute-elsewhere",
            project_at(_release_beside_the_folder, where="proj", victim=True),
            command("run INPUT"),
            OUTSIDE.format("release"),
            PROJECT_HOME,
        ),
        ok(
            "project-release-outside-confirmed",
            project_at(_output(release="../victim.csv"), where="proj", victim=True),
            command("run INPUT -o @victim.csv"),
            _in("proj", "victim.csv", "victim.json"),
            r"^Wrote .*victim\.csv",
        ),
        ok(
            "project-release-in-its-folder",
            project_at(_output(release="out.csv"), where="proj"),
            command("run INPUT"),
            _in("proj"),
            r"^Wrote .*out\.csv",
        ),
        bad_project(
            "project-80000-qi-names",
            project(_many_qi),
            r"No column named 'c0', 'c1', .* and 79,992 more in the input",
        ),
    ],
)
ROUND_TWO += tagged(
    "archives",  # small files that unpack to gigabytes, read within memory and in linear time
    [
        ok("xlsx-2gb-picture-and-a-stray-cell", media_blob_xlsx, anonymize(), OK_XLSX),
        refused(
            "xlsx-2gb-list-of-sheets",
            padded_workbook_part,
            anonymize(),
            r"in\.xlsx is damaged .*its part xl/workbook\.xml unpacks to 2,147,48\d,\d{3} bytes",
            IN_XLSX,
        ),
        ok("xlsx-48mb-of-spaces-in-a-sheet", padded_sheet, anonymize(), OK_XLSX),
        refused(
            "gzip-size-wraps-past-4gib",
            wrapping_gzip,
            anonymize(),
            r"in\.csv\.gz is too large for the memory of this computer: reading it needs more "
            r"than",
            GZ,
            fault="memory:512",
        ),
    ],
)
ROUND_TWO += tagged(
    "workbooks",  # awkward workbooks and encodings
    [
        ok(
            "very-hidden-sheet-passed-over",
            very_hidden_sheet,
            anonymize(),
            OK_XLSX,
            r"^Released 120 records",
        ),
        ok("utf32-with-bom", encoded("utf-32"), anonymize(), message=r"^Released 120 records"),
        ok(
            "utf32-be-without-bom",
            encoded("utf-32-be"),
            anonymize(),
            message=r"^Released 120 records",
        ),
        ok(
            "two-level-header-with-vertical-merge",
            vertical_merge_two_level,
            anonymize(release=shlex.split(TWO_LEVEL_2)),
            OK_XLSX,
            r"^Released 120 records",
        ),
    ],
)
if sys.platform.startswith("linux"):  # a folder that exists and refuses every new file
    ROUND_TWO += tagged(
        "workbooks",
        [
            refused(
                "export-to-proc",
                plain,
                anonymize("/proc/out.csv"),
                r"cannot write in the folder /proc \(the system does not allow new files in "
                r"this folder\)",
            )
        ],
    )
#: runs in a process of their own: the cluster's worker processes and resource tracker are
#: its children, and what they print must not reach the user
ROUND_TWO += tagged(
    "cluster-process",
    [
        ok(
            "cluster-worker-killed",
            cluster_survey,
            command(f"{CLUSTER_RELEASE} --cluster local:1"),
            message=ON_DASK,
            run="process",
            fault="kill-worker",
        ),
        refused(
            "cluster-interrupted",
            cluster_survey,
            command(f"{CLUSTER_RELEASE} --cluster local:1"),
            r"^tclose: interrupted; nothing was written\.$",
            code=130,
            run="process",
            fault="group-signal:INT",
        ),
    ],
)
CASES += ROUND_TWO


# -- round three: no silent change of meaning -----------------------------------------------


def comma_names(folder: Path) -> Path:
    """The survey with a column named ``Region, coded`` and one named ``say "no"``."""
    table = rows()
    table[0] = ["age", "income", "Region, coded"]
    for i, row in enumerate(table[1:]):
        row.append(f'say "{"ny"[i % 2]}"')
    table[0].append('say "no"')
    text = "".join(
        ",".join('"' + str(v).replace('"', '""') + '"' for v in row) + "\n" for row in table
    )
    return write_csv(folder, text=text)


def project_text(edit: Callable[[str], str]):
    """A project file for ``plain`` whose JSON text is edited by ``edit`` (a key given twice
    cannot be said with a dict)."""

    def make(folder: Path) -> Path:
        path = project()(folder)
        path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
        return path

    return make


def _k_twice(text: str) -> str:
    """``"k": 5, …`` becomes ``"k": 5, "k": 1, …``: json keeps the last one silently."""
    return text.replace('"k": 5,', '"k": 5, "k": 1,', 1)


def device_named_csv(folder: Path) -> Path:
    """``in.csv`` is a link to the null device (reading it gives 0 bytes, for ever)."""
    path = folder / "in.csv"
    path.symlink_to(os.devnull)
    return path


def long_header(folder: Path) -> Path:
    """The survey with a third column whose name is 5 MB long."""
    table = rows()
    table[0][2] = "x" * 5_000_000
    return write_csv(folder, text=csv_text(table))


#: temporary files a killed run left (two days old), one a live run is writing, and files
#: that only look alike: (name, is a folder, days old)
LEFTOVERS = [
    (".~tcabc123", False, 2),
    (".~tcdir001", True, 2),
    (".~tcyoung1", False, 0),
    (".~tcABC123", False, 2),
    (".~tcabc1234", False, 2),
    (".~tc-notes", False, 2),
]


def with_leftovers(folder: Path) -> Path:
    """The survey, and in its folder what a run killed two days ago left (``kill -9``)."""
    import time

    for name, is_folder, days in LEFTOVERS:
        path = folder / name
        if is_folder:
            path.mkdir()
            (path / "part-0.parquet").write_bytes(b"PAR1")
        else:
            path.write_bytes(b"half a release")
        then = time.time() - days * 86_400 - 60
        os.utime(path, (then, then))
    return write_csv(folder)


def id_survey(folder: Path) -> Path:
    """400 records: the survey with identifiers in disguise (a record number ``pid``, an
    ``email``, a running number named ``note``, a record number ``serial`` with a quarter of
    its records given another's number), weights (good; one 0; one text; one 1e308) and
    households of two whose ``dwelling`` code is each household's own."""
    table = rows(400)
    table[0] += ["pid", "email", "note", "serial", "w", "w0", "wt", "wbig", "hid", "dwelling"]
    for i, row in enumerate(table[1:]):
        weight = 1.5 + (i % 7) / 4
        serial = 5_000 + (i - 1 if i % 4 == 0 and i else i)  # 25 % repeat the last one
        row += [7_000 + i, f"p{i}@example.org", 3 + i, serial, weight]
        row += [0 if i == 333 else weight, "heavy" if i == 250 else weight]
        row += ["1e308" if i == 120 else weight, i // 2, f"D{i // 2:04d}"]
    return write_csv(folder, text=csv_text(table))


def project_with(**changes: object):
    """A project for ``id_survey`` with ``changes`` to its parameters."""

    def make(folder: Path) -> Path:
        from engine.params import ReleaseParams
        from engine.project import new_project, project_to_dict

        source = id_survey(folder)
        params = ReleaseParams(qi=("age",), confidential=("income",), k=5, t=3.0, seed=1)
        doc = project_to_dict(new_project(source, params), base=folder)
        doc["params"].update(changes)
        path = folder / "p.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        return path

    return make


#: a release of ``id_survey`` with ``flags``
def on_ids(flags: str, cluster: bool = False) -> Callable[[Path, Path], list[str]]:
    line = f"anonymize INPUT -o @out.csv --qi age --confidential income --t 3 --k 5 {flags}"
    return _cluster(line) if cluster else command(line)


def refused_on_both(name: str, flags: str, message: str) -> list[Case]:
    """``name`` refused on this computer and, as ``cluster-`` + ``name``, on a cluster, with
    the same words."""
    return [
        refused(name, id_survey, on_ids(flags), message),
        refused("cluster-" + name, id_survey, on_ids(flags, cluster=True), message),
    ]


ID_IN = _in("in.csv")
KEPT_ID = r"Column '{}' looks like an identifier: 400 of its 400 values are different .*kept"
WEIGHT_0 = r"Weight column 'w0': record 334 holds 0; every weight must be a number > 0 \(1 rec"
WEIGHT_TEXT = r"Weight column 'wt': record 251 holds 'heavy'; every weight must be a number > 0"
DATE_ON_NUMBERS = r"Column 'income' is declared a date, but it holds numbers \(1000 is not a date\)"
NO_NOPE = r"No column named 'nope' in the input \(it has: age, income, region, pid"

ROUND_THREE: list[Case] = tagged(
    "identifiers",  # an identifier in disguise, whatever its role
    [
        refused("keep-a-record-number", id_survey, on_ids("--keep pid"), KEPT_ID.format("pid")),
        refused("keep-an-email", id_survey, on_ids("--keep email"), KEPT_ID.format("email")),
        refused(
            "keep-a-running-number-named-note",
            id_survey,
            on_ids("--keep note"),
            KEPT_ID.format("note"),
        ),
        refused(
            "cluster-keep-a-record-number",
            id_survey,
            on_ids("--keep pid", cluster=True),
            KEPT_ID.format("pid"),
        ),
        refused(
            "qi-record-number-with-25-percent-repeats",
            id_survey,
            command(
                "anonymize INPUT -o @out.csv --qi age,serial --confidential income --t 3 --k 5"
            ),
            r"Column 'serial' looks like an identifier, not a quasi-identifier: 3\d\d of its "
            r"400 values are different \(\d\d %\), whole numbers that run like a record number",
        ),
        refused(
            "household-level-code-of-its-own",
            id_survey,
            command(
                "anonymize INPUT -o @out.csv --qi age,dwelling --confidential income --t 3 --k 5 "
                "--household hid"
            ),
            r"Column 'dwelling' looks like a household identifier: 200 of its 200 households",
        ),
        refused(
            "sweep-keep-a-record-number",
            id_survey,
            command(
                "sweep INPUT -o @s.csv --qi age --confidential income --t 2,3 --k 5 --keep pid -q"
            ),
            KEPT_ID.format("pid"),
        ),
        ok(
            "keep-an-allowed-identifier",
            id_survey,
            on_ids("--keep pid --allow-identifier pid --seed 1"),
        ),
        bad_project(
            "project-keep-an-email",
            project_with(keep=["email"]),
            r"^tclose: Column 'email' looks like an identifier",
        ),
        refused(
            "allow-identifier-of-an-unreleased-column",
            id_survey,
            on_ids("--allow-identifier pid"),
            r"allow_identifier names released columns \(quasi-identifiers or kept ones\); "
            r"'pid' is not one",
        ),
    ],
)
ROUND_THREE += tagged(
    "cluster-checks",  # the cluster refuses what one machine refuses, in the same words
    [
        *refused_on_both("weight-0", "--weight w0", WEIGHT_0),
        *refused_on_both("weight-text", "--weight wt", WEIGHT_TEXT),
        refused(
            "weight-1e308",
            id_survey,
            on_ids("--weight wbig"),
            r"record 121 holds 1e\+308; every weight must be a number > 0 and at most "
            r"1 × 10¹⁵⁰ \(1 record",
        ),
        *refused_on_both("date-type-on-numbers", "--type income=date", DATE_ON_NUMBERS),
        *refused_on_both("type-for-a-missing-column", "--type nope=numeric", NO_NOPE),
        bad_project(
            "project-order-for-a-missing-column",
            project_with(orders={"nope": ["a", "b"]}),
            r"^tclose: No column named 'nope' in the input",
        ),
        bad_project(
            "project-codes-for-a-missing-column",
            project_with(column_missing={"nope": ["-9"]}),
            r"No column named 'nope' in the input",
        ),
        bad_project(
            "project-type-for-a-missing-column",
            project_with(types={"nope": "numeric"}),
            r"No column named 'nope' in the input",
        ),
    ],
)
ROUND_THREE += tagged(
    "meaning",  # what the user said is what is released, or exit 2 with one line
    [
        bad_project(
            "project-key-given-twice",
            project_text(_k_twice),
            r"p\.json: the key 'k' is given twice \(5, then 1\); a project file gives each "
            "key once",
        ),
        bad_project(
            "project-no-qi",
            project(_params(qi=[])),
            r"p\.json: Project file: qi names no column; a release needs one or more "
            "quasi-identifiers",
        ),
        refused(
            "no-qi-on-the-command-line",
            plain,
            command("anonymize INPUT -o @out.csv --confidential income --t 3 --k 5"),
            r"the following arguments are required: --qi",
        ),
        ok(
            "comma-in-a-column-name",
            comma_names,
            command(
                "anonymize INPUT -o @out.csv --qi 'age,\"Region, coded\"' "
                '--keep \'"say ""no"""\' --confidential income --t 3 --k 5 --seed 1'
            ),
        ),
        refused(
            "unclosed-quote-in-a-column-list",
            comma_names,
            command(
                "anonymize INPUT -o @out.csv --qi 'age,\"Region, coded' --confidential income "
                "--t 3 --k 5"
            ),
            r"argument --qi: cannot read 'age,\"Region, coded' as a list: put a name that "
            "holds a comma",
        ),
        ok("k-written-1e1", plain, release("--t 3 --k 1e1 --seed 1"), message=r"k = \d\d"),
        refused(
            "k-2.5-as-typed",
            plain,
            release("--t 3 --k 2.5e0"),
            r"k must be a whole number ≥ 1, not 2\.5e0\.$",
        ),
        refused(
            "epsilon-as-typed",
            plain,
            release("--epsilon 1e6 --k 5"),
            r"epsilon must be a number > 0 and ≤ 700, not 1e6\.$",
        ),
        refused(
            "a-5mb-column-name-quoted-short",
            long_header,
            command("anonymize INPUT -o @out.csv --qi agex --confidential income --t 3 --k 5"),
            r"^(?=.{0,400}$)tclose: No column named 'agex' in the input .*x…",
        ),
        ok(
            "stale-temporary-files-removed",
            with_leftovers,
            anonymize(),
            OK_CSV | {".~tcyoung1", ".~tcABC123", ".~tcabc1234", ".~tc-notes"},
        ),
        refused(
            "cluster-local-1000-workers",
            plain,
            command(f"{CLUSTER_RELEASE} --cluster local:1000"),
            r"--cluster local:1000: this computer has \d+ core\(s\), and a local cluster takes "
            r"at most \d+ workers",
        ),
        ok(
            "save-project-with-the-release",
            plain,
            release("--t 3 --k 5 --seed 1 --save-project @p.json"),
            _in("in.csv", "out.csv", "out.json", "p.json"),
        ),
        ok(
            "cluster-save-project-with-the-release",
            plain,
            _cluster(f"{CLUSTER_RELEASE} --save-project @p.json"),
            _in("in.csv", "out.csv", "out.json", "p.json"),
            ON_DASK,
        ),
        refused(
            "save-project-not-json",
            plain,
            release("--t 3 --k 5 --save-project @p.txt"),
            r"p\.txt: a project file is a JSON file; name it …\.json",
        ),
        refused(
            "save-project-over-the-input",
            plain,
            release("--t 3 --k 5 --save-project INPUT"),
            r"in\.csv: a project file is a JSON file",
        ),
        refused(
            "save-project-over-a-foreign-json",
            with_foreign_json_beside,
            release("--t 3 --k 5 --save-project @out.json", out="rel.csv"),
            r"out\.json: the project file would replace a JSON file tclose did not write",
            _in("in.csv", "out.json"),
        ),
        refused(
            "save-project-of-a-dataset-folder",
            dataset,
            command(
                f"anonymize INPUT -o @rel.csv --qi age --confidential income {PARQUET_RELEASE} "
                "--save-project @p.json"
            ),
            r"--save-project: a project records one input file and its checksum",
            DS,
        ),
        refused(
            "plan-save-project-infeasible",
            plain,
            command(
                "plan INPUT --qi age --confidential income --t 3 --k 500 --save-project @p.json"
            ),
            r"^tclose: infeasible: k = 500 needs at least 500 records",
            code=3,
        ),
        refused(
            "type-given-twice",
            plain,
            release("--t 3 --k 5 --type age=numeric --type age=category"),
            r"--type given twice for 'age'",
        ),
    ],
)
if sys.platform != "win32":  # a link to the null device (Windows links need privileges)
    ROUND_THREE += tagged(
        "meaning",
        [
            refused(
                "input-is-a-device",
                device_named_csv,
                anonymize(),
                r"in\.csv is a device, not a file of data",
            )
        ],
    )
CASES += ROUND_THREE

if __name__ == "__main__":
    for case in CASES:
        print(f"{case.name:40} exit {case.exit_code}  {case.run:7} {case.fault}")
    print("Run tests/attacks.py to run them all and print the table of results.")
