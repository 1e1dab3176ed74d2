"""The rule the search of b follows, written out for the tests that check its choice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.release import QI_TOLERANCE


def eligible(choices: Sequence[Any]) -> list[Any]:
    """The b the search may choose at a weight below 1: within QI_TOLERANCE of the paper's
    count's QI loss on the sample (the first choice), with no larger regression error."""
    ref = choices[0]
    return [
        c
        for c in choices
        if c.score is not None
        and c.qi_loss_sample <= (1 + QI_TOLERANCE) * ref.qi_loss_sample
        and (
            c.coefficient_error is None
            or ref.coefficient_error is None
            or c.coefficient_error <= ref.coefficient_error + 1e-12
        )
    ]
