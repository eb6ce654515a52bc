"""How the worker processes of one server hear of each other's commits, and who drives a table.

One process (the default) needs nothing: :class:`LocalBus` publishes to nobody and
owns every table. Several processes share a Redis (:class:`RedisBus`):

* after a process commits version *v* of a table to the database it publishes the
  events of *v* on the channel ``kosti:table:<id>``; every process holding that
  table applies them in version order and shows them to its own sockets (a process
  that sees a gap reads what it missed from the log: the database, not Redis, is
  the record). The ``change`` messages the committing process sent its sockets go
  with them, so that the others need not make them again;
* a process listens only to the tables it holds in memory (:meth:`RedisBus.follow`),
  from before it reads their log: a commit is then either in what it read or in what
  it hears;
* the bots and turn timers of a table are driven by the process holding its lease
  (``kosti:owner:<id>``, renewed while it acts). A process that dies stops renewing,
  and another takes the lease over after :attr:`~kosti.server.settings.ServerSettings.lease`
  seconds. Even two owners could not act twice: the database's unique (table, version)
  key lets only one of them write a version;
* a table whose bots are playing is listed in the set ``kosti:driven`` while they do:
  a table nobody watches (bots alone) is then not forgotten when the process driving
  it dies, for another process finds it there with its lease lapsed and takes it on;
* what is shown to a table's sockets and kept nowhere (a player's quick phrase,
  :mod:`kosti.server.emotes`) is published on the table's channel too, as ``{"shout":
  message}``, in order with its commits: every process holding the table sends it to its
  sockets as it is (:meth:`Bus.shout`). Missed, it is gone: nothing reads it again.

Redis that cannot be reached is logged once, in one line, when the first call fails, and
once more when a call succeeds again ("Redis is back after N s"), with the count of each
kind of call that failed meanwhile (:class:`Outage`); the tracebacks go to the debug log.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from kosti.server import wire
from kosti.server.events import StoredEvent

log = logging.getLogger(__name__)

Changes = dict[str, tuple[int, str]]
"""The ``change`` message its process sent after a commit, by language: (the version it is
reckoned from, its text)."""

Published = Callable[[str, int, list[StoredEvent], Changes], Coroutine[Any, Any, None]]
"""Called with (table id, version before the events, events, the changes shown after them) for
another process's commit."""

Reconnected = Callable[[], Awaitable[None]]
"""Called when the bus was cut off and is back: messages may have been missed meanwhile."""

Shouted = Callable[[str, dict[str, Any]], Coroutine[Any, Any, None]]
"""Called with (table id, message) for a message another process showed the table's sockets and
kept nowhere (:meth:`Bus.shout`)."""

CHANNEL = "kosti:table:"
WORKER = "kosti:worker:"
"""A channel of each process's own, so that its listener is subscribed before it holds any table."""
CONFIRM_WITHIN = 5.0
"""Seconds a subscription waits for Redis to confirm it (the log is read all the same)."""
CLOSE_WITHIN = 2.0
"""Seconds a closing process waits for the commits it has yet to publish."""
PUBLISH_BATCH = 256
"""Commits one round trip to Redis publishes at most."""
REDIS_CONNECTIONS = 64
"""Connections to Redis one process keeps at most (the listener's own besides)."""
OWNER = "kosti:owner:"
DRIVEN = "kosti:driven"
RECONNECT_PAUSE = 0.5
"""Seconds between the listener's tries to connect to Redis again."""

