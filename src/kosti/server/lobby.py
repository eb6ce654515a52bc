"""The lobby: new tables (each counted against the server's caps), rematches, and the open tables listed.

A new table is stored before anyone can find it, with a secret server seed at an online
table and an id whose home is this worker process (:func:`kosti.server.dispatch.homed_id`).
The lobby lists the public tables still waiting for players, those of every process, as
storage has them.
"""

from __future__ import annotations

import functools
import secrets
import time
from typing import Any

from kosti.errors import KostiError
from kosti.rules.presets import Preset, variant
from kosti.server.bots import BotFactory
from kosti.server.bus import Bus
from kosti.server.clock import Commit
from kosti.server.dispatch import homed_id
from kosti.server.events import TableEvent
from kosti.server.limits import address_group, check_options
from kosti.server.messages import CreateTable
from kosti.server.refusal import Refusal
from kosti.server.rooms import Room, RoomCache
from kosti.server.seating import plan_join, plan_rematch, plan_reserve
from kosti.server.settings import ServerSettings
from kosti.server.storage import Storage
from kosti.server.table import Table, TableSettings, token_hash

OPEN_TABLES = 50
"""Open tables the lobby lists at most."""

LIVE_FRESH = 1.0
"""Seconds a count of the live tables is used for (with the tables made here since) while it is
far from the cap (:data:`LIVE_MARGIN`): counting them all in storage for every new table costs
more than making it. Close to the cap they are counted each time."""

LIVE_MARGIN = 100
"""How far under the cap (or a tenth of it, if more) a count must be to be used again: the
tables other processes make within :data:`LIVE_FRESH` seconds, which it does not know of."""


@functools.cache
def _preset(spec: str) -> Preset:
    """The preset of a canonical variant string (parsed once)."""
    return variant(spec).preset


class Lobby:
    """Makes the tables of this process and lists the open ones."""

    def __init__(
        self,
        settings: ServerSettings,
        storage: Storage,
        bus: Bus,
        rooms: RoomCache,
        bots: BotFactory,
        levels: tuple[str, ...],
        commit: Commit,
    ) -> None:
        self.settings = settings
        self.storage = storage
        self.bus = bus
        self.rooms = rooms
        self.bots = bots
        self.levels = levels
        self.commit = commit
        self._live = (-LIVE_FRESH, 0)
        """When the live tables were last counted (``time.monotonic()``), and the count plus the
        tables made here since."""

    async def create(self, body: CreateTable, creator: str | None) -> tuple[Table, str | None]:
        """A new table, and the seat token of its creator if ``body`` names them (seated in the
        same request; a name the table refuses makes no table). ``creator`` is the address the
        per-address cap counts it against, by its group (an IPv6 address: its /64)."""
        creator = None if creator is None else address_group(creator)
        try:
            rules = variant(body.variant, body.options)
        except KostiError as error:
            raise Refusal("bad_variant", why="options", detail=str(error)) from None
        check_options(rules)
        if body.timer is not None and body.timer < self.settings.min_timer:
            raise Refusal("bad_timer", n=self.settings.min_timer)
        if await self._live_tables() >= self.settings.max_tables:
            raise Refusal("busy")
        if self.settings.http_limits and creator is not None:
            mine = await self.storage.call(self.storage.store.live, creator)
            if mine >= self.settings.tables_per_address:
                raise Refusal("rate_limited", why="tables", n=mine)
        owner = None if body.name is not None else secrets.token_urlsafe(24)
        settings = TableSettings(
            rules.spec,
            body.seats,
            body.mode,
            body.hints,
            body.private,
            body.timer,
            None if owner is None else token_hash(owner),
        )
        table = self.new_table(settings)
        token = owner
        events: list[TableEvent] = []
        if body.name is not None:
            events, token = plan_join(table, body.name, body.client_seed)
        # a table whose creator sits down is listed once they are seated (as any join lists the
        # seats held): until then nobody knows its id, so nobody can take their seat
        room = await self.store_room(table, creator, listed=not events)
        await self.commit(room, events)
        self.rooms.release(room)  # nobody is watching it yet: the sockets that come load it
        return room.table, token

    async def _live_tables(self) -> int:
        """The live tables of every process (:meth:`Store.live`), counted at most
        :data:`LIVE_FRESH` seconds ago while far from the cap."""
        counted, known = self._live
        now = time.monotonic()
        cap = self.settings.max_tables
        if now - counted > LIVE_FRESH or known >= cap - max(cap // 10, LIVE_MARGIN):
            known = await self.storage.call(self.storage.store.live)
            self._live = (now, known)
        return known

    def new_table(self, settings: TableSettings) -> Table:
        """A new table with its id and server seed, not yet stored."""
        seed = secrets.token_bytes(32) if settings.mode == "online" else None
        table_id = homed_id(self.settings.worker, self.settings.workers)
        return Table(table_id, settings, seed, self.bots, self.settings.stand_in, self.levels)

    async def store_room(self, table: Table, creator: str | None, listed: bool = True) -> Room:
        """Store the new ``table`` (a public one ``listed`` among the open tables now, with no seat
        held) and hold it here."""
        await self.bus.follow(table.id)
        taken = 0 if listed and not table.settings.private else None
        data = table.settings.to_json()
        await self.storage.call(self.storage.store.create, table.id, data, table.server_seed, creator, taken)
        self._live = (self._live[0], self._live[1] + 1)
        room = self.rooms.add(table)
        room.touched = time.monotonic()  # stored as active when made
        return room

    async def rematch(self, room: Room, token: str) -> str:
        """The table of the rematch of ``room``'s game, made now if nobody has asked before:
        the same game and seats, bots seated, each player's seat kept for them."""
        async with room.lock:
            old = room.table
            if old.rematch is not None:
                old.seat_of(token)
                return old.rematch
            plan_rematch(old, token, "")  # refuse before a table is made for nothing
            new = await self.store_room(self.new_table(old.settings), None)
            await self.commit(new, plan_reserve(new.table, old.seats))
            await self.commit(room, plan_rematch(old, token, new.id))
        self.rooms.release(new)
        return new.id

    async def open_tables(self, lang: str) -> list[dict[str, Any]]:
        """The public tables still waiting for players, newest first, as storage lists them:
        those of every process of the server."""
        found = []
        for table_id, data, taken in await self.storage.call(self.storage.store.waiting, OPEN_TABLES):
            settings = TableSettings.from_json(data)
            preset = _preset(settings.variant)
            found.append(
                {
                    "id": table_id,
                    "preset": preset.id,
                    "name": preset.name(lang),
                    "seats": settings.seats,
                    "taken": taken,
                    "timer": settings.timer,
                    "mode": settings.mode,
                }
            )
        return found
