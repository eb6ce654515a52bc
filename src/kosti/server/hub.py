"""The tables a server process holds in memory, and the one path every change takes.

A change is planned under the table's lock (:mod:`kosti.server.table`: pure), written
to storage and committed, and only then applied and shown to the table's sockets
("committed before broadcast": a server killed at any moment has lost nothing it
has shown). Bots of the table move from here too.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
from fastapi import WebSocket

from kosti.bots.base import Advisor, Bot
from kosti.errors import KostiError
from kosti.rules.presets import variant
from kosti.server.messages import CreateTable, HintMessage
from kosti.server.settings import ServerSettings
from kosti.server.store import Store, StoreError
from kosti.server.table import BotFactory, Event, Refusal, Table, TableSettings, action_json

log = logging.getLogger(__name__)


def installed_bots(level: str, family: str, seed: int) -> Bot:
    """A bot from ``kosti.bots.make_bot``; :class:`KostiError` when there is none of that level."""
    make = getattr(importlib.import_module("kosti.bots"), "make_bot", None)
    if make is None:
        raise KostiError("no bots are installed on this server")
    try:
        bot: Bot = make(level, family, seed)
    except (KostiError, LookupError) as error:
        raise KostiError(f"no {level} bot for {family} games: {error}") from None
    return bot


@dataclass
class Room:
    """A table in memory with the people watching it."""

    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sockets: set[WebSocket] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None


class Hub:
    """The tables in memory, loaded from storage on first use; all changes go through here."""

    def __init__(self, store: Store, settings: ServerSettings, bots: BotFactory) -> None:
        self.store = store
        self.settings = settings
        self.bots = bots
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()
        self._advisors: dict[str, Advisor | None] = {}

    async def create(self, body: CreateTable) -> Table:
        try:
            rules = variant(body.variant, body.options)
        except KostiError as error:
            raise Refusal("bad_variant", str(error)) from None
        settings = TableSettings(rules.spec, body.seats, body.mode, body.hints)
        seed = secrets.token_bytes(32) if body.mode == "online" else None
        table_id = secrets.token_urlsafe(9)
        await anyio.to_thread.run_sync(self.store.create, table_id, settings.to_json(), seed)
        room = Room(Table(table_id, settings, seed, self.bots))
        self.rooms[table_id] = room
        return room.table

    async def room(self, table_id: str) -> Room:
        """The table ``table_id``, rebuilt from its log if it is not in memory."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        async with self._loading:
            room = self.rooms.get(table_id)
            if room is not None:
                return room
            if len(table_id) > 32:
                raise Refusal("not_found", "there is no such table")
            stored = await anyio.to_thread.run_sync(self.store.load, table_id)
            if stored is None:
                raise Refusal("not_found", "there is no such table")
            table = Table(stored.id, TableSettings.from_json(stored.settings), stored.server_seed, self.bots)
            for entry in stored.events:
                table.apply(entry)
            self._trim()
            room = self.rooms[table_id] = Room(table)
        self.kick_bot(room)
        return room

    async def change(self, room: Room, plan: Callable[[Table], list[Event]]) -> None:
        """Plan events under the table's lock, store them, apply them, show them."""
        async with room.lock:
            events = plan(room.table)
            await self._commit(room, events)

    async def _commit(self, room: Room, events: list[Event]) -> None:
        if not events:
            return
        table = room.table
        try:
            await anyio.to_thread.run_sync(self.store.append, table.id, table.version, events)
        except StoreError as error:
            # another copy of this table wrote first: forget ours, the next request reloads it
            self.rooms.pop(table.id, None)
            raise Refusal("conflict", f"{error}; try again") from None
        for event in events:
            table.apply(event)
        await self.broadcast(room)
        self.kick_bot(room)

    async def broadcast(self, room: Room) -> None:
        message = state_message(room.table)
        for socket in list(room.sockets):
            try:
                await socket.send_json(message)
            except Exception:  # a socket that cannot be written to has gone
                log.warning("dropping a socket of table %s", room.table.id, exc_info=True)
                room.sockets.discard(socket)

    def kick_bot(self, room: Room) -> None:
        """Start the bot of the seat to move, if a bot must move and none is running."""
        if room.table.bot_to_move() is None:
            return
        if room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.create_task(self._run_bots(room))

    async def _run_bots(self, room: Room) -> None:
        try:
            while room.table.bot_to_move() is not None:
                await asyncio.sleep(self.settings.bot_delay)
                async with room.lock:
                    table = room.table
                    events = await anyio.to_thread.run_sync(table.plan_bot_move)
                    if not events:
                        return
                    await self._commit(room, events)
        except Exception:
            log.exception("the bots of table %s stopped", room.table.id)

    def release(self, room: Room) -> None:
        """Forget a table nobody watches and no bot plays (storage keeps it)."""
        if self._idle(room):
            self.rooms.pop(room.table.id, None)

    @staticmethod
    def _idle(room: Room) -> bool:
        quiet = room.bot_task is None or room.bot_task.done()
        return quiet and not room.sockets and not room.lock.locked()

    def _trim(self) -> None:
        """Keep at most ``max_rooms`` tables in memory by forgetting idle ones (oldest loaded first)."""
        for table_id in [t for t, room in self.rooms.items() if self._idle(room)]:
            if len(self.rooms) < self.settings.max_rooms:
                break
            self.rooms.pop(table_id, None)

    def advisor(self, family: str) -> Advisor | None:
        """The bot that gives hints for ``family`` games, if one can."""
        if family not in self._advisors:
            found: Advisor | None = None
            for level in self.settings.hint_levels:
                try:
                    bot = self.bots(level, family, 0)
                except KostiError:
                    continue
                if isinstance(bot, Advisor):
                    found = bot
                    break
            self._advisors[family] = found
        return self._advisors[family]

    async def hint(self, room: Room, message: HintMessage) -> dict[str, Any]:
        async with room.lock:
            state = room.table.check_hint(message.token, message.version)
        advisor = self.advisor(room.table.rules.family)
        if advisor is None:
            raise Refusal("no_hints", "no bot here can advise on this game")
        advice = await anyio.to_thread.run_sync(advisor.advise, state)
        return {
            "type": "hint",
            "version": message.version,
            "advice": [
                {"action": action_json(a.action), "value": a.value, "loss": a.loss} for a in advice[:5]
            ],
        }

    async def close(self) -> None:
        for room in self.rooms.values():
            if room.bot_task is not None:
                room.bot_task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await room.bot_task
        self.store.close()


def state_message(table: Table) -> dict[str, Any]:
    return {"type": "state", "version": table.version, "table": table.view()}


def error_message(refusal: Refusal, table: Table | None) -> dict[str, Any]:
    return {
        "type": "error",
        "code": refusal.code,
        "reason": refusal.reason,
        "version": table.version if table else None,
    }
