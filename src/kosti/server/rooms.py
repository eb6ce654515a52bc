"""The tables a server process holds in memory, each with the sockets watching it here.

A table is read from storage on first use and kept while anyone watches it or its bots
or clock run; once idle it lingers a moment (the next player joining a table just made,
the players' sockets connecting after they joined, a reconnect) before it is forgotten.
At most ``max_rooms`` tables are held: beyond that, idle ones are forgotten first.
"""

from __future__ import annotations

import asyncio
import math
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kosti.server.refusal import Refusal
from kosti.server.settings import ServerSettings
from kosti.server.table import Table
from kosti.server.view import TableView

if TYPE_CHECKING:  # a table played in the browser (kosti.web) is held in a room too, with no FastAPI
    from fastapi import WebSocket


@dataclass(eq=False)
class Room:
    """A table in memory with the sockets watching it here (each with its seat, or ``None``)."""

    table: Table
    view: TableView = field(init=False)
    """What the table's clients see, computed once a version and language."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sockets: dict[WebSocket, int | None] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    clock_task: asyncio.Task[None] | None = None
    since: float = field(default_factory=time.monotonic)
    """When the table's state was last shown: the turn timer counts from here."""
    shown: dict[WebSocket, int] = field(default_factory=dict)
    """The version each socket here was last shown."""
    driven: bool = False
    """Listed among the tables whose bots play (:meth:`Bus.drive`) by this process."""
    bodies: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    """The view (:meth:`TableView.body`) last shown here in each language, with its version: what a
    ``change`` is reckoned from."""
    linger: asyncio.TimerHandle | None = None
    """When the table, idle, is to be forgotten (:meth:`RoomCache.release`)."""
    touched: float = -math.inf
    """When this process last stored that something happened at the table (:meth:`Storage.touch`)."""
    emoted: dict[int, list[float]] = field(default_factory=dict)
    """When each seat said its quick phrases of the last minute here (``time.monotonic()``): their
    pace (:func:`kosti.server.emotes.wait_before`); nothing of the table's own."""

    def __post_init__(self) -> None:
        self.view = TableView(self.table)

    @property
    def id(self) -> str:
        return self.table.id

    def watch(self, socket: WebSocket, seat: int | None = None) -> None:
        """Count ``socket`` among those here: as ``seat``'s, or as it was known (a spectator's
        when it was not)."""
        if seat is None:
            self.sockets.setdefault(socket, None)
        else:
            self.sockets[socket] = seat

    def sit(self, socket: WebSocket, seat: int, most: int) -> list[WebSocket]:
        """Count ``socket`` as ``seat``'s; the seat's oldest sockets beyond ``most``, forgotten here
        (for the caller to close)."""
        self.sockets[socket] = seat
        mine = [ws for ws, s in self.sockets.items() if s == seat]
        old = mine[: max(0, len(mine) - most)]
        for gone in old:
            self.drop(gone)
        return old

    def seat_of(self, socket: WebSocket) -> int | None:
        """The seat ``socket`` is known as here (``None``: a spectator's, or not here)."""
        return self.sockets.get(socket)

    def drop(self, socket: WebSocket) -> None:
        """Forget a socket that has gone."""
        self.sockets.pop(socket, None)
        self.shown.pop(socket, None)

    def spectators(self) -> int:
        return sum(1 for seat in self.sockets.values() if seat is None)

    def seconds_left(self) -> float | None:
        """What is left of the move being timed, if one is."""
        timer = self.table.settings.timer
        if timer is None or self.table.seat_to_time() is None:
            return None
        return max(0.0, timer - (time.monotonic() - self.since))

    def idle(self) -> bool:
        """Nobody watches it here, no bot or clock of it runs, no change of it is under way."""
        quiet = all(task is None or task.done() for task in (self.bot_task, self.clock_task))
        return quiet and not self.sockets and not self.lock.locked()


Loader = Callable[[str], Awaitable[Table]]
"""Reads a table from storage (its log applied); :class:`Refusal` ``not_found`` when there is none."""

Forgotten = Callable[[str], None]
"""Told of a table forgotten here (to stop hearing of its commits)."""


class RoomCache:
    """The rooms of this process, by table id."""

    def __init__(self, settings: ServerSettings, load: Loader, forgotten: Forgotten) -> None:
        self.settings = settings
        self._load = load
        self._forgotten = forgotten
        self._rooms: dict[str, Room] = {}
        self._loading: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        """The lock of each table being loaded, while someone holds or awaits it."""

    def get(self, table_id: str) -> Room | None:
        """The room of ``table_id`` if it is held here."""
        return self._rooms.get(table_id)

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._rooms

    def all(self) -> list[Room]:
        """Every room held here, oldest loaded first."""
        return list(self._rooms.values())

    def holds(self, room: Room) -> bool:
        """Whether ``room`` is still this process's copy of its table (not forgotten since)."""
        return self._rooms.get(room.id) is room

    def add(self, table: Table) -> Room:
        """Hold ``table`` here, new (just made)."""
        room = self._rooms[table.id] = Room(table)
        return room

    async def room(self, table_id: str) -> tuple[Room, bool]:
        """The room of ``table_id``, and whether it was read from storage just now. One load at a
        time of each table; tables load side by side (a crowd starting new games)."""
        room = self._rooms.get(table_id)
        if room is not None:
            return room, False
        loading = self._loading.get(table_id)
        if loading is None:
            loading = self._loading[table_id] = asyncio.Lock()
        async with loading:
            room = self._rooms.get(table_id)
            if room is not None:
                return room, False
            if len(table_id) > 32:
                raise Refusal("not_found")
            table = await self._load(table_id)
            self._trim()
            room = self._rooms[table_id] = Room(table)
        return room, True

    def release(self, room: Room) -> None:
        """Forget a table nobody watches and no bot plays (storage keeps it), once it has stayed
        so for ``linger`` seconds: a table is most often asked for again within moments of
        going idle, and is then still here, not read from storage again."""
        if not room.idle() or not self.holds(room):
            return
        if room.linger is not None:
            room.linger.cancel()
        if self.settings.linger <= 0:
            self._forget(room)
        else:
            room.linger = asyncio.get_running_loop().call_later(self.settings.linger, self._forget, room)

    def _forget(self, room: Room) -> None:
        """Forget ``room`` if it is still idle and still this process's copy of its table."""
        if room.linger is not None:
            room.linger.cancel()
            room.linger = None
        if room.idle() and self.holds(room):
            del self._rooms[room.id]
            self._forgotten(room.id)

    def _trim(self) -> None:
        """Keep at most ``max_rooms`` tables in memory by forgetting idle ones (oldest loaded first)."""
        for table_id in [t for t, room in self._rooms.items() if room.idle()]:
            if len(self._rooms) < self.settings.max_rooms:
                break
            self._forget(self._rooms[table_id])
