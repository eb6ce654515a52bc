"""Showing a table to the sockets watching it here: the whole state, or what changed since the last one.

On connecting (``/ws/{id}?lang=ru``) a socket is sent the whole ``state`` in its language,
and one again after every change; a socket that asked for changes (``?changes=1``) gets a
``change`` instead: the parts of the view that differ from the version it was shown last,
and the log entries after it. Every message is serialised once for every socket it goes to.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from kosti.i18n import refusal_text
from kosti.server import wire
from kosti.server.refusal import Refusal
from kosti.server.view import LOG_TAIL, TableView

if TYPE_CHECKING:  # the messages below are made in the browser too (kosti.web), with no FastAPI
    from fastapi import WebSocket

    from kosti.server.bus import Changes
    from kosti.server.hints import Advised
    from kosti.server.rooms import Room

log = logging.getLogger(__name__)


class Broadcaster:
    """Sends each room's sockets what they are to see."""

    async def broadcast(self, room: Room, ready: Changes | None = None) -> Changes:
        """The table's new version to every socket here, worded in each one's language; the turn
        timer starts again from here. What it returns: the ``change`` sent in each language, with
        the version it is reckoned from.

        A socket that asked for changes and was shown the version before gets a ``change``, any
        other the whole ``state``. The view is computed once a version and language, and each
        message serialised once: every socket that gets it is sent the same text. A change in
        ``ready`` (another process's, reckoned from the same version) is sent as it is.
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
                and not replayed_since(room, last[0])
            )
            key = (lang, change)
            if key not in texts:
                if change and last is not None:
                    given = (ready or {}).get(lang)
                    if given is not None and given[0] == last[0]:
                        texts[key] = given[1]
                    else:
                        texts[key] = wire.text(change_message(room.view, lang, last, left))
                    made[lang] = (last[0], texts[key])
                else:
                    texts[key] = wire.text(state_message(room.view, lang, left))
            room.shown[socket] = table.version
            sends.append((socket, texts[key]))
        # what every socket was shown is settled before the first send lets anything else run
        for lang, _ in texts:
            room.bodies[lang] = (table.version, room.view.body(lang))
        for socket, text in sends:
            await self.send(room, socket, text)
        return made

    async def show_state(self, room: Room, socket: WebSocket) -> None:
        """The whole ``state`` to one socket (on connecting, after a stale move), with the clock's
        time left; later versions reach it as changes if it asked for them."""
        lang = socket_language(socket)
        room.shown[socket] = room.table.version
        room.bodies[lang] = (room.table.version, room.view.body(lang))
        await self.send(room, socket, wire.text(state_message(room.view, lang, room.seconds_left())))

    async def notify(self, room: Room, code: str, text: str) -> None:
        """A ``notice`` of trouble on the server's side to every socket here."""
        message = wire.text({"type": "notice", "code": code, "reason": text, "version": room.table.version})
        for socket in list(room.sockets):
            await self.send(room, socket, message)

    async def shout(self, room: Room, message: dict[str, Any]) -> None:
        """``message`` (one for every reader: a quick phrase's key, worded by each client) to every
        socket here, serialised once; it changes nothing of what a socket was shown."""
        text = wire.text(message)
        for socket in list(room.sockets):
            await self.send(room, socket, text)

    async def send_hint(self, room: Room, here: Room, advised: Advised, asker: WebSocket) -> None:
        """Send ``advised`` (the hint of a seat, worded in each reader's language) to every socket
        of its seat at the table as loaded now (``here``): the one that asked, or the page's new
        socket if it reconnected meanwhile; ``asker`` too while it is still at ``room``."""
        from kosti.server.hints import hint_message

        sockets = [socket for socket, seat in here.sockets.items() if seat == advised.seat]
        if asker not in sockets and asker in room.sockets:
            sockets.append(asker)
        texts: dict[str, str] = {}
        for socket in sockets:
            lang = socket_language(socket)
            if lang not in texts:
                texts[lang] = wire.text(hint_message(room.table.rules, advised, lang))
            await self.send(here, socket, texts[lang])

    @staticmethod
    async def send(room: Room, socket: WebSocket, text: str) -> None:
        """``text`` to ``socket``; a socket that cannot be written to has gone, and is forgotten."""
        try:
            await socket.send_text(text)
        except Exception:
            log.info("dropping a socket of table %s", room.id, exc_info=True)
            room.drop(socket)


def replayed_since(room: Room, version: int) -> bool:
    """Whether the game was played again (an undo, an edit) after ``version``: the log entries
    shown before may read otherwise now, so the whole state goes out, not a change."""
    return any(entry.event.kind in ("undo", "edit") for entry in room.table.log[version:])


def socket_language(socket: WebSocket) -> str:
    """The language a socket asked for (``/ws/{id}?lang=ru``): ``ru`` or ``en``."""
    return "ru" if socket.query_params.get("lang") == "ru" else "en"


def wants_changes(socket: WebSocket) -> bool:
    """Whether a socket asked for ``change`` messages after the first state (``?changes=1``)."""
    return socket.query_params.get("changes") == "1"


def state_message(view: TableView, lang: str = "en", seconds_left: float | None = None) -> dict[str, Any]:
    """The ``state`` message: the table as ``lang``'s readers see it, with the timed move's time left."""
    shown = view.full(lang)
    shown["seconds_left"] = _seconds(seconds_left)
    return {"type": "state", "version": view.table.version, "table": shown}


def change_message(
    view: TableView, lang: str, last: tuple[int, dict[str, Any]], seconds_left: float | None = None
) -> dict[str, Any]:
    """The ``change`` message from the view ``last`` = (its version, :meth:`TableView.body`) to the
    table now: ``table`` holds the parts of the view that differ (and the time left), ``log``
    the log entries after ``since``. The view at ``version`` is the one at ``since`` with the
    parts of ``table`` replaced and ``log`` appended to its log (of which the last
    :data:`~kosti.server.view.LOG_TAIL` entries are kept)."""
    since, before = last
    body = view.body(lang)
    changed = {key: value for key, value in body.items() if before.get(key) != value}
    changed["seconds_left"] = _seconds(seconds_left)
    return {
        "type": "change",
        "version": view.table.version,
        "since": since,
        "table": changed,
        "log": view.log_after(since, lang),
    }


def _seconds(left: float | None) -> float | None:
    return None if left is None else round(left, 1)


def error_message(refusal: Refusal, version: int | None, lang: str = "en") -> dict[str, Any]:
    """The socket's ``error`` message of ``refusal``: its code and params, and its wording in
    the reader's language (:func:`socket_language`) as ``reason``."""
    return {
        "type": "error",
        "code": refusal.code,
        "params": refusal.params,
        "reason": refusal_text(refusal, lang),
        "version": version,
    }
