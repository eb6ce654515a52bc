"""Where tables live: their settings and their append-only logs of events, in SQL.

SQLite in the user's data directory by default (nothing to install); PostgreSQL
(or any database SQLAlchemy 2 speaks) when ``KOSTI_DATABASE_URL`` names one. The
schema is created and upgraded by the Alembic migrations shipped in this package,
run when the server starts.

A log entry is written and committed before the server shows its effect to
anyone, so a server killed at any moment has lost nothing it has shown.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError

from kosti.errors import KostiError

metadata = MetaData()

tables = Table(
    "kosti_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("settings", JSON, nullable=False),
    # hex; secret until the game ends; null at a scorekeeper table (no server dice)
    Column("server_seed", String(128), nullable=True),
    # the address that created the table, for the cap on live tables per address
    Column("creator", String(64), nullable=True),
    # set when the game is over: a table without it is live (for LIVE_FOR after its creation)
    Column("finished_at", DateTime(timezone=True), nullable=True),
    # seats held at a public table still waiting for players (the lobby); null at any other
    Column("taken", Integer, nullable=True),
    Index("kosti_tables_live", "finished_at", "created_at"),
    Index("kosti_tables_open", "taken", "created_at"),
)

events = Table(
    "kosti_events",
    metadata,
    Column("table_id", String(32), ForeignKey("kosti_tables.id"), primary_key=True),
    # 1, 2, 3 …: the table's version after this event; the key forbids two writers of one version
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(16), nullable=False),
    Column("data", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


POOL_SIZE = 40
"""Database connections one process keeps (anyio runs at most 40 storage calls at once)."""

LIVE_FOR = timedelta(hours=24)
"""A table whose game has not ended counts as live this long after its creation."""


class StoreError(KostiError):
    """Storage refused a write (another writer was first) or cannot be reached."""


class StorageDown(StoreError):
    """Storage cannot be reached right now; the same call may succeed later."""


def _outage(call: str, error: DBAPIError) -> StorageDown:
    return StorageDown(f"storage is unreachable ({call}): {' '.join(str(error.orig).split())[:200]}")


@dataclass(frozen=True)
class StoredTable:
    """A table as stored: its settings, its server seed and its log in order."""

    id: str
    settings: dict[str, Any]
    server_seed: bytes | None
    events: list[tuple[str, dict[str, Any]]]


def default_url() -> str:
    """``KOSTI_DATABASE_URL`` if set, else an SQLite file in the user's data directory."""
    url = os.environ.get("KOSTI_DATABASE_URL")
    if url:
        return url
    from platformdirs import user_data_path

    folder = user_data_path("kosti", appauthor=False, ensure_exists=True)
    return f"sqlite:///{folder / 'kosti.sqlite3'}"


