"""Two hubs (as two worker processes) on one database: one order of events per table.

The bug this guards against: two processes on one database disagreed, one showing a
table "waiting" at version 1 and the other "playing" at version 3.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from server_helpers import fast_settings, first_legal_bots

from kosti.server.bus import Changes, LocalBus
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


class ChangeSocket(Socket):
    """A socket that asked for changes; keeps the texts it is sent too."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    async def send_text(self, text: str) -> None:
        self.texts.append(text)
        await super().send_text(text)

    @property
    def query_params(self) -> dict[str, str]:
        return {"changes": "1"}


class RecordingBus(LocalBus):
    """Publishes to nobody, but keeps what it was given."""

    def __init__(self) -> None:
        self.published: list[tuple[str, int, list[Event], Changes]] = []

    async def publish(self, table_id: str, version: int, events: list[Event], changes: Changes) -> None:
        self.published.append((table_id, version, events, changes))


@pytest.mark.asyncio
async def test_the_change_another_process_sent_is_sent_as_it_is_where_the_same_version_was_shown(
    sqlite_url: str,
) -> None:
    settings = fast_settings(sqlite_url)
    bus = RecordingBus()
    first = Hub(Store(sqlite_url), settings, first_legal_bots, bus)
    second = Hub(Store(sqlite_url), settings, first_legal_bots)
    try:
        room = await first._new_room(TableSettings("poker-free", 3), None)
        other = await second.room(room.table.id)
        mine, theirs = ChangeSocket(), ChangeSocket()
        for hub, at in ((first, room), (second, other)):
            at.sockets[mine if hub is first else theirs] = None  # type: ignore[index]
            await hub.show_state(at, mine if hub is first else theirs)  # type: ignore[arg-type]
        await first.change(room, joining("Anna"))
        table_id, version, events, changes = bus.published[-1]
        assert set(changes) == {"en"} and changes["en"][0] == 0  # the change its socket was sent

        def computed(lang: str) -> dict[str, Any]:
            raise AssertionError("the view was computed again")

        computing = other.table._body
        other.table._body = computed  # type: ignore[method-assign]
        await second.published(table_id, version, events, changes)
        assert theirs.texts[-1] == mine.texts[-1]  # the very text, not made again
        assert other.table.body("en") == json.loads(json.dumps(room.table.body("en")))
        other.table._body = computing  # type: ignore[method-assign]

        # a change reckoned from another version than the one shown here is not sent
        await first.change(room, joining("Boris"))
        table_id, version, events, _ = bus.published[-1]
        wrong = {"en": (0, json.dumps({"type": "change", "since": 0, "version": 2, "table": {}, "log": []}))}
        await second.published(table_id, version, events, wrong)
        assert theirs.sent[-1]["since"] == 1 and theirs.sent[-1]["version"] == 2
        assert [s["name"] for s in theirs.sent[-1]["table"]["seats"] if s["name"]] == ["Anna", "Boris"]
    finally:
        await first.close()
        await second.close()


def _event(hub: Hub, room: Any, version: int) -> dict[str, Any]:
    """The stored data of the event after ``version``."""
    return hub.store.since(room.table.id, version)[0][1]
