"""The HTTP API and the WebSocket of a table, every message and every refusal (FastAPI TestClient)."""

from __future__ import annotations

import gc
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import (
    add_bot,
    fast_settings,
    first_legal_bots,
    first_move,
    new_table,
    play_on,
    seat_players,
)
from starlette.websockets import WebSocketDisconnect

from kosti.i18n import catalog, rules_text
from kosti.levels import levels_for
from kosti.record import Record
from kosti.rules.presets import PRESETS
from kosti.server.app import STATIC, create_app, installed_bots
from kosti.server.fair import verify
from kosti.server.run import COLLECTOR_THRESHOLDS, YOUNG_EVERY, collect_young, served

# -- rules and server data ------------------------------------------------------


def test_presets_in_both_languages(client: TestClient) -> None:
    en = client.get("/api/presets").json()
    ru = client.get("/api/presets", params={"lang": "ru"}).json()
    assert [p["id"] for p in en] == list(PRESETS)
    assert en[0]["name"] == PRESETS[en[0]["id"]].name_en
    assert ru[0]["name"] == PRESETS[ru[0]["id"]].name_ru
    assert client.get("/api/presets", params={"lang": "de"}).status_code == 422


def test_rules_of_a_variant(client: TestClient) -> None:
    rules = client.get("/api/rules/poker-free(lower=[chance])").json()
    assert rules["spec"] == 'poker-free(lower=["chance"])'
    assert rules["options"]["lower"]["value"] == ["chance"]
    assert rules["options"]["lower"]["doc"]
    refused = client.get("/api/rules/no-such-game")
    assert refused.status_code == 400
    assert "unknown preset" in refused.json()["detail"]


def test_the_page_is_served_with_a_content_security_policy(client: TestClient) -> None:
    for path in ("/", "/t/abc"):
        page = client.get(path)
        assert page.status_code == 200
        assert re.search(r'<script type="module" src="/static/v/[0-9a-f]{12}/app.js">', page.text)
        assert "script-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/api/server").json()["message_limit"] == 4096


def test_the_pages_files_are_gzipped_and_kept_by_the_browser_under_their_version(client: TestClient) -> None:
    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers["cache-control"] == "no-cache"  # checked on every load: it names the version
    assert page.headers["content-encoding"] == "gzip"
    version = re.search(r'<meta name="kosti-version" content="([0-9a-f]{12})">', page.text).group(1)  # type: ignore[union-attr]
    files = re.findall(rf'"/static/v/{version}/([^"]+)"', page.text)
    assert {"app.js", "style.css", "manifest.webmanifest"} <= set(files)
    assert not re.search(r'"/static/(?!v/)', page.text)  # no file of the page outside its version
    for name in ("app.js", "board.js", "style.css", "i18n.js"):  # board.js: imported by app.js, relatively
        answer = client.get(f"/static/v/{version}/{name}", headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200
        assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert answer.headers["content-encoding"] == "gzip"
        assert answer.content == (STATIC / name).read_bytes()
    # an old page may still ask for its version: it gets today's file, not to be kept
    assert client.get("/static/v/000000000000/app.js").headers["cache-control"] == "no-cache"
    assert client.get("/static/app.js").headers["cache-control"] == "no-cache"
    assert client.get(f"/static/v/{version}/../routes/page.py").status_code == 404
    words = client.get("/api/words/ru", params={"v": version})
    assert words.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert client.get("/api/words/ru").headers["cache-control"] == "no-cache"


def test_the_words_of_the_game_come_from_kostis_catalogs(client: TestClient) -> None:
    for lang in ("en", "ru"):
        words = client.get(f"/api/words/{lang}").json()
        assert words["cell.two_pairs"] == catalog(lang).cell("two_pairs")
        assert words["rules.thousand"] == rules_text("thousand", lang)
    assert client.get("/api/words/de").status_code == 422


def test_the_page_offers_the_installed_bot_levels(sqlite_url: str) -> None:
    with TestClient(create_app(fast_settings(sqlite_url, bot_levels=None))) as client:
        levels = client.get("/api/server").json()["bot_levels"]
    assert levels == {family: list(levels_for(family)) for family in ("sheet", "thousand", "showdown")}


# -- tables -----------------------------------------------------------------------


def test_create_a_table_and_read_it(client: TestClient) -> None:
    answer = client.post(
        "/api/tables", json={"variant": "poker-classic", "options": {"stages": "free"}, "seats": 3}
    )
    assert answer.status_code == 201
    created = answer.json()
    assert created["invite"] == f"/t/{created['id']}"
    assert len(created["fair"]["server_seed_sha256"]) == 64
    state = client.get(f"/api/tables/{created['id']}").json()
    table = state["table"]
    assert state["version"] == 0
    assert table["variant"] == "poker-classic(stages=free)"
    assert table["status"] == "waiting"
    assert [s["name"] for s in table["seats"]] == [None, None, None]
    assert "server_seed" not in table["fair"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"variant": "no-such-game", "seats": 2}, 400, "unknown preset"),
        ({"variant": "poker-classic", "options": {"speed": 1}, "seats": 2}, 400, "no option 'speed'"),
        ({"variant": "poker-classic", "seats": 0}, 422, "seats"),
        ({"variant": "poker-classic", "seats": 9}, 422, "seats"),
        ({"variant": "poker-classic", "seats": 2, "mode": "telepathy"}, 422, "mode"),
        ({"variant": "poker-classic", "seats": 2, "owner": "me"}, 422, "owner"),
        ({"variant": "x" * 201, "seats": 2}, 422, "variant"),
    ],
)
def test_bad_tables_are_refused_with_a_reason(client: TestClient, body: Any, status: int, words: str) -> None:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == status
    assert words in json.dumps(answer.json())


