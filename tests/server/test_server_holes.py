"""The holes found by probing a local server, each closed: every test here failed before its fix."""

from __future__ import annotations

import dataclasses
import threading
import time
import typing
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from server_helpers import fast_settings, first_legal_bots, new_table, play_on, seat_players, uvicorn_thread
from starlette.websockets import WebSocketDisconnect

from kosti.rules import options as option_classes
from kosti.rules.presets import PRESETS, variant
from kosti.server.app import create_app
from kosti.server.limits import OPTION_BOUNDS, check_options
from kosti.server.run import uvicorn_options
from kosti.server.store import StorageDown, Store

# -- seated players always get in; spectators have their own cap; silent ones go --


def test_a_seated_player_gets_in_however_many_spectators_fill_the_table(sqlite_url: str) -> None:
    settings = fast_settings(sqlite_url, spectators=2, hello_timeout=0.3)
    with TestClient(create_app(settings, bots=first_legal_bots)) as client:
        table_id = new_table(client)
        tokens = seat_players(client, table_id, ["Anna", "Boris"])
        with (
            client.websocket_connect(f"/ws/{table_id}") as one,
            client.websocket_connect(f"/ws/{table_id}") as two,
        ):
            one.receive_json()
            two.receive_json()
            with client.websocket_connect(f"/ws/{table_id}") as third:  # one spectator too many
                assert third.receive_json()["code"] == "crowded"
                with pytest.raises(WebSocketDisconnect):
                    third.receive_json()
            with client.websocket_connect(f"/ws/{table_id}") as player:
                player.send_json({"type": "hello", "token": tokens[0]})
                state = player.receive_json()
                assert state["type"] == "state"
                current = state["table"]["game"]["current"]
                player.send_json(
                    {
                        "type": "action",
                        "version": state["version"],
                        "token": tokens[current],
                        "action": "throw",
                    }
                )
                assert player.receive_json()["version"] == state["version"] + 1
            with client.websocket_connect(f"/ws/{table_id}") as stranger:
                stranger.send_json({"type": "hello", "token": "x" * 32})  # not a seat's token
                assert stranger.receive_json()["code"] == "crowded"


def test_a_silent_spectator_is_closed_and_a_ping_keeps_one(sqlite_url: str) -> None:
    with TestClient(create_app(fast_settings(sqlite_url, idle_timeout=0.4), bots=first_legal_bots)) as client:
        table_id = new_table(client)
        with client.websocket_connect(f"/ws/{table_id}") as socket:
            socket.receive_json()
            socket.send_json({"type": "ping"})
            assert socket.receive_json()["type"] == "pong"
            assert socket.receive_json()["code"] == "idle"
            with pytest.raises(WebSocketDisconnect):
                socket.receive_json()


def test_a_seat_holds_so_many_sockets_and_the_newest_wins(sqlite_url: str) -> None:
    with TestClient(create_app(fast_settings(sqlite_url, seat_sockets=1), bots=first_legal_bots)) as client:
        table_id = new_table(client)
        tokens = seat_players(client, table_id, ["Anna", "Boris"])
        with client.websocket_connect(f"/ws/{table_id}") as old:
            old.receive_json()
            old.send_json({"type": "hello", "token": tokens[0]})
            old.receive_json()
            with client.websocket_connect(f"/ws/{table_id}") as new:
                new.receive_json()
                new.send_json({"type": "hello", "token": tokens[0]})
                assert new.receive_json()["type"] == "state"
                with pytest.raises(WebSocketDisconnect):
                    old.receive_json()


# -- forwarded headers only from configured proxies; caps on live tables ------------


def _creates(base: str, headers: list[dict[str, str]]) -> list[int]:
    body = {"variant": "poker-free", "seats": 2}
    with httpx.Client(base_url=base) as http:
        return [http.post("/api/tables", json=body, headers=h).status_code for h in headers]


