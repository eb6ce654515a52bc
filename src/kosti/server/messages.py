"""What clients may send, as pydantic models: every field checked, with a clear reason when not.

REST bodies: :class:`CreateTable`, :class:`JoinTable`, :class:`AddBot`.
WebSocket messages (JSON text, one object a message): :class:`ActionMessage`,
:class:`HintMessage`, :class:`HelloMessage`, :class:`PingMessage`, :class:`EmoteMessage`; the
server answers with ``state``, ``hint``, ``notice``, ``emote``, ``pong`` and ``error``
messages (see :mod:`kosti.server.routes.play`).
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from kosti.server.bots import MAX_SEATS

NAME_LENGTH = 24
TOKEN_LENGTH = 64


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


def printable(name: str | None) -> str | None:
    """``name`` if every character of it is printable; else :class:`ValueError`."""
    for ch in name or "":
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise ValueError("a name is made of printable characters")
    return name


CLIENT_SEED = r"^[A-Za-z0-9_-]{1,64}$"


class CreateTable(Strict):
    """A new table: the game, its option overrides, the number of seats and how dice are thrown.

    With ``name``, its creator sits down in the first seat in the same request (as
    :class:`JoinTable` would seat them, ``client_seed`` theirs): nobody can take the seat
    between the two, and a refused name makes no table."""

    variant: str = Field(min_length=1, max_length=200, description="A preset id or canonical variant string.")
    options: dict[str, Any] = Field(default_factory=dict, max_length=40)
    seats: int = Field(ge=1, le=MAX_SEATS)
    mode: Literal["online", "scorekeeper"] = "online"
    hints: bool = False
    private: bool = False
    timer: int | None = Field(default=None, ge=1, le=3600, description="Seconds for each move.")
    name: str | None = Field(
        default=None, min_length=1, max_length=NAME_LENGTH, description="Seat the creator under this name."
    )
    client_seed: str | None = Field(default=None, pattern=CLIENT_SEED)

    _printable = field_validator("name")(printable)


class JoinTable(Strict):
    """Sit down at a table under a name; the browser contributes part of the client seed."""

    name: str = Field(min_length=1, max_length=NAME_LENGTH)
    client_seed: str | None = Field(default=None, pattern=CLIENT_SEED)
    token: str | None = Field(default=None, min_length=1, max_length=TOKEN_LENGTH)
    """The seat token of the table a rematch came from: sit down in the seat it keeps."""

    _printable = field_validator("name")(printable)


class AddBot(Strict):
    """Seat a bot (in ``seat``, or the first empty one): asked with a seated player's token, or
    with the token the creator of a table was given when they did not sit down."""

    token: str = Field(min_length=1, max_length=TOKEN_LENGTH)
    seat: int | None = Field(default=None, ge=0, lt=MAX_SEATS)
    level: str = Field(default="random", pattern=r"^[a-z0-9_-]{1,24}$")


class SeatRequest(Strict):
    """A request of the seat of ``token``: take it back, offer a rematch."""

    token: str = Field(min_length=1, max_length=TOKEN_LENGTH)


class LeaveTable(SeatRequest):
    """Resign (``resign``: and watch on) or leave the table; a stand-in bot plays the seat out."""

    resign: bool = False


class ActionMessage(Strict):
    """Act for the seat of ``token`` at table version ``version``.

    ``action`` is a record action (RULES.md §5: ``{"hold": [6, 6]}``, ``{"score": "sixes"}``,
    ``"stop"`` …) or an action's notation (:meth:`kosti.actions.Action.parse`: ``"throw"``,
    throw the dice now, ``"hold 6 6"`` …).
    """

    type: Literal["action"]
    version: int = Field(ge=0)
    token: str = Field(min_length=1, max_length=TOKEN_LENGTH)
    action: str | dict[str, Any] | list[str | dict[str, Any]]
    """One action, or a list of up to four played as one move, all in the mover's turn (RULES.md §4):
    at a scorekeeper table a hold and the throw typed in after it; at an online table a throw,
    which the server makes, comes only last, and nothing rides after it."""


class HintMessage(Strict):
    """Ask for a hint for the seat of ``token`` at table version ``version`` (tables with hints)."""

    type: Literal["hint"]
    version: int = Field(ge=0)
    token: str = Field(min_length=1, max_length=TOKEN_LENGTH)


class UndoMessage(Strict):
    """Scorekeeper: take back the last action."""

    type: Literal["undo"]
    version: int = Field(ge=0)
    token: str = Field(min_length=1, max_length=TOKEN_LENGTH)


class EditMessage(Strict):
    """Scorekeeper: throw number ``throw`` (from 1) showed ``faces``; the game is replayed."""

    type: Literal["edit"]
    version: int = Field(ge=0)
    token: str = Field(min_length=1, max_length=TOKEN_LENGTH)
    throw: int = Field(ge=1)
    faces: list[int] = Field(min_length=1, max_length=5)


class HelloMessage(Strict):
    """Say which seat this socket is (a seated player always gets in, even at a crowded table)."""

    type: Literal["hello"]
    token: str = Field(min_length=1, max_length=TOKEN_LENGTH)


class EmoteMessage(Strict):
    """Say a quick phrase to the table as the seat of ``token``: ``emote`` is its key
    (:data:`kosti.server.emotes.EMOTES`), never text; another key is refused (``bad_emote``)."""

    type: Literal["emote"]
    token: str = Field(min_length=1, max_length=TOKEN_LENGTH)
    emote: str = Field(min_length=1, max_length=200)


class PingMessage(Strict):
    """Keep a quiet socket open; answered ``{"type": "pong"}``."""

    type: Literal["ping"]


AnyMessage = (
    ActionMessage | HintMessage | HelloMessage | PingMessage | UndoMessage | EditMessage | EmoteMessage
)
ClientMessage = Annotated[AnyMessage, Field(discriminator="type")]
client_message: TypeAdapter[AnyMessage] = TypeAdapter(ClientMessage)


def reason(error: ValidationError) -> str:
    """One line saying what is wrong with a message, from pydantic's first error."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" if where else str(first["msg"])
