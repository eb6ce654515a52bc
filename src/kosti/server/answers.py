"""What the REST routes answer, as pydantic models (FastAPI's ``response_model``).

The requests are in :mod:`kosti.server.messages`; a refused request is answered by
:func:`kosti.server.app.refused` instead (``{detail, code, params}``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict


class TableMade(BaseModel):
    """A new table: its id, its invite link, the fair dice's commitment and its version; with the
    creator seated, their seat and token; without, the creator's token (which seats bots)."""

    id: str
    invite: str
    fair: dict[str, Any] | None
    version: int
    seat: int | None = None
    token: str | None = None


class Seated(BaseModel):
    """A player seated: their seat, the seat's secret token, and the table's version after."""

    seat: int
    token: str
    version: int


class BotSeatedAnswer(BaseModel):
    """A bot seated: its seat, its name, and the table's version after."""

    seat: int
    name: str | None
    version: int


class Left(BaseModel):
    """A player resigned or left: the table's version and status after."""

    version: int
    status: str


class Version(BaseModel):
    """A change made: the table's version after it."""

    version: int


class RematchMade(BaseModel):
    """The table of a rematch, and its invite link."""

    id: str
    invite: str


class TableState(BaseModel):
    """The table as everyone sees it (the socket's ``state`` message)."""

    type: Literal["state"]
    version: int
    table: dict[str, Any]


class OpenTable(BaseModel):
    """A public table waiting for players, as the lobby lists it."""

    id: str
    preset: str
    name: str
    seats: int
    taken: int | None
    timer: int | None
    mode: str


class OpenTables(BaseModel):
    """The lobby: the public tables waiting for players, newest first."""

    tables: list[OpenTable]


class Verification(BaseModel):
    """A game's record checked by the server as ``kosti verify`` checks it."""

    status: Literal["fair", "incomplete", "not_fair", "pending"]
    """``pending``: the game goes on, its server seed not revealed yet; else the verdict."""
    throws: int = 0
    """Throws checked, the roll-off's included."""
    dice: int = 0
    """Dice checked."""
    reason: str = ""
    """What was checked, or the first difference (in English, as ``kosti verify`` says it)."""
    server_seed: str | None = None
    """The revealed server seed (hex), for the page to hash against the commitment it was shown."""
    server_seed_sha256: str | None = None
    """The commitment shown before the first throw."""


class RecordTurn(BaseModel):
    """One turn of a record: its player and their actions in record form (RULES.md §5)."""

    player: str
    actions: list[Any]


class GameRecord(BaseModel):
    """A game's record (RULES.md §5), with the keys a server adds (``fair``, ``rolloff``,
    ``result``, ``abandoned``) kept as they are."""

    model_config = ConfigDict(extra="allow")

    variant: str
    options: dict[str, Any] | None = None
    players: list[str]
    turns: list[RecordTurn]
