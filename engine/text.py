"""Numbers and standard sentences as people read them, the same on every page.

The command line, the report, the xlsx About sheet and the GUI all format through these
functions, so a loss reads "12.3 %" and an income "11,160" wherever it appears.
"""

from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _powers_of_ten(v: float, digits: int) -> str:
    """A very large or very small number as "5.16 × 10²¹" (never the "5.16e+21" of code)."""
    mantissa, exponent = f"{v:.{max(digits - 1, 0)}e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
    return f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


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
        return "yes" if value else "no"
    if isinstance(value, Integral):
        return f"{int(value):,}" if abs(int(value)) < 10**15 else _powers_of_ten(value, digits)
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
        return f"{int(v):,}"
    whole = len(str(int(abs(v)))) if abs(v) >= 1 else 0
    if whole >= digits:
        return f"{round(v):,}"
    # below 1, the zeros after the point (0.000123) do not count as digits
    places = digits - whole if abs(v) >= 1 else digits - 1 - math.floor(math.log10(abs(v)))
    text = f"{v:,.{places}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def percent(share: float | None) -> str:
    """A share as a percentage with 3 significant digits ("12.3 %", "0.25 %", "48,500 %").

    Shares below a thousandth of a percent read "< 0.001 %"; a share above 1 (a loss larger
    than the data's own variation) prints in full, never as "4.85e+04 %".
    """
    if share is None or (isinstance(share, float) and math.isnan(share)):
        return "—"
    pct = 100.0 * float(share)
    if pct == 0:
        return "0 %"
    if math.isinf(pct):
        return "∞ %" if pct > 0 else "−∞ %"
    if abs(pct) < 1e-3:
        return "< 0.001 %" if pct > 0 else "> −0.001 %"
    return f"{number(pct, 3)} %"


def loss(share: float | None) -> str:
    """An information loss (SSE/SST) as a percentage, a loss above 100 % explained.

    Above 100 % the released values lie farther from the true ones than the true values lie
    from their own mean: an analyst would do better with the column's mean alone.
    """
    text = percent(share)
    if share is not None and not math.isnan(share) and share > 1:
        text += (
            " (above 100 %: the released values are farther from the true ones than the "
            "true values are from their mean)"
        )
    return text


def seed_text(seed: int | None, *, noise: bool) -> str:
    """What the seed policy of a run means, for the summary, the report and the CLI."""
    if seed is None:
        if noise:
            return (
                "Noise drawn from fresh operating-system entropy through OpenDP; the release "
                "cannot be reproduced, by design."
            )
        return "Fresh randomness: the row order cannot be reproduced, by design."
    if noise:
        return (
            f"Noise drawn from seed {seed} so that the run can be reproduced for an audit. "
            "WARNING: this release is only as private as the seed is secret; anyone who knows "
            "the seed can subtract the noise."
        )
    return (
        f"Fixed seed {seed}: the run can be reproduced for an audit; keep the seed as "
        "confidential as the data."
    )


__all__ = ["loss", "number", "percent", "seed_text"]
