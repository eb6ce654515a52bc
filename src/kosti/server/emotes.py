"""Quick phrases at an online table: a player says one of a fixed set to everyone at it.

The wire carries only a phrase's key (``good_luck``), never text: each client words it in its
reader's language, so nobody can send free text to a table. A phrase is said by a seated
player (shown by the seat's token, as a move is) at an online table, and goes to every socket
of the table at once, on every worker process (:meth:`kosti.server.bus.Bus.shout`). It is
ephemeral: it touches neither the game, nor the table's log (what is replayed and verified),
nor the dice, and a socket that connects later is not told of it.

A seat may say one phrase every :attr:`~kosti.server.settings.ServerSettings.emote_gap`
seconds and :attr:`~kosti.server.settings.ServerSettings.emotes_a_minute` in a minute; the
pace is kept by the process that hears the phrase (a table's sockets are all at its home
worker, :mod:`kosti.server.dispatch`, unless that one is down).
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any

from kosti.server.refusal import Refusal
from kosti.server.table import Table

if TYPE_CHECKING:
    from kosti.server.broadcast import Broadcaster
    from kosti.server.bus import Bus
    from kosti.server.messages import EmoteMessage
    from kosti.server.rooms import Room, RoomCache
    from kosti.server.settings import ServerSettings

EMOTES: tuple[str, ...] = (
    "good_luck",
    "nice_throw",
    "so_close",
    "oh_no",
    "wow",
    "thinking",
    "thanks",
    "good_game",
)
"""The phrases a player may say, by key, in the order a client offers them. The page words them
(``static/i18n.js``: ``emote.good_luck`` …); a key added here is worded there in both languages."""

MINUTE = 60.0


def check_emote(table: Table, token: str, emote: str) -> int:
    """The seat that says ``emote`` with ``token`` at ``table``, or the :class:`Refusal` of it
    (pure: changes nothing). Refused: a token of no seat (``unknown_token``), a seat whose player
    has left or resigned, or that a rematch keeps for a player not back yet, and every seat of a
    scorekeeper's table, where everyone is at one phone (``no_emotes``), and a key that is not
    one of :data:`EMOTES`, free text included (``bad_emote``)."""
    seat = table.seat_of(token)
    if table.settings.mode == "scorekeeper":
        raise Refusal("no_emotes", why="keeper")
    occupant = table.seats[seat]
    if occupant is None or occupant.left or occupant.reserved:
        raise Refusal("no_emotes", why="left")
    if emote not in EMOTES:
        # the text is not echoed back: the refusal names the keys, which is all a client needs
        raise Refusal("bad_emote", known=", ".join(EMOTES))
    return seat


def wait_before(said: list[float], now: float, gap: float, a_minute: int) -> int:
    """Whole seconds a seat must wait before its next phrase (0: it may say one now), given when
    it said its last ones (``said``, oldest first, ``time.monotonic()``): one every ``gap``
    seconds, ``a_minute`` in any minute. ``said`` keeps only the last minute's.

    >>> wait_before([], 100.0, 2.0, 3)
    0
    >>> wait_before([99.5], 100.0, 2.0, 3)
    2
    >>> wait_before([50.0, 70.0, 90.0], 100.0, 2.0, 3)  # three in the last minute: until 110
    10
    >>> said = [30.0, 70.0, 90.0]
    >>> wait_before(said, 100.0, 2.0, 3), said  # the oldest is over a minute old
    (0, [70.0, 90.0])
    """
    while said and said[0] <= now - MINUTE:
        del said[0]
    waits = [0.0]
    if said:
        waits.append(said[-1] + gap - now)
    if len(said) >= a_minute:
        waits.append(said[len(said) - a_minute] + MINUTE - now)
    return math.ceil(max(waits))


def emote_message(seat: int, emote: str, version: int) -> dict[str, Any]:
    """The socket's ``emote`` message: ``seat`` says the phrase ``emote`` (a key of
    :data:`EMOTES`), at the table's ``version`` as the sender's process held it."""
    return {"type": "emote", "seat": seat, "emote": emote, "version": version}


class Phrases:
    """The quick phrases of a process's tables: said by a seat here, heard from another process."""

    def __init__(
        self, settings: ServerSettings, broadcaster: Broadcaster, bus: Bus, rooms: RoomCache
    ) -> None:
        self.settings = settings
        self.broadcaster = broadcaster
        self.bus = bus
        self.rooms = rooms

    async def say(self, room: Room, message: EmoteMessage) -> None:
        """Say the phrase of ``message`` to every socket at the table, on every process: the
        table, its log and its dice stay as they were. Refused (:class:`Refusal`, nothing sent):
        who may not say it (:func:`check_emote`), and a seat that speaks faster than
        ``emote_gap`` or ``emotes_a_minute`` allow (``rate_limited``)."""
        seat = check_emote(room.table, message.token, message.emote)
        said = room.emoted.setdefault(seat, [])
        now = time.monotonic()
        wait = wait_before(said, now, self.settings.emote_gap, self.settings.emotes_a_minute)
        if wait > 0:
            raise Refusal("rate_limited", why="emotes", n=wait)
        said.append(now)
        shown = emote_message(seat, message.emote, room.table.version)
        await self.broadcaster.shout(room, shown)
        await self.bus.shout(room.id, shown)

    async def heard(self, table_id: str, message: dict[str, Any]) -> None:
        """Another process's phrase (:meth:`say`) to the sockets here of its table, if it is held
        here (a table nobody here watches has nobody to tell)."""
        room = self.rooms.get(table_id)
        if room is not None:
            await self.broadcaster.shout(room, message)
