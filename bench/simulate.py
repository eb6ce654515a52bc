"""Throughput of the vectorised simulator against the plain per-game loop, measured in one run.

Both play the same table policy (:func:`kosti.sim.table.greedy_table`) on a solitaire
sheet: the loop game by game through the engine with :class:`~kosti.sim.table.TableBot`,
the vectorised simulator in NumPy. Prints games per second of each and their ratio
(both on one process), then the vectorised figure on every core. Then the same for the
exact policy: :class:`~kosti.solver.OptimalBot` game by game through the engine against
the solver's compiled simulator (``kosti simulate --vectorised --bots optimal``).

    uv run python bench/simulate.py [--preset poker-free] [--games 1000000] [--loop-games 300]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from kosti.bots.base import play_out
from kosti.games import engine_for
from kosti.roller import SeededDice
from kosti.rules.presets import Variant, variant
from kosti.sim.table import TableBot, greedy_table
from kosti.sim.vector import default_workers, simulate_vector


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="poker-free", help="a single-column sheet preset or variant")
    parser.add_argument("--games", type=int, default=1_000_000, help="games for the vectorised simulator")
    parser.add_argument("--loop-games", type=int, default=300, help="games for the per-game loop")
    parser.add_argument(
        "--workers", type=int, default=default_workers(), help="processes for the last figure"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rules = variant(args.preset)
    start = time.perf_counter()
    table = greedy_table(rules.spec)
    print(
        f"{rules.spec}: table of {table.act.shape[0]:,} open-cell sets, {time.perf_counter() - start:.1f} s"
    )

    engine = engine_for(rules)
    bot = TableBot(table=table)
    start = time.perf_counter()
    loop_scores = [
        engine.scores(
            play_out(engine.new_game(rules, ["solo"]), [bot], SeededDice(args.seed * 1_000_003 + i))
        )[0]
        for i in range(args.loop_games)
    ]
    loop_rate = args.loop_games / (time.perf_counter() - start)

    start = time.perf_counter()
    scores = simulate_vector(table, args.games, args.seed, workers=1)
    vector_rate = args.games / (time.perf_counter() - start)

    start = time.perf_counter()
    simulate_vector(table, args.games, args.seed + 1, workers=args.workers)
    parallel_rate = args.games / (time.perf_counter() - start)

    print(
        f"per-game loop (engine + bot), 1 process: {loop_rate:12,.0f} games/s"
        f"  (mean {np.mean(loop_scores):.1f})"
    )
    print(f"vectorised (NumPy), 1 process:          {vector_rate:12,.0f} games/s  (mean {scores.mean():.1f})")
    print(f"ratio vectorised / loop:                {vector_rate / loop_rate:12,.0f} ×")
    print(
        f"vectorised, {args.workers} processes:               {parallel_rate:12,.0f} games/s"
        f"  ({parallel_rate * 60 / 1e6:.1f} million games a minute)"
    )

    exact(rules, args)


def exact(rules: Variant, args: argparse.Namespace) -> None:
    """The exact policy: the engine loop with the optimal bot against the compiled simulator."""
    from kosti.solver import OptimalBot, solve
    from kosti.solver.simulate import simulate as simulate_optimal

    solution = solve(rules)
    engine = engine_for(rules)
    bot = OptimalBot()
    games = max(1, args.loop_games // 3)
    start = time.perf_counter()
    loop_scores = [
        engine.scores(
            play_out(engine.new_game(rules, ["solo"]), [bot], SeededDice(args.seed * 1_000_003 + i))
        )[0]
        for i in range(games)
    ]
    loop_rate = games / (time.perf_counter() - start)
    simulate_optimal(solution, 1000, args.seed)  # compile before timing
    start = time.perf_counter()
    totals, _ = simulate_optimal(solution, args.games, args.seed)
    fast_rate = args.games / (time.perf_counter() - start)
    print(f"exact policy, expected {solution.expected_score:.4f}:")
    print(
        f"  per-game loop (engine + OptimalBot):  {loop_rate:12,.0f} games/s"
        f"  (mean {np.mean(loop_scores):.1f})"
    )
    print(f"  compiled simulator, all cores:        {fast_rate:12,.0f} games/s  (mean {totals.mean():.4f})")
    print(f"  ratio compiled / loop:                {fast_rate / loop_rate:12,.0f} ×")


if __name__ == "__main__":
    main()
