"""The exact policy in the compiled simulator (``kosti simulate --vectorised --bots optimal``)."""

from __future__ import annotations

import math

import numpy as np

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
