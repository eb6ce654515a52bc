"""The exact solver: its speed against the Rust ``yatzy-solver``, and its values checked by simulation.

1. For every sheet preset: the expected score (solved, or read from the cache), then
   ``--games`` games (default 100 000) of the optimal strategy in the solver's
   fast simulator, and ``--engine-games`` games (default 2000) of :class:`OptimalBot`
   on the real engine; each mean must lie within its 95 % confidence interval of the
   expectation.
2. The whole process, as a user runs it: ``kosti solve yahtzee --fresh --json`` (the
   compiled code cached, the table solved again) against a process that builds
   ``yatzy-solver``'s table of the same game (``american+forced-joker``, 254.5877287;
   Verhoeff's 254.5896 is the free joker, ``yahtzee(joker=free)`` here), alternating,
   ``--rounds`` times each; the fastest of each counts. Also ``kosti solve yahtzee --json``
   with the table cached, and ``kosti --help``. The last line is the ratio.

    uv run python bench/solve.py [--games 100000] [--engine-games 2000] [--presets yahtzee,poker-classic]
                                 [--fresh] [--no-check] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time

import numpy as np

from kosti.bots.base import play_out
from kosti.games.sheet.game import SHEET
from kosti.roller import SeededDice
from kosti.rules.presets import variant
from kosti.solver import OptimalBot, solve
from kosti.solver.simulate import simulate
from kosti.solver.tables import threads

PRESETS = ("yahtzee", "poker-classic", "poker-extended", "poker-mandatory", "poker-free", "poker-fences")


PEER = (
    "import yatzy_solver as ys; s = ys.Solver.build(ys.Variant('american+forced-joker')); "
    "print(s.state_value('upper 0 | filled -'))"
)


def timed(command: list[str]) -> tuple[float, str]:
    """Wall time of one whole process, and what it printed."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout.strip()


def speed(rounds: int) -> None:
    kosti = [sys.executable, "-m", "kosti"]
    timed([*kosti, "solve", "yahtzee(lower=[chance],throws=1)", "--fresh", "--json"])  # compile once
    best = {"kosti": float("inf"), "peer": float("inf"), "cached": float("inf"), "help": float("inf")}
    ours = theirs = ""
    for _ in range(rounds):
        t, ours = timed([*kosti, "solve", "yahtzee", "--fresh", "--json"])
        best["kosti"] = min(best["kosti"], t)
        t, theirs = timed([sys.executable, "-c", PEER])
        best["peer"] = min(best["peer"], t)
        best["cached"] = min(best["cached"], timed([*kosti, "solve", "yahtzee", "--json"])[0])
        best["help"] = min(best["help"], timed([*kosti, "--help"])[0])
    value = json.loads(ours)["expected_score"]
    print(f"whole process, yahtzee, fastest of {rounds}, {threads()} threads")
    print(
        f"  kosti solve yahtzee --fresh --json  {best['kosti']:7.2f} s  expected {value:.7f} (forced joker)"
    )
    print(f"  yatzy-solver build                  {best['peer']:7.2f} s  expected {float(theirs):.7f}")
    print(f"  kosti solve yahtzee --json (cached) {best['cached']:7.2f} s")
    print(f"  kosti --help                        {best['help']:7.2f} s")
    print(f"solve: ratio {best['kosti'] / best['peer']:.2f} (kosti / yatzy-solver, whole process, warm)")


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
    parser.add_argument("--no-check", action="store_true", help="only the timing against yatzy-solver")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--fresh", action="store_true", help="solve every preset again (ignore the cache)")
    args = parser.parse_args()
    if not args.no_check:
        presets = [name for name in args.presets.split(",") if name]
        results = [check(name, args.games, args.engine_games, args.fresh) for name in presets]
        # a 95 % interval misses one time in twenty by chance
        print(
            "all within their 95 % interval" if all(results) else "some mean lies outside its 95 % interval"
        )
    speed(args.rounds)


if __name__ == "__main__":
    main()
