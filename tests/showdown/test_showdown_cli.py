"""The scriptable interface for showdown (RULES.md §5, §6): `kosti score`, `kosti replay`, records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kosti.actions import Hold, Roll, Stop
from kosti.cli import app
from kosti.errors import RecordError
from kosti.games.showdown.game import SHOWDOWN, ShowdownState
from kosti.record import Record, Recorder, load, replay
from kosti.roller import SeededDice
from kosti.rules.presets import variant

RECORDS = Path(__file__).parent.parent / "records"
SHOWDOWN_RECORDS = sorted(RECORDS.glob("poker-showdown-*.expected.json"))

runner = CliRunner()


def contains(actual: Any, expected: Any) -> bool:
    """True when ``actual`` holds everything in ``expected`` (objects may have more keys)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and contains(actual[k], v) for k, v in expected.items()
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(contains(a, e) for a, e in zip(actual, expected, strict=True))
        )
    return bool(actual == expected)


def test_the_fixtures_are_there() -> None:
    names = {p.name for p in SHOWDOWN_RECORDS}
    assert {"poker-showdown-round.expected.json", "poker-showdown-deciding.expected.json"} <= names


@pytest.mark.parametrize("expected_path", SHOWDOWN_RECORDS, ids=lambda p: p.name)
def test_replay_reproduces_the_expected_state(expected_path: Path) -> None:
    record_path = expected_path.with_name(expected_path.name.replace(".expected.json", ".json"))
    result = runner.invoke(app, ["replay", str(record_path), "--json"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    assert contains(json.loads(result.stdout), expected)


def test_the_round_record_four_fives_beat_four_fours() -> None:
    state = replay(load(RECORDS / "poker-showdown-round.json"))
    assert isinstance(state, ShowdownState)
    summary = SHOWDOWN.summary(state)
    anna, boris = summary["players"]
    assert (anna["hand"], anna["hand_sum"], anna["total"]) == ("four_of_a_kind", 16, 21)
    assert (boris["hand"], boris["hand_sum"], boris["total"]) == ("four_of_a_kind", 20, 21)


def test_the_deciding_record_replays_turn_by_turn() -> None:
    record = load(RECORDS / "poker-showdown-deciding.json")
    state = replay(record)
    assert state.turn == len(record.turns)


def test_a_record_that_drops_a_locked_die_is_refused_with_turn_and_action(tmp_path: Path) -> None:
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
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "turn 1, action 4" in result.stderr and "locked" in result.stderr


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
def test_kosti_score_reports_the_hand(dice: list[str], expected: dict[str, Any]) -> None:
    result = runner.invoke(app, ["score", "poker-showdown", *dice, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == expected
    first = runner.invoke(app, ["score", "poker-showdown", *dice, "--first-throw", "--json"])
    assert json.loads(first.stdout) == expected  # the throw a hand was made on does not matter


@pytest.mark.parametrize(
    ("dice", "reason"), [(["5", "5", "5", "5"], "exactly 5 dice"), (["1", "2", "3", "4", "9"], "1 to 6")]
)
def test_kosti_score_refuses_anything_but_five_dice(dice: list[str], reason: str) -> None:
    result = runner.invoke(app, ["score", "poker-showdown", *dice, "--json"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert reason in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
