"""The clock of a timed table: a move not made within the table's timer goes to a stand-in bot
(``timeout``), and a table whose players are all away for another timer's length is abandoned.

Only the process that holds the table's lease (:meth:`kosti.server.bus.Bus.claim`) acts on
its clock; should two act at once, the database lets one of them write the version.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from kosti.server.bus import Bus
from kosti.server.events import TableEvent
from kosti.server.planning import plan_abandon, plan_timeout
from kosti.server.rooms import Room

log = logging.getLogger(__name__)

Commit = Callable[[Room, list[TableEvent]], Awaitable[None]]
"""Commits events planned under the room's lock (:meth:`kosti.server.core.CommitCore.commit`)."""


class TableClock:
    """Runs the clock of every timed table held here."""

    def __init__(self, bus: Bus, commit: Commit) -> None:
        self.bus = bus
        self.commit = commit

    def wind(self, room: Room) -> None:
        """(Re)start the clock of a timed table after a change: the move being timed, or the
        wait for players who are all away."""
        if room.clock_task is not None and not room.clock_task.done():
            room.clock_task.cancel()
        table = room.table
        if table.settings.timer is None or table.status != "playing":
            return
        if table.seat_to_time() is not None or not table.present():
            room.clock_task = asyncio.create_task(self._run(room, table.version))

    def stopped(self, room: Room) -> bool:
        """Whether no clock of ``room`` runs (none was wound, or it has run out)."""
        return room.clock_task is None or room.clock_task.done()

    async def _run(self, room: Room, version: int) -> None:
        timer = room.table.settings.timer or 0
        try:
            await asyncio.sleep(max(0.0, timer - (time.monotonic() - room.since)))
            if not await self.bus.claim(room.id):
                return  # the process that drives this table keeps its clock
            async with room.lock:
                table = room.table
                seat = table.seat_to_time()
                if seat is not None:
                    events = plan_timeout(table, seat, version)
                else:
                    events = plan_abandon(table, version)
                await self.commit(room, events)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the clock of table %s stopped", room.id)
