"""Each family's turn view (``kosti.games.turn_view``): what a player may do now, what the
throw and stop keys do, and why anything else is refused, always as the engine says."""

from __future__ import annotations

import json
import random

import pytest

from kosti import Roll, apply, new_game
from kosti.actions import Action, CellAction, Hold, Score, SetAside, Stop, Throw
from kosti.errors import IllegalActionError
from kosti.games import engine_for, turn_view
from kosti.games.base import GameState
from kosti.games.turn import Group
from kosti.rules import PRESETS

PRESET_IDS = sorted(PRESETS)


def positions(preset: str, games: int = 3, seed: int = 7) -> list[GameState]:
    """Every position of a few games of ``preset`` played at random (the same each run)."""
    chance = random.Random(f"{preset}:{seed}")
    seen = []
    for _ in range(games):
        state = new_game(preset, ["Anna", "Boris"])
        engine = engine_for(state.variant)
        for _ in range(400):
            seen.append(state)
            if engine.is_finished(state):
                break
            n = engine.to_throw(state)
            if n:
                state = apply(state, Roll(tuple(chance.randint(1, 6) for _ in range(n))))
            else:
                state = apply(state, chance.choice(engine.decisions(state)))
    return seen


def refusal(state: GameState, actions: list[Action]) -> IllegalActionError | None:
    try:
        for action in actions:
            state = apply(state, action)
    except IllegalActionError as error:
        return error
    return None


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_the_view_says_what_the_engine_says(preset: str) -> None:
    """Open actions are taken, closed ones refused with the engine's own refusal, and each key's
    plan is what playing it does, for every position of a few random games."""
    for state in positions(preset):
        engine = engine_for(state.variant)
        view = turn_view(state)
        assert view.player == engine.current_player(state)
        assert view.to_throw == engine.to_throw(state)
        assert list(view.open) == (engine.decisions(state) if not view.to_throw else [])
        for action, why in view.closed:
            assert action not in view.open
            refused = refusal(state, [action])
            assert refused is not None and str(refused) == str(why)
        for key in (view.throw, view.stop):
            refused = refusal(state, list(key.actions))
            if key.refusal is not None:
                assert refused is not None and str(refused) == str(key.refusal)
                continue
            assert refused is None
            after = state
            for action in key.actions:
                after = apply(after, action)
            if after.turn == state.turn and not engine.is_finished(after):
                assert engine.to_throw(after) == key.throws
        if view.pick is not None:
            assert view.dice, "dice to pick lie on the table"


def first_decision(preset: str, faces: tuple[int, ...]) -> GameState:
    state = new_game(preset, ["Anna", "Boris"])
    return apply(state, Roll(faces))


def test_the_throw_key_holds_the_picked_dice_and_throws_the_rest() -> None:
    state = first_decision("poker-classic", (1, 6, 6, 2, 3))
    view = turn_view(state, (6, 6))
    assert view.pick == "hold" and view.throws_left == 2
    assert view.throw.actions == (Hold((6, 6)),) and view.throw.throws == 3 and view.throw.open
    assert turn_view(state, (4,)).throw.refusal is not None  # no 4 on the table


def test_a_closed_cell_says_why_the_upper_section_comes_first() -> None:
    state = first_decision("poker-classic", (2, 2, 2, 3, 3))
    why = turn_view(state).refusal_of(Score("full_house"))
    assert why is not None and "upper section" in str(why)
    assert Score("twos") in turn_view(state).open


def test_sheets_have_no_stop_key() -> None:
    view = turn_view(first_decision("yahtzee", (1, 2, 3, 4, 5)))
    assert not view.stop.open


