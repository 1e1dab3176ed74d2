"""Spanish and French: the translation files are complete, the shipped .qm files are what
lrelease makes of them, the app speaks the chosen language, and no page overflows in it."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QLocale
from PySide6.QtGui import QImage

from engine.i18n import TRANSLATED
from gui import i18n, settings
from tests.cli_support import screenshots

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "resources" / "translations"
LANGUAGES = TRANSLATED  # the engine's one declared list, but English
#: what pyside6-lupdate scans: the app, the engine's plain-words templates, the labels and
#: help texts of the parameters' declared fields, and what a chooser shows of each mechanism
SOURCES = [
    ROOT / "gui",
    ROOT / "engine" / "release" / "model" / "words.py",
    ROOT / "engine" / "params.py",
    ROOT / "engine" / "mechanisms",
    ROOT / "engine" / "io" / "formats.py",
]


def qt_tool(name: str) -> str:
    """pyside6-lupdate / pyside6-lrelease, installed with PySide6-Essentials beside Python."""
    found = shutil.which(f"pyside6-{name}", path=str(Path(sys.executable).parent)) or shutil.which(
        f"pyside6-{name}"
    )
    assert found, f"pyside6-{name} is not installed (PySide6-Essentials ships it)"
    return found


def messages(ts: Path) -> list[tuple[str, str, str, str]]:
    """(context, source, translation, type) of every message of a .ts file."""
    out = []
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            assert translation is not None
            out.append(
                (
                    name,
                    message.findtext("source") or "",
                    translation.text or "",
                    translation.get("type", ""),
                )
            )
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_string_is_left_untranslated(lang: str, tmp_path: Path) -> None:
    """lupdate over the sources finds nothing new, nothing gone and nothing unfinished."""
    ts = tmp_path / f"tclose_{lang}.ts"
    shutil.copy2(TRANSLATIONS / ts.name, ts)
    run = subprocess.run(
        [
            qt_tool("lupdate"),
            "-extensions",
            "py",
            "-no-obsolete",
            "-locations",
            "none",
            *map(str, SOURCES),
            "-ts",
            str(ts),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    found = messages(ts)
    assert len(found) > 350
    untranslated = [(c, s) for c, s, t, kind in found if kind or not t.strip()]
    assert not untranslated, f"{len(untranslated)} strings need a translation: {untranslated[:5]}"
    assert found == messages(TRANSLATIONS / ts.name), "run pyside6-lupdate and translate"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_placeholders_tags_and_one_accelerator(lang: str) -> None:
    for context, source, translation, _ in messages(TRANSLATIONS / f"tclose_{lang}.ts"):

        def fields(text: str) -> list[str]:
            return sorted(re.findall(r"\{[a-z_]*\}", text))

        def tags(text: str) -> list[str]:
            return sorted(re.findall(r"</?[a-z]+>", text))

        where = f"{context}: {source!r} → {translation!r}"
        assert fields(source) == fields(translation), where
        assert tags(source) == tags(translation), where
        assert source.count("&") == translation.count("&"), where


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_shipped_qm_is_what_lrelease_makes(lang: str, tmp_path: Path) -> None:
    qm = tmp_path / f"tclose_{lang}.qm"
    run = subprocess.run(
        [qt_tool("lrelease"), str(TRANSLATIONS / f"tclose_{lang}.ts"), "-qm", str(qm)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    shipped = TRANSLATIONS / qm.name
    assert shipped.read_bytes() == qm.read_bytes(), "run pyside6-lrelease on the .ts files"


def test_the_app_speaks_spanish_and_french(qtbot) -> None:
    from gui.wizard import MainWindow

    app = QCoreApplication.instance()
    try:
        for lang, title, role, noise in (
            ("es", "1. Importar", "cuasi-identificador", "&Ruido: ε-privacidad diferencial"),
            (
                "fr",
                "1. Importer",
                "quasi-identifiant",
                "B&ruit\xa0: ε-confidentialité différentielle",
            ),
        ):
            assert i18n.install(app, lang) == lang and i18n.current_language() == lang
            window = MainWindow()
            qtbot.addWidget(window)
            assert window.wizard.import_page.title() == title
            from engine import Role
            from gui.state import role_label

            assert role_label(Role.QI) == role
            # a mechanism's choice, declared by the engine (context "mechanisms")
            assert window.wizard.privacy_page.mechanism_buttons["laplace"].text() == noise
            # Qt's own buttons follow too (qtbase translations)
            assert window.wizard.buttonText(window.wizard.WizardButton.NextButton) != "&Next >"
            # the engine's plain words, through the app's translation
            assert QCoreApplication.translate(
                "words", "The {groups} groups hold at least {k} people each."
            ) != ("The {groups} groups hold at least {k} people each.")
    finally:
        i18n.install(app, "en")
    assert i18n.current_language() == "en"
    assert MainWindow().wizard.import_page.title() == "1. Import"


def test_the_language_is_the_flag_then_the_setting_then_the_system(monkeypatch) -> None:
    assert i18n.choose_language("fr") == "fr"
    settings.set_language("es")
    assert i18n.choose_language(None) == "es"
    settings.set_language("")
    monkeypatch.setattr(QLocale, "system", lambda: QLocale("fr_CA"))
    assert i18n.choose_language(None) == "fr"
    monkeypatch.setattr(QLocale, "system", lambda: QLocale("de_DE"))
    assert i18n.choose_language(None) == "en"


def test_the_settings_dialog_keeps_the_language_and_scheme(qtbot) -> None:
    from gui.settings_dialog import SettingsDialog

    dialog = SettingsDialog()
    qtbot.addWidget(dialog)
    dialog.language.setCurrentIndex(dialog.language.findData("fr"))
    dialog.scheme.setCurrentIndex(dialog.scheme.findData("dark"))
    dialog.accept()
    assert settings.language() == "fr" and settings.color_scheme() == "dark"
    again = SettingsDialog()
    qtbot.addWidget(again)
    assert again.language.currentData() == "fr" and again.scheme.currentData() == "dark"


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "scheme"), [("es", "light"), ("fr", "dark")])
def test_every_page_fits_the_window_in_each_language(lang: str, scheme: str, tmp_path) -> None:
    """``--screenshots --lang … --color-scheme …`` walks every page at 1100 × 760: a label too
    long for its page would widen the window (the walk's pictures would not be 1100 wide)."""
    out = tmp_path / "shots"
    run = screenshots(out, "--lang", lang, "--color-scheme", scheme)
    assert run.returncode == 0, run.stderr[-3000:]
    pages = sorted(out.glob("[0-5]*.png"))
    assert len(pages) >= 10
    for page in pages:
        image = QImage(str(page))
        assert (image.width(), image.height()) == (1100, 760), f"{page.name} overflows"
    corner = QImage(str(out / "1-import.png")).pixelColor(550, 300)
    assert (corner.lightness() < 128) == (scheme == "dark")