def test_join_gives_a_secret_token_and_the_table_starts_when_full(client: TestClient) -> None:
    table_id = new_table(client)
    anna = client.post(f"/api/tables/{table_id}/join", json={"name": "  Anna ", "client_seed": "abc"}).json()
    assert anna["seat"] == 0
    assert len(anna["token"]) >= 32
    boris = client.post(f"/api/tables/{table_id}/join", json={"name": "Boris", "client_seed": "b"}).json()
    assert boris["seat"] == 1
    table = client.get(f"/api/tables/{table_id}").json()["table"]
    assert table["status"] == "playing"
    assert {s["name"] for s in table["seats"]} == {"Anna", "Boris"}
    assert anna["token"] not in json.dumps(table)


def test_a_creator_who_gives_a_name_is_seated_with_the_table(client: TestClient) -> None:
    body = {"variant": "thousand-classic", "seats": 3, "name": " Anna ", "client_seed": "abc"}
    created = client.post("/api/tables", json=body).json()
    assert created["seat"] == 0
    assert created["version"] == 1
    with client.websocket_connect(f"/ws/{created['id']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "hello", "token": created["token"]})
        seated = ws.receive_json()["table"]
    assert [s["name"] for s in seated["seats"]] == ["Anna", None, None]
    assert created["token"] not in json.dumps(seated)
    listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
    assert listed[created["id"]]["taken"] == 1  # listed as held from the start
    boris = client.post(f"/api/tables/{created['id']}/join", json={"name": "Boris", "client_seed": "b"})
    assert boris.json()["seat"] == 1
    assert {t["id"]: t for t in client.get("/api/tables").json()["tables"]}[created["id"]]["taken"] == 2
    # a table of one seat starts at once, and leaves the lobby
    alone = client.post(
        "/api/tables", json={"variant": "poker-classic", "seats": 1, "name": "Vera", "client_seed": "v"}
    )
    assert client.get(f"/api/tables/{alone.json()['id']}").json()["table"]["status"] == "playing"
    assert alone.json()["id"] not in {t["id"] for t in client.get("/api/tables").json()["tables"]}
    # without a name the table is made empty, and its creator holds a token without a seat
    empty = client.post("/api/tables", json={"variant": "poker-classic", "seats": 2}).json()
    assert "seat" not in empty and empty["token"]
    assert empty["version"] == 0


@pytest.mark.parametrize(
    ("extra", "status", "words"),
    [
        ({"name": "Anna\u202e", "client_seed": "a"}, 422, "printable"),
        ({"name": "x" * 25, "client_seed": "a"}, 422, "name"),
        ({"name": "Anna", "client_seed": "a:b"}, 422, "client_seed"),
        ({"name": "Anna"}, 400, "client seed"),  # an online table: the player brings a part of the seed
        ({"name": "A\u0301\u0301\u0301\u0301\u0301\u0301\u0301", "client_seed": "a"}, 400, "mark"),
    ],
)
def test_a_creator_whose_seat_is_refused_makes_no_table(
    client: TestClient, extra: dict[str, Any], status: int, words: str
) -> None:
    answer = client.post("/api/tables", json={"variant": "poker-classic", "seats": 2, **extra})
    assert answer.status_code == status, answer.text
    assert words in json.dumps(answer.json())
    assert client.get("/api/tables").json()["tables"] == []


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"name": ""}, 422),
        ({"name": "x" * 25}, 422),
        ({"name": "Anna\u0000"}, 422),
        ({"name": "Anna\u202e"}, 422),
        ({"name": "Bob", "client_seed": "a:b"}, 422),
        ({"name": "Bob", "client_seed": "a" * 65}, 422),
        ({"name": "anna"}, 409),
    ],
)
def test_bad_joins_are_refused(client: TestClient, body: Any, status: int) -> None:
    table_id = new_table(client, seats=3)
    seat_players(client, table_id, ["Anna"])
    answer = client.post(f"/api/tables/{table_id}/join", json=body)
    assert answer.status_code == status, answer.text
    assert answer.json()["detail"]
    assert client.get(f"/api/tables/{table_id}").json()["version"] == 1


