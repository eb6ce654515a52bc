"""Load on a real ``kosti serve``: players at human pace, then as fast as they can, 1 and 2 workers.

Starts ``kosti serve --workers N`` on a free loopback port, on a fresh PostgreSQL
database and the local Redis (both required; they are the engines that several
workers share). For N = 1 and then N = 2, in the same run:

1. **human pace**: ``--players`` players (two a table, ``--players``/2 tables of
   poker-classic) think 0.5–1.5 s before each move, for ``--seconds`` seconds;
2. **saturation**: the same players with no thought, for ``--saturation`` seconds.

Every table starts its game at the first phase's start, so that they all end, and sit down to
new games, within the same few seconds (a burst of 500 new tables); with ``--stagger`` each
table is first brought to a point of its game drawn evenly (its first moves played at once,
unmeasured), as the tables of a crowd are at every point of their games. A player's latency
is the time from sending a move to receiving the state (a change) that carries it on the
player's own socket. A table whose game ends starts a new one (at human pace after the same
moment of thought as a move): its creator makes it and sits down in one request, and the
other player joins.
Each phase prints p50, p99, moves a second, errors (refusals, lost sockets) and a
consistency check: every table's stored version is what both its sockets last saw.
The load generator is one asyncio process (on uvloop) doing nothing per message beyond
parsing it; its own CPU share is printed too (it shares the machine's cores with the server),
and how busy the whole machine was in each phase, split between the server, the generator and
the rest (the database, Redis, the kernel). At saturation the workers get only what the others
leave of the cores, so that split bounds what a second worker can add.

    uv run python bench/load.py [--players 1000] [--seconds 60] [--saturation 20]
        [--database postgresql://postgres@127.0.0.1:5432/postgres] [--redis redis://127.0.0.1:6379/0]
        [--stagger] [--workers 1,2] [--rounds 1]

The last line is ``load: workers=2 p99=… ms, saturation 2 vs 1 workers = …×``. On a shared
machine whose speed drifts, ``--rounds 3`` runs 1 and 2 workers in turn three times and gives
the medians of the rounds' two-worker p99 and of their ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import os
import random
import resource
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

sys.path.insert(0, str(Path(__file__).parent))
from roundtrip import first_move, free_port, percentile, start_server

VARIANT = "poker-classic"
CORES = os.cpu_count() or 1
"""The machine's cores, which the server, the generator, the database and Redis share."""


