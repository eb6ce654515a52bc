"""Game records (RULES.md §5): reading, writing, replaying, and the Recorder of a live game."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kosti.actions import Action, Hold, Roll, Score, Stop
from kosti.errors import IllegalActionError, RecordError
from kosti.games import engine_for
from kosti.games.base import GameState
from kosti.record import Record, Recorder, Turn, load, replay, states, written_steps
from kosti.roller import SeededDice
from kosti.rules import PRESETS, variant

RECORDS = Path(__file__).parent / "records"
SHEET_PRESETS = [p.id for p in PRESETS.values() if p.family == "sheet"]


def random_game(recorder: Recorder, seed: int, actions: int | None = None) -> list[Any]:
    """Play ``recorder``'s game with random decisions; return every action applied."""
    engine = recorder.engine
    dice = SeededDice(seed)
    rng = random.Random(seed)
    applied: list[Any] = []
    while not engine.is_finished(recorder.state) and (actions is None or len(applied) < actions):
        n = engine.to_throw(recorder.state)
        action = Roll(dice.roll(n)) if n else rng.choice(engine.decisions(recorder.state))
        recorder.apply(action)
        applied.append(action)
    return applied


# -- the record format ------------------------------------------------------------------------


def test_a_shared_example_record_loads_and_replays() -> None:
    record = load(RECORDS / "poker-extended-upper.json")
    assert record.variant == "poker-extended"
    assert record.players == ["Anna", "Boris"]
    assert record.turns[2].actions == [Roll((1, 6, 6, 2, 3)), Hold((6, 6)), Roll((6, 6, 1)), Score("sixes")]
    state = replay(record)
    assert engine_for(state.variant).scores(state) == [9, -5]


def test_dumps_is_one_turn_a_line_and_reads_back() -> None:
    record = load(RECORDS / "poker-classic-short.json")
    text = record.dumps()
    assert len(text.splitlines()) == len(record.turns) + 2
    assert Record.from_json(json.loads(text)) == record
    assert record.to_json()["options"] == {"lower": ["pair", "two_pairs", "poker", "chance"]}


def test_unknown_top_level_keys_are_kept() -> None:
    data = {"variant": "poker-free", "players": ["A"], "server_seed": "abc", "turns": []}
    record = Record.from_json(data)
    assert record.extra == {"server_seed": "abc"}
    assert record.to_json() == data


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ([], "a record is a JSON object"),
        ({"players": ["A"]}, '"variant" must name a preset'),
        ({"variant": "poker-free", "players": "A"}, '"players" must be a list of names'),
        ({"variant": "poker-free", "players": [1]}, '"players" must be a list of names'),
        ({"variant": "poker-free", "players": ["A"], "options": []}, '"options" must be an object'),
        ({"variant": "poker-free", "players": ["A"], "turns": {}}, '"turns" must be a list'),
        ({"variant": "poker-free", "players": ["A"], "turns": [{"actions": []}]}, "turn 1: a turn is"),
        ({"variant": "poker-free", "players": ["A"], "turns": [{"player": "A", "actions": {}}]}, "turn 1:"),
        (
            {
                "variant": "poker-free",
                "players": ["A"],
                "turns": [{"player": "A", "actions": [{"roll": "66"}]}],
            },
            "turn 1, action 1: 'roll' takes a list of faces",
        ),
        (
            {"variant": "poker-free", "players": ["A"], "turns": [{"player": "A", "actions": ["jump"]}]},
            "turn 1, action 1:",
        ),
    ],
)
def test_malformed_records_say_where(data: Any, reason: str) -> None:
    with pytest.raises(RecordError) as caught:
        Record.from_json(data)
    assert reason in str(caught.value)