def test_names_are_kept_as_text(client: TestClient) -> None:
    table_id = new_table(client, seats=2)
    seat_players(client, table_id, ["<b>Анна</b>"])
    assert client.get(f"/api/tables/{table_id}").json()["table"]["seats"][0]["name"] == "<b>Анна</b>"


def test_a_full_table_and_an_unknown_table_are_refused(client: TestClient) -> None:
    table_id = new_table(client, seats=1)
    seat_players(client, table_id, ["Anna"])
    assert client.post(f"/api/tables/{table_id}/join", json={"name": "Boris"}).status_code == 409
    assert client.get("/api/tables/nothing-here").status_code == 404
    assert client.post("/api/tables/nothing-here/join", json={"name": "Boris"}).status_code == 404


def test_bots_take_empty_seats_and_play(client: TestClient) -> None:
    table_id = new_table(client, "poker-free(lower=[chance],first_player=seat)", seats=2)
    bot = add_bot(client, table_id, "first")
    assert bot.status_code == 200
    assert bot.json()["seat"] == 0
    assert add_bot(client, table_id, "first", seat=0).status_code == 409
    assert add_bot(client, table_id, "nope", seat=1).status_code == 400
    assert add_bot(client, table_id, "BAD LEVEL").status_code == 422
    tokens = seat_players(client, table_id, ["Anna"])
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        state = socket.receive_json()
        # the bot (first in seat order) throws and records by itself
        while state["table"]["game"]["current"] != 1:
            state = socket.receive_json()
        state = play_on(socket, tokens, state, 1)
        assert state["table"]["game"]["current"] == 1  # Anna threw; her turn goes on
    log = state["table"]["log"]
    assert log[3]["player"] == "first bot 1"
    assert log[3]["actions"][0] == "throw" or "roll" in log[3]["actions"][0]


def test_a_scorekeeper_table_refuses_bots(client: TestClient) -> None:
    table_id = new_table(client, seats=2, mode="scorekeeper")
    answer = add_bot(client, table_id, "first")
    assert answer.status_code == 400
    assert answer.json()["code"] == "no_bots"


def test_the_record_waits_for_the_start(client: TestClient) -> None:
    table_id = new_table(client)
    answer = client.get(f"/api/tables/{table_id}/record")
    assert answer.status_code == 400
    assert answer.json()["code"] == "not_started"


