"""Tables over REST: the open ones, create, read, join, seat a bot, leave, come back, rematch, the record."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from kosti.server.hub import state_message
from kosti.server.messages import AddBot, CreateTable, JoinTable, LeaveTable, SeatRequest
from kosti.server.routes.deps import HubDep, Limited
from kosti.server.table import Event, Table

router = APIRouter(prefix="/api/tables")


@router.get("")
async def open_tables(hub: HubDep, lang: Annotated[str, Query(pattern="^(ru|en)$")] = "en") -> dict[str, Any]:
    """The public tables waiting for players: the lobby."""
    return {"tables": await hub.open_tables(lang)}


@router.post("", status_code=201, dependencies=[Limited])
async def create_table(request: Request, hub: HubDep, body: CreateTable) -> dict[str, Any]:
    """A new table; with ``name``, its creator seated too (``seat`` and ``token`` as a join gives);
    without, ``token`` is the creator's, which seats bots."""
    table, token = await hub.create(body, request.client.host if request.client else None)
    made = {"id": table.id, "invite": f"/t/{table.id}", "fair": table.fair(), "version": table.version}
    if body.name is not None and token is not None:
        made.update(seat=table.seat_of(token), token=token)
    elif token is not None:
        made.update(token=token)  # the creator's, to seat bots with: they hold no seat
    return made


@router.get("/{table_id}")
async def get_table(hub: HubDep, table_id: str) -> dict[str, Any]:
    async with hub.visit(table_id) as room:
        return state_message(room.table)


@router.post("/{table_id}/join", dependencies=[Limited])
async def join(hub: HubDep, table_id: str, body: JoinTable) -> dict[str, Any]:
    async with hub.visit(table_id) as room:
        token = ""

        def plan(table: Table) -> list[Event]:
            nonlocal token
            events, token = table.plan_join(body.name, body.client_seed, body.token)
            return events

        await hub.change(room, plan)
        return {"seat": room.table.seat_of(token), "token": token, "version": room.table.version}


@router.post("/{table_id}/bots", dependencies=[Limited])
async def add_bot(hub: HubDep, table_id: str, body: AddBot) -> dict[str, Any]:
    """Seat a bot, for a seated player or the table's creator (their ``token``)."""
    async with hub.visit(table_id) as room:
        seat: list[int] = []

        def plan(table: Table) -> list[Event]:
            events = table.plan_bot(body.token, body.seat, body.level)
            seat.append(events[0][1]["seat"])
            return events

        await hub.change(room, plan)
        occupant = room.table.seats[seat[-1]]  # planned again if another process wrote first
        return {"seat": seat[-1], "name": occupant.name if occupant else None, "version": room.table.version}


@router.post("/{table_id}/leave", dependencies=[Limited])
async def leave(hub: HubDep, table_id: str, body: LeaveTable) -> dict[str, Any]:
    """Resign or leave: a stand-in bot plays the seat out (before the start, the seat is freed)."""
    async with hub.visit(table_id) as room:
        await hub.change(room, lambda table: table.plan_leave(body.token, body.resign))
        return {"version": room.table.version, "status": room.table.status}


@router.post("/{table_id}/back", dependencies=[Limited])
async def back(hub: HubDep, table_id: str, body: SeatRequest) -> dict[str, Any]:
    """Take back a seat the stand-in bot plays since its turn ran out."""
    async with hub.visit(table_id) as room:
        await hub.change(room, lambda table: table.plan_back(body.token))
        return {"version": room.table.version}


@router.post("/{table_id}/rematch", dependencies=[Limited])
async def rematch(hub: HubDep, table_id: str, body: SeatRequest) -> dict[str, Any]:
    """The rematch of a game that is over, with the same seats: ``{id}`` of its table."""
    async with hub.visit(table_id) as room:
        new_id = await hub.rematch(room, body.token)
        return {"id": new_id, "invite": f"/t/{new_id}"}


@router.get("/{table_id}/record")
async def record(hub: HubDep, table_id: str) -> dict[str, Any]:
    async with hub.visit(table_id) as room:
        return room.table.record().to_json()
