"""The «Тысяча» engine: refusals, decisions and the states between actions (RULES.md §3, §4)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from kosti.actions import Hold, Roll, Score, SetAside, Stop, Throw
from kosti.errors import IllegalActionError, RecordError
from kosti.games import engine_for, new_game
from kosti.games.thousand.game import THOUSAND, ThousandState
from kosti.record import Record, replay
from kosti.rules.presets import variant
from kosti.show import summary

BUST = {"roll": [2, 2, 3, 4, 6]}
CLIMB = [{"roll": [1, 1, 1, 1, 1]}, {"roll": [1, 2, 3, 3, 4]}, "stop"]  # 1010 → on the points barrel


def play(
    turns: list[tuple[str, list[Any]]],
    preset: str = "thousand-classic",
    options: dict[str, Any] | None = None,
    players: tuple[str, ...] = ("Anna", "Boris"),
) -> ThousandState:
    """The state after these turns, typed in as a record (the last turn may be unfinished)."""
    data = {
        "variant": preset,
        "options": options or {},
        "players": list(players),
        "turns": [{"player": p, "actions": a} for p, a in turns],
    }
    state = replay(Record.from_json(data))
    assert isinstance(state, ThousandState)
    return state


def refused(state: ThousandState, action: Any, reason: str) -> None:
    """``action`` is refused with ``reason`` and ``state`` is left as it was."""
    snapshot = summary(state)
    with pytest.raises(IllegalActionError, match=reason):
        THOUSAND.apply(state, action)
    assert summary(state) == snapshot


def test_engine_for_a_thousand_variant() -> None:
    assert engine_for(variant("thousand-v2")) is THOUSAND
    state = new_game("thousand-classic", ["Anna"])
    assert isinstance(state, ThousandState)
    assert THOUSAND.to_throw(state) == 5
    assert THOUSAND.decisions(state) == []


def test_a_game_needs_distinct_players_and_a_thousand_variant() -> None:
    with pytest.raises(IllegalActionError):
        THOUSAND.new_game(variant("thousand-classic"), [])
    with pytest.raises(IllegalActionError):
        THOUSAND.new_game(variant("thousand-classic"), ["Anna", "Anna"])
    with pytest.raises(IllegalActionError, match="not a game of «Тысяча»"):
        THOUSAND.new_game(variant("poker-classic"), ["Anna"])


def test_a_throw_lists_its_outcomes_with_exact_chances() -> None:
    state = new_game("thousand-classic", ["Anna"])
    assert isinstance(state, ThousandState)
    assert len(THOUSAND.legal_actions(state)) == 252
    assert sum(p for _, p in THOUSAND.chance_outcomes(state)) == Fraction(1)


def test_a_roll_of_the_wrong_size_or_faces_is_refused() -> None:
    state = play([("Anna", [{"roll": [1, 2, 3, 4, 6]}])])
    refused(state, Roll((1, 2, 3, 4)), "no throw is due")
    state = THOUSAND.apply(state, Throw())
    assert THOUSAND.to_throw(state) == 4
    refused(state, Roll((1, 2, 3)), "4 dice are thrown now, not 3")
    refused(state, Roll((1, 2, 3, 7)), "1 to 6")
    refused(state, Stop(), "4 dice must be thrown first")
    refused(state, Hold(()), "4 dice must be thrown first")


def test_stop_below_the_opening_is_refused() -> None:
    state = play([("Anna", [{"roll": [1, 2, 3, 4, 6]}])])
    assert state.turn_total == 10
    assert THOUSAND.decisions(state) == [Throw()]
    assert THOUSAND.needed(state) == 50
    refused(state, Stop(), r"not opened yet: a turn is recorded from 50 on \(10 so far\)")


def test_an_opened_player_may_stop_at_any_total() -> None:
    state = play(
        [
            ("Anna", [{"roll": [1, 1, 1, 2, 3]}, "stop"]),
            ("Boris", [BUST]),
            ("Anna", [{"roll": [5, 2, 3, 3, 4]}]),
        ]
    )
    assert THOUSAND.needed(state) == 0
    assert THOUSAND.decisions(state) == [Throw(), Stop()]
    assert THOUSAND.scores(THOUSAND.apply(state, Stop())) == [105, 0]


def test_an_opening_of_zero_asks_nothing() -> None:
    state = play([("Anna", [{"roll": [5, 2, 3, 3, 4]}, "stop"])], options={"opening": 0})
    assert summary(state)["players"][0]["opened"] is True
    assert THOUSAND.scores(state) == [5, 0]


def test_in_a_pit_225_must_make_75() -> None:
    # the source's example: «если игрок имеет 225 очков …, то он обязан набрать … 75 очков»
    opening = [{"roll": [1, 1, 1, 1, 5]}, {"roll": [1, 1, 2, 3, 3]}, "stop"]
    turn = [{"roll": [4, 4, 4, 1, 5]}, {"roll": [1, 2, 3, 3, 6]}, {"roll": [5, 2, 3, 6]}]
    state = play([("Anna", opening), ("Boris", [BUST]), ("Anna", turn)])
    assert THOUSAND.scores(state)[0] == 225
    assert state.turn_total == 70
    assert THOUSAND.needed(state) == 75
    refused(state, Stop(), r"in the pit 200–300: stop only at 300 or more \(225 \+ 70 = 295\)")
    state = THOUSAND.apply(THOUSAND.apply(state, Throw()), Roll((5, 2, 3)))
    assert Stop() in THOUSAND.decisions(state)


TWO_HUNDRED = [{"roll": [1, 1, 1, 1, 2]}, "stop"]  # four 1s: 200
HUNDRED = [{"roll": [1, 1, 1, 2, 3]}, "stop"]
SIXTY = [{"roll": [5, 5, 5, 1, 2]}, "stop"]
# How to reach each score at the start of a turn. With a penalty of 1 for the first unopened
# bust, the scores ending in 9 can be reached; 300 and 700 are reached by stopping exactly at
# the top of a pit, from 200 and from 600 (a refusal there would fail the record).
STARTS: dict[int, list[list[Any]]] = {
    199: [[BUST], TWO_HUNDRED],
    200: [TWO_HUNDRED],
    299: [[BUST], TWO_HUNDRED, HUNDRED],
    300: [TWO_HUNDRED, HUNDRED],
    599: [[BUST], TWO_HUNDRED, TWO_HUNDRED, TWO_HUNDRED],
    600: [TWO_HUNDRED, TWO_HUNDRED, TWO_HUNDRED],
    659: [[BUST], TWO_HUNDRED, TWO_HUNDRED, TWO_HUNDRED, SIXTY],  # landing in a pit is allowed
    699: [[BUST], TWO_HUNDRED, TWO_HUNDRED, TWO_HUNDRED, HUNDRED],
    700: [TWO_HUNDRED, TWO_HUNDRED, TWO_HUNDRED, HUNDRED],
}


PIT_CASES = [
    (199, None),
    (200, "in the pit 200–300: stop only at 300 or more"),
    (299, None),  # in the pit, but 299 + 10 reaches its top
    (300, None),
    (599, None),
    (600, "in the pit 600–700: stop only at 700 or more"),
    (659, "in the pit 600–700: stop only at 700 or more"),
    (699, None),
    (700, None),
]


@pytest.mark.parametrize(("start", "refusal"), PIT_CASES)
def test_both_edges_of_both_pits(start: int, refusal: str | None) -> None:
    # RULES.md §3.3: a turn that starts in [low, high) may stop only at high or more
    turns = [("Anna", actions) for actions in STARTS[start]]
    turns.append(("Anna", [{"roll": [1, 2, 3, 4, 6]}]))  # 10
    state = play(turns, options={"opening_fail_penalty": 1, "opening_fail_every": 1}, players=("Anna",))
    assert THOUSAND.scores(state) == [start] and state.turn_total == 10
    if refusal is None:
        assert THOUSAND.decisions(state) == [Throw(), Stop()]
        assert THOUSAND.scores(THOUSAND.apply(state, Stop())) == [start + 10]
    else:
        assert THOUSAND.decisions(state) == [Throw()]
        refused(state, Stop(), refusal)


def test_on_the_points_barrel_no_stop_is_allowed() -> None:
    state = play([("Anna", CLIMB), ("Boris", [BUST]), ("Anna", [{"roll": [1, 1, 1, 2, 3]}])])
    assert THOUSAND.needed(state) == 120
    assert THOUSAND.decisions(state) == [Throw()]
    refused(state, Stop(), r"on the barrel the turn must make 120 in one go \(100 so far\)")


def test_below_the_points_barrel_passing_the_target_does_not_win() -> None:
    state = play([("Anna", [{"roll": [1, 1, 1, 1, 1]}])])
    assert not THOUSAND.is_finished(state)
    assert state.turn_total == 1000
    # hot dice: the compulsory throw of five follows
    assert THOUSAND.to_throw(state) == 5


def test_hot_dice_make_the_next_throw_compulsory() -> None:
    state = play([("Anna", [{"roll": [1, 1, 1, 5, 5]}])])
    assert (state.turn_total, state.dice_left, state.set_aside) == (110, 5, ())
    assert THOUSAND.to_throw(state) == 5
    assert THOUSAND.decisions(state) == []
    assert THOUSAND.implicit_throw(state) is None
    refused(state, Stop(), "5 dice must be thrown first")
    refused(state, Throw(), "5 dice must be thrown first")


def test_with_set_aside_all_the_dice_are_set_aside_by_themselves() -> None:
    state = play([("Anna", [{"roll": [1, 5, 3, 3, 4]}])])
    assert (state.turn_total, state.set_aside, state.dice_left) == (15, (1, 5), 3)
    assert THOUSAND.implicit_throw(state) == Throw()
    refused(state, SetAside((1,)), "set aside by themselves")


def test_set_aside_by_choice() -> None:
    state = play([("Anna", [{"roll": [1, 1, 1, 1, 5]}])], preset="thousand-v2")
    assert state.choosing and state.turn_total == 0
    assert set(THOUSAND.decisions(state)) == {
        SetAside((1, 1, 1, 1)),
        SetAside((5,)),
        SetAside((1, 1, 1, 1, 5)),
    }
    assert THOUSAND.implicit_throw(state) is None
    refused(state, Throw(), "set scoring dice aside before throwing on")
    refused(state, Stop(), "set scoring dice aside first")
    refused(state, SetAside((1, 1, 1)), "1 1 1 1 scores only as a whole")
    refused(state, SetAside((2,)), "not among the dice")
    refused(state, SetAside(()), "at least one")
    state = THOUSAND.apply(state, SetAside((5,)))
    assert (state.turn_total, state.set_aside, state.dice_left) == (5, (5,), 4)
    assert THOUSAND.decisions(state) == [Throw()]
    refused(state, SetAside((1, 1, 1, 1)), "right after a scoring throw")
    state = THOUSAND.apply(THOUSAND.apply(state, Throw()), Roll((6, 6, 6, 2)))
    state = THOUSAND.apply(state, SetAside((6, 6, 6)))
    assert (state.turn_total, state.set_aside, state.dice_left) == (65, (5, 6, 6, 6), 1)


def test_a_bare_roll_while_dice_must_be_set_aside_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="turn 1, action 2: roll 1 2 3 4: no throw is allowed now"):
        play([("Anna", [{"roll": [1, 5, 5, 2, 3]}, {"roll": [1, 2, 3, 4]}])], preset="thousand-v2")


def test_confirmation_below_the_opening_counts_as_an_ordinary_throw() -> None:
    actions = [
        {"roll": [1, 5, 2, 3, 3]},
        {"set_aside": [1, 5]},
        {"roll": [5, 5, 2]},
        {"set_aside": [5, 5]},
        {"roll": [1]},
        {"set_aside": [1]},
    ]
    state = play([("Anna", actions)], preset="thousand-v2")
    assert state.confirming and THOUSAND.to_throw(state) == 5 and state.turn_total == 35
    state = THOUSAND.apply(state, Roll((5, 2, 3, 3, 4)))
    # 40 < 75: the turn cannot be recorded, so the 5 is set aside and the turn goes on
    assert state.turn == 0 and not state.confirming and not state.choosing
    assert (state.turn_total, state.set_aside, state.dice_left) == (40, (5,), 4)
    assert THOUSAND.decisions(state) == [Throw()]


def test_a_scoring_confirmation_records_the_turn_with_its_points() -> None:
    actions = [{"roll": [1, 5, 2, 3, 3]}, {"set_aside": [1, 5]}, {"roll": [5, 5, 2]}, {"set_aside": [5, 5]}]
    actions += [{"roll": [5]}, {"set_aside": [5]}]
    state = play([("Anna", actions)], preset="thousand-v2")
    assert state.turn_total == 30
    state = THOUSAND.apply(state, Roll((1, 2, 3, 4, 5)))
    # a straight of 125 makes 155 ≥ 75: recorded at once
    assert state.turn == 1 and THOUSAND.scores(state) == [155, 0]


def test_a_confirmation_of_all_five_still_short_asks_for_another() -> None:
    actions = [{"roll": [1, 5, 2, 3, 3]}, {"set_aside": [1, 5]}, {"roll": [5, 5, 2]}, {"set_aside": [5, 5]}]
    actions += [{"roll": [5]}, {"set_aside": [5]}]
    state = play([("Anna", actions)], preset="thousand-v2", options={"opening": 300})
    state = THOUSAND.apply(state, Roll((5, 5, 5, 1, 1)))
    assert state.turn == 0 and state.turn_total == 100
    assert state.confirming and THOUSAND.to_throw(state) == 5


def test_a_penalty_below_the_barrel_takes_the_player_off_it() -> None:
    options = {"bolts_when_restricted": True, "bolt_limit": 1}
    state = play([("Anna", CLIMB), ("Boris", [BUST]), ("Anna", [BUST])], options=options)
    anna, boris = summary(state)["players"]
    assert (boris["score"], boris["bolts"]) == (-100, 0)
    assert anna["score"] == 780 and not anna["on_barrel"]
    assert (anna["barrel_attempts"], anna["falls"], anna["bolts"]) == (0, 0, 0)


def test_solitaire_turns_come_back_to_the_same_player() -> None:
    state = play([("Anna", [BUST]), ("Anna", [{"roll": [1, 1, 1, 2, 3]}, "stop"])], players=("Anna",))
    assert state.turn == 2 and state.current == 0
    assert THOUSAND.scores(state) == [100]


def test_summary_while_running_and_at_the_end() -> None:
    state = play([("Anna", [{"roll": [1, 5, 3, 3, 4]}])])
    shown = summary(state)
    assert shown["variant"] == "thousand-classic"
    assert (shown["current"], shown["turn_total"], shown["dice"]) == ("Anna", 15, [1, 3, 3, 4, 5])
    assert (shown["set_aside"], shown["dice_left"]) == ([1, 5], 3)
    assert THOUSAND.winners(state) == []
    assert THOUSAND.current_player(state) == 0

    state = play([("Anna", [{"roll": [1, 1, 1, 1, 1]}])], options={"barrel": "none"})
    shown = summary(state)
    assert shown["finished"] and shown["winner"] == "Anna" and shown["winners"] == ["Anna"]
    assert not {"current", "turn_total", "dice", "set_aside", "dice_left"} & set(shown)
    assert THOUSAND.winners(state) == [0]
    assert THOUSAND.current_player(state) is None
    assert THOUSAND.to_throw(state) == 0 and THOUSAND.decisions(state) == []
    assert THOUSAND.implicit_throw(state) is None
    refused(state, Roll((1, 1, 1, 1, 1)), "the game is over")
    refused(state, Stop(), "the game is over")


def test_actions_of_other_games_are_refused() -> None:
    state = play([("Anna", [{"roll": [1, 5, 3, 3, 4]}])])
    refused(state, Hold(()), "not an action of «Тысяча»")
    refused(state, Score("ones"), "not an action of «Тысяча»")
