"""The declared contracts, checked over everything declared (the model is scikit-learn's
``parametrize_with_checks``): a new field or mechanism is checked by being declared.

* **Every field refuses a bad value with one sentence on every route.**  Each constraint of
  :attr:`ReleaseParams.CONSTRAINTS` generates values it refuses (:meth:`Constraint.invalid`);
  each is given to a project file (:meth:`ReleaseParams.from_dict`), to the command line (the
  field's flag, through ``main([...])`` on a small real file, in every language: exit 2 and
  one line) and to the app's session (:meth:`gui.state.Session.update`), and all three must
  refuse it with the same sentence.  A field without a flag (``FlagInfo.no_flag``), and a
  value a flag's text cannot say (``Invalid.said``), skip the command line only.
* **The languages are one declared list** (:data:`engine.i18n.DECLARED_LANGUAGES`): the
  catalogues on disk are exactly those of the list.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.cli.flags import field_argv, flag_of
from engine.errors import InputError
from engine.i18n import LANGUAGES, SOURCE, TRANSLATED, use_language
from engine.params import Invalid, ReleaseParams

FLAGS = ReleaseParams.FLAGS
CONSTRAINTS = ReleaseParams.CONSTRAINTS

#: (field, invalid value) for every declared field
CASES = [(name, bad) for name, c in CONSTRAINTS.items() for bad in c.invalid()]
IDS = [f"{name}={bad.value!r}"[:60] for name, bad in CASES]

#: the flags every command-line case starts from (a field's own flag replaces its entry)
BASE = {"qi": ("Age",), "confidential": ("Salary",), "k": 5, "t": 2.0}


def project_message(name: str, value: Any, lang: str = SOURCE) -> str:
    data = {**BASE, name: value}
    with use_language(lang), pytest.raises(InputError) as refused:
        ReleaseParams.from_dict(data)
    return refused.value.message


def test_every_constraint_generates_an_invalid_value() -> None:
    for name, constraint in CONSTRAINTS.items():
        values = constraint.invalid()
        assert values and all(isinstance(v, Invalid) for v in values), name
        for bad in values:
            assert not ReleaseParams.describe(name).allows(bad.value), (name, bad)


#: a small real file (Li et al. 2007's table: ZIP Code, Age, Salary, Disease)
SMALL_FILE = Path(__file__).parent / "data" / "li2007-table.csv"


def flags_for(name: str, value: Any, folder: Path) -> list[str]:
    """The flags that give field ``name`` the value ``value``: a table of a "files" flag is
    written to a CSV file first."""
    if FLAGS[name].form == "files":
        out = []
        for column, rows in value.items():
            table = folder / f"{column}.csv"
            with table.open("w", encoding="utf-8", newline="") as f:
                csv.writer(f).writerows(rows)
            out.append(f"{flag_of(name)}={column}={table}")
        return out
    return field_argv(name, value)


def said_cases() -> list[tuple[str, Invalid]]:
    return [(n, b) for n, b in CASES if flag_of(n) and b.said]


@pytest.mark.parametrize(("name", "bad"), CASES, ids=IDS)
def test_a_project_file_refuses_it_with_the_fields_sentence(name, bad) -> None:
    message = project_message(name, bad.value)
    assert name in message and "\n" not in message


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize(
    ("name", "bad"), said_cases(), ids=[f"{n}={b.value!r}"[:60] for n, b in said_cases()]
)
def test_a_flag_refuses_it_with_the_same_sentence(name, bad, lang, tmp_path, capsys):
    """In each language, the sentence a project file gets in it."""
    expected = project_message(name, bad.value, lang)
    # a field given in place of another one (ε for t) replaces it
    replaced = {name} | {
        n for n in BASE if FLAGS[n].one_of and FLAGS[n].one_of == FLAGS[name].one_of
    }
    argv = ["plan", str(SMALL_FILE), "-q", "--lang", lang]
    for field, value in BASE.items():
        if field not in replaced and flag_of(field) != flag_of(name):
            argv += field_argv(field, value)
    argv += flags_for(name, bad.value, tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err  # one line: "tclose: " (as the language writes it) + it
    assert err.startswith("tclose") and err.endswith(f" {expected}\n") and err.count("\n") == 1


def test_every_flag_that_reads_a_text_is_given_a_bad_one() -> None:
    """The skips are the declarations': a field with a flag that reads a text has an invalid
    value its text can say, unless every text is a valid value (codes, names)."""
    said = {n for n, _b in said_cases()}
    texts = {n for n in CONSTRAINTS if flag_of(n) and FLAGS[n].form not in ("switch", "off")}
    assert texts - said == {"missing", "household", "weight"}


@pytest.mark.gui
@pytest.mark.parametrize(("name", "bad"), CASES, ids=IDS)
def test_the_apps_session_refuses_it_with_the_same_sentence(name, bad, qapp) -> None:
    from gui.state import Session

    session = Session()
    session.update(**BASE)
    before = session.params
    with pytest.raises(InputError) as refused:
        session.update(**{name: bad.value})
    assert refused.value.message == project_message(name, bad.value)
    assert session.params is before


def test_the_languages_are_one_declared_list() -> None:
    """The catalogues on disk are those of the declared languages, no more and no fewer:
    the engine's (.po, .mo) and the app's (.ts, .qm) for each language but the source."""
    root = Path(__file__).resolve().parent.parent
    engine = {p.parent.parent.name for p in (root / "engine" / "locale").glob("*/LC_MESSAGES/*.po")}
    compiled = {
        p.parent.parent.name for p in (root / "engine" / "locale").glob("*/LC_MESSAGES/*.mo")
    }
    app = {
        p.stem.removeprefix("tclose_") for p in (root / "resources" / "translations").glob("*.ts")
    }
    shipped = {
        p.stem.removeprefix("tclose_") for p in (root / "resources" / "translations").glob("*.qm")
    }
    assert engine == compiled == app == shipped == set(TRANSLATED)
    assert SOURCE in LANGUAGES and set(TRANSLATED) == set(LANGUAGES) - {SOURCE}
