"""N worker processes behind one listening address, each table's connections at its home worker.

The parent process listens. It reads (without taking) the request line of each new
connection and hands the connection itself, its file descriptor sent over a Unix
socket pair, to one worker process, which serves it with uvicorn as if it had
accepted it:

* a connection whose first request names a table (``/ws/<id>``, ``/api/tables/<id>/…``,
  the invite ``/t/<id>``) goes to that table's *home* worker, :func:`home` of its id;
* any other (the page, a new table, the lobby) goes to the workers in turn, and a
  table made there gets an id whose home is that worker (:func:`homed_id`).

So a table's sockets, and most often all its requests, meet in one process, which
plans, applies and shows each move once. Nothing depends on it: any worker still
serves any connection (a kept-alive connection carries requests for other tables,
and the connections of a worker that died go to the next one alive), with the log
in PostgreSQL and the commits heard over Redis (:mod:`kosti.server.bus`). Without a
home, the two players of a table sat at different workers every other time, and both
processes applied every move, showed it and heard it through Redis.

A connection has :attr:`~kosti.server.settings.ServerSettings.header_timeout` seconds from
when the parent accepted it to send its request line and headers: the parent closes one
whose request line has not come by then, and tells the worker how long it waited for the
others, whose protocol closes those whose headers are not all in once the rest of that time
is spent there (:mod:`kosti.server.headers`). The time a connection waits for a worker that is
starting is not counted: it is not the client's.

A worker that dies is started again; the parent stops them all when it is stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import math
import os
import re
import secrets
import signal
import socket
import struct
import subprocess
import sys
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

log = logging.getLogger("uvicorn.error")

WORKER_VARIABLE = "KOSTI_WORKER"
"""How a worker learns its place: ``index/count/fd`` (``fd``: its end of the socket pair)."""
UVICORN_VARIABLE = "KOSTI_UVICORN"
"""The uvicorn options the workers are started with (JSON)."""

PEEK = 2048
"""Bytes of a new connection read to find its request line."""
HEAD_WITHIN = 5.0
"""Seconds a new connection has to send its request line, at most (less when the header timeout is
less); one that has not by then goes to the next worker in turn, which closes it once the header
timeout is spent (at once, if it is spent already)."""
PEEK_AGAIN = 0.005
"""Seconds before looking again at a request line that came in pieces."""
ACCEPT_BATCH = 64
"""Connections accepted at most before the parent's loop does anything else."""
HAND_WITHIN = 2.0
"""Seconds the parent waits for a worker to take a connection before trying the next."""
WATCH_EVERY = 0.5
"""Seconds between the parent's looks at its workers."""
RESTART_PAUSE = 1.0
"""Seconds at least between two starts of the same worker (one that dies at once is not spun)."""
STOP_WITHIN = 30.0
"""Seconds the workers have to finish, once stopped, before they are killed."""
READY = b"ready"
"""What a worker says over its socket pair once it serves the connections handed to it."""
HANDED = b"c"
"""What goes with a connection handed to a worker, followed by the seconds the parent waited for
its request line (a big-endian double)."""

_TABLE_PATH = re.compile(rb"/(?:ws|t|api/tables)/([A-Za-z0-9_-]{1,32})(?:[/?]|$)")


def home(table_id: str, workers: int) -> int:
    """The worker (of ``workers``) whose table ``table_id`` is: the same in every process and run."""
    return zlib.crc32(table_id.encode()) % workers


def homed_id(worker: int, workers: int, draw: Callable[[], str] | None = None) -> str:
    """A new table id whose :func:`home` is ``worker``: drawn (``draw``, by default 9 random bytes
    in URL-safe base64) until it is, ``workers`` draws on average."""
    if not 0 <= worker < workers:
        raise ValueError(f"worker {worker} is not one of {workers}")
    make = draw or (lambda: secrets.token_urlsafe(9))
    while True:
        table_id = make()
        if home(table_id, workers) == worker:
            return table_id


def table_in(head: bytes) -> str | None:
    """The table named by the request line at the start of ``head`` (``GET /ws/<id>?…``,
    ``POST /api/tables/<id>/join``, ``GET /t/<id>``), if it names one."""
    line = head.split(b"\r\n", 1)[0]
    parts = line.split(b" ")
    if len(parts) != 3 or not parts[2].startswith(b"HTTP/"):
        return None
    found = _TABLE_PATH.match(parts[1])
    return found.group(1).decode("ascii") if found else None


