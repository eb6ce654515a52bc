"""The one path every change of a table takes: planned, stored, applied, shown, published.

A change is planned under the table's lock (:mod:`kosti.server.seating`,
:mod:`kosti.server.planning`: pure), written to storage and committed, and only then
applied and shown to the table's sockets ("committed before broadcast": a server killed
at any moment has lost nothing it has shown). The database's unique (table, version) key
keeps one order of events per table across processes: a process whose copy of a table is
behind loses the write, reads what it missed from the log, and refuses the request as
stale. Each commit is then published (:mod:`kosti.server.bus`) for the other processes'
sockets, and what another process published is applied here in the same order.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from kosti.server import wire
from kosti.server.broadcast import Broadcaster
from kosti.server.bus import Bus, Changes
from kosti.server.events import StoredEvent, TableEvent, from_stored, stored
from kosti.server.refusal import Refusal
from kosti.server.rooms import Room, RoomCache
from kosti.server.storage import Storage
from kosti.server.table import Table

Plan = Callable[[Table], list[TableEvent]]
"""What a request makes of a table: its events, or a :class:`Refusal` (pure: changes nothing)."""

AfterChange = Callable[[Room], None]
"""Told of every change shown here, the other processes' too (to start bots and clocks)."""


class CommitCore:
    """Commits the changes of the tables held here, and applies those of the other processes."""

    def __init__(
        self, rooms: RoomCache, storage: Storage, bus: Bus, broadcaster: Broadcaster, after: AfterChange
    ) -> None:
        self.rooms = rooms
        self.storage = storage
        self.bus = bus
        self.broadcaster = broadcaster
        self.after = after

    async def change(self, room: Room, plan: Plan) -> None:
        """Plan events under the table's lock, store them, apply them, show them.

        When another process wrote first, ``plan`` is asked once more, of the table as that
        write left it: a request that names no version (a join, a bot seated) then goes
        through, and one that does (a move) is refused by its plan as stale.
        """
        async with room.lock:
            if not await self._try_commit(room, plan(room.table)):
                await self.commit(room, plan(room.table))

    async def commit(self, room: Room, events: list[TableEvent]) -> None:
        """Commit ``events`` planned under the table's lock, held by the caller; a write that another
        process made first is refused as stale."""
        version = room.table.version
        if not await self._try_commit(room, events):
            raise Refusal("stale", why="commit", version=room.table.version, yours=version)

    async def _try_commit(self, room: Room, events: list[TableEvent]) -> bool:
        """Write ``events`` after the table's version, then apply, show and publish them; ``False``
        if another process wrote that version first (what it wrote is read and shown first)."""
        if not events:
            return True
        table = room.table
        version = table.version
        was_waiting = table.status == "waiting"
        written = [stored(event) for event in events]
        if not await self.storage.append(room, version, written):
            await self.catch_up(room)
            return False
        for event in events:
            table.apply(event)
        if table.over:  # stored before it is shown: whoever saw the end no longer finds it live
            await self.storage.mark_over(room)
        else:
            self.storage.touch(room)
        changes = await self.broadcaster.broadcast(room)
        await self.bus.publish(table.id, version, written, changes)
        if was_waiting and not table.settings.private:
            await self.storage.list_seats(table)
        self.after(room)
        return True

    async def catch_up(self, room: Room) -> bool:
        """Apply what the log holds beyond the table's version (another process wrote it); any?"""
        missed = await self.storage.call(self.storage.store.since, room.id, room.table.version)
        for entry in missed:
            room.table.apply(from_stored(entry))
        if missed:
            await self.broadcaster.broadcast(room)
        return bool(missed)

    async def published(
        self, table_id: str, version: int, events: list[StoredEvent], changes: Changes | None = None
    ) -> None:
        """Another process committed ``events`` after ``version``: show them here, in order. The
        ``changes`` it sent its sockets are sent as they are to the sockets here that were shown
        the same version, and the view they lead to is not computed again."""
        room = self.rooms.get(table_id)
        if room is None:
            return
        async with room.lock:
            table = room.table
            if version > table.version:
                await self.catch_up(room)  # a gap: the log has what was missed
            else:
                fresh = events[table.version - version :]
                for entry in fresh:
                    table.apply(from_stored(entry))
                if fresh:
                    ready = _adopt(room, version + len(events), changes or {})
                    await self.broadcaster.broadcast(room, ready)
        self.after(room)

    async def reconnected(self) -> None:
        """The bus was cut off: every table here may have missed commits."""
        for room in self.rooms.all():
            async with room.lock:
                with contextlib.suppress(Refusal):
                    await self.catch_up(room)
            self.after(room)


def _adopt(room: Room, version: int, changes: Changes) -> Changes:
    """The ``changes`` (another process's) that lead from what was last shown here to the
    table at ``version``, each with the view it leads to taken as the table's."""
    usable: Changes = {}
    if room.table.version != version:
        return usable
    for lang, (since, text) in changes.items():
        last = room.bodies.get(lang)
        if last is None or last[0] != since:
            continue
        try:
            changed = wire.parse(text)["table"]
        except (ValueError, KeyError, TypeError):
            continue
        body = {**last[1], **changed}
        body.pop("seconds_left", None)
        room.view.adopt_body(version, lang, body)
        usable[lang] = (since, text)
    return usable
