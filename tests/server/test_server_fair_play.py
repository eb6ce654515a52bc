"""Fair play against a seated cheater: a message acts for one seat within one turn, a throw
comes last, and no answer depends on dice nobody has seen (RULES.md §4).

Every probe here was an attack that worked: a refused list of actions showed the next throw
(``["throw", {"hold": [1, 1, 1, 1, 1]}]`` named the dice about to fall), a list that ran past the
end of a turn played the next seat's, and anyone could seat bots at someone else's table.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from server_helpers import (
    fast_settings,
    first_legal_bots,
    kosti_serve,
    postgres_database,
    redis_url,
    uvicorn_thread,
    view,
)
from websockets.sync.client import ClientConnection, connect

from kosti.actions import Roll
from kosti.server.app import create_app, installed_bots
from kosti.server.events import TableEvent
from kosti.server.planning import plan_action
from kosti.server.seating import plan_bot, plan_join
from kosti.server.table import Refusal, Table, TableSettings, token_hash

SEED = bytes(range(32))
OTHER_SEED = bytes(range(100, 132))
OWNER = "the-creator"
POKER = "poker-classic(first_player=seat)"
THOUSAND = "thousand-classic(first_player=seat)"


# -- the table alone -----------------------------------------------------------------------------


def seated(
    variant: str, seed: bytes = SEED, mode: str = "online"
) -> tuple[Table, dict[int, str], list[TableEvent]]:
    """Alice and Mallory at a started table of ``variant``; their tokens by seat, and the log."""
    table = Table(
        "t1",
        TableSettings(variant, 2, mode, owner_sha256=token_hash(OWNER)),  # type: ignore[arg-type]
        seed if mode == "online" else None,
        first_legal_bots,
    )
    tokens: dict[int, str] = {}
    log: list[TableEvent] = []
    for name in ("Alice", "Mallory"):
        events, token = plan_join(table, name, f"seed{name}")
        for event in events:
            table.apply(event)
        log.extend(events)
        tokens[table.seat_of(token)] = token
    return table, tokens, log


def move(table: Table, tokens: dict[int, str], action: Any, log: list[TableEvent] | None = None) -> list[Any]:
    seat = table.current_seat()
    if seat is None:
        raise AssertionError("nobody is to move")
    events = plan_action(table, tokens[seat], table.version, action)
    for event in events:
        table.apply(event)
    if log is not None:
        log.extend(events)
    actions: list[Any] = events[0].to_json()["actions"]
    return actions


def answer(table: Table, token: str, message: Any) -> tuple[str, str] | list[Any]:
    """What the server would answer ``message``: the refusal's code and reason, or the actions it plays."""
    try:
        events = plan_action(table, token, table.version, message)
    except Refusal as refusal:
        return refusal.code, refusal.reason
    actions: list[Any] = events[0].to_json()["actions"]
    return actions


def twin(log: list[TableEvent], variant: str, seed: bytes) -> Table:
    """The same table, its log applied again, whose dice from now on come from ``seed``: what is
    shown is the same, what is not yet thrown differs."""
    table = Table("t1", TableSettings(variant, 2, owner_sha256=token_hash(OWNER)), SEED, first_legal_bots)
    for event in log:
        table.apply(event)
    table.server_seed = seed
    return table


def test_a_list_that_throws_then_holds_is_refused_without_naming_any_die() -> None:
    table, tokens, log = seated(POKER)
    before = (table.version, table.nonce)
    mover = tokens[table.current_seat() or 0]
    refused = answer(table, mover, ["throw", {"hold": [1, 1, 1, 1, 1]}])
    assert refused == (
        "throw_last",
        "a throw is the last action of a message: act again once its dice are shown",
    )
    assert (table.version, table.nonce) == before  # nothing thrown, nothing counted
    # the answer is the same whatever dice the next throw would bring
    assert answer(twin(log, POKER, OTHER_SEED), mover, ["throw", {"hold": [1, 1, 1, 1, 1]}]) == refused
    thrown = move(table, tokens, "throw")
    faces = thrown[-1]["roll"]
    # a hold of the dice shown is a move of its own: it throws the rest, and nothing may follow it
    for message in (
        [{"hold": faces[:2]}, "throw", {"hold": [1, 1, 1, 1, 1]}],
        [{"hold": faces[:2]}, {"hold": [1, 1, 1, 1, 1]}],
    ):
        refused = answer(table, mover, message)
        assert isinstance(refused, tuple) and refused[0] == "throw_last", refused
        assert "[1, 1, 1, 1, 1]" not in refused[1]


