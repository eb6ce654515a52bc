"""Events (RULES.md §5.1): every point of every record is explained, and each kind comes
where the rules say."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kosti.actions import CellAction, Hold, Roll, Score, Stop
from kosti.events import KINDS, points_by_seat
from kosti.games import engine_for, new_game, step
from kosti.games.thousand.game import ThousandState
from kosti.record import Recorder, load, replay_events, states
from kosti.roller import SeededDice
from kosti.rules import PRESETS, variant

HERE = Path(__file__).parent
RECORDS = sorted(
    p
    for folder in (HERE / "records", HERE.parent / "examples")
    for p in folder.glob("*.json")
    if not p.name.endswith((".expected.json", ".error.json")) and "-illegal-" not in p.name
)


def events_of(kosti: Callable[..., Any], path: Path) -> dict[str, Any]:
    run = kosti("replay", str(path), "--json", "--events")
    assert run.code == 0, run.err
    data: dict[str, Any] = run.json()
    return data


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_the_events_of_a_record_add_up_to_every_players_score(kosti: Callable[..., Any], path: Path) -> None:
    data = events_of(kosti, path)
    sums = {p["name"]: 0 for p in data["players"]}
    for event in data["events"]:
        assert event["kind"] in KINDS
        assert event.get("by") != event["player"]
        sums[event["player"]] += event["points"]
    assert sums == {p["name"]: p["score"] for p in data["players"]}


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_events_come_in_record_order_with_each_players_running_score(
    kosti: Callable[..., Any], path: Path
) -> None:
    data = events_of(kosti, path)
    record = load(path)
    running = dict.fromkeys(record.players, 0)
    turns = [e["turn"] for e in data["events"]]
    assert turns == sorted(turns)
    assert all(0 <= t < max(1, len(record.turns)) for t in turns)
    for event in data["events"]:
        running[event["player"]] += event["points"]
        assert event["score"] == running[event["player"]]


def test_events_leave_the_json_without_the_flag_unchanged(kosti: Callable[..., Any]) -> None:
    path = HERE / "records" / "thousand-order.json"
    plain = kosti("replay", str(path), "--json").json()
    full = events_of(kosti, path)
    assert "events" not in plain
    assert {k: v for k, v in full.items() if k != "events"} == plain


# -- «Тысяча»: the §3.4 order, worked by hand ----------------------------------------------------


def kinds(path: str, kosti: Callable[..., Any]) -> list[tuple[int, str, str, int, str | None]]:
    data = events_of(kosti, HERE / "records" / path)
    return [(e["turn"], e["player"], e["kind"], e["points"], e.get("by")) for e in data["events"]]


def test_one_climb_overtakes_knocks_off_and_dumps_in_the_order_of_section_3_4(
    kosti: Callable[..., Any],
) -> None:
    # Anna climbs onto the barrel (1010 → 880), Boris records 605; Vera's 1010 puts her on the
    # barrel: she passes Boris (605 → 555), knocks Anna off (880 − 100), and Boris is dumped.
    assert kinds("thousand-order.json", kosti) == [
        (0, "Anna", "recorded", 1010, None),
        (0, "Anna", "barrel_on", -130, None),
        (1, "Boris", "recorded", 605, None),
        (2, "Vera", "recorded", 1010, None),
        (2, "Vera", "barrel_on", -130, None),
        (2, "Boris", "overtaken", -50, "Vera"),
        (2, "Anna", "knocked_off", -100, "Vera"),
        (2, "Boris", "dump", -555, "Vera"),
    ]


def falls_after_each_turn(path: str, seat: int) -> list[int]:
    """The falls counter of ``seat`` once each turn of the record has ended."""
    record = load(HERE / "records" / path)
    falls = []
    for t, a, state in states(record):
        assert isinstance(state, ThousandState)
        if t and a == len(record.turns[t - 1].actions):
            falls.append(state.board[seat].falls)
    return falls


def test_the_dots_limit_of_an_open_barrel_is_a_fall_between_the_dot_and_its_penalty(
    kosti: Callable[..., Any],
) -> None:
    # dots_limit 2, falls_limit 2: Anna (60) goes past 1000 twice; the second dot makes her fall,
    # −100 (RULES.md §3.3), the fall at step 3, then the dot penalty at step 4 (§3.4), which
    # only restarts the dots: the 100 is the fall's, so the events still add up to −40
    path = "thousand-barrel-open-dots-penalty.json"
    data = events_of(kosti, HERE / "records" / path)
    last_turn = [
        (e["player"], e["kind"], e["points"], e["score"], e.get("count"), e.get("limit"))
        for e in data["events"]
        if e["turn"] == 4
    ]
    assert last_turn == [
        ("Anna", "dot", 0, 60, 2, 2),
        ("Anna", "fall", -100, -40, 1, 2),
        ("Anna", "dot_penalty", 0, -40, 2, 2),
    ]
    anna = data["players"][0]
    assert (anna["score"], anna["falls"], anna["dots"]) == (-40, 1, 0)
    # the falls counter advances with that turn, and only then
    assert falls_after_each_turn(path, 0) == [0, 0, 0, 0, 1]


def test_the_fall_at_the_dots_limit_counts_towards_falls_limit(kosti: Callable[..., Any]) -> None:
    # falls_limit 3: two rounds of two dots are the 1st and 2nd falls, −100 each
    path = "thousand-barrel-open-dots-restart.json"
    falls = [
        (e["turn"], e["points"], e["count"], e["limit"])
        for e in events_of(kosti, HERE / "records" / path)["events"]
        if e["kind"] == "fall"
    ]
    assert falls == [(2, -100, 1, 3), (4, -100, 2, 3)]
    assert falls_after_each_turn(path, 0) == [0, 0, 1, 1, 2]


def test_the_last_fall_at_the_dots_limit_takes_the_player_to_0(kosti: Callable[..., Any]) -> None:
    # the open barrel's own falls_limit is 1: the sixth dot's fall takes Anna from 60 to 0
    path = "thousand-barrel-open-six-dots.json"
    data = events_of(kosti, HERE / "records" / path)
    assert [(e["kind"], e["points"], e.get("count"), e.get("limit")) for e in data["events"][-3:]] == [
        ("dot", 0, 6, 6),
        ("fall", -60, 1, 1),
        ("dot_penalty", 0, 6, 6),
    ]
    # the fall to 0 restarts the count (RULES.md §3.4 [choice])
    assert (data["players"][0]["score"], data["players"][0]["falls"]) == (0, 0)


def thousand_turns(spec: str, players: list[str], throws: list[list[int] | str]) -> list[Any]:
    """Play «Тысяча» from a script: a list of faces is a throw (throwing on when needed), "stop" stops."""
    state = new_game(spec, players)
    engine = engine_for(state.variant)
    events: list[Any] = []
    for item in throws:
        if item == "stop":
            state, new = step(state, Stop())
        else:
            if engine.to_throw(state) == 0:
                state, _ = step(state, engine.implicit_throw(state))  # type: ignore[arg-type]
            state, new = step(state, Roll(tuple(item)))
        events.extend(new)
    return events


def test_a_bust_costs_nothing_and_the_third_bolt_costs_100() -> None:
    # opened with 100, then three busts: bolt 1/3, 2/3, 3/3 and −100 (the count restarts)
    script: list[list[int] | str] = [[1, 1, 1, 2, 3], "stop"]
    for _ in range(3):
        script += [[2, 2, 3, 4, 6]]
    events = thousand_turns("thousand-classic(pits=[])", ["Anna"], script)
    seen = [(e.kind, e.points, e.count, e.limit) for e in events]
    assert seen == [
        ("recorded", 100, None, None),
        ("bust", 0, None, None),
        ("bolt", 0, 1, 3),
        ("bust", 0, None, None),
        ("bolt", 0, 2, 3),
        ("bust", 0, None, None),
        ("bolt", 0, 3, 3),
        ("bolt_penalty", -100, 3, 3),
    ]
    assert events[-1].score == 0


def test_the_win_carries_the_winning_turns_total() -> None:
    events = thousand_turns("thousand-classic(barrel=none,target=100)", ["Anna"], [[1, 1, 1, 2, 3]])
    assert [(e.kind, e.points, e.score, e.total) for e in events] == [("win", 100, 100, 100)]


def test_a_step_with_no_score_change_has_no_events_and_states_compare_without_them() -> None:
    state = new_game("thousand-classic", ["Anna", "Boris"])
    after, events = step(state, Roll((1, 5, 3, 3, 4)))
    assert events == ()
    # events are not part of the position
    again = engine_for(state.variant).apply(state, Roll((1, 5, 3, 3, 4)))
    assert again == after


# -- score sheets ---------------------------------------------------------------------------------


def test_a_sheet_records_the_cell_with_its_dice_and_first_throw() -> None:
    state = new_game("poker-classic", ["Anna"])
    state, _ = step(state, Roll((1, 6, 6, 6, 6)))
    state, events = step(state, Score("sixes"))
    (event,) = events
    assert (event.kind, event.cell, event.points, event.dice, event.first_throw) == (
        "recorded",
        "sixes",
        6,
        (1, 6, 6, 6, 6),
        True,
    )
    assert event.column is None


def test_a_full_upper_section_decides_the_bonus_once() -> None:
    state = new_game("poker-classic", ["Anna"])
    kinds_seen: list[tuple[str, int]] = []
    for face in range(1, 7):
        state, _ = step(state, Roll((face,) * 3 + ((face % 6) + 1,) * 2))
        state, events = step(state, Score(("ones", "twos", "threes", "fours", "fives", "sixes")[face - 1]))
        kinds_seen += [(e.kind, e.points) for e in events]
    # three of each face: every deviation is 0, the upper total is 0 ≥ 0: +50 (RULES.md §1.4)
    assert kinds_seen == [("recorded", 0)] * 6 + [("upper_bonus", 50)]


def test_fences_bank_and_spend_throws_and_name_the_column() -> None:
    state = new_game("poker-fences", ["Anna"])
    engine = engine_for(state.variant)
    state, _ = step(state, Hold(()))
    state, _ = step(state, Roll((1, 1, 1, 2, 3)))
    state, events = step(state, Score("ones"))
    assert [(e.kind, e.throws, e.column) for e in events] == [("recorded", None, 0), ("banked", 2, None)]
    # three throws, then a fourth spends a banked one
    state, _ = step(state, Hold(()))
    for faces in ((2, 3, 4, 5, 6), (2, 3, 4, 5), (2, 3, 4, 5)):
        state, _ = step(state, Roll(faces) if len(faces) == 5 else Roll(faces[:4]))
        state, _ = step(state, Hold((6,)))
    state, events = step(state, Roll((2, 3, 4, 5)))
    assert [(e.kind, e.throws) for e in events] == [("banked", -1)]
    assert engine.scores(state) == [0]


def test_mandatory_bank_bonus_counts_when_the_sheet_is_full() -> None:
    recorder = Recorder(variant("poker-mandatory"), ["Anna"])
    engine = recorder.engine
    collected = []
    while not engine.is_finished(recorder.state):
        if engine.to_throw(recorder.state):
            recorder.apply(Roll((6, 6, 6, 6, 6)))
        else:
            recorder.apply(
                next(
                    a
                    for a in engine.decisions(recorder.state)
                    if isinstance(a, CellAction) and a.kind == "score"
                )
            )
        collected.extend(recorder.state.events)
    bank = [e for e in collected if e.kind == "bank_bonus"]
    # every turn recorded after the first throw banks 2; 17 cells bank 34, worth 3 each
    assert [(e.points, e.throws) for e in bank] == [(34 * 3, 34)]
    assert collected[-1].kind == "bank_bonus"
    assert points_by_seat(collected, 1) == engine.scores(recorder.state)


def test_a_second_yahtzee_earns_its_bonus_event() -> None:
    state = new_game("yahtzee", ["Anna"])
    state, _ = step(state, Roll((5, 5, 5, 5, 5)))
    state, _ = step(state, Score("yahtzee"))
    state, _ = step(state, Roll((5, 5, 5, 5, 5)))
    state, events = step(state, Score("fives"))
    assert [(e.kind, e.points) for e in events] == [("recorded", 25), ("yahtzee_bonus", 100)]


# -- every preset: the events add up, whatever is played ---------------------------------------


@settings(max_examples=30, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), players=st.integers(1, 3), seed=st.integers(0, 2**32 - 1))
@example(preset="poker-mandatory", players=1, seed=0)  # the bank bonus, once the sheet is full
@example(preset="poker-fences", players=2, seed=0)  # column bonuses and penalties, scratches
@example(preset="poker-showdown", players=3, seed=0)  # antes and banks among three
def test_random_games_of_every_preset_are_explained_point_by_point(
    preset: str, players: int, seed: int
) -> None:
    names = ["Anna", "Boris", "Vera"][:players]
    recorder = Recorder(variant(preset), names)
    engine = recorder.engine
    collected = list(recorder.state.events)
    dice, rng = SeededDice(seed), random.Random(seed)
    for _ in range(400):
        if engine.is_finished(recorder.state):
            break
        n = engine.to_throw(recorder.state)
        recorder.apply(Roll(dice.roll(n)) if n else rng.choice(engine.decisions(recorder.state)))
        collected.extend(recorder.state.events)
        assert points_by_seat(collected, players) == engine.scores(recorder.state)
    _, replayed = replay_events(recorder.record)
    assert replayed == collected
