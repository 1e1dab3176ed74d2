"""The engine in Spanish and French: every message translated, the shipped catalogues current,
the language context-local, numbers in the reader's conventions, and the command line's
report and About sheet in the language asked for (``--lang``, else the environment's)."""

from __future__ import annotations

import re
import threading
import tomllib
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from engine import ReleaseParams, anonymize
from engine import catalogues as cat
from engine.cli import main
from engine.errors import InputError
from engine.i18n import (
    LANGUAGES,
    _,
    language,
    language_from_environment,
    ngettext,
    normalize,
    set_language,
    use_language,
)
from engine.io import read_table, write_release
from engine.text import fixed, number, percent, percent_fixed, seed_text

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = sorted(set(LANGUAGES) - {"en"})


def fields(text: str) -> list[str]:
    return sorted(re.findall(r"\{[^{}]*\}", text))


@pytest.fixture(scope="module")
def template():
    return cat.extract()


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_engine_message_has_a_translation(code: str, template) -> None:
    """Babel's extraction over engine/ finds exactly the catalogue's messages, every one
    translated (no fuzzy entry), with the same {fields} as its English."""
    ids = {m.id for m in template if m.id}
    assert len(ids) > 300
    catalog = cat.read(code)
    have = {m.id for m in catalog if m.id}
    assert not ids - have, f"run python -m engine.catalogues: new {sorted(ids - have)[:5]}"
    assert not have - ids, f"run python -m engine.catalogues: gone {sorted(have - ids)[:5]}"
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        assert all(s.strip() for s in strings), f"{code}: untranslated {message.id!r}"
        assert not message.fuzzy, f"{code}: fuzzy {message.id!r}"
        for s in strings:
            assert fields(s) == fields(sources[-1]), f"{code}: {message.id!r} → {s!r}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_shipped_mo_is_what_the_po_compiles_to(code: str) -> None:
    assert cat.mo_path(code).read_bytes() == cat.compiled(code), "run python -m engine.catalogues"


def test_the_wheel_ships_the_catalogues() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert any(d.startswith("babel") for d in config["project"]["dependencies"])
    data = config["tool"]["setuptools"]["package-data"]["engine"]
    assert "locale/*/LC_MESSAGES/*.mo" in data
    for code in TRANSLATED:  # the pattern matches what is there
        assert list(ROOT.glob(f"engine/{data[0]}".replace("*/", f"{code}/", 1)))


def test_the_language_is_context_local() -> None:
    assert language() == "en"
    seen: dict[str, str] = {}
    with use_language("es"):
        assert _("equivalence classes") == "clases de equivalencia"
        # a thread starts in English, whatever the caller speaks
        thread = threading.Thread(target=lambda: seen.update(thread=language()))
        thread.start()
        thread.join()
        with use_language("fr"):
            assert _("equivalence classes") == "classes d'équivalence"
        assert language() == "es"
    assert seen == {"thread": "en"}
    assert language() == "en" and _("equivalence classes") == "equivalence classes"
    with use_language("de"):  # a language we do not speak is English
        assert language() == "en"


def test_set_language_stays_in_its_context() -> None:
    import contextvars

    def speak() -> str:
        set_language("fr")
        return _("records per class")

    assert contextvars.copy_context().run(speak) == "enregistrements par classe"
    assert language() == "en"


def test_the_environment_chooses_the_language() -> None:
    assert language_from_environment({"LANG": "es_ES.UTF-8"}) == "es"
    assert language_from_environment({"LANG": "es_ES.UTF-8", "LC_ALL": "fr_CA"}) == "fr"
    assert language_from_environment({"LANGUAGE": "fr:en", "LANG": "C.UTF-8"}) == "fr"
    assert language_from_environment({"LANG": "de_DE"}) == "en"
    assert language_from_environment({}) == "en"
    assert normalize("FR-be") == "fr" and normalize(None) == "en"


def test_plural_forms() -> None:
    one = "<p>The other {dropped} column of the file was not tagged and not released.</p>"
    many = "<p>The other {dropped} columns of the file were not tagged and not released.</p>"
    with use_language("es"):
        assert "columnas" in ngettext(one, many, 3) and "columna " in ngettext(one, many, 1)
    with use_language("fr"):
        assert "colonnes" in ngettext(one, many, 3) and "colonne " in ngettext(one, many, 1)


def test_numbers_follow_the_language() -> None:
    assert (number(1792), number(2.5), fixed(2, 3), percent(0.123)) == (
        "1,792",
        "2.5",
        "2.000",
        "12.3 %",
    )
    with use_language("es"):
        assert (number(1792), number(2.5), fixed(2, 3)) == ("1.792", "2,5", "2,000")
        assert percent(0.123) == "12,3\u00a0%" and percent_fixed(0.5) == "50,0\u00a0%"
        assert number(5.16e21) == "5,16 × 10²¹" and number(True) == "sí"
    with use_language("fr"):
        assert number(1234567) == "1\u202f234\u202f567" and number(0.0523) == "0,0523"
        assert percent(1e-7) == "< 0,001\u00a0%"