def test_a_stop_after_a_throw_cannot_tell_a_bust_coming() -> None:
    table, tokens, log = seated(THOUSAND)
    mover = tokens[table.current_seat() or 0]
    for seed in (SEED, OTHER_SEED, bytes(32)):
        refused = answer(twin(log, THOUSAND, seed), mover, ["throw", "stop"])
        assert refused == (
            "throw_last",
            "a throw is the last action of a message: act again once its dice are shown",
        )


def test_a_list_cannot_run_into_the_next_seats_turn() -> None:
    table, tokens, _ = seated(POKER)
    alice = tokens[table.current_seat() or 0]
    move(table, tokens, "throw")
    for _ in range(2):
        move(table, tokens, {"hold": []})  # throw all five again, twice: a cell must be filled now
    assert answer(table, alice, [{"score": "ones"}, "throw", {"score": "sixes"}])[0] == "throw_last"
    refused = answer(table, alice, [{"score": "ones"}, "throw"])
    assert refused == ("one_turn", "a message acts within one turn: an action that ends it comes last")
    assert table.record().turns[-1].player == "Alice"
    # alone, her score is hers to make; the next throw is then Mallory's to ask for
    move(table, tokens, {"score": "ones"})
    assert answer(table, alice, "throw")[0] == "not_your_turn"


def test_a_stop_cannot_throw_for_the_next_player() -> None:
    table, tokens, _ = seated(THOUSAND)
    for _ in range(30):  # throw until a stop is allowed (the opening 50 reached in one turn)
        mover = tokens[table.current_seat() or 0]
        move(table, tokens, "throw")
        if isinstance(answer(table, mover, "stop"), list):
            break
    else:
        pytest.fail("no turn reached a stop")
    assert answer(table, mover, ["stop", "throw"]) == (
        "one_turn",
        "a message acts within one turn: an action that ends it comes last",
    )


def test_a_scorekeeper_list_stays_within_its_turn() -> None:
    table, tokens, _ = seated("poker-classic(first_player=seat)", mode="scorekeeper")
    alice = tokens[table.current_seat() or 0]
    # a hold and the throw typed in after it are still one move
    assert answer(table, alice, {"roll": [1, 2, 3, 4, 6]}) == [{"roll": [1, 2, 3, 4, 6]}]
    move(table, tokens, {"roll": [1, 2, 3, 4, 6]})
    assert answer(table, alice, [{"hold": [6]}, {"roll": [6, 6, 6, 6]}]) == [
        {"hold": [6]},
        {"roll": [6, 6, 6, 6]},
    ]
    # but a record that runs on into Mallory's turn is refused: nobody types for another seat
    refused = answer(table, alice, [{"score": "ones"}, {"roll": [5, 5, 5, 5, 5]}])
    assert isinstance(refused, tuple) and refused[0] == "one_turn"


# A few messages of every kind a client can send, good and bad, for the property below.
ACTION = st.one_of(
    st.sampled_from(["throw", "stop", {"hold": []}, {"score": "chance"}, {"scratch": "poker"}, "nonsense"]),
    st.builds(lambda faces: {"hold": faces}, st.lists(st.integers(1, 6), max_size=5)),
    st.builds(lambda faces: {"set_aside": faces}, st.lists(st.integers(1, 6), min_size=1, max_size=5)),
    st.builds(
        lambda cell: {"score": cell}, st.sampled_from(["ones", "sixes", "poker", "full_house", "pair"])
    ),
    st.builds(lambda faces: {"roll": faces}, st.lists(st.integers(1, 6), min_size=1, max_size=5)),
)
MESSAGE = st.one_of(ACTION, st.lists(ACTION, min_size=1, max_size=5))


