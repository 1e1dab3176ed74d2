"""Fuzzing the command line: any argument vector gives a clean exit, never a crash.

The vectors are built from the real parsers: a valid command (so that most examples reach
the engine) with options of that command added or repeated, their values drawn from what
breaks programs (numeric extremes, empty texts, unknown columns, the input file as an output,
lists, junk), plus stray tokens.  The promises checked for every vector:

* the exit code is 0, 2 or 3 (4 only from ``verify``): never 1, an internal error;
* no traceback on stderr, and a failure says so in exactly one line starting "tclose: "
  (besides the progress lines a sweep prints and a run's warning);
* the input files' SHA-256 checksums are unchanged, and a failed run leaves no file behind.

Derandomized under the ``ci`` profile (see conftest) and run in-process, so the file runs in
seconds and a red run is reproducible.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import io
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cli import build_parser, main
from tests.hostile import csv_text, rows

#: the sub-commands and their parsers, as ``tclose`` builds them
PARSERS: dict[str, argparse.ArgumentParser] = next(
    a.choices for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)
)

NUMBERS = [
    *("0", "1", "2", "3", "5", "7", "-1", "2.5", "1.5", "0.5", "1e-9", "1e-300", "5e-324"),
    *("1e200", "1e308", "-1e308", "1e400", "nan", "inf", "-inf", "700", "699.999", "700.01"),
    *("9223372036854775807", "9223372036854775808", "18446744073709551615"),
    *("18446744073709551616", "9" * 400, "1_000", "0x10", "٣", "2,3", "2,3,5", "1,,2"),
    *("abc", "", " ", "-", "--", "1e6", "120", "121", "150"),
    *("1e3", "1000.0", "5.0", "2.5e0", "1e19", "1e1"),  # whole numbers in other notations
]
COLUMNS = [
    *("age", "income", "region", "serial", "age,income", "age,region", "income,region"),
    *("age,age", "AGE", " age ", "nope", "", ",", "age,nope", "région"),
    # CSV-style names, identifiers in disguise, a megabyte of name
    *('age,"Region, coded"', '"Region, coded"', 'age,"inc', '"a""b"', '"age"', "serial"),
    *("pid", "email", "note", "age,serial", "x" * 100_000),
]
FILES = [
    *("out.csv", "out.xlsx", "out.json", "s.json", "r.html", "plot.png", "out.tsv", "out.txt"),
    *("in.csv", "p.json", "rel.csv", "rel.json", "folder", "folder/x.csv", "gone/x.csv"),
    *("o u t é.csv", "out.CSV", ".csv", "out.html", "x" * 300 + ".csv", "out", "out.parquet"),
]
#: --cluster values that must be refused (a valid one would start a Dask cluster)
CLUSTERS = ["", " ", "bogus", "local:0", "local:-1", "local:x", "tcp:/x", "udp://h:1"]
CLUSTERS += ["local:100000", "local:" + "9" * 30]
BOUNDS = [
    *("income=0:5000", "income=0:4000", "income=-1e308:1e308", "income=0:1e150"),
    *("income=0:1e151", "income=5:5", "income=9000:10000", "income=nan:1", "income=0:inf"),
    *("private", "private=0.1", "private=10%", "private=0", "private=2", "private=1e-12"),
    *("age=0:100", "nope=0:1", "income", "=0:1", "income=0:", "region=0:1"),
]
TYPES = [
    *("age=numeric", "age=ordinal", "age=nominal", "age=date", "income=date", "region=numeric"),
    *("income=ordinal", "age=bogus", "=numeric", "age", "nope=numeric"),
    *("region=date", "serial=date", "Region, coded=nominal", "a=b=numeric"),
]
READING = [",", ";", "\t", "|", "", "ab", ".", "utf-8", "cp1252", "utf-16", "bogus", "Sheet1"]
JUNK = ["--bogus", "-x", "extra", "--", "-", "--t=", "--k=2", "--qi=age", "-q", "--help"]

#: the values each option (by its dest) is tried with, besides a few from every pool
POOLS: dict[str, list[str]] = {
    "output": FILES,
    "summary": FILES,
    "report": FILES,
    "plot": FILES,
    "input": FILES,
    "qi": COLUMNS,
    "confidential": COLUMNS,
    "identifier": COLUMNS,
    "keep": COLUMNS,
    "types": TYPES,
    "bounds": BOUNDS,
    "missing": ["-9", "", "N/A,-9", "inf,-inf", "age", ","],
    "sep": READING,
    "sheet": READING,
    "encoding": READING,
    "decimal": READING,
    "cluster": CLUSTERS,
    "save_project": FILES,
    "allow_identifier": COLUMNS,
    "weight": ["w", "wt", "w0", "income", "region", "serial", "nope", ""],
    "household": ["hh", "serial", "region", "nope", ""],
}
PATHS = {"output", "summary", "report", "plot", "input", "save_project"}

#: a valid command line per command (FOLDER is the example's folder)
BASES: dict[str, list[str]] = {
    "anonymize": [
        *("anonymize", "FOLDER/in.csv", "-o", "FOLDER/out.csv", "--qi", "age"),
        *("--confidential", "income", "--t", "3", "--k", "5", "--seed", "1"),
    ],
    "plan": [
        *("plan", "FOLDER/in.csv", "--qi", "age", "--confidential", "income"),
        *("--t", "3", "--k", "5"),
    ],
    "verify": ["verify", "FOLDER/rel.csv", "--qi", "age", "--confidential", "income"],
    "convert": ["convert", "--t", "2", "--k", "5", "--n", "100"],
    "sweep": [
        *("sweep", "FOLDER/in.csv", "-o", "FOLDER/sweep.csv", "--qi", "age"),
        *("--confidential", "income", "--t", "2,3", "--k", "5"),
    ],
    "run": ["run", "FOLDER/p.json", "-o", "FOLDER/out.csv"],
}


def survey() -> str:
    """150 records with a blank income, a serial number, identifiers in disguise (an e-mail,
    a running number named "note"), weights (one 0, one text), households."""
    table = rows(150)
    table[0] += ["serial", "pid", "email", "note", "w", "w0", "wt", "hh"]
    for i, row in enumerate(table[1:]):
        weight = 1.5 + (i % 7) / 4
        row += [1000 + i, 7000 + i, f"p{i}@example.org", 3 + i, weight]
        row += [0 if i == 8 else weight, "heavy" if i == 5 else weight, i // 3]
    table[9][1] = ""
    return csv_text(table)


@functools.cache
def release_files() -> dict[str, bytes]:
    """A release of the survey and its sidecar (made once: ``verify`` reads them)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "in.csv").write_text(survey(), encoding="utf-8")
        args = ["anonymize", str(folder / "in.csv"), "-o", str(folder / "rel.csv"), "-q"]
        args += ["--qi", "age", "--confidential", "income", "--t", "3", "--k", "5", "--seed", "1"]
        code, _, err = run_cli(args)
        assert code == 0, err
        return {name: (folder / name).read_bytes() for name in ("rel.csv", "rel.json")}


