"""One table of the server: its seats, its game and the game's record, all rebuilt from a log.

Everything that happens at a table is an event (:mod:`kosti.server.events`) appended to its
log, and a table is its settings plus that log, nothing else. The server first *plans* the
events of a request (:mod:`kosti.server.seating`, :mod:`kosti.server.planning`: pure, they
refuse with a :class:`Refusal` and change nothing), writes them to storage, and only then
*applies* them (:meth:`Table.apply`). Rebuilding a table after a restart applies the stored
events in order, the same code path as live play, so the dice counter of the fair dice (the
nonce) is simply the number of throws in the log. What a client sees of a table is its view
(:mod:`kosti.server.view`).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, assert_never

from kosti.actions import Action, Roll
from kosti.errors import KostiError
from kosti.events import Event
from kosti.games import engine_for
from kosti.games.base import GameState
from kosti.record import Record, Recorder, Turn
from kosti.roller import DiceSource, FairDice, commitment
from kosti.rules.presets import Variant, variant
from kosti.server.bots import LEVELS, BotFactory, TableBots
from kosti.server.events import (
    Abandon,
    Back,
    BotSeated,
    Edit,
    Join,
    Leave,
    Move,
    Rematch,
    Reserve,
    Start,
    TableEvent,
    Timeout,
    Undo,
    parse_stored_action,
)
from kosti.server.game import Moves, TableGame
from kosti.server.refusal import Refusal as Refusal
from kosti.show import summary

Mode = Literal["online", "scorekeeper"]


@dataclass(frozen=True)
class TableSettings:
    """What a table is created with; fixed for its whole life."""

    variant: str
    """The canonical variant string (``poker-free(lower=[chance])``)."""

    seats: int
    mode: Mode = "online"
    """``online``: the server throws provably fair dice; ``scorekeeper``: the players type in
    the dice of a real table, and sit in the order they play."""

    hints: bool = False
    """Players may ask for a hint (a bot's advice) at their decisions."""

    private: bool = False
    """Only the invite link leads to the table: it is not listed among the open tables."""

    timer: int | None = None
    """Seconds a player has for each move; ``None``: no limit. On time a stand-in bot plays."""

    owner_sha256: str | None = None
    """The hash of the token its creator was given when they did not sit down: with it they
    may seat bots, as a seated player may."""

    def rules(self) -> Variant:
        return variant(self.variant)

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "seats": self.seats,
            "mode": self.mode,
            "hints": self.hints,
            "private": self.private,
            "timer": self.timer,
            "owner_sha256": self.owner_sha256,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        # tables stored before privacy and timers were public and untimed
        return cls(
            data["variant"],
            data["seats"],
            data["mode"],
            data["hints"],
            data.get("private", False),
            data.get("timer"),
            data.get("owner_sha256"),
        )


@dataclass
class Seat:
    """Who sits in a seat: a player (known by the hash of their secret token) or a bot."""

    name: str
    token_sha256: str | None = None
    client_seed: str | None = None
    bot: str | None = None
    """The bot's level, for a seat a bot plays."""

    reserved: bool = False
    """Kept for its player by a rematch, who has not sat down again yet."""

    away: bool = False
    """Its player ran out of time: a stand-in bot plays until the player is back."""

    left: bool = False
    """Its player resigned or left: a stand-in bot plays the game out."""

    resigned: bool = False

    @property
    def human(self) -> bool:
        return self.bot is None

    @property
    def present(self) -> bool:
        """A player who plays this seat themselves."""
        return self.bot is None and not self.away and not self.left


@dataclass(frozen=True)
class LogEntry:
    """An event as the table's log keeps it once applied."""

    version: int
    """The version the event made (the first event makes version 1)."""

    event: TableEvent
    name: str | None = None
    """The name of the seat the event is about, as it was then (a seat freed before the start
    may be taken under another name)."""

    caused: tuple[Event, ...] = ()
    """A move's events of the rules core: why each score changed (RULES.md §5.1)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def parse_action(data: Any) -> Action:
    """An action in its record form (``{"hold": [6, 6]}``, ``"stop"``) or, as a string, in its
    notation (``"throw"``, ``"hold 6 6"``); :class:`Refusal` ``bad_action`` otherwise."""
    try:
        return parse_stored_action(data)
    except KostiError as error:
        raise Refusal("bad_action", why="parse", detail=str(error)) from None


class Table:
    """A table in memory. Only :meth:`apply` changes it; every other method only reads."""

    def __init__(
        self,
        table_id: str,
        settings: TableSettings,
        server_seed: bytes | None,
        bots: BotFactory,
        stand_in: str = "heuristic",
        levels: Sequence[str] = LEVELS,
    ):
        self.id = table_id
        self.settings = settings
        self.server_seed = server_seed
        self.rules = settings.rules()
        self.engine = engine_for(self.rules)
        self.bots = TableBots(table_id, self.rules, bots, stand_in, levels)
        """The bots that may sit here and those that play (not part of the log)."""
        self.version = 0
        """Events applied so far: every state a client sees carries it."""
        self.seats: list[Seat | None] = [None] * settings.seats
        self.order: list[int] = []
        """Seat numbers in playing order, once the game has started."""
        self.client_seed: str | None = None
        self.rolloff: list[dict[str, Any]] = []
        self.game: TableGame | None = None
        """The game, once started."""
        self.nonce = 0
        """Throws made with the fair dice so far (roll-off included): the next throw's nonce."""
        self.log: list[LogEntry] = []
        self.in_force: list[int] = []
        """The version of the log entry of each move still in force, in the order of
        :attr:`TableGame.moves` (a move taken back at a scorekeeper table is not)."""
        self.replays = 0
        """How many times the game was played again from the start (an undo, an edit): the
        moves before may read otherwise since."""
        self.abandoned = False
        self.rematch: str | None = None
        """The table of the rematch, once one is offered."""

    # -- reading -------------------------------------------------------------

    @property
    def online(self) -> bool:
        return self.settings.mode == "online"

    @property
    def recorder(self) -> Recorder | None:
        return self.game.recorder if self.game else None

    @property
    def state(self) -> GameState | None:
        return self.game.state if self.game else None

    @property
    def moves(self) -> Moves:
        """The moves still in force, each with the seat that made it."""
        return self.game.moves if self.game else []

    @property
    def status(self) -> Literal["waiting", "playing", "finished", "abandoned"]:
        if self.game is None:
            return "waiting"
        if self.engine.is_finished(self.game.state):
            return "finished"
        return "abandoned" if self.abandoned else "playing"

    @property
    def over(self) -> bool:
        """Finished or abandoned: nothing more is played, the server seed may be shown."""
        return self.status in ("finished", "abandoned")

    def present(self) -> list[int]:
        """The seats whose players play them themselves (not a bot, not away, not gone)."""
        return [i for i, s in enumerate(self.seats) if s is not None and s.present]

    def free_seats(self) -> int:
        """Seats nobody holds (a rematch's kept seats are held)."""
        return sum(1 for s in self.seats if s is None)

    def seat_to_time(self) -> int | None:
        """The seat whose move the turn timer is running for: a player's, at a timed table."""
        if self.settings.timer is None or self.status != "playing":
            return None
        seat = self.current_seat()
        occupant = None if seat is None else self.seats[seat]
        return seat if occupant is not None and occupant.present else None

    def current_seat(self) -> int | None:
        """The seat to act, or ``None`` before the start and after the end."""
        if self.game is None:
            return None
        index = self.engine.current_player(self.game.state)
        return None if index is None else self.order[index]

    def bot_to_move(self) -> int | None:
        """The seat of the bot that must act now, if a bot must.

        A stand-in bot plays the seat of a player who is away or has left, while some
        player is still at the table; with every player away the game waits for them
        (and ends as abandoned when they do not come back in time).
        """
        seat = self.current_seat()
        if seat is None or self.abandoned:
            return None
        occupant = self.seats[seat]
        if occupant is None:
            return None
        if occupant.bot is not None:
            return seat
        return seat if not occupant.present and self.present() else None

    def seat_of(self, token: str) -> int:
        """The seat whose secret token this is; :class:`Refusal` ``unknown_token`` otherwise."""
        digest = token_hash(token)
        for seat, occupant in enumerate(self.seats):
            if occupant and occupant.token_sha256 and hmac.compare_digest(occupant.token_sha256, digest):
                return seat
        raise Refusal("unknown_token")

    def check_arranger(self, token: str) -> None:
        """:class:`Refusal` ``unknown_token`` unless ``token`` is a seated player's or the
        creator's (:attr:`TableSettings.owner_sha256`): who may fill the table with bots."""
        owner = self.settings.owner_sha256
        if owner is not None and hmac.compare_digest(owner, token_hash(token)):
            return
        self.seat_of(token)

    def name_of(self, seat: int) -> str:
        """The name a seat was taken under (as the record writes it)."""
        occupant = self.seats[seat]
        return occupant.name if occupant else f"seat {seat + 1}"

    def dice(self) -> DiceSource | None:
        """Where the dice the table throws itself (online) come from: the fair dice of its seeds,
        the nonce counting the throws made so far; ``None`` before the seeds are set and at a
        scorekeeper table. A table played in the browser throws the device's dice instead
        (:class:`kosti.web.host.DeviceTable`)."""
        if not self.online or self.server_seed is None or self.client_seed is None:
            return None
        return FairDice(self.server_seed, self.client_seed, self.nonce)

    def fair(self) -> dict[str, Any] | None:
        """The ``"fair"`` object of the record: the server seed only once the game is over."""
        if self.server_seed is None:
            return None
        data: dict[str, Any] = {"server_seed_sha256": commitment(self.server_seed)}
        if self.client_seed is not None:
            data["client_seed"] = self.client_seed
        if self.over:
            data["server_seed"] = self.server_seed.hex()
        return data

    def record(self) -> Record:
        """The game's record (RULES.md §5) with the fair-dice keys; refused before the start."""
        if self.game is None:
            raise Refusal("not_started", why="record")
        kept = self.game.recorder.record
        extra: dict[str, Any] = {}
        fair = self.fair()
        if fair is not None:
            extra["fair"] = fair
        if self.rolloff:
            extra["rolloff"] = self.rolloff
        if self.abandoned:
            extra["abandoned"] = True
        if self.status == "finished":  # kosti verify catches legal decisions swapped between turns by it
            shown = summary(self.game.state)  # the same as kosti.server.fair.game_result
            scores = {p["name"]: p["score"] for p in shown["players"]}
            extra["result"] = {"scores": scores, "winner": shown["winner"]}
        turns = [Turn(t.player, list(t.actions)) for t in kept.turns]
        return Record(kept.variant, list(kept.players), turns, dict(kept.options), extra)

    # -- changing ------------------------------------------------------------

    def apply(self, event: TableEvent) -> None:
        """Apply one planned or stored event: the only way a table changes."""
        name: str | None = None
        caused: tuple[Event, ...] = ()
        match event:
            case Join():
                self.seats[event.seat] = Seat(event.name, event.token_sha256, event.client_seed)
                name = event.name
            case BotSeated():
                self.seats[event.seat] = Seat(event.name, bot=event.level)
                name = event.name
            case Reserve():
                self.seats[event.seat] = Seat(event.name, event.token_sha256, reserved=True)
                name = event.name
            case Start():
                self.order = list(event.order)
                self.client_seed = event.client_seed
                self.rolloff = list(event.rolloff)
                self.nonce = len(self.rolloff)
                self.game = TableGame(self.rules, self.engine, [self.name_of(seat) for seat in self.order])
            case Move():
                caused = self._move(event)
                name = self.name_of(event.seat)
            case Undo():
                self._started().undo()
                self.in_force.pop()
                self.replays += 1
            case Edit():
                self._started().edit(event.throw, event.faces)
                self.replays += 1
            case Timeout() | Back() | Leave():
                name = self._seat_changes(event)
            case Abandon():
                self.abandoned = True
            case Rematch():
                self.rematch = event.id
            case _:
                assert_never(event)
        self.version += 1
        self.log.append(LogEntry(self.version, event, name, caused))
        if isinstance(event, Move):
            self.in_force.append(self.version)

    def _started(self) -> TableGame:
        if self.game is None:
            raise KostiError(f"table {self.id}: a move before the start")
        return self.game

    def _move(self, event: Move) -> tuple[Event, ...]:
        game = self._started()
        planned = event.planned
        steps = None
        if planned is not None and planned.version == self.version and planned.state is game.state:
            steps = planned.steps
        caused = game.play(event.seat, event.actions, steps)
        if self.online:
            self.nonce += sum(1 for action in event.actions if isinstance(action, Roll))
        return caused

    def _seat_changes(self, event: Timeout | Back | Leave) -> str:
        """A player away, back, or gone: the name of the seat."""
        occupant = self.seats[event.seat]
        if occupant is None:
            raise KostiError(f"table {self.id}: {event.kind} of the empty seat {event.seat}")
        if isinstance(event, Leave) and self.game is None:
            self.seats[event.seat] = None  # before the start a seat is simply freed
        elif isinstance(event, Leave):
            occupant.left = True
            occupant.resigned = event.resign
        else:
            occupant.away = isinstance(event, Timeout)
        return occupant.name
