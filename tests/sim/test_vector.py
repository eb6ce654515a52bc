"""The vectorised simulator plays the engine's game: game by game on shared dice, and in distribution."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from kosti.actions import Action, Hold
from kosti.bots.base import play_out
from kosti.dice import Faces
from kosti.games import engine_for
from kosti.games.base import GameState
from kosti.roller import SeededDice
from kosti.rules.presets import variant
from kosti.show import summary
from kosti.sim.stats import welch_difference
from kosti.sim.table import TableBot, greedy_table
from kosti.sim.vector import CHUNK, play_chunk, simulate_vector


class RecordingGenerator:
    """Stands in for the simulator's generator and keeps every key it hands out."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.keys: list[int] = []

    def integers(self, low: int, high: int, size: int) -> Any:
        out = self.rng.integers(low, high, size)
        self.keys.extend(int(k) for k in out)
        return out


class KeyDice:
    """Replays the simulator's keys to the engine: the thrown dice are the key's digits in the
    positions the last hold left free (all five at the start of a turn)."""

    def __init__(self, keys: list[int]) -> None:
        self.keys = list(keys)
        self.hold_code = 0

    def roll(self, n: int) -> Faces:
        key = self.keys.pop(0)
        free = [i for i in range(5) if not self.hold_code >> i & 1]
        assert len(free) == n
        self.hold_code = 0
        return tuple(key // 6**i % 6 + 1 for i in free)


class TellingBot(TableBot):
    """The table bot, telling the dice which positions it holds."""

    def __init__(self, dice: KeyDice) -> None:
        super().__init__()
        self.dice = dice

    def choose(self, state: GameState) -> Action:
        action = super().choose(state)
        if isinstance(action, Hold):
            dice: Faces = state.dice  # type: ignore[attr-defined]
            code = 0
            rest = list(action.faces)
            for i, f in enumerate(dice):
                if f in rest:
                    rest.remove(f)
                    code |= 1 << i
            self.dice.hold_code = code
        return action


YAHTZEE_5 = "yahtzee(lower=[three_of_a_kind,full_house,small_straight,yahtzee,chance],throws=5)"
"""Five throws make Yahtzees common: jokers and the extra-Yahtzee bonus get played."""


@pytest.mark.parametrize(
    "spec",
    [
        "poker-classic",
        "poker-extended(throws=2)",
        YAHTZEE_5,
        YAHTZEE_5.replace(")", ",joker=free)"),
        YAHTZEE_5.replace(")", ",joker=none)"),
    ],
)
def test_each_game_scores_what_the_engine_scores_on_the_same_dice(spec: str) -> None:
    rules = variant(spec)
    engine = engine_for(rules)
    table = greedy_table(rules.spec)
    extra_yahtzees = 0
    for game in range(30):
        generator = RecordingGenerator(game)
        vector_total = int(play_chunk(table, 1, generator)[0])  # type: ignore[arg-type]
        dice = KeyDice(generator.keys)
        end = play_out(engine.new_game(rules, ["solo"]), [TellingBot(dice)], dice)
        assert not dice.keys
        assert engine.scores(end) == [vector_total]
        extra_yahtzees += summary(end)["players"][0].get("yahtzee_bonuses", 0)
    if spec.startswith("yahtzee"):
        assert extra_yahtzees > 0


def test_vectorised_and_per_game_loop_agree_in_distribution() -> None:
    rules = variant("poker-free(lower=[pair,poker,chance])")
    table = greedy_table(rules.spec)
    vector = simulate_vector(table, 20_000, 1)
    engine = engine_for(rules)
    bot = TableBot(table=table)
    loop = np.array(
        [engine.scores(play_out(engine.new_game(rules, ["a"]), [bot], SeededDice(i)))[0] for i in range(300)]
    )
    assert welch_difference(vector, loop).contains(0.0)
    assert vector.std() == pytest.approx(loop.std(), rel=0.15)


def test_a_seed_gives_the_same_games_on_any_number_of_workers() -> None:
    table = greedy_table(variant("poker-free(lower=[pair,poker,chance])").spec)
    games = CHUNK + 500  # two chunks
    one = simulate_vector(table, games, 9, workers=1)
    two = simulate_vector(table, games, 9, workers=2)
    assert np.array_equal(one, two)
    assert not np.array_equal(one, simulate_vector(table, games, 10, workers=1))
    assert len(simulate_vector(table, 0, 9)) == 0
