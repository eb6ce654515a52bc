"""Throughput of the vectorised simulator against the plain per-game loop, measured in one run.

Both play the same table policy (:func:`kosti.sim.table.greedy_table`) on a solitaire
sheet: the loop game by game through the engine with :class:`~kosti.sim.table.TableBot`,
the vectorised simulator in NumPy. Prints games per second of each and their ratio
(both on one process), then the vectorised figure on every core. Then the same for the
exact policy: :class:`~kosti.solver.OptimalBot` game by game through the engine against
the solver's compiled simulator (``kosti simulate --vectorised --bots optimal``).

With ``--optimal`` it measures only the exact policy on ``yahtzee`` against the Rust
``yatzy-solver``'s optimal simulation (``Solver.simulate``, ``american+forced-joker``), both
on every core, alternating, the fastest of ``--rounds`` each; both means must agree with
the expectation. The last line gives games a minute and the ratio.

    uv run python bench/simulate.py [--preset poker-free] [--games 1000000] [--loop-games 300]
    uv run python bench/simulate.py --optimal [--games 200000] [--rounds 3]
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
    parser.add_argument("--optimal", action="store_true", help="the exact policy against yatzy-solver")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.optimal:
        against_peer(args.games, args.rounds, args.seed)
        return

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


def against_peer(games: int, rounds: int, seed: int) -> None:
    """Optimal Yahtzee games a minute: the compiled simulator against ``yatzy-solver``'s."""
    import yatzy_solver

    from kosti.solver import solve
    from kosti.solver.simulate import simulate as simulate_optimal
    from kosti.solver.tables import threads

    solution = solve(variant("yahtzee"))
    peer = yatzy_solver.Solver.build(yatzy_solver.Variant("american+forced-joker"))
    simulate_optimal(solution, 1000, seed)  # load the compiled code before timing
    ours = theirs = float("inf")
    our_mean = their_mean = 0.0
    for r in range(rounds):
        start = time.perf_counter()
        scores, _ = simulate_optimal(solution, games, seed + r)
        ours = min(ours, time.perf_counter() - start)
        our_mean = float(scores.mean())
        start = time.perf_counter()
        result = peer.simulate(games, seed=seed + r)
        theirs = min(theirs, time.perf_counter() - start)
        their_mean = float(np.mean(result["scores"]))
    print(f"yahtzee, optimal play, {games:,} games, fastest of {rounds}, {threads()} threads")
    print(f"  expected {solution.expected_score:.4f}; means: kosti {our_mean:.3f}, peer {their_mean:.3f}")
    print(f"  kosti         {games / ours:12,.0f} games/s")
    print(f"  yatzy-solver  {games / theirs:12,.0f} games/s")
    rates = f"kosti {games / ours * 60:,.0f} games/min, yatzy-solver {games / theirs * 60:,.0f} games/min"
    print(f"simulate: {rates}, ratio {theirs / ours:.2f} (kosti's rate / yatzy-solver's)")


if __name__ == "__main__":
    main()
