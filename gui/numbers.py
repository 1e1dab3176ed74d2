"""Numbers in the reader's conventions: "2,5" and "1.792.000" for a Spanish reader.

The app's language decides its number conventions (:func:`gui.i18n.install` makes the
language's :class:`QLocale` the default): a decimal comma in Spanish and French, a point in
English; thousands grouped by "." in Spanish, by a narrow space in French, by "," in English.
Qt takes the conventions from the Unicode CLDR, as Babel does, so the engine can later write
its report and About sheet with ``babel.numbers`` for the same language code
(:func:`gui.i18n.locale_name`) and print the same digits the same way.

Three kinds of numbers, three functions:

* :func:`number` and :func:`percent` show a computed figure: the same digits as
  :mod:`engine.text` chooses (its rounding is the one policy), written the reader's way.
* :func:`exact` shows a value the user gave (a parameter): every digit it has, never
  rounded, so that reading it back (:func:`parse`) gives the same value.
* :func:`parse` reads what a user typed: the local decimal mark, and the English one too.

What is written to files (the release, its JSON metadata, the project) never goes through
here: files keep machine-readable numbers.
"""

from __future__ import annotations

import math
import re
from numbers import Integral
from typing import Any

from PySide6.QtCore import QLocale

from engine import text as engine_text
from engine.i18n import SOURCE
from engine.i18n import language as engine_language

#: a number as :func:`engine.text.number` writes it: "1,792", "-0.25", "12.35"
_ENGLISH = re.compile(r"^(?P<sign>[-−]?)(?P<int>\d{1,3}(?:,\d{3})*|\d+)(?:\.(?P<frac>\d+))?$")
#: the spaces a reader may type between groups of digits (plain, no-break, narrow no-break)
_SPACES = re.compile(r"[\s\u00a0\u202f]")
_SHORTEST = QLocale.FloatingPointPrecisionOption.FloatingPointShortest
#: beyond these magnitudes an exact value is written with an exponent (1e+150)
_FIXED_RANGE = (1e-6, 1e15)


def reader_locale() -> QLocale:
    """The locale numbers are shown in: the app's default (set from its language).

    A process that never chose a language (a bare "C" locale) reads numbers as English.
    """
    locale = QLocale()
    if locale.language() == QLocale.Language.C:
        return QLocale("en_US")
    return locale


def _is_english(locale: QLocale) -> bool:
    return locale.decimalPoint() == "." and locale.groupSeparator() == ","


def _already_local() -> bool:
    """Whether the engine speaks the app's language here, so that what it wrote is already
    in the reader's conventions ("1,386" in Spanish is one point three): rewriting it as an
    English figure would read its decimal comma as a thousands separator."""
    return engine_language() != SOURCE


def localize(text: str, locale: QLocale | None = None) -> str:
    """A number written by :mod:`engine.text` ("1,792.5", "12.3 %") in the reader's way.

    Anything else (a word, a label, a range "20,000–40,000" that is a released value) is
    returned as it is: only a whole string that is one number is rewritten.
    """
    locale = locale or reader_locale()
    if _is_english(locale) or _already_local():
        return text
    if text.endswith(" %"):
        inner = localize(text[:-2], locale)
        return text if inner == text[:-2] and _ENGLISH.match(inner) else f"{inner}\u00a0%"
    match = _ENGLISH.match(text)
    if match is None:
        return text
    digits = match["int"].replace(",", "")
    negative = bool(match["sign"])
    if match["frac"] is None:
        value = int(digits)
        shown = _whole(value, locale) if abs(value) < 2**63 else digits
    else:
        decimals = len(match["frac"])
        shown = locale.toString(float(f"{digits}.{match['frac']}"), "f", decimals)
    return ("−" if match["sign"] == "−" else "-") + shown if negative else shown


#: a number inside a text, as :mod:`engine.text` writes it ("1,792", "93.5", "0.968")
_TOKEN = re.compile(r"(?<![\w.,])(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d+)(?![\w]|[.,]\d)")


def localize_figures(text: str, locale: QLocale | None = None) -> str:
    """Every figure inside ``text`` ("90 (22.5 %)", "0.038 → 0.036") in the reader's way.

    For texts that are figures with a few signs around them (the engine's risk and utility
    values); a sentence keeps its own numbers in its own language's conventions.
    """
    locale = locale or reader_locale()
    if _is_english(locale) or _already_local():
        return text
    out = _TOKEN.sub(lambda m: localize(m.group(0), locale), text)
    return out.replace(" %", "\u00a0%")


def _whole(value: int, locale: QLocale) -> str:
    return locale.toString(int(value)) if abs(value) < 2**63 else str(value)


def number(value: Any, digits: int = 4, locale: QLocale | None = None) -> str:
    """A figure for people, rounded as :func:`engine.text.number` rounds it, in the reader's
    conventions ("11.160" or "11 160" or "11,160"; "—" for none, "∞" for infinity)."""
    return localize(engine_text.number(value, digits), locale)


