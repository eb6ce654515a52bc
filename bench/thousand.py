"""The two-player «Тысяча» solver: how its cost grows with the target, and its play measured.

1. For ``thousand-classic``, ``thousand-v2`` and ``thousand-classic(barrel=open)``, scaled
   to each target of ``--targets`` (barrel and pits moved with the target, as
   :func:`scaled` says): statuses per player, positions, sweeps, seconds and peak memory
   of a fresh solve, and the ratio of each solve's time to the first target's (the
   baseline measured in the same run). Variants out of reach are reported as refused.
2. ``--floor-check``: the first variant solved again with the floor on scores 100 lower;
   the change of the first player's chance must stay below 1e-7.
3. ``--games N``: optimal against itself on the real engine (the first seat's win rate
   against the 99 % interval of ``p``), and ``--games`` games optimal against the
   heuristic bot (seats alternating; win rate with its 95 % interval).
4. ``--rules N``: each rule's effect at ``--games-target``: the variant with one rule taken
   out, solved exactly (the first player's edge ``2p − 1``), and ``N`` games of optimal
   self-play on the engine for the game's length (turns) and how often a climb onto the
   barrel ends off it without a win.
5. ``--plot FILE``: the stop/throw boundary of the full ``thousand-classic`` (solved, or read
   from the cache) as a PNG.

    uv run python bench/thousand.py [--targets 100,150,200,250] [--floor-check] [--games 10000]
        [--rules 2000] [--games-target 200] [--plot docs/thousand-boundary.png]
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

from kosti.bots.base import play_out
from kosti.bots.thousand import ThousandBot
from kosti.errors import OptionError
from kosti.games.base import GameState
from kosti.games.thousand.game import THOUSAND
from kosti.roller import SeededDice
from kosti.rules.presets import Variant, variant
from kosti.solver.thousand.advisor import OptimalThousandBot
from kosti.solver.thousand.solve import peak_memory_mb, solve

FAMILIES = ("thousand-classic", "thousand-v2", "thousand-classic(barrel=open)")


def scaled(name: str, target: int) -> Variant:
    """``name`` played to ``target``: the barrel stands at the same fraction of the target as in
    the full game (880/1000, 850/1000), and only pits and a dump below the barrel stay."""
    base = variant(name)
    options = base.options
    if target == getattr(options, "target", None):
        return base  # the game itself (and its cached solve)
    at = getattr(options, "barrel_at", 880)
    barrel_at = max(5, round(target * at / 1000 / 5) * 5)
    overrides: dict[str, object] = {"target": target, "barrel_at": barrel_at}
    overrides["pits"] = [list(p) for p in getattr(options, "pits", ()) if p[1] < barrel_at]
    dump = getattr(options, "dump_at", None)
    if dump is not None and dump >= barrel_at:
        overrides["dump_at"] = None
    return variant(name, overrides)


def growth(targets: list[int], families: tuple[str, ...] = FAMILIES) -> None:
    for name in families:
        first: float | None = None
        for target in targets:
            rules = scaled(name, target)
            start = time.perf_counter()
            try:
                solution = solve(rules, use_cache=False)
            except OptionError as error:
                print(f"{name:32} target {target:5}: refused ({error})")
                continue
            seconds = time.perf_counter() - start
            first = first or seconds
            print(
                f"{name:32} target {target:5}: {solution.model.n:6} statuses "
                f"{solution.positions:12,} positions "
                f"{solution.sweeps:4} sweeps {seconds:9.1f} s (×{seconds / first:6.1f}) "
                f"peak {peak_memory_mb():8.1f} MB  p = {solution.win_probability:.10f}",
                flush=True,
            )


def floor_check(target: int) -> None:
    rules = scaled(FAMILIES[0], target)
    base = solve(rules, use_cache=False)
    lower = solve(rules, floor=base.model.floor - 100, use_cache=False)
    change = abs(base.win_probability - lower.win_probability)
    print(f"floor {base.model.floor} → {lower.model.floor}: p changes by {change:.2e} (must be < 1e-7)")


def games(rules: Variant, n: int) -> None:
    p = solve(rules).win_probability
    bot = OptimalThousandBot()
    wins = sum(
        play_out(THOUSAND.new_game(rules, ["a", "b"]), [bot, bot], SeededDice(g)).winner == 0  # type: ignore[attr-defined]
        for g in range(n)
    )
    half = 2.576 * math.sqrt(p * (1 - p) / n)
    print(f"optimal v optimal, {n} games: first seat {wins / n:.4f}, p = {p:.4f} ± {half:.4f} (99 %)")
    heuristic = ThousandBot()
    won = 0
    for g in range(n):
        seats = [bot, heuristic] if g % 2 == 0 else [heuristic, bot]
        won += play_out(THOUSAND.new_game(rules, ["a", "b"]), seats, SeededDice(10**6 + g)).winner == g % 2  # type: ignore[attr-defined]
    rate = won / n
    half = 1.96 * math.sqrt(rate * (1 - rate) / n)
    print(f"optimal v heuristic, {n} games: {rate:.4f} ± {half:.4f} (95 %)")


RULES = {
    "as played": {},
    "no pits": {"pits": []},
    "no overtaking": {"overtake_penalty": 0},
    "no bolts": {"bolt_limit": 0},
    "no barrel": {"barrel": "none"},
    "open barrel": {"barrel": "open"},
}
"""Each rule taken out of ``thousand-classic`` (no dump at a reduced target: 555 is past its barrel)."""


def self_play(rules: Variant, n: int, seed: int = 0) -> tuple[float, float, int, int]:
    """``n`` games of optimal self-play on the engine: the first seat's win rate, the mean turns a
    game, the climbs onto the barrel and how many of them ended off it without a win."""
    bot = OptimalThousandBot()
    climbs = lost = turns = wins = 0

    def watch(before: GameState, action: object, after: GameState) -> None:
        nonlocal climbs, lost
        for was, now in zip(before.board, after.board, strict=True):  # type: ignore[attr-defined]
            climbs += now.on_barrel and not was.on_barrel
            lost += was.on_barrel and not now.on_barrel and after.winner is None  # type: ignore[attr-defined]

    for g in range(n):
        end = play_out(
            THOUSAND.new_game(rules, ["a", "b"]), [bot, bot], SeededDice(seed + g), on_action=watch
        )
        wins += end.winner == 0  # type: ignore[attr-defined]
        turns += end.turn  # type: ignore[attr-defined]
    return wins / n, turns / n, climbs, lost


def rule_effects(target: int, n: int) -> None:
    for label, change in RULES.items():
        base = scaled("thousand-classic", target)
        rules = variant(base.spec, change) if change else base
        p = solve(rules).win_probability
        rate, turns, climbs, lost = self_play(rules, n)
        barrel = f"barrel lost {lost}/{climbs} climbs ({lost / climbs:.1%})" if climbs else "no barrel"
        print(
            f"{label:14} target {target}: first player's edge {2 * p - 1:+.4f} (p = {p:.6f}); "
            f"{n} games: {turns:.1f} turns a game, first seat won {rate:.3f}; {barrel}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--targets", default="100,150,200,250")
    parser.add_argument("--floor-check", action="store_true")
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--games-target", type=int, default=200)
    parser.add_argument("--rules", type=int, default=0, help="self-play games a rule set, at --games-target")
    parser.add_argument("--plot", default=None, help="write the full game's stop boundary to this PNG")
    parser.add_argument("--skip-growth", action="store_true")
    parser.add_argument("--families", default=",".join(FAMILIES), help="variants to measure the growth of")
    args = parser.parse_args()
    targets = [int(t) for t in args.targets.split(",")]
    if not args.skip_growth:
        growth(targets, tuple(args.families.split(",")))
    if args.floor_check:
        floor_check(targets[0])
    if args.games:
        games(scaled(FAMILIES[0], args.games_target), args.games)
    if args.rules:
        rule_effects(args.games_target, args.rules)
    if args.plot:
        from kosti.solver.thousand.analysis import plot_stop_boundary

        plot_stop_boundary(solve(variant("thousand-classic")), Path(args.plot))
        print(f"stop boundary of thousand-classic written to {args.plot}")


if __name__ == "__main__":
    main()