@pytest.mark.parametrize("trusted", [None, "127.0.0.1"])
def test_x_forwarded_for_is_believed_only_from_a_configured_proxy(
    sqlite_url: str, trusted: str | None
) -> None:
    settings = fast_settings(sqlite_url, http_rate=0.001, http_burst=2)
    options = uvicorn_options("127.0.0.1", 0, settings, trusted)
    app = create_app(settings, bots=first_legal_bots)
    extra = {k: options[k] for k in ("proxy_headers", "forwarded_allow_ips")}
    with uvicorn_thread(app, **extra) as base:
        rotating = [{"X-Forwarded-For": f"10.0.0.{k}"} for k in range(5)]
        statuses = _creates(base, rotating)
    if trusted is None:  # the header is ignored: one address, its burst of 2, then refused
        assert statuses == [201, 201, 429, 429, 429]
    else:  # behind a proxy, each forwarded address has its own bucket
        assert statuses == [201] * 5


def test_live_tables_are_capped_per_address_and_in_all(sqlite_url: str) -> None:
    settings = fast_settings(sqlite_url, tables_per_address=2, max_tables=3)
    with TestClient(create_app(settings, bots=first_legal_bots)) as client:
        body = {"variant": "poker-free", "seats": 1}
        assert [client.post("/api/tables", json=body).status_code for _ in range(3)] == [201, 201, 429]
    settings = fast_settings(sqlite_url, tables_per_address=2, max_tables=3, http_limits=False)
    with TestClient(create_app(settings, bots=first_legal_bots)) as client:
        body = {"variant": "poker-free", "seats": 1}
        # without per-address limits only the overall cap is left (2 tables are live already)
        answers = [client.post("/api/tables", json=body) for _ in range(2)]
        assert [a.status_code for a in answers] == [201, 503]
        assert answers[1].json()["code"] == "busy"


class SlowToFinish(Store):
    """Storage that takes its time to mark a game over."""

    def finish(self, table_id: str) -> None:
        time.sleep(0.3)
        super().finish(table_id)


@pytest.mark.parametrize("slow", [False, True], ids=["storage", "storage-slow-to-finish"])
def test_a_finished_game_no_longer_counts_as_live(sqlite_url: str, slow: bool) -> None:
    # with storage slow to mark the game over, a new table asked for the moment the end is seen
    # still finds the old one finished: the end is shown only once it is stored
    settings = fast_settings(sqlite_url, tables_per_address=1)
    store = SlowToFinish(sqlite_url) if slow else None
    with TestClient(create_app(settings, bots=first_legal_bots, store=store)) as client:
        table_id = new_table(client, "poker-free(lower=[chance],first_player=seat)", seats=1)
        assert client.post("/api/tables", json={"variant": "poker-free", "seats": 1}).status_code == 429
        tokens = seat_players(client, table_id, ["Anna"])
        with client.websocket_connect(f"/ws/{table_id}") as socket:
            state = play_on(socket, tokens, socket.receive_json(), 200)
        assert state["table"]["status"] == "finished"
        assert client.post("/api/tables", json={"variant": "poker-free", "seats": 1}).status_code == 201


# -- frames: binary ones are refused, and count ----------------------------------------


def test_a_binary_frame_is_refused_and_closes_the_socket(client: TestClient) -> None:
    table_id = new_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        socket.receive_json()
        socket.send_bytes(b"\x00" * 100_000)
        assert socket.receive_json()["code"] == "bad_message"
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 1003


def test_binary_frames_count_against_the_rate(sqlite_url: str) -> None:
    with TestClient(
        create_app(fast_settings(sqlite_url, rate=0.001, burst=1), bots=first_legal_bots)
    ) as client:
        table_id = new_table(client)
        with client.websocket_connect(f"/ws/{table_id}") as socket:
            socket.receive_json()
            socket.send_json({"type": "ping"})
            assert socket.receive_json()["type"] == "pong"
            socket.send_bytes(b"x")  # over the rate: refused as such, before it is even read
            assert socket.receive_json()["code"] == "rate_limited"


# -- the client seed is the players' ------------------------------------------------------