def percent(share: float | None, locale: QLocale | None = None) -> str:
    """A share in [0, 1] as a percentage with 3 significant digits ("12,3 %")."""
    return localize(engine_text.percent(share), locale)


def exact(value: float | int, locale: QLocale | None = None, *, grouping: bool = True) -> str:
    """``value`` with every digit it has, in the reader's conventions.

    The shortest decimal text that reads back as the same number: 2.3456 → "2,3456",
    99999.875 → "99.999,875", 0.1 → "0,1"; whole numbers in full (2000000 → "2.000.000").
    Very large or small values take an exponent ("1e+150") rather than hundreds of digits.
    """
    locale = QLocale(locale or reader_locale())
    if not grouping:
        locale.setNumberOptions(locale.numberOptions() | QLocale.NumberOption.OmitGroupSeparator)
    if isinstance(value, bool):
        raise TypeError("a flag is not a number")
    if isinstance(value, Integral):
        return _whole(int(value), locale) if grouping else str(int(value))
    v = float(value)
    if not math.isfinite(v):
        return "∞" if v > 0 else "−∞" if v < 0 else "—"
    if v == 0 or _FIXED_RANGE[0] <= abs(v) < _FIXED_RANGE[1]:
        return locale.toString(v, "f", _SHORTEST)
    return locale.toString(v, "g", _SHORTEST)


def parse(text: str, locale: QLocale | None = None) -> float:
    """The number a user typed, in the reader's conventions or the English ones.

    "2,5" and "2.5" are both 2.5 for a Spanish reader; "1.234.567" is 1234567 and so is
    "1 234 567".  A lone separator that stands before exactly three digits in groups
    ("1.500" in Spanish, "1,500" in English) is read as a thousands separator, as the reader's
    own convention would; otherwise as a decimal mark.  Raises ValueError when the text is
    not a number.
    """
    locale = locale or reader_locale()
    raw = _SPACES.sub("", text.strip()).replace("−", "-")
    if not raw:
        raise ValueError("empty")
    value, ok = locale.toDouble(raw)
    if ok:
        return value
    point = locale.decimalPoint()
    body = raw.lstrip("+-")
    marks = [m for m in (",", ".") if m in body]
    if len(marks) == 2:  # "1.234,5" or "1,234.5": the last mark is the decimal one
        decimal = max(marks, key=body.rfind)
        grouping = "," if decimal == "." else "."
        cleaned = raw.replace(grouping, "").replace(decimal, ".")
    elif marks and body.count(marks[0]) > 1:  # "1.234.567": grouping only
        if not re.fullmatch(rf"\d{{1,3}}(?:{re.escape(marks[0])}\d{{3}})+", body):
            raise ValueError(text)
        cleaned = raw.replace(marks[0], "")
    elif marks:
        mark = marks[0]
        grouped = re.fullmatch(rf"\d{{1,3}}{re.escape(mark)}\d{{3}}", body)
        # "1.500" to a reader whose decimal mark is "," is fifteen hundred
        cleaned = raw.replace(mark, "") if mark != point and grouped else raw.replace(mark, ".")
    else:
        cleaned = raw
    try:
        value = float(cleaned)
    except ValueError:
        raise ValueError(text) from None
    return value


def parse_whole(text: str, locale: QLocale | None = None) -> int:
    """A whole number a user typed ("2.000.000", "2 000 000", "2000000"), exactly.

    Read digit by digit (never through a float), so that a 20-digit seed or k stays exact.
    Raises ValueError when the text is not a whole number.
    """
    locale = locale or reader_locale()
    raw = _SPACES.sub("", text.strip()).replace("−", "-")
    sign = -1 if raw.startswith("-") else 1
    body = raw.lstrip("+-")
    group = locale.groupSeparator()
    separators = {group, ",", "."} - {locale.decimalPoint()}
    for sep in separators:
        if sep and sep in body:
            if not re.fullmatch(rf"\d{{1,3}}(?:{re.escape(sep)}\d{{3}})+", body):
                raise ValueError(text)
            body = body.replace(sep, "")
    if not body.isdigit():
        # "2,0" or "2e6": a whole number written as a real one
        value = parse(text, locale)
        if not value.is_integer():
            raise ValueError(text)
        return int(value)
    return sign * int(body)


def words(template: str, values: dict[str, str], context: str = "words") -> str:
    """A sentence of the engine's plain words (:class:`engine.Phrase`) in the
    app's language: the template through Qt's translation, each value that is a number
    written in the reader's conventions (names and labels stay as they are)."""
    from PySide6.QtCore import QCoreApplication

    translated = QCoreApplication.translate(context, template)
    return translated.format(**{name: localize(str(value)) for name, value in values.items()})


__all__ = [
    "exact",
    "localize",
    "localize_figures",
    "number",
    "parse",
    "parse_whole",
    "percent",
    "reader_locale",
    "words",
]