# take the lease when free, or renew it when it is ours; 1 when the caller holds it
_CLAIM = """
local owner = redis.call('GET', KEYS[1])
if owner == false or owner == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""


class Bus(Protocol):
    """What the hub needs from the other processes."""

    async def start(
        self, published: Published, reconnected: Reconnected, shouted: Shouted | None = None
    ) -> None: ...

    async def publish(self, table_id: str, version: int, events: list[StoredEvent], changes: Changes) -> None:
        """Tell the other processes that ``events`` follow ``version`` at ``table_id`` (committed),
        and the ``changes`` shown after them."""

    async def shout(self, table_id: str, message: dict[str, Any]) -> None:
        """Tell the other processes holding ``table_id`` to send ``message`` to its sockets there
        (a quick phrase: shown once, stored nowhere, not sent again to whoever missed it)."""

    async def follow(self, table_id: str) -> None:
        """Hear the commits of ``table_id`` from now on (called before its log is read)."""

    def unfollow(self, table_id: str) -> None:
        """No longer hear the commits of ``table_id`` (forgotten here), unless it is followed again
        before Redis is told."""

    async def claim(self, table_id: str) -> bool:
        """Whether this process may drive the bots and timers of ``table_id`` now."""

    async def drive(self, table_id: str, driving: bool) -> None:
        """List ``table_id`` among the tables whose bots are playing (or no longer)."""

    async def orphans(self) -> list[str]:
        """The listed tables whose bots nobody drives now (their driver's lease has lapsed)."""

    async def close(self) -> None: ...


class LocalBus:
    """A server of one process: nobody to tell, and every table is its own."""

    async def start(
        self, published: Published, reconnected: Reconnected, shouted: Shouted | None = None
    ) -> None:
        return None

    async def publish(self, table_id: str, version: int, events: list[StoredEvent], changes: Changes) -> None:
        return None

    async def shout(self, table_id: str, message: dict[str, Any]) -> None:
        return None

    async def follow(self, table_id: str) -> None:
        return None

    def unfollow(self, table_id: str) -> None:
        return None

    async def claim(self, table_id: str) -> bool:
        return True

    async def drive(self, table_id: str, driving: bool) -> None:
        return None

    async def orphans(self) -> list[str]:
        return []

    async def close(self) -> None:
        return None


class Outage:
    """Whether Redis is unreachable, since when, and what failed meanwhile: one line in the log
    when it goes (:meth:`failed`, the first time), one when it is back (:meth:`ok`), however many
    calls fail between them."""

    def __init__(self) -> None:
        self.since: float | None = None
        """When the first call failed (``time.monotonic()``); ``None``: Redis answers."""
        self.failed_calls: collections.Counter[str] = collections.Counter()
        """How many of each kind of call failed since then."""

    def failed(self, what: str, error: BaseException, count: int = 1) -> None:
        """``count`` calls of kind ``what`` (a plural noun: "claims") failed with ``error``."""
        self.failed_calls[what] += count
        if self.since is None:
            self.since = time.monotonic()
            reason = " ".join(str(error).split())[:200] or type(error).__name__
            log.warning("Redis is unreachable (%s: %s); going on without it until it is back", what, reason)
        log.debug("Redis: %s failed", what, exc_info=error)

    def ok(self) -> None:
        """A call succeeded: if Redis was unreachable, say that it is back, after how long, and what
        failed meanwhile."""
        if self.since is None:
            return
        seconds = time.monotonic() - self.since
        failed = ", ".join(f"{count} {what}" for what, count in self.failed_calls.most_common())
        log.warning("Redis is back after %.1f s (failed meanwhile: %s)", seconds, failed)
        self.since = None
        self.failed_calls.clear()


class RedisBus:
    """Worker processes sharing one Redis: pub/sub for commits, a lease per table for its bots."""

    def __init__(self, url: str, lease: float) -> None:
        from redis import asyncio as aioredis

        # a blocking pool: a burst of commits waits for a connection instead of failing to publish
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=REDIS_CONNECTIONS, timeout=30, decode_responses=True
        )
        self.redis = aioredis.Redis(connection_pool=pool)
        self.lease_ms = max(1, round(lease * 1000))
        self.me = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._claim = self.redis.register_script(_CLAIM)
        self._listener: asyncio.Task[None] | None = None
        self._applying: set[asyncio.Task[Any]] = set()
        self._pubsub: Any = None
        """The listener's subscriptions while it is connected."""
        self._wanted: set[str] = set()
        """The tables followed."""
        self._subscribed: set[str] = set()
        """The tables the listener's connection has been told to subscribe to."""
        self._subscribing = asyncio.Lock()
        """Subscriptions are changed one at a time, so that Redis is told them in the order decided."""
        self._confirms: dict[str, collections.deque[asyncio.Future[None]]] = {}
        """Per channel, the subscriptions sent and not yet confirmed, in the order sent."""
        self.outage = Outage()
        self.publisher = Publisher(self.redis, self.outage)
        self._shouted: Shouted | None = None
        """Told of the other processes' shouts (:meth:`shout`); ``None``: they are passed over."""

    async def start(
        self, published: Published, reconnected: Reconnected, shouted: Shouted | None = None
    ) -> None:
        await self.redis.ping()  # a wrong URL fails the start, not the first move
        self._shouted = shouted
        ready = asyncio.Event()
        self._listener = asyncio.create_task(self._listen(published, reconnected, ready))
        await ready.wait()

    async def _listen(self, published: Published, reconnected: Reconnected, ready: asyncio.Event) -> None:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError

        first = True
        while True:
            try:
                async with self.redis.pubsub() as pubsub:
                    async with self._subscribing:
                        channels = [CHANNEL + table_id for table_id in sorted(self._wanted)]
                        for channel in channels:  # a follow meanwhile waits for its table's
                            self._confirms.setdefault(channel, collections.deque()).append(
                                asyncio.get_running_loop().create_future()
                            )
                        await pubsub.subscribe(WORKER + self.me, *channels)
                        self._subscribed = set(self._wanted)
                        self._pubsub = pubsub
                    self.outage.ok()
                    if first:
                        ready.set()
                        first = False
                    else:
                        await reconnected()
                    while True:
                        message = await pubsub.get_message(timeout=None)
                        if message is None:
                            continue
                        if message["type"] == "message":
                            self._deliver(message, published)
                        elif message["type"] == "subscribe":
                            self._confirmed(message["channel"])
            except asyncio.CancelledError:
                raise
            except (RedisConnectionError, RedisTimeoutError, OSError) as error:
                self.outage.failed("connections of the listener", error)
                ready.set()
                first = False
                self._pubsub = None
                self._subscribed = set()
                for waiting in self._confirms.values():  # reconnected() catches every table up
                    for future in waiting:
                        if not future.done():
                            future.set_result(None)
                self._confirms = {}
                await asyncio.sleep(RECONNECT_PAUSE)

    def _confirmed(self, channel: str) -> None:
        waiting = self._confirms.get(channel)
        if waiting:
            future = waiting.popleft()
            if not future.done():
                future.set_result(None)
            if not waiting:
                del self._confirms[channel]

    async def follow(self, table_id: str) -> None:
        self._wanted.add(table_id)
        confirmed = await self._settle(table_id)
        if confirmed is None:
            return  # reconnecting: the listener subscribes to it, then catches every table up
        try:
            await asyncio.wait_for(asyncio.shield(confirmed), CONFIRM_WITHIN)
        except TimeoutError:
            log.warning("Redis did not confirm the subscription to table %s", table_id)

    def unfollow(self, table_id: str) -> None:
        self._wanted.discard(table_id)  # now: a follow from here on wants it again
        task = asyncio.get_running_loop().create_task(self._settle(table_id))
        self._applying.add(task)
        task.add_done_callback(self._applied)

    async def _settle(self, table_id: str) -> asyncio.Future[None] | None:
        """Subscribe to ``table_id`` or unsubscribe from it, as wanted now: the subscription's
        confirmation to wait for (``None``: nothing to wait for)."""
        async with self._subscribing:
            wanted = table_id in self._wanted
            pubsub = self._pubsub
            channel = CHANNEL + table_id
            if pubsub is None or wanted == (table_id in self._subscribed):
                # subscribed already: but perhaps not yet confirmed
                waiting = self._confirms.get(channel)
                return waiting[-1] if wanted and waiting else None
            confirmed: asyncio.Future[None] | None = None
            try:
                if wanted:
                    confirmed = asyncio.get_running_loop().create_future()
                    self._confirms.setdefault(channel, collections.deque()).append(confirmed)
                    await pubsub.subscribe(channel)
                    self._subscribed.add(table_id)
                else:
                    self._subscribed.discard(table_id)
                    await pubsub.unsubscribe(channel)
            except Exception as error:  # the listener reconnects, subscribes to what is wanted, catches up
                self.outage.failed("subscriptions", error)
                return None
            return confirmed

    def _deliver(self, message: dict[str, Any], published: Published) -> None:
        try:
            # the sender comes first, on a line of its own: our own commits, applied already,
            # are passed over without reading the rest
            sender, _, body = message["data"].partition("\n")
            if sender == self.me:
                return
            data = wire.parse(body)
            table_id = message["channel"][len(CHANNEL) :]
            if "shout" in data:
                self._deliver_shout(table_id, data["shout"])
                return
            events = [(kind, payload) for kind, payload in data["events"]]
            changes = {str(lang): (int(since), str(text)) for lang, (since, text) in data["changes"].items()}
        except Exception:  # one bad message must not stop the others
            log.exception("could not read a published commit")
            return
        # applied in a task of its own: a table busy writing must not hold up the others'
        # messages (nor let Redis drop a subscriber that reads too slowly); the hub applies
        # each table's commits in version order, reading any it missed from the log
        applying = published(table_id, int(data["version"]), events, changes)
        task: asyncio.Task[None] = asyncio.create_task(applying)
        self._applying.add(task)
        task.add_done_callback(self._applied)

    def _deliver_shout(self, table_id: str, shouted: Any) -> None:
        if self._shouted is None or not isinstance(shouted, dict):
            return
        # in a task of its own, as a commit is: a slow socket must not hold up the listener
        task: asyncio.Task[None] = asyncio.create_task(self._shouted(table_id, shouted))
        self._applying.add(task)
        task.add_done_callback(self._applied)

    def _applied(self, task: asyncio.Task[Any]) -> None:
        self._applying.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("could not apply a published commit", exc_info=task.exception())

    async def publish(self, table_id: str, version: int, events: list[StoredEvent], changes: Changes) -> None:
        """Queued for the :class:`Publisher`, which sends what has gathered meanwhile in one round
        trip, in the order committed: the table's lock is not held for Redis."""
        message = {"version": version, "events": events, "changes": changes}
        self.publisher.put(table_id, f"{self.me}\n{wire.text(message)}")

    async def shout(self, table_id: str, message: dict[str, Any]) -> None:
        """Queued for the :class:`Publisher` after the commits before it, as a commit is."""
        self.publisher.put(table_id, f"{self.me}\n{wire.text({'shout': message})}")

    async def claim(self, table_id: str) -> bool:
        try:
            held = await self._claim(keys=[OWNER + table_id], args=[self.me, self.lease_ms])
        except Exception as error:
            self.outage.failed("claims of a table's bots", error)
            return False
        self.outage.ok()
        return bool(held)

    async def drive(self, table_id: str, driving: bool) -> None:
        try:
            if driving:
                await self.redis.sadd(DRIVEN, table_id)
            else:
                await self.redis.srem(DRIVEN, table_id)
        except Exception as error:  # the sweep of the next process to load the table sets it right
            self.outage.failed("listings of driven tables", error)
            return
        self.outage.ok()

    async def orphans(self) -> list[str]:
        try:
            listed = sorted(str(table_id) for table_id in await self.redis.smembers(DRIVEN))
            if not listed:
                self.outage.ok()
                return []
            owners = await self.redis.mget([OWNER + table_id for table_id in listed])
        except Exception as error:
            self.outage.failed("sweeps of driven tables", error)
            return []
        self.outage.ok()
        return [table_id for table_id, owner in zip(listed, owners, strict=True) if owner is None]

    async def close(self) -> None:
        await self.publisher.close()
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
        for task in list(self._applying):
            task.cancel()
        await self.redis.aclose()