def normalize_url(url: str) -> str:
    """PostgreSQL URLs without a driver get psycopg 3 (the one the ``server`` extra installs)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def connect(url: str) -> Engine:
    """An SQLAlchemy engine for ``url`` (SQLite gets WAL and foreign keys)."""
    url = normalize_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            # WAL + NORMAL survives a killed process (what a crash is here); a power cut
            # may lose the last commits, which FULL would keep at the price of an fsync each
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # one connection for each thread that may write at once (anyio's 40), kept open: opening one
    # costs more than a move. No ping before each use: a connection that broke fails its write,
    # which is retried (StorageDown) on a fresh one.
    return create_engine(url, pool_size=POOL_SIZE, max_overflow=0, pool_timeout=30)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration shipped with kosti."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "kosti.server:migrations")
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Store:
    """Tables and their logs in one database. Every method is one transaction."""

    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        self.engine = connect(self.url)
        migrate(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create(
        self,
        table_id: str,
        settings: dict[str, Any],
        server_seed: bytes | None,
        creator: str | None = None,
        taken: int | None = None,
    ) -> None:
        """Store a new table with an empty log (``taken``: listed among the open tables, with
        that many seats held)."""
        row = {
            "taken": taken,
            "id": table_id,
            "created_at": datetime.now(UTC),
            "settings": settings,
            "server_seed": server_seed.hex() if server_seed is not None else None,
            "creator": creator[:64] if creator else None,
        }
        try:
            with self.engine.begin() as connection:
                connection.execute(insert(tables).values(**row))
        except IntegrityError:
            raise
        except DBAPIError as error:
            raise _outage("create", error) from None

    def set_taken(self, table_id: str, taken: int | None) -> None:
        """Record the seats held at ``table_id`` while it waits for players (``None``: it is not
        open to join, or no longer)."""
        try:
            with self.engine.begin() as connection:
                connection.execute(update(tables).where(tables.c.id == table_id).values(taken=taken))
        except DBAPIError as error:
            raise _outage("update", error) from None

    def waiting(self, limit: int) -> list[tuple[str, dict[str, Any], int]]:
        """The public tables waiting for players, newest first: (id, settings, seats taken)."""
        query = (
            select(tables.c.id, tables.c.settings, tables.c.taken)
            .where(
                tables.c.taken.is_not(None),
                tables.c.finished_at.is_(None),
                tables.c.created_at > datetime.now(UTC) - LIVE_FOR,
            )
            .order_by(tables.c.created_at.desc())
            .limit(limit)
        )
        try:
            with self.engine.connect() as connection:
                rows = connection.execute(query).all()
        except DBAPIError as error:
            raise _outage("read", error) from None
        return [(row.id, dict(row.settings), int(row.taken)) for row in rows]

    def live(self, creator: str | None = None) -> int:
        """Tables whose game has not ended, created within :data:`LIVE_FOR` (by ``creator``, if given)."""
        query = (
            select(func.count())
            .select_from(tables)
            .where(tables.c.finished_at.is_(None), tables.c.created_at > datetime.now(UTC) - LIVE_FOR)
        )
        if creator is not None:
            query = query.where(tables.c.creator == creator[:64])
        try:
            with self.engine.connect() as connection:
                return int(connection.execute(query).scalar_one())
        except DBAPIError as error:
            raise _outage("count", error) from None

    def finish(self, table_id: str) -> None:
        """Mark the game of ``table_id`` as over: the table no longer counts as live."""
        with self.engine.begin() as connection:
            connection.execute(
                update(tables)
                .where(tables.c.id == table_id, tables.c.finished_at.is_(None))
                .values(finished_at=datetime.now(UTC))
            )

    def append(self, table_id: str, version: int, new: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Append events after ``version`` (the table's version before them), all or none.

        :class:`StoreError` if another writer has already written that version.
        """
        now = datetime.now(UTC)
        rows = [
            {"table_id": table_id, "seq": version + i, "kind": kind, "data": data, "created_at": now}
            for i, (kind, data) in enumerate(new, 1)
        ]
        if not rows:
            return
        try:
            with self.engine.begin() as connection:
                connection.execute(insert(events), rows)
        except IntegrityError:
            raise StoreError(f"table {table_id} has moved past version {version} elsewhere") from None
        except DBAPIError as error:
            raise _outage("append", error) from None

    def append_many(
        self, writes: Sequence[tuple[str, int, Sequence[tuple[str, dict[str, Any]]]]]
    ) -> list[StoreError | None]:
        """Each (table id, version, events) of ``writes`` appended as :meth:`append` would, in one
        transaction while none is refused: what each write met (``None``: stored).

        When one is refused (another writer was first), every write is tried again in a
        transaction of its own, so that only the refused ones fail.
        """
        if len(writes) > 1:
            now = datetime.now(UTC)
            rows = [
                {"table_id": table_id, "seq": version + i, "kind": kind, "data": data, "created_at": now}
                for table_id, version, new in writes
                for i, (kind, data) in enumerate(new, 1)
            ]
            try:
                with self.engine.begin() as connection:
                    connection.execute(insert(events), rows)
                return [None] * len(writes)
            except IntegrityError:
                pass  # some were refused: find out which, one by one
            except DBAPIError as error:
                return [_outage("append", error)] * len(writes)
        results: list[StoreError | None] = []
        for table_id, version, new in writes:
            try:
                self.append(table_id, version, new)
                results.append(None)
            except StoreError as error:
                results.append(error)
        return results

    def since(self, table_id: str, version: int) -> list[tuple[str, dict[str, Any]]]:
        """The events of ``table_id`` after ``version``, in order (catching up on a table in memory)."""
        try:
            with self.engine.connect() as connection:
                log = connection.execute(
                    select(events.c.seq, events.c.kind, events.c.data)
                    .where(events.c.table_id == table_id, events.c.seq > version)
                    .order_by(events.c.seq)
                ).all()
        except DBAPIError as error:
            raise _outage("read", error) from None
        for expected, entry in enumerate(log, version + 1):
            if entry.seq != expected:
                raise StoreError(f"table {table_id}: event {expected} is missing from the log")
        return [(entry.kind, dict(entry.data)) for entry in log]

    def load(self, table_id: str) -> StoredTable | None:
        """The table with its whole log, or ``None`` if there is no such table."""
        try:
            return self._load(table_id)
        except DBAPIError as error:
            raise _outage("read", error) from None

    def _load(self, table_id: str) -> StoredTable | None:
        with self.engine.connect() as connection:
            row = connection.execute(select(tables).where(tables.c.id == table_id)).mappings().first()
            if row is None:
                return None
            log = connection.execute(
                select(events.c.seq, events.c.kind, events.c.data)
                .where(events.c.table_id == table_id)
                .order_by(events.c.seq)
            ).all()
        for expected, entry in enumerate(log, 1):
            if entry.seq != expected:
                raise StoreError(f"table {table_id}: event {expected} is missing from the log")
        seed = row["server_seed"]
        return StoredTable(
            row["id"],
            dict(row["settings"]),
            bytes.fromhex(seed) if seed is not None else None,
            [(entry.kind, dict(entry.data)) for entry in log],
        )
