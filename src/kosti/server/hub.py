"""The tables a server process holds in memory, and the one path every change takes.

A change is planned under the table's lock (:mod:`kosti.server.table`: pure), written
to storage and committed, and only then applied and shown to the table's sockets
("committed before broadcast": a server killed at any moment has lost nothing it
has shown). The database's unique (table, version) key keeps one order of events
per table across processes: a process whose copy of a table is behind loses the
write, reads what it missed from the log, and refuses the request as stale. Each
commit is then published (:mod:`kosti.server.bus`) for the other processes' sockets.
Bots move from here too, in the process that holds the table's lease, and so does a
timed table's clock: a move not made within the table's timer goes to a stand-in bot
(``timeout``), and a table whose players are all away for another timer's length is
abandoned. A process that starts takes on the tables left in play whose bots or clock may be
due (:meth:`Hub.resume`): bots alone, stand-ins, timed moves go on after a restart though
nobody opens the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import math
import secrets
import time
import weakref
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import anyio
from fastapi import WebSocket

from kosti.actions import action_json
from kosti.bots.base import Advisor, Bot
from kosti.errors import KostiError
from kosti.i18n import catalog, refusal_text
from kosti.levels import make_bot
from kosti.phrases import hint_text
from kosti.rules.presets import Variant, variant
from kosti.server import wire
from kosti.server.bus import Bus, Changes, LocalBus
from kosti.server.commits import WRITERS, Committer
from kosti.server.dispatch import home, homed_id
from kosti.server.limits import address_group, check_options
from kosti.server.messages import CreateTable, HintMessage
from kosti.server.refusal import Refusal
from kosti.server.settings import ServerSettings
from kosti.server.store import POOL_SIZE, StorageDown, Store, StoreError
from kosti.server.table import LOG_TAIL, BotFactory, Event, Table, TableSettings, token_hash

log = logging.getLogger(__name__)

STORAGE_LOST = "connection to storage lost, retrying"

OPEN_TABLES = 50
"""Open tables the lobby lists at most."""

STORAGE_THREADS = POOL_SIZE - WRITERS
"""Threads a process's storage calls run in, each with a connection of the pool (the committer's
writers hold the others)."""

LIVE_FRESH = 1.0
"""Seconds a count of the live tables is used for (with the tables made here since) while it is
far from the cap (:data:`LIVE_MARGIN`): counting them all in storage for every new table costs
more than making it. Close to the cap they are counted each time."""

TOUCHES = 10
"""How many times at most, within :attr:`~kosti.server.settings.ServerSettings.idle_expiry`, a
busy table's activity is stored (:meth:`Store.touch`): a write now and then, not one a move."""

END_RETRY = 5.0
"""Seconds at most between the tries to mark a game over once the change that ended it has given up
waiting for storage (:meth:`Hub._finish_later`)."""

LIVE_MARGIN = 100
"""How far under the cap (or a tenth of it, if more) a count must be to be used again: the
tables other processes make within :data:`LIVE_FRESH` seconds, which it does not know of."""


@functools.cache
def _preset(spec: str) -> Any:
    """The preset of a canonical variant string (parsed once)."""
    return variant(spec).preset


def installed_bots(level: str, rules: Variant, seed: int) -> Bot:
    """A bot from :func:`kosti.levels.make_bot`; :class:`KostiError` when none of that level plays
    ``rules`` now (an unsolved full-size «Тысяча» has no optimal bot: its solve takes hours)."""
    try:
        return make_bot(level, rules, seed)
    except (KostiError, LookupError) as error:
        raise KostiError(f"no {level} bot for {rules.spec}: {error}") from None


@dataclass(eq=False)
class Room:
    """A table in memory with the sockets watching it here (each with its seat, or ``None``)."""

    table: Table
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
    """The view (:meth:`Table.body`) last shown here in each language, with its version: what a
    ``change`` is reckoned from."""
    linger: asyncio.TimerHandle | None = None
    """When the table, idle, is to be forgotten (:meth:`Hub.release`)."""
    touched: float = -math.inf
    """When this process last stored that something happened at the table (:meth:`Hub._touch`)."""

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