class Process(Protocol):
    """What the parent needs of a worker process (:class:`subprocess.Popen`)."""

    pid: int

    def poll(self) -> int | None: ...

    def terminate(self) -> None: ...

    def kill(self) -> None: ...

    def wait(self, timeout: float | None = None) -> int: ...


Spawn = Callable[[int, int, socket.socket], Process]
"""Starts worker ``index`` of ``count`` with its end of the socket pair."""


@dataclass
class Worker:
    """One worker process as the parent sees it."""

    index: int
    process: Process | None = None
    channel: socket.socket | None = None
    """The parent's end of the socket pair the connections are handed over."""
    started: float = field(default=-RESTART_PAUSE)
    ready: bool = False
    """Whether it has said it serves what it is handed (a worker takes seconds to start)."""

    def alive(self) -> bool:
        return self.process is not None and self.channel is not None and self.process.poll() is None


class Dispatcher:
    """The parent: accepts on ``listener`` and hands each connection to a worker (:func:`home`)."""

    def __init__(
        self, listener: socket.socket, count: int, spawn: Spawn, header_timeout: float = math.inf
    ) -> None:
        """``header_timeout``: seconds a connection has for its request line and headers, from when
        it is accepted here."""
        if count < 1:
            raise ValueError("at least one worker")
        self.listener = listener
        self.spawn = spawn
        self.header_timeout = header_timeout
        self.workers = [Worker(k) for k in range(count)]
        self._turn = 0
        self._waiting: dict[int, tuple[socket.socket, asyncio.TimerHandle, float]] = {}
        """Connections whose request line has not come yet, by file descriptor, with their deadline
        and when they were accepted."""

    def start_worker(self, index: int) -> None:
        """Start worker ``index`` (again), with a new socket pair."""
        worker = self.workers[index]
        parent_end, child_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            worker.process = self.spawn(index, len(self.workers), child_end)
        except BaseException:
            parent_end.close()
            raise
        finally:
            child_end.close()
        parent_end.settimeout(HAND_WITHIN)
        self._close_channel(worker)
        worker.channel = parent_end
        worker.started = time.monotonic()
        worker.ready = False
        asyncio.get_running_loop().add_reader(parent_end.fileno(), self._heard, worker, parent_end)

    def _heard(self, worker: Worker, channel: socket.socket) -> None:
        """A worker said it is ready (or its end of the pair closed: the watch sees it has died)."""
        try:
            said = channel.recv(16, socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            said = b""
        if said == READY and worker.channel is channel:
            worker.ready = True
        elif not said:
            asyncio.get_running_loop().remove_reader(channel.fileno())

    def _close_channel(self, worker: Worker) -> None:
        if worker.channel is not None:
            asyncio.get_running_loop().remove_reader(worker.channel.fileno())
            worker.channel.close()
            worker.channel = None
        worker.ready = False

    async def run(self, stop: asyncio.Event) -> None:
        """Start the workers and hand them connections until ``stop`` is set; then stop them."""
        loop = asyncio.get_running_loop()
        for worker in self.workers:
            self.start_worker(worker.index)
        self.listener.setblocking(False)
        loop.add_reader(self.listener.fileno(), self._accept)
        try:
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), WATCH_EVERY)
                self.watch()
        finally:
            loop.remove_reader(self.listener.fileno())
            for connection, timer, _ in self._waiting.values():
                timer.cancel()
                loop.remove_reader(connection.fileno())
                connection.close()
            self._waiting.clear()
            await asyncio.to_thread(self.stop_workers)
            for worker in self.workers:
                self._close_channel(worker)

    def watch(self) -> None:
        """Start again each worker that has died (not more often than :data:`RESTART_PAUSE`)."""
        for worker in self.workers:
            if worker.process is None or worker.process.poll() is None:
                continue
            if worker.channel is not None:
                log.warning(
                    "worker %d (process %d) exited with %s; starting another",
                    worker.index,
                    worker.process.pid,
                    worker.process.poll(),
                )
                self._close_channel(worker)
            if time.monotonic() - worker.started >= RESTART_PAUSE:
                self.start_worker(worker.index)

    def stop_workers(self) -> None:
        """Ask every worker to finish (SIGTERM: uvicorn's graceful shutdown); kill those still there
        after :data:`STOP_WITHIN` seconds."""
        running = [w.process for w in self.workers if w.process is not None and w.process.poll() is None]
        for process in running:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
        deadline = time.monotonic() + STOP_WITHIN
        for process in running:
            try:
                process.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    # -- connections ---------------------------------------------------------

    def _accept(self) -> None:
        for _ in range(ACCEPT_BATCH):
            try:
                connection, _ = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # out of descriptors, say: the next look may do better
                log.warning("could not accept a connection", exc_info=True)
                return
            connection.setblocking(False)
            if connection.family in (socket.AF_INET, socket.AF_INET6):
                connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            accepted = time.monotonic()
            self._peek(connection, accepted + min(HEAD_WITHIN, self.header_timeout), accepted)

    def _peek(self, connection: socket.socket, deadline: float, accepted: float) -> None:
        """Hand ``connection`` over once its request line is in (read, not taken: the worker reads it)."""
        loop = asyncio.get_running_loop()
        try:
            head = connection.recv(PEEK, socket.MSG_PEEK)
        except (BlockingIOError, InterruptedError):
            fd = connection.fileno()
            timer = loop.call_at(_loop_time(loop, deadline), self._expire, fd)
            self._waiting[fd] = (connection, timer, accepted)
            loop.add_reader(fd, self._readable, fd, deadline)
            return
        except OSError:
            connection.close()
            return
        if not head:  # closed before a word
            connection.close()
            return
        if b"\r\n" not in head and len(head) < PEEK:
            if time.monotonic() - accepted >= self.header_timeout:
                connection.close()  # a request line trickled in for the whole header timeout
                return
            if time.monotonic() < deadline:
                # a request line that came in pieces: readable already, so look again shortly
                loop.call_later(PEEK_AGAIN, self._peek, connection, deadline, accepted)
                return
        self.hand(connection, table_in(head), time.monotonic() - accepted)

    def _readable(self, fd: int, deadline: float) -> None:
        connection, timer, accepted = self._waiting.pop(fd)
        timer.cancel()
        asyncio.get_running_loop().remove_reader(fd)
        self._peek(connection, deadline, accepted)

    def _expire(self, fd: int) -> None:
        connection, _, accepted = self._waiting.pop(fd)
        asyncio.get_running_loop().remove_reader(fd)
        if time.monotonic() - accepted >= self.header_timeout:
            connection.close()  # silent for the whole header timeout
            return
        self.hand(connection, None, time.monotonic() - accepted)

    def hand(self, connection: socket.socket, table_id: str | None, spent: float | None = None) -> int | None:
        """Hand ``connection`` to ``table_id``'s home worker (or the next one in turn), or to the
        next one ready if that one is not (dead, or starting again), or if none is, to the first
        one running: the worker it went to (``None``: none took it, and it is closed). The
        parent's copy is closed either way. The worker is told the seconds ``spent`` here
        waiting for the request line, if known: its header timeout counts them."""
        count = len(self.workers)
        if table_id is not None:
            first = home(table_id, count)
        else:
            first = self._turn
            self._turn = (self._turn + 1) % count
        order = [self.workers[(first + step) % count] for step in range(count)]
        running = [worker for worker in order if worker.alive()]
        message = HANDED if spent is None else HANDED + struct.pack("!d", spent)
        try:
            for worker in [w for w in running if w.ready] or running:
                if worker.channel is None:
                    continue
                try:
                    socket.send_fds(worker.channel, [message], [connection.fileno()])
                except OSError:  # gone or stuck: the watch starts it again
                    log.warning("worker %d did not take a connection", worker.index, exc_info=True)
                    continue
                return worker.index
            log.warning("no worker could take a connection; closing it")
            return None
        finally:
            connection.close()


