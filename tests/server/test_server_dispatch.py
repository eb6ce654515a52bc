"""``kosti serve --workers N``: a parent hands each connection to a worker, a table's to its home.

The routing is tested on the parent alone (:class:`Dispatcher` with stand-in workers:
the connection each one is handed is read through), and then on a real server of two
workers on PostgreSQL and Redis: a table made at a worker is homed there, its sockets
meet at its home, and a game goes on when that worker is killed mid-game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import first_move, kosti_serve, postgres_database, redis_url
from websockets.sync.client import ClientConnection, connect

from kosti.server import dispatch
from kosti.server.dispatch import Dispatcher, home, homed_id, table_in

# -- where a table lives -------------------------------------------------------------------------


def test_every_worker_is_home_to_a_share_of_the_tables() -> None:
    ids = [f"table-{n}" for n in range(3000)]
    counts = [0, 0, 0]
    for table_id in ids:
        counts[home(table_id, 3)] += 1
    assert all(800 < count < 1200 for count in counts), counts
    assert {home(table_id, 1) for table_id in ids} == {0}


def test_a_new_id_is_drawn_until_its_home_is_the_worker_that_makes_it() -> None:
    drawn = iter(["a", "b", "c", "d", "e", "f"])
    homes = [home(x, 2) for x in "abcdef"]
    wanted = 1 - homes[0]  # the first draw is not at home: it is drawn again
    made = homed_id(wanted, 2, lambda: next(drawn))
    assert made == "abcdef"[homes.index(wanted)]
    assert all(home(homed_id(k, 4), 4) == k for k in range(4) for _ in range(20))
    assert homed_id(0, 1, lambda: "only") == "only"


@pytest.mark.parametrize(("worker", "workers"), [(2, 2), (-1, 2), (0, 0)])
def test_a_worker_outside_the_count_is_refused(worker: int, workers: int) -> None:
    with pytest.raises(ValueError, match="is not one of"):
        homed_id(worker, workers)


@pytest.mark.parametrize(
    ("head", "table"),
    [
        (b"GET /ws/Ab_c-9?changes=1&lang=ru HTTP/1.1\r\nHost: x\r\n\r\n", "Ab_c-9"),
        (b"GET /ws/abc HTTP/1.1\r\n", "abc"),
        (b"POST /api/tables/abc/join HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}", "abc"),
        (b"GET /api/tables/abc HTTP/1.1\r\n", "abc"),
        (b"GET /t/abc HTTP/1.1\r\n", "abc"),
        (b"POST /api/tables HTTP/1.1\r\n", None),  # a new table: no home yet
        (b"GET /api/tables/ HTTP/1.1\r\n", None),
        (b"GET / HTTP/1.1\r\n", None),
        (b"GET /static/app.js HTTP/1.1\r\n", None),
        (b"GET /ws/" + b"a" * 33 + b" HTTP/1.1\r\n", None),  # longer than any id
        (b"GET /ws/a%20b HTTP/1.1\r\n", None),
        (b"GET /wsx/abc HTTP/1.1\r\n", None),
        (b"GET /ws/abc\r\n", None),  # not a request line
        (b"\x16\x03\x01\x02\x00", None),  # TLS, say
        (b"", None),
    ],
)
def test_the_table_is_read_from_the_request_line(head: bytes, table: str | None) -> None:
    assert table_in(head) == table


# -- the parent, with stand-in workers -----------------------------------------------------------


class StandIn:
    """A worker process that is not there: its end of the socket pair is kept for the test to read."""

    def __init__(self, channel: socket.socket) -> None:
        self.channel = channel.dup()  # the parent closes the one it made
        self.pid = 0
        self.code: int | None = None

    def poll(self) -> int | None:
        return self.code

    def terminate(self) -> None:
        self.code = -15

    def kill(self) -> None:
        self.code = -9

    def wait(self, timeout: float | None = None) -> int:
        return self.code or 0

    def taken(self, timeout: float = 5.0) -> socket.socket:
        """The next connection handed to this worker."""
        self.channel.settimeout(timeout)
        _, fds, _, _ = socket.recv_fds(self.channel, 16, 4)
        assert len(fds) == 1
        return socket.socket(fileno=fds[0])

    def say_ready(self) -> None:
        self.channel.send(dispatch.READY)

    def nothing(self) -> bool:
        self.channel.setblocking(False)
        try:
            socket.recv_fds(self.channel, 16, 4)
        except BlockingIOError:
            return True
        return False


class Parent:
    """A :class:`Dispatcher` of ``count`` stand-in workers on a loopback port, its loop in a task."""

    def __init__(self, count: int) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.spawned: list[tuple[int, StandIn]] = []
        self.dispatcher = Dispatcher(self.listener, count, self.spawn)

    def spawn(self, index: int, count: int, channel: socket.socket) -> StandIn:
        worker = StandIn(channel)
        self.spawned.append((index, worker))
        return worker

    def worker(self, index: int) -> StandIn:
        return [w for k, w in self.spawned if k == index][-1]

    async def connect(self, *pieces: bytes, pause: float = 0.0) -> socket.socket:
        """A client connected to the parent, having sent ``pieces`` ``pause`` seconds apart."""
        client = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        self.clients.append(client)
        for piece in pieces:
            client.sendall(piece)
            await asyncio.sleep(pause)
        return client

    async def __aenter__(self) -> Parent:
        self.clients: list[socket.socket] = []
        self.stop = asyncio.Event()
        self.task = asyncio.create_task(self.dispatcher.run(self.stop))
        while len(self.spawned) < len(self.dispatcher.workers):
            await asyncio.sleep(0.01)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.stop.set()
        await asyncio.wait_for(self.task, 10)
        for client in self.clients:
            client.close()
        self.listener.close()


async def taken(worker: StandIn) -> socket.socket:
    return await asyncio.to_thread(worker.taken)


@pytest.mark.asyncio
async def test_a_tables_connection_goes_whole_to_its_home_worker() -> None:
    request = b"GET /ws/kitchen?changes=1 HTTP/1.1\r\nHost: x\r\n\r\n"
    async with Parent(3) as parent:
        client = await parent.connect(request)
        handed = await taken(parent.worker(home("kitchen", 3)))
        # the parent only looked: the worker reads the request from its start, and answers the client
        handed.settimeout(5)
        assert handed.recv(4096) == request
        handed.sendall(b"HTTP/1.1 101 Switching Protocols\r\n\r\n")
        assert client.recv(4096).startswith(b"HTTP/1.1 101")
        assert all(parent.worker(k).nothing() for k in range(3) if k != home("kitchen", 3))


@pytest.mark.asyncio
async def test_other_connections_go_to_the_workers_in_turn() -> None:
    async with Parent(2) as parent:
        order = []
        for _ in range(4):
            await parent.connect(b"POST /api/tables HTTP/1.1\r\n\r\n")
            await asyncio.sleep(0.05)
            went = [k for k in range(2) if not parent.worker(k).nothing()]
            assert len(went) == 1
            order += went
        assert order == [0, 1, 0, 1]


@pytest.mark.asyncio
async def test_a_request_line_in_pieces_is_waited_for() -> None:
    table = next(t for t in (f"t{n}" for n in range(100)) if home(t, 2) == 1)
    async with Parent(2) as parent:
        await parent.connect(b"GET /ws/", table.encode(), b" HTTP/1.1\r\n\r\n", pause=0.1)
        handed = await taken(parent.worker(1))
        handed.settimeout(5)
        assert table.encode() in handed.recv(4096)
        assert parent.worker(0).nothing()


@pytest.mark.asyncio
async def test_a_silent_connection_goes_in_turn_once_its_time_is_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dispatch, "HEAD_WITHIN", 0.3)
    async with Parent(2) as parent:
        await parent.connect()
        await asyncio.sleep(0.1)
        assert parent.worker(0).nothing() and parent.worker(1).nothing()  # still waiting
        await taken(parent.worker(0))


@pytest.mark.asyncio
async def test_the_connections_of_a_dead_worker_go_to_the_next_and_it_is_started_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(dispatch, "RESTART_PAUSE", 0.0)
    monkeypatch.setattr(dispatch, "WATCH_EVERY", 60.0)  # the test looks at the workers itself
    table = next(t for t in (f"t{n}" for n in range(100)) if home(t, 2) == 0)
    async with Parent(2) as parent:
        parent.worker(0).code = -9  # killed
        await parent.connect(f"GET /ws/{table} HTTP/1.1\r\n\r\n".encode())
        await taken(parent.worker(1))
        parent.dispatcher.watch()
        assert [k for k, _ in parent.spawned] == [0, 1, 0]
        await parent.connect(f"GET /ws/{table} HTTP/1.1\r\n\r\n".encode())
        await taken(parent.worker(0))  # the new one


@pytest.mark.asyncio
async def test_a_worker_still_starting_is_passed_over_for_one_that_is_ready() -> None:
    table = next(t for t in (f"t{n}" for n in range(100)) if home(t, 2) == 0)
    request = f"GET /ws/{table} HTTP/1.1\r\n\r\n".encode()
    async with Parent(2) as parent:
        parent.worker(1).say_ready()
        await asyncio.sleep(0.1)
        await parent.connect(request)
        await taken(parent.worker(1))
        parent.worker(0).say_ready()
        await asyncio.sleep(0.1)
        await parent.connect(request)
        await taken(parent.worker(0))  # its home, now that it serves


@pytest.mark.asyncio
async def test_stopping_the_parent_stops_its_workers() -> None:
    async with Parent(2) as parent:
        pass
    assert all(worker.code == -15 for _, worker in parent.spawned)


# -- a real server of two workers ----------------------------------------------------------------

VARIANT = "poker-free(lower=[chance],first_player=seat)"


@pytest.fixture
def two_workers(tmp_path: Path) -> Iterator[tuple[Any, str]]:
    redis = redis_url()
    for database in postgres_database():
        with kosti_serve(database, tmp_path / "serve.log", "--workers", "2", "--redis", redis) as served:
            yield served


def workers_of(parent: int) -> dict[int, int]:
    """The worker processes of the parent ``parent``: their pid by index (from their environment)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2 :].split()[1]) != parent:
            continue
        for item in environ:
            if item.startswith(dispatch.WORKER_VARIABLE.encode() + b"="):
                found[int(item.split(b"=", 1)[1].split(b"/")[0])] = int(entry.name)
    return found


