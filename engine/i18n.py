"""The engine's languages: English (the source), Spanish and French, through gettext.

Every sentence the engine writes for people (verification lines, warnings, fixes, the
disclosure-risk and analysis tables, guarantees, plot titles and axes, the report and the
About sheet) is marked with :func:`_` (or :func:`ngettext` when it counts something, or
:func:`N_` in a table built at import time and translated when it is shown).  Babel extracts
the marked strings (``pybabel extract -F engine/locale/babel.cfg``); the catalogues live in
``engine/locale/{es,fr}/LC_MESSAGES/tclose.po`` and ship compiled as ``tclose.mo`` beside them
(``tests/test_i18n.py`` checks that every message is translated and that each ``.mo`` is what
Babel compiles from its ``.po``).  Nothing here imports Qt: the desktop app passes its chosen
language in, exactly as the command line's ``--lang`` does.

The language is context-local, not a module global: :func:`use_language` sets it for a
``with`` block (a thread or an asyncio task starts in English unless it sets its own), so a
test, a worker thread or a second report in another language never leaks into another.
Release files keep machine-readable numbers; only the words and numbers *for people* follow
the language (decimal comma, thousands separator, per cent sign as each locale writes them).
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

#: the languages tclose speaks, declared once: (code, its name in its own words, the Babel
#: locale its numbers follow).  The app (its language setting, ``--lang``, its .qm files), the
#: command line's ``--lang``, the engine's catalogues and the tests all read this list; a new
#: language is one line here and its translations ("Adding a language", docs/development.md)
DECLARED_LANGUAGES: tuple[tuple[str, str, str], ...] = (
    ("en", "English", "en_US"),
    ("es", "Español", "es_ES"),
    ("fr", "Français", "fr_FR"),
)
#: code → the language's name in its own words (what the app's settings dialog lists)
LANGUAGES: dict[str, str] = {code: name for code, name, _locale in DECLARED_LANGUAGES}
#: the language of the source strings
SOURCE = "en"
#: the languages with translations of their own (catalogues, .ts files): all but the source
TRANSLATED: tuple[str, ...] = tuple(code for code in LANGUAGES if code != SOURCE)
_LOCALES = {code: locale for code, _name, locale in DECLARED_LANGUAGES}
#: the gettext domain of the catalogues
DOMAIN = "tclose"
#: where the catalogues live (package data)
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

_language: ContextVar[str] = ContextVar("tclose_language", default=SOURCE)


def normalize(code: str | None) -> str:
    """``"es_ES.UTF-8"``, ``"fr-CA"``, ``"ES"`` → the engine language they name, else English."""
    if not code:
        return SOURCE
    base = code.replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    return base if base in LANGUAGES else SOURCE


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for (``LC_ALL``, ``LC_MESSAGES``, ``LANGUAGE``,
    ``LANG``, the first one set, as gettext reads them), else English."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE", "LANG"):
        value = env.get(name)
        if value:  # LANGUAGE may list several ("fr:en"): the first one decides
            return normalize(value.split(":")[0])
    return SOURCE


def language() -> str:
    """The language of the current context ("en" unless :func:`use_language` set another)."""
    return _language.get()


@contextmanager
def use_language(code: str | None) -> Iterator[str]:
    """Speak ``code`` (an unknown or empty one is English) inside the ``with`` block."""
    token = _language.set(normalize(code))
    try:
        yield _language.get()
    finally:
        _language.reset(token)


def set_language(code: str | None) -> str:
    """Speak ``code`` in the current context from now on (a program's entry point: the
    command line's ``main``, the app's start-up); returns the language now in use."""
    _language.set(normalize(code))
    return _language.get()


@cache
def translations(code: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``code`` (English and a missing catalogue: no translation)."""
    if code == SOURCE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)


def _(message: str) -> str:
    """``message`` in the current language (an empty one stays empty: gettext would answer
    with the catalogue's header)."""
    if not message:
        return message
    return translations(_language.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the current language."""
    return translations(_language.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same English in ``context``."""
    return translations(_language.get()).pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it (tables built at import time:
    translate each entry with :func:`_` when it is shown)."""
    return message


def locale_name() -> str:
    """The Babel locale of the current language ("en_US", "es_ES", "fr_FR")."""
    return _LOCALES[_language.get()]


__all__ = [
    "DECLARED_LANGUAGES",
    "LANGUAGES",
    "N_",
    "SOURCE",
    "TRANSLATED",
    "_",
    "language",
    "language_from_environment",
    "locale_name",
    "ngettext",
    "normalize",
    "pgettext",
    "set_language",
    "translations",
    "use_language",
]
