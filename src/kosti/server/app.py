"""The web server: REST for tables, a WebSocket per table for play, and the page itself.

The server is authoritative. A client sends an action (a record action of RULES.md
§5, or ``"throw"``) with the table version it saw and its seat's secret token; the
server checks it against the rules, throws the dice itself, writes the resulting
log entry and only then broadcasts the new state to everyone at the table.

REST (JSON):

* ``POST /api/tables`` {variant, options, seats, mode, hints} → {id, invite, commitment, version}
* ``GET /api/tables/{id}`` → the table as everyone sees it
* ``POST /api/tables/{id}/join`` {name, client_seed} → {seat, token, version}
* ``POST /api/tables/{id}/bots`` {seat, level} → {seat, name, version}
* ``GET /api/tables/{id}/record`` → the record (the server seed only once the game is over)
* ``GET /api/presets?lang=`` and ``GET /api/rules/{variant}?lang=`` → the rules' data
* ``GET /api/words/{lang}`` → kosti's catalog of words (``ru``, ``en``) for the page
* ``GET /api/server`` → the limits and bot levels of this server

WebSocket ``/ws/{id}``: on connecting the client gets ``{"type": "state", "version", "table"}``
and gets one again after every change. It may send ``{"type": "action", "version",
"token", "action"}`` and ``{"type": "hint", "version", "token"}``; a refused message
is answered ``{"type": "error", "code", "reason", "version"}`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import anyio
from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError

from kosti.bots.base import Advisor, Bot
from kosti.errors import KostiError
from kosti.rules.presets import PRESETS, option_docs, variant
from kosti.server.messages import (
    NAME_LENGTH,
    ActionMessage,
    AddBot,
    CreateTable,
    HintMessage,
    JoinTable,
    client_message,
    reason,
)
from kosti.server.store import Store, StoreError, default_url
from kosti.server.table import BotFactory, Event, Refusal, Table, TableSettings, action_json

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"

HTTP_STATUS = {
    "not_found": 404,
    "stale": 409,
    "taken": 409,
    "full": 409,
    "started": 409,
    "name_taken": 409,
    "conflict": 409,
    "rate_limited": 429,
}

PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


@dataclass(frozen=True)
class ServerSettings:
    """How a server runs; the defaults suit a table of friends."""

    database_url: str | None = None
    """SQLAlchemy URL; ``None``: ``KOSTI_DATABASE_URL`` or SQLite in the user's data directory."""

    bot_delay: float = 0.6
    """Seconds a bot waits before each move, so that people can follow it."""

    message_limit: int = 4096
    """Largest WebSocket message accepted, in bytes; a larger one closes the connection."""

    rate: float = 10.0
    """WebSocket messages per second a connection may send on average …"""

    burst: int = 20
    """… and at once."""

    http_rate: float = 2.0
    """Table changes (create, join, bot) per second one address may make on average …"""

    http_burst: int = 60
    """… and at once."""

    watchers: int = 100
    """WebSocket connections one table accepts (players and spectators)."""

    max_rooms: int = 1000
    """Tables kept in memory; idle ones beyond this are forgotten and reloaded when needed."""

    bot_levels: tuple[str, ...] | None = None
    """Bot levels the page offers; ``None``: those ``kosti.bots.levels_for`` gives each family."""

    hint_levels: tuple[str, ...] = ("optimal", "heuristic")
    """Bots asked for hints, the first that can advise (implements ``Advisor``) answers."""


