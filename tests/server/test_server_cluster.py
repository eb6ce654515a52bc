"""Two ``kosti serve`` processes on one PostgreSQL and one Redis serve one table together.

The two players sit at different processes, with a spectator at each and a bot in
the third seat. Every socket sees the same versions with the same content. Then
one process is killed with SIGKILL mid-game: its people reconnect to the other, the
bot it may have driven is taken over, and the game ends with nothing lost and
nothing applied twice (the record replays and its dice verify).
"""

from __future__ import annotations

import itertools
import json
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import first_move, kosti_serve, postgres_database, redis_url
from websockets.sync.client import connect

from kosti.record import Record
from kosti.server.fair import verify

pytestmark = pytest.mark.timeout(240)

VARIANT = "poker-free(lower=[chance],first_player=seat)"
TURNS = 3 * 7  # three players, six upper cells and chance each


@pytest.fixture
def cluster_urls() -> Iterator[tuple[str, str]]:
    redis = redis_url()
    yield from ((database, redis) for database in postgres_database())


class Watcher:
    """A socket at a table, read in a thread: every state it was sent, in order; reconnects on demand."""

    def __init__(self, base: str, table_id: str) -> None:
        self.states: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.changed = threading.Condition()
        self.connect(base, table_id)

    def connect(self, base: str, table_id: str) -> None:
        self.ws = connect(f"{base.replace('http', 'ws')}/ws/{table_id}")
        self.thread = threading.Thread(target=self._read, args=(self.ws,), daemon=True)
        self.thread.start()

    def _read(self, ws: Any) -> None:
        try:
            for text in ws:
                message = json.loads(text)
                with self.changed:
                    if message["type"] == "state":
                        self.states.append(message)
                    elif message["type"] == "error":
                        self.errors.append(message)
                    self.changed.notify_all()
        except Exception:  # closed, or its process was killed
            pass

    def latest(self, newer_than: int = -1, timeout: float = 30) -> dict[str, Any]:
        """The newest state, once one newer than ``newer_than`` has come."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not self.states or self.states[-1]["version"] <= newer_than:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no state after version {newer_than}; errors {self.errors[-3:]}")
                self.changed.wait(left)
            return self.states[-1]

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def close(self) -> None:
        self.ws.close()


def join(base: str, table_id: str, name: str) -> tuple[int, str]:
    answer = httpx.post(f"{base}/api/tables/{table_id}/join", json={"name": name, "client_seed": name})
    assert answer.status_code == 200, answer.text
    return answer.json()["seat"], answer.json()["token"]


def play(
    players: dict[int, tuple[Watcher, str]], lookout: Watcher, since: int, until: int | None = None
) -> dict[str, Any]:
    """Move for the players (each on its own socket) from version ``since`` on until the game ends,
    or until version ``until``."""
    state = lookout.latest(since - 1)
    for _ in range(2000):
        game = state["table"]["game"]
        if game["finished"] or (until is not None and state["version"] >= until):
            return state
        current = game["current"]
        if current in players:
            socket, token = players[current]
            state = socket.latest(state["version"] - 1)
            if state["table"]["game"]["current"] != current:
                continue
            action = first_move(state["table"]["game"])
            socket.send({"type": "action", "version": state["version"], "token": token, "action": action})
            state = socket.latest(state["version"])
        else:  # the bot's turn: whichever process drives it
            state = lookout.latest(state["version"])
    raise AssertionError("the game did not end")


def new_table(base: str) -> tuple[str, dict[str, Any]]:
    created = httpx.post(f"{base}/api/tables", json={"variant": VARIANT, "seats": 3})
    assert created.status_code == 201, created.text
    return created.json()["id"], created.json()


def test_two_processes_serve_one_table_and_survive_a_kill(
    cluster_urls: tuple[str, str], tmp_path: Path
) -> None:
    database, redis = cluster_urls
    cluster = ["--redis", redis]
    log = tmp_path / "serve.log"
    with (
        kosti_serve(database, log, *cluster) as (a, base_a),
        kosti_serve(database, log, *cluster) as (b, base_b),
    ):
        # -- a whole game: every socket sees the same versions with the same content
        table_id, made = new_table(base_a)
        anna = join(base_a, table_id, "Anna")
        boris = join(base_b, table_id, "Boris")
        sockets = [Watcher(base, table_id) for base in (base_a, base_b, base_a, base_b)]
        bot = httpx.post(
            f"{base_b}/api/tables/{table_id}/bots", json={"level": "random", "token": made["token"]}
        )
        assert bot.status_code == 200, bot.text
        players = {anna[0]: (sockets[0], anna[1]), boris[0]: (sockets[1], boris[1])}
        end = play(players, sockets[2], bot.json()["version"])
        assert end["table"]["status"] == "finished"
        for socket in sockets:
            socket.latest(end["version"] - 1)
            socket.close()
        seen = [[(s["version"], s["table"]) for s in socket.states if s["version"] > 3] for socket in sockets]
        assert all(len(s) > TURNS for s in seen)
        assert all(s == seen[0] for s in seen), "the processes showed different tables"
        record = Record.from_json(httpx.get(f"{base_b}/api/tables/{table_id}/record").json())
        assert len(record.turns) == TURNS
        assert verify(record).fair

        # -- another game, and the process that drives its bot is killed mid-game
        table_id, made = new_table(base_b)
        anna = join(base_a, table_id, "Anna")
        boris = join(base_b, table_id, "Boris")
        bot = httpx.post(
            f"{base_a}/api/tables/{table_id}/bots", json={"level": "random", "token": made["token"]}
        )
        assert bot.status_code == 200, bot.text
        sockets = [Watcher(base, table_id) for base in (base_a, base_b, base_a, base_b)]
        players = {anna[0]: (sockets[0], anna[1]), boris[0]: (sockets[1], boris[1])}
        middle = play(players, sockets[2], bot.json()["version"], until=25)
        owner = bot_owner(redis, table_id)
        assert owner in (a.pid, b.pid), "one of the two processes drives the bot"
        victim, survivor = (a, base_b) if owner == a.pid else (b, base_a)
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=30)
        # the victim's people come back through the survivor
        moved = [0, 2] if victim is a else [1, 3]
        for k in moved:
            sockets[k].connect(survivor, table_id)
        lookout = sockets[1 if victim is a else 0]
        end = play(players, lookout, middle["version"])
        assert end["table"]["status"] == "finished"
        assert end["version"] > middle["version"]
        record = Record.from_json(httpx.get(f"{survivor}/api/tables/{table_id}/record").json())
        for socket in sockets:
            socket.latest(end["version"] - 1)
            socket.close()
    assert len(record.turns) == TURNS  # every turn once: none lost, none played twice
    verdict = verify(record)
    assert verdict.fair, verdict.reason
    shown: dict[int, Any] = {}
    for socket in sockets:
        versions = [s["version"] for s in socket.states]
        assert versions == sorted(set(versions)) or _reconnected_once(versions)
        for state in socket.states:  # whatever a process showed is what the log holds
            assert shown.setdefault(state["version"], state["table"]) == state["table"]


def bot_owner(url: str, table_id: str) -> int | None:
    """The process id of the process that drives the bots of ``table_id`` (its lease in Redis)."""
    import redis

    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        owner = client.get(f"kosti:owner:{table_id}")
    finally:
        client.close()
    return int(str(owner).split(":")[1]) if owner else None


def _reconnected_once(versions: list[int]) -> bool:
    """A socket that reconnected is sent the current state again, once."""
    repeats = [b for a, b in itertools.pairwise(versions) if b <= a]
    return len(repeats) <= 1