def make_folder(folder: Path) -> None:
    """The input, a project file for it, a release with its sidecar and a sub-folder."""
    from engine.params import ReleaseParams
    from engine.project import new_project, save_project

    (folder / "in.csv").write_text(survey(), encoding="utf-8")
    (folder / "folder").mkdir()
    params = ReleaseParams(qi=("age",), confidential=("income",), k=5, t=3.0, seed=1)
    save_project(new_project(folder / "in.csv", params), folder / "p.json")
    for name, data in release_files().items():
        (folder / name).write_bytes(data)


@st.composite
def option(draw, command: str) -> list[str]:
    """One option of ``command``'s parser with a value from its pool (or any pool)."""
    actions = [a for a in PARSERS[command]._actions if a.option_strings]
    action = draw(st.sampled_from(actions))
    flag = draw(st.sampled_from(action.option_strings))
    if action.nargs == 0:
        return [flag]
    choices = [*action.choices, "", "bogus"] if action.choices else None
    pool = choices or POOLS.get(action.dest, NUMBERS)
    # mostly a value meant for this option, so that most vectors get past the parser
    anything = draw(st.integers(0, 4)) == 0 and action.dest != "cluster"
    value = draw(st.sampled_from(NUMBERS + COLUMNS if anything else pool))
    if action.dest in PATHS and value:
        value = "FOLDER/" + value
    return [f"{flag}={value}"] if draw(st.booleans()) and value else [flag, value]


