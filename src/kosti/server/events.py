"""What happens at a table, as typed events: one frozen dataclass a kind, each with its stored form.

A table is its settings plus a log of these events (:mod:`kosti.server.table`). A player sits
down (:class:`Join`), a bot takes a seat (:class:`BotSeated`), a rematch keeps a seat for its
player (:class:`Reserve`), the game starts with the roll-off (:class:`Start`), a player or bot
acts (:class:`Move`: the record actions it caused, dice included). The table's life has events
too: a turn runs out of time and a stand-in bot plays the seat (:class:`Timeout`) until its
player is back (:class:`Back`); a player resigns or leaves (:class:`Leave`); a game nobody is
left to play ends (:class:`Abandon`); a rematch is offered (:class:`Rematch`). At a scorekeeper
table the last action can be taken back (:class:`Undo`) and a past throw changed (:class:`Edit`).

Storage and the other processes keep an event in its stored form, ``(kind, data)`` with
``data`` a JSON object (:func:`stored`, :func:`from_stored`). That form is what the database
holds from the first table on: each class writes exactly the keys, in the order, that were
always written, and reads every event ever stored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from kosti.actions import Action, action_json, from_json
from kosti.errors import KostiError
from kosti.games.base import GameState

StoredEvent = tuple[str, dict[str, Any]]
"""An event as storage and the bus keep it: its kind (``join``, ``action`` …) and its JSON data."""


@dataclass(frozen=True)
class Join:
    """A player sits down (or takes the seat a rematch kept for them)."""

    kind: ClassVar[str] = "join"
    seat: int
    name: str
    token_sha256: str | None
    client_seed: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "token_sha256": self.token_sha256,
            "client_seed": self.client_seed,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Join:
        return cls(data["seat"], data["name"], data["token_sha256"], data["client_seed"])


@dataclass(frozen=True)
class BotSeated:
    """A bot of ``level`` takes a seat."""

    kind: ClassVar[str] = "bot"
    seat: int
    name: str
    level: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "level": self.level}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BotSeated:
        return cls(data["seat"], data["name"], data["level"])


@dataclass(frozen=True)
class Reserve:
    """A rematch keeps a seat for the player who held it at the old table."""

    kind: ClassVar[str] = "reserve"
    seat: int
    name: str
    token_sha256: str | None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "token_sha256": self.token_sha256}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Reserve:
        return cls(data["seat"], data["name"], data["token_sha256"])


@dataclass(frozen=True)
class Start:
    """The last seat is taken: the seats in playing order, the client seed, the roll-off's throws."""

    kind: ClassVar[str] = "start"
    order: tuple[int, ...]
    client_seed: str | None
    rolloff: tuple[dict[str, Any], ...] = ()
    """Each throw of the roll-off, ``{"player", "roll"}``, in the order made."""

    def to_json(self) -> dict[str, Any]:
        return {"order": list(self.order), "client_seed": self.client_seed, "rolloff": list(self.rolloff)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Start:
        return cls(tuple(data["order"]), data["client_seed"], tuple(data["rolloff"]))


@dataclass(frozen=True)
class Planned:
    """How a move was planned: at which version and state, and each of its actions with the state
    after it. Applying the move takes these states instead of playing the actions again; never
    stored (a move read back is simply played)."""

    version: int
    state: GameState
    steps: tuple[tuple[Action, GameState], ...]


@dataclass(frozen=True)
class Move:
    """A seat acts: the record actions of one message (or a bot's choice), the throws it caused included."""

    kind: ClassVar[str] = "action"
    seat: int
    actions: tuple[Action, ...]
    planned: Planned | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "actions": [action_json(a) for a in self.actions]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Move:
        return cls(data["seat"], tuple(parse_stored_action(item) for item in data["actions"]))


@dataclass(frozen=True)
class Undo:
    """Scorekeeper: the last move is taken back."""

    kind: ClassVar[str] = "undo"

    def to_json(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Undo:
        return cls()


@dataclass(frozen=True)
class Edit:
    """Scorekeeper: throw number ``throw`` (from 1) showed ``faces``; the game is replayed."""

    kind: ClassVar[str] = "edit"
    throw: int
    faces: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"throw": self.throw, "faces": list(self.faces)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Edit:
        return cls(data["throw"], tuple(data["faces"]))


@dataclass(frozen=True)
class Timeout:
    """The move of ``seat`` ran out of time: a stand-in bot plays the seat."""

    kind: ClassVar[str] = "timeout"
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Timeout:
        return cls(data["seat"])


@dataclass(frozen=True)
class Back:
    """The player of ``seat`` takes it back from the stand-in bot."""

    kind: ClassVar[str] = "back"
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Back:
        return cls(data["seat"])


@dataclass(frozen=True)
class Leave:
    """The player of ``seat`` leaves (``resign``: and watches on): freed before the start, played out
    by a stand-in bot after it."""

    kind: ClassVar[str] = "leave"
    seat: int
    resign: bool

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "resign": self.resign}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Leave:
        return cls(data["seat"], bool(data["resign"]))


@dataclass(frozen=True)
class Abandon:
    """The game ends unfinished: every player ``left``, or all stayed away past the ``timeout``."""

    kind: ClassVar[str] = "abandon"
    why: str

    def to_json(self) -> dict[str, Any]:
        return {"why": self.why}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Abandon:
        return cls(data["why"])


@dataclass(frozen=True)
class Rematch:
    """The rematch of the game is offered at table ``id``."""

    kind: ClassVar[str] = "rematch"
    id: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rematch:
        return cls(data["id"])


TableEvent = (
    Join | BotSeated | Reserve | Start | Move | Undo | Edit | Timeout | Back | Leave | Abandon | Rematch
)
"""Any event of a table's log."""

_READERS: dict[str, Callable[[dict[str, Any]], TableEvent]] = {
    kind.kind: kind.from_json
    for kind in (Join, BotSeated, Reserve, Start, Move, Undo, Edit, Timeout, Back, Leave, Abandon, Rematch)
}
"""How each kind of event is read from its stored data."""


def stored(event: TableEvent) -> StoredEvent:
    """``event`` as storage keeps it: ``(kind, data)``.

    >>> stored(Leave(1, resign=True))
    ('leave', {'seat': 1, 'resign': True})
    """
    return event.kind, event.to_json()


def from_stored(entry: StoredEvent) -> TableEvent:
    """The event of a stored ``(kind, data)``; :class:`KostiError` for a kind or data no event has.

    >>> from_stored(("edit", {"throw": 2, "faces": [6, 6, 1]}))
    Edit(throw=2, faces=(6, 6, 1))
    """
    kind, data = entry
    read = _READERS.get(kind)
    if read is None:
        raise KostiError(f"unknown event {kind!r}")
    try:
        return read(data)
    except (KeyError, TypeError, ValueError) as error:
        raise KostiError(f"a {kind!r} event that cannot be read: {error!r}") from None


def parse_stored_action(data: Any) -> Action:
    """An action as a move stores it (its record form; a throw on as ``"throw"``)."""
    return Action.parse(data) if isinstance(data, str) else from_json(data)
