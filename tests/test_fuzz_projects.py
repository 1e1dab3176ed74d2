"""Fuzzing project files: whatever a file holds, loading it and ``tclose run`` stay clean.

Two kinds of files: random JSON trees, and valid project files with random mutations (a field
set to a value of another type or range, a field removed, an unknown one added, a value
wrapped in a list or an object), which reach far deeper.  The promises checked:

* :func:`load_project` returns a project or raises :class:`~engine.errors.InputError`, never
  another exception;
* ``tclose run`` exits 0, 2 or 3 (never 1), without a traceback, with one line starting
  "tclose: " on failure; the input's and the project's SHA-256 checksums are unchanged, and a
  failed run leaves no file behind.

Texts never hold a path separator, so a mutated output path stays inside the example's
folder.  Derandomized under the ``ci`` profile (see conftest).
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InputError
from engine.params import ReleaseParams
from engine.project import load_project, new_project, project_to_dict
from tests.test_fuzz_cli import check_outcome, run_cli, snapshot, survey

#: texts without a path separator (an output path must stay in the example's folder)
TEXT = st.text(
    alphabet=st.characters(blacklist_characters="/\\", blacklist_categories=("Cs",)),
    max_size=12,
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    TEXT,
)
#: any JSON value (NaN and ±Infinity included: Python's json reads them)
TREES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=12,
)
#: values that look almost right or break programs
HOSTILE: list[Any] = [
    *("abc", "", " ", "1", "no", "true", "2024-01-01", "bucket", "drop", "merge"),
    *("laplace", "gaussian", "range", "label", "representative", "age", "income"),
    *(True, False, None, 0, -1, 1, 2, 5, 2.5, 1e308, -1e308, 1e200, 1e-300, 700, 700.5),
    *(math.inf, -math.inf, math.nan, 2**63, 2**64, 10**30),
    *([], {}, [None], [1, 2], ["age"], ["age", "age"], ["nope"], [[["age"]]]),
    *({"age": [0, 1]}, {"income": [None, 1]}, {"income": [0, 1e308]}),
    *({"income": [-1e308, 1e308]}, {"income": [5, 5]}, {"age": "numeric"}),
    *({"income": "date"}, {"income": ["b", "a"]}, {"": "numeric"}, {"a": {"b": {"c": []}}}),
    # unknown columns in per-column fields, identifiers in disguise, whole numbers as floats
    *({"nope": "numeric"}, {"nope": ["a"]}, {"region": "date"}, ["serial"], ["email"]),
    *(["pid", "note"], ["w0"], ["wt"], "w0", "wt", "hh", 5.0, 1e3),
]
VALUES = st.one_of(st.sampled_from(HOSTILE), TREES)


def valid_doc(folder: Path) -> dict[str, Any]:
    """A project for the survey in ``folder`` as its JSON document."""
    source = folder / "in.csv"
    params = ReleaseParams(qi=("age",), confidential=("income",), k=5, t=3.0, seed=1)
    doc = project_to_dict(new_project(source, params, output=folder / "o.csv"), base=folder)
    return json.loads(json.dumps(doc))


#: where a mutation may act: the sections of a project file and their fields
SECTIONS = {
    (): ["format", "format_version", "input", "params", "output", "notes", "saved_at"],
    ("input",): ["path", "relative_path", "sha256", "sheet", "separator", "encoding"],
    ("params",): list(ReleaseParams.CONSTRAINTS),
    ("output",): ["release", "report"],
}


@st.composite
def mutation(draw) -> tuple[tuple[str, ...], str, str, Any]:
    where = draw(st.sampled_from(sorted(SECTIONS)))
    known = draw(st.integers(0, 5)) > 0  # mostly a field the file has; else an unknown one
    key = draw(st.sampled_from(SECTIONS[where]) if known else TEXT)
    op = draw(st.sampled_from(["set", "set", "set", "delete", "wrap", "section"]))
    return where, key, op, draw(VALUES)


def mutate(doc: dict[str, Any], changes: list[tuple[tuple[str, ...], str, str, Any]]) -> Any:
    doc = copy.deepcopy(doc)
    for where, key, op, drawn in changes:
        value = copy.deepcopy(drawn)  # never the drawn (or a shared) object itself
        section = doc
        for part in where:
            section = section.get(part) if isinstance(section, dict) else None
        if not isinstance(section, dict):
            continue
        if op == "set":
            section[key] = value
        elif op == "delete":
            section.pop(key, None)
        elif op == "wrap" and key in section:
            section[key] = [section[key]] if isinstance(value, list) else {"value": section[key]}
        elif op == "section" and where:  # the whole section replaced
            doc[where[0]] = value
    return doc


def check_file(folder: Path, text: str, with_output: bool) -> None:
    """Load ``text`` as a project and run it: the promises of the module doc."""
    project = folder / "p.json"
    project.write_text(text, encoding="utf-8")
    source = folder / "in.csv"
    digests = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in (source, project)}
    try:
        load_project(project)
    except InputError as err:
        assert err.message.strip() and "\n" not in err.message.strip()
    files = snapshot(folder)
    args = ["run", str(project), "-q"]
    if with_output:
        args += ["-o", str(folder / "out.csv")]
    code, _, err = run_cli(args)
    check_outcome("run", code, err)
    assert {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in digests} == digests
    if code:
        assert snapshot(folder) == files, "a failed run changed or left files"


def survey_folder(tmp: str) -> Path:
    folder = Path(tmp)
    (folder / "in.csv").write_text(survey(), encoding="utf-8")
    return folder


@settings(max_examples=100)
@given(tree=TREES, with_output=st.booleans())
def test_any_json_tree_is_refused_cleanly(tree, with_output):
    with tempfile.TemporaryDirectory() as tmp:
        check_file(survey_folder(tmp), json.dumps(tree), with_output)


@settings(max_examples=150)
@given(changes=st.lists(mutation(), min_size=1, max_size=3), with_output=st.booleans())
def test_any_mutated_project_file_runs_or_is_refused_cleanly(changes, with_output):
    with tempfile.TemporaryDirectory() as tmp:
        folder = survey_folder(tmp)
        doc = mutate(valid_doc(folder), changes)
        check_file(folder, json.dumps(doc), with_output)


def test_deep_nesting_is_refused_in_one_line(tmp_path):
    folder = survey_folder(str(tmp_path))
    for depth in (500, 100_000):
        doc = valid_doc(folder)
        doc["params"]["qi"] = json.loads("[" * 400 + "]" * 400) if depth == 500 else []
        text = json.dumps(doc)
        if depth == 100_000:
            text = text.replace('"qi": []', '"qi": ' + "[" * depth + "]" * depth)
        check_file(folder, text, with_output=True)


def text_with_a_key_twice(doc: dict[str, Any], section: str, key: str, value: Any) -> str:
    """The project's JSON text with ``key`` given twice in ``section`` ("" for the top
    level): first as the file has it (or ``value``), then as ``value``; json.loads alone
    would keep the second without a word."""
    target = doc if not section else doc[section]
    first = target.get(key, value)
    target[key] = "\u0000TWICE"
    text = json.dumps(doc)
    pair = f"{json.dumps(key)}: {json.dumps(first)}, {json.dumps(key)}: {json.dumps(value)}"
    return text.replace(f'{json.dumps(key)}: "\\u0000TWICE"', pair, 1)


@settings(max_examples=60)
@given(
    section=st.sampled_from(["", "input", "params", "output"]),
    key=st.one_of(st.sampled_from(["k", "qi", "t", "seed", "path", "release", "format"]), TEXT),
    value=st.sampled_from(HOSTILE),
)
def test_a_key_given_twice_is_refused_naming_it(section, key, value):
    with tempfile.TemporaryDirectory() as tmp:
        folder = survey_folder(tmp)
        text = text_with_a_key_twice(valid_doc(folder), section, key, value)
        path = folder / "p.json"
        path.write_text(text, encoding="utf-8")
        try:
            load_project(path)
        except InputError as err:
            assert "is given twice" in err.message and "\n" not in err.message
        else:
            raise AssertionError("a key given twice was read")
        check_file(folder, text, with_output=True)