def exited(pid: int) -> bool:
    """Whether process ``pid`` has exited (a zombie, or gone): its files are all closed."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat[stat.rindex(")") + 2] in "ZX"


def open_socket(sockets: contextlib.ExitStack, base: str, table_id: str) -> tuple[ClientConnection, int]:
    """A socket at ``table_id`` (closed with ``sockets``) and the worker that serves it (the
    handshake names it)."""
    # a worker started again takes some seconds to serve what it was handed
    ws = sockets.enter_context(connect(f"{base.replace('http', 'ws')}/ws/{table_id}", open_timeout=60))
    worker = int(ws.response.headers["x-kosti-worker"])
    return ws, worker


def latest(ws: ClientConnection, newer_than: int) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=30))
        assert message["type"] != "error", message
        if message["type"] == "state" and message["version"] > newer_than:
            return dict(message)


@pytest.mark.timeout(240)
def test_a_tables_sockets_meet_at_its_home_and_its_game_survives_a_killed_worker(
    two_workers: tuple[Any, str],
) -> None:
    process, base = two_workers
    with contextlib.ExitStack() as opened:
        play_through_a_kill(opened, process, base)


def play_through_a_kill(opened: contextlib.ExitStack, process: Any, base: str) -> None:
    for _ in range(4):  # each on a new connection: in turn to the two workers
        with httpx.Client(base_url=base) as http:
            made = http.post("/api/tables", json={"variant": "poker-classic", "seats": 2}).json()
            answered = http.get("/api/server").json()  # the same kept-alive connection
        assert answered["workers"] == 2
        assert home(made["id"], 2) == answered["worker"]

    with httpx.Client(base_url=base) as http:
        table_id = http.post("/api/tables", json={"variant": VARIANT, "seats": 2}).json()["id"]
        tokens = {}
        for name in ("Anna", "Boris"):
            seated = http.post(f"/api/tables/{table_id}/join", json={"name": name, "client_seed": name})
            tokens[seated.json()["seat"]] = seated.json()["token"]
    sockets = {}
    for seat in tokens:
        ws, worker = open_socket(opened, base, table_id)
        assert worker == home(table_id, 2)
        sockets[seat] = ws
    state = latest(sockets[0], -1)
    latest(sockets[1], -1)
    killed = False
    while not state["table"]["game"]["finished"]:
        if not killed and state["table"]["game"]["turn"] == 4:
            victim = workers_of(process.pid)[home(table_id, 2)]
            os.kill(victim, signal.SIGKILL)
            killed = True
            # until its last socket is closed a dying worker is still handed what comes: a
            # connection made that instant is lost with it (a client would try again)
            deadline = time.monotonic() + 30
            while not exited(victim):
                assert time.monotonic() < deadline
                time.sleep(0.01)
            for ws in sockets.values():
                ws.close()
            sockets = {seat: open_socket(opened, base, table_id)[0] for seat in tokens}  # a worker alive
            seen = [latest(ws, -1) for ws in sockets.values()]
            assert [s["version"] for s in seen] == [state["version"]] * 2  # nothing lost
            state = seen[0]
        game = state["table"]["game"]
        seat = game["current"]
        message = {"type": "action", "version": state["version"], "token": tokens[seat]}
        sockets[seat].send(json.dumps({**message, "action": first_move(game)}))
        state = latest(sockets[seat], state["version"])
        assert latest(sockets[1 - seat], state["version"] - 1)["version"] == state["version"]
    assert killed
    with httpx.Client(base_url=base) as http:
        stored = http.get(f"/api/tables/{table_id}").json()
        assert stored["version"] == state["version"]  # nothing applied twice
        deadline = time.monotonic() + 60
        while set(workers_of(process.pid)) != {0, 1}:  # the killed worker was started again
            assert time.monotonic() < deadline
            time.sleep(0.2)
