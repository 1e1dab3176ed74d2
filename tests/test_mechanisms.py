"""Noise mechanisms: the samplers are exact, the noise has the claimed law, channels match."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from engine.errors import InputError
from engine.mechanisms import laplace as lp
from engine.mechanisms import response as rr
from engine.mechanisms.sampling import (
    CHUNK,
    OsEntropy,
    Seeded,
    bernoulli_exp,
    exact_discrete_laplace,
    noise_source,
)

# --- samplers -------------------------------------------------------------------------------


def test_bernoulli_exp_is_exact_in_law() -> None:
    below = Seeded(11).below
    n = 200_000
    for num, den in [(0, 5), (1, 5), (3, 5), (5, 5)]:
        hits = int(bernoulli_exp(np.full(n, num), den, below).sum())
        assert stats.binomtest(hits, n, math.exp(-num / den)).pvalue > 1e-3


def discrete_laplace_pmf(values: np.ndarray, scale: float) -> np.ndarray:
    q = math.exp(-1 / scale)
    return (1 - q) / (1 + q) * q ** np.abs(values)


@pytest.mark.parametrize("scale", [1, 4])
def test_exact_discrete_laplace_matches_its_pmf(scale: int) -> None:
    n = 100_000
    z = exact_discrete_laplace(scale, n, Seeded(5).below)
    support = np.arange(-6 * scale, 6 * scale + 1)
    expected = discrete_laplace_pmf(support, scale) * n
    observed = np.array([(z == v).sum() for v in support])
    tail_obs, tail_exp = n - observed.sum(), n - expected.sum()
    chi2 = stats.chisquare(np.append(observed, tail_obs), np.append(expected, tail_exp))
    assert chi2.pvalue > 1e-3
    # and a wrong scale is rejected by the same test
    wrong = discrete_laplace_pmf(support, scale * 1.15) * n
    wrong = np.append(wrong, n - wrong.sum())
    assert stats.chisquare(np.append(observed, tail_obs), wrong * n / wrong.sum()).pvalue < 1e-6


def test_opendp_source_has_the_same_law() -> None:
    """The default source (OpenDP, OS entropy): right scale, symmetric, integer-valued.

    Several chunks are drawn in parallel; each must be filled with noise of the right law.
    """
    n = 2 * CHUNK + 20_000
    z = OsEntropy().discrete_laplace(1000, n)
    assert z.dtype == np.int64
    assert stats.kstest(z, stats.laplace(scale=1000).cdf).pvalue > 1e-4
    assert stats.kstest(z, stats.laplace(scale=1300).cdf).pvalue < 1e-6
    for start in range(0, n, CHUNK):
        part = z[start : start + CHUNK]
        assert stats.kstest(part, stats.laplace(scale=1000).cdf).pvalue > 1e-4


def test_os_uniform_integers_are_uniform() -> None:
    high = np.array([3, 7, 2**40 + 3] * 30_000)
    u = OsEntropy().below(high)
    assert ((u >= 0) & (u < high)).all()
    counts = np.bincount(u[high == 7], minlength=7)
    assert stats.chisquare(counts).pvalue > 1e-4


def test_seed_policy() -> None:
    assert isinstance(noise_source(None), OsEntropy)
    assert noise_source(3).reproducible and not noise_source(None).reproducible
    from engine.text import seed_text

    assert "only as private as the seed is secret" in seed_text(3, noise=True)
    assert "cannot be reproduced" in seed_text(None, noise=True)
    a = Seeded(9).discrete_laplace(50, 100)
    assert np.array_equal(a, Seeded(9).discrete_laplace(50, 100))
    assert not np.array_equal(a, Seeded(10).discrete_laplace(50, 100))


def test_a_million_values_with_a_seed() -> None:
    """One call noises a million values (its time: ``benchmarks/noise_table.py``)."""
    x = np.random.default_rng(0).uniform(0, 250_000, 1_000_000)
    out = lp.laplace_release(x, 0, 250_000, 1.0, Seeded(1))
    assert out.values.shape == x.shape
    assert np.isfinite(out.values).all()


# --- Laplace --------------------------------------------------------------------------------


def test_laplace_noise_has_scale_delta_over_epsilon() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(100_000, 80_000, 30_000)  # some values fall outside the bounds
    out = lp.laplace_release(x, 0, 250_000, 2.0, Seeded(2))
    assert out.clamped.min() == 0 and out.clamped.max() == 250_000
    # released values are clamped to the bounds again after the noise (post-processing)
    assert out.values.min() == 0 and out.values.max() == 250_000
    assert np.array_equal(out.values, np.clip(out.noisy, 0, 250_000))
    noise = out.noisy - out.clamped
    assert stats.kstest(noise, stats.laplace(scale=125_000).cdf).pvalue > 1e-3
    assert stats.kstest(noise, stats.laplace(scale=150_000).cdf).pvalue < 1e-6
    assert stats.kstest(noise, stats.laplace(scale=100_000).cdf).pvalue < 1e-6
    assert out.scale == pytest.approx(125_000, rel=1e-6) and out.scale >= 125_000


def test_laplace_outputs_lie_on_the_lattice_and_missing_stays_missing() -> None:
    x = np.array([1.0, np.nan, 2.5, 1e9, -3.0])
    out = lp.laplace_release(x, 0.0, 10.0, 1.0, Seeded(0))
    assert np.isnan(out.values[1]) and np.isnan(out.clamped[1])
    present = ~np.isnan(out.values)
    steps = (out.values[present] - out.lo) / out.grid
    assert np.array_equal(steps, np.round(steps))
    assert out.clamped[3] == 10.0 and out.clamped[4] == 0.0
    assert out.lo <= 0.0 and out.hi >= 10.0 and math.log2(out.grid).is_integer()


@settings(max_examples=30)
@given(
    st.floats(-1e6, 1e6),
    st.floats(1e-3, 1e6),
    st.floats(1e-3, 50),
    st.integers(1, 30),
)
def test_lattice_parameters_give_at_most_epsilon(lo: float, span: float, eps: float, k: int):
    """On the lattice the worst ratio of output probabilities is exp(Δ_lattice/b) ≤ e^ε."""
    hi = lo + span
    x = np.linspace(lo - 1, hi + 1, 40)
    out = lp.laplace_release(x, lo, hi, eps, Seeded(0))
    assert (out.hi - out.lo) / out.scale <= eps * (1 + 1e-12)
    assert out.lo <= lo and out.hi >= hi
    ins = lp.insensitive_release(x, lo, hi, eps, k, Seeded(0))
    smallest = np.bincount(ins.groups).min()
    assert (ins.hi - ins.lo) / (smallest * ins.scale) <= eps * (1 + 1e-12)
    assert ins.scale <= (hi - lo) / (smallest * eps) * 1.01  # and not much more noise


@pytest.mark.parametrize(
    ("lo", "hi", "eps"), [(5, 5, 1.0), (6, 5, 1.0), (0, math.inf, 1.0), (0, 1, 0.0)]
)
def test_laplace_rejects_bad_parameters(lo: float, hi: float, eps: float) -> None:
    with pytest.raises(InputError):
        lp.laplace_release(np.ones(3), lo, hi, eps, Seeded(0))


# --- insensitive microaggregation -----------------------------------------------------------


def test_insensitive_groups_are_consecutive_in_value_order() -> None:
    x = np.array([5.0, 1.0, np.nan, 3.0, 9.0, 7.0, 2.0, 8.0])
    groups = lp.insensitive_groups(x, 3)
    assert groups[2] == -1
    assert list(groups[[1, 6, 3]]) == [0, 0, 0]  # 1, 2, 3
    assert list(groups[[0, 5, 7, 4]]) == [1, 1, 1, 1]  # 5, 7, 8, 9: last group takes the rest
    assert np.all(lp.insensitive_groups(np.array([1.0, 2.0]), 5) == 0)


@settings(max_examples=40)
@given(
    st.lists(st.floats(0, 100), min_size=2, max_size=40),
    st.integers(1, 6),
    st.data(),
)
def test_group_means_have_sensitivity_delta_over_k(values, k, data) -> None:
    """The argument of the module docstring, checked: one changed value moves the vector of
    group means by at most Δ/k in L1."""
    x = np.array(values)
    i = data.draw(st.integers(0, len(values) - 1))
    y = x.copy()
    y[i] = data.draw(st.floats(0, 100))

    def means(v: np.ndarray) -> np.ndarray:
        g = lp.insensitive_groups(v, k)
        return np.bincount(g, weights=v) / np.bincount(g)

    smallest = min(k, len(values))  # fewer than k values: one group of all of them
    assert np.abs(means(x) - means(y)).sum() <= 100 / smallest + 1e-9


def test_insensitive_noise_has_scale_delta_over_k_epsilon() -> None:
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 1000, 100_000)
    k, eps = 5, 0.5
    out = lp.insensitive_release(x, 0, 1000, eps, k, Seeded(4))
    groups = out.groups
    sizes = np.bincount(groups)
    assert sizes.min() == k and sizes.max() <= 2 * k - 1
    # every member of a group carries the same value
    first = np.zeros(sizes.size)
    first[groups] = out.noisy
    assert np.array_equal(first[groups], out.noisy)
    # released: the noisy group value clamped to the bounds (post-processing)
    assert np.array_equal(out.values, np.clip(out.noisy, 0, 1000))
    assert out.values.min() >= 0 and out.values.max() <= 1000
    noise = first - np.bincount(groups, weights=out.clamped) / sizes
    target = 1000 / (k * eps)
    assert out.scale == pytest.approx(target, rel=1e-3) and out.scale >= target
    assert stats.kstest(noise, stats.laplace(scale=target).cdf).pvalue > 1e-3
    assert stats.kstest(noise, stats.laplace(scale=1000 / eps).cdf).pvalue < 1e-6
    assert stats.kstest(noise, stats.laplace(scale=1.2 * target).cdf).pvalue < 1e-6


def test_insensitive_with_fewer_values_than_k_uses_their_count() -> None:
    x = np.array([1.0, 2.0, np.nan, 3.0])
    out = lp.insensitive_release(x, 0, 10, 1.0, 5, Seeded(0))
    assert out.scale == pytest.approx(10 / 3, rel=1e-6) and out.scale >= 10 / 3
    assert np.isnan(out.values[2]) and len(set(out.values[[0, 1, 3]])) == 1


def test_insensitive_with_k_one_is_plain_laplace_scale() -> None:
    x = np.linspace(0, 10, 50)
    out = lp.insensitive_release(x, 0, 10, 1.0, 1, Seeded(0))
    assert out.scale == pytest.approx(10.0, rel=1e-6)


# --- randomized response --------------------------------------------------------------------


@given(st.floats(0.01, 8), st.integers(2, 12))
def test_channel_epsilon_equals_the_formula(eps: float, n: int) -> None:
    p = rr.uniform_keep_probability(eps, n)
    channel = rr.uniform_channel(p, n)
    assert rr.channel_epsilon(channel) == pytest.approx(eps, rel=1e-9)
    assert math.exp(eps) == pytest.approx(1 + n * p / (1 - p), rel=1e-9)


def test_randomized_response_transitions_match_the_channel() -> None:
    n_cat, per = 4, 25_000
    codes = np.repeat(np.arange(n_cat), per)
    codes = np.append(codes, [-1, -1])
    out = rr.randomized_response(codes, n_cat, 1.2, Seeded(8))
    assert list(out.codes[-2:]) == [-1, -1]
    assert out.epsilon <= 1.2 and out.epsilon == pytest.approx(1.2, abs=1e-9)
    for i in range(n_cat):
        row = np.bincount(out.codes[:-2][codes[:-2] == i], minlength=n_cat)
        assert stats.chisquare(row, out.channel[i] * per).pvalue > 1e-4


def test_randomized_response_with_os_entropy() -> None:
    codes = np.repeat(np.arange(2), 20_000)
    out = rr.randomized_response(codes, 2, 1.0, OsEntropy())
    kept = np.mean(out.codes == codes)
    assert kept == pytest.approx(out.channel[0, 0], abs=0.015)


def test_empirical_variant_t_from_channel_equals_closed_form() -> None:
    shares = np.array([0.5, 0.3, 0.2])
    for keep in (0.1, 0.4, 0.8):
        channel = rr.empirical_channel(keep, shares)
        assert rr.channel_t(channel, shares) == pytest.approx(rr.empirical_t(keep, shares))
        # the overall output distribution is the input distribution
        assert shares @ channel == pytest.approx(shares)
        assert rr.channel_epsilon(channel) == pytest.approx(
            math.log((keep + (1 - keep) * 0.2) / ((1 - keep) * 0.2))
        )


def test_empirical_response_draws_from_the_file_distribution() -> None:
    codes = np.array([0] * 6000 + [1] * 3000 + [2] * 1000)
    out = rr.empirical_response(codes, 0.0, Seeded(3))  # keep nothing: pure redraw
    counts = np.bincount(out.codes, minlength=3)
    assert stats.chisquare(counts, [6000, 3000, 1000]).pvalue > 1e-4
    with pytest.raises(InputError):
        rr.empirical_response(np.array([-1, -1]), 0.5, Seeded(0))


def test_channel_epsilon_of_a_channel_with_a_zero_is_infinite() -> None:
    assert math.isinf(rr.channel_epsilon(np.eye(3)))
    assert rr.channel_epsilon(np.full((2, 2), 0.5)) == 0.0


def test_private_bounds_that_would_be_noise_are_refused_with_what_would_do():
    """Report-noisy-min among 577 candidates errs by about 2·(ln 577 + ln 20)/ε ranks: with
    fewer than twice that many values the DP median, and so the bounds, could be any
    candidate (10^12 as likely as 100), so the run stops and names the ε or the records."""
    from engine.errors import InputError
    from engine.mechanisms.bounds import MEDIAN_SHARE, private_bounds, selection_ranks
    from engine.mechanisms.sampling import noise_source

    values = np.random.default_rng(2).lognormal(10, 0.6, 400)
    with pytest.raises(InputError, match=r"needs at least 936 values, and the column has 400"):
        private_bounds(values, 0.2, noise_source(1))
    assert selection_ranks(2.0 * MEDIAN_SHARE) <= 400 / 2
    found = private_bounds(values, 2.0, noise_source(1))
    assert 0 <= found.lo < np.median(values) < found.hi < 1e7