class Socket(asyncio.Protocol):
    """A WebSocket client on websockets' sans-I/O protocol, driven straight from the event loop's
    callbacks: each text message is parsed as its frame arrives and queued for :meth:`recv`.

    websockets' asyncio client costs several times more a message (a task, queues and locks
    for each), and every microsecond the generator spends is taken from the server it measures.
    """

    def __init__(self, url: str) -> None:
        self.protocol = ClientProtocol(parse_uri(url), max_size=None)
        self.transport: asyncio.Transport | None = None
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.inbox: collections.deque[dict[str, Any]] = collections.deque()
        self.waiter: asyncio.Future[None] | None = None
        self.lost: BaseException | None = None

    @classmethod
    async def open(cls, url: str) -> Socket:
        """A socket connected to ``url`` (``ws://host:port/path``), its handshake done."""
        uri = parse_uri(url)
        loop = asyncio.get_running_loop()
        _, socket = await loop.create_connection(lambda: cls(url), uri.host, uri.port)
        await asyncio.wait_for(socket.opened, 30)
        return socket

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.protocol.send_request(self.protocol.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if isinstance(event, Response):
                if self.protocol.handshake_exc is not None:
                    self.opened.set_exception(self.protocol.handshake_exc)
                else:
                    self.opened.set_result(None)
            elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                self.inbox.append(orjson.loads(event.data))
                if self.waiter is not None and not self.waiter.done():
                    self.waiter.set_result(None)
        self._flush()  # pongs to the server's pings, the answer to a close

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = exc or ConnectionError("the server closed the socket")
        if not self.opened.done():
            self.opened.set_exception(self.lost)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def _flush(self) -> None:
        for data in self.protocol.data_to_send():
            if self.transport is None or self.transport.is_closing():
                return
            if data:
                self.transport.write(data)
            else:
                self.transport.write_eof()

    def send(self, message: dict[str, Any]) -> None:
        self.protocol.send_text(orjson.dumps(message))
        self._flush()

    async def recv(self, timeout: float = 30) -> dict[str, Any]:
        """The next message; :class:`ConnectionError` once the socket is lost, :class:`TimeoutError`
        after ``timeout`` seconds without one."""
        while not self.inbox:
            if self.lost is not None:
                raise ConnectionError(str(self.lost))
            loop = asyncio.get_running_loop()
            waiter = self.waiter = loop.create_future()
            timer = loop.call_later(timeout, _expire, waiter, timeout)
            try:
                await waiter
            finally:
                timer.cancel()
                self.waiter = None
        return self.inbox.popleft()

    async def close(self) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        self.protocol.send_close()
        self._flush()
        self.transport.close()


def _expire(waiter: asyncio.Future[None], timeout: float) -> None:
    if not waiter.done():
        waiter.set_exception(TimeoutError(f"no message in {timeout} s"))


@dataclass
class Phase:
    """What one phase measured."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    moves: int = 0
    refusals: list[dict[str, Any]] = field(default_factory=list)
    failures: Counter[str] = field(default_factory=Counter)
    """Tables whose play stopped, by the exception that stopped it (a lost socket, a timeout)."""


class Pair:
    """One table with its two players, each on a socket of their own."""

    def __init__(self, base: str, http: httpx.AsyncClient, rng: random.Random) -> None:
        self.base = base
        self.http = http
        self.rng = rng
        self.table_id = ""
        self.tokens: dict[int, str] = {}
        self.sockets: dict[int, Socket] = {}
        self.seen: dict[int, int] = {}
        self.views: dict[int, dict[str, Any]] = {}
        """The view each socket was last shown, its log left out."""
        self.current: dict[str, Any] | None = None
        """The latest state both sockets have seen."""
        self.tables: list[tuple[str, int]] = []
        """Every table played, with the version its sockets last saw (for the consistency check)."""

    async def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        """POST ``body``; a kept-alive connection that the server closed meanwhile is tried again."""
        for attempt in range(5):
            try:
                answer = await self.http.post(path, json=body)
                answer.raise_for_status()
                return answer
            except httpx.TransportError:
                if attempt == 4:
                    raise
                await asyncio.sleep(0.2 * (attempt + 1))
        raise AssertionError("unreachable")

    async def sit(self) -> None:
        """Anna makes the table and sits down (one request, as the page does); Boris joins."""
        body = {"variant": VARIANT, "seats": 2, "name": "Anna", "client_seed": secrets.token_hex(8)}
        created = (await self.post("/api/tables", body)).json()
        self.table_id = created["id"]
        self.tokens = {created["seat"]: created["token"]}
        body = {"name": "Boris", "client_seed": secrets.token_hex(8)}
        joined = (await self.post(f"/api/tables/{self.table_id}/join", body)).json()
        self.tokens[joined["seat"]] = joined["token"]
        ws_base = self.base.replace("http", "ws")
        for seat in self.tokens:
            self.sockets[seat] = await Socket.open(f"{ws_base}/ws/{self.table_id}?changes=1")

    async def leave(self) -> None:
        if self.table_id:
            self.tables.append((self.table_id, max(self.seen.values(), default=0)))
        for ws in self.sockets.values():
            await ws.close()
        self.sockets = {}
        self.seen = {}
        self.views = {}
        self.current = None

    async def welcome(self, phase: Phase) -> dict[str, Any]:
        """The state every socket is sent on connecting."""
        states = [await self.state(seat, -1, phase) for seat in self.sockets]
        self.current = states[0]
        return states[0]

    async def state(self, seat: int, newer_than: int, phase: Phase) -> dict[str, Any]:
        """The next state on ``seat``'s socket newer than ``newer_than`` (errors counted): a whole
        ``state``, or a ``change`` laid over the view the socket had (its log left out)."""
        while True:
            message = await self.sockets[seat].recv()
            if message["type"] == "change":
                if message["since"] != self.seen.get(seat):
                    phase.errors += 1
                    phase.refusals.append({"code": "gap"})
                message["table"] = {**self.views[seat], **message["table"]}
                message["type"] = "state"
            if message["type"] == "state":
                self.seen[seat] = message["version"]
                self.views[seat] = message["table"]
                if message["version"] > newer_than:
                    return message
            elif message["type"] == "error":
                phase.errors += 1
                phase.refusals.append(message)

    async def play(self, phase: Phase, until: float, think: tuple[float, float] | None) -> None:
        """Play games at this table (and new ones) until ``until`` (a ``time.monotonic()``)."""
        state = self.current or await self.welcome(phase)
        while time.monotonic() < until:
            game = state["table"]["game"]
            if game is None or game["finished"]:
                await self.leave()
                if think is not None:  # a player takes a moment to start the next game too
                    await asyncio.sleep(self.rng.uniform(*think))
                await self.sit()
                state = await self.welcome(phase)
                continue
            if think is not None:
                await asyncio.sleep(self.rng.uniform(*think))
            start = time.perf_counter()
            state = await self.move(state, phase)
            phase.latencies.append((time.perf_counter() - start) * 1000)
            phase.moves += 1

    async def move(self, state: dict[str, Any], phase: Phase) -> dict[str, Any]:
        """The next move of the game in ``state`` (whoever's turn it is): the state that both
        sockets then see."""
        game = state["table"]["game"]
        seat = game["current"]
        message = {"type": "action", "version": state["version"], "token": self.tokens[seat]}
        message["action"] = first_move(game)
        self.sockets[seat].send(message)
        state = await self.state(seat, state["version"], phase)
        for other in self.sockets:  # the other socket must see the same version
            if other != seat:
                await self.state(other, state["version"] - 1, phase)
        self.current = state
        return state

    async def advance(self, moves: int, phase: Phase) -> int:
        """Play up to ``moves`` moves of this table's game with no thought and unmeasured (it
        stops where the game ends): how many were played."""
        state = self.current or await self.welcome(phase)
        played = 0
        while played < moves:
            game = state["table"]["game"]
            if game is None or game["finished"]:
                break
            state = await self.move(state, phase)
            played += 1
        return played


async def stagger(pairs: list[Pair], rng: random.Random) -> None:
    """Bring each table to a point of its game drawn evenly (as a crowd's tables are): one table
    plays a whole game to count its moves, and the others play a random number of them.

    Tables that all start together at human pace end together too (a game's length varies
    little), and would all sit down to a new game within seconds of each other."""
    setup = Phase()
    probe = Pair(pairs[0].base, pairs[0].http, random.Random(0))
    await probe.sit()
    length = await probe.advance(10_000, setup)
    await probe.leave()
    for k in range(0, len(pairs), 50):
        batch = pairs[k : k + 50]
        await asyncio.gather(*(pair.advance(rng.randrange(length), setup) for pair in batch))
    if setup.errors:
        raise SystemExit(f"the tables could not be brought to their points: {setup.refusals[:3]}")


async def run_phase(
    pairs: list[Pair], seconds: float, think: tuple[float, float] | None
) -> tuple[Phase, float]:
    phase = Phase()
    until = time.monotonic() + seconds
    start = time.monotonic()
    results = await asyncio.gather(
        *(pair.play(phase, until, think) for pair in pairs), return_exceptions=True
    )
    for result in results:
        if isinstance(result, BaseException):
            phase.errors += 1
            phase.failures[failure(result)] += 1
    return phase, time.monotonic() - start


def failure(error: BaseException) -> str:
    """What stopped a table's play, as the report counts it: an HTTP refusal with its status and code."""
    if isinstance(error, httpx.HTTPStatusError):
        try:
            code = error.response.json().get("code", "")
        except ValueError:
            code = error.response.text[:60]
        return f"HTTP {error.response.status_code} {code}".rstrip()
    return type(error).__name__


async def consistent(base: str, pairs: list[Pair]) -> tuple[int, int]:
    """(tables checked, tables whose stored version differs from what their sockets last saw)."""
    bad = 0
    checked = 0
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for pair in pairs:
            await pair.leave()
            for table_id, version in pair.tables[-3:]:
                stored = (await http.get(f"/api/tables/{table_id}")).json()["version"]
                checked += 1
                bad += stored != version
    return checked, bad


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def machine_cpu_seconds() -> tuple[float, float]:
    """(busy, all) CPU seconds of the whole machine since it started, summed over its cores
    (``/proc/stat``): what the server, the generator and everything else (the database,
    Redis, the kernel's own threads) took together."""
    fields = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    tick = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + fields[4]  # idle and waiting for I/O
    return (sum(fields) - idle) / tick, sum(fields) / tick


def tree_cpu_seconds(root: int) -> float:
    """CPU seconds (user + system) of process ``root`` and its living descendants, from ``/proc``:
    the server's own work, whatever else the machine is doing."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    tree = {root}
    grew = True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        grew = bool(more)
        tree |= more
    return sum(times.get(pid, 0.0) for pid in tree)


async def load(
    base: str, server: int, players: int, seconds: float, saturation: float, staggered: bool
) -> dict[str, Any]:
    rng = random.Random(1)
    results: dict[str, Any] = {}
    # httpcore looks for sniffio at each request, and an import that failed is looked for again
    # in the file system each time: say once that it is not there
    sys.modules.setdefault("sniffio", None)  # type: ignore[arg-type]
    # a client of its own for each table: httpx's pool looks through all its connections and
    # waiting requests for each request, which a pool shared by hundreds of tables makes costly.
    # An idle connection is given up before the server's keep-alive of 5 s ends it: a request sent
    # just as the server closes it would fail, to be sent again (Pair.post)
    limits = httpx.Limits(max_connections=1, keepalive_expiry=4.0)
    async with contextlib.AsyncExitStack() as clients:
        pairs = []
        for _ in range(players // 2):
            http = await clients.enter_async_context(
                httpx.AsyncClient(base_url=base, timeout=60, limits=limits)
            )
            pairs.append(Pair(base, http, random.Random(rng.random())))
        for k in range(0, len(pairs), 50):
            await asyncio.gather(*(pair.sit() for pair in pairs[k : k + 50]))
        if staggered:
            await stagger(pairs, rng)
        # the generator's garbage is the messages it parsed, freed by reference counting as the
        # next come: the cycle collector found none of it, yet scanned it all (young collections
        # on a clock took a quarter of the generator's CPU, taken from the server it measures,
        # and by count they held every reply under way). It is off while a phase runs.
        gc.collect()
        gc.freeze()
        gc.disable()
        try:
            for name, length, think in (("human", seconds, (0.5, 1.5)), ("saturation", saturation, None)):
                cpu, served, (busy, every) = cpu_seconds(), tree_cpu_seconds(server), machine_cpu_seconds()
                print(f"phase {name}: {length:g} s from now", file=sys.stderr, flush=True)
                phase, wall = await run_phase(pairs, length, think)
                share = (cpu_seconds() - cpu) / wall / CORES
                now_busy, now_every = machine_cpu_seconds()
                machine = (now_busy - busy) / (now_every - every) if now_every > every else 0.0
                results[name] = (phase, wall, share, tree_cpu_seconds(server) - served, machine)
                gc.collect()  # what cycles there were (a lost socket's traceback), between phases
        finally:
            gc.enable()
        results["consistency"] = await consistent(base, pairs)
    return results


def report(workers: int, results: dict[str, Any]) -> None:
    checked, bad = results["consistency"]
    for name in ("human", "saturation"):
        phase, wall, share, served, machine = results[name]
        times = phase.latencies or [0.0]
        per_move = served / phase.moves * 1000 if phase.moves else 0.0
        server_share = served / wall / CORES
        print(
            f"workers={workers} {name:10}: moves {phase.moves}, {phase.moves / wall:.0f}/s, "
            f"p50 {statistics.median(times):.1f} ms, p99 {percentile(times, 0.99):.1f} ms, "
            f"errors {phase.errors}; server CPU {per_move:.2f} ms a move; "
            f"load generator CPU {share:.0%} of the machine"
        )
        # at saturation the workers get what the others leave of the cores: every move also
        # costs the generator, the database, Redis and the kernel their share
        print(
            f"workers={workers} {name:10}: machine {machine:.0%} busy: server {server_share:.0%}, "
            f"load generator {share:.0%}, the rest {max(0.0, machine - server_share - share):.0%} "
            f"(database, Redis, kernel) of {CORES} cores"
        )
    print(f"workers={workers} consistency: {checked - bad} of {checked} tables as their sockets saw them")
    for name in ("human", "saturation"):
        phase = results[name][0]
        codes = Counter(r.get("code") for r in phase.refusals)
        if codes or phase.failures:
            print(f"workers={workers} {name:10}: refusals {dict(codes)}, failures {dict(phase.failures)}")


def fresh_database(url: str) -> tuple[str, str]:
    """A new PostgreSQL database beside ``url``'s: (its URL, its name)."""
    import psycopg
    from sqlalchemy.engine import make_url

    base = make_url(url)
    name = f"kosti_load_{secrets.token_hex(4)}"
    admin = base.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return base.set(drivername="postgresql+psycopg", database=name).render_as_string(
        hide_password=False
    ), name


def drop_database(url: str, name: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    admin = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the human-pace phase")
    parser.add_argument("--saturation", type=float, default=20.0, help="length of the no-thought phase")
    parser.add_argument("--database", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument(
        "--stagger",
        action="store_true",
        help="bring each table to an evenly drawn point of its game first (not all starting at once)",
    )
    parser.add_argument(
        "--workers",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[1, 2],
        help="the worker counts to run, in order (default 1,2: the last line compares them)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="run the worker counts this many times in turn; the last line gives the rounds' medians",
    )
    args = parser.parse_args()
    if not 1 <= args.rounds <= 20:
        raise SystemExit("--rounds lies in 1..20")
    if not all(1 <= n <= 8 for n in args.workers):
        raise SystemExit("--workers lists counts from 1 to 8, such as 1,2")
    if not 2 <= args.players <= 5000 or not 0 < args.seconds <= 600 or not 0 < args.saturation <= 600:
        raise SystemExit("--players lies in 2..5000, --seconds and --saturation in (0, 600]")
    saturations: list[dict[int, float]] = []
    p99s: list[dict[int, float]] = []
    for round_ in range(args.rounds):
        if args.rounds > 1:
            print(f"round {round_ + 1} of {args.rounds}", flush=True)
        saturation: dict[int, float] = {}
        p99: dict[int, float] = {}
        for workers in args.workers:
            results = run_workers(args, workers)
            report(workers, results)
            phase, wall, *_ = results["saturation"]
            saturation[workers] = phase.moves / wall
            human = results["human"][0].latencies or [0.0]
            p99[workers] = percentile(human, 0.99)
        saturations.append(saturation)
        p99s.append(p99)
    if set(args.workers) != {1, 2}:
        return
    # each round's ratio compares runs made minutes apart: a shared machine's speed drifts more
    # between rounds than within one, so the rounds' median is what the last line gives
    ratios = [s[2] / s[1] if s[1] else 0.0 for s in saturations]
    if args.rounds > 1:
        listed = ", ".join(f"{r:.2f}×" for r in ratios)
        latencies = ", ".join(f"{p[2]:.1f}" for p in p99s)
        print(f"rounds: workers=2 p99 {latencies} ms; saturation 2 vs 1 workers {listed} (medians below)")
    ratio = statistics.median(ratios)
    middle = statistics.median(p[2] for p in p99s)
    print(f"load: workers=2 p99={middle:.1f} ms, saturation 2 vs 1 workers = {ratio:.2f}×")


def run_workers(args: argparse.Namespace, workers: int) -> dict[str, Any]:
    """Both phases on a new ``kosti serve --workers workers`` with a fresh database."""
    database, name = fresh_database(args.database)
    port = free_port()
    extra = ["--workers", str(workers), "--redis", args.redis, "--no-http-limits", "--bot-delay", "0"]
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(database, port, Path(folder) / "serve.log", extra)
        try:
            # the event loop the server runs on too (uvicorn's): the generator's own share of
            # the two cores is what the server does not get
            return uvloop.run(
                load(
                    f"http://127.0.0.1:{port}",
                    server.pid,
                    args.players,
                    args.seconds,
                    args.saturation,
                    args.stagger,
                )
            )
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
            drop_database(args.database, name)


if __name__ == "__main__":
    main()
