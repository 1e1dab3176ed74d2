"""Every page of the wizard in Spanish and in French, on the bundled sample through to a
release and its export: the visible texts (labels, buttons, tabs, text browsers, table
headers, plot titles, axes and legends) hold at most 5 English words, and the numbers the
engine writes use the decimal comma.  ``tests/language_walk.py`` walks and counts; run it as
``python -m tests.language_walk es -v`` to see the words and where they are."""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QApplication

from engine.i18n import TRANSLATED, language
from tests.language_walk import english_words, walk

pytestmark = pytest.mark.gui

#: at most this many English words may remain on screen in a whole walk (the bar)
ALLOWED = 5


def test_the_counter_finds_english_and_spares_spanish_french_and_data() -> None:
    assert sum(english_words(["Verified: 80 classes, k = 5, t = 1.846."]).values()) == 1
    assert sum(english_words(["records per class", "the whole file"]).values()) == 5
    assert not english_words(["Verificado: 80 clases", "classes d'équivalence", "income, age"])
    assert not english_words(["Ekenstedt et al., IEEE Transactions on Information Forensics and "
                              "Security 2022", "/tmp/the sample/of records.xlsx"])  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_page_speaks_the_language(lang: str, qtbot, tmp_path) -> None:
    steps = walk(QApplication.instance(), lang, tmp_path)
    assert steps["exported"] == ["1"], "the walk reached the export"
    assert len(steps) >= 12 and all(steps[name] for name in steps)
    found = {name: english_words(texts) for name, texts in steps.items()}
    total = sum(sum(c.values()) for c in found.values())
    left = {name: dict(c) for name, c in found.items() if c}
    assert total <= ALLOWED, f"{total} English words on screen in {lang}: {left}"
    # the engine's words came in this language, with its numbers
    preview = " ".join(steps["4-preview"])
    verified = {"es": "Verificado:", "fr": "Vérifié"}[lang]
    assert verified in preview
    assert re.search(r"t = \d+,\d", preview), "t with the decimal comma"
    figures = " ".join(steps["4-preview-figures"])
    assert {"es": "registros por clase", "fr": "enregistrements par classe"}[lang] in figures
    assert language() == "en"  # the walk put the app (and the engine) back in English