def test_a_player_without_a_client_seed_is_refused(client: TestClient) -> None:
    table_id = new_table(client)
    answer = client.post(f"/api/tables/{table_id}/join", json={"name": "Anna"})
    assert answer.status_code == 400
    assert answer.json()["code"] == "no_seed"
    assert client.get(f"/api/tables/{table_id}").json()["version"] == 0


# -- the WebSocket checks the Origin --------------------------------------------------------


def test_a_page_of_another_origin_cannot_open_a_table(sqlite_url: str) -> None:
    settings = fast_settings(sqlite_url, allowed_origins=("https://friend.example",))
    with TestClient(create_app(settings, bots=first_legal_bots)) as client:
        table_id = new_table(client)
        evil = {"origin": "https://evil.example"}
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(f"/ws/{table_id}", headers=evil),
        ):
            pass
        assert refused.value.code == 1008
        for origin in ("http://testserver", "https://friend.example"):
            with client.websocket_connect(f"/ws/{table_id}", headers={"origin": origin}) as socket:
                assert socket.receive_json()["type"] == "state"
        with client.websocket_connect(f"/ws/{table_id}") as socket:  # no Origin: not a browser
            assert socket.receive_json()["type"] == "state"


# -- names people can tell apart ----------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "code"),
    [
        ("Anna", "\u0410nna", "bad_name"),  # a Cyrillic А among Latin letters
        ("ANNA", "\u0391\u039d\u039d\u0391", "name_taken"),  # all Greek, drawn like ANNA
        ("Тоня", "Tоня", "bad_name"),  # a Latin T among Cyrillic letters
        ("Anna", "\uff21nna", "name_taken"),  # a full-width Ａ is an A after NFKC
        ("Anna", "Z\u0351\u0352\u0353algo", "bad_name"),  # three marks on one letter
        ("Anna", "漢" * 13, "bad_name"),  # 26 columns wide
    ],
)
def test_confusable_and_unreadable_names_are_refused(
    client: TestClient, first: str, second: str, code: str
) -> None:
    table_id = new_table(client, seats=3)
    seat_players(client, table_id, [first])
    answer = client.post(f"/api/tables/{table_id}/join", json={"name": second, "client_seed": "s"})
    assert answer.json()["code"] == code, answer.text
    assert client.get(f"/api/tables/{table_id}").json()["version"] == 1


def test_names_of_one_alphabet_and_fitting_width_are_kept(client: TestClient) -> None:
    table_id = new_table(client, seats=3)
    seat_players(client, table_id, ["Анна-Мария", "漢" * 12, "Jörg"])
    names = [s["name"] for s in client.get(f"/api/tables/{table_id}").json()["table"]["seats"]]
    assert names == ["Анна-Мария", "漢" * 12, "Jörg"]


# -- options that bound every game -----------------------------------------------------------


def test_a_game_that_would_never_end_is_refused(client: TestClient) -> None:
    for options in ({"target": 1_000_000_000}, {"opening": 100_000}, {"bolt_penalty": -5}):
        answer = client.post(
            "/api/tables", json={"variant": "thousand-classic", "seats": 2, "options": options}
        )
        assert answer.status_code == 400, options
        assert answer.json()["code"] == "bad_variant"
    answer = client.post(
        "/api/tables", json={"variant": "poker-showdown", "seats": 2, "options": {"rounds": 101}}
    )
    assert answer.status_code == 400
    ok = client.post(
        "/api/tables", json={"variant": "thousand-classic", "seats": 2, "options": {"target": 10_000}}
    )
    assert ok.status_code == 201


def test_every_whole_number_option_has_bounds_and_every_preset_keeps_them() -> None:
    for name in dir(option_classes):
        cls = getattr(option_classes, name)
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
            continue
        hints = typing.get_type_hints(cls)
        for field in dataclasses.fields(cls):
            if _has_int(hints[field.name]):
                assert field.name in OPTION_BOUNDS, f"{name}.{field.name} has no bounds"
    for preset in PRESETS:
        check_options(variant(preset))  # raises if a preset lies outside


