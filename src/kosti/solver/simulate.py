"""Fast simulation of the optimal strategy (numba), to check the solved expectation.

Each game is played in the solver's own model of the rules with the decisions
the solved tables dictate; the mean of many games must agree with the expected
score. A turn is never solved again: it works out its later throws' values once
and then looks only at the holds of the throws actually made. (The optimal bot on
the real engine, :class:`~kosti.solver.advisor.OptimalBot`, is checked against the
same number, on fewer games: it is much slower.)
"""

from __future__ import annotations

import numpy as np

from kosti.solver.model import F64, I64
from kosti.solver.tables import Solution, in_parallel


def simulate(solution: Solution, games: int, seed: int = 0) -> tuple[F64, I64]:
    """Scores of ``games`` solitaire games of the optimal strategy, and the most throws each banked.

    Game ``g`` draws its dice from ``seed`` and ``g`` alone, so a seed gives the same games
    on any number of threads."""
    from kosti.solver import kernels

    packed = solution.model.packed
    scores = np.zeros(games)
    banks = np.zeros(games, dtype=np.int64)

    def work(start: int, stop: int) -> None:
        kernels.play_games(
            *packed, solution.values, seed * 1_000_003 + start, scores[start:stop], banks[start:stop]
        )

    in_parallel(games, work, chunk=64)
    return scores, banks
