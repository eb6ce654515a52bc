"""Play over a table's WebSocket ``/ws/{id}``: the state after every change, actions and hints in.

On connecting (``/ws/{id}?lang=ru`` for the log and bot names in Russian) the client
gets ``{"type": "state", "version", "table"}`` and gets one again after every change.
A client that connects with ``?changes=1`` gets, after the first state, ``{"type":
"change", "version", "since", "table", "log"}`` instead: the parts of the view that
differ from the version ``since`` it was shown last, and the log entries after it
(:func:`kosti.server.broadcast.change_message`); the whole state again after a stale move.
It may send ``{"type": "action", "version", "token", "action"}``, ``{"type": "hint",
"version", "token"}`` (answered ``{"type": "hint", "version", "seat", "text", "note", "advice"}``
when it is ready, to every socket of the seat: a page that reconnected meanwhile gets it), ``{"type":
"hello", "token"}`` (this socket is that seat's) and ``{"type": "ping"}``; at a
scorekeeper table also ``{"type": "undo", "version", "token"}`` and ``{"type": "edit",
"version", "token", "throw", "faces"}``; a seated player at an online table also ``{"type":
"emote", "token", "emote"}``, a quick phrase by its key (:mod:`kosti.server.emotes`), which
every socket at the table (on every worker) gets as ``{"type": "emote", "seat", "emote",
"version"}`` and words itself; it is kept nowhere. A refused message is answered
``{"type": "error", "code", "params", "reason", "version"}`` (RULES.md §4: the refusal's code
and params, and the reason worded in the socket's ``?lang=``) and changes nothing, and
``{"type": "notice", "code", "reason"}`` tells of trouble on the server's side
(``storage_lost``: the change waits for storage to come back).

Who gets in: a page of another origin than the server's (or the configured ones) is
refused before the handshake. A seated player always gets in (by ``hello``, or an
action); people without a seat get ``spectators`` places, and a silent spectator is
closed after ``idle_timeout``. Only JSON text frames are read: a binary frame closes
the socket, as does a message over ``message_limit`` bytes; every frame counts
against the socket's rate.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from kosti.server import wire
from kosti.server.broadcast import error_message, socket_language
from kosti.server.hub import Hub
from kosti.server.messages import (
    ActionMessage,
    EditMessage,
    EmoteMessage,
    HelloMessage,
    HintMessage,
    UndoMessage,
    client_message,
    reason,
)
from kosti.server.refusal import Refusal
from kosti.server.rooms import Room
from kosti.server.routes.deps import HubDep, SettingsDep
from kosti.server.settings import ServerSettings, TokenBucket

router = APIRouter()
log = logging.getLogger(__name__)


def origin_allowed(websocket: WebSocket, settings: ServerSettings) -> bool:
    """Whether the page that opens this socket may: no Origin (not a browser), the server's own
    origin (same host and port as the request's Host), or one of ``allowed_origins``."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    if "*" in settings.allowed_origins or origin.rstrip("/") in settings.allowed_origins:
        return True
    host = websocket.headers.get("host")
    return host is not None and urlsplit(origin).netloc.lower() == host.lower()


class Connection:
    """One socket at one table: its seat once known, its rate, what it sends."""

    def __init__(self, hub: Hub, room: Room, websocket: WebSocket, settings: ServerSettings) -> None:
        self.hub = hub
        self.room = room
        self.websocket = websocket
        self.settings = settings
        self.bucket = TokenBucket(settings.rate, settings.burst)
        self.hints: set[asyncio.Task[None]] = set()
        """The hints being worked out for this socket (kept here, so that none is collected)."""

    @property
    def seat(self) -> int | None:
        return self.hub.seat_of(self.room, self.websocket)

    async def receive(self, timeout: float | None, silent: str = "idle") -> str | None:
        """The next text message, or ``None`` when the socket is (to be) closed; after ``timeout``
        seconds of silence it is closed with the refusal whose code is ``silent``."""
        try:
            incoming = await asyncio.wait_for(self.websocket.receive(), timeout)
        except TimeoutError:
            await self.refuse(Refusal(silent))
            await self.websocket.close(code=1001 if silent == "idle" else 1013)
            return None
        if incoming["type"] == "websocket.disconnect":
            return None
        if not self.bucket.take():
            await self.refuse(Refusal("rate_limited", why="messages"))
            return ""
        text: str | None = incoming.get("text")
        if text is None:
            await self.refuse(Refusal("bad_message", why="binary"))
            await self.websocket.close(code=1003)
            return None
        if len(text) > self.settings.message_limit or len(text.encode()) > self.settings.message_limit:
            await self.refuse(Refusal("too_large", n=self.settings.message_limit))
            await self.websocket.close(code=1009)
            return None
        return text

    def sit(self, token: str) -> None:
        """Count this socket as the seat of ``token`` (:class:`Refusal` for a token of no seat); the
        seat's oldest socket goes beyond ``seat_sockets``."""
        for old in self.hub.sit(self.room, self.websocket, token):
            asyncio.get_running_loop().create_task(_close(old, 4009))

    async def refuse(self, refusal: Refusal) -> None:
        """Answer with ``refusal``, worded in the socket's language."""
        lang = socket_language(self.websocket)
        await self.send(error_message(refusal, self.hub.version(self.room), lang))

    async def send(self, message: dict[str, Any]) -> None:
        await self.websocket.send_text(wire.text(message))

    async def send_state(self) -> None:
        """The table as this socket's reader sees it (``?lang=``), with the clock's time left."""
        await self.hub.show_state(self.room, self.websocket)

    async def handle(self, text: str) -> None:
        try:
            message = client_message.validate_json(text)
        except ValidationError as error:
            await self.refuse(Refusal("bad_message", why="form", detail=reason(error)))
            return
        try:
            if isinstance(
                message, HelloMessage | ActionMessage | HintMessage | UndoMessage | EditMessage | EmoteMessage
            ):
                self.sit(message.token)
            if isinstance(message, ActionMessage | UndoMessage | EditMessage):
                await self.hub.act(self.room, message)
            elif isinstance(message, EmoteMessage):
                await self.hub.phrases.say(self.room, message)
            elif isinstance(message, HintMessage):
                # worked out aside: the socket reads on meanwhile, and the answer finds the
                # seat's socket when it is ready, a new one if the page reconnected
                task = asyncio.get_running_loop().create_task(self.hint(message))
                self.hints.add(task)
                task.add_done_callback(self.hints.discard)
            elif isinstance(message, HelloMessage):
                await self.send_state()
            else:
                await self.send({"type": "pong", "version": self.hub.version(self.room)})
        except Refusal as refusal:
            await self.refuse(refusal)
            if refusal.code == "stale":
                await self.send_state()

    async def hint(self, message: HintMessage) -> None:
        """The hint of ``message`` to the seat's sockets (:meth:`Hub.tell_hint`); a refusal to this one."""
        try:
            await self.hub.tell_hint(self.room, message, self.websocket)
        except Refusal as refusal:
            with contextlib.suppress(Exception):  # the socket may have gone meanwhile
                await self.refuse(refusal)
                if refusal.code == "stale":
                    await self.send_state()
        except Exception:
            log.exception("a hint at table %s failed", self.room.id)


async def _close(websocket: WebSocket, code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.close(code=code)


@router.websocket("/ws/{table_id}")
async def play(websocket: WebSocket, table_id: str, hub: HubDep, settings: SettingsDep) -> None:
    if not origin_allowed(websocket, settings):
        await websocket.close(code=1008)  # before the handshake: the browser sees a 403
        return
    # the handshake names the worker process that serves the socket (kosti serve --workers)
    await websocket.accept(headers=[(b"x-kosti-worker", str(settings.worker).encode())])
    try:
        room = await hub.room(table_id)
    except Refusal as refusal:
        await websocket.send_text(wire.text(error_message(refusal, None, socket_language(websocket))))
        await websocket.close(code=4404 if refusal.code == "not_found" else 1011)
        return
    connection = Connection(hub, room, websocket, settings)
    try:
        pending: str | None = ""
        if hub.crowded(room):
            pending = await _seated(connection)
            if pending is None:
                return
        room = connection.room = await hub.watch(room, websocket)  # loaded again if forgotten meanwhile
        await connection.send_state()
        if pending:
            await connection.handle(pending)
        while True:
            timeout = settings.idle_timeout if connection.seat is None else None
            text = await connection.receive(timeout)
            if text is None:
                break
            if text:
                await connection.handle(text)
    except WebSocketDisconnect:
        pass
    finally:
        hub.leave_socket(room, websocket)


CROWDED = "crowded"
"""The refusal of a socket at a table full of spectators that shows no seat's token in time."""


async def _seated(connection: Connection) -> str | None:
    """At a table full of spectators: whether this socket shows a seat's token in time.

    ``None``: it did not, and is closed; else its first message still to be handled
    (``""`` for a ``hello``, which needs no more).
    """
    text = await connection.receive(connection.settings.hello_timeout, CROWDED)
    if text is None:
        return None
    message = None
    with contextlib.suppress(ValidationError):
        message = client_message.validate_json(text)
    if isinstance(message, HelloMessage | ActionMessage | HintMessage):
        try:
            connection.sit(message.token)
        except Refusal:
            pass
        else:
            return "" if isinstance(message, HelloMessage) else text
    await connection.refuse(Refusal(CROWDED))
    await connection.websocket.close(code=1013)
    return None
