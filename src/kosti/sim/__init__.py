"""Simulation: many games with bots, their statistics, plots and rule comparisons.

* :func:`run` plays a run (game by game with the engine and bots on all cores, or
  vectorised in NumPy for a solitaire sheet and a table policy) into an :class:`Outcome`;
* :func:`~kosti.sim.report.report`, :func:`~kosti.sim.report.render`,
  :func:`~kosti.sim.report.write_csv`, :func:`~kosti.sim.report.plot` present it;
* :func:`~kosti.sim.compare.compare` sets two runs side by side (``kosti simulate --compare``).

Every run is reproducible from its master seed, whatever the number of workers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kosti.errors import OptionError
from kosti.rules.presets import Variant
from kosti.sim.report import Outcome
from kosti.sim.runner import Setup, event_counter, simulate


def run(
    rules: Variant,
    bots: Sequence[str],
    games: int,
    seed: int,
    workers: int = 1,
    vectorised: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Outcome:
    """Play ``games`` games of ``rules`` with one bot per seat and gather the results.

    ``vectorised``: play them all at once in NumPy (one seat, bot ``table``, a single-column
    sheet without banked throws); much faster, same distribution. :class:`OptionError`
    for a combination that cannot be played.
    """
    if vectorised:
        from kosti.sim.table import check_vector_sheet, greedy_table
        from kosti.sim.vector import simulate_vector

        if list(bots) != ["table"]:
            raise OptionError(
                "the vectorised simulator plays solitaire games with the table bot (--bots table)"
            )
        check_vector_sheet(rules.options)
        table = greedy_table(rules.spec)
        scores = simulate_vector(table, games, seed, workers, progress)
        return Outcome.solitaire(rules.spec, "table", seed, scores, table.layout.n_cells)
    setup = Setup(rules.spec, tuple(bots))
    results = simulate(setup, games, seed, workers, progress)
    return Outcome.from_results(rules.spec, bots, seed, results, event_counter(rules).names)


__all__ = ["Outcome", "Setup", "run", "simulate"]
