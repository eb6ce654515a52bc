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

    ``vectorised``: play them all at once (one seat): bot ``table`` in NumPy for a
    single-column sheet without banked throws, bot ``optimal`` (the exact policy) in the
    solver's compiled simulator for every sheet preset; much faster, same distribution. :class:`OptionError`
    for a combination that cannot be played.
    """
    if vectorised and list(bots) == ["optimal"]:
        # the exact policy plays in the solver's own compiled simulator (every sheet preset)
        import numpy as np

        from kosti.solver import solve
        from kosti.solver.simulate import simulate as simulate_optimal

        solution = solve(rules)
        totals, _ = simulate_optimal(solution, games, seed)
        if progress:
            progress(games)
        cells = len(solution.model.options.lower) + 6
        n_cells = cells * (3 if solution.model.options.columns == "fences" else 1)
        return Outcome.solitaire(rules.spec, "optimal", seed, np.rint(totals).astype(np.int64), n_cells)
    if vectorised:
        from kosti.sim.table import check_vector_sheet, greedy_table
        from kosti.sim.vector import simulate_vector

        if list(bots) != ["table"]:
            raise OptionError(
                "the vectorised simulator plays solitaire games with the table bot (--bots table)"
                " or the exact policy (--bots optimal)"
            )
        check_vector_sheet(rules.options)
        table = greedy_table(rules.spec)
        scores = simulate_vector(table, games, seed, workers, progress)
        return Outcome.solitaire(rules.spec, "table", seed, scores, table.layout.n_cells)
    setup = Setup(rules.spec, tuple(bots))
    results = simulate(setup, games, seed, workers, progress)
    return Outcome.from_results(rules.spec, bots, seed, results, event_counter(rules).names)


__all__ = ["Outcome", "Setup", "run", "simulate"]
