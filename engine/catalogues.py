"""The engine's translation catalogues: extract, update, compile (for maintainers).

``python -m engine.catalogues`` extracts every marked string of ``engine/`` with Babel (the
keywords of :mod:`engine.i18n`: ``_``, ``N_``, ``ngettext``, ``pgettext``, and the
``QT_TRANSLATE_NOOP`` templates of :mod:`engine.release.model.words`), merges them into
``engine/locale/{es,fr}/LC_MESSAGES/tclose.po`` (new messages arrive untranslated, gone ones
are dropped) and compiles each ``.po`` into the ``.mo`` the package ships.  Translate the new
entries in the ``.po`` files (Poedit or any text editor) and run it again.
``tests/test_i18n.py`` fails while a message is untranslated or a ``.mo`` is stale.

Babel's own ``pybabel compile`` would do the last step too, but it reads the ``{field}``
messages that contain a per cent sign as printf formats and complains; this module compiles
without that check (the test checks the ``{field}`` names instead).
"""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from engine.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, SOURCE

#: the source tree the messages come from
ENGINE_DIR = Path(__file__).resolve().parent
#: what marks a message (function name → which arguments hold it)
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "QT_TRANSLATE_NOOP": (2,)}
#: a fixed date in the headers, so that a catalogue changes only when its messages do
STAMP = datetime(2026, 11, 26, tzinfo=UTC)


def po_path(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(code: str) -> Path:
    return po_path(code).with_suffix(".mo")


def extract() -> Catalog:
    """Every marked message of the engine, as a template."""
    template = Catalog(domain=DOMAIN, project="tclose", creation_date=STAMP)
    for _file, _line, message, comments, context in extract_from_dir(
        ENGINE_DIR, method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        template.add(message, None, auto_comments=comments, context=context)
    return template


def read(code: str) -> Catalog:
    with po_path(code).open("rb") as f:
        return read_po(f, locale=code, domain=DOMAIN)


def compiled(code: str) -> bytes:
    """The ``.mo`` that the ``.po`` of ``code`` compiles to."""
    buffer = io.BytesIO()
    write_mo(buffer, read(code))
    return buffer.getvalue()


def update() -> dict[str, int]:
    """Merge the extracted messages into every ``.po`` and compile it; returns how many
    messages of each language still need a translation."""
    template = extract()
    untranslated = {}
    for code in sorted(set(LANGUAGES) - {SOURCE}):
        catalog = read(code)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        catalog.revision_date = STAMP
        for message in catalog:
            message.flags.discard("python-format")  # the messages use {fields}, not %
        with po_path(code).open("wb") as f:
            write_po(f, catalog, width=100, no_location=True, sort_output=True)
        mo_path(code).write_bytes(compiled(code))
        untranslated[code] = sum(
            1
            for m in read(code)
            if m.id and not (all(m.string) if isinstance(m.string, tuple) else m.string)
        )
    return untranslated


def main() -> int:
    for code, missing in update().items():
        print(f"{po_path(code)}: {missing} message(s) to translate")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
