"""Feasibility arithmetic: class bounds, the balanced layout, infeasibility messages."""

from __future__ import annotations

import numpy as np
import pytest

from engine.errors import InfeasibleError
from engine.release import check_feasible, layout_counts
from engine.release.partition import (
    class_bounds,
    layout_ok,
    max_classes,
    nearest_feasible,
    smallest_t,
)


def test_class_bounds_of_figure2():
    lower, upper = class_bounds(4, np.full(3, 1 / 3), 1.5)
    assert lower.tolist() == [1, 1, 1]  # ceil(4/3/1.5) = ceil(0.89)
    assert upper.tolist() == [2, 2, 2]  # floor(4/3·1.5) = 2


def test_exact_bounds_survive_float_rounding():
    # t = 1: a class of 6 with shares 1/3 must hold exactly 2 of each
    lower, upper = class_bounds(6, np.full(3, 1 / 3), 1.0)
    assert lower.tolist() == upper.tolist() == [2, 2, 2]


def test_figure2_layout_is_feasible_with_three_classes():
    counts = np.array([4, 4, 4])
    assert layout_ok(counts, 3, counts / 12, 1.5, 4).all()
    assert max_classes(counts, 1.5, 4) == 3
    assert layout_counts(counts, 3).sum(axis=1).tolist() == [4, 4, 4]


def test_t_one_needs_classes_that_divide_every_bucket():
    counts = np.array([6, 9])
    assert max_classes(counts, 1.0, 1) == 3
    assert max_classes(np.array([5, 7]), 1.0, 1) == 1


def test_any_t_and_k_up_to_n_are_feasible_with_own_shares():
    counts = np.array([1, 50, 3])
    assert check_feasible(counts, 1.0, 54) == 1
    assert check_feasible(counts, 1.01, 2) == 1  # the single record of bucket 0 limits C


def test_k_larger_than_n_names_the_largest_k():
    with pytest.raises(InfeasibleError) as err:
        check_feasible(np.array([3, 4]), 2.0, 10)
    assert "largest k for t = 2: k = 7" in str(err.value)
    assert err.value.alternatives[0].params["k"] == 7
    assert err.value.exit_code == 3


def test_foreign_shares_can_be_infeasible_and_the_smallest_t_then_works():
    counts = np.array([10, 30])  # the block has 25 % of bucket 0, the file 50 %
    shares = np.array([0.5, 0.5])
    with pytest.raises(InfeasibleError) as err:
        check_feasible(counts, 1.5, 5, shares)
    t_min = smallest_t(counts, 5, shares)
    assert t_min == pytest.approx(2.0, abs=2e-3)
    assert check_feasible(counts, t_min, 5, shares) >= 1
    assert any(a.params.get("t") == t_min for a in err.value.alternatives)
    assert nearest_feasible(counts, 3.0, 5, shares)[0].params["k"] == 40