def _loop_time(loop: asyncio.AbstractEventLoop, deadline: float) -> float:
    """``deadline`` (a ``time.monotonic()``) on the loop's clock."""
    return loop.time() + (deadline - time.monotonic())


# -- the processes -----------------------------------------------------------


def spawn_worker(index: int, count: int, channel: socket.socket) -> subprocess.Popen[bytes]:
    """Worker ``index`` of ``count`` as a new Python process (:func:`worker_main`), handed ``channel``;
    it reads the server's settings and uvicorn's options from the environment."""
    env = dict(os.environ)
    env[WORKER_VARIABLE] = f"{index}/{count}/{channel.fileno()}"
    command = [sys.executable, "-c", "from kosti.server.dispatch import worker_main; worker_main()"]
    return subprocess.Popen(command, env=env, pass_fds=[channel.fileno()])


def serve_workers(options: dict[str, Any], workers: int, header_timeout: float = math.inf) -> None:
    """Listen where ``options`` (uvicorn's) say and run ``workers`` workers until stopped (SIGINT,
    SIGTERM); a connection has ``header_timeout`` seconds for its request line and headers."""
    import uvicorn

    config = uvicorn.Config("kosti.server.run:worker_app", factory=True, **options)
    listener = config.bind_socket()
    listener.listen(config.backlog)
    os.environ[UVICORN_VARIABLE] = json.dumps(options)
    dispatcher = Dispatcher(listener, workers, spawn_worker, header_timeout)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        log.info("Started parent process [%d] handing connections to %d workers", os.getpid(), workers)
        await dispatcher.run(stop)

    with asyncio.Runner(loop_factory=config.get_loop_factory()) as runner:
        runner.run(main())
    listener.close()


