"""Intervals and summaries of :mod:`kosti.sim.stats` against cases worked by hand and by coverage."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kosti.sim.stats import describe, histogram_edges, mean_interval, paired_difference, wilson, z_value

Z = 1.959963984540054


def test_z_value_is_the_normal_quantile() -> None:
    assert z_value(0.95) == pytest.approx(Z)
    assert z_value(0.99) == pytest.approx(2.5758293035489)


def test_wilson_with_no_successes_reaches_z2_over_n_plus_z2() -> None:
    # the closed form at x = 0: [0, z² / (n + z²)]
    interval = wilson(0, 10)
    assert interval.estimate == 0
    assert interval.low == 0
    assert interval.high == pytest.approx(Z**2 / (10 + Z**2))


def test_wilson_is_symmetric_about_one_half_and_mirrors() -> None:
    half = wilson(50, 100)
    assert half.low + half.high == pytest.approx(1.0)
    low, high = wilson(3, 40), wilson(37, 40)
    assert low.low == pytest.approx(1 - high.high)
    assert low.high == pytest.approx(1 - high.low)


def test_wilson_matches_the_textbook_formula() -> None:
    x, n = 81, 263
    p = x / n
    centre = (p + Z**2 / (2 * n)) / (1 + Z**2 / n)
    half = Z / (1 + Z**2 / n) * math.sqrt(p * (1 - p) / n + Z**2 / (4 * n * n))
    interval = wilson(x, n)
    assert (interval.low, interval.high) == pytest.approx((centre - half, centre + half))
    assert interval.low < p < interval.high


def test_wilson_covers_the_true_rate_about_95_percent_of_the_time() -> None:
    rng = np.random.default_rng(11)
    p, n, trials = 0.12, 60, 2000
    hits = sum(wilson(int(k), n).contains(p) for k in rng.binomial(n, p, trials))
    assert 0.92 < hits / trials < 0.98


def test_wilson_refuses_what_is_not_a_proportion() -> None:
    with pytest.raises(ValueError):
        wilson(5, 3)
    assert (wilson(0, 0).low, wilson(0, 0).high) == (0.0, 1.0)


def test_mean_interval_of_one_to_five() -> None:
    interval = mean_interval([1, 2, 3, 4, 5])
    half = Z * math.sqrt(2.5) / math.sqrt(5)
    assert (interval.estimate, interval.low, interval.high) == pytest.approx((3, 3 - half, 3 + half))


def test_paired_difference_of_a_constant_shift_is_exact() -> None:
    rng = np.random.default_rng(2)
    a = rng.normal(100, 30, 500)
    interval = paired_difference(a + 7, a)
    assert interval.estimate == pytest.approx(7)
    assert interval.half_width == pytest.approx(0, abs=1e-9)
    with pytest.raises(ValueError):
        paired_difference([1, 2], [1, 2, 3])


def test_describe_reports_quantiles_and_spread() -> None:
    d = describe(np.arange(101))
    assert d.mean.estimate == 50
    assert d.quantiles[0.5] == 50
    assert d.quantiles[0.05] == 5
    assert (d.minimum, d.maximum) == (0, 100)
    assert d.sd == pytest.approx(np.std(np.arange(101), ddof=1))


def test_histogram_edges_cover_every_score_with_whole_widths() -> None:
    edges = histogram_edges([np.array([-45, 3]), np.array([310])], bins=16)
    widths = np.diff(edges)
    assert edges[0] <= -45 and edges[-1] > 310
    assert np.all(widths == widths[0]) and widths[0] == int(widths[0])
    assert len(edges) - 1 <= 17


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
@example((0, 1))
@example((1, 1))
@example((0, 10_000))
@example((10_000, 10_000))
def test_wilson_holds_the_estimate_inside_zero_one(case: tuple[int, int]) -> None:
    successes, trials = case
    interval = wilson(successes, trials)
    assert 0.0 <= interval.low <= interval.estimate <= interval.high <= 1.0
    # the same proportion from twice the trials is known more precisely
    doubled = wilson(2 * successes, 2 * trials)
    assert doubled.high - doubled.low < interval.high - interval.low
