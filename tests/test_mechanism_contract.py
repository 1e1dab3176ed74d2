"""``check_mechanism``: every registered mechanism keeps the contract of a mechanism, checked
over the registry (the model is scikit-learn's ``check_estimator``), so that a mechanism
added to ``MECHANISMS`` is checked by being registered.

The contract is what "Adding a mechanism" in ``docs/development.md`` asks: its declarations
(``engine.mechanisms.base.DECLARED``) and, for a noise mechanism, its own column names, their
guarantee words and its draws (``NOISE_METHODS``); its fields are parameters; the texts a
chooser shows translated in the app's context ``mechanisms``, and its title and guarantee
words in the engine's catalogues; and the recipe names every piece.  A toy mechanism that
lacks a piece shows each check failing.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, ClassVar

import pytest

from engine.i18n import _, use_language
from engine.mechanisms import MECHANISMS, ColumnGuarantee, Laplace, Mechanism, registry
from engine.mechanisms.base import DECLARED, NOISE_METHODS, QT_TRANSLATE_NOOP, contract_gaps
from engine.params import Options, ReleaseParams

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("es", "fr")


def app_translations(lang: str) -> dict[str, str]:
    """The finished translations of the app's context ``mechanisms``, by English text."""
    ts = ROOT / "resources" / "translations" / f"tclose_{lang}.ts"
    out = {}
    for context in ET.parse(ts).getroot().iter("context"):
        if context.findtext("name") != "mechanisms":
            continue
        for message in context.iter("message"):
            translation = message.find("translation")
            if translation is not None and translation.text and not translation.get("type"):
                out[message.findtext("source") or ""] = translation.text
    return out


def recipe() -> str:
    """The section "Adding a mechanism" of docs/development.md."""
    text = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    start = text.index("### Adding a mechanism")
    return text[start : text.index("\n### ", start + 1)]


def noise_params(mechanism: type[Mechanism]) -> ReleaseParams:
    return ReleaseParams(
        qi=("a",), confidential=("c",), k=5, epsilon=1.0, mechanism=mechanism.name,
        bounds={"c": (0, 1)},
    )  # fmt: skip


def check_mechanism(mechanism: type[Mechanism]) -> list[str]:
    """What ``mechanism`` lacks of the contract, one phrase each ([] when it keeps it)."""
    gaps = contract_gaps(mechanism)
    if gaps:
        return gaps  # the rest reads what these declare
    stray = set(mechanism.fields) - set(ReleaseParams.CONSTRAINTS)
    if stray:
        gaps.append(f"fields that are no parameters: {sorted(stray)}")
    shown = [t for t in (mechanism.choice, mechanism.note, mechanism.tooltip) if t]
    declared = mechanism.column_guarantees()
    for lang in LANGUAGES:
        app = app_translations(lang)
        gaps += [
            f"{text!r} untranslated in {lang} (context mechanisms)"
            for text in shown
            if text not in app
        ]
        with use_language(lang):
            words = [_(mechanism.title)]
            translated = mechanism.column_guarantees()
        with use_language("en"):
            english = [mechanism.title]
        if words == english:
            gaps.append(f"title untranslated in {lang}")
        for column, said in translated.items():
            if said.what == declared[column].what:
                gaps.append(f"the guarantee words of {column!r} untranslated in {lang}")
    if mechanism.noise:
        params = noise_params(mechanism)
        used = {mechanism.column_mechanism(params, numeric) for numeric in (True, False)}
        if None in used or not used <= set(declared):
            gaps.append(
                f"column names without guarantee words: {sorted(map(str, used - set(declared)))}"
            )
        gaps += [
            f"guarantee {column!r} without what or source"
            for column, words in declared.items()
            if not (isinstance(words, ColumnGuarantee) and words.what and words.source)
        ]
    elif declared:
        gaps.append("guarantee words without noise (t-closeness has its own)")
    return gaps


@pytest.mark.parametrize("name", list(MECHANISMS))
def test_every_registered_mechanism_keeps_the_contract(name: str) -> None:
    assert check_mechanism(MECHANISMS[name]) == []


def test_the_recipe_names_every_piece_of_the_contract() -> None:
    text = recipe()
    pieces = (*DECLARED, *NOISE_METHODS, "note", "tooltip")
    missing = [p for p in pieces if not re.search(rf"`{p}[`( ]", text)]
    assert missing == []


class Toy(Mechanism):
    """A noise mechanism declared only here, with every piece but its draws and translations."""

    name: ClassVar[str] = "toy"
    title: ClassVar[str] = "toy noise"
    noise: ClassVar[bool] = True
    cluster: ClassVar[bool] = False
    choice: ClassVar[str] = QT_TRANSLATE_NOOP("mechanisms", "&Toy noise")

    @classmethod
    def validate(cls, params: Any) -> None:
        Laplace.validate(params)

    @classmethod
    def column_mechanism(cls, params: Any, numeric: bool) -> str | None:
        return "toy"

    @classmethod
    def column_guarantees(cls) -> dict[str, ColumnGuarantee]:
        return {"toy": ColumnGuarantee(what="toy noise on each value", source="Toy 2026")}


def test_a_mechanism_without_its_draws_is_refused_by_the_registry() -> None:
    assert check_mechanism(Toy) == [
        "draw_numbers: a noise mechanism's own",
        "draw_categories: a noise mechanism's own",
    ]
    with pytest.raises(TypeError, match="Toy lacks draw_numbers"):
        registry(Toy)


class Drawn(Toy):
    """The toy with its draws (Laplace's), its words still untranslated."""

    name: ClassVar[str] = "drawn"
    draw_numbers = Laplace.draw_numbers
    draw_categories = Laplace.draw_categories


def test_a_mechanism_with_untranslated_words_fails_the_check(monkeypatch) -> None:
    monkeypatch.setitem(MECHANISMS, Drawn.name, Drawn)
    monkeypatch.setitem(ReleaseParams.CONSTRAINTS, "mechanism", Options(values=tuple(MECHANISMS)))
    assert registry(Drawn) == {"drawn": Drawn}
    gaps = check_mechanism(Drawn)
    for lang in LANGUAGES:
        assert f"'&Toy noise' untranslated in {lang} (context mechanisms)" in gaps
        assert f"title untranslated in {lang}" in gaps
        assert f"the guarantee words of 'toy' untranslated in {lang}" in gaps
    assert not any("column names" in g for g in gaps)  # "toy" has its words


def test_a_piece_missing_or_mistyped_is_named() -> None:
    class Nameless(Mechanism):
        title: ClassVar[str] = "nameless"
        noise: ClassVar[bool] = False
        cluster: ClassVar[str] = "yes"  # type: ignore[assignment]
        choice: ClassVar[str] = "&Name&less"

    assert contract_gaps(Nameless) == [
        "name: a str of its own",
        "cluster: a bool of its own",
        "choice: at most one '&'",
    ]
