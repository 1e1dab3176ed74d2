"""The t ↔ ε calculator: worked examples, round trips, monotonicity, edges, tightness."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import privacy as pv
from engine.errors import InputError

epsilons = st.floats(min_value=0.0, max_value=20.0, allow_nan=False)
ts = st.floats(min_value=1.0, max_value=1e4, allow_nan=False)


@st.composite
def k_and_n(draw: st.DrawFn) -> tuple[int, int]:
    n = draw(st.integers(min_value=1, max_value=10**6))
    return draw(st.integers(min_value=1, max_value=n)), n


# --- worked example -------------------------------------------------------------------------


def test_tifs_section_vd_worked_example() -> None:
    """t0 = 2, N = 100, k = 5 gives ε_t ≈ 0.72 (the paper prints 0.7)."""
    eps = pv.epsilon_for_stochastic_t(2.0, 5, 100)
    assert eps == pytest.approx(math.log(195 / 95))
    assert eps == pytest.approx(0.72, abs=0.005)
    assert round(eps, 1) == 0.7
    # and back: that ε makes every class of ≥ 5 of 100 records stochastically 2-close
    assert pv.stochastic_t(eps, 5, 100) == pytest.approx(2.0)
    assert pv.kt_from_ldp(eps, 5, 100) == pytest.approx(2.0)


def test_proposition_3_values() -> None:
    assert pv.epsilon_from_t(math.e) == pytest.approx(2.0)
    assert pv.t_from_epsilon(2 * math.log(3)) == pytest.approx(3.0)
    assert pv.ldp_from_one_t(2.0) == pytest.approx(math.log(4.0))  # Theorem 2: e^ε = t²


def test_proposition_1_uses_the_derivation_form_not_the_misprint() -> None:
    """(|E| + (N − |E|)e^ε)/N, strictly above the printed (N − |E| − 1) form (KBS 2015, (3))."""
    eps, size, n = 1.0, 10, 1000
    ours = pv.stochastic_t(eps, size, n)
    printed = size / n * (1 + (n - size - 1) / size * math.exp(eps))
    assert ours == pytest.approx((size + (n - size) * math.e) / n)
    assert ours > printed
    assert ours - printed == pytest.approx(math.e / n)


def test_theorem_2_is_proposition_1_with_single_records() -> None:
    for eps in (0.1, 1.0, 3.0):
        assert pv.one_t_from_ldp(eps, 57) == pytest.approx((math.exp(eps) * 56 + 1) / 57)
        assert pv.one_t_from_ldp(eps, 57) == pytest.approx(pv.stochastic_t(eps, 1, 57))


def test_proposition_1_bound_is_attained_by_binary_randomized_response() -> None:
    """The bound is tight: binary RR, a class all 'a' among N − |E| records all 'b'."""
    for eps, size, n in [(0.5, 3, 20), (2.0, 7, 100), (1.0, 1, 10)]:
        q = 1 / (1 + math.exp(eps))  # P(report the other value)
        class_share_b = q
        file_share_b = (size * q + (n - size) * math.exp(eps) * q) / n
        d = max(file_share_b / class_share_b, class_share_b / file_share_b)
        assert d == pytest.approx(pv.stochastic_t(eps, size, n))


def test_classes_use_smallest_class_and_their_total() -> None:
    sizes = [7, 5, 9, 5, 12]
    assert pv.stochastic_t_of_classes(1.0, sizes) == pytest.approx(pv.stochastic_t(1.0, 5, 38))


def test_theorem_4_round_trip() -> None:
    group, eps = pv.dp_from_kt(5, 2.0, 100)
    assert (group, eps) == (95, pytest.approx(math.log(2.0)))
    k, t = pv.kt_from_dp(group, eps, 100)
    assert (k, t) == (5, pytest.approx(2.0))


# --- round trips and monotonicity -----------------------------------------------------------


@given(ts)
def test_t_epsilon_t_round_trip(t: float) -> None:
    assert pv.t_from_epsilon(pv.epsilon_from_t(t)) == pytest.approx(t, rel=1e-12)


@given(epsilons)
def test_epsilon_t_epsilon_round_trip(eps: float) -> None:
    assert pv.epsilon_from_t(pv.t_from_epsilon(eps)) == pytest.approx(eps, abs=1e-12)


@given(epsilons, k_and_n())
def test_stochastic_t_round_trip(eps: float, kn: tuple[int, int]) -> None:
    k, n = kn
    t = pv.stochastic_t(eps, k, n)
    assert t >= 1.0
    back = pv.epsilon_for_stochastic_t(t, k, n)
    if k == n:
        assert t == 1.0 and math.isinf(back)
    elif t > 1 + 1e-9:  # below that the inverse is ill-conditioned (ε ≈ 0)
        assert back == pytest.approx(eps, rel=1e-6, abs=1e-9)


@settings(max_examples=30)
@given(epsilons, epsilons, k_and_n())
def test_stochastic_t_grows_with_epsilon(e1: float, e2: float, kn: tuple[int, int]) -> None:
    lo, hi = sorted((e1, e2))
    k, n = kn
    assert pv.stochastic_t(lo, k, n) <= pv.stochastic_t(hi, k, n)


@settings(max_examples=30)
@given(st.floats(0.01, 10), st.integers(2, 5000), st.data())
def test_stochastic_t_shrinks_with_class_size(eps: float, n: int, data: st.DataObject) -> None:
    a = data.draw(st.integers(1, n))
    b = data.draw(st.integers(a, n))
    assert pv.stochastic_t(eps, b, n) <= pv.stochastic_t(eps, a, n)


@settings(max_examples=30)
@given(ts, ts)
def test_prop3_is_monotone(t1: float, t2: float) -> None:
    lo, hi = sorted((t1, t2))
    assert pv.epsilon_from_t(lo) <= pv.epsilon_from_t(hi)


# --- edge cases -----------------------------------------------------------------------------


def test_edges() -> None:
    assert pv.t_from_epsilon(0.0) == 1.0
    assert pv.epsilon_from_t(1.0) == 0.0
    assert pv.stochastic_t(0.0, 3, 50) == 1.0
    assert pv.stochastic_t(5.0, 50, 50) == 1.0  # k = N: the class is the file
    assert math.isinf(pv.epsilon_for_stochastic_t(3.0, 50, 50))
    assert pv.epsilon_for_stochastic_t(1.0, 5, 50) == 0.0
    assert pv.stochastic_t(math.inf, 50, 50) == 1.0
    assert math.isinf(pv.stochastic_t(math.inf, 5, 50))
    assert pv.stochastic_t(1.0, 1, 1) == 1.0


@pytest.mark.parametrize(
    "call",
    [
        lambda: pv.epsilon_from_t(0.5),
        lambda: pv.t_from_epsilon(-1.0),
        lambda: pv.t_from_epsilon(float("nan")),
        lambda: pv.stochastic_t(1.0, 0, 10),
        lambda: pv.stochastic_t(1.0, 11, 10),
        lambda: pv.stochastic_t(1.0, 2.5, 10),
        lambda: pv.stochastic_t_of_classes(1.0, []),
        lambda: pv.guarantees(t=2.0, epsilon=1.0),
        lambda: pv.guarantees(),
        lambda: pv.guarantees(t=2.0, mechanism="laplace"),  # needs k and N
        lambda: pv.guarantees(epsilon=1.0, mechanism="magic"),
    ],
)
def test_bad_input_is_a_clear_input_error(call) -> None:
    with pytest.raises(InputError):
        call()


# --- guarantees() ---------------------------------------------------------------------------


def _by_name(items: list[pv.Guarantee]) -> dict[str, pv.Guarantee]:
    return {g.name: g for g in items}


def test_guarantees_for_buckets_from_t() -> None:
    items = pv.guarantees(t=2.0, k=5, n=100)
    named = _by_name(items)
    assert named["t-closeness"].values["t"] == 2.0
    prop3 = named["ε-differential privacy (Proposition 3)"]
    assert prop3.values["epsilon"] == pytest.approx(2 * math.log(2))
    assert "prior" in prop3.assumption
    assert named["equivalent noise level"].values["epsilon"] == pytest.approx(0.7191, abs=1e-4)
    assert named["k-anonymity"].values["k"] == 5
    negatives = [g for g in items if not g.holds]
    assert {g.source.split(", ")[-1] for g in negatives} >= {"Theorem 1", "Theorem 5"}
    for g in items:
        assert g.statement and g.assumption and g.source


def test_guarantees_for_buckets_from_epsilon() -> None:
    named = _by_name(pv.guarantees(epsilon=1.0))
    assert named["t-closeness"].values["t"] == pytest.approx(math.exp(0.5))
    assert "k-anonymity" not in named  # k unknown: nothing claimed about it


def test_guarantees_for_noise() -> None:
    named = _by_name(pv.guarantees(epsilon=0.72, k=5, n=100, mechanism="laplace"))
    assert named["ε-differential privacy of the confidential data"].values["epsilon"] == 0.72
    stoch = named["stochastic t-closeness (Proposition 1)"]
    assert stoch.values["t"] == pytest.approx(pv.stochastic_t(0.72, 5, 100))
    assert "realisation" in stoch.assumption
    assert named["(1, t)-closeness (Theorem 2)"].values["t"] == pytest.approx(
        pv.one_t_from_ldp(0.72, 100)
    )
    th4 = named["(N − k, ε)-differential privacy (Theorem 4)"]
    assert th4.values["group"] == 95
    assert th4.values["epsilon"] == pytest.approx(math.log(pv.stochastic_t(0.72, 5, 100)))


def test_guarantees_for_noise_from_t_uses_section_vd() -> None:
    named = _by_name(pv.guarantees(t=2.0, k=5, n=100, mechanism="randomized_response"))
    eps = named["ε-differential privacy of the confidential data"].values["epsilon"]
    assert eps == pytest.approx(0.7191, abs=1e-4)
    assert named["stochastic t-closeness (Proposition 1)"].values["t"] == pytest.approx(2.0)


def test_insensitive_guarantees_state_the_weaker_per_record_bound() -> None:
    named = _by_name(pv.guarantees(epsilon=0.5, k=4, n=1000, mechanism="insensitive"))
    assert named["per-record (local) ε"].values["epsilon_local"] == pytest.approx(2.0)
    assert named["stochastic t-closeness (Proposition 1)"].values["t"] == pytest.approx(
        pv.stochastic_t(2.0, 4, 1000)
    )
    assert "linked" in named["ε-differential privacy of the confidential data"].assumption


def test_class_sizes_override_k_and_n() -> None:
    named = _by_name(pv.guarantees(epsilon=1.0, class_sizes=[5, 6, 9], mechanism="laplace"))
    assert named["k-anonymity"].values["k"] == 5
    assert named["stochastic t-closeness (Proposition 1)"].values["n"] == 20


def test_guarantees_are_json_ready() -> None:
    items = pv.guarantees(epsilon=3.0, k=10, n=10, mechanism="laplace")  # k = N
    text = json.dumps([g.to_dict() for g in items], allow_nan=False)
    assert "Theorem 4" in text
    items = pv.guarantees(t=3.0, k=10, n=10)
    json.dumps([g.to_dict() for g in items], allow_nan=False)


def test_non_implications_are_data() -> None:
    assert len(pv.NON_IMPLICATIONS) >= 2
    assert all(item.statement and "Theorem" in item.source for item in pv.NON_IMPLICATIONS)
    assert np.all([not g.holds for g in pv.guarantees(t=1.5) if "not imply" in g.name])


def test_edges_of_the_tifs_formulas() -> None:
    assert pv.one_t_from_ldp(0.0, 100) == 1.0  # ε = 0: every record looks like the file
    assert pv.one_t_from_ldp(2.0, 1) == 1.0  # N = 1: the record is the file
    assert pv.ldp_from_one_t(1.0) == 0.0
    assert pv.kt_from_ldp(3.0, 100, 100) == 1.0  # k = N
    assert pv.kt_from_ldp(0.0, 5, 100) == 1.0
    assert pv.dp_from_kt(100, 1.0, 100) == (0, 0.0)  # k = N, t = 1: removing nobody, ε = 0


@given(ts, k_and_n())
def test_theorem_4_round_trips(t: float, kn: tuple[int, int]) -> None:
    k, n = kn
    if k == n:
        return
    group, eps = pv.dp_from_kt(k, t, n)
    assert group == n - k
    back_k, back_t = pv.kt_from_dp(group, eps, n)
    assert back_k == k and back_t == pytest.approx(t, rel=1e-12)


@given(epsilons, st.integers(1, 10**6))
def test_theorem_2_round_trip_and_bounds(eps: float, n: int) -> None:
    t1 = pv.one_t_from_ldp(eps, n)
    assert 1.0 <= t1 <= math.exp(eps) * (1 + 1e-12)
    # (1, t)-closeness gives back an LDP level no smaller than the ε we started from when N is
    # large (e^ε ≤ t² holds once t ≥ e^(ε/2))
    if t1 >= math.exp(eps / 2):
        assert pv.ldp_from_one_t(t1) >= eps - 1e-9