def test_creating_tables_is_rate_limited(sqlite_url: str) -> None:
    settings = fast_settings(sqlite_url, http_rate=0.001, http_burst=2)
    with TestClient(create_app(settings, bots=first_legal_bots)) as client:
        codes = [
            client.post("/api/tables", json={"variant": "poker-free", "seats": 1}).status_code
            for _ in range(3)
        ]
    assert codes == [201, 201, 429]


# -- the WebSocket ----------------------------------------------------------------


def started(client: TestClient, variant: str = "poker-free(lower=[chance])") -> tuple[str, dict[int, str]]:
    table_id = new_table(client, variant)
    return table_id, seat_players(client, table_id, ["Anna", "Boris"])


def test_a_connection_gets_the_state_and_every_change(client: TestClient) -> None:
    table_id, tokens = started(client)
    with (
        client.websocket_connect(f"/ws/{table_id}") as player,
        client.websocket_connect(f"/ws/{table_id}") as watcher,
    ):
        state = player.receive_json()
        assert watcher.receive_json() == state
        assert state["type"] == "state"
        game = state["table"]["game"]
        assert game["to_throw"] == 5
        player.send_json(
            {
                "type": "action",
                "version": state["version"],
                "token": tokens[game["current"]],
                "action": "throw",
            }
        )
        after = player.receive_json()
        assert watcher.receive_json() == after
        assert after["version"] == state["version"] + 1
        dice = after["table"]["game"]["turn_view"]["dice"]
        assert len(dice) == 5
        assert sorted(after["table"]["log"][-1]["actions"][0]["roll"]) == dice


def refusal(socket: Any, message: Any) -> dict[str, Any]:
    socket.send_json(message) if not isinstance(message, str | bytes) else (
        socket.send_text(message) if isinstance(message, str) else socket.send_bytes(message)
    )
    answer: dict[str, Any] = socket.receive_json()
    assert answer["type"] == "error", answer
    assert answer["reason"]
    return answer


def test_refused_messages_change_nothing(client: TestClient) -> None:
    table_id, tokens = started(client)
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        state = socket.receive_json()
        version = state["version"]
        current = state["table"]["game"]["current"]
        mine, other = tokens[current], tokens[1 - current]
        base = {"type": "action", "version": version, "token": mine}
        stale = refusal(socket, {**base, "version": version - 1, "action": "throw"})
        assert stale["code"] == "stale"
        assert socket.receive_json() == state  # the stale client gets the state it missed
        assert refusal(socket, {**base, "token": other, "action": "throw"})["code"] == "not_your_turn"
        assert refusal(socket, {**base, "token": "x" * 32, "action": "throw"})["code"] == "unknown_token"
        assert refusal(socket, {**base, "action": {"score": "chance"}})["code"] == "dice_due"
        assert refusal(socket, {**base, "action": {"roll": [6, 6, 6, 6, 6]}})["code"] == "bad_action"
        assert refusal(socket, {**base, "action": {"hold": "sixes"}})["code"] == "bad_action"
        assert refusal(socket, {**base, "action": 42})["code"] == "bad_message"
        assert (
            refusal(socket, {"type": "action", "version": version, "action": "throw"})["code"]
            == "bad_message"
        )
        assert refusal(socket, {"type": "shout", "text": "hi"})["code"] == "bad_message"
        assert refusal(socket, "not json")["code"] == "bad_message"
        assert refusal(socket, {**base, "token": "x" * 65, "action": "throw"})["code"] == "bad_message"
    assert client.get(f"/api/tables/{table_id}").json() == state


def test_an_oversized_message_closes_the_connection(client: TestClient) -> None:
    table_id, _ = started(client)
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        state = socket.receive_json()
        answer = refusal(
            socket, {"type": "action", "version": 0, "token": "x", "action": {"hold": [1] * 3000}}
        )
        assert answer["code"] == "too_large"
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 1009
    assert client.get(f"/api/tables/{table_id}").json() == state