@hypothesis_settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(
        [POKER, THOUSAND, "poker-showdown(first_player=seat)", "poker-fences(first_player=seat)"]
    ),
    moves=st.integers(0, 25),
    message=MESSAGE,
    seed=st.binary(min_size=32, max_size=32),
)
def test_no_answer_depends_on_dice_not_yet_shown(variant: str, moves: int, message: Any, seed: bytes) -> None:
    """From a position reached by legal play, a message gets the same refusal whatever the dice
    still to come, a refused one changes nothing, and the same message sent twice gets the same
    answer; an accepted one acts for the mover alone, within the turn, with its throws last."""
    table, tokens, log = seated(variant)
    for _ in range(moves):
        state = table.state
        if state is None or table.over:
            break
        game = view(table)["game"]
        move(table, tokens, "throw" if game["to_throw"] else game["decisions"][0], log)
    seat = table.current_seat()
    if seat is None:
        return
    token = tokens[seat]
    before = (table.version, table.nonce, table.record().to_json())
    first = answer(table, token, message)
    assert answer(table, token, message) == first
    assert (table.version, table.nonce, table.record().to_json()) == before
    other = answer(twin(log, variant, seed), token, message)
    if isinstance(first, tuple):
        assert other == first
        return
    # accepted under both dice: the same decisions, only the dice the server threw may differ
    assert isinstance(other, list)
    assert [a for a in first if "roll" not in a] == [a for a in other if "roll" not in a]
    decided = [i for i, a in enumerate(first) if not (isinstance(a, dict) and "roll" in a)]
    thrown = [i for i, a in enumerate(first) if isinstance(a, dict) and "roll" in a]
    if thrown and decided:
        # every throw follows every decision of the message (the server's chained throws included)
        assert min(thrown) > max(decided) or all(first[i] == "throw" for i in decided if i > min(thrown))


def test_only_a_seated_player_or_the_creator_seats_a_bot() -> None:
    _, tokens, _ = seated(POKER)
    fresh = Table("t2", TableSettings(POKER, 3, owner_sha256=token_hash(OWNER)), SEED, first_legal_bots)
    for stranger in ("", "x" * 32, tokens[0]):  # a token of another table is a stranger's here
        with pytest.raises(Refusal) as refused:
            plan_bot(fresh, stranger, None, "first")
        assert refused.value.code == "unknown_token"
    assert plan_bot(fresh, OWNER, None, "first")[0].kind == "bot"
    events, anna = plan_join(fresh, "Anna", "a")
    for event in events:
        fresh.apply(event)
    assert plan_bot(fresh, anna, None, "first")[0].kind == "bot"
    unowned = Table("t3", TableSettings(POKER, 3), SEED, first_legal_bots)
    with pytest.raises(Refusal):
        plan_bot(unowned, OWNER, None, "first")


@pytest.mark.parametrize(
    "name",
    ["\u2800\u2800", "\u3164\u3164", "\u115f\u115f", "\u0301\u0301", "\uffa0", " \u2800 "],
)
def test_a_name_nobody_can_see_is_refused(name: str) -> None:
    table = Table("t1", TableSettings(POKER, 2), SEED, first_legal_bots)
    with pytest.raises(Refusal) as refused:
        plan_join(table, name, "a")
    assert refused.value.code == "bad_name"


@pytest.mark.parametrize(
    "name",
    ["Smart 2", "smart 2", "Умник 2", "УМНИК  2", "Lucky 1", "Профессор 8", "ПРОФЕССОР 8", "Smart", "умник"],
)
def test_a_name_a_bot_is_shown_under_is_refused(name: str) -> None:
    """Whether or not that bot sits there yet: its seat may take one later. The only bot of its
    level at a table is shown under the level's name alone («Умник»): that is a bot's name too."""
    table = Table("t1", TableSettings(POKER, 3), SEED, first_legal_bots)
    with pytest.raises(Refusal) as refused:
        plan_join(table, name, "a")
    assert refused.value.code == "name_taken"


@pytest.mark.parametrize("name", ["Smarty", "Smarty 2", "Ё", "7", "Anna 2"])
def test_names_that_only_resemble_a_bot_s_are_kept(name: str) -> None:
    table = Table("t1", TableSettings(POKER, 2), SEED, first_legal_bots)
    events, _ = plan_join(table, name, "a")
    assert events[0].to_json()["name"] == name


# -- a real server, one process and two workers ------------------------------------------------


