"""Play over a table's WebSocket ``/ws/{id}``: the state after every change, actions and hints in.

On connecting (``/ws/{id}?lang=ru`` for the log and bot names in Russian) the client
gets ``{"type": "state", "version", "table"}`` and gets one again after every change.
It may send ``{"type": "action", "version", "token", "action"}`` and ``{"type":
"hint", "version", "token"}`` (answered ``{"type": "hint", "text", "advice"}``); at a
scorekeeper table also ``{"type": "undo", "version", "token"}`` and ``{"type": "edit",
"version", "token", "throw", "faces"}``. A refused message is answered
``{"type": "error", "code", "reason", "version"}`` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from kosti.server.hub import Hub, Room, error_message, socket_language, state_message
from kosti.server.messages import ActionMessage, EditMessage, HintMessage, UndoMessage, client_message, reason
from kosti.server.routes.deps import HubDep, SettingsDep
from kosti.server.settings import TokenBucket
from kosti.server.table import Event, Refusal, Table

router = APIRouter()


@router.websocket("/ws/{table_id}")
async def play(websocket: WebSocket, table_id: str, hub: HubDep, settings: SettingsDep) -> None:
    await websocket.accept()
    try:
        room = await hub.room(table_id)
    except Refusal as refusal:
        await websocket.send_json(error_message(refusal, None))
        await websocket.close(code=4404)
        return
    if len(room.sockets) >= settings.watchers:
        await websocket.send_json(error_message(Refusal("crowded", "too many people watch this table"), None))
        await websocket.close(code=1013)
        return
    bucket = TokenBucket(settings.rate, settings.burst)
    room.sockets.add(websocket)
    try:
        await websocket.send_json(state_message(room.table, socket_language(websocket), room.seconds_left()))
        while True:
            incoming = await websocket.receive()
            if incoming["type"] == "websocket.disconnect":
                break
            text = incoming.get("text")
            if text is None:
                await _refuse(websocket, room, "bad_message", "messages are JSON text")
                continue
            if len(text) > settings.message_limit or len(text.encode()) > settings.message_limit:
                await _refuse(
                    websocket, room, "too_large", f"a message is {settings.message_limit} bytes at most"
                )
                await websocket.close(code=1009)
                break
            if not bucket.take():
                await _refuse(websocket, room, "rate_limited", "too many messages: slow down")
                continue
            await _handle(hub, room, websocket, text)
    except WebSocketDisconnect:
        pass
    finally:
        room.sockets.discard(websocket)
        hub.release(room)


async def _handle(hub: Hub, room: Room, websocket: WebSocket, text: str) -> None:
    try:
        message = client_message.validate_json(text)
    except ValidationError as error:
        await _refuse(websocket, room, "bad_message", reason(error))
        return
    try:
        if isinstance(message, HintMessage):
            await websocket.send_json(await hub.hint(room, message, socket_language(websocket)))
        else:
            await hub.change(room, _planner(message))
    except Refusal as refusal:
        await websocket.send_json(error_message(refusal, room.table))
        if refusal.code == "stale":
            await websocket.send_json(
                state_message(room.table, socket_language(websocket), room.seconds_left())
            )


def _planner(message: ActionMessage | UndoMessage | EditMessage) -> Callable[[Table], list[Event]]:
    """What a move, an undo or an edit plans at the table."""

    def plan(table: Table) -> list[Event]:
        if isinstance(message, ActionMessage):
            return table.plan_action(message.token, message.version, message.action)
        if isinstance(message, UndoMessage):
            return table.plan_undo(message.token, message.version)
        return table.plan_edit(message.token, message.version, message.throw, message.faces)

    return plan


async def _refuse(websocket: WebSocket, room: Room, code: str, why: str) -> None:
    await websocket.send_json(error_message(Refusal(code, why), room.table))