def test_messages_beyond_the_rate_are_refused(sqlite_url: str) -> None:
    settings = fast_settings(sqlite_url, rate=0.001, burst=3)
    with TestClient(create_app(settings, bots=first_legal_bots)) as client:
        table_id, _ = started(client)
        with client.websocket_connect(f"/ws/{table_id}") as socket:
            socket.receive_json()
            codes = [refusal(socket, {"type": "nothing"})["code"] for _ in range(4)]
    assert codes == ["bad_message"] * 3 + ["rate_limited"]


def test_an_unknown_table_closes_the_connection(client: TestClient) -> None:
    with client.websocket_connect("/ws/nothing-here") as socket:
        assert socket.receive_json()["code"] == "not_found"
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4404


def test_hints_on_a_table_that_allows_them(client: TestClient) -> None:
    table_id = new_table(client, seats=1, hints=True)
    tokens = seat_players(client, table_id, ["Anna"])
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        state = socket.receive_json()
        ask = {"type": "hint", "version": state["version"], "token": tokens[0]}
        assert refusal(socket, ask)["code"] == "no_hints"  # throw first
        state = play_on(socket, tokens, state, 1)
        socket.send_json({**ask, "version": state["version"]})
        hint = socket.receive_json()
        assert hint["type"] == "hint"
        assert hint["advice"][0]["action"] == state["table"]["game"]["decisions"][0]
        assert hint["advice"][0]["loss"] == 0
        assert refusal(socket, {**ask, "token": "y" * 20})["code"] == "unknown_token"


def test_no_hints_where_the_table_does_not_allow_them(client: TestClient) -> None:
    table_id = new_table(client, seats=1)
    tokens = seat_players(client, table_id, ["Anna"])
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        state = play_on(socket, tokens, socket.receive_json(), 1)
        answer = refusal(socket, {"type": "hint", "version": state["version"], "token": tokens[0]})
        assert answer["code"] == "no_hints"


def test_a_finished_online_game_verifies_and_an_altered_die_does_not(
    kosti: Any, client: TestClient, tmp_path: Path
) -> None:
    table_id, tokens = started(client)
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        state = play_on(socket, tokens, socket.receive_json(), 200)
        assert state["table"]["status"] == "finished"
        assert state["table"]["fair"]["server_seed"]
        late = refusal(
            socket, {"type": "action", "version": state["version"], "token": tokens[0], "action": "throw"}
        )
        assert late["code"] == "finished"
    data = client.get(f"/api/tables/{table_id}/record").json()
    assert data["fair"]["client_seed"] == "seed-Anna.seed-Boris"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = kosti("verify", str(path))
    assert result.code == 0, result.err
    roll = data["turns"][-1]["actions"][0]["roll"]
    roll[-1] = roll[-1] % 6 + 1
    path.write_text(json.dumps(data), encoding="utf-8")
    result = kosti("verify", str(path))
    assert result.code == 1
    assert f"turn {len(data['turns'])}, action 1" in result.out


@pytest.mark.parametrize(
    "variant", ["poker-showdown(rounds=1)", "thousand-classic(target=300,barrel=none,pits=[])"]
)
def test_bots_play_a_whole_game_of_every_family(sqlite_url: str, variant: str) -> None:
    with TestClient(create_app(fast_settings(sqlite_url), bots=installed_bots)) as client:
        table_id = new_table(client, variant, seats=2)
        for _ in range(2):
            assert add_bot(client, table_id, "heuristic").status_code == 200
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{table_id}").json()["table"]["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.05)
        record = Record.from_json(client.get(f"/api/tables/{table_id}/record").json())
    assert verify(record).fair


def test_a_scorekeeper_game_is_typed_in_to_the_end(client: TestClient) -> None:
    table_id = new_table(client, "poker-free(lower=[chance])", seats=2, mode="scorekeeper")
    tokens = seat_players(client, table_id, ["Anna", "Boris"])
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        state = socket.receive_json()
        assert state["table"]["fair"] is None
        for _ in range(100):
            game = state["table"]["game"]
            if game["finished"]:
                break
            move = first_move(game)
            action = {"roll": [6, 6, 5, 5, 1]} if move == "throw" else move
            socket.send_json(
                {
                    "type": "action",
                    "version": state["version"],
                    "token": tokens[game["current"]],
                    "action": action,
                }
            )
            state = socket.receive_json()
        assert state["table"]["status"] == "finished"
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert "fair" not in record
    assert record["players"] == ["Anna", "Boris"]


