"""A table without the web: seats, the start, actions, refusals, and rebuilding from the log."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

import pytest
from server_helpers import first_legal_bots, view

from kosti.actions import Roll
from kosti.games import turn_view
from kosti.i18n import refusal_text
from kosti.record import replay
from kosti.roller import fair_die
from kosti.server.events import Move, TableEvent
from kosti.server.fair import verify
from kosti.server.planning import plan_action, plan_bot_move
from kosti.server.seating import plan_bot, plan_join
from kosti.server.table import Refusal, Table, TableSettings, token_hash
from kosti.server.view import TableView

SEED = bytes(range(32))


OWNER = "the-creator"
"""The token of the creator of every table made here (who does not sit): it seats bots."""


def table(variant: str = "poker-free(lower=[chance])", seats: int = 2, **settings: Any) -> Table:
    settings.setdefault("owner_sha256", token_hash(OWNER))
    return Table(
        "t1",
        TableSettings(variant, seats, **settings),
        SEED if settings.get("mode", "online") == "online" else None,
        first_legal_bots,
    )


def apply(table_: Table, events: list[TableEvent], log: list[TableEvent] | None = None) -> None:
    for event in events:
        table_.apply(event)
        if log is not None:
            log.append(event)


def seated(
    variant: str = "poker-free(lower=[chance])", names: tuple[str, ...] = ("Anna", "Boris"), **settings: Any
) -> tuple[Table, dict[int, str], list[TableEvent]]:
    t = table(variant, len(names), **settings)
    tokens: dict[int, str] = {}
    log: list[TableEvent] = []
    for name in names:
        events, token = plan_join(t, name, f"seed{name}")
        apply(t, events, log)
        tokens[t.seat_of(token)] = token
    return t, tokens, log


def act(t: Table, tokens: dict[int, str], action: Any, log: list[TableEvent] | None = None) -> list[Any]:
    seat = t.current_seat()
    assert seat is not None
    events = plan_action(t, tokens[seat], t.version, action)
    apply(t, events, log)
    actions: list[Any] = events[0].to_json()["actions"]
    return actions


def test_the_game_starts_when_the_last_seat_is_taken() -> None:
    t = table()
    events, _ = plan_join(t, "Anna", "a1")
    assert [event.kind for event in events] == ["join"]
    apply(t, events)
    assert t.status == "waiting"
    events, _ = plan_join(t, "Boris", "b2")
    assert [event.kind for event in events] == ["join", "start"]
    apply(t, events)
    assert t.status == "playing"
    assert t.client_seed == "a1.b2"
    assert sorted(t.order) == [0, 1]
    assert t.nonce == len(t.rolloff) > 0  # the roll-off used the fair dice first


def test_planning_changes_nothing() -> None:
    t, tokens, _ = seated()
    before = (t.version, view(t))
    plan_action(t, tokens[t.current_seat() or 0], t.version, "throw")
    assert (t.version, view(t)) == before


def test_the_server_throws_with_the_next_nonce() -> None:
    t, tokens, _ = seated()
    nonce = t.nonce
    (roll,) = act(t, tokens, "throw")
    assert roll["roll"] == [fair_die(SEED, "seedAnna.seedBoris", nonce, i) for i in range(5)]
    assert t.nonce == nonce + 1


def test_a_hold_is_followed_by_the_throw_of_the_rest_at_once() -> None:
    t, tokens, _ = seated()
    (roll,) = act(t, tokens, "throw")
    kept = roll["roll"][:2]
    hold, again = act(t, tokens, {"hold": kept})
    assert hold == {"hold": sorted(kept)}
    assert len(again["roll"]) == 3


def test_the_first_throw_of_a_turn_waits_for_the_player() -> None:
    t, tokens, _ = seated()
    act(t, tokens, "throw")
    cell = next(d for d in view(t)["game"]["decisions"] if isinstance(d, dict) and "score" in d)
    assert act(t, tokens, cell) == [cell]
    assert view(t)["game"]["to_throw"] == 5


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"roll": [1, 2, 3, 4, 5]}, "bad_action"),  # the server throws at an online table
        ({"score": "chance"}, "dice_due"),  # dice first: the engine's own refusal
        ({"hold": [7]}, "bad_action"),
        ({"dance": 1}, "bad_action"),
        ([], "bad_action"),  # a move is one to four actions
        (["throw", {"hold": []}, {"hold": []}, {"hold": []}, {"hold": []}], "bad_action"),
        ("roll 1 2 3 4 5", "bad_action"),  # the notation is read as the record form is
        ("hold 7", "bad_action"),
        ("dance", "bad_action"),
        ("score chance", "dice_due"),
    ],
)
def test_a_refused_action_changes_nothing(action: Any, code: str) -> None:
    t, tokens, _ = seated()
    before = view(t)
    with pytest.raises(Refusal) as refusal:
        plan_action(t, tokens[t.current_seat() or 0], t.version, action)
    assert refusal.value.code == code
    assert refusal.value.reason
    assert view(t) == before


def test_stale_out_of_turn_and_unknown_tokens_are_refused() -> None:
    t, tokens, _ = seated()
    current = t.current_seat() or 0
    other = 1 - current
    with pytest.raises(Refusal) as stale:
        plan_action(t, tokens[current], t.version - 1, "throw")
    assert stale.value.code == "stale"
    with pytest.raises(Refusal) as turn:
        plan_action(t, tokens[other], t.version, "throw")
    assert turn.value.code == "not_your_turn"
    with pytest.raises(Refusal) as unknown:
        plan_action(t, "not-a-token", t.version, "throw")
    assert unknown.value.code == "unknown_token"


def test_seating_refusals() -> None:
    t = table(seats=3)
    apply(t, plan_join(t, "Anna", "a")[0])
    with pytest.raises(Refusal, match="called Anna"):
        plan_join(t, "anna", "b")
    with pytest.raises(Refusal) as taken:
        plan_bot(t, OWNER, 0, "first")
    assert taken.value.code == "taken"
    with pytest.raises(Refusal) as bad_seat:
        plan_bot(t, OWNER, 5, "first")
    assert bad_seat.value.code == "bad_seat"
    with pytest.raises(Refusal) as no_bot:
        plan_bot(t, OWNER, None, "grandmaster")
    assert no_bot.value.code == "no_bots"
    with pytest.raises(Refusal):
        plan_join(t, "Boris", "a:b")
    apply(t, plan_bot(t, OWNER, None, "first"))
    apply(t, plan_join(t, "Boris", "b")[0])
    with pytest.raises(Refusal) as started:
        plan_join(t, "Vera", "v")
    assert started.value.code == "started"


def test_the_server_never_picks_the_client_seed() -> None:
    t = table(seats=2)
    with pytest.raises(Refusal) as no_seed:
        plan_join(t, "Anna", None)  # a raw client that sends none: the server must not choose one
    assert no_seed.value.code == "no_seed"
    assert t.version == 0
    scorekeeper = table(seats=1, mode="scorekeeper")
    events, _ = plan_join(scorekeeper, "Anna", None)  # no server dice, no seed to protect
    assert events[0].kind == "join"


def test_a_table_of_bots_alone_takes_its_commitment_as_client_seed() -> None:
    t = table(seats=2)
    apply(t, plan_bot(t, OWNER, None, "first"))
    apply(t, plan_bot(t, OWNER, None, "first"))
    assert t.status == "playing"
    # the rule is fixed before the server seed is drawn: the server cannot choose the seed after
    assert t.client_seed == hashlib.sha256(SEED).hexdigest()


def test_the_server_seed_is_revealed_only_when_the_game_is_over() -> None:
    t, tokens, _ = seated()
    assert "server_seed" not in (t.fair() or {})
    assert "server_seed" not in t.record().extra["fair"]
    for _ in range(100):
        if t.status == "finished":
            break
        game = view(t)["game"]
        act(t, tokens, "throw" if game["to_throw"] else next(d for d in game["decisions"] if "score" in d))
    assert t.status == "finished"
    assert t.record().extra["fair"]["server_seed"] == SEED.hex()
    assert verify(t.record()).fair


def test_a_table_rebuilt_from_its_log_is_the_same_table() -> None:
    t, tokens, log = seated(names=("Anna", "Boris", "Vera"))
    for _ in range(7):
        game = view(t)["game"]
        act(t, tokens, "throw" if game["to_throw"] else game["decisions"][0], log)
    copy = table(seats=3)
    apply(copy, log)
    assert view(copy) == view(t)
    assert copy.nonce == t.nonce
    assert copy.record().to_json() == t.record().to_json()
    # and it goes on with the same dice
    seat = t.current_seat() or 0
    action = "throw" if view(t)["game"]["may_throw"] else view(t)["game"]["decisions"][0]
    assert plan_action(copy, tokens[seat], copy.version, action) == plan_action(
        t, tokens[seat], t.version, action
    )


def test_a_planned_move_is_applied_with_the_states_planned_and_is_what_playing_it_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t, tokens, log = seated("poker-classic")
    copy = table("poker-classic")
    apply(copy, log)
    played = 0
    real = t.engine.apply

    def counted(state: Any, action: Any) -> Any:
        nonlocal played
        played += 1
        return real(state, action)

    monkeypatch.setattr(t.engine, "apply", counted)
    while not t.over:
        game = view(t)["game"]
        holds = [d for d in game["decisions"] if isinstance(d, dict) and "hold" in d]
        action = "throw" if game["to_throw"] else (holds or game["decisions"])[-1]
        seat = t.current_seat()
        assert seat is not None
        events = plan_action(t, tokens[seat], t.version, action)
        planned, played = played, 0
        apply(t, events)
        assert played == 0 < planned  # applying plays nothing again
        apply(copy, events)  # a table that did not plan it plays it
        assert view(copy) == view(t)
    assert copy.record().to_json() == t.record().to_json()
    # a plan that was not applied is not taken for another move's
    t2, tokens2, _ = seated("poker-classic")
    seat = t2.current_seat()
    assert seat is not None
    plan_action(t2, tokens2[seat], t2.version, "throw")
    other = plan_action(t2, tokens2[seat], t2.version, "throw")  # planned again: the same dice
    thrown = other[0]
    assert isinstance(thrown, Move) and thrown.planned is not None
    t2.apply(replace(thrown, actions=(Roll((1, 1, 1, 1, 1)),)))  # its plan kept, its actions not
    assert t2.recorder is not None and t2.recorder.state.dice == (1, 1, 1, 1, 1)


def test_gains_are_what_recording_a_cell_would_add() -> None:
    t, tokens, _ = seated(names=("Anna",))
    (roll,) = act(t, tokens, "throw")
    gains = view(t)["game"]["gains"]
    faces = roll["roll"]
    # poker-free: upper cells score the sum of their face, chance the sum of all five
    assert gains["chance"] == sum(faces)
    assert gains["sixes"] == 6 * faces.count(6)


def test_a_scorekeeper_table_takes_typed_dice_and_no_server_throws() -> None:
    t, tokens, _ = seated(mode="scorekeeper")
    assert t.fair() is None
    assert t.order == [0, 1]  # the players sit in the order they play
    with pytest.raises(Refusal, match="types in the dice"):
        plan_action(t, tokens[0], t.version, "throw")
    assert act(t, tokens, {"roll": [6, 6, 6, 2, 1]}) == [{"roll": [6, 6, 6, 2, 1]}]
    assert act(t, tokens, {"hold": [6, 6, 6]}) == [{"hold": [6, 6, 6]}]
    with pytest.raises(Refusal, match="2 dice are thrown now"):
        plan_action(t, tokens[0], t.version, {"roll": [6, 6, 6]})
    act(t, tokens, {"roll": [6, 5]})
    # a throw typed at a decision stands for the throw the record implies (holding nothing)
    assert t.record().turns[0].actions[-1] == Roll((6, 5))
    with pytest.raises(Refusal) as no_bots:
        plan_bot(table(seats=2, mode="scorekeeper"), OWNER, None, "first")
    assert no_bots.value.code == "no_bots"
    assert replay(t.record()).turn == 0


def test_a_bot_moves_throw_included() -> None:
    t = table("poker-free(lower=[chance],first_player=seat)", seats=2)
    apply(t, plan_bot(t, OWNER, None, "first"))
    apply(t, plan_join(t, "Anna", "a")[0])
    for _ in range(10):
        seat = t.bot_to_move()
        if seat is None:
            break
        events = plan_bot_move(t)
        assert events[0].to_json()["seat"] == seat
        apply(t, events)
    assert t.current_seat() == 1  # the bot has thrown and recorded its first turn
    first = t.record().turns[0]
    assert first.player == "first bot 1"
    assert isinstance(first.actions[0], Roll)


def test_the_view_carries_the_turn_view_its_refusals_worded_in_the_reader_s_language() -> None:
    t, tokens, _ = seated("thousand-classic", mode="scorekeeper")
    act(t, tokens, {"roll": [1, 4, 2, 3, 6]})  # ten points: below the opening, the 1 set aside
    state = t.state
    assert state is not None
    turn = turn_view(state)
    for lang in ("en", "ru"):
        shown = TableView(t).full(lang)["game"]["turn_view"]
        assert shown["dice"] == [2, 3, 4, 6]
        assert shown["aside"] == [{"dice": [1], "points": 10}]
        assert shown["turn_total"] == 10
        assert turn.stop.refusal is not None
        assert shown["stop"]["refusal"] == {
            "code": "stop_unopened",
            "params": turn.stop.refusal.params,
            "reason": refusal_text(turn.stop.refusal, lang),
        }
        # apart from the wording, the view is the family's own
        data = turn.to_json()
        for key in ("throw", "stop"):
            shown[key]["refusal"] = data[key]["refusal"] = None
        assert shown == data
