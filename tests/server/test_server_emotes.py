"""Quick phrases at an online table (:mod:`kosti.server.emotes`): a seated player's phrase, sent
by key, reaches every socket at the table (on every worker process) and changes nothing of the
table, its log or its dice; anyone else, another key, free text or a seat that speaks too fast
is refused with a code worded in the reader's language, and nothing is sent."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import (
    fast_settings,
    first_legal_bots,
    new_table,
    play_on,
    postgres_database,
    redis_url,
    seat_players,
    seat_through,
)

from kosti.server.app import create_app
from kosti.server.bus import RedisBus
from kosti.server.emotes import EMOTES
from kosti.server.hub import Hub
from kosti.server.messages import EmoteMessage
from kosti.server.store import Store
from kosti.server.table import TableSettings

pytestmark = pytest.mark.timeout(120)

I18N = Path(__file__).parents[2] / "src" / "kosti" / "server" / "static" / "i18n.js"
APP = Path(__file__).parents[2] / "src" / "kosti" / "server" / "static" / "app.js"


def emote(token: str, key: str = "good_luck") -> dict[str, Any]:
    return {"type": "emote", "token": token, "emote": key}


def table_of_two(client: TestClient, **extra: Any) -> tuple[str, dict[int, str]]:
    """An online table of Anna and Boris (started: both seats taken, Anna to move), and their tokens
    by seat."""
    table_id = new_table(client, "poker-free(lower=[chance],first_player=seat)", seats=2, **extra)
    return table_id, seat_players(client, table_id, ["Anna", "Boris"])


def first_state(socket: Any) -> dict[str, Any]:
    state: dict[str, Any] = socket.receive_json()
    assert state["type"] == "state", state
    return state


def quiet(socket: Any) -> None:
    """Nothing was sent to ``socket`` meanwhile: its next message is the answer to a ping."""
    socket.send_json({"type": "ping"})
    assert socket.receive_json()["type"] == "pong"


def test_a_phrase_reaches_every_socket_at_the_table_and_changes_nothing(client: TestClient) -> None:
    table_id, tokens = table_of_two(client)
    before = client.get(f"/api/tables/{table_id}").json()
    record = client.get(f"/api/tables/{table_id}/record").json()
    paths = [f"/ws/{table_id}?lang=en", f"/ws/{table_id}?lang=ru&changes=1", f"/ws/{table_id}"]
    with (
        client.websocket_connect(paths[0]) as anna,
        client.websocket_connect(paths[1]) as boris,
        client.websocket_connect(paths[2]) as watcher,
    ):
        for socket in (anna, boris, watcher):
            first_state(socket)
        boris.send_json({"type": "hello", "token": tokens[1]})
        first_state(boris)
        anna.send_json(emote(tokens[0], "nice_throw"))
        said = {"type": "emote", "seat": 0, "emote": "nice_throw", "version": before["version"]}
        for socket in (anna, boris, watcher):  # the same key for every reader, who words it
            assert socket.receive_json() == said
        boris.send_json(emote(tokens[1], "thanks"))
        for socket in (anna, boris, watcher):
            assert socket.receive_json() == {**said, "seat": 1, "emote": "thanks"}
        for socket in (anna, boris, watcher):
            quiet(socket)  # no state followed: the table did not change
    assert client.get(f"/api/tables/{table_id}").json() == before
    assert client.get(f"/api/tables/{table_id}/record").json() == record  # the log, the dice


def refusal(socket: Any, message: dict[str, Any]) -> dict[str, Any]:
    socket.send_json(message)
    answer: dict[str, Any] = socket.receive_json()
    assert answer["type"] == "error", answer
    return answer


def test_a_watcher_another_key_free_text_and_a_seat_left_are_refused(client: TestClient) -> None:
    table_id, tokens = table_of_two(client)
    with (
        client.websocket_connect(f"/ws/{table_id}?lang=ru") as anna,
        client.websocket_connect(f"/ws/{table_id}") as watcher,
    ):
        first_state(anna)
        first_state(watcher)
        # a watcher has no seat's token to say anything with
        answer = refusal(watcher, emote("not-a-seat-token"))
        assert answer["code"] == "unknown_token"
        assert refusal(watcher, {"type": "emote", "emote": "good_luck"})["code"] == "bad_message"
        # only a key of the set: another, or text, is not passed on (nor echoed back)
        for text in ("hello", "Good luck!", "Удачи!", "ты проиграешь, лох", "<b>hi</b>"):
            answer = refusal(anna, emote(tokens[0], text))
            assert answer["code"] == "bad_emote"
            assert answer["params"] == {"known": ", ".join(EMOTES)}
            assert text not in answer["reason"]
            assert answer["reason"].startswith("такой фразы нет")  # in the socket's language
        assert refusal(anna, {**emote(tokens[0]), "emote": {"text": "hi"}})["code"] == "bad_message"
        quiet(watcher)  # none of it reached the table
        # a player who resigned watches on: no longer one of those at the table
        left = client.post(f"/api/tables/{table_id}/leave", json={"token": tokens[1], "resign": True})
        assert left.status_code == 200, left.text
        first_state(anna)
        first_state(watcher)
        answer = refusal(anna, emote(tokens[1]))
        assert (answer["code"], answer["params"]) == ("no_emotes", {"why": "left"})
        assert answer["reason"] == "фразы говорят только игроки, которые сидят за столом"
        quiet(watcher)


def test_a_scorekeepers_table_has_no_phrases(client: TestClient) -> None:
    table_id = new_table(client, "poker-free(lower=[chance])", seats=1, mode="scorekeeper")
    token = seat_players(client, table_id, ["Anna"])[0]
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        first_state(socket)
        answer = refusal(socket, emote(token))
        assert (answer["code"], answer["params"]) == ("no_emotes", {"why": "keeper"})


def test_a_seat_that_speaks_too_fast_is_refused_and_nothing_is_sent(client: TestClient) -> None:
    table_id, tokens = table_of_two(client)
    with (
        client.websocket_connect(f"/ws/{table_id}") as anna,
        client.websocket_connect(f"/ws/{table_id}?lang=ru") as boris,
    ):
        first_state(anna)
        first_state(boris)
        anna.send_json(emote(tokens[0]))
        assert anna.receive_json()["type"] == "emote"
        assert boris.receive_json()["type"] == "emote"
        answer = refusal(anna, emote(tokens[0], "wow"))  # within two seconds
        assert answer["code"] == "rate_limited"
        assert answer["params"] == {"why": "emotes", "n": 2}
        assert answer["reason"] == "not so many phrases: the next one in 2 seconds"
        quiet(boris)
        # the pace is a seat's own: Boris may speak meanwhile
        boris.send_json(emote(tokens[1], "thanks"))
        assert boris.receive_json()["emote"] == "thanks"
        assert anna.receive_json()["emote"] == "thanks"


def test_a_seat_says_at_most_so_many_phrases_a_minute(sqlite_url: str) -> None:
    settings = fast_settings(sqlite_url, emote_gap=0.0, emotes_a_minute=3)
    with TestClient(create_app(settings, bots=first_legal_bots)) as client:
        table_id, tokens = table_of_two(client)
        with client.websocket_connect(f"/ws/{table_id}?lang=ru") as anna:
            first_state(anna)
            for key in EMOTES[:3]:
                anna.send_json(emote(tokens[0], key))
                assert anna.receive_json()["emote"] == key
            answer = refusal(anna, emote(tokens[0]))
            assert answer["code"] == "rate_limited" and 58 <= answer["params"]["n"] <= 60
            wording = r"не так часто: следующую фразу можно через \d+ секунд[уы]?"
            assert re.fullmatch(wording, answer["reason"]), answer["reason"]


class Socket:
    """A socket at a table in a hub, which keeps what it is sent."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.query_params: dict[str, str] = {}

    async def send_text(self, text: str) -> None:
        self.texts.append(text)


