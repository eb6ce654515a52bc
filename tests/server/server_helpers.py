"""Helpers of the server tests: instant bots, test settings, and driving a table over the API."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from helpers import free_port as free_port
from helpers import uvicorn_thread as uvicorn_thread
from sqlalchemy.engine import make_url

from kosti.actions import Action
from kosti.bots.base import Advice, Bot
from kosti.errors import KostiError
from kosti.games import engine_for
from kosti.games.base import GameState
from kosti.server.app import ServerSettings
from kosti.server.seating import plan_join
from kosti.server.table import Table
from kosti.server.view import TableView

POSTGRES_URL = os.environ.get("KOSTI_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


class FirstLegalBot:
    """Plays the first legal decision: enough to fill a seat in a test."""

    name = "first"

    def choose(self, state: GameState) -> Action:
        return engine_for(state.variant).decisions(state)[0]


class FirstLegalAdvisor(FirstLegalBot):
    """Advises the legal decisions in order, the first worth the most."""

    def advise(self, state: GameState) -> list[Advice]:
        decisions = engine_for(state.variant).decisions(state)
        return [Advice(a, float(len(decisions) - i), float(i)) for i, a in enumerate(decisions)]


def view(table: Table) -> dict[str, Any]:
    """What every client of ``table`` sees, in English (:meth:`~kosti.server.view.TableView.full`)."""
    return TableView(table).full()


def first_legal_bots(level: str, rules: Any, seed: int) -> Bot:
    """The test bot factory: level ``first`` plays, level ``advisor`` also advises."""
    if level == "first":
        return FirstLegalBot()
    if level == "advisor":
        return FirstLegalAdvisor()
    raise KostiError(f"no {level} bot in the tests")


def fast_settings(database_url: str, **changes: Any) -> ServerSettings:
    """Settings for tests: no bot delay, limits high enough not to get in the way."""
    values: dict[str, Any] = {
        "database_url": database_url,
        "bot_delay": 0.0,
        "rate": 10_000.0,
        "burst": 10_000,
        "http_rate": 10_000.0,
        "http_burst": 10_000,
        "hint_levels": ("advisor",),
        "bot_levels": ("first",),
    }
    values.update(changes)
    return ServerSettings(**values)


def postgres_database() -> Iterator[str]:
    """A fresh PostgreSQL database for one test, dropped afterwards; skip if none answers."""
    psycopg = pytest.importorskip("psycopg")
    base = make_url(POSTGRES_URL)
    admin = base.set(drivername="postgresql").render_as_string(hide_password=False)
    name = f"kosti_test_{secrets.token_hex(6)}"
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=3) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as error:  # not running, or no right to create a database
        pytest.skip(f"no PostgreSQL database can be made at {base.render_as_string()}: {error}")
    try:
        yield base.set(drivername="postgresql+psycopg", database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


CREATORS: dict[str, str] = {}
"""The token each table made by :func:`new_table` gave its creator (who did not sit down)."""


def new_table(
    client: TestClient, variant: str = "poker-free(lower=[chance])", seats: int = 2, **extra: Any
) -> str:
    answer = client.post("/api/tables", json={"variant": variant, "seats": seats, **extra})
    assert answer.status_code == 201, answer.text
    table_id: str = answer.json()["id"]
    if "token" in answer.json():
        CREATORS[table_id] = answer.json()["token"]
    return table_id


def add_bot(client: Any, table_id: str, level: str = "first", **extra: Any) -> Any:
    """Seat a bot at a table made by :func:`new_table`, asked with its creator's token: the answer."""
    return client.post(
        f"/api/tables/{table_id}/bots", json={"level": level, "token": CREATORS[table_id], **extra}
    )


def seat_players(client: TestClient, table_id: str, names: list[str]) -> dict[int, str]:
    """Seat ``names`` in order; their tokens by seat."""
    tokens = {}
    for name in names:
        answer = client.post(
            f"/api/tables/{table_id}/join",
            json={"name": name, "client_seed": "seed-" + re.sub("[^A-Za-z0-9]", "", name)},
        )
        assert answer.status_code == 200, answer.text
        tokens[answer.json()["seat"]] = answer.json()["token"]
    return tokens


def first_move(game: dict[str, Any]) -> Any:
    """A move that always ends a game: throw when dice are due, else record the first open cell."""
    if game["to_throw"]:
        return "throw"
    scores = [d for d in game["decisions"] if isinstance(d, dict) and "score" in d]
    return scores[0] if scores else game["decisions"][0]


def play_on(socket: Any, tokens: dict[int, str], state: dict[str, Any], moves: int) -> dict[str, Any]:
    """Make ``moves`` moves of the seats in ``tokens`` through ``socket``, waiting while bots play
    the other seats; the state when one of ``tokens`` is next to move after that (or the game ends)."""
    made = 0
    for _ in range(100 * moves + 100):
        game = state["table"]["game"]
        if game["finished"]:
            break
        if game["current"] in tokens:
            if made == moves:
                break
            token = tokens[game["current"]]
            message = {
                "type": "action",
                "version": state["version"],
                "token": token,
                "action": first_move(game),
            }
            socket.send_json(message)
            made += 1
        state = socket.receive_json()
        assert state["type"] == "state", state
    return state


REDIS_URL = os.environ.get("KOSTI_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def redis_url() -> str:
    """The Redis of the tests; skip when none answers."""
    redis = pytest.importorskip("redis")
    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
        client.ping()
        client.close()
    except redis.RedisError as error:
        pytest.skip(f"no Redis answers at {REDIS_URL}: {error}")
    return REDIS_URL


@contextmanager
def kosti_serve(database: str, log: Path, *extra: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A ``kosti serve`` process on a free loopback port, ready to answer; killed at the end if alive."""
    port = free_port()
    command = [sys.executable, "-c", "from kosti.cli import main; main()", "serve"]
    command += [
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--database",
        database,
        "--bot-delay",
        "0",
        *extra,
    ]
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if process.poll() is not None:
                pytest.fail(f"kosti serve exited with {process.returncode}: {log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{base}/api/server", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"kosti serve did not start: {log.read_text()[-2000:]}")
            time.sleep(0.2)
        yield process, base
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)


async def seat_through(hub: Any, table_id: str, name: str) -> str:
    """Seat ``name`` (its client seed the name) through ``hub``, a :class:`~kosti.server.hub.Hub`;
    the seat's token."""
    room = await hub.room(table_id)
    token = ""

    def plan(table: Any) -> list[Any]:
        nonlocal token
        events, token = plan_join(table, name, name)
        return list(events)

    await hub.change(room, plan)
    return token
