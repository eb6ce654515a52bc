"""Two hubs (as in two worker processes) on one PostgreSQL and one Redis: a timed table's clock
and the stand-in bots it calls act once per turn, and the survivor takes over when the owner stops."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import (
    fast_settings,
    first_legal_bots,
    first_move,
    postgres_database,
    redis_url,
    seat_through,
    view,
)

from kosti.record import Record
from kosti.server.bus import RedisBus
from kosti.server.events import StoredEvent, TableEvent
from kosti.server.fair import verify
from kosti.server.hub import Hub
from kosti.server.planning import plan_action
from kosti.server.refusal import Refusal
from kosti.server.seating import plan_bot
from kosti.server.store import Store
from kosti.server.table import Table, TableSettings, token_hash

pytestmark = pytest.mark.timeout(120)

VARIANT = "poker-free(lower=[chance],first_player=seat)"


@pytest.fixture
def urls() -> Iterator[tuple[str, str]]:
    redis = redis_url()
    yield from ((database, redis) for database in postgres_database())


async def play_boris(hub: Hub, table_id: str, token: str, seconds: float, stop: int = 10**6) -> Table:
    """Move for Boris through ``hub`` whenever it is his turn, for ``seconds``, until the end or
    until version ``stop``."""
    room = await hub.room(table_id)
    boris = room.table.seat_of(token)
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    while loop.time() < until and not room.table.over and room.table.version < stop:
        game = view(room.table)["game"]
        if room.table.current_seat() == boris and game is not None:
            move = first_move(game)
            version = room.table.version

            def plan(table: Table, move: Any = move, version: int = version) -> list[TableEvent]:
                return plan_action(table, token, version, move)

            with contextlib.suppress(Refusal):
                await hub.change(room, plan)
        await asyncio.sleep(0.02)
    return room.table


@pytest.mark.asyncio
async def test_a_turn_timer_acts_once_and_passes_to_the_survivor(urls: tuple[str, str]) -> None:
    database, redis = urls
    settings = fast_settings(database, redis_url=redis, lease=0.3, bot_delay=0.02, stand_in="first")
    hubs = [
        Hub(Store(database), settings, first_legal_bots, RedisBus(redis, settings.lease)) for _ in range(2)
    ]
    for hub in hubs:
        await hub.start()
    try:
        room = await hubs[0]._new_room(TableSettings(VARIANT, 2, timer=1), None)
        table_id = room.table.id
        await seat_through(hubs[0], table_id, "Anna")  # who never moves: her clock runs out, once
        boris = await seat_through(hubs[1], table_id, "Boris")
        await play_boris(hubs[1], table_id, boris, 30.0, stop=12)  # meanwhile her stand-in plays
        assert not room.table.over
        assert "timeout" in [entry.event.kind for entry in room.table.log]
        # the process that drives the table stops without a word; the other takes over
        owner = 0 if await hubs[0].bus.claim(table_id) else 1
        await hubs[owner].close()
        table = await play_boris(hubs[1 - owner], table_id, boris, 60.0)
        assert table.over, f"the game stopped at version {table.version}"
        stored = Store(database)
        log = stored.load(table_id)
        stored.close()
        assert log is not None
        kinds = [kind for kind, _ in log.events]
        assert kinds.count("timeout") == 1  # once, though both processes ran her clock
        assert "abandon" not in kinds
        record = table.record()
        assert len(record.turns) == 2 * 7  # every turn once
        assert verify(Record.from_json(record.to_json())).fair
    finally:
        for hub in hubs:
            with contextlib.suppress(Exception):
                await hub.close()


@pytest.mark.asyncio
async def test_a_table_of_bots_alone_goes_on_when_its_process_stops(urls: tuple[str, str]) -> None:
    database, redis = urls
    settings = fast_settings(database, redis_url=redis, lease=0.3, bot_delay=0.05)
    hubs = [
        Hub(Store(database), settings, first_legal_bots, RedisBus(redis, settings.lease)) for _ in range(2)
    ]
    for hub in hubs:
        await hub.start()
    try:
        room = await hubs[0]._new_room(TableSettings(VARIANT, 2, owner_sha256=token_hash("owner")), None)
        table_id = room.table.id
        for seat_number in (0, 1):
            await hubs[0].change(room, lambda table, n=seat_number: plan_bot(table, "owner", n, "first"))
        while room.table.version < 8:
            await asyncio.sleep(0.02)
        assert table_id not in hubs[1].rooms  # nobody watches it there
        await hubs[0].close()  # the process driving it stops without handing anything over
        stopped = room.table.version
        for _ in range(600):
            survivor = hubs[1].rooms.get(table_id)
            if survivor is not None and survivor.table.over:
                break
            await asyncio.sleep(0.05)
        else:
            pytest.fail("the other process did not take the table on")
        assert survivor.table.version > stopped
        stored = Store(database)
        log = stored.load(table_id)
        stored.close()
        assert log is not None
        assert len(log.events) == survivor.table.version  # every move once
        assert len(survivor.table.record().turns) == 2 * 7
    finally:
        for hub in hubs:
            with contextlib.suppress(Exception):
                await hub.close()


@pytest.mark.asyncio
async def test_a_process_hears_the_tables_it_follows_in_the_order_committed_and_no_others() -> None:
    redis = redis_url()
    heard: list[tuple[str, int]] = []

    async def published(table_id: str, version: int, events: list[StoredEvent], changes: Any) -> None:
        heard.append((table_id, version))

    async def reconnected() -> None:
        return None

    listener, writer = RedisBus(redis, 1.0), RedisBus(redis, 1.0)
    await listener.start(published, reconnected)
    await writer.start(published, reconnected)
    mine, other = f"bus-test-{id(heard)}-a", f"bus-test-{id(heard)}-b"
    try:
        await listener.follow(mine)
        for version in range(20):  # one burst: the publisher sends what gathered in one round trip
            await writer.publish(mine, version, [("join", {})], {})
            await writer.publish(other, version, [("join", {})], {})
        for _ in range(200):
            if len(heard) == 20:
                break
            await asyncio.sleep(0.01)
        assert heard == [(mine, version) for version in range(20)]
        listener.unfollow(mine)
        await asyncio.sleep(0.1)  # Redis is told
        await writer.publish(mine, 20, [("join", {})], {})
        await listener.follow(other)
        await writer.publish(other, 20, [("join", {})], {})
        for _ in range(200):
            if len(heard) > 20:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        assert heard[20:] == [(other, 20)]
    finally:
        await listener.close()
        await writer.close()


@pytest.mark.asyncio
async def test_a_publisher_whose_connection_is_cut_sends_on_a_new_one() -> None:
    redis = redis_url()
    heard: list[int] = []

    async def published(table_id: str, version: int, events: list[StoredEvent], changes: Any) -> None:
        heard.append(version)

    async def reconnected() -> None:
        return None

    async def hear(count: int) -> None:
        for _ in range(300):
            if len(heard) >= count:
                return
            await asyncio.sleep(0.01)

    listener, writer = RedisBus(redis, 1.0), RedisBus(redis, 1.0)
    await listener.start(published, reconnected)
    await writer.start(published, reconnected)
    table = f"bus-test-{id(heard)}-cut"
    try:
        await listener.follow(table)
        await writer.publish(table, 0, [("join", {})], {})
        await hear(1)
        # every plain connection is cut, the publisher's own among them (not the listeners')
        await writer.redis.client_kill_filter(_type="normal", skipme=True)
        for version in (1, 2):
            await writer.publish(table, version, [("join", {})], {})
        await hear(3)
        assert heard == [0, 1, 2]
    finally:
        await listener.close()
        await writer.close()