def test_column_ii_asks_for_an_announcement_before_a_further_throw() -> None:
    """poker-fences: column II is filled after column I, announced after the first throw."""
    state = new_game("poker-fences", ["Anna"])
    engine = engine_for(state.variant)
    while engine.column_kind(state) != "announced":  # type: ignore[attr-defined]
        if engine.to_throw(state):
            state = apply(state, Roll((1,) * engine.to_throw(state)))
        else:
            cells = [a for a in engine.decisions(state) if isinstance(a, CellAction) and a.kind != "announce"]
            state = apply(state, cells[0])
    state = apply(
        apply(state, Hold(())), Roll((1, 2, 3, 4, 6))
    )  # a turn of poker-fences starts at a decision
    view = turn_view(state, (6,))
    assert not view.throw.open and view.pick == "hold"
    assert any(isinstance(a, CellAction) and a.kind == "announce" for a in view.open)


def test_showdown_keeps_locked_dice_and_stands() -> None:
    state = first_decision("poker-showdown", (2, 2, 5, 6, 1))
    view = turn_view(state, (2, 2))
    assert view.throw.actions == (Hold((2, 2)),) and view.throw.throws == 3
    assert view.stop.actions == (Stop(),) and view.stop.open
    state = apply(state, Hold((2, 2)))
    state = apply(state, Roll((3, 4, 6)))
    view = turn_view(state, (6,))
    assert view.locked == (2, 2)
    assert view.throw.refusal is not None  # the locked pair must stay held
    assert turn_view(state, (2, 2, 6)).throw.open


def test_thousand_sets_the_picked_dice_aside_then_throws_or_stops() -> None:
    state = first_decision("thousand-classic(set_aside=choice)", (1, 5, 5, 3, 4))
    view = turn_view(state, (1,))
    assert view.pick == "set_aside" and set(view.scoring) == {1, 5}
    assert view.throw.actions[0] == SetAside((1,)) and view.throw.throws == 4
    # below the opening 50 a stop is refused, with the engine's reason
    assert turn_view(state, (1, 5, 5)).stop.refusal is not None


def test_setting_all_five_aside_for_a_confirming_throw_throws_the_five() -> None:
    """Variant 2 (RULES.md §3.1): with all five set aside the turn is confirmed by a throw of
    five, so the throw key sets the picked dice aside and throws the five due, and a stop is
    refused; with a die left on the table the key throws on as usual (both sides of the line)."""
    state = first_decision("thousand-v2", (1, 1, 1, 5, 5))
    view = turn_view(state, (1, 1, 1, 5, 5))
    assert view.throw.open and view.throw.actions == (SetAside((1, 1, 1, 5, 5)),)
    assert view.throw.throws == 5
    assert not view.stop.open
    four = turn_view(state, (1, 1, 1, 5))
    assert (
        four.throw.open and four.throw.actions == (SetAside((1, 1, 1, 5)), Throw()) and four.throw.throws == 1
    )


def test_thousand_shows_each_group_set_aside_with_its_points_and_the_dice_left_on_the_table() -> None:
    """RULES.md §3.1: a 1 is 10, a 5 is 5; the scoring dice lie apart, the rest may be thrown on."""
    state = first_decision("thousand-classic", (1, 5, 2, 3, 3))
    view = turn_view(state)
    assert view.aside == (Group((1, 5), 15),) and view.turn_total == 15
    assert view.dice == (2, 3, 3) and view.pick is None
    assert view.throw.actions == (Throw(),) and view.throw.throws == 3
    state = apply(apply(state, Throw()), Roll((1, 1, 1)))  # three ones: 100
    view = turn_view(state)
    assert view.aside == (Group((1, 5), 15), Group((1, 1, 1), 100))
    assert view.turn_total == 115 and view.dice == ()
    # all five set aside: hot dice, all five are thrown again and the groups stay
    assert view.to_throw == 5 and view.throw.throws == 5
    json.dumps(view.to_json())


def test_a_view_is_plain_data() -> None:
    for preset in PRESET_IDS:
        for state in positions(preset, games=1)[:40]:
            data = turn_view(state).to_json()
            assert json.loads(json.dumps(data)) == data