@pytest.fixture(scope="module", params=["one process", "two workers"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running server: one process on SQLite, or ``kosti serve --workers 2`` on
    PostgreSQL and Redis."""
    folder = tmp_path_factory.mktemp("serve")
    if request.param == "one process":
        # the bots kosti serve seats, as a cheater meets them
        app = create_app(fast_settings(f"sqlite:///{folder / 'kosti.sqlite3'}"), bots=installed_bots)
        with uvicorn_thread(app) as base:
            yield base
        return
    redis = redis_url()
    for database in postgres_database():
        with kosti_serve(database, folder / "serve.log", "--workers", "2", "--redis", redis) as (_, base):
            yield base


def sit(base: str, variant: str) -> tuple[str, dict[str, str], str]:
    """A table of ``variant`` where Alice (seated first, moving first) and Mallory sit: its id,
    their tokens by name, and the creator's token."""
    made = httpx.post(f"{base}/api/tables", json={"variant": variant, "seats": 2}).json()
    tokens = {}
    for name in ("Alice", "Mallory"):
        joined = httpx.post(f"{base}/api/tables/{made['id']}/join", json={"name": name, "client_seed": name})
        assert joined.status_code == 200, joined.text
        tokens[name] = joined.json()["token"]
    return made["id"], tokens, made["token"]


def state_after(ws: ClientConnection, version: int) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=30))
        if message["type"] == "state" and message["version"] > version:
            return dict(message)


def send(ws: ClientConnection, version: int, token: str, action: Any) -> dict[str, Any]:
    """Send an action; the error it gets, or the next state."""
    ws.send(json.dumps({"type": "action", "version": version, "token": token, "action": action}))
    while True:
        message = json.loads(ws.recv(timeout=30))
        if message["type"] == "error" or (message["type"] == "state" and message["version"] > version):
            return dict(message)


@pytest.mark.timeout(180)
def test_the_server_refuses_every_probe_of_a_seated_cheater(server: str) -> None:
    table_id, tokens, creator = sit(server, POKER)
    with connect(f"{server.replace('http', 'ws')}/ws/{table_id}", open_timeout=60) as ws:
        state = state_after(ws, -1)
        version = state["version"]
        # a preview of the first throw, then of a throw after a hold
        error = send(ws, version, tokens["Alice"], ["throw", {"hold": [1, 1, 1, 1, 1]}])
        assert error["type"] == "error" and error["code"] == "throw_last", error
        assert "[1" not in error["reason"]
        state = send(ws, version, tokens["Alice"], "throw")
        version = state["version"]
        shown = state["table"]["game"]["turn_view"]["dice"]
        error = send(ws, version, tokens["Alice"], [{"hold": shown[:2]}, "throw", {"hold": [1, 1, 1, 1, 1]}])
        assert error["code"] == "throw_last", error
        # playing on into Mallory's turn
        for message in ([{"score": "ones"}, "throw", {"score": "sixes"}], [{"score": "ones"}, "throw"]):
            error = send(ws, version, tokens["Alice"], message)
            assert error["type"] == "error" and error["code"] in ("throw_last", "one_turn"), error
            assert error["version"] == version  # nothing was played
        record = httpx.get(f"{server}/api/tables/{table_id}/record").json()
        assert [turn["player"] for turn in record["turns"]] == ["Alice"]
        assert len([a for a in record["turns"][0]["actions"] if "roll" in a]) == 1
    # seating bots at someone else's table
    other = httpx.post(f"{server}/api/tables", json={"variant": POKER, "seats": 3}).json()
    bots = f"{server}/api/tables/{other['id']}/bots"
    assert httpx.post(bots, json={}).status_code == 422
    assert httpx.post(bots, json={"token": tokens["Alice"], "level": "random"}).status_code == 403
    assert httpx.post(bots, json={"token": creator, "level": "random"}).status_code == 403  # another table's
    assert httpx.post(bots, json={"token": other["token"], "level": "random"}).status_code == 200
    # blank names, and a bot's name taken by a person
    for name in ("\u2800\u2800", "\u3164\u3164", "\u115f\u115f", "\u0301\u0301", "Lucky 1", "Везунчик 1"):
        joined = httpx.post(f"{bots[: -len('/bots')]}/join", json={"name": name, "client_seed": "s"})
        assert joined.status_code in (400, 409), (name, joined.text)


def test_record_of_a_probed_table_is_verified_fair(tmp_path: Path) -> None:
    """The refused probes left no trace: the game played after them verifies throw by throw."""
    table, tokens, _ = seated(POKER)
    for _ in range(200):
        if table.over:
            break
        mover = tokens[table.current_seat() or 0]
        answer(table, mover, ["throw", {"hold": [1, 1, 1, 1, 1]}])
        game = view(table)["game"]
        move(table, tokens, "throw" if game["to_throw"] else game["decisions"][0])
    assert table.over
    from kosti.server.fair import verify

    verdict = verify(table.record())
    assert verdict.fair
    assert sum(1 for t in table.record().turns for a in t.actions if isinstance(a, Roll)) == table.nonce
