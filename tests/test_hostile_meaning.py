"""No silent change of meaning: what the user said is what is released, or one line and exit 2.

The cases of ``tests/hostile.py`` tagged ``meaning`` run every command end to end; these
tests pin the parts a case cannot show from its one line: which names a list flag reads,
which leftovers the next run removes (and which it leaves), how an output that differs from
the input only in case is judged, and that no message quotes a megabyte.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from engine.cli import main, one_line
from engine.cli.flags import codes, columns, csv_list
from engine.errors import InputError, listing, quoted
from engine.io.files import check_readable
from engine.io.outputs import STALE_AGE, remove_stale
from engine.params import ReleaseParams
from tests.hostile import csv_text, rows, write_csv

# -- names and numbers as typed ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("age,sex", ("age", "sex")),
        (" age , sex ", ("age", "sex")),
        ('age,"Region, coded"', ("age", "Region, coded")),
        ('"say ""no""",x', ('say "no"', "x")),
        ('Weekly "wage",x', ('Weekly "wage"', "x")),
        ("a,,b", ("a", "b")),
    ],
)
def test_a_column_list_is_read_as_a_csv_line(text, names) -> None:
    assert columns(text) == names
    assert columns(csv_list(names)) == names  # and said back the same way


def test_missing_codes_keep_an_empty_code_and_read_quotes() -> None:
    assert codes("") == ("",)
    assert codes('N/A,"-9, refused"') == ("N/A", "-9, refused")


@pytest.mark.parametrize(
    ("field", "text", "value"),
    [("k", "1e3", 1000), ("k", "1000.0", 1000), ("seed", "1e19", 10**19), ("k", " 7 ", 7)],
)
def test_a_whole_number_may_be_written_in_any_notation(field, text, value) -> None:
    parsed = ReleaseParams.parse(field, text)
    assert parsed == value and isinstance(parsed, int)


@pytest.mark.parametrize(
    ("field", "text", "message"),
    [
        ("k", "2.5e0", "k must be a whole number ≥ 1, not 2.5e0."),
        ("k", "1e400", "k must be a whole number ≥ 1, not 1e400."),
        ("epsilon", "1e6", "epsilon must be a number > 0 and ≤ 700, not 1e6."),
        ("k", "many", "k must be a whole number ≥ 1, not 'many'."),
    ],
)
def test_a_refused_number_is_quoted_as_typed(field, text, message) -> None:
    with pytest.raises(InputError) as err:
        ReleaseParams.parse(field, text)
    assert err.value.message == message


def test_a_whole_number_in_a_project_may_be_written_5_0() -> None:
    assert ReleaseParams.from_dict({"qi": ["a"], "k": 5.0}).k == 5


# -- names in messages ------------------------------------------------------------------------


def test_a_long_name_is_cut_in_every_listing() -> None:
    name = "x" * 5_000_000
    assert len(quoted(name)) == 43 and quoted(name).endswith("…'")
    assert quoted("age") == "'age'"
    assert len(listing([name] * 20)) < 8 * 45 + 40


def test_the_command_line_cuts_any_overlong_word_and_message() -> None:
    said = one_line("No column named 'a' (it has: " + "y" * 70_000 + ")\nsecond line")
    assert "\n" not in said and len(said) < 200 and "y…" in said and "second line" in said
    assert len(one_line("word " * 10_000)) <= 1000


# -- files that are not files -----------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_pipe_is_refused_before_it_is_opened(tmp_path) -> None:
    pipe = tmp_path / "in.csv"
    os.mkfifo(pipe)  # opening it would wait for a writer for ever
    with pytest.raises(InputError, match=r"in\.csv is a pipe, not a file of data"):
        check_readable(pipe)


# -- leftovers of a killed run ----------------------------------------------------------------


def _aged(path: Path, seconds: float) -> Path:
    then = time.time() - seconds
    os.utime(path, (then, then))
    return path