@pytest.fixture
def cluster_urls() -> Iterator[tuple[str, str]]:
    redis = redis_url()
    yield from ((database, redis) for database in postgres_database())


@pytest.mark.asyncio
async def test_a_phrase_reaches_the_sockets_of_another_worker_process(cluster_urls: tuple[str, str]) -> None:
    database, redis = cluster_urls
    settings = fast_settings(database, redis_url=redis, lease=0.3)
    hubs = [
        Hub(Store(database), settings, first_legal_bots, RedisBus(redis, settings.lease)) for _ in range(2)
    ]
    for hub in hubs:
        await hub.start()
    try:
        here = await hubs[0]._new_room(TableSettings("poker-free(lower=[chance])", 2), None)
        anna = await seat_through(hubs[0], here.id, "Anna")
        await seat_through(hubs[1], here.id, "Boris")
        there = await hubs[1].room(here.id)  # held, and heard of, by the other process too
        mine, theirs = Socket(), Socket()
        here.sockets[mine] = None  # type: ignore[index]
        there.sockets[theirs] = None  # type: ignore[index]
        # Boris sat down through the other process: this one hears of it over Redis, a moment later
        for _ in range(200):
            if here.table.version == there.table.version:
                break
            await asyncio.sleep(0.02)
        version = here.table.version
        await hubs[0].phrases.say(here, EmoteMessage(type="emote", token=anna, emote="good_game"))
        said = f'{{"type":"emote","seat":0,"emote":"good_game","version":{version}}}'

        def phrases(socket: Socket) -> list[str]:
            # the table's own news (a state caught up over Redis) may reach a socket meanwhile
            return [text for text in socket.texts if text.startswith('{"type":"emote"')]

        assert phrases(mine) == [said]
        for _ in range(200):
            if phrases(theirs):
                break
            await asyncio.sleep(0.02)
        assert phrases(theirs) == [said]
        assert here.table.version == there.table.version == version  # nothing committed
    finally:
        for hub in hubs:
            with contextlib.suppress(Exception):
                await hub.close()


