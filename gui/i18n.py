"""The app's languages: English (the source), Spanish and French.

Every user-visible string of ``gui/`` is marked for translation (``self.tr`` in a class,
``translate("Context", …)`` elsewhere, ``QT_TRANSLATE_NOOP`` for tables of labels).  The
translations live in ``resources/translations/tclose_es.ts`` and ``tclose_fr.ts`` (edited with
Qt Linguist) and ship compiled as ``.qm`` beside them; ``tests/test_gui_i18n.py`` checks that
``pyside6-lupdate`` finds no string without a translation and that each ``.qm`` is what
``pyside6-lrelease`` makes of its ``.ts``.  Shipping the ``.qm`` keeps the wheel and the
installers free of a build step that needs Qt's tools.

The language is, in order: ``tclose-gui --lang``, the choice in the settings dialog, the
system's language when it is one of ours, else English.  :func:`install` passes it to the
engine too (:mod:`engine.i18n`), whose words (verification, guarantees, plots, tables) come
from its own gettext catalogues; the worker threads and the engine process carry it along.

The language also sets how numbers read (:func:`number_locale`): the app's default
:class:`QLocale` becomes the language's, so that every number the app shows and every spin
box follows the reader's conventions (:mod:`gui.numbers`).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

import resources
from engine import i18n as engine_i18n
from engine.io.formats import FileFormat

#: language code → its name in that language (what the settings dialog lists): the engine's
#: one declared list
LANGUAGES = engine_i18n.LANGUAGES
#: the language of the source strings
SOURCE = engine_i18n.SOURCE

translate = QCoreApplication.translate

_installed: list[QTranslator] = []


def translation_file(code: str) -> str:
    """The compiled translation of ``code`` shipped with the app."""
    return str(resources.path(f"translations/tclose_{code}.qm"))


def system_language() -> str:
    """The first of the user's preferred languages that tclose speaks ("en" if none)."""
    for name in QLocale.system().uiLanguages():
        code = name.replace("_", "-").split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return SOURCE


def choose_language(requested: str | None = None) -> str:
    """The language to show: ``requested``, else the saved choice, else the system's."""
    from gui import settings

    for code in (requested, settings.language()):
        if code in LANGUAGES:
            return str(code)
    return system_language()


def number_locale(code: str) -> QLocale:
    """The conventions numbers are written in for a reader of ``code``.

    The system's own locale when it is of that language (a Mexican Spanish system keeps its
    decimal point, a Swiss French one its apostrophes), else the language's main one
    (es_ES, fr_FR, en_US).  These are CLDR's conventions, the ones Babel knows by
    :func:`locale_name`.
    """
    wanted = QLocale(code)
    system = QLocale.system()
    return system if system.language() == wanted.language() else wanted


def locale_name() -> str:
    """The name of the locale numbers are shown in ("es_ES"): what the engine would hand to
    ``babel.numbers`` to write the same numbers the same way."""
    from gui.numbers import reader_locale

    return reader_locale().name()


def install(app: QCoreApplication, code: str) -> str:
    """Load the translations of ``code`` into ``app`` (replacing any loaded before).

    Qt's own strings (the wizard's Back and Next, Yes and Cancel of a message box) come from
    the ``qtbase`` translations that PySide6 ships; numbers follow the language's
    conventions (:func:`number_locale`) in widgets made from now on.  Returns the language
    now in use.
    """
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    if code not in LANGUAGES or code == SOURCE:
        QLocale.setDefault(number_locale(SOURCE))
        return engine_i18n.set_language(SOURCE)
    ours = QTranslator(app)
    if not ours.load(translation_file(code)):
        QLocale.setDefault(number_locale(SOURCE))
        return engine_i18n.set_language(SOURCE)
    QLocale.setDefault(number_locale(code))
    qt = QTranslator(app)
    if qt.load(f"qtbase_{code}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        _installed.append(qt)
    app.installTranslator(ours)
    _installed.append(ours)
    return engine_i18n.set_language(code)


def current_language() -> str:
    """The language installed by :func:`install` ("en" when none)."""
    return SOURCE if not _installed else _installed[-1].language().split("_")[0] or SOURCE


def format_label(fmt: FileFormat) -> str:
    """What the app calls a file format: the format table's label (``engine.io.formats``,
    marked in the context ``formats``) in the user's language."""
    return QCoreApplication.translate("formats", fmt.label)
