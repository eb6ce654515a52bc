"""The exact solver: its speed against the Rust ``yatzy-solver``, and its values checked by simulation.

1. Solves standard ``yahtzee`` from scratch (no cache) and builds ``yatzy-solver``'s
   table of the same game in the same run, and prints both times and their ratio
   (the compiled kernels are warmed up first on a tiny sheet, so the time is solving).
   The engine's rule is the forced joker: both values are printed, ours with the
   Rust solver's ``american+forced-joker`` (254.5877287); Verhoeff's 254.5896 is the
   free joker (``american``), which the solver reproduces as ``yahtzee(joker=free)``.
2. For every sheet preset: the expected score (solved, or read from the cache), then
   ``--games`` games (default 100 000) of the optimal strategy in the solver's
   fast simulator, and ``--engine-games`` games (default 2000) of :class:`OptimalBot`
   on the real engine; each mean must lie within its 95 % confidence interval of the
   expectation.

    uv run python bench/solve.py [--games 100000] [--engine-games 2000] [--presets yahtzee,poker-classic]
                                 [--fresh] [--no-speed]
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import yatzy_solver

from kosti.bots.base import play_out
from kosti.games.sheet.game import SHEET
from kosti.roller import SeededDice
from kosti.rules.presets import variant
from kosti.solver import OptimalBot, solve
from kosti.solver.simulate import simulate
from kosti.solver.tables import threads

PRESETS = ("yahtzee", "poker-classic", "poker-extended", "poker-mandatory", "poker-free", "poker-fences")


def speed() -> None:
    solve(variant("yahtzee(lower=[chance],throws=1)"), use_cache=False, fresh=True)  # compile / load kernels
    start = time.perf_counter()
    ours = solve(variant("yahtzee"), use_cache=False, fresh=True)
    our_time = time.perf_counter() - start
    start = time.perf_counter()
    rust = yatzy_solver.Solver.build(yatzy_solver.Variant("american+forced-joker"))
    rust_time = time.perf_counter() - start
    rust_value = rust.state_value("upper 0 | filled -")
    print(f"yahtzee from scratch, {threads()} threads")
    print(f"  kosti         {our_time:7.2f} s  expected {ours.expected_score:.7f} (forced joker)")
    print(f"  yatzy-solver  {rust_time:7.2f} s  expected {rust_value:.7f} (american+forced-joker)")
    print(f"  ratio kosti / yatzy-solver = {our_time / rust_time:.2f}")
    free = solve(variant("yahtzee(joker=free)"), use_cache=False, fresh=True)
    rust_free = yatzy_solver.Solver.build(yatzy_solver.Variant("american")).state_value("upper 0 | filled -")
    print(f"  free joker: kosti {free.expected_score:.7f}, yatzy-solver american {rust_free:.7f}")


def within(scores: np.ndarray, expected: float) -> tuple[float, float, bool]:
    mean = float(np.mean(scores))
    half = 1.96 * float(np.std(scores, ddof=1)) / math.sqrt(len(scores))
    return mean, half, abs(mean - expected) <= half


def check(name: str, games: int, engine_games: int, fresh: bool) -> bool:
    rules = variant(name)
    solution = solve(rules, fresh=fresh)
    when = "read from the cache; it was solved in" if solution.cached else "solved in"
    cap = f"; banked throws capped at {solution.cap}" if solution.cap < solution.model.exact_cap else ""
    print(f"{name}: expected {solution.expected_score:.4f} ({when} {solution.seconds:.1f} s{cap})")
    ok = True
    if games:
        start = time.perf_counter()
        scores, banks = simulate(solution, games, seed=2024)
        mean, half, good = within(scores, solution.expected_score)
        ok &= good
        print(
            f"  simulated {games} games: mean {mean:.4f} ± {half:.4f} (95 %) {'ok' if good else 'OUTSIDE'}"
            f" [{time.perf_counter() - start:.1f} s; most throws banked {banks.max()}]"
        )
    if engine_games:
        start = time.perf_counter()
        bot = OptimalBot()
        totals = []
        for seed in range(engine_games):
            final = play_out(SHEET.new_game(rules, ["solo"]), [bot], SeededDice(seed))
            totals.extend(SHEET.scores(final))  # type: ignore[arg-type]
        mean, half, good = within(np.array(totals, dtype=float), solution.expected_score)
        ok &= good
        print(
            f"  engine + OptimalBot {engine_games} games: mean {mean:.4f} ± {half:.4f} (95 %)"
            f" {'ok' if good else 'OUTSIDE'} [{time.perf_counter() - start:.1f} s]"
        )
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--engine-games", type=int, default=2000)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--no-speed", action="store_true", help="skip the timing against yatzy-solver")
    parser.add_argument("--fresh", action="store_true", help="solve every preset again (ignore the cache)")
    args = parser.parse_args()
    if not args.no_speed:
        speed()
    results = [
        check(name, args.games, args.engine_games, args.fresh) for name in args.presets.split(",") if name
    ]
    # a 95 % interval misses one time in twenty by chance
    print("all within their 95 % interval" if all(results) else "some mean lies outside its 95 % interval")


if __name__ == "__main__":
    main()