def test_the_page_words_every_phrase_in_both_languages() -> None:
    """The page offers the server's phrases, each worded in English and in Russian."""
    offered = re.search(r"const EMOTES = \[(.*?)\];", APP.read_text(encoding="utf-8"))
    assert offered is not None
    assert tuple(re.findall(r'"(\w+)"', offered.group(1))) == EMOTES
    catalog = I18N.read_text(encoding="utf-8")
    english, russian = catalog.split("const RU = {")
    for key in EMOTES:
        assert re.search(rf'"emote\.{key}": "[^"]+"', english), key
        assert re.search(rf'"emote\.{key}": "[^"]+"', russian), key


def test_a_phrase_of_the_wrong_form_is_refused_and_nothing_is_sent(client: TestClient) -> None:
    """A list for a message, a key that is no string, an overlong one or one with more fields: each
    a ``bad_message`` that says nothing of what was sent and reaches nobody."""
    table_id, tokens = table_of_two(client)
    with (
        client.websocket_connect(f"/ws/{table_id}?lang=ru") as anna,
        client.websocket_connect(f"/ws/{table_id}") as watcher,
    ):
        first_state(anna)
        first_state(watcher)
        long = "x" * 201
        for message in (
            [emote(tokens[0])],
            "good_luck",
            {**emote(tokens[0]), "emote": 7},
            {**emote(tokens[0]), "emote": ["good_luck"]},
            {**emote(tokens[0]), "emote": None},
            {**emote(tokens[0]), "emote": long},
            {**emote(tokens[0]), "emote": ""},
            {**emote(tokens[0]), "token": ""},
            {**emote(tokens[0]), "seat": 1},
        ):
            answer = refusal(anna, message)  # type: ignore[arg-type]
            assert answer["code"] == "bad_message", (message, answer)
            assert long not in answer["reason"] and tokens[0] not in answer["reason"]
        quiet(watcher)


def test_a_token_of_another_table_says_nothing_at_this_one(client: TestClient) -> None:
    table_id, _ = table_of_two(client)
    other_id, others = table_of_two(client)
    with (
        client.websocket_connect(f"/ws/{table_id}") as mallory,
        client.websocket_connect(f"/ws/{table_id}") as watcher,
        client.websocket_connect(f"/ws/{other_id}") as there,
    ):
        for socket in (mallory, watcher, there):
            first_state(socket)
        answer = refusal(mallory, emote(others[0]))
        assert answer["code"] == "unknown_token"
        for socket in (watcher, there):
            quiet(socket)


def test_the_sockets_of_one_seat_share_its_pace(client: TestClient) -> None:
    """Two sockets of a seat (two tabs, or a flooder) are one seat: the second waits as the first."""
    table_id, tokens = table_of_two(client)
    with (
        client.websocket_connect(f"/ws/{table_id}") as first,
        client.websocket_connect(f"/ws/{table_id}") as second,
    ):
        first_state(first)
        first_state(second)
        first.send_json(emote(tokens[0]))
        for socket in (first, second):
            assert socket.receive_json()["emote"] == "good_luck"
        answer = refusal(second, emote(tokens[0], "wow"))
        assert (answer["code"], answer["params"]["why"]) == ("rate_limited", "emotes")
        quiet(first)


def test_the_players_may_say_good_game_when_it_is_over(client: TestClient) -> None:
    """A finished game's seats are still its players: a phrase then is said, and changes nothing."""
    table_id, tokens = table_of_two(client)
    with client.websocket_connect(f"/ws/{table_id}") as socket:
        state = play_on(socket, tokens, first_state(socket), 200)
        assert state["table"]["game"]["finished"]
        record = client.get(f"/api/tables/{table_id}/record").json()
        socket.send_json(emote(tokens[1], "good_game"))
        said = {"type": "emote", "seat": 1, "emote": "good_game", "version": state["version"]}
        assert socket.receive_json() == said
        quiet(socket)
    assert client.get(f"/api/tables/{table_id}/record").json() == record