def worker_main() -> None:
    """A worker process: the app served by uvicorn on the connections the parent hands over."""
    import uvicorn

    from kosti.server.headers import protocol
    from kosti.server.run import worker_app

    index, count, fd = (int(part) for part in os.environ[WORKER_VARIABLE].split("/"))
    options = json.loads(os.environ[UVICORN_VARIABLE])
    channel = socket.socket(fileno=fd)
    app = worker_app(index, count)
    config = uvicorn.Config(app, http=protocol(app.state.settings.header_timeout), **options)
    server = uvicorn.Server(config)
    with asyncio.Runner(loop_factory=config.get_loop_factory()) as runner:
        runner.run(_serve_handed(server, channel))


async def _serve_handed(server: Any, channel: socket.socket) -> None:
    """``server`` (uvicorn's) with no socket of its own, serving what comes over ``channel``."""
    taking = asyncio.create_task(_take(server, channel))
    try:
        await server.serve(sockets=[])
    finally:
        taking.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await taking
        channel.close()


async def _take(server: Any, channel: socket.socket) -> None:
    """Serve each connection handed over ``channel`` once ``server`` has started; when the parent is
    gone (the channel closed), ask the server to finish."""
    while not server.started:
        if server.should_exit:
            return
        await asyncio.sleep(0.01)
    from kosti.server.headers import HeaderClock

    loop = asyncio.get_running_loop()
    config = server.config

    def protocol(spent: float | None) -> asyncio.Protocol:
        # as uvicorn makes one for each connection it accepts itself
        made: asyncio.Protocol = config.http_protocol_class(
            config=config, server_state=server.server_state, app_state=server.lifespan.state, _loop=loop
        )
        if spent is not None and isinstance(made, HeaderClock):  # the time the parent waited counts
            made.headers_due(time.monotonic() + made.header_timeout - spent)
        return made

    opening: set[asyncio.Task[Any]] = set()
    gone = loop.create_future()

    def readable() -> None:
        while True:
            try:
                message, fds, _, _ = socket.recv_fds(channel, 16, 16)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                message, fds = b"", []
            if not message and not fds:
                loop.remove_reader(channel.fileno())
                if not gone.done():
                    gone.set_result(None)
                return
            spent = _spent(message)
            for fd in fds:
                connection = socket.socket(fileno=fd)
                connection.setblocking(False)
                task = loop.create_task(_open(loop, functools.partial(protocol, spent), connection))
                opening.add(task)
                task.add_done_callback(opening.discard)

    channel.setblocking(False)
    loop.add_reader(channel.fileno(), readable)
    with contextlib.suppress(OSError):  # the parent is gone: the reader hears it
        channel.send(READY)
    try:
        await gone
    finally:
        with contextlib.suppress(Exception):
            loop.remove_reader(channel.fileno())
    log.warning("the parent process is gone; finishing")
    server.should_exit = True


def _spent(message: bytes) -> float | None:
    """The seconds the parent waited for the request line of the connection handed with ``message``
    (:data:`HANDED`), if it says."""
    size = len(HANDED) + struct.calcsize("!d")
    if len(message) != size or not message.startswith(HANDED):
        return None
    spent: float = struct.unpack("!d", message[len(HANDED) :])[0]
    return spent


async def _open(
    loop: asyncio.AbstractEventLoop, protocol: Callable[[], asyncio.Protocol], connection: socket.socket
) -> None:
    try:
        await loop.connect_accepted_socket(protocol, connection)
    except OSError:  # the client left meanwhile
        connection.close()
