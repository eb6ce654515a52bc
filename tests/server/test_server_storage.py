"""Storage, the same tests on SQLite and on PostgreSQL: the log, migrations, and a restart."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from server_helpers import fast_settings, first_legal_bots, new_table, play_on, seat_players
from sqlalchemy import inspect, text

from kosti.record import Record
from kosti.server.app import create_app
from kosti.server.fair import verify
from kosti.server.store import Store, StoreError, default_url, normalize_url


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


def test_migrations_run_once_and_again_harmlessly(database_url: str) -> None:
    Store(database_url).close()
    store = Store(database_url)
    try:
        with store.engine.connect() as connection:
            assert connection.execute(text("select version_num from alembic_version")).scalar() == "0003"
        assert {"kosti_tables", "kosti_events"} <= set(inspect(store.engine).get_table_names())
        columns = {column["name"] for column in inspect(store.engine).get_columns("kosti_tables")}
        assert {"creator", "finished_at", "taken"} <= columns
    finally:
        store.close()


def test_a_restarted_server_serves_the_game_where_it_was(database_url: str) -> None:
    settings = fast_settings(database_url)
    with TestClient(create_app(settings, bots=first_legal_bots)) as client:
        table_id = new_table(client, seats=3)
        client.post(f"/api/tables/{table_id}/bots", json={"level": "first"})
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
