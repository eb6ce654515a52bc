"""The tables of this device: the server's tables, played in the browser with no server.

The page speaks to a table here as it speaks to a server's (:mod:`kosti.server.routes`): REST
requests (a new table, a seat taken, a bot seated, leave, rematch, the record, the rules'
data) and a table's socket messages (``state``, ``change``, ``error``, ``hint``). Only the
transport differs: the page's requests reach :class:`LocalHost` through a Web Worker that
runs Pyodide (``static/local/worker.js``), which stores each table's log in IndexedDB.

Nothing about the game is written here. Every change takes the server's path: planned by
the server's own pure planning (:mod:`kosti.server.seating`, :mod:`kosti.server.planning`),
stored, then applied to a :class:`~kosti.server.table.Table` and shown by the server's view
and broadcaster (:mod:`kosti.server.view`, :mod:`kosti.server.broadcast`); a table is rebuilt
from its stored log as the server rebuilds one. What differs from a server's table: the dice
are the device's (:class:`DeviceDice`: ``crypto.getRandomValues``, no seeds, nothing to
verify), the bots are those that need no solver (random and heuristic), there is no turn
timer, and every seat is this browser's (hot-seat: the page keeps every seat's token).

The tables' ids begin with :data:`PREFIX`, so that the page knows a table of the device from a
server's wherever it meets one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast
from urllib.parse import parse_qs, unquote, urlsplit

from kosti.bots.base import Bot
from kosti.dice import Faces
from kosti.errors import KostiError, RecordError
from kosti.i18n import LANGUAGES, messages, record_error_text, refusal_text
from kosti.levels import make_bot
from kosti.record import Record, replay
from kosti.roller import DiceSource
from kosti.rules.presets import Variant, variant
from kosti.server import wire
from kosti.server.bots import MAX_SEATS
from kosti.server.broadcast import Broadcaster, error_message, state_message
from kosti.server.events import BotSeated, Join, Move, Start, TableEvent, from_stored, stored
from kosti.server.hints import Advised, Hints, hint_message
from kosti.server.limits import check_options
from kosti.server.planning import check_hint, plan_action, plan_bot_move, plan_edit, plan_undo
from kosti.server.refusal import Refusal
from kosti.server.rooms import Room
from kosti.server.rulebook import preset_list, variant_rules
from kosti.server.seating import plan_back, plan_bot, plan_join, plan_leave, plan_rematch, plan_reserve
from kosti.server.table import Mode, Table, TableSettings, token_hash
from kosti.server.view import TableView
from kosti.server.words import shown_name

if TYPE_CHECKING:
    from fastapi import WebSocket

log = logging.getLogger(__name__)

PREFIX = "local-"
"""How the id of a table of this device begins."""

LEVELS = ("random", "heuristic")
"""The bots that play on a device: the optimal ones need the solver, which needs numba."""

BOT_DELAY = 0.6
"""Seconds a bot waits before each move, so that the players see what it does (a server's too)."""

NAME_LENGTH = 24
TOKEN_LENGTH = 64
CLIENT_SEED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")

STATUS = {"not_found": 404, "unknown_token": 403}
"""The HTTP status of a refusal's code, where it is not 409 (as the server answers them)."""

BAD_REQUEST = {"bad_variant", "bad_name", "bad_seed", "bad_seat", "bad_action", "bad_message", "no_bots"}
"""Refusals answered 400, as the server does (the others: a conflict with the table, 409)."""


class DeviceDice:
    """Dice thrown on this device: each die one random byte of ``random_bytes``
    (``crypto.getRandomValues`` in the browser), a byte of 252 or more drawn again, so that
    every face is equally likely (no modulo bias).

    >>> stream = iter([0, 255, 5, 252, 9, 3])
    >>> DeviceDice(lambda n: bytes(next(stream) for _ in range(n))).roll(3)  # 255 and 252 drawn again
    (1, 6, 4)
    """

    def __init__(self, random_bytes: Callable[[int], bytes] = os.urandom) -> None:
        self.random_bytes = random_bytes

    def roll(self, n: int) -> Faces:
        faces: list[int] = []
        while len(faces) < n:
            for byte in self.random_bytes(n - len(faces)):
                if byte < 252:
                    faces.append(byte % 6 + 1)
        return tuple(faces)


def device_bots(level: str, rules: Variant, seed: int) -> Bot:
    """The bots of a device (:data:`LEVELS`, from :func:`kosti.levels.make_bot`); :class:`KostiError`
    for any other level."""
    if level not in LEVELS:
        raise KostiError(f"no {level} bot plays on this device")
    return make_bot(level, rules, seed)


class DeviceTable(Table):
    """A table of this device: a server's :class:`~kosti.server.table.Table` with no seeds, that
    throws the device's dice when the dice are not typed in."""

    def __init__(self, table_id: str, settings: TableSettings, dice: DiceSource) -> None:
        super().__init__(table_id, settings, None, device_bots, "heuristic", LEVELS)
        self.device_dice = dice

    def dice(self) -> DiceSource | None:
        return self.device_dice if self.online else None


class Storage(Protocol):
    """Where the tables of a device are kept (IndexedDB in the browser: ``static/local/store.js``).
    Texts are JSON, so that nothing but strings crosses between JavaScript and Python."""

    async def load(self, table_id: str) -> str | None:
        """``{"settings", "events"}`` of a table (its events in their stored form), or ``None``."""
        ...

    async def append(self, table_id: str, version: int, settings: str, events: str) -> bool:
        """Append ``events`` to the log of ``table_id`` after ``version`` events (a new table when
        ``version`` is 0, made with ``settings``); ``False``, changing nothing, when the log holds
        another number of events (another tab of the page wrote first)."""
        ...

    async def describe(self, table_id: str, about: str) -> None:
        """Keep what is known of a table beside its log: ``{"summary", "record"}`` (the list of
        saved games, and the record a download gives)."""
        ...

    async def list(self) -> str:
        """Every table's ``{"id", "summary", "updated"}``, as JSON."""
        ...


Emit = Callable[[str, "str | None"], object]
"""Sends a text to a page's socket (by the socket's id); ``None`` closes it."""


class BadRequest(Exception):
    """A request or message whose form is wrong (the server's 422, or its ``bad_message``)."""


class Connection:
    """A page's socket to a table here: what the broadcaster reads of a socket and writes to it."""

    def __init__(self, conn_id: str, table_id: str, lang: str, changes: bool, emit: Emit) -> None:
        self.id = conn_id
        self.table_id = table_id
        self.query_params = {"lang": "ru" if lang == "ru" else "en", "changes": "1" if changes else "0"}
        self._emit = emit

    async def send_text(self, text: str) -> None:
        self._emit(self.id, text)

    def close(self) -> None:
        self._emit(self.id, None)

    @property
    def socket(self) -> WebSocket:
        """This connection where the server's code takes a socket (it uses only what this has)."""
        return cast("WebSocket", self)


@dataclass(frozen=True)
class Answer:
    """A REST request's answer: its HTTP status and its JSON body."""

    status: int
    body: Any

    def text(self) -> str:
        return json.dumps({"status": self.status, "body": self.body}, ensure_ascii=False)


class LocalHost:
    """The tables of this device and the page's sockets to them; every change goes through here.

    ``store`` keeps the tables (:class:`Storage`), ``emit`` sends to the page's sockets,
    ``random_bytes`` throws the dice (:class:`DeviceDice`)."""

    def __init__(
        self,
        store: Storage,
        emit: Emit,
        random_bytes: Callable[[int], bytes] = os.urandom,
        bot_delay: float = BOT_DELAY,
    ) -> None:
        self.store = store
        self.emit = emit
        self.dice = DeviceDice(random_bytes)
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self.connections: dict[str, Connection] = {}
        self.broadcaster = Broadcaster()
        self.hints = Hints(device_bots, ("heuristic",))
        self._loading: dict[str, asyncio.Lock] = {}

    # -- REST ------------------------------------------------------------------------------

    async def request(self, method: str, url: str, body: str | None = None, lang: str = "en") -> str:
        """The answer to a REST request of the page, as ``{"status", "body"}`` JSON text: the body
        the server would send, a refusal ``{"detail", "code", "params"}`` worded in ``lang``."""
        try:
            parts = urlsplit(url)
            query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
            data = json.loads(body) if body else None
            lang = query.get("lang", lang)
            answer = await self._route(method.upper(), parts.path, query, data, lang)
        except Refusal as refusal:
            status = STATUS.get(refusal.code, 400 if refusal.code in BAD_REQUEST else 409)
            detail = refusal_text(refusal, "ru" if lang == "ru" else "en")
            answer = Answer(status, {"detail": detail, "code": refusal.code, "params": refusal.params})
        except (BadRequest, ValueError) as error:
            answer = Answer(422, {"detail": str(error)})
        return answer.text()

    async def _route(self, method: str, path: str, query: dict[str, str], data: Any, lang: str) -> Answer:
        parts = [unquote(p) for p in path.strip("/").split("/")]
        if parts[:1] != ["api"]:
            raise Refusal("not_found")
        parts = parts[1:]
        if method == "GET" and parts == ["presets"]:
            return Answer(200, preset_list(lang))
        if method == "GET" and len(parts) == 2 and parts[0] == "rules":
            return Answer(200, variant_rules(parts[1], lang))
        if method == "GET" and len(parts) == 2 and parts[0] == "words" and parts[1] in ("ru", "en"):
            return Answer(200, dict(messages(parts[1])))
        if method == "GET" and parts == ["server"]:
            return Answer(200, server_info())
        if parts[:1] != ["tables"]:
            raise Refusal("not_found")
        # the list of saved games (GET /api/tables) the page reads from IndexedDB itself (transport.js)
        if len(parts) == 1 and method == "POST":
            return Answer(201, await self.create(_object(data)))
        if len(parts) == 2 and method == "GET":
            room = await self.room(parts[1])
            return Answer(200, state_message(room.view, lang))
        if len(parts) == 3:
            table_id, what = parts[1], parts[2]
            if method == "GET" and what == "record":
                room = await self.room(table_id)
                return Answer(200, self.record(room.table))
            if method == "POST" and what in ("join", "bots", "leave", "back", "rematch"):
                return Answer(200, await self._seat_request(table_id, what, _object(data)))
        raise Refusal("not_found")

    async def _seat_request(self, table_id: str, what: str, body: dict[str, Any]) -> dict[str, Any]:
        room = await self.room(table_id)
        if what == "join":
            return await self.join(room, body)
        if what == "rematch":
            return await self.rematch(room, _text(body, "token", TOKEN_LENGTH))
        token = _text(body, "token", TOKEN_LENGTH)
        if what == "bots":
            seat = _int(body, "seat", 0, MAX_SEATS - 1, None)
            level = _text(body, "level", 24, "random")
            seats: list[int] = []

            def seat_bot(table: Table) -> list[TableEvent]:
                events = plan_bot(table, token, seat, level)
                seats.extend(e.seat for e in events[:1] if isinstance(e, BotSeated))
                return events

            await self.change(room, seat_bot)
            occupant = room.table.seats[seats[-1]]
            name = occupant.name if occupant else None
            return {"seat": seats[-1], "name": name, "version": room.table.version}
        if what == "leave":
            resign = _bool(body, "resign", False)
            await self.change(room, lambda table: plan_leave(table, token, resign))
            return {"version": room.table.version, "status": room.table.status}
        await self.change(room, lambda table: plan_back(table, token))
        return {"version": room.table.version}

    # -- the tables ----------------------------------------------------------------------------

    def new_table(self, settings: TableSettings) -> DeviceTable:
        return DeviceTable(PREFIX + secrets.token_urlsafe(12), settings, self.dice)

    async def create(self, body: dict[str, Any]) -> dict[str, Any]:
        """A new table (a server's ``POST /api/tables``); with ``name``, its creator seated in it.
        A table of the device has no turn timer: the players sit around one screen."""
        spec = _text(body, "variant", 200)
        options = body.get("options") or {}
        if not isinstance(options, dict) or len(options) > 40:
            raise BadRequest("options: an object of at most 40 options")
        try:
            rules = variant(spec, options)
        except KostiError as error:
            raise Refusal("bad_variant", why="options", detail=str(error)) from None
        check_options(rules)
        seats = _int(body, "seats", 1, MAX_SEATS)
        mode = body.get("mode", "online")
        if mode not in ("online", "scorekeeper"):
            raise BadRequest("mode: online or scorekeeper")
        name = _text(body, "name", NAME_LENGTH, None)
        client_seed = _seed(body)
        owner = None if name is not None else secrets.token_urlsafe(24)
        settings = TableSettings(
            rules.spec,
            seats,
            _mode(mode),
            _bool(body, "hints", False),
            _bool(body, "private", False),
            None,
            None if owner is None else token_hash(owner),
        )
        table = self.new_table(settings)
        room = Room(table)
        events: list[TableEvent] = []
        token = owner
        if name is not None:
            events, token = plan_join(table, name, client_seed)
        await self._commit(room, events, new=True)
        self.rooms[table.id] = room
        made: dict[str, Any] = {"id": table.id, "invite": f"/t/{table.id}", "fair": None}
        made["version"] = table.version
        if name is not None and token is not None:
            made["seat"], made["token"] = table.seat_of(token), token
        elif token is not None:
            made["token"] = token
        return made

    async def join(self, room: Room, body: dict[str, Any]) -> dict[str, Any]:
        """Seat a player (a hot-seat player on this device), or take a seat a rematch keeps."""
        name = _text(body, "name", NAME_LENGTH)
        client_seed = _seed(body)
        kept = _text(body, "token", TOKEN_LENGTH, None)
        token = ""

        def seat_player(table: Table) -> list[TableEvent]:
            nonlocal token
            events, token = plan_join(table, name, client_seed, kept)
            return events

        await self.change(room, seat_player)
        return {"seat": room.table.seat_of(token), "token": token, "version": room.table.version}

    async def rematch(self, room: Room, token: str) -> dict[str, Any]:
        """The rematch of a game that is over, with the same seats (as a server's lobby makes it)."""
        async with room.lock:
            old = room.table
            if old.rematch is not None:
                old.seat_of(token)
                return {"id": old.rematch, "invite": f"/t/{old.rematch}"}
            plan_rematch(old, token, "")  # refuse before a table is made for nothing
            new = Room(self.new_table(old.settings))
            await self._commit(new, plan_reserve(new.table, old.seats), new=True)
            self.rooms[new.id] = new
            await self._commit(room, plan_rematch(old, token, new.id))
        self.kick(new)
        return {"id": new.id, "invite": f"/t/{new.id}"}

    async def room(self, table_id: str) -> Room:
        """The table ``table_id``, rebuilt from its stored log if it is not in memory (its bots
        started); :class:`Refusal` ``not_found`` if this device has none."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        if not table_id.startswith(PREFIX) or len(table_id) > 32:
            raise Refusal("not_found")
        loading = self._loading.setdefault(table_id, asyncio.Lock())
        async with loading:
            room = self.rooms.get(table_id)
            if room is None:
                room = self.rooms[table_id] = Room(await self._load(table_id))
        self.kick(room)
        return room

    async def _load(self, table_id: str) -> DeviceTable:
        found = await self.store.load(table_id)
        if not found:
            raise Refusal("not_found")
        data = json.loads(found)
        table = DeviceTable(table_id, TableSettings.from_json(data["settings"]), self.dice)
        for kind, event in data["events"]:
            table.apply(from_stored((kind, event)))
        return table

    async def change(self, room: Room, plan: Callable[[Table], list[TableEvent]]) -> None:
        """Plan a change under the table's lock, store it, apply it, show it (as a server does)."""
        async with room.lock:
            await self._commit(room, plan(room.table))
        self.kick(room)

    async def _commit(self, room: Room, events: list[TableEvent], new: bool = False) -> None:
        """Store ``events`` after the table's version, then apply and show them; the caller holds
        the table's lock. :class:`Refusal` ``stale`` when another tab of the page wrote first:
        the table is read again and shown as it is now."""
        table = room.table
        if not events and not new:
            return
        version = table.version
        written = json.dumps([list(stored(event)) for event in events], ensure_ascii=False)
        settings = json.dumps(table.settings.to_json(), ensure_ascii=False)
        if not await self.store.append(table.id, version, settings, written):
            room.table = await self._load(table.id)
            room.view = TableView(room.table)
            room.bodies.clear()
            await self.broadcaster.broadcast(room)
            raise Refusal("stale", why="commit", version=room.table.version, yours=version)
        for event in events:
            table.apply(event)
        await self.broadcaster.broadcast(room)
        await self.store.describe(table.id, json.dumps(self.about(table), ensure_ascii=False))

    def kick(self, room: Room) -> None:
        """Start the bot of the seat to move, if a bot must move and none is running."""
        if room.table.bot_to_move() is None:
            return
        if room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.ensure_future(self._run_bots(room))

    async def _run_bots(self, room: Room) -> None:
        try:
            while room.table.bot_to_move() is not None:
                await asyncio.sleep(self.bot_delay)
                async with room.lock:
                    events = plan_bot_move(room.table)
                    if not events:
                        return
                    try:
                        await self._commit(room, events)
                    except Refusal:
                        continue  # another tab moved first: look at the table again
        except Exception:
            log.exception("the bots of table %s stopped", room.id)

    # -- what is kept of a table beside its log ------------------------------------------------

    def record(self, table: Table) -> dict[str, Any]:
        """The game's record (RULES.md §5), with how the table sat (``"local"``: the dice typed in or
        thrown here, and which players are bots), so that the record opens again as a table."""
        data = table.record().to_json()
        bots = {s.name: s.bot for s in table.seats if s is not None and s.bot is not None}
        data["local"] = {"mode": table.settings.mode, "bots": bots}
        return data

    def about(self, table: Table) -> dict[str, Any]:
        """What the store keeps beside a table's log: a summary for the list of saved games, and the
        record (once the game has started) for a download."""
        summary = {
            "variant": table.rules.spec,
            "preset": table.rules.preset.id,
            "seats": len(table.seats),
            "taken": sum(1 for s in table.seats if s is not None and not s.reserved),
            # as the page shows them, a bot's name in each language («Умник», "Smart")
            "shown": {
                lang: [shown_name(table, i, lang) for i, s in enumerate(table.seats) if s]
                for lang in LANGUAGES
            },
            "mode": table.settings.mode,
            "status": table.status,
        }
        return {"summary": summary, "record": self.record(table) if table.game is not None else None}

    async def open_record(self, text: str, lang: str = "en") -> str:
        """A table made from a record the page opened (RULES.md §5): its players seated as they
        sat (the bots a record of this device names, as bots), the game played to its last
        action; it goes on from there. ``{"id", "seats": {seat: token}}`` as JSON, or
        ``{"detail"}`` saying what is wrong with the record."""
        try:
            record = Record.from_json(json.loads(text))
            replay(record)
            rules = record.rules()
            check_options(rules)
            table, tokens, events = self._seated(record, rules)
        except json.JSONDecodeError as error:
            return json.dumps({"detail": f"not JSON: {error.msg}"})
        except RecordError as error:
            return json.dumps({"detail": record_error_text(error, lang)}, ensure_ascii=False)
        except Refusal as refusal:
            return json.dumps({"detail": refusal_text(refusal, lang)}, ensure_ascii=False)
        except KostiError as error:
            return json.dumps({"detail": str(error)}, ensure_ascii=False)
        room = Room(table)
        async with room.lock:
            await self._commit(room, events, new=True)
        self.rooms[table.id] = room
        self.kick(room)
        return json.dumps({"id": table.id, "seats": tokens})

    def _seated(self, record: Record, rules: Variant) -> tuple[DeviceTable, dict[str, str], list[TableEvent]]:
        """A new table for ``record``, and the events that seat its players and play its game."""
        players = record.players
        if not 1 <= len(players) <= MAX_SEATS or len(set(players)) != len(players):
            raise KostiError(f"a table seats 1 to {MAX_SEATS} players, each under a name of their own")
        found = record.extra.get("local")
        about: dict[str, Any] = found if isinstance(found, dict) else {}
        mode = about.get("mode", "online")
        listed = about.get("bots")
        bots: dict[str, Any] = listed if isinstance(listed, dict) else {}
        settings = TableSettings(rules.spec, len(players), _mode(mode if mode == "scorekeeper" else "online"))
        table = self.new_table(settings)
        tokens: dict[str, str] = {}
        events: list[TableEvent] = []
        for seat, name in enumerate(players):
            level = bots.get(name)
            if settings.mode == "online" and isinstance(level, str) and level in LEVELS:
                events.append(BotSeated(seat, name, level))
            else:
                token = secrets.token_urlsafe(24)
                tokens[str(seat)] = token
                events.append(Join(seat, name, token_hash(token), None))
        rolloff = record.extra.get("rolloff")
        throws = tuple(rolloff) if isinstance(rolloff, list) else ()
        events.append(Start(tuple(range(len(players))), None, throws))
        events.extend(Move(players.index(turn.player), tuple(turn.actions)) for turn in record.turns)
        return table, tokens, events

    # -- a table's sockets ---------------------------------------------------------------------

    async def open(self, conn_id: str, url: str, lang: str = "en") -> None:
        """A page opens a socket to a table (``/ws/{id}?lang=ru&changes=1``): it is sent the whole
        state, or an ``error`` and closed when the device has no such table."""
        parts = urlsplit(url)
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        table_id = unquote(parts.path.rstrip("/").rsplit("/", 1)[-1])
        conn = Connection(conn_id, table_id, query.get("lang", lang), query.get("changes") == "1", self.emit)
        try:
            room = await self.room(table_id)
        except Refusal as refusal:
            await conn.send_text(wire.text(error_message(refusal, None, conn.query_params["lang"])))
            conn.close()
            return
        self.connections[conn_id] = conn
        room.watch(conn.socket)
        await self.broadcaster.show_state(room, conn.socket)

    def close(self, conn_id: str) -> None:
        """A page's socket has closed."""
        conn = self.connections.pop(conn_id, None)
        room = None if conn is None else self.rooms.get(conn.table_id)
        if conn is not None and room is not None:
            room.drop(conn.socket)

    async def receive(self, conn_id: str, text: str) -> None:
        """A message of a page's socket (as :mod:`kosti.server.routes.play` takes them)."""
        conn = self.connections.get(conn_id)
        if conn is None:
            return
        room = await self.room(conn.table_id)
        lang = conn.query_params["lang"]
        try:
            message = _message(text)
            kind = message["type"]
            if kind == "ping":
                await conn.send_text(wire.text({"type": "pong", "version": room.table.version}))
                return
            room.sit(conn.socket, room.table.seat_of(message["token"]), MAX_SEATS)
            if kind == "hello":
                await self.broadcaster.show_state(room, conn.socket)
            elif kind == "hint":
                await conn.send_text(wire.text(self.hint(room, message, lang)))
            else:
                await self.change(room, lambda table: _plan_message(table, message))
        except BadRequest as error:
            refusal = Refusal("bad_message", why="form", detail=str(error))
            await conn.send_text(wire.text(error_message(refusal, room.table.version, lang)))
        except Refusal as refusal:
            await conn.send_text(wire.text(error_message(refusal, room.table.version, lang)))
            if refusal.code == "stale":
                await self.broadcaster.show_state(room, conn.socket)

    def hint(self, room: Room, message: dict[str, Any], lang: str) -> dict[str, Any]:
        """The ``hint`` message for the seat of ``message``'s token (a heuristic bot's advice)."""
        table = room.table
        state = check_hint(table, message["token"], message["version"])
        advisor = self.hints.advisor(table.rules)
        if advisor is None:
            raise Refusal("no_hints", why="bots")
        advice = advisor.advise(state)
        exact = bool(advice and advice[0].chance)
        advised = Advised(message["version"], table.seat_of(message["token"]), state, advice, exact)
        return hint_message(table.rules, advised, lang)


def _plan_message(table: Table, message: dict[str, Any]) -> list[TableEvent]:
    """The events of a move, an undo or an edit (as a server's hub plans them)."""
    kind, token, version = message["type"], message["token"], message["version"]
    if kind == "action":
        return plan_action(table, token, version, message["action"])
    if kind == "undo":
        return plan_undo(table, token, version)
    return plan_edit(table, token, version, message["throw"], message["faces"])


# -- what the page asks of a server before anything else ------------------------------------------


def server_info() -> dict[str, Any]:
    """What the page asks of a server before anything else: here, the bots of a device."""
    return {
        "bot_levels": {family: list(LEVELS) for family in ("sheet", "thousand", "showdown")},
        "message_limit": 4096,
        "name_length": NAME_LENGTH,
        "idle_timeout": 3600,
        "worker": 0,
        "workers": 1,
        "local": True,
    }


# -- the form of requests and messages (a server's pydantic models, kosti.server.messages) ----------


def _object(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadRequest("the body is a JSON object")
    return data


def _text(body: dict[str, Any], key: str, longest: int, default: Any = ...) -> Any:
    value = body.get(key, default)
    if value is ...:
        raise BadRequest(f"{key}: required")
    if value is None and default is None:
        return None
    if not isinstance(value, str) or not 1 <= len(value.strip()) <= longest:
        raise BadRequest(f"{key}: a text of 1 to {longest} characters")
    return value.strip()


def _int(body: dict[str, Any], key: str, low: int, high: int, default: Any = ...) -> Any:
    value = body.get(key, default)
    if value is ...:
        raise BadRequest(f"{key}: required")
    if value is None and default is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest(f"{key}: a whole number from {low} to {high}")
    return value


def _bool(body: dict[str, Any], key: str, default: bool) -> bool:
    value = body.get(key, default)
    if not isinstance(value, bool):
        raise BadRequest(f"{key}: true or false")
    return value


def _seed(body: dict[str, Any]) -> str | None:
    seed = _text(body, "client_seed", 64, None)
    if seed is not None and not set(seed) <= CLIENT_SEED:
        raise BadRequest("client_seed: letters, digits, - and _")
    return seed  # type: ignore[no-any-return]


def _mode(mode: str) -> Mode:
    return "scorekeeper" if mode == "scorekeeper" else "online"


MESSAGES: dict[str, Sequence[str]] = {
    "ping": (),
    "hello": ("token",),
    "hint": ("token", "version"),
    "undo": ("token", "version"),
    "action": ("token", "version", "action"),
    "edit": ("token", "version", "throw", "faces"),
}
"""Each socket message's type and the fields it needs."""


def _message(text: str) -> dict[str, Any]:
    """A socket message, its form checked (:class:`BadRequest` saying what is wrong)."""
    try:
        message = json.loads(text)
    except ValueError:
        raise BadRequest("a message is a JSON object") from None
    if not isinstance(message, dict) or message.get("type") not in MESSAGES:
        raise BadRequest(f"type: one of {', '.join(MESSAGES)}")
    for key in MESSAGES[message["type"]]:
        if key not in message:
            raise BadRequest(f"{key}: required")
    if "token" in message:
        _text(message, "token", TOKEN_LENGTH)
    if "version" in message:
        _int(message, "version", 0, 1 << 40)
    if "throw" in message:
        _int(message, "throw", 1, 1 << 20)
    faces = message.get("faces", [1])
    if not isinstance(faces, list) or not 1 <= len(faces) <= 5 or not all(isinstance(f, int) for f in faces):
        raise BadRequest("faces: a list of 1 to 5 faces")
    return message
