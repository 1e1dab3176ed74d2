"""Project files: a readable JSON round trip, honest checksums, clear errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine.errors import InputError
from engine.params import ReleaseParams
from engine.project import (
    InputChangedError,
    check_input,
    file_sha256,
    load_project,
    new_project,
    project_to_dict,
    save_project,
)
from engine.roles import ColumnType

#: every ReleaseParams field of the noise route set to something other than its default
FULL = ReleaseParams(
    qi=("age", "sex"),
    confidential=("income", "disease"),
    k=7,
    epsilon=1.5,
    identifiers=("name",),
    keep=("weight", "note"),
    allow_identifier=("note",),
    types={"age": ColumnType.NUMERIC, "sex": ColumnType.NOMINAL, "disease": ColumnType.ORDINAL},
    orders={"disease": ("mild", "severe")},
    categories={"disease": ("mild", "moderate", "severe")},
    missing=("-9", "N/A"),
    column_missing={"income": ("-10000",)},
    qi_output="range",
    confidential_output="representative",
    joint=False,
    mechanism="laplace",
    bounds={"income": (0.0, 250000.0)},
    private_bounds=0.2,
    insensitive=True,
    resample_until_t=3.0,
    transform="log",
    seed=12345,
)
#: and of the buckets route
BUCKETS = ReleaseParams(
    qi=("age",),
    confidential=("income",),
    k=4,
    t=2.5,
    n_buckets=4,
    utility_weight=0.3,
    missing_confidential="drop",
    household="hh",
    weight="wt",
    household_level=("age",),
    household_output="none",
    weight_output="none",
    release_type="scientific",
    scenario="A researcher under contract knows age and region.",
    hierarchies={"region": [["region", "country"], ["north", "X"], ["south", "X"]]},
    bands={"age": (15.0, 25.0, 65.0)},
    top_code={"income": 100000.0},
    bottom_code={"income": 0.0},
    qi_output="common",
)


@pytest.fixture
def csv_file(tmp_path: Path) -> Path:
    path = tmp_path / "data" / "survey.csv"
    path.parent.mkdir()
    path.write_text("age;sex;income\n30;M;100\n40;F;200\n", encoding="utf-8")
    return path


def test_every_field_round_trips_through_the_project_file(tmp_path: Path, csv_file: Path) -> None:
    plain = ReleaseParams(qi=("q",), confidential=(), k=1)
    changed = {
        name
        for params in (FULL, BUCKETS)
        for name in ReleaseParams.CONSTRAINTS
        if getattr(params, name) != getattr(plain, name)
    }
    # FULL and BUCKETS between them set every field, so a field added to ReleaseParams
    # without a place in the project file makes this test fail
    assert changed == set(ReleaseParams.CONSTRAINTS)
    for params in (FULL, BUCKETS):
        path = save_project(new_project(csv_file, params), tmp_path / "p.json")
        assert load_project(path).params == params


def test_layout_version_1_files_still_open(tmp_path: Path, csv_file: Path) -> None:
    """Files saved by tclose 0.1 kept the parameters in sections; they open unchanged."""
    doc = project_to_dict(new_project(csv_file, FULL), base=tmp_path)
    p = FULL
    doc.pop("params")
    doc.update(
        format_version=1,
        roles={
            "quasi_identifiers": list(p.qi),
            "confidential": list(p.confidential),
            "identifiers": list(p.identifiers),
            "released_unchanged": list(p.keep),
        },
        types={c: str(t) for c, t in p.types.items()},
        orders={c: list(o) for c, o in p.orders.items()},
        missing={"all_columns": list(p.missing), "per_column": {"income": ["-10000"]}},
        parameters={
            "k": 7,
            "t": None,
            "epsilon": 1.5,
            "n_buckets": None,
            "qi_output": "range",
            "confidential_output": "representative",
            "joint": False,
            "insensitive": True,
            "resample_until_t": 3.0,
        },
        mechanism={"name": "laplace", "bounds": {"income": [0.0, 250000.0]}},
        seed_policy={"seed": 12345, "reproducible": True, "note": ""},
    )
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    layout_2_only = {
        "private_bounds": None,
        "transform": "none",
        "allow_identifier": (),
        "categories": {},
    }
    assert load_project(path).params == FULL.replace(**layout_2_only)


def test_project_file_is_readable_json(tmp_path: Path, csv_file: Path) -> None:
    project = new_project(csv_file, FULL, separator=";", header_row=0, output=tmp_path / "out.csv")
    path = save_project(project, tmp_path / "release")
    assert path.name == "release.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == "tclose-project"
    assert doc["input"]["sha256"] == file_sha256(csv_file)
    assert doc["input"]["relative_path"] == "data/survey.csv"
    assert doc["params"]["qi"] == ["age", "sex"]
    assert doc["input"]["separator"] == ";" and doc["input"]["header_row"] == 0
    assert doc["params"]["k"] == 7 and doc["params"]["epsilon"] == 1.5
    assert doc["params"]["mechanism"] == "laplace"
    assert doc["params"]["bounds"] == {"income": [0.0, 250000.0]}
    assert doc["seed_policy"]["seed"] == 12345 and doc["seed_policy"]["reproducible"] is True
    assert "only as private as the seed is secret" in doc["seed_policy"]["note"]
    loaded = load_project(path)
    assert loaded == project
    assert check_input(loaded) == project.input.sha256


def test_sha256_matches_hashlib_on_a_known_string(tmp_path: Path) -> None:
    path = tmp_path / "abc.txt"
    path.write_bytes(b"abc")
    assert file_sha256(path) == ("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")


def test_changed_input_is_detected(tmp_path: Path, csv_file: Path) -> None:
    path = save_project(new_project(csv_file, FULL), tmp_path / "p.json")
    csv_file.write_text("age;sex;income\n30;M;100\n40;F;201\n", encoding="utf-8")
    with pytest.raises(InputChangedError, match=r"survey\.csv changed since the project"):
        check_input(load_project(path))


def test_missing_input_is_reported(tmp_path: Path, csv_file: Path) -> None:
    path = save_project(new_project(csv_file, FULL), tmp_path / "p.json")
    csv_file.unlink()
    with pytest.raises(InputError, match="is not there"):
        check_input(load_project(path))


def test_moved_folder_finds_its_input(tmp_path: Path, csv_file: Path) -> None:
    save_project(new_project(csv_file, FULL), tmp_path / "p.json")
    moved = tmp_path.parent / (tmp_path.name + "-moved")
    shutil.move(tmp_path, moved)
    try:
        project = load_project(moved / "p.json")
        assert project.input.path == (moved / "data" / "survey.csv").resolve()
        check_input(project)
    finally:
        shutil.rmtree(moved)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.pop("format"), "not a tclose project file"),
        (lambda d: d.update(format_version=99), "layout version 99"),
        (lambda d: d.update(format_version="1"), "format_version must be a whole number"),
        (lambda d: d.update(extra=1), "unknown field"),
        (lambda d: d["params"].update(kk=3), "Unknown parameter"),
        (lambda d: d["params"].pop("k"), "lack k"),
        (lambda d: d["params"]["types"].update(age="decimal"), "must be one of 'numeric'"),
        (lambda d: d["params"].update(seed="42"), "seed must be a whole number"),
        (lambda d: d["params"].update(seed=-1), "seed must be a whole number"),
        (lambda d: d["params"].update(k=0), "k must be a whole number"),
        (lambda d: d["params"].update(k=True), "k must be a whole number"),
        (lambda d: d["params"].update(k=float("inf")), "k must be a whole number"),
        (lambda d: d["params"].update(k=[5]), "k must be a whole number"),
        (lambda d: d["params"].update(epsilon="abc"), "epsilon must be a number"),
        (lambda d: d["params"].update(joint="no"), "joint must be true or false"),
        (lambda d: d["params"].update(mechanism="gaussian"), "mechanism must be one of"),
        (lambda d: d["params"].update(qi_output="bogus"), "qi_output must be one of"),
        (lambda d: d["params"].update(confidential_output=5), "confidential_output must be"),
        (lambda d: d["params"]["bounds"].update(income=[None, 1]), "must be \\[low, high\\]"),
        (lambda d: d["params"].update(qi="age"), "must be a list"),
        (lambda d: d["input"].update(header_row=-1), "header_row"),
        (lambda d: d["input"].update(separator=5), "separator must be a text"),
        (lambda d: d["input"].update(encoding=8), "encoding must be a text"),
    ],
)
def test_hand_edited_mistakes_are_clear(tmp_path: Path, csv_file: Path, edit, message) -> None:
    path = save_project(new_project(csv_file, FULL), tmp_path / "p.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    edit(doc)
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError, match=message):
        load_project(path)


def test_broken_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text('{\n  "format": "tclose-project",\n  oops\n}', encoding="utf-8")
    with pytest.raises(InputError, match="line 3"):
        load_project(path)
    with pytest.raises(InputError, match="no such project file"):
        load_project(tmp_path / "absent.json")


@pytest.fixture
def adult_small(unpacked, tmp_path: Path) -> Path:
    lines = unpacked("adult.csv.gz").read_text(encoding="utf-8").splitlines(keepends=True)
    path = tmp_path / "adult-400.csv"
    path.write_text("".join(lines[:401]), encoding="utf-8")
    return path


def test_cli_run_replays_and_checks(tmp_path: Path, adult_small: Path, capsys) -> None:
    from engine.cli import main
    from engine.io import read_table
    from engine.release import anonymize

    cfg = ReleaseParams(
        qi=("age", "sex", "education"), confidential=("salary-class",), k=5, t=2.0, seed=9
    )
    project = save_project(
        new_project(adult_small, cfg, output=tmp_path / "out.csv"), tmp_path / "p.json"
    )
    assert main(["run", str(project), "--check"]) == 0
    assert "checksum matches" in capsys.readouterr().out
    assert main(["run", str(project), "-q"]) == 0  # to the project's own output path
    released = read_table(tmp_path / "out.csv").data
    expected = anonymize(read_table(adult_small).data, cfg).table
    assert released.astype(str).values.tolist() == expected.astype(str).values.tolist()
    # the input changes: refused (exit 2, nothing written), then accepted with a warning
    adult_small.write_text(adult_small.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    (tmp_path / "out.csv").unlink()
    assert main(["run", str(project)]) == 2
    assert "changed since the project was saved" in capsys.readouterr().err
    assert not (tmp_path / "out.csv").exists()
    assert main(["run", str(project), "--accept-changed-input", "-q"]) == 0
    assert "warning" in capsys.readouterr().err
    assert (tmp_path / "out.csv").exists()


def test_cli_run_needs_an_output(tmp_path: Path, adult_small: Path, capsys) -> None:
    from engine.cli import main

    cfg = ReleaseParams(qi=("age",), confidential=("salary-class",), k=5, t=2.0)
    project = save_project(new_project(adult_small, cfg), tmp_path / "p.json")
    assert main(["run", str(project)]) == 2
    assert "give one with -o" in capsys.readouterr().err