class Hub:
    """The tables in memory, loaded from storage on first use; all changes go through here."""

    def __init__(
        self, store: Store, settings: ServerSettings, bots: BotFactory, bus: Bus | None = None
    ) -> None:
        self.store = store
        self.settings = settings
        self.bots = bots
        self.bus: Bus = bus or LocalBus()
        self.committer = Committer(store)
        self._threads = ThreadPoolExecutor(STORAGE_THREADS, thread_name_prefix="kosti-storage")
        self.rooms: dict[str, Room] = {}
        self._loading: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        """The lock of each table being loaded, while someone holds or awaits it."""
        self._advisors: dict[str, Advisor | None] = {}
        self.levels: tuple[str, ...] = settings.bot_levels or ("random", "heuristic", "optimal")
        """The bot levels a table may offer; each table keeps those that play its variant."""
        self._sweeper: asyncio.Task[None] | None = None
        self._resumer: asyncio.Task[None] | None = None
        self._finishing: set[asyncio.Task[None]] = set()
        """Games whose end is still to be marked in storage (:meth:`_finish_later`)."""
        store.idle_after = timedelta(seconds=settings.idle_expiry)
        self._live = (-LIVE_FRESH, 0)
        """When the live tables were last counted (``time.monotonic()``), and the count plus the
        tables made here since."""

    async def start(self) -> None:
        """Listen to the other processes, take over the bots of tables whose owner went quiet, and
        (in the background) take on the tables left in play when the server stopped (:meth:`resume`)."""
        await self.bus.start(self.published, self.reconnected)
        if not isinstance(self.bus, LocalBus):
            self._sweeper = asyncio.create_task(self._sweep())
        self._resumer = asyncio.create_task(self.resume())

    # -- tables ------------------------------------------------------------

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
            mine = await self._storage(self.store.live, creator)
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
        table = self._new_table(settings)
        token = owner
        events: list[Event] = []
        if body.name is not None:
            events, token = table.plan_join(body.name, body.client_seed)
        # a table whose creator sits down is listed once they are seated (as any join lists the
        # seats held): until then nobody knows its id, so nobody can take their seat
        room = await self._store_room(table, creator, listed=not events)
        await self._commit(room, events)
        self.release(room)  # nobody is watching it yet: the sockets that come load it
        return room.table, token

    async def _live_tables(self) -> int:
        """The live tables of every process (:meth:`Store.live`), counted at most
        :data:`LIVE_FRESH` seconds ago while far from the cap."""
        counted, known = self._live
        now = time.monotonic()
        cap = self.settings.max_tables
        if now - counted > LIVE_FRESH or known >= cap - max(cap // 10, LIVE_MARGIN):
            known = await self._storage(self.store.live)
            self._live = (now, known)
        return known

    def _new_table(self, settings: TableSettings) -> Table:
        """A new table with its id and server seed, not yet stored."""
        seed = secrets.token_bytes(32) if settings.mode == "online" else None
        table_id = homed_id(self.settings.worker, self.settings.workers)
        return Table(table_id, settings, seed, self.bots, self.settings.stand_in, self.levels)

    async def _store_room(self, table: Table, creator: str | None, listed: bool = True) -> Room:
        """Store the new ``table`` (a public one ``listed`` among the open tables now, with no seat
        held) and hold it here."""
        await self.bus.follow(table.id)
        taken = 0 if listed and not table.settings.private else None
        data = table.settings.to_json()
        await self._storage(self.store.create, table.id, data, table.server_seed, creator, taken)
        self._live = (self._live[0], self._live[1] + 1)
        room = self.rooms[table.id] = Room(table)
        room.touched = time.monotonic()  # stored as active when made
        return room

    async def _new_room(self, settings: TableSettings, creator: str | None) -> Room:
        return await self._store_room(self._new_table(settings), creator)

    async def rematch(self, room: Room, token: str) -> str:
        """The table of the rematch of ``room``'s game, made now if nobody has asked before:
        the same game and seats, bots seated, each player's seat kept for them."""
        async with room.lock:
            old = room.table
            if old.rematch is not None:
                old.seat_of(token)
                return old.rematch
            old.plan_rematch(token, "")  # refuse before a table is made for nothing
            new = await self._new_room(old.settings, None)
            await self._commit(new, new.table.plan_reserve(old.seats))
            await self._commit(room, old.plan_rematch(token, new.table.id))
        self.release(new)
        return new.table.id

    async def open_tables(self, lang: str) -> list[dict[str, Any]]:
        """The public tables still waiting for players, newest first, as storage lists them:
        those of every process of the server."""
        found = []
        for table_id, data, taken in await self._storage(self.store.waiting, OPEN_TABLES):
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

    async def room(self, table_id: str) -> Room:
        """The table ``table_id``, rebuilt from its log if it is not in memory."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        # one load at a time of each table; tables load side by side (a crowd starting new games)
        loading = self._loading.get(table_id)
        if loading is None:
            loading = self._loading[table_id] = asyncio.Lock()
        async with loading:
            room = self.rooms.get(table_id)
            if room is not None:
                return room
            if len(table_id) > 32:
                raise Refusal("not_found")
            # heard from before the log is read: each commit is in what is read or in what is heard
            await self.bus.follow(table_id)
            try:
                stored = await self._storage(self.store.load, table_id)
            except Refusal:
                self.bus.unfollow(table_id)
                raise
            if stored is None:
                self.bus.unfollow(table_id)
                raise Refusal("not_found")
            settings = TableSettings.from_json(stored.settings)
            table = Table(
                stored.id, settings, stored.server_seed, self.bots, self.settings.stand_in, self.levels
            )
            for entry in stored.events:
                table.apply(entry)
            self._trim()
            room = self.rooms[table_id] = Room(table)
        # a commit published while the log was read went to nobody here: read it now
        async with room.lock:
            await self._catch_up(room)
        self.kick_bot(room)
        return room

    @contextlib.asynccontextmanager
    async def visit(self, table_id: str) -> AsyncIterator[Room]:
        """The table ``table_id`` (:meth:`room`) for one request, forgotten after it unless someone
        is at it: a process holds in memory, and hears the commits of, the tables it serves."""
        room = await self.room(table_id)
        try:
            yield room
        finally:
            self.release(room)

    async def _storage(self, call: Callable[..., Any], *args: Any) -> Any:
        """``call(*args)`` in a thread; an outage is a :class:`Refusal` saying so.

        The threads are a plain executor's: anyio's hand-over (a capacity limiter, a cancel
        scope, a look-up of the running library) cost more than the statement itself."""
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self._threads, functools.partial(call, *args)
            )
        except StorageDown:
            raise Refusal("storage_down", why="retry") from None

    # -- changes -----------------------------------------------------------

    async def change(self, room: Room, plan: Callable[[Table], list[Event]]) -> None:
        """Plan events under the table's lock, store them, apply them, show them.

        When another process wrote first, ``plan`` is asked once more, of the table as that
        write left it: a request that names no version (a join, a bot seated) then goes
        through, and one that does (a move) is refused by its plan as stale.
        """
        async with room.lock:
            if not await self._try_commit(room, plan(room.table)):
                await self._commit(room, plan(room.table))

    async def _commit(self, room: Room, events: list[Event]) -> None:
        """:meth:`_try_commit`, a write that another process made first refused as stale."""
        version = room.table.version
        if not await self._try_commit(room, events):
            raise Refusal("stale", why="commit", version=room.table.version, yours=version)

    async def _try_commit(self, room: Room, events: list[Event]) -> bool:
        """Write ``events`` after the table's version, then apply, show and publish them; ``False``
        if another process wrote that version first (what it wrote is read and shown first).

        Storage that cannot be reached is retried for ``storage_retry`` seconds, the
        table's sockets told meanwhile.
        """
        if not events:
            return True
        table = room.table
        version = table.version
        was_waiting = table.status == "waiting"
        if not await self._append(room, version, events):
            await self._catch_up(room)
            return False
        for entry in events:
            table.apply(entry)
        if table.over:  # stored before it is shown: whoever saw the end no longer finds it live
            await self._mark_over(room)
        else:
            self._touch(room)
        changes = await self.broadcast(room)
        await self.bus.publish(table.id, version, events, changes)
        if was_waiting and not table.settings.private:
            await self._list(table)
        await self._after_change(room)
        return True

    async def _list(self, table: Table) -> None:
        """Tell storage the seats now held at a public table that was waiting (none: it started)."""
        taken = len(table.seats) - table.free_seats() if table.status == "waiting" else None
        try:
            await self._storage(self.store.set_taken, table.id, taken)
        except Refusal:  # committed already: the lobby is only a little behind
            log.warning("could not list the seats of table %s", table.id)

    async def _append(self, room: Room, version: int, events: list[Event]) -> bool:
        """Whether ``events`` are now stored after ``version`` (``False``: another writer was first)."""
        table_id = room.table.id
        outage = _Outage(time.monotonic() + self.settings.storage_retry)
        while True:
            try:
                await self.committer.append(table_id, version, events)
                break
            except StorageDown:
                if not await self._wait_for_storage(room, outage, "the write"):
                    await self.notify(
                        room, "storage_down", "storage is still unreachable: nothing was changed"
                    )
                    raise Refusal("storage_down", why="unchanged") from None
            except StoreError:
                if not outage.told:
                    return False
                # the write may have gone through before the connection broke: is it ours?
                stored = await self._storage(self.store.since, table_id, version)
                if _same(stored[: len(events)], events):
                    break
                return False
        if outage.told:
            await self.notify(room, "storage_back", "connection to storage restored")
        return True

    async def _wait_for_storage(self, room: Room, outage: _Outage, what: str) -> bool:
        """Wait a little longer (longer each time) for storage that cannot be reached, the table's
        sockets told the first time; ``False``, without waiting, once ``storage_retry`` is spent."""
        if not outage.told:
            log.warning("storage is unreachable; retrying %s of table %s", what, room.table.id)
            await self.notify(room, "storage_lost", STORAGE_LOST)
            outage.told = True
        if time.monotonic() + outage.pause > outage.deadline:
            return False
        await asyncio.sleep(outage.pause)
        outage.pause = min(outage.pause * 2, 1.0)
        return True

    async def _mark_over(self, room: Room) -> None:
        """Store that the game of ``room``'s table is over (its last move is stored already), an
        outage waited out as a write's is (:meth:`_wait_for_storage`). Storage still down after
        ``storage_retry``: the end is shown all the same, for the move that made it is stored, and
        the mark is written in the background once storage is back (:meth:`_finish_later`)."""
        outage = _Outage(time.monotonic() + self.settings.storage_retry)
        while True:
            try:
                await self._storage(self.store.finish, room.table.id)
                break
            except Refusal as refusal:
                if refusal.code != "storage_down":
                    raise
                if not await self._wait_for_storage(room, outage, "the end mark"):
                    task = asyncio.create_task(self._finish_later(room))
                    self._finishing.add(task)
                    task.add_done_callback(self._finishing.discard)
                    return
        if outage.told:
            await self.notify(room, "storage_back", "connection to storage restored")

    async def _finish_later(self, room: Room) -> None:
        """Mark the game of ``room``'s table over once storage is back, trying every
        :data:`END_RETRY` seconds at most; the table's sockets are told when it is stored."""
        pause = 0.5
        while True:
            await asyncio.sleep(pause)
            try:
                await self._storage(self.store.finish, room.table.id)
            except Refusal:
                pause = min(pause * 2, END_RETRY)
                continue
            log.warning("storage is back: the end of table %s is stored", room.table.id)
            await self.notify(room, "storage_back", "connection to storage restored")
            return

    def _touch(self, room: Room) -> None:
        """Store, in the background, that something has happened at ``room``'s table: at most
        :data:`TOUCHES` times within ``idle_expiry``, so that a table in play goes on counting as
        live (:attr:`Store.idle_after`) for the cost of a write now and then."""
        now = time.monotonic()
        if now - room.touched < self.settings.idle_expiry / TOUCHES:
            return
        room.touched = now
        stored = asyncio.get_running_loop().run_in_executor(self._threads, self.store.touch, room.table.id)
        stored.add_done_callback(functools.partial(_touched, room))

    async def _after_change(self, room: Room) -> None:
        self.kick_bot(room)
        self.wind_clock(room)

    async def _catch_up(self, room: Room) -> bool:
        """Apply what the log holds beyond the table's version (another process wrote it); any?"""
        missed = await self._storage(self.store.since, room.table.id, room.table.version)
        for entry in missed:
            room.table.apply(entry)
        if missed:
            await self.broadcast(room)
        return bool(missed)

    async def published(
        self, table_id: str, version: int, events: list[Event], changes: Changes | None = None
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
                await self._catch_up(room)  # a gap: the log has what was missed
            else:
                fresh = events[table.version - version :]
                for entry in fresh:
                    table.apply(entry)
                if fresh:
                    await self.broadcast(room, self._adopt(room, version + len(events), changes or {}))
        self.kick_bot(room)
        self.wind_clock(room)

    @staticmethod
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
            room.table.adopt_body(version, lang, body)
            usable[lang] = (since, text)
        return usable

    async def reconnected(self) -> None:
        """The bus was cut off: every table here may have missed commits."""
        for room in list(self.rooms.values()):
            async with room.lock:
                with contextlib.suppress(Refusal):
                    await self._catch_up(room)
            self.kick_bot(room)

    # -- showing -----------------------------------------------------------

    async def broadcast(self, room: Room, ready: Changes | None = None) -> Changes:
        """The table's new version to every socket here, worded in each one's language; the turn
        timer starts again from here. What it returns: the ``change`` sent in each language, with
        the version it is reckoned from.

        A socket that asked for changes (``?changes=1``) and was shown the version before gets
        a ``change`` (the parts of the view that differ, and the new log entries), any other the
        whole ``state``. The view is computed once a version and language, and each message
        serialised once: every socket that gets it is sent the same text. A change in ``ready``
        (another process's, reckoned from the same version) is sent as it is.
        """
        room.since = time.monotonic()
        table = room.table
        left = room.seconds_left()
        texts: dict[tuple[str, bool], str] = {}
        made: Changes = {}
        sends: list[tuple[WebSocket, str]] = []
        for socket in list(room.sockets):
            lang = socket_language(socket)
            last = room.bodies.get(lang)
            since = room.shown.get(socket)
            change = (
                wants_changes(socket)
                and last is not None
                and since == last[0]
                and 0 < table.version - last[0] <= LOG_TAIL
            )
            key = (lang, change)
            if key not in texts:
                if change and last is not None:
                    given = (ready or {}).get(lang)
                    if given is not None and given[0] == last[0]:
                        texts[key] = given[1]
                    else:
                        texts[key] = wire.text(change_message(table, lang, last, left))
                    made[lang] = (last[0], texts[key])
                else:
                    texts[key] = wire.text(state_message(table, lang, left))
            room.shown[socket] = table.version
            sends.append((socket, texts[key]))
        # what every socket was shown is settled before the first send lets anything else run
        for lang, _ in texts:
            room.bodies[lang] = (table.version, table.body(lang))
        for socket, text in sends:
            await self._send(room, socket, text)
        return made

    async def show_state(self, room: Room, socket: WebSocket) -> None:
        """The whole ``state`` to one socket (on connecting, after a stale move), with the clock's
        time left; later versions reach it as changes if it asked for them."""
        table = room.table
        lang = socket_language(socket)
        room.shown[socket] = table.version
        room.bodies[lang] = (table.version, table.body(lang))
        await self._send(room, socket, wire.text(state_message(table, lang, room.seconds_left())))

    async def notify(self, room: Room, code: str, text: str) -> None:
        message = {"type": "notice", "code": code, "reason": text, "version": room.table.version}
        await self._send_all(room, wire.text(message))

    async def _send_all(self, room: Room, text: str) -> None:
        for socket in list(room.sockets):
            await self._send(room, socket, text)

    @staticmethod
    async def _send(room: Room, socket: WebSocket, text: str) -> None:
        try:
            await socket.send_text(text)
        except Exception:  # a socket that cannot be written to has gone
            log.info("dropping a socket of table %s", room.table.id, exc_info=True)
            room.drop(socket)

    # -- the clock ---------------------------------------------------------

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
            if not await self.bus.claim(room.table.id):
                return  # the process that drives this table keeps its clock
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

    # -- bots --------------------------------------------------------------

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
                if not await self.bus.claim(room.table.id):
                    return  # another process drives this table; the sweeper looks again
                if not room.driven:
                    # listed: should this process die, another finds the table (bots alone too)
                    await self.bus.drive(room.table.id, True)
                    room.driven = True
                async with room.lock:
                    table = room.table
                    events = await anyio.to_thread.run_sync(table.plan_bot_move)
                    if not events:
                        return
                    try:
                        await self._commit(room, events)
                    except Refusal as refusal:
                        if refusal.code == "storage_down":
                            return
                        # stale: another process moved first; look at the table again
            if room.driven:
                await self.bus.drive(room.table.id, False)
                room.driven = False
        except Exception:
            log.exception("the bots of table %s stopped", room.table.id)

    async def _sweep(self) -> None:
        """Now and then, start the bots and clocks of every table here that are due but stopped
        (they stop when another process holds the lease: that process may be dead by now), and
        take on the tables whose bots nobody drives any more, those that nobody watches too."""
        while True:
            await asyncio.sleep(self.settings.lease)
            for room in list(self.rooms.values()):
                self.kick_bot(room)
                if room.clock_task is None or room.clock_task.done():
                    self.wind_clock(room)
            for table_id in await self.bus.orphans():
                try:
                    room = await self.room(table_id)  # loading it starts its bots
                except Refusal:
                    continue
                if room.table.bot_to_move() is None:
                    await self.bus.drive(table_id, False)  # its driver died as its bots stopped

    async def resume(self) -> None:
        """Take on the tables left in play (:meth:`Store.unfinished`): start the bots and clocks
        that are due, as opening the table would, and mark over a game whose end was stored
        without its mark. With several workers each takes on the tables whose home it is (the
        lease decides should another drive one already). Run once, at the start, in the
        background, one table at a time; a timed move is given its whole time again."""
        try:
            found: list[str] = await self._storage(self.store.unfinished)
        except Refusal:
            log.warning("storage is unreachable: the tables left in play go on once opened")
            return
        workers = self.settings.workers
        resumed = 0
        for table_id in found:
            if workers > 1 and home(table_id, workers) != self.settings.worker:
                continue
            try:
                room = await self.room(table_id)  # loading it starts its bots
            except Refusal:
                continue
            except Exception:  # one table that cannot be read must not keep the others waiting
                log.exception("could not take on table %s", table_id)
                continue
            if room.table.over:
                with contextlib.suppress(Refusal):
                    await self._storage(self.store.finish, table_id)
            elif room.clock_task is None or room.clock_task.done():
                self.wind_clock(room)
            if not self._idle(room):
                resumed += 1
            self.release(room)
        if resumed:
            log.info("took on %d tables left in play", resumed)

    # -- memory ------------------------------------------------------------

    def release(self, room: Room) -> None:
        """Forget a table nobody watches and no bot plays (storage keeps it), once it has stayed
        so for ``linger`` seconds. A table is most often asked for again within moments of
        going idle (the next player joining a table just made, the players' sockets
        connecting after they joined, a reconnect): it is still here, heard of from the
        other processes, and is not read from storage again."""
        if not self._idle(room) or self.rooms.get(room.table.id) is not room:
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
        if self._idle(room) and self.rooms.get(room.table.id) is room:
            del self.rooms[room.table.id]
            self.bus.unfollow(room.table.id)

    @staticmethod
    def _idle(room: Room) -> bool:
        quiet = all(task is None or task.done() for task in (room.bot_task, room.clock_task))
        return quiet and not room.sockets and not room.lock.locked()

    def _trim(self) -> None:
        """Keep at most ``max_rooms`` tables in memory by forgetting idle ones (oldest loaded first)."""
        for table_id in [t for t, room in self.rooms.items() if self._idle(room)]:
            if len(self.rooms) < self.settings.max_rooms:
                break
            self._forget(self.rooms[table_id])

    # -- hints -------------------------------------------------------------

    def advisor(self, rules: Variant) -> Advisor | None:
        """The bot that gives hints for ``rules``, if one can: the first of the hint levels whose
        bot plays this variant now (the bot factory refuses an optimal «Тысяча» bot until the
        variant's exact values are at hand, so a hint never starts an hours-long solve)."""
        if rules.spec not in self._advisors:
            found: Advisor | None = None
            for level in self.settings.hint_levels:
                try:
                    bot = self.bots(level, rules, 0)
                except KostiError:
                    continue
                if isinstance(bot, Advisor):
                    found = bot
                    break
            self._advisors[rules.spec] = found
        return self._advisors[rules.spec]

    async def hint(self, room: Room, message: HintMessage, lang: str = "en") -> dict[str, Any]:
        """The advisor's best decisions (:class:`~kosti.bots.base.Advice`) and the hint line of the
        terminal game in ``lang`` (:func:`kosti.phrases.hint_text`)."""
        async with room.lock:
            state = room.table.check_hint(message.token, message.version)
        advisor = self.advisor(room.table.rules)
        if advisor is None:
            raise Refusal("no_hints", why="bots")
        advice = await anyio.to_thread.run_sync(advisor.advise, state)
        style = "cards" if getattr(room.table.rules.options, "faces", "pips") == "cards" else "pips"
        return {
            "type": "hint",
            "version": message.version,
            "text": hint_text(room.table.rules.family, advice, catalog(lang), style, state),
            "advice": [
                {"action": action_json(a.action), "value": a.value, "loss": a.loss, "chance": a.chance}
                for a in advice[:5]
            ],
        }

    async def close(self) -> None:
        # stopped before the tables' own tasks: they load tables and start bots
        for task in (self._sweeper, self._resumer, *self._finishing):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for room in list(self.rooms.values()):
            for task in (room.bot_task, room.clock_task):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
        await self.committer.close()
        await self.bus.close()
        self._threads.shutdown(wait=False, cancel_futures=True)
        self.store.close()


@dataclass
class _Outage:
    """A change waiting for storage to come back: until when, the next pause, and whether the
    table's sockets have been told."""

    deadline: float
    pause: float = 0.05
    told: bool = False


def _touched(room: Room, stored: asyncio.Future[None]) -> None:
    """A table's activity was stored, or not: then the next change tries again."""
    if stored.cancelled() or stored.exception() is not None:
        room.touched = -math.inf


def _same(stored: list[Event], ours: list[Event]) -> bool:
    def key(events: list[Event]) -> str:
        return json.dumps([list(e) for e in events], sort_keys=True)

    return key(stored) == key(ours)


def socket_language(socket: WebSocket) -> str:
    """The language a socket asked for (``/ws/{id}?lang=ru``): ``ru`` or ``en``."""
    return "ru" if socket.query_params.get("lang") == "ru" else "en"


def wants_changes(socket: WebSocket) -> bool:
    """Whether a socket asked for ``change`` messages after the first state (``?changes=1``)."""
    return socket.query_params.get("changes") == "1"


def state_message(table: Table, lang: str = "en", seconds_left: float | None = None) -> dict[str, Any]:
    """The ``state`` message: the table as ``lang``'s readers see it, with the timed move's time left."""
    view = table.view(lang)
    view["seconds_left"] = _seconds(seconds_left)
    return {"type": "state", "version": table.version, "table": view}


def change_message(
    table: Table, lang: str, last: tuple[int, dict[str, Any]], seconds_left: float | None = None
) -> dict[str, Any]:
    """The ``change`` message from the view ``last`` = (its version, :meth:`Table.body`) to the
    table now: ``table`` holds the parts of the view that differ (and the time left), ``log``
    the log entries after ``since``. The view at ``version`` is the one at ``since`` with the
    parts of ``table`` replaced and ``log`` appended to its log (of which the last
    :data:`~kosti.server.table.LOG_TAIL` entries are kept)."""
    since, before = last
    body = table.body(lang)
    changed = {key: value for key, value in body.items() if before.get(key) != value}
    changed["seconds_left"] = _seconds(seconds_left)
    return {
        "type": "change",
        "version": table.version,
        "since": since,
        "table": changed,
        "log": table.log_after(since, lang),
    }


def _seconds(left: float | None) -> float | None:
    return None if left is None else round(left, 1)


def error_message(refusal: Refusal, table: Table | None, lang: str = "en") -> dict[str, Any]:
    """The socket's ``error`` message of ``refusal``: its code and params, and its wording in
    the reader's language (:func:`socket_language`) as ``reason``."""
    return {
        "type": "error",
        "code": refusal.code,
        "params": refusal.params,
        "reason": refusal_text(refusal, lang),
        "version": table.version if table else None,
    }