def test_load_errors(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(RecordError, match="is not JSON"):
        load(bad)


def test_states_yield_every_action() -> None:
    record = load(RECORDS / "poker-extended-upper.json")
    steps = list(states(record))
    assert [(t, a) for t, a, _ in steps] == [
        (0, 0),
        (1, 1),
        (1, 2),
        (2, 1),
        (2, 2),
        (3, 1),
        (3, 2),
        (3, 3),
        (3, 4),
    ]
    assert steps[0][2].turn == 0 and steps[-1][2].turn == 3


def test_a_turn_after_the_end_is_refused() -> None:
    record = Record(
        "poker-free(lower=[chance])",
        ["A"],
        [
            Turn("A", [Roll((6, 6, 6, 6, 6)), Score(c)])
            for c in ("ones", "twos", "threes", "fours", "fives", "sixes")
        ],
    )
    record.turns.append(Turn("A", [Roll((1, 2, 3, 4, 5)), Score("chance")]))
    assert engine_for(replay(record).variant).is_finished(replay(record))
    record.turns.append(Turn("A", [Roll((1, 2, 3, 4, 5))]))
    with pytest.raises(RecordError, match="turn 8: the game is already over"):
        replay(record)


def test_a_turn_that_does_not_end_is_refused() -> None:
    record = Record("poker-free", ["A", "B"], [Turn("A", [Roll((1, 2, 3, 4, 5))]), Turn("B", [])])
    with pytest.raises(RecordError, match="turn 1: the turn does not end"):
        replay(record)


# -- the Recorder -----------------------------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(preset=st.sampled_from(SHEET_PRESETS), players=st.integers(1, 3), seed=st.integers(0, 2**32))
@example(preset="poker-fences", players=3, seed=0)  # scratches, announcements, column order
@example(preset="yahtzee", players=2, seed=157)  # the forced joker
def test_a_played_game_replays_from_its_record(preset: str, players: int, seed: int) -> None:
    recorder = Recorder(variant(preset), [f"P{i}" for i in range(players)])
    random_game(recorder, seed)
    state = recorder.state
    assert engine_for(state.variant).is_finished(state)
    assert replay(recorder.record) == state
    # and through its text
    again = Record.from_json(json.loads(recorder.record.dumps()))
    assert replay(again) == state
    assert all(t.actions for t in recorder.record.turns)


def test_the_recorder_leaves_out_what_the_next_roll_implies() -> None:
    recorder = Recorder(variant("poker-classic"), ["A"])
    recorder.apply(Roll((1, 2, 3, 4, 6)))
    recorder.apply(Hold(()))  # throw all five again: implied by the next roll
    recorder.apply(Roll((6, 6, 6, 1, 2)))
    recorder.apply(Hold((6, 6, 6)))
    recorder.apply(Roll((6, 1)))
    recorder.apply(Score("sixes"))
    assert recorder.record.to_json()["turns"] == [
        {
            "player": "A",
            "actions": [
                {"roll": [1, 2, 3, 4, 6]},
                {"roll": [6, 6, 6, 1, 2]},
                {"hold": [6, 6, 6]},
                {"roll": [6, 1]},
                {"score": "sixes"},
            ],
        },
    ]
    assert replay(recorder.record) == recorder.state


def test_a_refused_action_is_not_recorded() -> None:
    recorder = Recorder(variant("poker-classic"), ["A"])
    recorder.apply(Roll((1, 2, 3, 4, 6)))
    before = (recorder.state, recorder.record.to_json())
    with pytest.raises(IllegalActionError):
        recorder.apply(Score("poker"))
    assert (recorder.state, recorder.record.to_json()) == before


@pytest.mark.parametrize(
    ("spec", "first", "refused", "still_legal"),
    [
        # «Тысяча»: three ones (100) may be banked; a roll of three dice where two are due
        ("thousand-classic", Roll((1, 1, 1, 2, 3)), Roll((1, 2, 3)), Stop()),
        # five sixes may be recorded as poker; a roll of four dice after holding nothing
        ("poker-classic(stages=free)", Roll((6, 6, 6, 6, 6)), Roll((1, 2, 3, 4)), Score("poker")),
    ],
)
def test_a_refused_roll_keeps_no_implied_throw_on(
    spec: str, first: Roll, refused: Roll, still_legal: Action
) -> None:
    recorder = Recorder(variant(spec), ["Anna", "Boris"])
    recorder.apply(first)
    assert still_legal in recorder.engine.decisions(recorder.state)
    before = (recorder.state, recorder.record.to_json())
    with pytest.raises(IllegalActionError):
        recorder.apply(refused)
    assert (recorder.state, recorder.record.to_json()) == before
    recorder.apply(still_legal)
    assert replay(recorder.record) == recorder.state


def test_overridden_options_are_recorded() -> None:
    rules = variant("poker-classic(stages=free,four_bonus=5)")
    recorder = Recorder(rules, ["A", "B"])
    assert recorder.record.variant == "poker-classic"
    assert recorder.record.options == {"stages": "free", "four_bonus": 5}
    assert recorder.record.rules() == rules


@pytest.mark.parametrize("preset", SHEET_PRESETS)
@pytest.mark.parametrize("cut", [1, 2, 7, 23])
def test_resume_continues_a_game_mid_turn(preset: str, cut: int) -> None:
    players = ["Anna", "Boris"]
    whole = Recorder(variant(preset), players)
    actions = random_game(whole, seed=cut)
    # a game interrupted after ``cut`` actions, written out, read back and resumed
    first = Recorder(variant(preset), players)
    engine = first.engine
    before: GameState = first.state
    for action in actions[:cut]:
        before = first.state
        first.apply(action)
    saved = Record.from_json(json.loads(first.record.dumps()))
    resumed = Recorder.resume(saved)
    # where the game stood, unless its last decision was one that only the next roll would show
    unwritten = actions[cut - 1] == engine.implicit_throw(before)
    assert resumed.state == (before if unwritten else first.state)
    for action in actions[cut:]:
        # after an unwritten decision the next (bare) roll makes it again
        resumed.apply(action)
    assert resumed.state == whole.state
    assert resumed.record.to_json() == whole.record.to_json()


def test_resume_after_a_decision_the_record_does_not_show() -> None:
    live = Recorder(variant("poker-classic"), ["A"])
    live.apply(Roll((1, 2, 3, 4, 6)))
    live.apply(Hold(()))  # throw all five again: not written until the roll
    assert live.engine.to_throw(live.state) == 5
    resumed = Recorder.resume(Record.from_json(json.loads(live.record.dumps())))
    # the reader of the record stands at the decision; the same decision continues the game
    assert resumed.engine.to_throw(resumed.state) == 0
    assert resumed.engine.implicit_throw(resumed.state) == Hold(())
    # a bare roll continues it, as in a record
    resumed.apply(Roll((6, 6, 6, 6, 6)))
    live.apply(Roll((6, 6, 6, 6, 6)))
    assert resumed.state == live.state
    assert resumed.record.to_json() == live.record.to_json()


def test_a_written_roll_stands_for_the_decision_to_throw_on_where_one_is_due() -> None:
    rules = variant("poker-classic")
    engine = engine_for(rules)
    state = engine.new_game(rules, ["A"])
    assert written_steps(engine, state, Roll((1, 2, 3, 4, 6))) == [Roll((1, 2, 3, 4, 6))]
    state = engine.apply(state, Roll((1, 2, 3, 4, 6)))
    assert written_steps(engine, state, Roll((6, 6, 6, 1, 2))) == [Hold(()), Roll((6, 6, 6, 1, 2))]
    assert written_steps(engine, state, Score("chance")) == [Score("chance")]
    for _ in range(2):
        state = engine.apply(engine.apply(state, Hold(())), Roll((1, 2, 3, 4, 6)))
    with pytest.raises(IllegalActionError, match="no throw is allowed"):
        written_steps(engine, state, Roll((1, 2, 3, 4, 6)))  # three throws made


# -- playing a game again (after an undo or an edited throw) ---------------------------------


def test_play_again_splits_the_turns_and_tells_of_every_action() -> None:
    from kosti.record import play_again

    rules = variant("poker-showdown", {"rounds": 1})
    actions: list[Action] = [Roll((6, 6, 6, 2, 3)), Stop(), Roll((1, 1, 2, 3, 4)), Roll((5, 6, 6, 2, 3))]
    heard: list[tuple[Action, int, int]] = []
    recorder = Recorder(rules, ["Anna", "Boris"])
    dropped = play_again(
        recorder, actions, each=lambda a, before, after: heard.append((a, before.turn, after.turn))
    )
    assert dropped == 0
    # Boris's second bare roll stands for throwing all five again (a record's form)
    assert [t.player for t in recorder.record.turns] == ["Anna", "Boris"]
    assert recorder.record.turns[1].actions == actions[2:]
    assert [a for a, _, _ in heard] == actions
    assert [(b, a) for _, b, a in heard] == [(0, 0), (0, 1), (1, 1), (1, 1)]
    assert recorder.state == replay(recorder.record)


def test_play_again_refuses_a_move_that_no_longer_fits_or_stops_there() -> None:
    from kosti.record import play_again

    rules = variant("poker-free")
    # the corrected throw has no pair: recording it in ``pair`` still scores 0, legal; but
    # holding two sixes after it is not
    actions: list[Action] = [Roll((1, 2, 3, 4, 6)), Hold((6, 6)), Roll((5, 5, 5)), Score("fives")]
    strict = Recorder(rules, ["Anna"])
    with pytest.raises(IllegalActionError):
        play_again(strict, actions)
    assert strict.record.turns[0].actions == [Roll((1, 2, 3, 4, 6))]  # the refused hold changed nothing
    lenient = Recorder(rules, ["Anna"])
    assert play_again(lenient, actions, partial=True) == 3
    assert play_again(Recorder(rules, ["Anna"]), actions[:1], partial=True) == 0
