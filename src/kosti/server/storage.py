"""Storage as the tables in memory use it: every call off the event loop, and outages waited out.

The database's calls block, so each runs in a thread of a pool of this process's own (the
group committer's writers, :mod:`kosti.server.commits`, hold the other connections). Storage
that cannot be reached is a :class:`Refusal` ``storage_down`` for a request, but a change
already under way waits for it for ``storage_retry`` seconds, the table's sockets told, and
the end of a game is marked once storage is back however long that takes.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import math
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from kosti.server.commits import WRITERS, Committer
from kosti.server.events import StoredEvent
from kosti.server.refusal import Refusal
from kosti.server.rooms import Room
from kosti.server.settings import ServerSettings
from kosti.server.store import POOL_SIZE, StorageDown, Store, StoreError
from kosti.server.table import Table

log = logging.getLogger(__name__)

STORAGE_THREADS = POOL_SIZE - WRITERS
"""Threads a process's storage calls run in, each with a connection of the pool (the committer's
writers hold the others)."""

STORAGE_LOST = "connection to storage lost, retrying"
STORAGE_BACK = "connection to storage restored"
STORAGE_DOWN = "storage is still unreachable: nothing was changed"

TOUCHES = 10
"""How many times at most, within :attr:`~kosti.server.settings.ServerSettings.idle_expiry`, a
busy table's activity is stored (:meth:`Store.touch`): a write now and then, not one a move."""

END_RETRY = 5.0
"""Seconds at most between the tries to mark a game over once the change that ended it has given up
waiting for storage (:meth:`Storage.mark_over`)."""

Notify = Callable[[Room, str, str], Awaitable[None]]
"""Tells a table's sockets of trouble on the server's side: (room, code, English text)."""


@dataclass
class _Outage:
    """A change waiting for storage to come back: until when, the next pause, and whether the
    table's sockets have been told."""

    deadline: float
    pause: float = 0.05
    told: bool = False


