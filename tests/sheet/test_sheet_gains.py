"""What recording each cell would add now (the page's and the terminal's "gains"): the sheet
engine's fast answer against playing each record and comparing the scores."""

from __future__ import annotations

import random

import pytest

from kosti.actions import Action, CellAction, Roll, Score
from kosti.games.base import Engine
from kosti.games.sheet.game import SHEET, SheetState
from kosti.rules import PRESETS, variant

SPECS = [p.id for p in PRESETS.values() if p.family == "sheet"]
SPECS += ["yahtzee(joker=free)", "yahtzee(joker=none)"]


def faces(rng: random.Random, n: int) -> tuple[int, ...]:
    """Dice with five of a kind one time in four, so jokers and Yahtzee bonuses come up."""
    if n == 5 and rng.random() < 0.25:
        return (rng.randint(1, 6),) * 5
    return tuple(rng.randint(1, 6) for _ in range(n))


@pytest.mark.parametrize("spec", SPECS)
def test_the_gains_are_what_each_record_adds_to_the_score(spec: str) -> None:
    rng = random.Random(spec)
    checked = 0
    for _ in range(3):
        state: SheetState = SHEET.new_game(variant(spec), ["Anna", "Boris"])
        while not SHEET.is_finished(state):
            n = SHEET.to_throw(state)
            if n:
                state = SHEET.apply(state, Roll(faces(rng, n)))
                continue
            gains = SHEET.gains(state)
            assert gains == Engine.gains(SHEET, state)
            checked += bool(gains)
            options: list[Action] = SHEET.decisions(state)
            records = [a for a in options if isinstance(a, CellAction) and a.kind == "score"]
            # record often, so that sheets fill and their bonuses are settled
            state = SHEET.apply(state, rng.choice(records if records and rng.random() < 0.5 else options))
    assert checked > 20


def test_the_gain_of_the_cell_that_completes_the_upper_section_includes_its_bonus() -> None:
    state = SHEET.new_game(variant("yahtzee"), ["solo"])
    for face in range(1, 6):
        state = SHEET.apply(state, Roll((face, face, face, 6 if face < 6 else 1, 2 if face != 2 else 1)))
        state = SHEET.apply(state, Score(("ones", "twos", "threes", "fours", "fives")[face - 1]))
    assert SHEET.scores(state) == [45]
    state = SHEET.apply(state, Roll((6, 6, 6, 1, 2)))
    gains = SHEET.gains(state)
    assert gains["sixes"] == 18 + 35  # 63 in the upper section earns 35
    assert gains["chance"] == 21
    assert SHEET.scores(SHEET.apply(state, Score("sixes"))) == [45 + 18 + 35]


def test_no_gains_before_a_throw_or_when_the_game_is_over() -> None:
    state = SHEET.new_game(variant("yahtzee"), ["solo"])
    assert SHEET.gains(state) == {} == Engine.gains(SHEET, state)


def test_a_further_yahtzee_gains_its_forced_joker_cell_and_the_bonus() -> None:
    state = SHEET.new_game(variant("yahtzee"), ["solo"])
    state = SHEET.apply(SHEET.apply(state, Roll((4,) * 5)), Score("yahtzee"))
    state = SHEET.apply(state, Roll((4,) * 5))
    # forced joker: the fours must take it while they are open, and the bonus comes on top
    assert SHEET.gains(state) == {"fours": 20 + 100} == Engine.gains(SHEET, state)


def test_a_forced_joker_whose_upper_cell_is_taken_gains_a_lower_cell_at_its_fixed_value() -> None:
    # RULES.md §1.5: the matching upper cell if open, else any open lower cell, where full
    # house and the straights score their fixed value; +100 on top
    state = SHEET.new_game(variant("yahtzee"), ["solo"])
    state = SHEET.apply(SHEET.apply(state, Roll((4,) * 5)), Score("yahtzee"))
    state = SHEET.apply(SHEET.apply(state, Roll((4, 4, 4, 1, 2))), Score("fours"))
    state = SHEET.apply(state, Roll((4,) * 5))
    gains = SHEET.gains(state)
    assert gains == Engine.gains(SHEET, state)
    assert gains["full_house"] == 25 + 100
    assert gains["small_straight"] == 30 + 100
    assert gains["large_straight"] == 40 + 100
    assert gains["chance"] == 20 + 100
    assert not any(cell in gains for cell in ("ones", "twos", "threes", "fives", "sixes"))
