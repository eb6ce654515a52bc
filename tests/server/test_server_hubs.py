"""Two hubs (as two worker processes) on one database: one order of events per table.

The bug this guards against: two processes on one database disagreed, one showing a
table "waiting" at version 1 and the other "playing" at version 3.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from server_helpers import fast_settings, first_legal_bots

from kosti.server.hub import Hub
from kosti.server.refusal import Refusal
from kosti.server.store import Store
from kosti.server.table import Event, Table, TableSettings


class Socket:
    """Stands for a WebSocket: keeps what it is sent."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    @property
    def query_params(self) -> dict[str, str]:
        return {}


def joining(name: str) -> Any:
    def plan(table: Table) -> list[Event]:
        return table.plan_join(name, name)[0]

    return plan


@pytest.mark.asyncio
async def test_the_writer_that_is_behind_is_refused_as_stale_and_catches_up(sqlite_url: str) -> None:
    settings = fast_settings(sqlite_url)
    first, second = (Hub(Store(sqlite_url), settings, first_legal_bots) for _ in range(2))
    try:
        room = await first._new_room(TableSettings("poker-free", 3), None)
        behind = await second.room(room.table.id)  # loaded at version 0
        watcher = Socket()
        behind.sockets[watcher] = None  # type: ignore[index]
        await first.change(room, joining("Anna"))  # version 1, unknown to the second hub
        with pytest.raises(Refusal) as stale:
            await second.change(behind, joining("Boris"))  # would write version 1 again
        assert stale.value.code == "stale"
        assert behind.table.version == 1  # it read what the other wrote
        assert [s.name for s in behind.table.seats if s] == ["Anna"]
        assert watcher.sent[-1]["version"] == 1  # and showed it
        await second.change(behind, joining("Boris"))  # now it writes version 2
        log = Store(sqlite_url).load(room.table.id)
        assert log is not None
        assert [data["name"] for _, data in log.events] == ["Anna", "Boris"]
    finally:
        await first.close()
        await second.close()


@pytest.mark.asyncio
async def test_a_published_commit_is_shown_in_order_and_a_gap_is_read_from_the_log(sqlite_url: str) -> None:
    settings = fast_settings(sqlite_url)
    first, second = (Hub(Store(sqlite_url), settings, first_legal_bots) for _ in range(2))
    try:
        room = await first._new_room(TableSettings("poker-free", 3), None)
        other = await second.room(room.table.id)
        watcher = Socket()
        other.sockets[watcher] = None  # type: ignore[index]
        await first.change(room, joining("Anna"))
        anna = room.table.log[-1]
        await second.published(room.table.id, 0, [("join", _event(first, room, 0))])
        assert other.table.version == 1
        await second.published(room.table.id, 0, [("join", _event(first, room, 0))])  # again: ignored
        assert [m["version"] for m in watcher.sent] == [1]
        await first.change(room, joining("Boris"))
        await first.change(room, joining("Vera"))  # the last seat: join and start, versions 3 and 4
        assert room.table.version == 4
        # the message of version 2 was lost; that of 3 and 4 arrives: the gap is read from the log
        await second.published(room.table.id, 2, first.store.since(room.table.id, 2))
        assert other.table.version == 4
        assert other.table.status == "playing"
        assert [s.name for s in other.table.seats if s] == ["Anna", "Boris", "Vera"]
        assert [m["version"] for m in watcher.sent] == [1, 4]
        assert anna["name"] == "Anna"
    finally:
        await first.close()
        await second.close()


@pytest.mark.asyncio
async def test_the_view_another_process_computed_is_shown_as_it_is_and_only_at_its_version(
    sqlite_url: str,
) -> None:
    settings = fast_settings(sqlite_url)
    first, second = (Hub(Store(sqlite_url), settings, first_legal_bots) for _ in range(2))
    try:
        room = await first._new_room(TableSettings("poker-free", 3), None)
        other = await second.room(room.table.id)
        watcher = Socket()
        other.sockets[watcher] = None  # type: ignore[index]
        first.rooms[room.table.id].sockets[Socket()] = None  # type: ignore[index]
        await first.change(room, joining("Anna"))
        views = room.table.bodies()
        assert set(views) == {"en"}  # what the first process showed its socket
        computed = json.loads(json.dumps(views))  # as it comes over the bus
        await second.published(room.table.id, 0, [("join", _event(first, room, 0))], computed)
        assert other.table.body("en") is computed["en"]  # not computed again
        assert watcher.sent[-1]["table"] == {**room.table.view(), "seconds_left": None}
        # a view of another version than the table's is not taken
        stale = {"en": {**computed["en"], "status": "nonsense"}}
        await first.change(room, joining("Boris"))
        await second.published(room.table.id, 1, [("join", _event(first, room, 1))], {})
        other.table.adopt_body(1, "en", stale["en"])
        assert other.table.body("en")["status"] == "waiting"
    finally:
        await first.close()
        await second.close()


def _event(hub: Hub, room: Any, version: int) -> dict[str, Any]:
    """The stored data of the event after ``version``."""
    return hub.store.since(room.table.id, version)[0][1]
