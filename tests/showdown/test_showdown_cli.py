"""The scriptable interface for showdown (RULES.md §5, §6): `kosti score`, `kosti replay`, records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kosti.actions import Hold, Roll, Stop
from kosti.errors import RecordError
from kosti.games.showdown.game import SHOWDOWN, ShowdownState
from kosti.record import Record, Recorder, load, replay, states
from kosti.roller import SeededDice
from kosti.rules.presets import variant
from kosti.show import summary

RECORDS = Path(__file__).parent.parent / "records"


def test_the_round_record_four_fives_beat_four_fours() -> None:
    state = replay(load(RECORDS / "poker-showdown-round.json"))
    assert isinstance(state, ShowdownState)
    shown = summary(state)
    anna, boris = shown["players"]
    assert (anna["hand"], anna["hand_sum"], anna["total"]) == ("four_of_a_kind", 16, 21)
    assert (boris["hand"], boris["hand_sum"], boris["total"]) == ("four_of_a_kind", 20, 21)


def test_the_deciding_record_replays_turn_by_turn() -> None:
    # two pairs 6-6-3-3 against 3-3-6-6 with a 1 each: equal hand sums (18) and totals (19), so
    # Anna and Boris alone play a deciding round for the bank of 3 (RULES.md §2)
    record = load(RECORDS / "poker-showdown-deciding.json")
    ends = [state for t, a, state in states(record) if t and a == len(record.turns[t - 1].actions)]
    assert len(ends) == len(record.turns)
    after = [summary(state) for state in ends]
    # (who plays next, deciding rounds so far, bank, net winnings) after each turn
    assert [(s["current"], s["deciding"], s["bank"], [p["score"] for p in s["players"]]) for s in after] == [
        ("Boris", 0, 3, [-1, -1, -1]),
        ("Vera", 0, 3, [-1, -1, -1]),
        ("Anna", 1, 3, [-1, -1, -1]),  # the tie: a deciding round, no new ante
        ("Boris", 1, 3, [-1, -1, -1]),  # Vera, beaten, sits the deciding round out
        (None, 1, 0, [-1, 2, -1]),  # four sixes beat three fives: Boris takes the 3
    ]
    assert [p["playing"] for p in after[2]["players"]] == [True, True, False]
    hands = [[p["hand"] for p in s["players"]] for s in after]
    assert hands[2] == [None, None, None]  # a deciding round starts with no hands
    assert hands[3] == ["three_of_a_kind", None, None]
    assert after[4]["finished"] and after[4]["winner"] == "Boris"


def test_a_record_that_drops_a_locked_die_is_refused_with_turn_and_action(kosti: Any, tmp_path: Path) -> None:
    data = {
        "variant": "poker-showdown",
        "players": ["Anna", "Boris"],
        "turns": [
            {
                "player": "Anna",
                "actions": [
                    {"roll": [4, 4, 1, 2, 3]},
                    {"hold": [4, 4]},
                    {"roll": [4, 6, 6]},
                    {"hold": [6, 6]},
                ],
            }
        ],
    }
    with pytest.raises(RecordError, match=r"turn 1, action 4: .*locked"):
        replay(Record.from_json(data))
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    run = kosti("replay", str(path), "--json")
    assert run.code == 2
    assert run.out == ""
    assert "turn 1, action 4" in run.err and "locked" in run.err


def test_a_record_with_an_action_after_the_third_throw_is_refused() -> None:
    data = {
        "variant": "poker-showdown",
        "players": ["Anna", "Boris"],
        "turns": [
            {
                "player": "Anna",
                "actions": [
                    {"roll": [1, 2, 3, 4, 6]},
                    {"roll": [1, 2, 3, 4, 6]},
                    {"roll": [6, 6, 6, 6, 6]},
                    "stop",
                ],
            }
        ],
    }
    with pytest.raises(RecordError, match="turn 1, action 4: the turn is already over"):
        replay(Record.from_json(data))


def test_a_recorded_game_replays_to_the_same_state() -> None:
    # the recorder leaves out holds that a bare roll implies; the record must still replay exactly
    recorder = Recorder(variant("poker-showdown", {"rounds": 3}), ["Anna", "Boris", "Vera"])
    dice = SeededDice(7)
    while not recorder.engine.is_finished(recorder.state):
        state = recorder.state
        assert isinstance(state, ShowdownState)
        n = SHOWDOWN.to_throw(state)
        if n:
            recorder.apply(Roll(dice.roll(n)))
            continue
        # a simple policy: throw again keeping the dice of one face shown at least twice (or none)
        keep = Hold(tuple(f for f in state.dice if state.dice.count(f) >= 2))
        one_face = len(set(keep.faces)) <= 1
        recorder.apply(keep if one_face and keep in SHOWDOWN.decisions(state) else Stop())
    text = recorder.record.dumps()
    again = replay(Record.from_json(json.loads(text)))
    assert again == recorder.state
    assert '"hold": []' not in text  # holding nothing (or just the locked dice) goes without saying


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        (["5", "5", "5", "5", "1"], {"hand": "four_of_a_kind", "rank": 5, "hand_sum": 20, "total": 21}),
        (["2", "3", "4", "5", "6"], {"hand": "nothing", "rank": 0, "hand_sum": 0, "total": 20}),
        (["6", "6", "6", "6", "6"], {"hand": "poker", "rank": 6, "hand_sum": 30, "total": 30}),
    ],
)
def test_kosti_score_reports_the_hand(kosti: Any, dice: list[str], expected: dict[str, Any]) -> None:
    run = kosti("score", "poker-showdown", *dice, "--json")
    assert run.code == 0, run.err
    assert run.json() == expected
    first = kosti("score", "poker-showdown", *dice, "--first-throw", "--json")
    assert first.json() == expected  # the throw a hand was made on does not matter


@pytest.mark.parametrize(
    ("dice", "reason"), [(["5", "5", "5", "5"], "exactly 5 dice"), (["1", "2", "3", "4", "9"], "1 to 6")]
)
def test_kosti_score_refuses_anything_but_five_dice(kosti: Any, dice: list[str], reason: str) -> None:
    run = kosti("score", "poker-showdown", *dice, "--json")
    assert run.code == 2
    assert run.out == ""
    assert reason in run.err
    assert len(run.err.strip().splitlines()) == 1
