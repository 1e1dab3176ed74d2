"""What a reader noticed in a file reaches a Spanish or French reader in their language.

The notes (a title skipped, a cover sheet passed over, leading zeros kept, blank rows left
out…) are read here from odd files as agencies send them, in English, Spanish and French:
every note of a file is said in each language, with its counts written as that language
writes numbers, and the command line prints them in the language of its environment.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from engine.cli import main
from engine.i18n import use_language
from engine.io import read_table
from tests.hostile import (
    RELEASE_ARGS,
    bare_cr_csv,
    blank_rows_xlsx,
    cover_sheet,
    european_numbers_as_text,
    footnotes,
    merged_two_level_header,
    parquet_types,
    very_hidden_sheet,
    write_book,
)


def odd_csv(folder: Path) -> Path:
    """Windows-1252 text under a title, with postcodes, thousands separators, a cell of spaces
    and 1,500 lines of bare separators at the end (as a spreadsheet saves an emptied range)."""
    text = (
        "Income survey 2024\n\nid,zip,amount,city,comment\n"
        '1,01234,"1,234,567.5",Montréal,ok\n2,80331,12,Québec,"   "\n3,00501,"-2,000",Lyon,\n'
        + ",,,,\n"
        * 1500
    )
    path = folder / "odd.csv"
    path.write_bytes(text.encode("cp1252"))
    return path


def repeated_headers(folder: Path) -> Path:
    """A sheet whose header repeats a name and leaves one blank (the columns are renamed)."""
    table = [["id", "age", "age", None], *([i, 30 + i, 31 + i, "x"] for i in range(5))]
    return write_book(folder / "in.xlsx", {"S": table})


ODD_FILES = {
    "odd-csv": odd_csv,
    "bare-carriage-returns": bare_cr_csv,
    "parquet-types": parquet_types,
    "cover-sheet": cover_sheet,
    "footnotes": footnotes,
    "blank-rows-in-a-sheet": blank_rows_xlsx,
    "two-line-header": merged_two_level_header,
    "numbers-stored-as-text": european_numbers_as_text,
    "hidden-sheet": very_hidden_sheet,
    "repeated-headers": repeated_headers,
}

#: a sentence of each language's notes on odd.csv, its number as the language writes it
SAID = {
    "es": [
        "Se omitieron 1.500 filas en blanco (sin valor en ninguna columna).",
        "2 líneas al principio parecen un título y se omitieron; el encabezado es la línea 3.",
    ],
    "fr": [
        "1\u202f500 lignes vides (sans valeur dans aucune colonne) ont été écartées.",
        "2 lignes en haut du fichier ressemblent à un titre et ont été ignorées\u00a0; l'en-tête "
        "est la ligne 3.",
    ],
}


def notes_in(path: Path, lang: str) -> list[str]:
    with use_language(lang):
        return read_table(path).info.notes


@pytest.mark.parametrize("lang", ["es", "fr"])
@pytest.mark.parametrize("kind", list(ODD_FILES))
def test_every_note_on_an_odd_file_is_in_the_readers_language(tmp_path, kind, lang):
    path = ODD_FILES[kind](tmp_path)
    english, translated = notes_in(path, "en"), notes_in(path, lang)
    assert english, f"{kind}: the reader noticed nothing, so this case tests nothing"
    assert len(translated) == len(english)
    same = [note for note, source in zip(translated, english, strict=True) if note == source]
    assert not same, f"notes left in English in {lang}: {same}"


@pytest.mark.parametrize(
    ("lang", "said"),
    [("es", "Se conservaron las etiquetas de valor de "), ("fr", "Les étiquettes de valeur de ")],
)
def test_a_labelled_survey_says_which_labels_it_kept_in_the_readers_language(data_dir, lang, said):
    path = data_dir / "labelled-survey.sav"
    (english,), (translated,) = notes_in(path, "en"), notes_in(path, lang)
    assert english.startswith("Value labels were kept for ")
    assert translated.startswith(said)


@pytest.mark.parametrize("lang", ["es", "fr"])
def test_counts_in_the_notes_are_written_as_the_language_writes_numbers(tmp_path, lang):
    notes = notes_in(odd_csv(tmp_path), lang)
    for sentence in SAID[lang]:
        assert sentence in notes


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("es", "Se leyó la hoja «Data»: contiene la tabla más grande"),
        (
            "fr",
            "La feuille «\u00a0Data\u00a0» a été lue\u00a0: elle contient le plus grand tableau",
        ),
    ],
)
def test_the_command_line_prints_its_notes_in_the_language_of_its_environment(
    tmp_path, monkeypatch, lang, said
):
    source = cover_sheet(tmp_path)
    monkeypatch.setenv("LANGUAGE", lang)
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["anonymize", str(source), "-o", str(tmp_path / "out.csv"), *RELEASE_ARGS])
    assert code == 0
    lines = [line for line in err.getvalue().splitlines() if said in line]
    assert len(lines) == 1 and "largest table" not in err.getvalue()
