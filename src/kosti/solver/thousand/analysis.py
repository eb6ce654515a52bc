"""What the exact two-player «Тысяча» values say about the game: where to stop, and a plot of it.

:func:`stop_boundary` reads the optimal policy off a solved turn: for each number of dice
left, the smallest turn total from which stopping is worth at least throwing on.
:func:`plot_stop_boundary` draws it against the mover's score for a few opponent scores
(matplotlib, imported only here).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from kosti.errors import OptionError
from kosti.games.thousand.game import DICE, Player
from kosti.solver.thousand import kernel
from kosti.solver.thousand.model import STEP
from kosti.solver.thousand.solve import Solution


def stop_boundary(solution: Solution, mover: Player, opponent: Player) -> dict[int, int | None]:
    """For ``mover`` to play against ``opponent`` (their lines at the start of the turn), and
    each number of dice left to throw (1 … 5): the smallest turn total at which stopping is
    allowed and worth at least throwing on, or ``None`` where it never is before the total wins
    or reaches the barrel's cap. Raises :class:`~kosti.errors.OptionError` for a line the
    solution has no position for."""
    model = solution.model
    i = model.status_of(mover)
    j = model.status_of(opponent)
    rows = kernel.rows(model)
    D, R = np.empty((rows, 6)), np.empty(rows)
    kernel.solve_turn(solution.tables, solution.values, i, j, D, R)
    wb = 1.0 - solution.values[j, model.bust_next[i]]
    top = int(model.top[i])
    boundary: dict[int, int | None] = {}
    for dice in range(1, DICE + 1):
        boundary[dice] = next(
            (
                t * STEP
                for t in range(1, top)
                if R[t] >= 0.0 and R[t] >= kernel.throw_value(solution.tables, D, t, dice, wb)
            ),
            None,
        )
    return boundary


def plot_stop_boundary(
    solution: Solution,
    path: Path,
    opponent_scores: Sequence[int] = (0, 300, 600, 850),
) -> None:
    """A PNG at ``path``: for each opponent score (an opened player without bolts), the stop
    boundary of :func:`stop_boundary` against the mover's score (opened, no bolts, not on the
    barrel), one line a number of dice left. Scores the variant cannot hold are left out."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display is needed
    import matplotlib.pyplot as plt

    options = solution.model.options
    last = min(options.target, getattr(options, "barrel_at", options.target))
    scores = range(0, last, STEP)
    fig, axes = plt.subplots(1, len(opponent_scores), figsize=(4 * len(opponent_scores), 4), sharey=True)
    for ax, other in zip(np.atleast_1d(axes), opponent_scores, strict=True):
        opponent = Player(score=other, opened=True)
        lines: dict[int, list[tuple[int, int]]] = {dice: [] for dice in range(1, DICE + 1)}
        for score in scores:
            try:
                boundary = stop_boundary(solution, Player(score=score, opened=True), opponent)
            except OptionError:  # a line the variant cannot hold (the dump's score, a score past the cap)
                continue
            for dice, total in boundary.items():
                if total is not None:
                    lines[dice].append((score, total))
        for dice, points in lines.items():
            if points:
                xs, ys = zip(*points, strict=True)
                ax.plot(xs, ys, label=f"{dice}", linewidth=1.2)
        ax.set_title(f"opponent at {other}")
        ax.set_xlabel("own score at the start of the turn")
        ax.grid(alpha=0.3)
    first = np.atleast_1d(axes)[0]
    first.set_ylabel("smallest turn total to stop at")
    first.legend(title="dice left", fontsize=8)
    fig.suptitle(f"{solution.spec}: when stopping beats throwing on (both players optimal)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
