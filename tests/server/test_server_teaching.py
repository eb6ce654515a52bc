"""What the server gives the page so that it can teach the game and leave nobody guessing: a move's
events in its log entry (a bust shown before the next player's cup), the log as the game in force
played it after an edit, a table's rules in sentences with each option worded and offered as a
control, a hint that says what its number is and reaches the page after it reconnects, bots named
plainly, and a finished game's dice checked on request."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import add_bot, fast_settings, first_legal_bots, new_table, seat_players

from kosti.bots.base import Advice
from kosti.i18n import catalog
from kosti.server.app import create_app
from kosti.server.hints import hint_note
from kosti.server.planning import plan_action, plan_edit
from kosti.server.refusal import Refusal
from kosti.server.seating import plan_bot, plan_join
from kosti.server.table import Table, TableSettings, token_hash
from kosti.server.view import TableView
from kosti.server.words import shown_name

OWNER = "the-creator"


def keeper(variant_: str, names: tuple[str, ...] = ("Anna",)) -> tuple[Table, dict[int, str]]:
    """A scorekeeper table of ``variant_`` with ``names`` seated, started: the dice are typed in."""
    table = Table("t1", TableSettings(variant_, len(names), mode="scorekeeper"), None, first_legal_bots)
    tokens = {}
    for name in names:
        events, token = plan_join(table, name, None)
        for event in events:
            table.apply(event)
        tokens[table.seat_of(token)] = token
    return table, tokens


def act(table: Table, tokens: dict[int, str], action: Any) -> None:
    seat = table.current_seat()
    assert seat is not None
    for event in plan_action(table, tokens[seat], table.version, action):
        table.apply(event)


def moves_of(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [entry for entry in view["log"] if entry["kind"] == "action"]


# -- the log ------------------------------------------------------------------------------


def test_a_bust_is_in_its_moves_log_entry_with_the_dice_and_the_total_lost() -> None:
    table, tokens = keeper("thousand-classic")
    act(table, tokens, {"roll": [1, 5, 3, 3, 4]})  # 15 set aside, three dice to throw on
    act(table, tokens, {"roll": [2, 3, 4]})  # nothing: the 15 are lost
    last = moves_of(TableView(table).full("ru"))[-1]
    assert last["actions"][-1] == {"roll": [2, 3, 4]}
    bust = next(e for e in last["events"] if e["kind"] == "bust")
    assert bust["player"] == "Anna" and bust["total"] == 15 and bust["dice"] == [2, 3, 4]
    assert any("сгорает 15" in line for line in last["lines"])


def test_after_an_edit_the_log_shows_the_throw_as_changed_and_the_page_gets_the_whole_state() -> None:
    table, tokens = keeper("thousand-classic")
    act(table, tokens, {"roll": [1, 5, 3, 3, 4]})
    view = TableView(table)
    before = moves_of(view.full("en"))[0]["lines"]
    assert "Anna throws 1 5 3 3 4" in before[0]
    for event in plan_edit(table, tokens[0], table.version, 1, [1, 1, 1, 5, 2]):
        table.apply(event)
    entry = moves_of(view.full("en"))[0]
    assert entry["actions"] == [{"roll": [1, 1, 1, 5, 2]}]
    assert "Anna throws 1 1 1 5 2" in entry["lines"][0]
    assert all("3 3 4" not in line for line in entry["lines"])


def test_a_socket_that_follows_changes_gets_the_whole_state_after_an_edit(client: TestClient) -> None:
    table_id = new_table(client, "thousand-classic", seats=1, mode="scorekeeper")
    token = seat_players(client, table_id, ["Anna"])[0]
    with client.websocket_connect(f"/ws/{table_id}?changes=1") as socket:
        state = socket.receive_json()
        move = {
            "type": "action",
            "version": state["version"],
            "token": token,
            "action": {"roll": [1, 5, 3, 3, 4]},
        }
        socket.send_json(move)
        change = socket.receive_json()
        assert change["type"] == "change"
        socket.send_json(
            {
                "type": "edit",
                "version": change["version"],
                "token": token,
                "throw": 1,
                "faces": [5, 5, 5, 2, 3],
            }
        )
        edited = socket.receive_json()
    assert edited["type"] == "state"  # not a change: the lines shown before read otherwise now
    lines = [line for entry in edited["table"]["log"] for line in entry.get("lines", [])]
    assert any("5 5 5 2 3" in line for line in lines)
    assert not any("1 5 3 3 4" in line for line in lines)


# -- the rules ----------------------------------------------------------------------------


def test_the_rules_of_a_table_in_sentences_with_every_option_worded_in_the_readers_language(
    client: TestClient,
) -> None:
    ru = client.get("/api/rules/thousand-classic", params={"lang": "ru"}).json()
    en = client.get("/api/rules/thousand-classic", params={"lang": "en"}).json()
    sentences = " ".join(ru["sentences"])
    for words in ("Ямы", "Бочка", "Болты", "Обгон", "Самосвал", "Открытие"):
        assert words in sentences, words
    assert "Pits" in " ".join(en["sentences"])
    assert ru["options"]["barrel"]["doc"] == catalog("ru")("option_doc.barrel")
    assert en["options"]["barrel"]["doc"] == catalog("en")("option_doc.barrel")
    assert ru["options"]["barrel"]["kind"] == "choice"
    assert ru["options"]["barrel"]["choices"] == ["none", "points", "open", "capped"]
    assert ru["options"]["bolts_when_restricted"]["kind"] == "bool"
    assert ru["options"]["opening"]["kind"] == "int"
    assert ru["options"]["dump_at"] == {**ru["options"]["dump_at"], "kind": "int", "nullable": True}
    assert ru["options"]["pits"]["kind"] == "fixed"
    # a table without pits or a barrel says so, and nothing of pits
    plain = client.get("/api/rules/thousand-classic(pits=[],barrel=none)", params={"lang": "en"}).json()
    assert not any("Pits" in line for line in plain["sentences"])
    fences = client.get("/api/rules/poker-fences", params={"lang": "ru"}).json()
    assert [line.split(":")[0] for line in fences["sentences"][1:]] == [
        "Столбец I",
        "Столбец II",
        "Столбец III",
    ]
    assert fences["options"]["lower"]["kind"] == "cells"
    assert "pair" in fences["options"]["lower"]["choices"]


def test_a_new_table_takes_its_options_as_values_not_as_syntax(client: TestClient) -> None:
    made = client.post(
        "/api/tables",
        json={"variant": "thousand-classic", "options": {"barrel": "none", "dump_at": None}, "seats": 2},
    )
    assert made.status_code == 201, made.text
    table = client.get(f"/api/tables/{made.json()['id']}").json()["table"]
    assert table["options"] == {"barrel": "none", "dump_at": None}


# -- hints --------------------------------------------------------------------------------


def test_a_hint_says_plainly_what_its_number_is_and_whether_it_is_exact() -> None:
    t = catalog("ru")
    stop = Advice(action=None, value=22.0, loss=0.0)  # type: ignore[arg-type]
    thousand = hint_note("thousand", [stop], exact=False, players=2, t=t)
    assert "прикидке бота" in thousand and "не точный расчёт" in thousand
    assert "точный расчёт" in hint_note("sheet", [stop], exact=True, players=1, t=t)
    chances = Advice(action=None, value=0.6, loss=0.0, chance=True)  # type: ignore[arg-type]
    assert "не точный" in hint_note("thousand", [chances], exact=True, players=3, t=t)
    assert hint_note("thousand", [Advice(action=None, value=None)], exact=False, players=2, t=t) == ""  # type: ignore[arg-type]


def test_the_page_hint_words_the_estimate_plainly(sqlite_url: str) -> None:
    from kosti.server.hub import installed_bots

    settings = fast_settings(sqlite_url, hint_levels=("heuristic",))
    with TestClient(create_app(settings, bots=installed_bots)) as client:
        table_id = new_table(client, "thousand-classic", seats=1, hints=True)
        token = seat_players(client, table_id, ["Anna"])[0]
        with client.websocket_connect(f"/ws/{table_id}?lang=ru") as socket:
            state = socket.receive_json()
            for _ in range(30):
                turn = state["table"]["game"]["turn_view"]
                if turn["open"] and not turn["to_throw"]:
                    break
                socket.send_json(
                    {"type": "action", "version": state["version"], "token": token, "action": "throw"}
                )
                state = socket.receive_json()
            socket.send_json({"type": "hint", "version": state["version"], "token": token})
            hint = socket.receive_json()
    assert hint["type"] == "hint", hint
    assert "оценка эвристики" not in hint["text"]
    assert "прикидка бота" in hint["text"] or "шанс" in hint["text"]
    assert hint["note"]


def test_a_hint_reaches_the_seats_new_socket_when_the_asker_has_gone(client: TestClient) -> None:
    """The answer goes to every socket of the seat when it is ready: the page that asked and then
    reconnected gets it on its new socket."""
    import threading

    from kosti.server import hints as hints_module

    release = threading.Event()
    asked = threading.Event()
    advise = hints_module.Hints.advise

    async def slow(self: Any, room: Any, message: Any) -> Any:
        asked.set()
        import anyio

        await anyio.to_thread.run_sync(release.wait, 10)
        return await advise(self, room, message)

    table_id = new_table(client, seats=1, hints=True)
    token = seat_players(client, table_id, ["Anna"])[0]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hints_module.Hints, "advise", slow)
        with client.websocket_connect(f"/ws/{table_id}") as first:
            state = first.receive_json()
            first.send_json(
                {"type": "action", "version": state["version"], "token": token, "action": "throw"}
            )
            state = first.receive_json()
            first.send_json({"type": "hint", "version": state["version"], "token": token})
            assert asked.wait(10)
        with client.websocket_connect(f"/ws/{table_id}?lang=ru") as second:
            second.receive_json()
            second.send_json({"type": "hello", "token": token})
            assert second.receive_json()["type"] == "state"
            release.set()
            hint = second.receive_json()
    assert hint["type"] == "hint" and hint["version"] == state["version"]
    assert "Лучше всего" in hint["text"]  # worded in the new socket's language


# -- bots and the record ----------------------------------------------------------------


def test_a_lone_bot_is_named_by_its_level_and_two_by_their_seats() -> None:
    table = Table("t1", TableSettings("poker-classic", 3, owner_sha256=token_hash(OWNER)), None, any_level)
    for event in plan_bot(table, OWNER, 1, "heuristic"):
        table.apply(event)
    assert shown_name(table, 1, "ru") == "Умник"
    # nobody may sit down under the name it will have once another comes («Умник 2»)
    with pytest.raises(Refusal) as refused:
        plan_join(table, "Smart 2", "x")
    assert refused.value.code == "name_taken"
    for event in plan_bot(table, OWNER, 2, "heuristic"):
        table.apply(event)
    assert [shown_name(table, s, "ru") for s in (1, 2)] == ["Умник 2", "Умник 3"]


def any_level(level: str, rules: Any, seed: int) -> Any:
    """The test bots under every level's name."""
    return first_legal_bots("first", rules, seed)


def test_a_finished_game_is_verified_on_request(client: TestClient) -> None:
    table_id = new_table(client, "poker-showdown(rounds=1)", seats=2)
    add_bot(client, table_id)
    token = seat_players(client, table_id, ["Anna"])
    pending = client.get(f"/api/tables/{table_id}/verify").json()
    assert pending["status"] == "pending" and pending["server_seed"] is None
    assert pending["server_seed_sha256"]
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        state = socket.receive_json()
        seat = next(iter(token))
        for _ in range(40):
            game = state["table"]["game"]
            if game["finished"]:
                break
            if game["current"] == seat:
                action = "throw" if game["to_throw"] else "stop"
                socket.send_json(
                    {"type": "action", "version": state["version"], "token": token[seat], "action": action}
                )
            state = socket.receive_json()
    verdict = client.get(f"/api/tables/{table_id}/verify").json()
    assert verdict["status"] == "fair", verdict
    assert verdict["throws"] >= 2 and verdict["dice"] >= 10
    import hashlib

    assert hashlib.sha256(bytes.fromhex(verdict["server_seed"])).hexdigest() == verdict["server_seed_sha256"]