class Storage:
    """The store of this process, called from the event loop."""

    def __init__(self, store: Store, settings: ServerSettings, notify: Notify) -> None:
        self.store = store
        self.settings = settings
        store.idle_after = timedelta(seconds=settings.idle_expiry)
        self.committer = Committer(store)
        self._notify = notify
        self._threads = ThreadPoolExecutor(STORAGE_THREADS, thread_name_prefix="kosti-storage")
        self._finishing: set[asyncio.Task[None]] = set()
        """Games whose end is still to be marked in storage (:meth:`mark_over`)."""

    async def call(self, call: Callable[..., Any], *args: Any) -> Any:
        """``call(*args)`` in a thread; an outage is a :class:`Refusal` saying so.

        The threads are a plain executor's: anyio's hand-over (a capacity limiter, a cancel
        scope, a look-up of the running library) cost more than the statement itself."""
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self._threads, functools.partial(call, *args)
            )
        except StorageDown:
            raise Refusal("storage_down", why="retry") from None

    async def append(self, room: Room, version: int, events: list[StoredEvent]) -> bool:
        """Whether ``events`` are now stored after ``version`` (``False``: another writer was first).
        Storage that cannot be reached is tried again for ``storage_retry`` seconds; then
        :class:`Refusal` ``storage_down``, nothing changed."""
        outage = _Outage(time.monotonic() + self.settings.storage_retry)
        while True:
            try:
                await self.committer.append(room.id, version, events)
                break
            except StorageDown:
                if not await self._wait(room, outage, "the write"):
                    await self._notify(
                        room, "storage_down", "storage is still unreachable: nothing was changed"
                    )
                    raise Refusal("storage_down", why="unchanged") from None
            except StoreError:
                if not outage.told:
                    return False
                # the write may have gone through before the connection broke: is it ours?
                stored = await self.call(self.store.since, room.id, version)
                if _same(stored[: len(events)], events):
                    break
                return False
        if outage.told:
            await self._notify(room, "storage_back", STORAGE_BACK)
        return True

    async def _wait(self, room: Room, outage: _Outage, what: str) -> bool:
        """Wait a little longer (longer each time) for storage that cannot be reached, the table's
        sockets told the first time; ``False``, without waiting, once ``storage_retry`` is spent."""
        if not outage.told:
            log.warning("storage is unreachable; retrying %s of table %s", what, room.id)
            await self._notify(room, "storage_lost", STORAGE_LOST)
            outage.told = True
        if time.monotonic() + outage.pause > outage.deadline:
            return False
        await asyncio.sleep(outage.pause)
        outage.pause = min(outage.pause * 2, 1.0)
        return True

    async def mark_over(self, room: Room) -> None:
        """Store that the game of ``room``'s table is over (its last move is stored already), an
        outage waited out as a write's is. Storage still down after ``storage_retry``: the end is
        shown all the same, for the move that made it is stored, and the mark is written in the
        background once storage is back (:meth:`_finish_later`)."""
        outage = _Outage(time.monotonic() + self.settings.storage_retry)
        while True:
            try:
                await self.call(self.store.finish, room.id)
                break
            except Refusal as refusal:
                if refusal.code != "storage_down":
                    raise
                if not await self._wait(room, outage, "the end mark"):
                    task = asyncio.create_task(self._finish_later(room))
                    self._finishing.add(task)
                    task.add_done_callback(self._finishing.discard)
                    return
        if outage.told:
            await self._notify(room, "storage_back", STORAGE_BACK)

    async def _finish_later(self, room: Room) -> None:
        """Mark the game of ``room``'s table over once storage is back, trying every
        :data:`END_RETRY` seconds at most; the table's sockets are told when it is stored."""
        pause = 0.5
        while True:
            await asyncio.sleep(pause)
            try:
                await self.call(self.store.finish, room.id)
            except Refusal:
                pause = min(pause * 2, END_RETRY)
                continue
            log.warning("storage is back: the end of table %s is stored", room.id)
            await self._notify(room, "storage_back", STORAGE_BACK)
            return

    def touch(self, room: Room) -> None:
        """Store, in the background, that something has happened at ``room``'s table: at most
        :data:`TOUCHES` times within ``idle_expiry``, so that a table in play goes on counting as
        live (:attr:`Store.idle_after`) for the cost of a write now and then."""
        now = time.monotonic()
        if now - room.touched < self.settings.idle_expiry / TOUCHES:
            return
        room.touched = now
        stored = asyncio.get_running_loop().run_in_executor(self._threads, self.store.touch, room.id)
        stored.add_done_callback(functools.partial(_touched, room))

    async def list_seats(self, table: Table) -> None:
        """Tell storage the seats now held at a public table that was waiting (none: it started)."""
        taken = len(table.seats) - table.free_seats() if table.status == "waiting" else None
        try:
            await self.call(self.store.set_taken, table.id, taken)
        except Refusal:  # committed already: the lobby is only a little behind
            log.warning("could not list the seats of table %s", table.id)

    async def stop_marking(self) -> None:
        """Give up the end marks still waiting for storage (a stopping process)."""
        for task in list(self._finishing):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def close_writes(self) -> None:
        """Stop the committer once the writes handed to it are done."""
        await self.committer.close()

    def close(self) -> None:
        """Let the threads go and close the store."""
        self._threads.shutdown(wait=False, cancel_futures=True)
        self.store.close()


def _touched(room: Room, stored: asyncio.Future[None]) -> None:
    """A table's activity was stored, or not: then the next change tries again."""
    if stored.cancelled() or stored.exception() is not None:
        room.touched = -math.inf


def _same(stored: list[StoredEvent], ours: list[StoredEvent]) -> bool:
    def key(events: list[StoredEvent]) -> str:
        return json.dumps([list(e) for e in events], sort_keys=True)

    return key(stored) == key(ours)
