"""The exact policy in the compiled simulator (``kosti simulate --vectorised --bots optimal``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kosti.rules.presets import variant
from kosti.sim import run
from kosti.solver import solve

SMALL = "yahtzee(lower=[yahtzee,chance])"


def test_vectorised_optimal_games_agree_with_the_solved_expectation() -> None:
    rules = variant(SMALL)
    expected = solve(rules).expected_score
    outcome = run(rules, ["optimal"], games=4000, seed=3, vectorised=True)
    scores = outcome.scores[:, 0].astype(float)
    half_width = 4 * scores.std(ddof=1) / math.sqrt(len(scores))
    assert abs(scores.mean() - expected) < half_width
    # every game fills the whole sheet and scores whole points
    assert np.all(outcome.turns == 8)
    assert np.all(scores == np.rint(scores))


def test_vectorised_optimal_runs_are_reproducible_from_the_seed() -> None:
    rules = variant(SMALL)
    first = run(rules, ["optimal"], games=500, seed=11, vectorised=True).scores
    again = run(rules, ["optimal"], games=500, seed=11, vectorised=True).scores
    other = run(rules, ["optimal"], games=500, seed=12, vectorised=True).scores
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)


def test_the_same_seed_plays_the_same_games_on_any_threads_and_kept_turns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kosti.solver.simulate import simulate

    solution = solve(variant(SMALL))
    monkeypatch.setenv("KOSTI_THREADS", "1")
    one, one_banks = simulate(solution, 300, seed=5, kept=0)
    monkeypatch.setenv("KOSTI_THREADS", "2")
    two, _ = simulate(solution, 300, seed=5)
    # a cache of two entries: turns are kept, pushed out and read back all the time
    small, _ = simulate(solution, 300, seed=5, kept=2)
    np.testing.assert_array_equal(one, two)
    np.testing.assert_array_equal(one, small)
    assert not np.array_equal(one, simulate(solution, 300, seed=6)[0])
    # a later game is the same game in a shorter run that starts with it
    np.testing.assert_array_equal(simulate(solution, 1, seed=5)[0], one[:1])
    assert np.all(one_banks == 0)


def test_a_negative_count_is_refused() -> None:
    from kosti.solver.simulate import simulate

    solution = solve(variant(SMALL))
    with pytest.raises(ValueError, match="negative"):
        simulate(solution, -1)
    with pytest.raises(ValueError, match="negative"):
        simulate(solution, 10, kept=-1)
