"""Two hubs (as two worker processes) on one database: one order of events per table.

The bug this guards against: two processes on one database disagreed, one showing a
table "waiting" at version 1 and the other "playing" at version 3.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from server_helpers import fast_settings, first_legal_bots

from kosti.server.bus import Changes, LocalBus
from kosti.server.events import StoredEvent, TableEvent
from kosti.server.hub import Hub
from kosti.server.messages import CreateTable
from kosti.server.planning import plan_action
from kosti.server.refusal import Refusal
from kosti.server.seating import plan_join
from kosti.server.store import Store
from kosti.server.table import Table, TableSettings


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
    def plan(table: Table) -> list[TableEvent]:
        return plan_join(table, name, name)[0]

    return plan


@pytest.mark.asyncio
async def test_a_join_at_a_process_that_is_behind_reads_what_it_missed_and_goes_through(
    sqlite_url: str,
) -> None:
    settings = fast_settings(sqlite_url)
    first, second = (Hub(Store(sqlite_url), settings, first_legal_bots) for _ in range(2))
    try:
        room = await first._new_room(TableSettings("poker-free", 3), None)
        behind = await second.room(room.table.id)  # loaded at version 0
        watcher = Socket()
        behind.sockets[watcher] = None  # type: ignore[index]
        await first.change(room, joining("Anna"))  # version 1, unknown to the second hub
        planned: list[int] = []

        def boris(table: Table) -> list[TableEvent]:
            planned.append(table.version)
            return plan_join(table, "Boris", "Boris")[0]

        await second.change(behind, boris)  # its first write, of version 1, is refused
        assert planned == [0, 1]  # so it is planned again, on the table as the other left it
        assert behind.table.version == 2
        assert [s.name for s in behind.table.seats if s] == ["Anna", "Boris"]
        assert [m["version"] for m in watcher.sent] == [1, 2]  # what it read, then its own
        log = Store(sqlite_url).load(room.table.id)
        assert log is not None
        assert [data["name"] for _, data in log.events] == ["Anna", "Boris"]
    finally:
        await first.close()
        await second.close()


@pytest.mark.asyncio
async def test_a_move_at_a_process_that_is_behind_is_refused_as_stale_and_it_catches_up(
    sqlite_url: str,
) -> None:
    settings = fast_settings(sqlite_url)
    first, second = (Hub(Store(sqlite_url), settings, first_legal_bots) for _ in range(2))
    try:
        room = await first._new_room(TableSettings("poker-free", 1), None)
        token = ""

        def anna(table: Table) -> list[TableEvent]:
            nonlocal token
            events, token = plan_join(table, "Anna", "Anna")
            return events

        await first.change(room, anna)  # join and start: version 2
        behind = await second.room(room.table.id)
        watcher = Socket()
        behind.sockets[watcher] = None  # type: ignore[index]
        await first.change(room, lambda table: plan_action(table, token, 2, "throw"))  # version 3
        with pytest.raises(Refusal) as stale:  # the same player's next move, seen at version 2
            await second.change(behind, lambda table: plan_action(table, token, 2, "throw"))
        assert stale.value.code == "stale"
        assert behind.table.version == 3  # it read what the other wrote
        assert watcher.sent[-1]["version"] == 3  # and showed it
        log = Store(sqlite_url).load(room.table.id)
        assert log is not None
        assert [kind for kind, _ in log.events] == ["join", "start", "action"]
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
        assert anna.name == "Anna"
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
        self.published: list[tuple[str, int, list[StoredEvent], Changes]] = []

    async def publish(self, table_id: str, version: int, events: list[StoredEvent], changes: Changes) -> None:
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

        computing = other.view._body
        other.view._body = computed  # type: ignore[method-assign]
        await second.published(table_id, version, events, changes)
        assert theirs.texts[-1] == mine.texts[-1]  # the very text, not made again
        assert other.view.body("en") == json.loads(json.dumps(room.view.body("en")))
        other.view._body = computing  # type: ignore[method-assign]

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


class CountingStore(Store):
    """A store that counts the tables it loads and the counts of live tables it makes."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.loads = 0
        self.counts = 0

    def load(self, table_id: str) -> Any:
        self.loads += 1
        return super().load(table_id)

    def live(self, creator: str | None = None) -> int:
        self.counts += 1
        return super().live(creator)


@pytest.mark.asyncio
async def test_a_table_nobody_watches_stays_for_a_moment_then_is_forgotten(sqlite_url: str) -> None:
    store = CountingStore(sqlite_url)
    hub = Hub(store, fast_settings(sqlite_url, linger=0.3), first_legal_bots)
    try:
        room = await hub._new_room(TableSettings("poker-free", 2), None)
        hub.release(room)
        for name in ("Anna", "Boris"):  # the players join moments later: it is still here
            async with hub.visit(room.table.id) as visited:
                assert visited is room
                await hub.change(visited, joining(name))
        assert store.loads == 0
        await asyncio.sleep(0.2)  # each release starts the moment again
        assert room.table.id in hub.rooms
        await asyncio.sleep(0.3)
        assert room.table.id not in hub.rooms
        async with hub.visit(room.table.id) as again:  # read back from storage, as it was
            assert again is not room
            assert again.table.version == room.table.version == 3
        assert store.loads == 1
    finally:
        await hub.close()
    hub = Hub(Store(sqlite_url), fast_settings(sqlite_url, linger=0), first_legal_bots)
    try:
        room = await hub._new_room(TableSettings("poker-free", 2), None)
        hub.release(room)
        assert room.table.id not in hub.rooms  # no moment at all
    finally:
        await hub.close()


@pytest.mark.asyncio
async def test_live_tables_are_counted_again_only_near_the_cap(sqlite_url: str) -> None:
    body = CreateTable(variant="poker-free", seats=1)
    store = CountingStore(sqlite_url)
    hub = Hub(store, fast_settings(sqlite_url, max_tables=1000, http_limits=False), first_legal_bots)
    try:
        for _ in range(5):
            await hub.create(body, None)
        assert store.counts == 1  # far from the cap: counted once, the tables made here added
    finally:
        await hub.close()
    # near the cap every process counts every time: tables another process made count at once
    settings = fast_settings(sqlite_url, max_tables=8, http_limits=False)
    first, second = (Hub(Store(sqlite_url), settings, first_legal_bots) for _ in range(2))
    try:
        await first.create(body, None)  # the sixth live table
        await second.create(body, None)
        await second.create(body, None)
        with pytest.raises(Refusal) as busy:
            await first.create(body, None)
        assert busy.value.code == "busy"
    finally:
        await first.close()
        await second.close()
