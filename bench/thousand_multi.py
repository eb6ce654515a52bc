"""«Тысяча» with three or more players: the policy derived from the two-player values, measured.

The exact solver is for two players. With more, :class:`OptimalThousandBot` plays each turn as
if the strongest opponent (on the barrel first, then the highest score) were the only one: a
heuristic built on exact two-player values, **not exact**. This measures it against the
heuristic bot on a small variant: one derived bot and ``players − 1`` heuristic bots, the
derived bot's seat rotated through every seat in turn, and its win rate with a 95 % (Wilson)
interval next to the fair share ``1 / players``.

    uv run python bench/thousand_multi.py [--players 3] [--games 3000] [--variant SPEC]
"""

from __future__ import annotations

import argparse
import time

from kosti.bots.base import Bot, play_out
from kosti.bots.thousand import ThousandBot
from kosti.games.thousand.game import THOUSAND
from kosti.roller import SeededDice
from kosti.rules.presets import variant
from kosti.sim.stats import wilson
from kosti.solver.thousand.advisor import OptimalThousandBot
from kosti.solver.thousand.solve import solve

SMALL = (
    "thousand-classic(target=100,barrel=none,pits=[],dump_at=null,opening=10,bolt_limit=0,"
    "overtake_penalty=5,first_player=seat)"
)
"""Solved in seconds; overtaking still counts, so the opponents' order matters."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--variant", default=SMALL)
    args = parser.parse_args()
    rules = variant(args.variant)
    start = time.perf_counter()
    solution = solve(rules)
    print(
        f"{rules.spec}: two-player values, {solution.model.n} statuses, {time.perf_counter() - start:.1f} s"
    )
    derived, heuristic = OptimalThousandBot(), ThousandBot()
    names = [f"p{k + 1}" for k in range(args.players)]
    wins = 0
    by_seat = [0] * args.players
    start = time.perf_counter()
    for game in range(args.games):
        seat = game % args.players  # the derived bot's seat, rotated
        bots: list[Bot | None] = [derived if k == seat else heuristic for k in range(args.players)]
        end = play_out(THOUSAND.new_game(rules, names), bots, SeededDice(game))
        if end.winner == seat:  # type: ignore[attr-defined]
            wins += 1
            by_seat[seat] += 1
    seconds = time.perf_counter() - start
    interval = wilson(wins, args.games)
    low, high = interval.low, interval.high
    share = 1 / args.players
    print(
        f"derived policy vs {args.players - 1} heuristic bots, {args.games} games, seats rotated: "
        f"win rate {wins / args.games:.4f} (95 % interval {low:.4f}–{high:.4f}); fair share {share:.4f}; "
        f"{seconds:.0f} s"
    )
    per_seat = args.games / args.players
    print("win rate by the derived bot's seat: " + ", ".join(f"{w / per_seat:.3f}" for w in by_seat))


if __name__ == "__main__":
    main()