def page_words() -> dict[str, dict[str, set[str]]]:
    """The page's own catalog (static/i18n.js): each key of each language with its placeholders."""
    source = (STATIC / "i18n.js").read_text(encoding="utf-8")
    tables: dict[str, dict[str, set[str]]] = {}
    for lang in ("EN", "RU"):
        block = re.search(rf"const {lang} = \{{(.*?)\n\}};", source, re.S)
        assert block is not None
        # a key starts a line indented by two; its value (a text or plural forms) runs to the next key
        parts = re.split(r"^  (\w+): ", block.group(1), flags=re.M)[1:]
        pairs = zip(parts[::2], parts[1::2], strict=True)
        tables[lang] = {key: set(re.findall(r"\{(\w+)\}", value)) for key, value in pairs}
    return tables


def test_the_page_has_every_word_in_both_languages() -> None:
    tables = page_words()
    assert len(tables["EN"]) > 50
    assert tables["EN"].keys() == tables["RU"].keys()
    for key, names in tables["EN"].items():
        assert names == tables["RU"][key], key


def test_every_word_the_page_asks_for_is_in_its_catalog() -> None:
    words = page_words()["EN"]
    used = set()
    for script in STATIC.rglob("*.js"):  # local/transport.js's "This device" panel too
        used |= set(re.findall(r"\bt\(\"(\w+)\"", script.read_text(encoding="utf-8")))
    assert len(used) > 50
    assert sorted(used - words.keys()) == []
    # and nothing in the catalog that no script asks for
    assert sorted(words.keys() - used - {"language", "languageLabel"}) == []


def test_the_scripts_of_play_on_this_device_hold_no_words_of_their_own() -> None:
    # the "This device" panel once kept a word list of its own in local/transport.js: its words
    # are the page's catalog's (i18n.js), in both languages, like every other word of the page
    for script in (STATIC / "local").glob("*.js"):
        source = script.read_text(encoding="utf-8")
        assert not re.search("[А-яЁё]", source), f"{script.name} holds Russian words"
        assert "const WORDS" not in source, script.name
    transport = (STATIC / "local" / "transport.js").read_text(encoding="utf-8")
    asked = set(re.findall(r"\bt\(\"(\w+)\"", transport))
    assert {"deviceTitle", "deviceLocal", "offlineReady", "engineFailed", "badGameFile"} <= asked
    assert asked <= page_words()["RU"].keys()


def test_young_objects_are_collected_on_a_clock_and_the_middle_generation_every_few_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import asyncio

    calls: list[int] = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: calls.append(generation) or 0)

    async def run() -> None:
        task = asyncio.create_task(collect_young(0.001, 3))
        while len(calls) < 7:
            await asyncio.sleep(0.001)
        task.cancel()

    asyncio.run(run())
    assert calls[:6] == [0, 0, 1, 0, 0, 1]


def test_a_served_app_tunes_the_cycle_collector_once_it_has_started(sqlite_url: str) -> None:
    before = gc.get_threshold()
    try:
        app = served(create_app(fast_settings(sqlite_url), bots=first_legal_bots))
        assert gc.get_threshold() == before != COLLECTOR_THRESHOLDS  # nothing changes before the start
        with TestClient(app) as client:
            assert client.get("/api/server").status_code == 200
            assert gc.get_threshold() == COLLECTOR_THRESHOLDS
            assert gc.get_freeze_count() > 0  # what the start made is never scanned again
            young = []
            gc.callbacks.append(collected := lambda phase, info: young.append((phase, info["generation"])))
            try:
                time.sleep(4 * YOUNG_EVERY)  # the server's loop runs in the client's thread meanwhile
            finally:
                gc.callbacks.remove(collected)
            assert ("start", 0) in young  # collected on the clock, not only by count
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