def test_only_old_leftovers_of_our_own_names_are_removed(tmp_path) -> None:
    old = STALE_AGE + 60
    for name in (".~tcabc123", ".~tcyoung1", ".~tcABC123", ".~tc12345", "release.csv"):
        (tmp_path / name).write_bytes(b"x")
    for name in (".~tcabc123", ".~tcABC123", ".~tc12345", "release.csv"):
        _aged(tmp_path / name, old)
    folder = tmp_path / ".~tcdir001"
    folder.mkdir()
    (folder / "part-0.parquet").write_bytes(b"PAR1")
    _aged(folder, old)
    removed = remove_stale(tmp_path)
    assert sorted(p.name for p in removed) == [".~tcabc123", ".~tcdir001"]
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == [".~tc12345", ".~tcABC123", ".~tcyoung1", "release.csv"]


@pytest.mark.skipif(sys.platform == "win32", reason="links need privileges on Windows")
def test_a_link_named_like_a_leftover_is_left_alone(tmp_path) -> None:
    target = tmp_path / "keep.csv"
    target.write_bytes(b"mine")
    link = tmp_path / ".~tclink01"
    link.symlink_to(target)
    os.utime(link, (0, 0), follow_symlinks=False)
    assert remove_stale(tmp_path) == []
    assert link.is_symlink() and target.read_bytes() == b"mine"


# -- an output that differs from the input only in case ----------------------------------------


def _case_sensitive(folder: Path) -> bool:
    probe = folder / "probe"
    probe.write_bytes(b"")
    try:
        return not (folder / "PROBE").exists()
    finally:
        probe.unlink()


def test_an_output_named_like_the_input_in_other_case_is_judged_by_the_disk(
    tmp_path, capsys
) -> None:
    source = write_csv(tmp_path)
    argv = ["anonymize", str(source), "-o", str(tmp_path / "IN.csv")]
    argv += ["--qi", "age", "--confidential", "income", "--t", "3", "--k", "5", "-q"]
    code = main(argv)
    err = capsys.readouterr().err
    if _case_sensitive(tmp_path):  # another file: written beside the input
        assert code == 0, err
        assert (tmp_path / "in.csv").read_text(encoding="utf-8") == csv_text(rows())
        assert (tmp_path / "IN.csv").is_file()
    else:  # the same file under another spelling: refused
        assert code == 2 and "refusing to overwrite the input file" in err


# -- a release made with flags, replayed from the project it saved -----------------------------


def _release_argv(source: Path, out: Path, *extra: str) -> list[str]:
    argv = ["anonymize", str(source), "-o", str(out), "--qi", "age,region"]
    argv += ["--confidential", "income", "--t", "3", "--k", "5", "--seed", "11", "-q", *extra]
    return argv


def test_a_saved_project_replays_to_the_same_release_bytes(tmp_path, capsys) -> None:
    from engine.project import load_project

    source = write_csv(tmp_path)
    first, project = tmp_path / "first.csv", tmp_path / "p.json"
    assert main(_release_argv(source, first, "--save-project", str(project))) == 0
    assert "the project file" in capsys.readouterr().err  # where the seed went
    saved = load_project(project)
    assert saved.params.qi == ("age", "region") and saved.params.seed == 11
    assert saved.input.options.sep == "," and saved.output == first
    again = tmp_path / "again.csv"
    assert main(["run", str(project), "-o", str(again), "-q"]) == 0, capsys.readouterr().err
    assert again.read_bytes() == first.read_bytes()


def test_a_project_saved_by_plan_runs_the_planned_release(tmp_path, capsys) -> None:
    source = write_csv(tmp_path)
    project = tmp_path / "plan.json"
    argv = ["plan", str(source), "--qi", "age", "--confidential", "income", "--t", "3"]
    assert main([*argv, "--k", "5", "--seed", "3", "--save-project", str(project)]) == 0
    assert "Project written to" in capsys.readouterr().err
    planned = tmp_path / "planned.csv"
    assert main(["run", str(project), "-o", str(planned), "-q"]) == 0
    direct = tmp_path / "direct.csv"
    flags = ["--qi", "age", "--confidential", "income", "--t", "3", "--k", "5", "--seed", "3"]
    assert main(["anonymize", str(source), "-o", str(direct), *flags, "-q"]) == 0
    assert planned.read_bytes() == direct.read_bytes()


