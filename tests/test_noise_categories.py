"""Randomized response over public categories, and missing values on the noise route.

The attack review's F1: a nominal confidential column took its categories from the data, so
one person's rare diagnosis ('HIV') showed in the published metadata and could show in the
release, while the file without that person never could: no ε held.  The categories are now
public (declared, an ordinal's declared order, or public bands' labels); a column without them
is refused; a value outside them is released as one of them drawn uniformly.  F5: a missing
value stays missing, the review record counts them, and the published guarantee says that
whether a value is missing is not covered by ε.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from engine import InputError, ReleaseParams, anonymize, plan, read_table
from engine.cli import main
from engine.i18n import use_language
from engine.mechanisms.laplace import missing_assumption
from engine.mechanisms.response import (
    OUTSIDE,
    CategoriesRequiredError,
    channel_epsilon,
    randomized_response,
    uniform_channel,
)
from engine.mechanisms.sampling import noise_source
from tests.cli_support import cli_words
from tests.factories import laplace_params

#: the attack review's neighbours: the only patient with 'HIV', and the same file without it
COLD_FLU = ["cold", "flu"] * 10


def patients(first: str = "HIV") -> pd.DataFrame:
    """20 patients (age 20, 22, …, 58, sex alternating); the first one's diagnosis is
    ``first``, the others alternate cold and flu (the review's rr_with.csv / rr_without.csv)."""
    diag = [first, *(["cold", "flu"] * 10)[1:20]]
    return pd.DataFrame(
        {
            "age": np.arange(20, 60, 2),
            "sex": ["M", "F"] * 10,
            "diag": diag,
        }
    )


def write(frame: pd.DataFrame, path: Path) -> Path:
    frame.to_csv(path, index=False, encoding="utf-8")
    return path


def declared(**fields) -> ReleaseParams:
    base = {"k": 5, "categories": {"diag": ("cold", "flu", "HIV")}}
    return laplace_params(("age", "sex"), ("diag",), **{**base, **fields})


def public_noise(release) -> dict:
    """The published metadata's account of the noise, and the parameters that applied."""
    public = release.summary.public_dict()
    return {
        "parameters": public["parameters"],
        "columns": public["noise"]["columns"],
        "guarantees": public["guarantees"],
        "categories": public["noise"]["corrected_shares"]["diag"]["categories"],
        "epsilon": public["noise"]["epsilon_spent"],
    }


# --- F1: two neighbouring files, one declared domain -----------------------------------------


def test_neighbouring_files_publish_the_same_domain_when_categories_are_declared() -> None:
    """With and without the one 'HIV' patient: the same categories, keep probability and ε in
    the published metadata, and the same set of values the release can take."""
    with_hiv, without = patients("HIV"), patients("cold")
    assert (with_hiv["diag"] == "HIV").sum() == 1 and "HIV" not in set(without["diag"])
    first = anonymize(with_hiv, declared(seed=3))
    second = anonymize(without, declared(seed=3))
    assert public_noise(first) == public_noise(second)
    column = public_noise(first)["columns"]["diag"]
    assert column["categories"] == ["cold", "flu", "HIV"]
    # the channel over the three declared categories gives exactly the ε stated
    keep = column["keep_probability"]
    assert math.exp(column["epsilon"]) == pytest.approx(1 + 3 * keep / (1 - keep))
    assert channel_epsilon(uniform_channel(keep, 3)) == pytest.approx(1.0, abs=1e-9)
    # every release of either file can hold any declared category, and no other value
    seen = {"with": set(), "without": set()}
    for seed in range(12):
        for name, frame in (("with", with_hiv), ("without", without)):
            released = anonymize(frame, declared(seed=seed)).table["diag"]
            seen[name] |= set(released.dropna())
    assert seen["with"] == seen["without"] == {"cold", "flu", "HIV"}


def test_the_review_attack_files_give_equal_sidecars_on_the_command_line(tmp_path) -> None:
    """The review's two commands, with the categories declared: the published sidecars
    agree on everything the parameters fix, and the released values lie in the domain."""
    sidecars = {}
    for name, first in (("with", "HIV"), ("without", "cold")):
        source = write(patients(first), tmp_path / f"rr_{name}.csv")
        out = tmp_path / f"rr_{name}.out.csv"
        line = (
            "anonymize {src} -o {out} --qi age,sex --confidential diag --k 5 "
            "--mechanism laplace --epsilon 1 --anonymous"
        )
        argv = [*cli_words(line, src=source, out=out), "--categories", "diag=cold|flu|HIV"]
        assert main(argv) == 0
        sidecars[name] = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
        assert set(read_table(out).data["diag"].dropna()) <= {"cold", "flu", "HIV"}
    for key in ("parameters", "guarantees", "column_types"):
        assert sidecars["with"][key] == sidecars["without"][key], key
    noise = [sidecars[n]["noise"] for n in ("with", "without")]
    assert noise[0]["columns"] == noise[1]["columns"]
    assert noise[0]["columns"]["diag"]["categories"] == ["cold", "flu", "HIV"]
    assert [n["corrected_shares"]["diag"]["categories"] for n in noise] == [
        ["cold", "flu", "HIV"]
    ] * 2


def test_a_rare_category_left_undeclared_never_shows(tmp_path) -> None:
    """Declared cold|flu: the 'HIV' patient is released as cold or flu; 'HIV' is in no
    published file, and the review record says one value lay outside the categories."""
    source = write(patients("HIV"), tmp_path / "rr_with.csv")
    out, review = tmp_path / "release.xlsx", tmp_path / "review.json"
    line = (
        "anonymize {src} -o {out} --qi age,sex --confidential diag --k 5 --mechanism laplace "
        "--epsilon 1 --review {review} -q"
    )
    argv = [*cli_words(line, src=source, out=out, review=review), "--categories", "diag=cold|flu"]
    assert main(argv) == 0
    book = pd.read_excel(out, sheet_name=None, header=None, engine="openpyxl")
    published = "\n".join(sheet.astype(str).to_csv() for sheet in book.values())
    assert "HIV" not in published
    assert "cold, flu" in published  # the About sheet lists the declared categories
    record = json.loads(review.read_text(encoding="utf-8"))
    assert any("1 value lay outside the declared categories" in w for w in record["warnings"])
    assert "HIV" not in review.read_text(encoding="utf-8")


# --- a column without public categories is refused --------------------------------------------


def test_an_undeclared_nominal_column_is_refused() -> None:
    config = laplace_params(("age", "sex"), ("diag",), k=5)
    with pytest.raises(CategoriesRequiredError) as refused:
        anonymize(patients(), config)
    err = refused.value
    assert isinstance(err, InputError) and err.exit_code == 2 and err.columns == ["diag"]
    assert "'diag' needs the column's categories declared" in err.message
    assert "categories found in the data are never used" in err.message
    assert "in the app on the privacy step" in err.message
    assert "--categories" not in err.message  # the engine speaks to every front end
    with use_language("es"), pytest.raises(CategoriesRequiredError) as spanish:
        anonymize(patients(), config)
    assert spanish.value.message.startswith("La respuesta aleatorizada en 'diag' necesita")


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_the_command_line_refuses_it_in_one_translated_line(lang, tmp_path, capsys) -> None:
    source = write(patients(), tmp_path / "p.csv")
    line = (
        "anonymize {src} -o {out} --qi age,sex --confidential diag --k 5 --mechanism laplace "
        "--epsilon 1 --lang {lang}"
    )
    assert main(cli_words(line, src=source, out=tmp_path / "o.csv", lang=lang)) == 2
    err = capsys.readouterr().err
    assert err.startswith("tclose") and err.count("\n") == 1 and "Traceback" not in err
    assert "--categories diag=CAT1|CAT2|CAT3" in err  # the fix, named on the command line
    words = {"en": "needs the column's categories", "es": "necesita que se declaren"}
    words["fr"] = "exige que les catégories"
    assert words[lang] in err
    assert not (tmp_path / "o.csv").exists()


def test_an_inferred_order_is_not_public_but_a_declared_one_is() -> None:
    frame = patients("cold").assign(level=["low", "mid", "high", "mid"] * 5)
    inferred = laplace_params(("age", "sex"), ("level",), k=5, types={"level": "ordinal"})
    with pytest.raises(CategoriesRequiredError, match="'level'"):
        anonymize(frame, inferred)
    ordered = inferred.replace(orders={"level": ("low", "mid", "high", "top")}, seed=1)
    column = anonymize(frame, ordered).summary.noise.columns["level"]
    assert column.categories == ("low", "mid", "high", "top")  # 'top' holds no one
    banded = laplace_params(
        ("sex",), ("age",), k=5, bands={"age": (30.0, 45.0)}, types={"age": "ordinal"}, seed=1
    )
    column = anonymize(patients("cold"), banded).summary.noise.columns["age"]
    assert column.categories == ("< 30", "[30, 45)", "≥ 45")  # the public cut points' labels


def test_categories_on_a_numeric_column_or_bounds_on_a_category_one_are_refused() -> None:
    frame = patients("cold").assign(income=np.arange(20) * 1000)
    numeric = laplace_params(
        ("age", "sex"), ("income",), k=5, categories={"income": ("a", "b")}, seed=1
    )
    with pytest.raises(InputError, match="nominal and ordinal columns only; 'income' is numeric"):
        anonymize(frame, numeric)
    nominal = laplace_params(("age", "sex"), ("diag",), k=5, bounds={"diag": (0, 1)})
    with pytest.raises(InputError, match="numeric columns only; 'diag' is nominal"):
        anonymize(frame, nominal)


# --- a value outside the declared categories --------------------------------------------------


def test_a_value_outside_is_released_as_a_uniform_draw_from_the_categories() -> None:
    """3,000 records outside the three categories: every one released, each category about a
    third of them; the channel with that row added still has the ε stated."""
    codes = np.full(3000, OUTSIDE, dtype=np.int64)
    codes[:5] = [0, 1, 2, -1, -1]
    outcome = randomized_response(codes, 3, 1.0, noise_source(4))
    assert (outcome.codes[3:5] == -1).all()  # missing stays missing
    released = outcome.codes[5:]
    assert released.min() >= 0 and released.max() <= 2
    counts = np.bincount(released, minlength=3)
    assert stats.chisquare(counts).pvalue > 1e-3
    # an outside value's row is the rows' average (uniform): within e^ε of every row
    extended = np.vstack([outcome.channel, np.full(3, 1 / 3)])
    assert channel_epsilon(extended) == pytest.approx(outcome.epsilon, abs=1e-9)


def test_values_outside_are_counted_for_the_review_only() -> None:
    frame = patients("HIV")
    frame.loc[[3, 7], "diag"] = ["measles", " flu "]  # one outside, one flu with spaces
    release = anonymize(frame, declared(categories={"diag": "cold|flu"}, seed=5))
    assert set(release.table["diag"].dropna()) <= {"cold", "flu"}
    notes = [w for w in release.summary.warnings if "outside the declared categories" in w]
    assert notes == [
        "'diag': 2 values lay outside the declared categories; they were released as one of "
        "them drawn at random, as if their category were any declared one."
    ]
    # every value outside is released as another value
    changed = release.summary.information_loss.confidential_columns["diag"]["share_changed"]
    assert changed >= 2 / len(frame)
    public = json.dumps(release.summary.public_dict())
    assert "outside" not in public and "HIV" not in public and "measles" not in public


def test_codes_read_as_numbers_match_their_declared_text() -> None:
    """A code column read as floats (1.0, 2.0 with a gap) matches the categories "1", "2"."""
    frame = patients("cold").assign(code=[1.0, 2.0, None, 2.0] * 5)
    config = laplace_params(
        ("age", "sex"), ("code",), k=5, types={"code": "nominal"}, categories={"code": "1|2|3"}
    )
    release = anonymize(frame, config.replace(seed=2))
    assert not [w for w in release.summary.warnings if "outside" in w]
    assert set(release.table["code"].dropna()) <= {"1", "2", "3"}
    assert release.table["code"].isna().sum() == 5


# --- F5: missing values ---------------------------------------------------------------------


def test_missing_values_stay_missing_and_are_counted_in_the_review_record_only() -> None:
    frame = patients("cold").assign(income=np.arange(20) * 1000.0)
    frame.loc[[2, 5, 9], "income"] = np.nan
    frame.loc[[4], "diag"] = None
    config = laplace_params(
        ("age", "sex"),
        ("diag", "income"),
        k=5,
        categories={"diag": ("cold", "flu")},
        bounds={"income": (0, 100_000)},
        seed=8,
    )
    release = anonymize(frame, config)
    assert release.table["income"].isna().sum() == 3 and release.table["diag"].isna().sum() == 1
    warnings = release.summary.warnings
    assert (
        "'income': 3 values are missing and are released missing; whether a value is missing "
        "is not covered by ε." in warnings
    )
    assert (
        "'diag': 1 value is missing and is released missing; whether a value is missing is "
        "not covered by ε." in warnings
    )
    review = json.dumps(release.summary.to_dict(), ensure_ascii=False)
    public = json.dumps(release.summary.public_dict(), ensure_ascii=False)
    assert "3 values are missing" in review and "values are missing" not in public


def test_the_missing_sentence_is_translated() -> None:
    english = missing_assumption()
    assert "is not covered by ε" in english and "missing" in english
    for code, word in (("es", "ε"), ("fr", "ε")):
        with use_language(code):
            translated = missing_assumption()
        assert translated != english and word in translated


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_the_published_guarantee_says_missingness_is_not_covered(lang) -> None:
    """F5: the ε statement's assumption, in the published metadata, in each language."""
    frame = patients("cold").assign(income=np.arange(20) * 1000.0)
    frame.loc[[2], "income"] = np.nan
    config = laplace_params(
        ("age", "sex"), ("diag", "income"), k=5, categories={"diag": ("cold", "flu")},
        bounds={"income": (0, 100_000)}, seed=8,
    )  # fmt: skip
    with use_language(lang):
        release = anonymize(frame, config)
        sentence = missing_assumption()
        plan_guarantees = plan(frame, config).guarantees
    published = release.summary.public_dict()["guarantees"]
    # the ε statement (the first after k-anonymity), as published and as planned
    assert sentence in published[1]["assumption"]
    assert sentence in plan_guarantees[1].assumption
