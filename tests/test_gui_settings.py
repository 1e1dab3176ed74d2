"""The app's settings are declared fields: a default, a check, a schema version."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QByteArray

from gui import settings

pytestmark = pytest.mark.gui


def test_every_setting_says_what_it_is_and_its_default_passes_its_check() -> None:
    names = [s.name for s in settings.SETTINGS]
    assert len(set(names)) == len(names)
    for setting in settings.SETTINGS:
        assert setting.title and setting.description, setting.name
        if setting.default is not None:
            assert setting.validate(setting.default) == setting.default


def test_the_languages_a_setting_takes_are_those_the_app_ships() -> None:
    from gui.i18n import LANGUAGES

    assert tuple(LANGUAGES) == settings.LANGUAGE_CODES


def test_a_stored_value_its_check_refuses_reads_as_the_default(tmp_path) -> None:
    store = settings.settings()
    store.setValue("language", "klingon")
    store.setValue("color_scheme", 3)
    store.setValue("geometry", "not bytes")
    assert settings.language() == "" and settings.color_scheme() == ""
    assert settings.geometry() is None
    with pytest.raises(ValueError):
        settings.set_language("klingon")
    assert settings.settings().value("language") == "klingon"  # nothing stored


def test_values_come_back_as_stored(tmp_path) -> None:
    settings.set_language("es")
    settings.set_color_scheme("dark")
    settings.save_geometry(QByteArray(b"\x01\x02"))
    data = tmp_path / "data.csv"
    data.write_text("a\n1\n", encoding="utf-8")
    settings.add_recent_file(data)
    assert settings.language() == "es" and settings.color_scheme() == "dark"
    assert bytes(settings.geometry()) == b"\x01\x02"
    assert settings.recent_files() == [data.resolve()]
    assert settings.last_folder() == str(data.resolve().parent)
    assert int(settings.settings().value(settings.VERSION_KEY)) == settings.SCHEMA_VERSION


def test_migrate_drops_what_this_version_cannot_read_and_records_its_version() -> None:
    store = settings.settings()
    store.setValue("language", "fr")
    store.setValue("color_scheme", "purple")
    assert settings.migrate() == 0
    assert store.value("language") == "fr" and store.value("color_scheme") is None
    assert int(store.value(settings.VERSION_KEY)) == settings.SCHEMA_VERSION
    assert settings.migrate() == settings.SCHEMA_VERSION