class Publisher:
    """Publishes the commits of a process to Redis, in the order committed, on a connection of its
    own: as many in one round trip as have gathered while the last was under way."""

    def __init__(self, redis: Any, outage: Outage) -> None:
        self.redis = redis
        self.outage = outage
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        """Commits to publish: (table id, message)."""
        self._task: asyncio.Task[None] | None = None

    def put(self, table_id: str, payload: str) -> None:
        """Publish ``payload`` on the channel of ``table_id`` soon, after those put before it."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._publish())
        self._outbox.put_nowait((table_id, payload))

    async def _publish(self) -> None:
        """Send the outbox's commits to Redis, as many at once as have gathered.

        The commands are packed and sent, and their replies read, on the connection itself:
        redis-py's pipeline around the same round trip cost 0.3–0.4 ms of CPU, three times the
        round trip alone, and at human pace most commits go out alone."""
        connection: Any = None
        try:
            while True:
                batch = [await self._outbox.get()]
                while len(batch) < PUBLISH_BATCH and not self._outbox.empty():
                    batch.append(self._outbox.get_nowait())
                for attempt in range(3):
                    try:
                        if connection is None:
                            connection = await self.redis.connection_pool.get_connection()
                        commands = [("PUBLISH", CHANNEL + table, payload) for table, payload in batch]
                        await connection.send_packed_command(connection.pack_commands(commands), False)
                        for _ in batch:
                            await connection.read_response()
                        self.outage.ok()
                        break
                    except asyncio.CancelledError:
                        raise
                    except Exception as error:  # committed already: the others catch up from the log later
                        if connection is not None:  # a broken connection is not used again
                            with contextlib.suppress(Exception):
                                await connection.disconnect()
                            await self.redis.connection_pool.release(connection)
                            connection = None
                        if attempt == 2:
                            self.outage.failed("commits not published", error, len(batch))
                        else:
                            await asyncio.sleep(0.1 * (attempt + 1))
                for _ in batch:
                    self._outbox.task_done()
        finally:
            if connection is not None:
                await self.redis.connection_pool.release(connection)

    async def close(self) -> None:
        """Stop once what is committed is told, if Redis answers within :data:`CLOSE_WITHIN`."""
        if self._task is None:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._outbox.join(), CLOSE_WITHIN)
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
