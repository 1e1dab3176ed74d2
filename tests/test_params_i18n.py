"""The parameters' constraint words in the reader's language (Spanish and French).

A bad value in a project file or a flag gets its sentence in the session's language, and the
``--help`` of every flag states the allowed values in it; the field's name stays as users type
it.  English is the source: ``tests/test_params.py`` and ``tests/test_cli_fields.py`` assert
its sentences.
"""

from __future__ import annotations

import re

import pytest

from engine.cli import main
from engine.errors import InputError
from engine.i18n import TRANSLATED, use_language
from engine.params import Auto, ReleaseParams

BASE = {"qi": ["age"], "confidential": ["income"], "k": 5, "t": 2.0}

#: (language, field, the bad value in a project file, the sentence it gets)
SENTENCES = [
    ("es", "k", 0, "k debe ser un número entero ≥ 1, no 0."),
    (
        "es",
        "mechanism",
        "gaussian",
        "mechanism debe ser uno de 'buckets' o 'laplace', no 'gaussian'.",
    ),
    ("es", "n_buckets", 1, "n_buckets debe ser 'auto' o un número entero ≥ 2, no 1."),
    ("es", "joint", "no", "joint debe ser true o false, no 'no'."),
    ("es", "seed", -1, "seed debe ser un número entero ≥ 0 y ≤ 1,84 × 10¹⁹, no -1."),
    ("fr", "k", 0, "k doit être un nombre entier ≥ 1, et non 0."),
    (
        "fr",
        "mechanism",
        "gaussian",
        "mechanism doit être l'une des valeurs 'buckets' ou 'laplace', et non 'gaussian'.",
    ),
    ("fr", "n_buckets", 1, "n_buckets doit être 'auto' ou un nombre entier ≥ 2, et non 1."),
    ("fr", "qi", "age", "qi doit être une liste de noms de colonnes, et non 'age'."),
    ("fr", "seed", -1, "seed doit être un nombre entier ≥ 0 et ≤ 1,84 × 10¹⁹, et non -1."),
]


@pytest.mark.parametrize(("lang", "field", "value", "sentence"), SENTENCES)
def test_a_bad_value_in_a_project_gets_the_sessions_language(lang, field, value, sentence) -> None:
    data = {**BASE, field: value}
    if field == "mechanism":
        data.update(t=None, epsilon=1.0)
    with use_language(lang), pytest.raises(InputError) as err:
        ReleaseParams.from_dict(data)
    assert err.value.message == sentence
    with pytest.raises(InputError) as english:  # the language is the session's, not a global
        ReleaseParams.from_dict(data)
    assert english.value.message.startswith(f"{field} must be ")


@pytest.mark.parametrize(
    ("lang", "flag", "text", "sentence"),
    [
        ("es", "--k", "0", "k debe ser un número entero ≥ 1, no 0."),
        ("es", "--buckets", "1", "n_buckets debe ser 'auto' o un número entero ≥ 2, no 1."),
        ("fr", "--k", "2.5", "k doit être un nombre entier ≥ 1, et non 2.5."),
        (
            "fr",
            "--buckets",
            "many",
            "n_buckets doit être 'auto' ou un nombre entier ≥ 2, et non 'many'.",
        ),
    ],
)
def test_a_bad_flag_gets_the_sessions_language(
    lang, flag, text, sentence, tmp_path, capsys
) -> None:
    survey_csv = tmp_path / "encuesta año.csv"
    rows = "".join(f"{20 + i % 50},{1000 * (i % 37) + 17}\n" for i in range(60))
    survey_csv.write_text("age,income\n" + rows, encoding="utf-8")
    argv = ["anonymize", str(survey_csv), "-o", str(tmp_path / "o.csv"), "--qi", "age"]
    argv += ["--confidential", "income", "--t", "2", "--lang", lang]
    argv += [] if flag == "--k" else ["--k", "5"]
    assert main([*argv, flag, text]) == 2
    assert sentence in capsys.readouterr().err
    assert not (tmp_path / "o.csv").exists()


@pytest.mark.parametrize("lang", TRANSLATED)
def test_auto_names_auto_in_every_language(lang) -> None:
    """``Auto`` widens the inner constraint's message: the inner words are found in it."""
    autos = {n: c for n, c in ReleaseParams.CONSTRAINTS.items() if isinstance(c, Auto)}
    assert autos
    with use_language(lang):
        for name, constraint in autos.items():
            for bad in (0, "many", -3):
                with pytest.raises(InputError) as err:
                    constraint.check(name, bad)
                assert constraint.allowed in err.value.message
                assert constraint.allowed.startswith("'auto' ")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_constraint_speaks_the_language(lang) -> None:
    """No constraint keeps its English words in another language (a new one must be marked)."""
    english = {n: c.allowed for n, c in ReleaseParams.CONSTRAINTS.items()}
    with use_language(lang):
        for name, constraint in ReleaseParams.CONSTRAINTS.items():
            assert constraint.allowed and constraint.allowed != english[name], name


#: (language, flag, its allowed values in that language)
HELP = {
    "es": [
        ("--k", "Valores admitidos: un número entero ≥ 1."),
        ("--buckets", "Valores admitidos: 'auto' o un número entero ≥ 2."),
        ("--mechanism", "Valores admitidos: uno de 'buckets' o 'laplace'."),
        ("--epsilon", "un número > 0 y ≤ 700."),
    ],
    "fr": [
        ("--k", "un nombre entier ≥ 1."),
        ("--buckets", "'auto' ou un nombre entier ≥ 2."),
        ("--mechanism", "l'une des valeurs 'buckets' ou 'laplace'."),
        ("--utility-weight", "un nombre ≥ 0 et ≤ 1."),
    ],
}


@pytest.mark.parametrize("lang", sorted(HELP))
def test_anonymize_help_states_the_allowed_values_in_the_language(lang, capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["anonymize", "--lang", lang, "--help"])
    assert done.value.code == 0
    text = re.sub(r"\s+", " ", capsys.readouterr().out)
    for flag, allowed in HELP[lang]:
        start = text.index(f" {flag} ", text.index(" -h, --help "))
        assert allowed in text[start : start + 1500], (flag, allowed)
    for english in ("a whole number", "a number", "one of '", "true or false", "'auto' or"):
        assert english not in text
