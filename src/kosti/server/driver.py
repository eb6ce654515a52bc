"""The bots at the tables held here: they move when their seat is to act, in the process that holds
the table's lease, and go on after that process stops or the server restarts.

A table whose bots play is listed as driven (:meth:`kosti.server.bus.Bus.drive`) while they
do, so that another process finds it when its driver dies (:meth:`BotDriver.sweep`); a
process that starts takes on the tables left in play whose bots or clock may be due
(:meth:`BotDriver.resume`): bots alone, stand-ins, timed moves go on though nobody opens
the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import anyio

from kosti.server.bus import Bus
from kosti.server.clock import Commit, TableClock
from kosti.server.dispatch import home
from kosti.server.planning import plan_bot_move
from kosti.server.refusal import Refusal
from kosti.server.rooms import Room, RoomCache
from kosti.server.settings import ServerSettings
from kosti.server.storage import Storage

log = logging.getLogger(__name__)

OpenRoom = Callable[[str], Awaitable[Room]]
"""The room of a table id, read from storage if need be (its bots started)."""


class BotDriver:
    """Moves the bots of the tables held here."""

    def __init__(
        self,
        settings: ServerSettings,
        bus: Bus,
        rooms: RoomCache,
        storage: Storage,
        clock: TableClock,
        commit: Commit,
    ) -> None:
        self.settings = settings
        self.bus = bus
        self.rooms = rooms
        self.storage = storage
        self.clock = clock
        self.commit = commit

    def kick(self, room: Room) -> None:
        """Start the bot of the seat to move, if a bot must move and none is running."""
        if room.table.bot_to_move() is None:
            return
        if room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.create_task(self._run(room))

    async def _run(self, room: Room) -> None:
        try:
            while room.table.bot_to_move() is not None:
                await asyncio.sleep(self.settings.bot_delay)
                if not await self.bus.claim(room.id):
                    return  # another process drives this table; the sweeper looks again
                if not room.driven:
                    # listed: should this process die, another finds the table (bots alone too)
                    await self.bus.drive(room.id, True)
                    room.driven = True
                async with room.lock:
                    events = await anyio.to_thread.run_sync(plan_bot_move, room.table)
                    if not events:
                        return
                    try:
                        await self.commit(room, events)
                    except Refusal as refusal:
                        if refusal.code == "storage_down":
                            return
                        # stale: another process moved first; look at the table again
            if room.driven:
                await self.bus.drive(room.id, False)
                room.driven = False
        except Exception:
            log.exception("the bots of table %s stopped", room.id)

    async def sweep(self, open_room: OpenRoom) -> None:
        """Now and then, start the bots and clocks of every table here that are due but stopped
        (they stop when another process holds the lease: that process may be dead by now), and
        take on the tables whose bots nobody drives any more, those that nobody watches too."""
        while True:
            await asyncio.sleep(self.settings.lease)
            for room in self.rooms.all():
                self.kick(room)
                if self.clock.stopped(room):
                    self.clock.wind(room)
            for table_id in await self.bus.orphans():
                try:
                    room = await open_room(table_id)  # loading it starts its bots
                except Refusal:
                    continue
                if room.table.bot_to_move() is None:
                    await self.bus.drive(table_id, False)  # its driver died as its bots stopped

    async def resume(self, open_room: OpenRoom) -> None:
        """Take on the tables left in play (:meth:`Store.unfinished`): start the bots and clocks
        that are due, as opening the table would, and mark over a game whose end was stored
        without its mark. With several workers each takes on the tables whose home it is (the
        lease decides should another drive one already). Run once, at the start, in the
        background, one table at a time; a timed move is given its whole time again."""
        try:
            found: list[str] = await self.storage.call(self.storage.store.unfinished)
        except Refusal:
            log.warning("storage is unreachable: the tables left in play go on once opened")
            return
        workers = self.settings.workers
        resumed = 0
        for table_id in found:
            if workers > 1 and home(table_id, workers) != self.settings.worker:
                continue
            try:
                room = await open_room(table_id)  # loading it starts its bots
            except Refusal:
                continue
            except Exception:  # one table that cannot be read must not keep the others waiting
                log.exception("could not take on table %s", table_id)
                continue
            if room.table.over:
                with contextlib.suppress(Refusal):
                    await self.storage.call(self.storage.store.finish, table_id)
            elif self.clock.stopped(room):
                self.clock.wind(room)
            if not room.idle():
                resumed += 1
            self.rooms.release(room)
        if resumed:
            log.info("took on %d tables left in play", resumed)
