"""Tables over REST: the open ones, create, read, join, seat a bot, leave, come back, rematch, the record."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from kosti.server.answers import (
    BotSeatedAnswer,
    GameRecord,
    Left,
    OpenTables,
    RematchMade,
    Seated,
    TableMade,
    TableState,
    Verification,
    Version,
)
from kosti.server.audit import verify_table
from kosti.server.messages import AddBot, CreateTable, JoinTable, LeaveTable, SeatRequest
from kosti.server.routes.deps import HubDep, Limited

router = APIRouter(prefix="/api/tables")


@router.get("", response_model=OpenTables)
async def open_tables(hub: HubDep, lang: Annotated[str, Query(pattern="^(ru|en)$")] = "en") -> dict[str, Any]:
    """The public tables waiting for players: the lobby."""
    return {"tables": await hub.open_tables(lang)}


@router.post(
    "", status_code=201, dependencies=[Limited], response_model=TableMade, response_model_exclude_unset=True
)
async def create_table(request: Request, hub: HubDep, body: CreateTable) -> TableMade:
    """A new table; with ``name``, its creator seated too (``seat`` and ``token`` as a join gives);
    without, ``token`` is the creator's, which seats bots."""
    return await hub.create(body, request.client.host if request.client else None)


@router.get("/{table_id}", response_model=TableState)
async def get_table(hub: HubDep, table_id: str) -> TableState:
    return await hub.state(table_id)


@router.post("/{table_id}/join", dependencies=[Limited], response_model=Seated)
async def join(hub: HubDep, table_id: str, body: JoinTable) -> Seated:
    return await hub.join(table_id, body)


@router.post("/{table_id}/bots", dependencies=[Limited], response_model=BotSeatedAnswer)
async def add_bot(hub: HubDep, table_id: str, body: AddBot) -> BotSeatedAnswer:
    """Seat a bot, for a seated player or the table's creator (their ``token``)."""
    return await hub.add_bot(table_id, body.token, body.seat, body.level)


@router.post("/{table_id}/leave", dependencies=[Limited], response_model=Left)
async def leave(hub: HubDep, table_id: str, body: LeaveTable) -> Left:
    """Resign or leave: a stand-in bot plays the seat out (before the start, the seat is freed)."""
    return await hub.leave(table_id, body.token, body.resign)


@router.post("/{table_id}/back", dependencies=[Limited], response_model=Version)
async def back(hub: HubDep, table_id: str, body: SeatRequest) -> Version:
    """Take back a seat the stand-in bot plays since its turn ran out."""
    return await hub.back(table_id, body.token)


@router.post("/{table_id}/rematch", dependencies=[Limited], response_model=RematchMade)
async def rematch(hub: HubDep, table_id: str, body: SeatRequest) -> RematchMade:
    """The rematch of a game that is over, with the same seats: ``{id}`` of its table."""
    return await hub.rematch(table_id, body.token)


@router.get("/{table_id}/verify", response_model=Verification)
async def verify(hub: HubDep, table_id: str) -> Verification:
    """The game's record checked as ``kosti verify`` checks it (:func:`kosti.server.fair.verify`):
    every die against the seeds, every decision against the rules; ``pending`` until the game is
    over and the server seed is revealed."""
    return await verify_table(hub, table_id)


@router.get("/{table_id}/record", response_model=GameRecord, response_model_exclude_unset=True)
async def record(hub: HubDep, table_id: str) -> dict[str, Any]:
    """The game's record (RULES.md §5): the server seed in it only once the game is over."""
    return await hub.record(table_id)