def test_an_infeasible_plan_saves_no_project(tmp_path, capsys) -> None:
    source = write_csv(tmp_path)
    argv = ["plan", str(source), "--qi", "age", "--confidential", "income", "--t", "1.01"]
    assert main([*argv, "--k", "500", "--save-project", str(tmp_path / "p.json")]) == 3
    assert not (tmp_path / "p.json").exists()


def test_a_workbook_sheet_is_saved_as_read(tmp_path, capsys) -> None:
    from engine.project import load_project
    from tests.hostile import write_book

    table = rows()
    source = write_book(tmp_path / "in.xlsx", {"Cover": [["A survey"]], "Data": table})
    out, project = tmp_path / "out.csv", tmp_path / "p.json"
    argv = _release_argv(source, out, "--sheet", "Data", "--save-project", str(project))
    assert main(argv) == 0, capsys.readouterr().err
    assert load_project(project).input.options.sheet == "Data"
    again = tmp_path / "again.csv"
    assert main(["run", str(project), "-o", str(again), "-q"]) == 0
    assert again.read_bytes() == out.read_bytes()


# -- the cluster refuses what one machine refuses, with the same line ---------------------------


def survey_parts(folder: Path, n: int = 400) -> Path:
    """A survey as a Parquet file of 50-record row groups (8 partitions on a cluster), with
    identifiers in disguise, weights broken in a later partition, households."""
    import pandas as pd

    table = rows(n)
    frame = pd.DataFrame(table[1:], columns=table[0])
    frame["pid"] = np.arange(n) + 7_000
    frame["email"] = [f"p{i}@example.org" for i in range(n)]
    frame["w"] = 1.5 + (np.arange(n) % 7) / 4
    frame["w0"] = frame["w"].where(np.arange(n) != 333, 0.0)
    frame["wt"] = frame["w"].astype(str).where(np.arange(n) != 250, "heavy")
    frame["wbig"] = frame["w"].where(np.arange(n) != 120, 1e308)
    frame["hid"] = np.arange(n) // 2
    frame["dwelling"] = [f"D{h:04d}" for h in frame["hid"]]
    frame["code"] = frame["region"].where(np.arange(n) % 97 != 60, "N/A")
    path = folder / "in.parquet"
    frame.to_parquet(path, row_group_size=50)
    return path


#: flags one machine refuses (exit 2), and one it releases
ONE_MACHINE = [
    ("--keep pid", 2),
    ("--keep email", 2),
    ("--weight w0", 2),
    ("--weight wt", 2),
    ("--weight wbig", 2),
    ("--type income=date", 2),
    ("--type code=numeric --qi age,code", 2),
    ("--type nope=numeric", 2),
    ("--household hid --qi age,dwelling", 2),
    ("--keep pid --allow-identifier pid --weight w", 0),
]


@pytest.mark.parametrize(("flags", "code"), ONE_MACHINE, ids=[f for f, _ in ONE_MACHINE])
def test_the_cluster_refuses_what_one_machine_refuses_in_the_same_words(
    flags, code, tmp_path
) -> None:
    from tests.hostile_build import scheduler_address
    from tests.test_fuzz_cli import run_cli

    source = survey_parts(tmp_path)
    base = ["--qi", "age", "--confidential", "income", "--t", "3", "--k", "5", "--seed", "1"]
    words = flags.split()
    if "--qi" in words:  # the case's own quasi-identifiers
        at = words.index("--qi")
        base[1] = words[at + 1]
        words = words[:at] + words[at + 2 :]
    found = []
    for where, cluster in (("one", []), ("dask", ["--cluster", scheduler_address()])):
        out = tmp_path / f"{where}.csv"
        argv = ["anonymize", str(source), "-o", str(out), *base, *words, "-q", *cluster]
        found.append(run_cli(argv))
    (one, _, one_err), (dask, _, dask_err) = found
    assert one == dask == code, (one_err, dask_err)
    if code:
        assert one_err.strip() == dask_err.strip()
        assert len(one_err.strip().splitlines()) == 1
