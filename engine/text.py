"""Numbers and standard sentences as people read them, the same on every page.

The command line, the report, the xlsx About sheet and the GUI all format through these
functions, so a loss reads "12.3 %" and an income "11,160" wherever it appears, and in the
reader's conventions when the context speaks another language (:mod:`engine.i18n`): "12,3 %"
and "11.160" in Spanish, "11 160" in French (Babel's locale data).  Release files never use
these functions: their numbers stay machine-readable.
"""

from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any

from engine.i18n import SOURCE, _, language, locale_name

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _powers_of_ten(v: float, digits: int) -> str:
    """A very large or very small number as "5.16 × 10²¹" (never the "5.16e+21" of code)."""
    mantissa, exponent = f"{v:.{max(digits - 1, 0)}e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
    if language() != SOURCE:
        mantissa = mantissa.replace(".", _decimal_symbol())
    return f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def _decimal_symbol() -> str:
    from babel.numbers import get_decimal_symbol

    return get_decimal_symbol(locale_name())


def _fixed(v: float, places: int) -> str:
    """``v`` with ``places`` decimals and the thousands separator of the current language."""
    if language() == SOURCE:
        return f"{v:,.{places}f}"
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * places if places > 0 else "")
    return format_decimal(v, format=pattern, locale=locale_name(), decimal_quantization=True)


def _trim(text: str) -> str:
    """ "2.500" → "2.5", "3.000" → "3" (in the current language's decimal mark)."""
    mark = "." if language() == SOURCE else _decimal_symbol()
    return text.rstrip("0").rstrip(mark) if mark in text else text


def number(value: Any, digits: int = 4) -> str:
    """A number for people: thousands separators, ``digits`` significant digits, ∞ for inf.

    Whole numbers print in full ("11,160"); others with ``digits`` significant digits
    ("0.0523", "22,031"); only numbers beyond a million billion, or below a millionth, use
    powers of ten ("5.16 × 10²¹"), never an exponent like "2.203e+04".  None and NaN print
    as "—".
    """
    if value is None:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, Integral):
        return _fixed(int(value), 0) if abs(int(value)) < 10**15 else _powers_of_ten(value, digits)
    if not isinstance(value, Real):
        return str(value)
    v = float(value)
    if math.isnan(v):
        return "—"
    if math.isinf(v):
        return "∞" if v > 0 else "−∞"
    if v == 0:
        return "0"
    if abs(v) >= 1e15 or abs(v) < 1e-6:
        return _powers_of_ten(v, digits)
    if v.is_integer():
        return _fixed(int(v), 0)
    whole = len(str(int(abs(v)))) if abs(v) >= 1 else 0
    if whole >= digits:
        return _fixed(round(v), 0)
    # below 1, the zeros after the point (0.000123) do not count as digits
    places = digits - whole if abs(v) >= 1 else digits - 1 - math.floor(math.log10(abs(v)))
    return _trim(_fixed(v, places))


def fixed(value: float, places: int) -> str:
    """A number with exactly ``places`` decimals ("2.000", "2,000" in Spanish): for
    parameters a reader compares side by side, like t."""
    return _fixed(float(value), places)


def _per_cent(text: str) -> str:
    """ "12.3" → "12.3 %" (a no-break space before the sign in Spanish and French)."""
    return f"{text} %" if language() == SOURCE else f"{text}\u00a0%"


def percent(share: float | None) -> str:
    """A share as a percentage with 3 significant digits ("12.3 %", "0.25 %", "48,500 %").

    Shares below a thousandth of a percent read "< 0.001 %"; a share above 1 (a loss larger
    than the data's own variation) prints in full, never as "4.85e+04 %".
    """
    if share is None or (isinstance(share, float) and math.isnan(share)):
        return "—"
    pct = 100.0 * float(share)
    if pct == 0:
        return _per_cent("0")
    if math.isinf(pct):
        return _per_cent("∞" if pct > 0 else "−∞")
    if abs(pct) < 1e-3:
        return "< " + _per_cent(number(0.001)) if pct > 0 else "> −" + _per_cent(number(0.001))
    return _per_cent(number(pct, 3))


def percent_fixed(share: float, places: int = 1) -> str:
    """A share as a percentage with a fixed number of decimals ("12.5 %", "12,5 %")."""
    return _per_cent(_fixed(100.0 * float(share), places))


def loss(share: float | None) -> str:
    """An information loss (SSE/SST) as a percentage, a loss above 100 % explained.

    Above 100 % the released values lie farther from the true ones than the true values lie
    from their own mean: an analyst would do better with the column's mean alone.
    """
    text = percent(share)
    if share is not None and not math.isnan(share) and share > 1:
        text += " " + _(
            "(above 100 %: the released values are farther from the true ones than the "
            "true values are from their mean)"
        )
    return text


def seed_text(seed: int | None, *, noise: bool) -> str:
    """What the seed policy of a run means, for the summary, the report and the CLI."""
    if seed is None:
        if noise:
            return _(
                "Noise drawn from fresh operating-system entropy through OpenDP; the release "
                "cannot be reproduced, by design."
            )
        return _("Fresh randomness: the row order cannot be reproduced, by design.")
    if noise:
        return _(
            "Noise drawn from seed {seed} so that the run can be reproduced for an audit. "
            "WARNING: this release is only as private as the seed is secret; anyone who knows "
            "the seed can subtract the noise."
        ).format(seed=seed)
    return _(
        "Fixed seed {seed}: the run can be reproduced for an audit; keep the seed as "
        "confidential as the data."
    ).format(seed=seed)


__all__ = ["fixed", "loss", "number", "percent", "percent_fixed", "seed_text"]