def _has_int(hint: Any) -> bool:
    return hint is int or any(_has_int(arg) for arg in typing.get_args(hint))


# -- a database outage is told, retried, and loses nothing -------------------------------------


class FlakyStore(Store):
    """Storage that is down for the next ``down`` appends; ``lost_ack``: the write lands, the answer not."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.down = 0
        self.lost_ack = False
        self.calls = 0
        self.lock = threading.Lock()

    def append(self, table_id: str, version: int, new: Any) -> None:
        with self.lock:
            self.calls += 1
            if self.down > 0:
                self.down -= 1
                if self.lost_ack:
                    super().append(table_id, version, new)
                raise StorageDown("storage is unreachable (append): connection refused")
        super().append(table_id, version, new)


@pytest.mark.parametrize("lost_ack", [False, True])
def test_a_storage_outage_is_told_retried_and_loses_nothing(sqlite_url: str, lost_ack: bool) -> None:
    store = FlakyStore(sqlite_url)
    with TestClient(create_app(fast_settings(sqlite_url), bots=first_legal_bots, store=store)) as client:
        table_id = new_table(client, "poker-free(lower=[chance],first_player=seat)")
        tokens = seat_players(client, table_id, ["Anna", "Boris"])
        with client.websocket_connect(f"/ws/{table_id}") as socket:
            state = socket.receive_json()
            store.down, store.lost_ack = 3, lost_ack
            socket.send_json(
                {"type": "action", "version": state["version"], "token": tokens[0], "action": "throw"}
            )
            told = socket.receive_json()
            assert (told["type"], told["code"]) == ("notice", "storage_lost")
            assert "connection to storage lost, retrying" in told["reason"]
            assert socket.receive_json()["code"] == "storage_back"
            after = socket.receive_json()
            assert after["type"] == "state"
            assert after["version"] == state["version"] + 1
    stored = Store(sqlite_url).load(table_id)
    assert stored is not None
    assert len(stored.events) == state["version"] + 1  # the throw, once


def test_storage_that_stays_down_refuses_the_change_and_changes_nothing(sqlite_url: str) -> None:
    store = FlakyStore(sqlite_url)
    settings = fast_settings(sqlite_url, storage_retry=0.3)
    with TestClient(create_app(settings, bots=first_legal_bots, store=store)) as client:
        table_id = new_table(client, "poker-free(lower=[chance],first_player=seat)")
        tokens = seat_players(client, table_id, ["Anna", "Boris"])
        with client.websocket_connect(f"/ws/{table_id}") as socket:
            state = socket.receive_json()
            store.down = 10_000
            socket.send_json(
                {"type": "action", "version": state["version"], "token": tokens[0], "action": "throw"}
            )
            assert socket.receive_json()["code"] == "storage_lost"
            assert socket.receive_json()["code"] == "storage_down"
            refused = socket.receive_json()
            assert (refused["type"], refused["code"]) == ("error", "storage_down")
            store.down = 0
        assert client.get(f"/api/tables/{table_id}").json()["version"] == state["version"]


# -- no page that loads scripts from elsewhere -----------------------------------------------


def test_the_api_docs_page_is_not_served(client: TestClient) -> None:
    assert client.get("/api/docs").status_code == 404
    assert client.get("/api/openapi.json").json()["info"]["title"] == "kosti"


# -- workers need shared storage ---------------------------------------------------------------


def test_several_workers_need_postgresql_and_redis(kosti: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KOSTI_DATABASE_URL", raising=False)
    monkeypatch.delenv("KOSTI_REDIS_URL", raising=False)
    result = kosti("serve", "--workers", "2", "--database", "sqlite:///x.db")
    assert result.code != 0
    assert "KOSTI_DATABASE_URL" in result.err
    assert "KOSTI_REDIS_URL" in result.err
    result = kosti("serve", "--workers", "2", "--database", "postgresql://u@127.0.0.1/x", "--redis", "")
    assert "KOSTI_REDIS_URL" in result.err
    assert "KOSTI_DATABASE_URL" not in result.err
