"""The compiled advisor against the Rust ``yatzy-solver``'s ``option_values``, in one run.

The same 1 000 random Yahtzee positions (a random part of the sheet filled, the dice of
a first throw, two throws left) are asked of both: one query at a time, then all in one
batch. Every option's value is compared first (the best option's value must agree to
1e-6). Rounds alternate between the two; the best round of each counts.

    uv run python bench/advisor.py [--positions 1000] [--rounds 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import numpy as np
import yatzy_solver

from kosti.games.sheet.game import SHEET, Sheet, SheetState, cells_of
from kosti.rules.options import SheetOptions
from kosti.rules.presets import variant
from kosti.solver import SheetAdvisor, solve
from kosti.solver.advisor import option_values, position_row

PEER_CELLS = {"yahtzee": "five_of_a_kind"}
"""Our cell ids where the peer's differ."""


def positions(count: int, seed: int) -> tuple[list[SheetState], list[str]]:
    """``count`` random positions after the first throw: our states and the peer's notation."""
    rules = variant("yahtzee")
    options = rules.options
    assert isinstance(options, SheetOptions)
    names = cells_of(options)
    rng = np.random.default_rng(seed)
    start = SHEET.new_game(rules, ["solo"])
    states: list[SheetState] = []
    texts: list[str] = []
    while len(states) < count:
        filled = rng.random(len(names)) < rng.random()
        if filled.all():
            continue
        cells: list[int | None] = []
        for i, name in enumerate(names):
            if not filled[i]:
                cells.append(None)
            elif i < 6:
                cells.append(int(rng.integers(0, 6)) * (i + 1))
            elif name == "yahtzee":
                cells.append(int(rng.choice([0, 50])))
            else:
                cells.append(int(rng.integers(0, 30)))
        dice = tuple(sorted(int(f) for f in rng.integers(1, 7, 5)))
        state = replace(start, sheets=(Sheet((tuple(cells),)),), dice=dice, throws=1, pending=0)
        upper = min(63, sum(v for v in cells[:6] if v is not None))
        done = [PEER_CELLS.get(n, n) for n, v in zip(names, cells, strict=True) if v is not None]
        text = f"dice {' '.join(map(str, dice))} | rolls 2 | upper {upper} | filled {','.join(done) or '-'}"
        if cells[names.index("yahtzee")] is not None:
            text += f" | five_of_a_kind {cells[names.index('yahtzee')]}"
        states.append(state)
        texts.append(text)
    return states, texts


def early_bonus(state: SheetState) -> float:
    """The upper bonus already made but not yet paid: the peer pays it as soon as the upper
    total reaches 63, the sheet (RULES.md §5) once the upper section is full."""
    upper = state.sheets[0].columns[0][:6]
    made = sum(v for v in upper if v is not None) >= 63
    return 35.0 if made and None in upper else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    solution = solve(variant("yahtzee"))
    peer = yatzy_solver.Solver.build(yatzy_solver.Variant("american+forced-joker"))
    peer_rules = peer.variant
    states, texts = positions(args.positions, args.seed)
    advisor = SheetAdvisor()
    rows = np.array([position_row(solution.model, s) for s in states], dtype=np.int64)
    arrays = peer_rules.situation_arrays(texts)

    # the same answers first
    ours = option_values(solution, rows)
    worst = 0.0
    for state, text, row in zip(states, texts, ours, strict=True):
        best = max(v for _, v in peer.option_values(text))
        worst = max(worst, abs(best + early_bonus(state) - float(np.nanmax(row))))
    print(f"{len(states)} positions: best option's value agrees with yatzy-solver to {worst:.2e}")
    if worst > 1e-6:
        raise SystemExit("the values differ")
    advisor.values(states[0])  # load the compiled code before timing

    single: dict[str, float] = {"kosti": float("inf"), "peer": float("inf")}
    batched: dict[str, float] = {"kosti": float("inf"), "peer": float("inf")}
    for _ in range(args.rounds):
        start = time.perf_counter()
        for state in states:
            advisor.values(state)
        single["kosti"] = min(single["kosti"], time.perf_counter() - start)
        start = time.perf_counter()
        for text in texts:
            peer.option_values(text)
        single["peer"] = min(single["peer"], time.perf_counter() - start)
        start = time.perf_counter()
        option_values(solution, rows)
        batched["kosti"] = min(batched["kosti"], time.perf_counter() - start)
        start = time.perf_counter()
        peer.option_values_batch(**arrays)
        batched["peer"] = min(batched["peer"], time.perf_counter() - start)
    n = len(states)
    for what, times in (("single", single), ("batched", batched)):
        print(
            f"{what:8s} kosti {times['kosti'] / n * 1e6:8.2f} µs/position"
            f"   yatzy-solver {times['peer'] / n * 1e6:8.2f} µs/position"
        )
    print(
        f"advisor: ratio single {single['kosti'] / single['peer']:.2f}, "
        f"batched {batched['kosti'] / batched['peer']:.2f} (kosti / yatzy-solver)"
    )


if __name__ == "__main__":
    main()
