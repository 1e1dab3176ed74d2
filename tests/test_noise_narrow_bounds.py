"""Bounds narrower than one unit of a whole-number column (private bounds can come out so)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from engine import anonymize
from tests.factories import laplace_params


def test_whole_numbers_under_bounds_narrower_than_one_unit() -> None:
    data = pd.DataFrame({"age": np.arange(100) % 30 + 20, "income": np.arange(100) * 100})
    params = laplace_params(("age",), ("income",), bounds={"income": (12.3, 12.7)}, seed=1)
    released = anonymize(data, params).table["income"].astype(float)
    assert released.between(12.3, 12.7).all()  # kept inside, not cast to whole numbers