@st.composite
def argv(draw) -> list[str]:
    """A command's valid base with options added, some tokens dropped and junk mixed in."""
    command = draw(st.sampled_from(sorted(BASES)))
    out = list(BASES[command])
    if draw(st.integers(0, 19)) == 0:  # now and then, a bare command
        out = [command]
    for extra in draw(st.lists(option(command), max_size=4)):
        out.extend(extra)
    if draw(st.integers(0, 9)) == 0:
        out.insert(draw(st.integers(1, len(out))), draw(st.sampled_from(JUNK)))
    if draw(st.integers(0, 9)) == 0 and len(out) > 2:
        del out[draw(st.integers(1, len(out) - 1))]
    return out


def digests(folder: Path) -> dict[str, str]:
    """SHA-256 of the files no command may change (a release may be replaced by a new one)."""
    return {
        name: hashlib.sha256((folder / name).read_bytes()).hexdigest()
        for name in ("in.csv", "p.json")
    }


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file's bytes (None for folders) by path, temporary files included."""
    return {
        str(p.relative_to(folder)): p.read_bytes() if p.is_file() else None
        for p in folder.rglob("*")
    }


def run_cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(args)
        except SystemExit as stop:  # argparse: a bad flag, --help
            code = stop.code if isinstance(stop.code, int) else 2
    return code, out.getvalue(), err.getvalue()


#: stderr lines that are not the failure's message: a sweep's progress, a run's warning (in
#: any language: French puts a no-break space before a colon)
PROGRESS = re.compile(r"tclose (sweep\s?: |run\s?: \w+\s?: )")
#: the failure's message: the program's name first, as the reader's language writes it
MESSAGE = re.compile(r"tclose\s?: ")


def check_outcome(command: str, code: int, err: str) -> None:
    """The promises of the module doc for one finished command."""
    assert code in (0, 2, 3) or (code == 4 and command == "verify"), err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    if code:
        lines = [line for line in err.strip().splitlines() if not PROGRESS.match(line)]
        assert len(lines) == 1 and MESSAGE.match(lines[0]), err
        assert "internal error" not in lines[0], err


@settings(max_examples=150)
@given(args=argv())
def test_any_argument_vector_exits_cleanly(args):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        make_folder(folder)
        before, files = digests(folder), snapshot(folder)
        resolved = [a.replace("FOLDER", str(folder)) for a in args]
        code, _, err = run_cli(resolved)
        check_outcome(args[0], code, err)
        assert digests(folder) == before
        if code:
            assert snapshot(folder) == files, "a failed run changed or left files"


#: vectors the fuzzing found once (each was an internal error, exit 1)
REGRESSIONS = [
    ["convert", "--t", "2", "--k", "5", "--n", "100", "--t=--"],  # argparse's empty list
    [*BASES["verify"], "--k=--"],
    [*BASES["sweep"], "--seed=--"],
    [*BASES["anonymize"], "--bounds=--"],
    [*BASES["verify"], "--qi", "age,age"],  # a column named twice
    [*BASES["verify"], "--confidential", "age"],
    [
        *("anonymize", "FOLDER/in.csv", "-o", "FOLDER/out.csv", "--qi", "age", "--k", "5"),
        *("--confidential", "income", "--mechanism", "laplace", "--epsilon", "1e-6"),
        *("--bounds", "private", "--seed", "1"),  # private bounds narrower than one unit
    ],
]


@pytest.mark.parametrize("args", REGRESSIONS, ids=lambda a: " ".join(a[:1] + a[-2:]))
def test_vectors_found_by_fuzzing(args, tmp_path):
    make_folder(tmp_path)
    code, _, err = run_cli([a.replace("FOLDER", str(tmp_path)) for a in args])
    check_outcome(args[0], code, err)
