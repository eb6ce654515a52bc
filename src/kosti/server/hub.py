"""The tables of a server process: what the routes ask of them, and the parts that keep them.

The hub puts together one part a job: the tables held in memory (:mod:`.rooms`), storage
called off the event loop with its outages waited out (:mod:`.storage`), the one path every
change takes (:mod:`.core`: planned, stored, applied, shown, published), the sockets shown
each change (:mod:`.broadcast`), the clock of timed tables (:mod:`.clock`), the bots
(:mod:`.driver`), hints (:mod:`.hints`) and the lobby (:mod:`.lobby`). The routes call its
methods; none reaches into the parts.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from fastapi import WebSocket

from kosti.server.answers import (
    BotSeatedAnswer,
    Left,
    RematchMade,
    Seated,
    TableMade,
    TableState,
    Version,
)
from kosti.server.bots import LEVELS, BotFactory
from kosti.server.bots import installed_bots as installed_bots
from kosti.server.broadcast import Broadcaster, state_message
from kosti.server.bus import Bus, Changes, LocalBus
from kosti.server.clock import TableClock
from kosti.server.core import CommitCore, Plan
from kosti.server.driver import BotDriver
from kosti.server.emotes import Phrases
from kosti.server.events import BotSeated, StoredEvent, TableEvent, from_stored
from kosti.server.hints import Hints
from kosti.server.lobby import Lobby
from kosti.server.messages import (
    ActionMessage,
    CreateTable,
    EditMessage,
    HintMessage,
    JoinTable,
    UndoMessage,
)
from kosti.server.planning import plan_action, plan_edit, plan_undo
from kosti.server.refusal import Refusal
from kosti.server.rooms import Room, RoomCache
from kosti.server.seating import plan_back, plan_bot, plan_join, plan_leave
from kosti.server.settings import ServerSettings
from kosti.server.storage import Storage
from kosti.server.store import Store
from kosti.server.table import Table, TableSettings

FINISH_WITHIN = 5.0
"""Seconds a stopping process waits for the change under way at each table to be done."""


class Hub:
    """The tables in memory, loaded from storage on first use; all changes go through here."""

    def __init__(
        self, store: Store, settings: ServerSettings, bots: BotFactory, bus: Bus | None = None
    ) -> None:
        self.store = store
        self.settings = settings
        self.bots = bots
        self.bus: Bus = bus or LocalBus()
        self.levels: tuple[str, ...] = settings.bot_levels or LEVELS
        """The bot levels a table may offer; each table keeps those that play its variant."""
        self.broadcaster = Broadcaster()
        self.storage = Storage(store, settings, self.broadcaster.notify)
        self.rooms = RoomCache(settings, self._load, self.bus.unfollow)
        self.core = CommitCore(self.rooms, self.storage, self.bus, self.broadcaster, self._after_change)
        self.clock = TableClock(self.bus, self.core.commit)
        self.driver = BotDriver(settings, self.bus, self.rooms, self.storage, self.clock, self.core.commit)
        self.hints = Hints(bots, settings.hint_levels)
        self.lobby = Lobby(settings, self.storage, self.bus, self.rooms, bots, self.levels, self.core.commit)
        self.phrases = Phrases(settings, self.broadcaster, self.bus, self.rooms)
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Listen to the other processes, take over the bots of tables whose owner went quiet, and
        (in the background) take on the tables left in play when the server stopped."""
        await self.bus.start(self.core.published, self.core.reconnected, self.phrases.heard)
        if not isinstance(self.bus, LocalBus):
            self._tasks.append(asyncio.create_task(self.driver.sweep(self.room)))
        self._tasks.append(asyncio.create_task(self.driver.resume(self.room)))

    async def close(self) -> None:
        """Stop: the background tasks, the tables' bots and clocks, then the writes, the bus, storage."""
        # stopped before the tables' own tasks: they load tables and start bots
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.storage.stop_marking()
        for room in self.rooms.all():
            # a change under way is finished first (the end of its game marked): the lock is kept
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(room.lock.acquire(), FINISH_WITHIN)
            for running in (room.bot_task, room.clock_task):
                if running is not None:
                    running.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await running
        await self.storage.close_writes()
        await self.bus.close()
        self.storage.close()

    # -- the tables held here ---------------------------------------------------

    async def room(self, table_id: str) -> Room:
        """The table ``table_id``, rebuilt from its log if it is not in memory, its bots started."""
        room, loaded = await self.rooms.room(table_id)
        if loaded:
            # a commit published while the log was read went to nobody here: read it now
            async with room.lock:
                await self.core.catch_up(room)
            self.driver.kick(room)
        return room

    async def _load(self, table_id: str) -> Table:
        """The table ``table_id`` read from storage, heard from before its log is read: each commit
        is in what is read or in what is heard."""
        await self.bus.follow(table_id)
        try:
            found = await self.storage.call(self.store.load, table_id)
        except Refusal:
            self.bus.unfollow(table_id)
            raise
        if found is None:
            self.bus.unfollow(table_id)
            raise Refusal("not_found")
        settings = TableSettings.from_json(found.settings)
        table = Table(found.id, settings, found.server_seed, self.bots, self.settings.stand_in, self.levels)
        for entry in found.events:
            table.apply(from_stored(entry))
        return table

    @contextlib.asynccontextmanager
    async def visit(self, table_id: str) -> AsyncIterator[Room]:
        """The table ``table_id`` (:meth:`room`) for one request, forgotten after it unless someone
        is at it: a process holds in memory, and hears the commits of, the tables it serves."""
        room = await self.room(table_id)
        try:
            yield room
        finally:
            self.rooms.release(room)

    def release(self, room: Room) -> None:
        """Forget ``room`` once it has stayed idle a moment (:meth:`RoomCache.release`)."""
        self.rooms.release(room)

    async def change(self, room: Room, plan: Plan) -> None:
        """Plan, store, apply and show a change of ``room``'s table (:meth:`CommitCore.change`)."""
        await self.core.change(room, plan)

    async def published(
        self, table_id: str, version: int, events: list[StoredEvent], changes: Changes | None = None
    ) -> None:
        """Another process's commit (:meth:`CommitCore.published`)."""
        await self.core.published(table_id, version, events, changes)

    def _after_change(self, room: Room) -> None:
        self.driver.kick(room)
        self.clock.wind(room)

    # -- the lobby ----------------------------------------------------------------

    async def create(self, body: CreateTable, creator: str | None) -> TableMade:
        """A new table (:meth:`Lobby.create`), as the creator is answered."""
        table, token = await self.lobby.create(body, creator)
        made = TableMade(id=table.id, invite=f"/t/{table.id}", fair=table.fair(), version=table.version)
        if body.name is not None and token is not None:
            made.seat, made.token = table.seat_of(token), token
        elif token is not None:
            made.token = token  # the creator's, to seat bots with: they hold no seat
        return made

    async def _new_room(self, settings: TableSettings, creator: str | None) -> Room:
        """A new table of ``settings``, stored and held here."""
        return await self.lobby.store_room(self.lobby.new_table(settings), creator)

    async def open_tables(self, lang: str) -> list[dict[str, Any]]:
        """The public tables waiting for players (:meth:`Lobby.open_tables`)."""
        return await self.lobby.open_tables(lang)

    async def rematch(self, table_id: str, token: str) -> RematchMade:
        """The rematch of a game that is over (:meth:`Lobby.rematch`)."""
        async with self.visit(table_id) as room:
            new_id = await self.lobby.rematch(room, token)
        return RematchMade(id=new_id, invite=f"/t/{new_id}")

    # -- requests about one table ---------------------------------------------------

    async def state(self, table_id: str) -> TableState:
        """The table as everyone sees it."""
        async with self.visit(table_id) as room:
            return TableState.model_validate(state_message(room.view))

    async def record(self, table_id: str) -> dict[str, Any]:
        """The game's record (RULES.md §5), the server seed in it once the game is over."""
        async with self.visit(table_id) as room:
            return room.table.record().to_json()

    async def join(self, table_id: str, body: JoinTable) -> Seated:
        """Seat a player, or take the seat a rematch keeps for them (``body.token``)."""
        async with self.visit(table_id) as room:
            token = ""

            def plan(table: Table) -> list[TableEvent]:
                nonlocal token
                events, token = plan_join(table, body.name, body.client_seed, body.token)
                return events

            await self.core.change(room, plan)
            return Seated(seat=room.table.seat_of(token), token=token, version=room.table.version)

    async def add_bot(self, table_id: str, token: str, seat: int | None, level: str) -> BotSeatedAnswer:
        """Seat a bot, asked by a seated player or the table's creator (``token``)."""
        async with self.visit(table_id) as room:
            seats: list[int] = []

            def plan(table: Table) -> list[TableEvent]:
                events = plan_bot(table, token, seat, level)
                seats.extend(e.seat for e in events[:1] if isinstance(e, BotSeated))
                return events

            await self.core.change(room, plan)
            occupant = room.table.seats[seats[-1]]  # planned again if another process wrote first
            name = occupant.name if occupant else None
            return BotSeatedAnswer(seat=seats[-1], name=name, version=room.table.version)

    async def leave(self, table_id: str, token: str, resign: bool) -> Left:
        """Resign or leave: a stand-in bot plays the seat out (before the start, the seat is freed)."""
        async with self.visit(table_id) as room:
            await self.core.change(room, lambda table: plan_leave(table, token, resign))
            return Left(version=room.table.version, status=room.table.status)

    async def back(self, table_id: str, token: str) -> Version:
        """Take back a seat the stand-in bot plays since its turn ran out."""
        async with self.visit(table_id) as room:
            await self.core.change(room, lambda table: plan_back(table, token))
            return Version(version=room.table.version)

    # -- a table's sockets --------------------------------------------------------------

    def crowded(self, room: Room) -> bool:
        """Whether ``room`` has as many spectators here as a table takes."""
        return room.spectators() >= self.settings.spectators

    def sit(self, room: Room, socket: WebSocket, token: str) -> list[WebSocket]:
        """Count ``socket`` as the seat of ``token`` (:class:`Refusal` for a token of no seat); the
        seat's oldest sockets beyond ``seat_sockets``, for the caller to close."""
        return room.sit(socket, room.table.seat_of(token), self.settings.seat_sockets)

    @staticmethod
    def seat_of(room: Room, socket: WebSocket) -> int | None:
        """The seat ``socket`` has shown the token of at ``room``'s table (``None``: a spectator)."""
        return room.seat_of(socket)

    async def watch(self, room: Room, socket: WebSocket) -> Room:
        """Count ``socket`` at ``room``'s table, loaded again if it was forgotten meanwhile (the
        socket keeps its seat); the room it is counted in."""
        if not self.rooms.holds(room):
            seat = room.seat_of(socket)
            room.drop(socket)
            room = await self.room(room.id)
            room.watch(socket, seat)
        room.watch(socket)
        return room

    def leave_socket(self, room: Room, socket: WebSocket) -> None:
        """Forget a socket that has gone (and the table, if nobody else is at it)."""
        room.drop(socket)
        self.rooms.release(room)

    async def act(self, room: Room, message: ActionMessage | UndoMessage | EditMessage) -> None:
        """A move, an undo or an edit, planned and committed."""

        def plan(table: Table) -> list[TableEvent]:
            if isinstance(message, ActionMessage):
                return plan_action(table, message.token, message.version, message.action)
            if isinstance(message, UndoMessage):
                return plan_undo(table, message.token, message.version)
            return plan_edit(table, message.token, message.version, message.throw, message.faces)

        await self.core.change(room, plan)

    async def tell_hint(self, room: Room, message: HintMessage, asker: WebSocket) -> None:
        """Work out the hint of ``message`` (:meth:`Hints.advise`) and send it, worded in each one's
        language, to every socket of the seat at the table once it is ready: the one that asked,
        or the page's new socket if it reconnected meanwhile. A refusal goes to ``asker``."""
        advised = await self.hints.advise(room, message)
        here = self.rooms.get(room.id) or room  # the table may have been loaded again meanwhile
        await self.broadcaster.send_hint(room, here, advised, asker)

    async def show_state(self, room: Room, socket: WebSocket) -> None:
        """The whole ``state`` to one socket (:meth:`Broadcaster.show_state`)."""
        await self.broadcaster.show_state(room, socket)

    @staticmethod
    def version(room: Room) -> int:
        """The version of ``room``'s table as this process holds it."""
        return room.table.version
