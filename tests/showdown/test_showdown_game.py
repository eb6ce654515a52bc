"""Showdown poker dice as a game (RULES.md §2): turns, locked holds, the bank, deciding rounds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from kosti.actions import Action, Hold, Roll, Score, Stop
from kosti.errors import IllegalActionError
from kosti.games import engine_for, new_game
from kosti.games.showdown.game import SHOWDOWN, ShowdownState
from kosti.rules.presets import variant
from kosti.show import summary


def start(players: Sequence[str] = ("Anna", "Boris"), **options: Any) -> ShowdownState:
    state = SHOWDOWN.new_game(variant("poker-showdown", options), players)
    return state


def play(state: ShowdownState, *actions: Action) -> ShowdownState:
    for action in actions:
        state = SHOWDOWN.apply(state, action)
    return state


def stand_on(state: ShowdownState, *throws: Sequence[int]) -> ShowdownState:
    """Each player in turn throws once and stands."""
    for faces in throws:
        state = play(state, Roll(tuple(faces)), Stop())
    return state


def test_dispatch_finds_the_showdown_engine() -> None:
    state = new_game("poker-showdown", ["Anna"])
    assert engine_for(state.variant) is SHOWDOWN
    assert isinstance(state, ShowdownState)


def test_every_player_antes_into_the_bank_when_a_round_starts() -> None:
    state = start(("Anna", "Boris", "Vera"), ante=3)
    assert state.bank == 9
    assert SHOWDOWN.scores(state) == [-3, -3, -3]
    assert SHOWDOWN.to_throw(state) == 5
    assert SHOWDOWN.current_player(state) == 0


def test_a_turn_begins_with_a_throw_of_five() -> None:
    state = start()
    assert SHOWDOWN.decisions(state) == []
    with pytest.raises(IllegalActionError, match="5 dice must be thrown first"):
        SHOWDOWN.apply(state, Stop())
    with pytest.raises(IllegalActionError, match="5 dice are thrown now"):
        SHOWDOWN.apply(state, Roll((1, 2, 3)))


def test_the_player_may_stand_after_any_throw() -> None:
    state = play(start(), Roll((1, 2, 3, 4, 6)))
    assert Stop() in SHOWDOWN.decisions(state)
    after = SHOWDOWN.apply(state, Stop())
    assert after.turn == 1
    assert SHOWDOWN.current_player(after) == 1
    assert after.hands[0] == (1, 2, 3, 4, 6)


def test_the_third_throw_ends_the_turn_without_an_action() -> None:
    state = play(start(), Roll((4, 4, 1, 2, 3)), Hold((4, 4)), Roll((4, 6, 6)), Hold((4, 4, 4)))
    assert state.turn == 0
    assert SHOWDOWN.throws_left(state) == 1
    state = SHOWDOWN.apply(state, Roll((4, 1)))
    assert state.turn == 1
    assert SHOWDOWN.current_player(state) == 1
    assert SHOWDOWN.to_throw(state) == 5
    assert state.hands[0] == (1, 4, 4, 4, 4)


def test_the_throws_option_sets_the_last_throw() -> None:
    state = play(start(throws=2), Roll((1, 2, 3, 4, 6)), Hold(()))
    state = SHOWDOWN.apply(state, Roll((6, 6, 6, 6, 6)))
    assert state.turn == 1
    assert state.hands[0] == (6, 6, 6, 6, 6)
    single = SHOWDOWN.apply(start(throws=1), Roll((1, 1, 2, 3, 4)))
    assert single.turn == 1


def test_held_dice_are_locked_for_the_rest_of_the_turn() -> None:
    state = play(start(), Roll((4, 4, 1, 2, 3)), Hold((4, 4)), Roll((4, 6, 6)))
    assert state.dice == (4, 4, 4, 6, 6)
    assert state.locked == (4, 4)
    before = state
    with pytest.raises(IllegalActionError, match=r"locked.*must keep \[4, 4\].*drops \[4, 4\]"):
        SHOWDOWN.apply(state, Hold((6, 6)))
    with pytest.raises(IllegalActionError, match=r"drops \[4\]"):
        SHOWDOWN.apply(state, Hold((4, 6, 6)))
    assert state == before
    # the decisions offer only holds that keep the locked dice
    holds = [a for a in SHOWDOWN.decisions(state) if isinstance(a, Hold)]
    assert holds and all(a.faces.count(4) >= 2 for a in holds)
    assert Hold((4, 4)) in holds  # holding just the locked dice throws the other three again
    # adding to the lock is allowed
    state = SHOWDOWN.apply(state, Hold((4, 4, 4)))
    assert (state.locked, SHOWDOWN.to_throw(state)) == ((4, 4, 4), 2)


def test_a_hold_of_all_five_is_refused_stand_instead() -> None:
    state = play(start(), Roll((6, 6, 6, 6, 5)))
    with pytest.raises(IllegalActionError, match="stand instead"):
        SHOWDOWN.apply(state, Hold((5, 6, 6, 6, 6)))
    assert Hold((5, 6, 6, 6, 6)) not in SHOWDOWN.decisions(state)


def test_a_hold_of_dice_not_on_the_table_is_refused() -> None:
    state = play(start(), Roll((1, 2, 3, 4, 5)))
    with pytest.raises(IllegalActionError, match="not among the dice"):
        SHOWDOWN.apply(state, Hold((6,)))
    with pytest.raises(IllegalActionError, match="not among the dice"):
        SHOWDOWN.apply(state, Hold((1, 1)))


def test_actions_of_other_games_and_rolls_out_of_place_are_refused() -> None:
    state = play(start(), Roll((1, 2, 3, 4, 5)))
    with pytest.raises(IllegalActionError, match="not an action of showdown"):
        SHOWDOWN.apply(state, Score("pair"))
    with pytest.raises(IllegalActionError, match="no throw is due"):
        SHOWDOWN.apply(state, Roll((1, 2, 3, 4, 5)))


def test_a_bare_roll_in_a_record_stands_for_holding_the_locked_dice() -> None:
    state = play(start(), Roll((2, 2, 4, 5, 6)))
    assert SHOWDOWN.implicit_throw(state) == Hold(())
    state = play(state, Hold((2, 2)), Roll((1, 3, 4)))
    assert SHOWDOWN.implicit_throw(state) == Hold((2, 2))
    assert SHOWDOWN.implicit_throw(start()) is None  # a throw is due already


def test_the_best_hand_takes_the_bank() -> None:
    state = stand_on(start(("Anna", "Boris", "Vera")), (2, 2, 3, 4, 5), (6, 6, 6, 1, 2), (5, 5, 1, 1, 3))
    assert state.finished is False
    assert state.round == 2
    # Boris's three sixes took the bank of 3; the next round's ante is paid already
    assert SHOWDOWN.scores(state) == [-2, 1, -2]
    assert state.last is not None and (state.last.winner, state.last.bank) == (1, 3)


def test_the_first_listed_player_starts_every_round() -> None:
    state = stand_on(start(("Anna", "Boris", "Vera")), (1, 2, 3, 4, 6), (1, 2, 3, 4, 6), (6, 6, 6, 6, 6))
    assert state.round == 2
    assert SHOWDOWN.current_player(state) == 0


def test_nobody_has_a_hand_the_highest_total_wins() -> None:
    # a straight is no hand: 2-3-4-5-6 wins on its total of 20 against 1-2-3-4-6 (16)
    state = stand_on(start(rounds=1), (1, 2, 3, 4, 6), (2, 3, 4, 5, 6))
    assert state.finished
    assert SHOWDOWN.winners(state) == [1]


@pytest.mark.parametrize(("tiebreak", "winner"), [("hand_then_total", 1), ("total", 0)])
def test_the_tiebreak_option_decides_between_equal_hands(tiebreak: str, winner: int) -> None:
    state = stand_on(start(rounds=1, tiebreak=tiebreak), (6, 6, 2, 2, 5), (5, 5, 4, 4, 1))
    assert state.finished
    assert SHOWDOWN.winners(state) == [winner]


def test_exactly_tied_players_alone_play_a_deciding_round() -> None:
    state = stand_on(
        start(("Anna", "Boris", "Vera"), rounds=1), (6, 6, 3, 3, 1), (1, 2, 2, 4, 5), (3, 6, 1, 3, 6)
    )
    assert not state.finished
    assert state.playing == (0, 2)
    assert state.deciding == 1
    assert state.bank == 3  # the bank waits, nobody antes again
    assert SHOWDOWN.scores(state) == [-1, -1, -1]
    assert SHOWDOWN.current_player(state) == 0
    state = stand_on(state, (1, 1, 2, 3, 4))
    assert SHOWDOWN.current_player(state) == 2  # Boris sits out
    # tied again: a second deciding round
    state = stand_on(state, (1, 1, 3, 2, 4))
    assert (state.playing, state.deciding, state.finished) == ((0, 2), 2, False)
    state = stand_on(state, (1, 2, 3, 4, 6), (2, 2, 1, 3, 4))
    assert state.finished
    assert SHOWDOWN.scores(state) == [-1, -1, 2]
    assert state.last is not None and state.last.deciding == 2
    assert state.turn == 7


def test_net_winnings_over_several_rounds_sum_to_zero() -> None:
    state = start(("Anna", "Boris", "Vera"), ante=2, rounds=3)
    # round 1: Anna's poker
    state = stand_on(state, (6, 6, 6, 6, 6), (1, 2, 3, 4, 6), (2, 2, 3, 4, 5))
    assert SHOWDOWN.scores(state) == [4 - 2, -2 - 2, -2 - 2]
    assert state.bank == 6
    # round 2: a pair of threes beats a pair of ones
    state = stand_on(state, (1, 1, 2, 3, 4), (3, 3, 1, 2, 4), (1, 2, 3, 4, 6))
    # round 3: four fives (20) beat four fours (16) and a full house
    state = stand_on(state, (5, 5, 5, 2, 2), (5, 5, 5, 5, 2), (4, 4, 4, 4, 1))
    assert state.finished
    assert SHOWDOWN.scores(state) == [0, 6, -6]
    assert sum(SHOWDOWN.scores(state)) == 0
    assert state.bank == 0
    assert SHOWDOWN.winners(state) == [1]
    assert state.turn == 9
    with pytest.raises(IllegalActionError, match="game is over"):
        SHOWDOWN.apply(state, Roll((1, 2, 3, 4, 5)))
    assert SHOWDOWN.current_player(state) is None
    assert SHOWDOWN.decisions(state) == []


def test_equal_net_winnings_share_first_place() -> None:
    state = start(rounds=2)
    state = stand_on(state, (6, 6, 1, 2, 3), (1, 2, 3, 4, 6))
    state = stand_on(state, (1, 2, 3, 4, 6), (6, 6, 1, 2, 3))
    assert SHOWDOWN.winners(state) == [0, 1]
    shown = summary(state)
    assert shown["winner"] is None
    assert shown["winners"] == ["Anna", "Boris"]


def test_a_solitaire_round_returns_the_ante() -> None:
    state = stand_on(start(("Anna",), rounds=1, ante=5), (1, 2, 3, 4, 6))
    assert state.finished
    assert SHOWDOWN.scores(state) == [0]


def test_summary_during_a_turn() -> None:
    state = stand_on(start(ante=2), (5, 5, 5, 1, 2))
    state = play(state, Roll((6, 6, 1, 2, 3)), Hold((6, 6)))
    shown = summary(state)
    assert shown["variant"] == "poker-showdown(ante=2)"
    assert shown["finished"] is False
    assert shown["winner"] is None
    assert shown["round"] == 1
    assert shown["bank"] == 4
    assert shown["current"] == "Boris"
    assert shown["dice"] == [1, 2, 3, 6, 6]
    assert shown["locked"] == [6, 6]
    assert shown["throws"] == 1
    anna, boris = shown["players"]
    assert (anna["name"], anna["score"], anna["hand"], anna["hand_rank"]) == (
        "Anna",
        -2,
        "three_of_a_kind",
        3,
    )
    assert (boris["hand"], boris["hand_rank"]) == (None, None)


def test_new_game_refuses_bad_players() -> None:
    with pytest.raises(IllegalActionError):
        start(())
    with pytest.raises(IllegalActionError):
        start(("Anna", "Anna"))
