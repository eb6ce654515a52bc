"""Fast simulation of the optimal strategy (numba), to check the solved expectation.

Each game is played in the solver's own model of the rules with the decisions
the solved tables dictate; the mean of many games must agree with the expected
score. A turn is never solved twice: it works out its later throws' values once
and then looks only at the holds of the throws actually made, and the turns of
the states many games pass through are kept for the games that come later. (The
optimal bot on the real engine, :class:`~kosti.solver.advisor.OptimalBot`, is
checked against the same number, on fewer games: it is much slower.)
"""

from __future__ import annotations

import numpy as np

from kosti.solver.model import F64, I64
from kosti.solver.tables import Solution, in_parallel, threads

TURNS_KEPT = 1 << 13
"""Turns each thread keeps for later games (a few kilobytes each): about half the turns of a
long run of Yahtzee games come to a kept one."""


def simulate(solution: Solution, games: int, seed: int = 0, kept: int = TURNS_KEPT) -> tuple[F64, I64]:
    """Scores of ``games`` solitaire games of the optimal strategy, and the most throws each banked.

    Game ``g`` draws its dice from ``seed`` and ``g`` alone, so a seed gives the same games
    on any number of threads (and whatever the ``kept`` turns, which only save work)."""
    from kosti.solver import kernels
    from kosti.solver.jit import prepare

    if games < 0 or kept < 0:
        raise ValueError("the number of games and of turns kept cannot be negative")
    (play_games,) = prepare(None, [kernels.play_games])  # compiled once, not by two threads at once
    packed = solution.model.packed
    scores = np.zeros(games)
    banks = np.zeros(games, dtype=np.int64)

    def work(start: int, stop: int) -> None:
        play_games(
            *packed,
            solution.values,
            seed * 1_000_003 + start,
            scores[start:stop],
            banks[start:stop],
            kept,
        )

    # one piece per thread: each keeps its turns for all of its games
    in_parallel(games, work, chunk=max(64, -(-games // threads())))
    return scores, banks