def test_sentences_with_numbers_in_spanish() -> None:
    with use_language("es"):
        text = seed_text(7, noise=False)
    assert text.startswith("Semilla fija 7:")


@pytest.fixture(scope="module")
def small():
    return pd.read_csv(ROOT / "tests" / "data" / "adult.csv.gz", sep=";").head(120)


def test_a_release_speaks_the_language_of_its_context(small) -> None:
    params = ReleaseParams(qi=["age", "sex"], confidential=["education"], k=5, t=2.0)
    with use_language("es"):
        release = anonymize(small, params)
    assert release.verification.message.startswith("Verificado:")
    names = [g.name for g in release.summary.guarantees]
    assert "k-anonimato" in names and "t-proximidad" in names
    english = anonymize(small, params)
    assert english.verification.message.startswith("Verified:")


def test_the_cli_writes_a_spanish_about_sheet(tmp_path, small, monkeypatch, capsys) -> None:
    source = tmp_path / "in.csv"
    small.to_csv(source, index=False)
    out = tmp_path / "salida.xlsx"
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")  # the flag wins over the environment
    code = main(
        [
            "anonymize", str(source), "-o", str(out), "--qi", "age,sex",
            "--confidential", "education", "--k", "5", "--t", "2", "-q", "--lang", "es",
        ]
    )  # fmt: skip
    assert code == 0
    said = capsys.readouterr().out
    assert said.startswith("Publicados ") and f". Escrito en {out}." in said  # the console too
    book = openpyxl.load_workbook(out, read_only=True)
    about = book["Acerca de esta publicación"]
    cells = [str(c) for row in about.iter_rows(values_only=True) for c in row if c is not None]
    text = " ".join(cells)
    assert "Lo obtenido" in text and "k-anonimato" in text and "Garantías" in text
    assert "What was achieved" not in text
    assert re.search(r"\d,\d", text)  # t and ε with the decimal comma
    # the release itself keeps machine-readable numbers
    values = [c for row in book.worksheets[0].iter_rows(min_row=2, values_only=True) for c in row]
    assert any(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def test_the_report_in_spanish(small) -> None:
    from engine.report.html import render_report
    from engine.report.plots import class_size_histogram

    params = ReleaseParams(qi=["age", "sex"], confidential=["education"], k=5, t=2.0)
    release = anonymize(small, params)
    with use_language("es"):
        report = render_report(release, figures=[])
        figure = class_size_histogram(release)
    assert '<html lang="es">' in report
    for words in ("Clases de equivalencia", "Garantías obtenidas", "cuasi-identificadores"):
        assert words in report
    for english in ("Equivalence classes", "Guarantees achieved", "What does not follow"):
        assert english not in report
    axes = figure.axes[0]
    assert (axes.get_xlabel(), axes.get_ylabel()) == ("registros por clase", "clases")


def test_the_cli_follows_the_environment(tmp_path, small, monkeypatch) -> None:
    source = tmp_path / "in.csv"
    small.to_csv(source, index=False)
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")
    out = tmp_path / "out.xlsx"
    assert main(["anonymize", str(source), "-o", str(out), "--qi", "age", "--k", "5", "-q"]) == 0
    about = openpyxl.load_workbook(out, read_only=True)["À propos de cette publication"]
    text = " ".join(str(c) for row in about.iter_rows(values_only=True) for c in row if c)
    assert "k-anonymat" in text
    assert language() == "en"  # the command's language ended with it


def test_write_release_in_french_about_sheet(tmp_path, small) -> None:
    params = ReleaseParams(qi=["age", "sex"], k=5)
    release = anonymize(small, params)
    with use_language("fr"):
        write_release(release.table, tmp_path / "r.xlsx", metadata=release.summary.public_dict())
    about = openpyxl.load_workbook(tmp_path / "r.xlsx", read_only=True)[
        "À propos de cette publication"
    ]
    text = " ".join(str(c) for row in about.iter_rows(values_only=True) for c in row if c)
    assert "Paramètres" in text


def test_input_errors_speak_the_language(tmp_path) -> None:
    """A bad file is refused in the reader's language (the GUI shows this message as is)."""
    empty = tmp_path / "vacío.csv"
    empty.write_bytes(b"")
    with pytest.raises(InputError, match=r"is empty \(0 bytes\)"):
        read_table(empty)
    with use_language("es"), pytest.raises(InputError) as es:
        read_table(empty)
    assert str(es.value) == "vacío.csv está vacío (0 bytes): no hay nada que importar."
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("a,b\n1,2\n3,4,5\n", encoding="utf-8")
    with use_language("fr"), pytest.raises(InputError, match=r"ligne 3 : 3 champs") as fr:
        read_table(ragged)
    assert "séparateur" in str(fr.value)
