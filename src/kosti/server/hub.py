"""The tables a server process holds in memory, and the one path every change takes.

A change is planned under the table's lock (:mod:`kosti.server.table`: pure), written
to storage and committed, and only then applied and shown to the table's sockets
("committed before broadcast": a server killed at any moment has lost nothing it
has shown). Bots of the table move from here too, and so does its clock: a move
not made within the table's timer goes to a stand-in bot (``timeout``), and a table
whose players are all away for another timer's length is abandoned.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
from fastapi import WebSocket

from kosti.bots.base import Advisor, Bot
from kosti.errors import KostiError
from kosti.i18n import catalog
from kosti.phrases import hint_text
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
    clock_task: asyncio.Task[None] | None = None
    since: float = field(default_factory=time.monotonic)
    """When the table last changed: the turn timer counts from here."""

    def seconds_left(self) -> float | None:
        """What is left of the move being timed, if one is."""
        timer = self.table.settings.timer
        if timer is None or self.table.seat_to_time() is None:
            return None
        return max(0.0, timer - (time.monotonic() - self.since))


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
        settings = TableSettings(rules.spec, body.seats, body.mode, body.hints, body.private, body.timer)
        return (await self._new_room(settings)).table

    async def _new_room(self, settings: TableSettings) -> Room:
        seed = secrets.token_bytes(32) if settings.mode == "online" else None
        table_id = secrets.token_urlsafe(9)
        await anyio.to_thread.run_sync(self.store.create, table_id, settings.to_json(), seed)
        room = Room(Table(table_id, settings, seed, self.bots, self.settings.stand_in))
        self.rooms[table_id] = room
        return room

    async def rematch(self, room: Room, token: str) -> str:
        """The table of the rematch of ``room``'s game, made now if nobody has asked before:
        the same game and seats, bots seated, each player's seat kept for them."""
        async with room.lock:
            old = room.table
            if old.rematch is not None:
                old.seat_of(token)
                return old.rematch
            old.plan_rematch(token, "")  # refuse before a table is made for nothing
            new = await self._new_room(old.settings)
            await self._commit(new, new.table.plan_reserve(old.seats))
            await self._commit(room, old.plan_rematch(token, new.table.id))
            return new.table.id

    def open_tables(self, lang: str) -> list[dict[str, Any]]:
        """The public tables of this process still waiting for players, newest first."""
        found = []
        for room in reversed(self.rooms.values()):
            table = room.table
            if table.settings.private or table.status != "waiting" or not table.free_seats():
                continue
            found.append(
                {
                    "id": table.id,
                    "preset": table.rules.preset.id,
                    "name": table.rules.preset.name(lang),
                    "seats": len(table.seats),
                    "taken": len(table.seats) - table.free_seats(),
                    "timer": table.settings.timer,
                    "mode": table.settings.mode,
                }
            )
        return found[:50]

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
            settings = TableSettings.from_json(stored.settings)
            table = Table(stored.id, settings, stored.server_seed, self.bots, self.settings.stand_in)
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
        room.since = time.monotonic()
        await self.broadcast(room)
        self.kick_bot(room)
        self.wind_clock(room)

    async def broadcast(self, room: Room) -> None:
        """The state to every socket, worded in each socket's language (made once a language)."""
        messages: dict[str, dict[str, Any]] = {}
        for socket in list(room.sockets):
            lang = socket_language(socket)
            if lang not in messages:
                messages[lang] = state_message(room.table, lang, room.seconds_left())
            try:
                await socket.send_json(messages[lang])
            except Exception:  # a socket that cannot be written to has gone
                log.warning("dropping a socket of table %s", room.table.id, exc_info=True)
                room.sockets.discard(socket)

    def wind_clock(self, room: Room) -> None:
        """(Re)start the clock of a timed table after a change: the move being timed, or the
        wait for players who are all away."""
        if room.clock_task is not None and not room.clock_task.done():
            room.clock_task.cancel()
        table = room.table
        if table.settings.timer is None or table.status != "playing":
            return
        if table.seat_to_time() is not None or not table.present():
            room.clock_task = asyncio.create_task(self._clock(room, table.version))

    async def _clock(self, room: Room, version: int) -> None:
        timer = room.table.settings.timer or 0
        try:
            await asyncio.sleep(max(0.0, timer - (time.monotonic() - room.since)))
            async with room.lock:
                table = room.table
                seat = table.seat_to_time()
                if seat is not None:
                    events = table.plan_timeout(seat, version)
                else:
                    events = table.plan_abandon(version)
                await self._commit(room, events)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the clock of table %s stopped", room.table.id)

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
        quiet = all(task is None or task.done() for task in (room.bot_task, room.clock_task))
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

    async def hint(self, room: Room, message: HintMessage, lang: str = "en") -> dict[str, Any]:
        async with room.lock:
            state = room.table.check_hint(message.token, message.version)
        advisor = self.advisor(room.table.rules.family)
        if advisor is None:
            raise Refusal("no_hints", "no bot here can advise on this game")
        advice = await anyio.to_thread.run_sync(advisor.advise, state)
        style = "cards" if getattr(room.table.rules.options, "faces", "pips") == "cards" else "pips"
        return {
            "type": "hint",
            "version": message.version,
            "text": hint_text(room.table.rules.family, advice, catalog(lang), style),
            "advice": [
                {"action": action_json(a.action), "value": a.value, "loss": a.loss} for a in advice[:5]
            ],
        }

    async def close(self) -> None:
        for room in self.rooms.values():
            for task in (room.bot_task, room.clock_task):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
        self.store.close()


def socket_language(socket: WebSocket) -> str:
    """The language a socket asked for (``/ws/{id}?lang=ru``): ``ru`` or ``en``."""
    return "ru" if socket.query_params.get("lang") == "ru" else "en"


def state_message(table: Table, lang: str = "en", seconds_left: float | None = None) -> dict[str, Any]:
    view = table.view(lang)
    view["seconds_left"] = None if seconds_left is None else round(seconds_left, 1)
    return {"type": "state", "version": table.version, "table": view}


def error_message(refusal: Refusal, table: Table | None) -> dict[str, Any]:
    return {
        "type": "error",
        "code": refusal.code,
        "reason": refusal.reason,
        "version": table.version if table else None,
    }
