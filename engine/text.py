"""Numbers and standard sentences as people read them, the same on every page.

The command line, the report, the xlsx About sheet and the GUI all format through these
functions, so a loss reads "12.3 %" and an income "11,160" wherever it appears.
"""

from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any


def number(value: Any, digits: int = 4) -> str:
    """A number for people: thousands separators, ``digits`` significant digits, ∞ for inf.

    Whole numbers print in full ("11,160"); others with ``digits`` significant digits and no
    exponent unless they are very small or very large.  None and NaN print as "—".
    """
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Integral):
        return f"{int(value):,}"
    if not isinstance(value, Real):
        return str(value)
    v = float(value)
    if math.isnan(v):
        return "—"
    if math.isinf(v):
        return "∞" if v > 0 else "−∞"
    if v.is_integer() and abs(v) < 1e15:
        return f"{int(v):,}"
    if 1e-3 <= abs(v) < 1e15:
        text = f"{v:,.{digits}g}"
        if "e" not in text:
            return text
        return f"{v:,.{max(digits - len(str(int(abs(v)))), 0)}f}"
    return f"{v:.{digits}g}"


def percent(share: float | None) -> str:
    """A share in [0, 1] as a percentage with 3 significant digits ("12.3 %", "0.25 %")."""
    if share is None or (isinstance(share, float) and math.isnan(share)):
        return "—"
    pct = 100.0 * float(share)
    if pct == 0:
        return "0 %"
    if math.isinf(pct):
        return "∞ %"
    text = f"{pct:.3g}"
    if "e" in text:
        text = f"{pct:.2e}"
    return f"{text} %"


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


__all__ = ["number", "percent", "seed_text"]
