"""More holes found by probing a local server, each closed: every test here failed before its fix.

Tables left in play go on after a restart; a storage outage between a game's last move and
its end mark is waited out like any other; the per-address limits count an IPv6 client by
its /64, and tables left idle stop counting as live; slow headers are timed out; and Redis
down is logged once, not a traceback at every call.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient
from server_helpers import (
    fast_settings,
    first_legal_bots,
    first_move,
    kosti_serve,
    new_table,
    postgres_database,
    redis_url,
    seat_players,
    seat_through,
    uvicorn_thread,
)
from sqlalchemy import create_engine, select, update
from websockets.sync.client import connect

from kosti.server import bus as bus_module
from kosti.server import dispatch, headers
from kosti.server.app import create_app
from kosti.server.bus import RedisBus
from kosti.server.events import StoredEvent
from kosti.server.hub import Hub
from kosti.server.limits import address_group
from kosti.server.run import uvicorn_options
from kosti.server.seating import plan_bot, plan_leave
from kosti.server.store import Store, tables
from kosti.server.table import Table, TableSettings, token_hash

VARIANT = "poker-free(lower=[chance],first_player=seat)"


# -- tables left in play go on after a restart, though nobody opens them ---------------------------


async def _over_in(hub: Hub, table_id: str, seconds: float) -> Table | None:
    """The table once ``hub`` holds it and its game is over (it is not opened for that), or
    ``None`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        room = hub.rooms.get(table_id)
        if room is not None and room.table.over:
            return room.table
        await asyncio.sleep(0.02)
    return None


def _stored(url: str, table_id: str) -> tuple[list[str], int]:
    """The kinds of the stored log of ``table_id``, and how many tables count as live."""
    store = Store(url)
    try:
        stored = store.load(table_id)
        assert stored is not None
        return [kind for kind, _ in stored.events], store.live()
    finally:
        store.close()


@pytest.mark.asyncio
async def test_a_restarted_process_plays_on_a_table_of_bots_alone(database_url: str) -> None:
    settings = fast_settings(database_url, bot_delay=0.02)
    hub = Hub(Store(database_url), settings, first_legal_bots)
    await hub.start()
    try:
        room = await hub._new_room(TableSettings(VARIANT, 2, owner_sha256=token_hash("owner")), None)
        table_id = room.table.id
        for seat in (0, 1):
            await hub.change(room, lambda table, n=seat: plan_bot(table, "owner", n, "first"))
        while room.table.version < 8:
            await asyncio.sleep(0.01)
    finally:
        await hub.close()  # the process stops; its bots with it
    stopped = len(_stored(database_url, table_id)[0])
    again = Hub(Store(database_url), settings, first_legal_bots)
    await again.start()
    try:
        table = await _over_in(again, table_id, 60.0)
        assert table is not None, "the restarted process left the table of bots where it stopped"
    finally:
        await again.close()
    kinds, live = _stored(database_url, table_id)
    assert len(kinds) > stopped
    assert len(kinds) == table.version  # every move once
    assert len(table.record().turns) == 2 * 7
    assert live == 0  # its end is marked


@pytest.mark.asyncio
async def test_a_restarted_process_runs_the_clock_of_a_timed_table_whose_player_left(
    database_url: str,
) -> None:
    settings = fast_settings(database_url, stand_in="first")
    hub = Hub(Store(database_url), settings, first_legal_bots)
    await hub.start()
    try:
        room = await hub._new_room(TableSettings(VARIANT, 2, timer=1), None)
        table_id = room.table.id
        await seat_through(hub, table_id, "Anna")
        boris = await seat_through(hub, table_id, "Boris")
        await hub.change(room, lambda table: plan_leave(table, boris, False))  # a stand-in plays for him
        assert room.table.seat_to_time() == 0  # Anna's move is timed
    finally:
        await hub.close()  # stopped before her time ran out
    again = Hub(Store(database_url), settings, first_legal_bots)
    await again.start()
    try:
        table = await _over_in(again, table_id, 30.0)
        assert table is not None, "the restarted process never ran the table's clock"
    finally:
        await again.close()
    kinds, live = _stored(database_url, table_id)
    # her time ran out, nobody was left to play, and the game ended as abandoned, marked so
    assert kinds[-2:] == ["timeout", "abandon"]
    assert live == 0


def test_kosti_serve_killed_and_started_again_plays_on_a_table_of_bots_alone(
    sqlite_url: str, tmp_path: Path
) -> None:
    log = tmp_path / "serve.log"
    with kosti_serve(sqlite_url, log, "--bot-delay", "0.05") as (process, base):
        made = httpx.post(f"{base}/api/tables", json={"variant": VARIANT, "seats": 2}).json()
        table_id = made["id"]
        for _ in range(2):
            bot = httpx.post(
                f"{base}/api/tables/{table_id}/bots", json={"level": "random", "token": made["token"]}
            )
            assert bot.status_code == 200, bot.text
        deadline = time.monotonic() + 30
        while len(_stored(sqlite_url, table_id)[0]) < 8:
            assert time.monotonic() < deadline, "the bots did not play"
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    stopped = len(_stored(sqlite_url, table_id)[0])
    with kosti_serve(sqlite_url, log, "--bot-delay", "0.05"):
        deadline = time.monotonic() + 60
        while _stored(sqlite_url, table_id)[1] > 0:  # nobody opens the table meanwhile
            assert time.monotonic() < deadline, f"the table stayed at version {stopped}"
            time.sleep(0.1)
    kinds, _ = _stored(sqlite_url, table_id)
    assert len(kinds) > stopped
    assert "abandon" not in kinds


# -- a storage outage between the last move and the end mark is waited out ------------------------


class EndMarkLost(Store):
    """Storage that cannot be reached for ``down_for`` seconds from the first time a game's end is
    marked: the mark fails as a real database's does (the driver's error)."""

    def __init__(self, url: str, unreachable: str, down_for: float) -> None:
        super().__init__(url)
        self.down_for = down_for
        self.first: float | None = None
        self.failed = 0
        self.marked = 0
        self._unreachable = create_engine(unreachable)

    def finish(self, table_id: str) -> None:
        now = time.monotonic()
        if self.first is None:
            self.first = now
        if now - self.first < self.down_for:
            self.failed += 1
            reachable, self.auto = self.auto, self._unreachable
            try:
                super().finish(table_id)  # raises: no database there
            finally:
                self.auto = reachable
        super().finish(table_id)
        self.marked += 1


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("down_for", "seen"),
    [
        (0.1, ["storage_lost", "storage_back", "end"]),  # back within storage_retry: shown once marked
        (1.0, ["storage_lost", "end", "storage_back"]),  # still down: shown, and marked once it is back
    ],
    ids=["back-within-the-retry", "back-after-the-retry"],
)
def test_storage_lost_before_the_end_mark_is_waited_out_and_the_last_move_shown(
    sqlite_url: str, tmp_path: Path, down_for: float, seen: list[str]
) -> None:
    unreachable = f"sqlite:///{tmp_path / 'no-such-folder' / 'kosti.sqlite3'}"
    store = EndMarkLost(sqlite_url, unreachable, down_for)
    settings = fast_settings(sqlite_url, storage_retry=0.4, tables_per_address=1)
    with TestClient(create_app(settings, bots=first_legal_bots, store=store)) as client:
        table_id = new_table(client, VARIANT, seats=1)
        token = seat_players(client, table_id, ["Anna"])[0]
        told: list[str] = []
        with client.websocket_connect(f"/ws/{table_id}") as socket:
            state = socket.receive_json()
            while not state["table"]["game"]["finished"]:
                move = first_move(state["table"]["game"])
                socket.send_json(
                    {"type": "action", "version": state["version"], "token": token, "action": move}
                )
                while (message := socket.receive_json())["type"] == "notice":
                    told.append(message["code"])
                assert message["type"] == "state", message
                state = message
            told.append("end")
            if "storage_back" not in told:  # the end mark is written once storage is back
                told.append(socket.receive_json()["code"])
        assert told == seen
        assert store.failed > 0
        assert store.marked == 1
        assert client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "finished"
        # the end is marked: the one table of this address no longer counts as live
        assert client.post("/api/tables", json={"variant": "poker-free", "seats": 1}).status_code == 201


# -- the per-address limits count an IPv6 client by its /64; idle tables stop counting as live ----


def test_an_address_counts_by_its_group() -> None:
    same = {address_group(a) for a in ("2001:db8:1:2:aaaa::1", "2001:db8:1:2:ffff::2", "[2001:db8:1:2::3]")}
    assert same == {"2001:db8:1:2::/64"}
    assert address_group("2001:db8:1:3::1%eth0") == "2001:db8:1:3::/64"  # a scope is no part of it
    assert address_group("::ffff:198.51.100.7") == address_group("198.51.100.7") == "198.51.100.7"
    assert address_group("testclient") == "testclient"  # not an address: its own group


def _trusted(app: Any) -> dict[str, Any]:
    """uvicorn's options for a server behind a proxy on loopback (it names the client)."""
    options = uvicorn_options("127.0.0.1", 0, app.state.settings, "127.0.0.1")
    return {k: options[k] for k in ("proxy_headers", "forwarded_allow_ips")}


def _create_from(base: str, addresses: list[str]) -> list[int]:
    body = {"variant": "poker-free", "seats": 2}
    with httpx.Client(base_url=base) as http:
        return [
            http.post("/api/tables", json=body, headers={"X-Forwarded-For": a}).status_code for a in addresses
        ]


def test_the_request_rate_counts_an_ipv6_client_by_its_slash_64(sqlite_url: str) -> None:
    app = create_app(fast_settings(sqlite_url, http_rate=0.001, http_burst=2), bots=first_legal_bots)
    with uvicorn_thread(app, **_trusted(app)) as base:
        # one /64: a new address for each request shares one bucket (a burst of 2)
        assert _create_from(base, [f"2001:db8:1:2::{k}" for k in range(1, 5)]) == [201, 201, 429, 429]
        assert _create_from(base, ["2001:db8:1:3::1"]) == [201]  # another /64
        # an IPv4 address and its IPv4-mapped IPv6 form are one client
        assert _create_from(base, ["198.51.100.7", "::ffff:198.51.100.7", "::ffff:c633:6407"]) == [
            201,
            201,
            429,
        ]


@pytest.fixture(scope="module", params=["one process", "two workers"])
def behind_a_proxy(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server that believes the X-Forwarded-For of loopback, with headers due within 0.5 s: one
    process (``kosti serve`` on SQLite), or ``kosti serve --workers 2`` on PostgreSQL and Redis."""
    folder = tmp_path_factory.mktemp("serve")
    extra = ["--forwarded-allow-ips", "127.0.0.1", "--header-timeout", "0.5"]
    if request.param == "one process":
        with kosti_serve(f"sqlite:///{folder / 'kosti.sqlite3'}", folder / "serve.log", *extra) as (_, base):
            yield base
        return
    redis = redis_url()
    for database in postgres_database():
        with kosti_serve(database, folder / "serve.log", "--workers", "2", "--redis", redis, *extra) as (
            _,
            base,
        ):
            yield base


def test_live_tables_per_address_count_an_ipv6_client_by_its_slash_64(behind_a_proxy: str) -> None:
    cap = 50  # kosti serve's tables_per_address
    # every table from another address of one /64: the cap is the /64's (on any worker)
    made = _create_from(behind_a_proxy, [f"2001:db8:5:6::{k:x}" for k in range(1, cap + 2)])
    assert made == [201] * cap + [429]
    assert _create_from(behind_a_proxy, ["2001:db8:5:7::1"]) == [201]


def _idle_since(url: str, table_ids: list[str], ago: timedelta) -> None:
    """Set ``table_ids`` as last active ``ago`` (as if that much time had gone by)."""
    store = Store(url)
    try:
        with store.auto.connect() as connection:
            stamp = datetime.now(UTC) - ago
            connection.execute(update(tables).where(tables.c.id.in_(table_ids)).values(active_at=stamp))
    finally:
        store.close()


def _active_at(url: str, table_id: str) -> datetime:
    store = Store(url)
    try:
        with store.auto.connect() as connection:
            stamp = connection.execute(select(tables.c.active_at).where(tables.c.id == table_id)).scalar_one()
    finally:
        store.close()
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def test_tables_left_idle_stop_counting_as_live(sqlite_url: str) -> None:
    # linger=0: each request reads its table from storage, as after a while away
    settings = fast_settings(sqlite_url, max_tables=2, idle_expiry=60.0, http_limits=False, linger=0)
    body = {"variant": "poker-free", "seats": 2}
    with TestClient(create_app(settings, bots=first_legal_bots)) as client:
        kept, left = new_table(client), new_table(client)
        assert client.post("/api/tables", json=body).status_code == 503  # a flood fills the cap ...
        _idle_since(sqlite_url, [kept, left], timedelta(minutes=2))  # ... and is left for two minutes
        joined = datetime.now(UTC)
        seat_players(client, kept, ["Anna"])  # then something happens at one of them
        deadline = time.monotonic() + 10
        while _active_at(sqlite_url, kept) < joined:  # stored in the background
            assert time.monotonic() < deadline, "the join was not stored as activity"
            time.sleep(0.02)
        listed = [table["id"] for table in client.get("/api/tables").json()["tables"]]
        assert kept in listed
        assert left not in listed  # idle for longer than idle_expiry: no longer live, nor in the lobby
        answers = [client.post("/api/tables", json=body) for _ in range(2)]
        assert [a.status_code for a in answers] == [201, 503]  # the cap counts the one kept, and the new
        assert client.get(f"/api/tables/{left}").status_code == 200  # still there to play


# -- slow headers are timed out ------------------------------------------------------------------


def _trickle(base: str, head: bytes, within: float = 8.0) -> float | None:
    """Send ``head``, then one byte every 0.1 s, never ending the headers: seconds until the server
    closed the connection, or ``None`` if it had not after ``within`` seconds."""
    address = urlsplit(base)
    start = time.monotonic()
    with socket.create_connection((address.hostname, address.port), timeout=5) as raw:
        raw.sendall(head)
        raw.settimeout(0.1)
        while time.monotonic() - start < within:
            try:
                if raw.recv(4096) == b"":
                    return time.monotonic() - start
            except TimeoutError:
                pass
            except OSError:  # reset
                return time.monotonic() - start
            try:
                raw.sendall(b"a")
            except OSError:
                return time.monotonic() - start
    return None


SLOW_LINE = b"GET /api/ser"
SLOW_HEADERS = b"GET /api/server HTTP/1.1\r\nHost: kosti\r\nX-Slow: "


@pytest.mark.parametrize("parser", ["httptools", "h11"])
def test_a_connection_slow_to_send_its_headers_is_closed_and_others_are_served(
    sqlite_url: str, parser: str
) -> None:
    app = create_app(fast_settings(sqlite_url), bots=first_legal_bots)
    with uvicorn_thread(app, http=headers.protocol(0.5, parser)) as base:
        for head in (SLOW_LINE, SLOW_HEADERS, b""):
            closed = _trickle(base, head) if head else _silent(base)
            assert closed is not None, f"{head!r}: still open after 8 s"
            assert closed >= 0.4
        # the clock stops once the headers are in, and starts again with the next request
        with httpx.Client(base_url=base) as http:
            assert http.get("/api/server").status_code == 200
            time.sleep(0.7)
            assert http.get("/api/server").status_code == 200  # the same connection, kept alive
        table_id = httpx.post(f"{base}/api/tables", json={"variant": "poker-free", "seats": 2}).json()["id"]
        with connect(f"{base.replace('http', 'ws')}/ws/{table_id}") as ws:
            ws.recv(timeout=5)
            time.sleep(0.7)
            ws.send('{"type": "ping"}')
            assert "pong" in str(ws.recv(timeout=5))  # a WebSocket is not cut short


def _silent(base: str, within: float = 8.0) -> float | None:
    """Connect and send nothing: seconds until the server closed the connection, or ``None``."""
    address = urlsplit(base)
    start = time.monotonic()
    with socket.create_connection((address.hostname, address.port), timeout=within) as raw:
        try:
            raw.recv(4096)
        except TimeoutError:
            return None
        except OSError:
            pass
    return time.monotonic() - start


def test_kosti_serve_closes_a_connection_slow_to_send_its_headers(behind_a_proxy: str) -> None:
    # through the parent of the workers too: slow before the request line is in (the parent waits
    # for it) and after (the worker's protocol waits for the rest)
    for head in (SLOW_LINE, SLOW_HEADERS, b""):
        closed = _trickle(behind_a_proxy, head) if head else _silent(behind_a_proxy)
        assert closed is not None, f"{head!r}: still open after 8 s"
        # the header timeout of 0.5 s, not the parent's own wait for a request line
        assert closed < dispatch.HEAD_WITHIN - 1
    assert httpx.get(f"{behind_a_proxy}/api/server").status_code == 200


class StandIn:
    """A worker process that is not there: its end of the socket pair is kept for the test to read."""

    def __init__(self, channel: socket.socket) -> None:
        self.channel = channel.dup()  # the parent closes the one it made
        self.pid = 0

    def poll(self) -> int | None:
        return None

    def terminate(self) -> None:
        return None

    def kill(self) -> None:
        return None

    def wait(self, timeout: float | None = None) -> int:
        return 0


@pytest.mark.timeout(30)
@pytest.mark.asyncio
async def test_the_parent_counts_its_wait_for_the_request_line_against_the_header_timeout() -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    workers: list[StandIn] = []

    def spawn(index: int, count: int, channel: socket.socket) -> StandIn:
        workers.append(StandIn(channel))
        return workers[-1]

    parent = dispatch.Dispatcher(listener, 1, spawn, header_timeout=0.5)
    stop = asyncio.Event()
    running = asyncio.create_task(parent.run(stop))
    try:
        while not workers:
            await asyncio.sleep(0.01)
        worker = workers[0]
        with socket.create_connection(("127.0.0.1", port)) as silent:
            # nothing sent for the whole header timeout: closed by the parent, handed to nobody
            silent.settimeout(5)
            assert await asyncio.to_thread(silent.recv, 100) == b""
            worker.channel.setblocking(False)
            with pytest.raises(BlockingIOError):
                socket.recv_fds(worker.channel, 16, 4)
        with socket.create_connection(("127.0.0.1", port)) as slow:
            slow.sendall(b"GET /api/ser")
            await asyncio.sleep(0.2)
            slow.sendall(b"ver HTTP/1.1\r\n")  # the line is in: handed, with the time it took
            worker.channel.setblocking(True)
            worker.channel.settimeout(5)
            message, fds, _, _ = await asyncio.to_thread(socket.recv_fds, worker.channel, 16, 4)
            for fd in fds:
                socket.socket(fileno=fd).close()
            spent = dispatch._spent(message)
            assert spent is not None
            assert 0.2 <= spent < 0.5  # the worker has what is left of the 0.5 s
    finally:
        stop.set()
        await asyncio.wait_for(running, 10)
        for worker in workers:
            worker.channel.close()
        listener.close()


def test_a_header_timeout_is_a_positive_number(kosti: Any) -> None:
    result = kosti("serve", "--header-timeout", "0")
    assert result.code == 2
    assert "--header-timeout" in result.err
    with pytest.raises(ValueError, match="above 0"):
        headers.protocol(-1.0)
    with pytest.raises(ValueError, match="no HTTP parser"):
        headers.protocol(1.0, "zttp")


# -- Redis down is logged once, and its return with what failed meanwhile ------------------------


class Relay:
    """A TCP relay on loopback in front of the tests' Redis, that can be cut (its connections
    closed, new ones refused) and then let through again on the same port."""

    def __init__(self, url: str) -> None:
        target = urlsplit(url)
        self.target = (target.hostname or "127.0.0.1", target.port or 6379)
        self.port = 0
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    async def open(self) -> None:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self.writers |= {writer, upstream}

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(pipe(reader, upstream), pipe(upstream_reader, writer))

    async def cut(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server = None
        for writer in self.writers:
            writer.close()
        self.writers.clear()


@pytest.mark.timeout(60)
@pytest.mark.asyncio
async def test_redis_down_is_logged_once_and_its_return_with_what_failed(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    relay = Relay(redis_url())
    monkeypatch.setattr(bus_module, "RECONNECT_PAUSE", 0.05)  # the listener tries again 20 times a second
    heard: list[int] = []
    reconnects: list[float] = []

    async def published(table_id: str, version: int, events: list[StoredEvent], changes: Any) -> None:
        heard.append(version)

    async def reconnected() -> None:
        reconnects.append(time.monotonic())

    await relay.open()
    bus = RedisBus(f"redis://127.0.0.1:{relay.port}/0", 0.3)
    table = f"outage-test-{id(heard)}"
    await bus.start(published, reconnected)
    try:
        await bus.follow(table)
        assert await bus.claim(table)
        caplog.set_level(logging.DEBUG, logger="kosti.server.bus")
        caplog.clear()
        await relay.cut()
        for version in range(5):
            assert not await bus.claim(table)
            await bus.drive(table, True)
            await bus.publish(table, version, [("join", {})], {})
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)  # the listener tried again and again
        said = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert [r.getMessage().split(" (")[0] for r in said] == ["Redis is unreachable"], said
        assert all(r.exc_info is None for r in said)  # one line, no traceback
        assert len([r for r in caplog.records if r.exc_info is not None]) > 5  # those are in the debug log
        await relay.open()
        for _ in range(200):
            if any("Redis is back" in r.getMessage() for r in caplog.records):
                break
            await asyncio.sleep(0.05)
        back = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING][1:]
        assert len(back) == 1, back
        assert back[0].startswith("Redis is back after ")
        assert "5 claims of a table's bots" in back[0]
        assert "5 listings of driven tables" in back[0]
        assert "connections of the listener" in back[0]
        assert await bus.claim(table)
        for _ in range(200):
            if reconnects:
                break
            await asyncio.sleep(0.05)
        assert reconnects  # the hub is told to catch its tables up
    finally:
        with contextlib.suppress(Exception):
            await bus.drive(table, False)
        await bus.close()
        await relay.cut()
