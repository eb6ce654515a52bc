"""Storage, the same tests on SQLite and on PostgreSQL: the log, migrations, and a restart."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from server_helpers import (
    add_bot,
    fast_settings,
    first_legal_bots,
    new_table,
    play_on,
    postgres_database,
    seat_players,
)
from sqlalchemy import inspect, text

from kosti.record import Record
from kosti.server.app import create_app
from kosti.server.fair import verify
from kosti.server.store import MANY_ROWS, Store, StoreError, default_url, normalize_url


def test_a_table_and_its_log_come_back_as_written(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.create(
            "t1", {"variant": "poker-free", "seats": 2, "mode": "online", "hints": False}, b"\x01" * 32
        )
        store.append("t1", 0, [("join", {"seat": 0, "name": "Анна «Ё»"}), ("bot", {"seat": 1, "level": "x"})])
        store.append("t1", 2, [("action", {"seat": 0, "actions": [{"roll": [6, 1, 2, 3, 4]}]})])
        stored = store.load("t1")
        assert stored is not None
        assert stored.server_seed == b"\x01" * 32
        assert stored.settings["variant"] == "poker-free"
        assert stored.events == [
            ("join", {"seat": 0, "name": "Анна «Ё»"}),
            ("bot", {"seat": 1, "level": "x"}),
            ("action", {"seat": 0, "actions": [{"roll": [6, 1, 2, 3, 4]}]}),
        ]
        assert store.load("t2") is None
    finally:
        store.close()


def test_a_version_is_written_once_and_a_refused_batch_writes_nothing(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.create("t1", {}, None)
        store.append("t1", 0, [("join", {"seat": 0})])
        with pytest.raises(StoreError):
            store.append("t1", 0, [("join", {"seat": 1}), ("join", {"seat": 2})])
        stored = store.load("t1")
        assert stored is not None
        assert stored.events == [("join", {"seat": 0})]
        assert stored.server_seed is None
    finally:
        store.close()


def test_a_write_of_several_rows_is_compiled_once(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    # a join that starts the game writes two rows, and a batch of moves many: each count of rows
    # is one statement, compiled the first time and taken from SQLAlchemy's cache after
    store = Store(database_url)
    try:
        for table_id in ("t1", "t2", "t3"):
            store.create(table_id, {}, None)
        with caplog.at_level(logging.INFO, logger="sqlalchemy.engine.Engine"):
            for table_id in ("t1", "t2", "t3"):
                store.append(table_id, 0, [("join", {"seat": 0}), ("start", {"order": [0]})])
        lines = [record.getMessage() for record in caplog.records]
        # SQLAlchemy logs each statement, then how its compiled form was found
        inserts = [lines[i + 1] for i, line in enumerate(lines[:-1]) if "INSERT INTO kosti_events" in line]
        assert len(inserts) == 3
        assert inserts[0].startswith("[generated in")
        assert all(line.startswith("[cached since") for line in inserts[1:])
        assert _seqs(store, "t3") == [1, 2]
    finally:
        store.close()


@pytest.fixture
def postgresql_url() -> Iterator[str]:
    yield from postgres_database()


def test_postgresql_takes_a_batch_of_any_size_as_the_same_statement(
    postgresql_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    # one statement for every batch (an array a column): prepared once, where a statement of as
    # many rows as the batch has would be parsed and planned anew for each size
    store = Store(postgresql_url)
    try:
        sizes = (1, 2, 11, 60)
        for n in range(len(sizes)):
            store.create(f"t{n}", {}, None)
        data = {"name": "Аня", "faces": [1, 6, 6], "nested": {"a": None, "b": 1.5}}
        with caplog.at_level(logging.INFO, logger="sqlalchemy.engine.Engine"):
            for n, size in enumerate(sizes):
                assert store.append_many(
                    [(f"t{n}", 0, [("action", {**data, "n": i}) for i in range(size)])]
                ) == [None]
        inserts = {
            record.getMessage()
            for record in caplog.records
            if "INSERT INTO kosti_events" in record.getMessage()
        }
        assert len(inserts) == 1
        for n, size in enumerate(sizes):
            stored = store.load(f"t{n}")
            assert stored is not None
            assert stored.events == [("action", {**data, "n": i}) for i in range(size)]
    finally:
        store.close()


def _seqs(store: Store, table_id: str) -> list[int]:
    with store.engine.connect() as connection:
        found = connection.execute(
            text("select seq from kosti_events where table_id = :t order by seq"), {"t": table_id}
        )
        return [int(seq) for (seq,) in found]


def test_a_write_whose_later_event_is_taken_stores_none_of_it(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.create("t1", {}, None)
        store.append("t1", 0, [("join", {"seat": 0})])
        store.append("t1", 2, [("join", {"seat": 2})])  # version 3, before 2 is written
        with pytest.raises(StoreError):  # version 2 is free, 3 is not: all or none
            store.append("t1", 1, [("join", {"seat": 1}), ("bot", {"seat": 2})])
        assert _seqs(store, "t1") == [1, 3]
    finally:
        store.close()


@pytest.mark.parametrize("events", [1, MANY_ROWS])
def test_writes_of_several_tables_share_a_statement_and_only_a_refused_one_fails(
    database_url: str, events: int
) -> None:
    store = Store(database_url)
    try:
        for table_id in ("a", "b", "c"):
            store.create(table_id, {}, None)
        store.append("b", 0, [("join", {"seat": 0})])
        log = [("action", {"n": n}) for n in range(events)]  # MANY_ROWS each: one transaction
        results = store.append_many([("a", 0, log), ("b", 0, log), ("c", 0, log)])
        assert [r is None for r in results] == [True, False, True]
        assert isinstance(results[1], StoreError)
        assert _seqs(store, "a") == _seqs(store, "c") == list(range(1, events + 1))
        assert _seqs(store, "b") == [1]
        results = store.append_many([("a", events, log), ("c", events, log)])
        assert results == [None, None]
        assert _seqs(store, "c") == list(range(1, 2 * events + 1))
    finally:
        store.close()


def test_migrations_run_once_and_again_harmlessly(database_url: str) -> None:
    Store(database_url).close()
    store = Store(database_url)
    try:
        with store.engine.connect() as connection:
            assert connection.execute(text("select version_num from alembic_version")).scalar() == "0004"
        assert {"kosti_tables", "kosti_events"} <= set(inspect(store.engine).get_table_names())
        columns = {column["name"] for column in inspect(store.engine).get_columns("kosti_tables")}
        assert {"creator", "finished_at", "taken", "active_at"} <= columns
    finally:
        store.close()


def test_a_restarted_server_serves_the_game_where_it_was(database_url: str) -> None:
    settings = fast_settings(database_url)
    with TestClient(create_app(settings, bots=first_legal_bots)) as client:
        table_id = new_table(client, seats=3)
        add_bot(client, table_id, "first")
        tokens = seat_players(client, table_id, ["Anna", "Boris"])
        with client.websocket_connect(f"/ws/{table_id}") as socket:
            before = play_on(socket, tokens, socket.receive_json(), 5)
    with TestClient(create_app(settings, bots=first_legal_bots)) as client:
        after = client.get(f"/api/tables/{table_id}").json()
        assert after == before
        with client.websocket_connect(f"/ws/{table_id}") as socket:
            assert socket.receive_json() == before
            state = play_on(socket, tokens, before, 1000)
            assert state["table"]["status"] == "finished"
        record = Record.from_json(client.get(f"/api/tables/{table_id}/record").json())
    assert verify(record).fair  # the dice went on from the nonce the log implies


def test_the_default_database_is_sqlite_in_the_users_data_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("KOSTI_DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr("sys.platform", "linux")
    url = default_url()
    assert url.startswith("sqlite:///")
    assert Path(url.removeprefix("sqlite:///")).is_relative_to(tmp_path)
    monkeypatch.setenv("KOSTI_DATABASE_URL", "postgresql://u@h/db")
    assert default_url() == "postgresql://u@h/db"
    assert normalize_url(default_url()) == "postgresql+psycopg://u@h/db"