class TokenBucket:
    """``rate`` events a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


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


def create_app(
    settings: ServerSettings | None = None, bots: BotFactory | None = None, store: Store | None = None
) -> FastAPI:
    """The server application. Storage is ``store``, or opened (and migrated) when the application starts."""
    settings = settings or ServerSettings()
    bot_factory = bots or installed_bots
    http_buckets: dict[str, TokenBucket] = {}

    def bot_levels(family: str) -> list[str]:
        if settings.bot_levels is not None:
            return list(settings.bot_levels)
        levels_for = getattr(importlib.import_module("kosti.bots"), "levels_for", None)
        return list(levels_for(family)) if levels_for else []

    def open_store() -> Store:
        return Store(settings.database_url or default_url())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        opened: Store = store if store is not None else await anyio.to_thread.run_sync(open_store)
        app.state.hub = Hub(opened, settings, bot_factory)
        try:
            yield
        finally:
            await app.state.hub.close()

    app = FastAPI(title="kosti", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    @app.exception_handler(Refusal)
    async def refused(_request: Request, refusal: Refusal) -> Response:
        status = HTTP_STATUS.get(refusal.code, 400)
        return JSONResponse({"detail": refusal.reason, "code": refusal.code}, status_code=status)

    def limit(request: Request) -> None:
        address = request.client.host if request.client else "?"
        if len(http_buckets) > 10_000:
            http_buckets.clear()  # bounded memory; at worst a burst is allowed again
        bucket = http_buckets.setdefault(address, TokenBucket(settings.http_rate, settings.http_burst))
        if not bucket.take():
            raise Refusal("rate_limited", "too many requests: wait a moment")

    # -- the page ---------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    @app.get("/t/{table_id}", include_in_schema=False)
    async def page() -> Response:
        return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # -- rules ------------------------------------------------------------------

    @app.get("/api/presets")
    async def presets(lang: Annotated[str, Query(pattern="^(ru|en)$")] = "en") -> list[dict[str, Any]]:
        return [
            {"id": p.id, "family": p.family, "name": p.name(lang), "summary": p.summary(lang)}
            for p in PRESETS.values()
        ]

    @app.get("/api/rules/{spec}")
    async def rules(spec: str, lang: Annotated[str, Query(pattern="^(ru|en)$")] = "en") -> dict[str, Any]:
        try:
            rules_ = variant(spec)
        except KostiError as error:
            raise Refusal("bad_variant", str(error)) from None
        return {
            "id": rules_.preset.id,
            "spec": rules_.spec,
            "family": rules_.family,
            "name": rules_.preset.name(lang),
            "summary": rules_.preset.summary(lang),
            "options": {
                name: {"value": value, "doc": doc} for name, value, doc in option_docs(rules_.options)
            },
        }

    @app.get("/api/words/{lang}")
    async def words(lang: Annotated[str, PathParam(pattern="^(ru|en)$")]) -> dict[str, Any]:
        """kosti's catalog of ``lang`` (cells, hands, options, actions, the rules), by dotted key."""
        from kosti.i18n import messages

        return dict(messages(lang))

    @app.get("/api/server")
    async def server_info() -> dict[str, Any]:
        return {
            "bot_levels": {family: bot_levels(family) for family in ("sheet", "thousand", "showdown")},
            "message_limit": settings.message_limit,
            "name_length": NAME_LENGTH,
        }

    # -- tables -----------------------------------------------------------------

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request, body: CreateTable) -> dict[str, Any]:
        limit(request)
        table = await hub_of(request).create(body)
        return {"id": table.id, "invite": f"/t/{table.id}", "fair": table.fair(), "version": table.version}

    @app.get("/api/tables/{table_id}")
    async def get_table(request: Request, table_id: str) -> dict[str, Any]:
        room = await hub_of(request).room(table_id)
        return state_message(room.table)

    @app.post("/api/tables/{table_id}/join")
    async def join(request: Request, table_id: str, body: JoinTable) -> dict[str, Any]:
        limit(request)
        hub = hub_of(request)
        room = await hub.room(table_id)
        token = ""

        def plan(table: Table) -> list[Event]:
            nonlocal token
            events, token = table.plan_join(body.name, body.client_seed)
            return events

        await hub.change(room, plan)
        return {"seat": room.table.seat_of(token), "token": token, "version": room.table.version}

    @app.post("/api/tables/{table_id}/bots")
    async def add_bot(request: Request, table_id: str, body: AddBot | None = None) -> dict[str, Any]:
        limit(request)
        wanted = body or AddBot()
        hub = hub_of(request)
        room = await hub.room(table_id)
        seat: list[int] = []

        def plan(table: Table) -> list[Event]:
            events = table.plan_bot(wanted.seat, wanted.level)
            seat.append(events[0][1]["seat"])
            return events

        await hub.change(room, plan)
        occupant = room.table.seats[seat[0]]
        return {"seat": seat[0], "name": occupant.name if occupant else None, "version": room.table.version}

    @app.get("/api/tables/{table_id}/record")
    async def record(request: Request, table_id: str) -> dict[str, Any]:
        room = await hub_of(request).room(table_id)
        return room.table.record().to_json()

    # -- play -------------------------------------------------------------------

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        hub = hub_of(websocket)
        try:
            room = await hub.room(table_id)
        except Refusal as refusal:
            await websocket.send_json(error_message(refusal, None))
            await websocket.close(code=4404)
            return
        if len(room.sockets) >= settings.watchers:
            await websocket.send_json(
                error_message(Refusal("crowded", "too many people watch this table"), None)
            )
            await websocket.close(code=1013)
            return
        bucket = TokenBucket(settings.rate, settings.burst)
        room.sockets.add(websocket)
        try:
            await websocket.send_json(state_message(room.table))
            while True:
                incoming = await websocket.receive()
                if incoming["type"] == "websocket.disconnect":
                    break
                text = incoming.get("text")
                if text is None:
                    await _refuse(websocket, room, "bad_message", "messages are JSON text")
                    continue
                if len(text) > settings.message_limit or len(text.encode()) > settings.message_limit:
                    await _refuse(
                        websocket, room, "too_large", f"a message is {settings.message_limit} bytes at most"
                    )
                    await websocket.close(code=1009)
                    break
                if not bucket.take():
                    await _refuse(websocket, room, "rate_limited", "too many messages: slow down")
                    continue
                await _handle(hub, room, websocket, text)
        except WebSocketDisconnect:
            pass
        finally:
            room.sockets.discard(websocket)
            hub.release(room)

    async def _handle(hub: Hub, room: Room, websocket: WebSocket, text: str) -> None:
        try:
            message = client_message.validate_json(text)
        except ValidationError as error:
            await _refuse(websocket, room, "bad_message", reason(error))
            return
        try:
            if isinstance(message, ActionMessage):
                action = message

                def plan(table: Table) -> list[Event]:
                    return table.plan_action(action.token, action.version, action.action)

                await hub.change(room, plan)
            else:
                await websocket.send_json(await hub.hint(room, message))
        except Refusal as refusal:
            await websocket.send_json(error_message(refusal, room.table))
            if refusal.code == "stale":
                await websocket.send_json(state_message(room.table))

    async def _refuse(websocket: WebSocket, room: Room, code: str, why: str) -> None:
        await websocket.send_json(error_message(Refusal(code, why), room.table))

    return app


__all__ = ["ServerSettings", "TokenBucket", "create_app", "installed_bots"]
