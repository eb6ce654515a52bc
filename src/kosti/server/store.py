"""Where tables live: their settings and their append-only logs of events, in SQL.

SQLite in the user's data directory by default (nothing to install); PostgreSQL
(or any database SQLAlchemy 2 speaks) when ``KOSTI_DATABASE_URL`` names one. The
schema is created and upgraded by the Alembic migrations shipped in this package,
run when the server starts.

A log entry is written and committed before the server shows its effect to
anyone, so a server killed at any moment has lost nothing it has shown.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
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
    bindparam,
    create_engine,
    event,
    exists,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.sql.elements import TextClause

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
    # when something last happened at the table (made, joined, moved at), stored now and then: a
    # table idle for Store.idle_after no longer counts as live
    Column("active_at", DateTime(timezone=True), nullable=True),
    Index("kosti_tables_live", "finished_at", "created_at"),
    Index("kosti_tables_open", "taken", "created_at"),
    Index("kosti_tables_active", "finished_at", "active_at"),
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


POOL_SIZE = 42
"""Database connections one process keeps: one for each of its storage threads and writers."""

LIVE_FOR = timedelta(hours=24)
"""A table whose game has not ended counts as live this long after its creation (unless idle for
:attr:`Store.idle_after`)."""

_LONG_AGO = datetime(1970, 1, 1, tzinfo=UTC)


# Each call's statement, built once: building and keying one costs more than sending it.
_CREATE = insert(tables)
_SET_TAKEN = update(tables).where(tables.c.id == bindparam("t_id")).values(taken=bindparam("t_taken"))
_FINISH = (
    update(tables)
    .where(tables.c.id == bindparam("t_id"), tables.c.finished_at.is_(None))
    .values(finished_at=bindparam("t_at"))
)
_TOUCH = update(tables).where(tables.c.id == bindparam("t_id")).values(active_at=bindparam("t_at"))
_LIVE = (
    select(func.count())
    .select_from(tables)
    .where(
        tables.c.finished_at.is_(None),
        tables.c.active_at > bindparam("t_active"),
        tables.c.created_at > bindparam("t_after"),
    )
)
_LIVE_BY = _LIVE.where(tables.c.creator == bindparam("t_creator"))
_WAITING = (
    select(tables.c.id, tables.c.settings, tables.c.taken)
    .where(
        tables.c.taken.is_not(None),
        tables.c.finished_at.is_(None),
        tables.c.active_at > bindparam("t_active"),
        tables.c.created_at > bindparam("t_after"),
    )
    .order_by(tables.c.created_at.desc())
    .limit(bindparam("t_limit"))
)
_LOG_COLUMNS = ("table_id", "seq", "kind", "data", "created_at")


@lru_cache(maxsize=64)
def _append_rows(count: int) -> TextClause:
    """The insert of ``count`` rows of the log in one statement, each row's parameters named
    ``<column>_<row>`` and typed as the column is: one statement a count, so each is
    compiled (and prepared) once.

    Written as text from the table's columns because SQLAlchemy never caches the compiled
    form of an insert of several ``values`` rows: it compiled each batch anew, more than a
    third of a millisecond for two rows. A move's one row goes the same way: as cached text
    it costs what a plain ``insert(events)`` does (301-508 against 321-380 µs of CPU a call,
    1 000 calls each, taking turns)."""
    rows = ", ".join("(" + ", ".join(f":{c}_{i}" for c in _LOG_COLUMNS) + ")" for i in range(count))
    typed = [bindparam(f"{c}_{i}", type_=events.c[c].type) for i in range(count) for c in _LOG_COLUMNS]
    return text(f"INSERT INTO {events.name} ({', '.join(_LOG_COLUMNS)}) VALUES {rows}").bindparams(*typed)


_APPEND_ARRAYS = text(
    f"INSERT INTO {events.name} ({', '.join(_LOG_COLUMNS)}) SELECT * FROM unnest("
    "CAST(:table_id AS VARCHAR[]), CAST(:seq AS INTEGER[]), CAST(:kind AS VARCHAR[]), "
    "CAST(:data AS JSON[]), CAST(:created_at AS TIMESTAMPTZ[]))"
)
"""PostgreSQL's insert of any number of rows of the log: one array a column, so that one statement
serves every batch. psycopg prepares it on each connection once it has run there a few times
(its prepare threshold), and PostgreSQL then no longer parses and plans each batch. A statement of
as many ``VALUES`` rows as the batch has is new text for each count, and psycopg converts anew
(unprepared) any of more than 50 parameters: ten rows."""

_UNFINISHED = (
    select(tables.c.id)
    .where(
        tables.c.finished_at.is_(None),
        tables.c.created_at > bindparam("t_after"),
        exists().where(events.c.table_id == tables.c.id, events.c.kind == "start"),
        or_(
            tables.c.settings["timer"].as_integer().is_not(None),
            exists().where(events.c.table_id == tables.c.id, events.c.kind.in_(("bot", "timeout", "leave"))),
        ),
    )
    .order_by(tables.c.created_at)
)
"""The tables in play within :data:`LIVE_FOR` (idle or not) whose bots or clock may be due: timed,
or with a bot, a stand-in or a seat left."""

_LOG = select(events.c.seq, events.c.kind, events.c.data).order_by(events.c.seq)
_SINCE = _LOG.where(events.c.table_id == bindparam("t_id"), events.c.seq > bindparam("t_version"))
_TABLE = select(tables).where(tables.c.id == bindparam("t_id"))
_WHOLE_LOG = _LOG.where(events.c.table_id == bindparam("t_id"))


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


def connect(url: str, autocommit: bool = False) -> Engine:
    """An SQLAlchemy engine for ``url`` (SQLite gets WAL and foreign keys); with ``autocommit``,
    each statement is committed on its own (no ``BEGIN``, no ``COMMIT``)."""
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

        return engine.execution_options(isolation_level="AUTOCOMMIT") if autocommit else engine
    # one connection for each thread that may use one at once, kept open: opening one
    # costs more than a move. No ping before each use: a connection that broke fails its write,
    # which is retried (StorageDown) on a fresh one.
    if not autocommit:
        return create_engine(url, pool_size=2, max_overflow=POOL_SIZE, pool_timeout=30)
    # the engine that every call uses: autocommit set once on each connection, not at each use,
    # and no rollback as a connection goes back to the pool (there is no transaction to end)
    return create_engine(
        url,
        pool_size=POOL_SIZE,
        max_overflow=0,
        pool_timeout=30,
        isolation_level="AUTOCOMMIT",
        skip_autocommit_rollback=True,
    )


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration shipped with kosti."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "kosti.server:migrations")
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


MANY_ROWS = 1000
"""Rows :meth:`Store.append_many` writes in one statement at most (more go in one transaction):
well under the bound databases put on a statement's parameters. PostgreSQL's arrays
(:data:`_APPEND_ARRAYS`) have no such bound: there every batch is one statement."""


class Store:
    """Tables and their logs in one database. Every method is one transaction.

    Each is one statement too (a table and its log are read by two, of which the first
    reads what never changes), sent on a connection in autocommit: the database makes the
    statement a transaction of its own, which saves the round trips of ``BEGIN`` and
    ``COMMIT`` (or ``ROLLBACK``, after a read).
    """

    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        self.engine = connect(self.url)
        """Connections for transactions of several statements: the migrations, a very long append."""
        migrate(self.engine)
        self.auto = connect(self.url, autocommit=True)
        """Connections that commit each statement on its own: every other call."""
        self._arrays = self.auto.dialect.name == "postgresql"
        """Rows of the log go to PostgreSQL as one array a column (:data:`_APPEND_ARRAYS`)."""
        self.idle_after: timedelta | None = None
        """A table at which nothing has happened for this long (:meth:`touch`) no longer counts as
        live (:meth:`live`, :meth:`waiting`); ``None``: however long. The hub sets it from its
        settings."""

    def close(self) -> None:
        self.auto.dispose()
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
        now = datetime.now(UTC)
        row = {
            "taken": taken,
            "id": table_id,
            "created_at": now,
            "active_at": now,
            "settings": settings,
            "server_seed": server_seed.hex() if server_seed is not None else None,
            "creator": creator[:64] if creator else None,
        }
        try:
            with self.auto.connect() as connection:
                connection.execute(_CREATE, row)
        except IntegrityError:
            raise
        except DBAPIError as error:
            raise _outage("create", error) from None

    def set_taken(self, table_id: str, taken: int | None) -> None:
        """Record the seats held at ``table_id`` while it waits for players (``None``: it is not
        open to join, or no longer)."""
        try:
            with self.auto.connect() as connection:
                connection.execute(_SET_TAKEN, {"t_id": table_id, "t_taken": taken})
        except DBAPIError as error:
            raise _outage("update", error) from None

    def touch(self, table_id: str) -> None:
        """Record that something has happened at ``table_id`` now: it counts as live again."""
        try:
            with self.auto.connect() as connection:
                connection.execute(_TOUCH, {"t_id": table_id, "t_at": datetime.now(UTC)})
        except DBAPIError as error:
            raise _outage("update", error) from None

    def _since(self) -> dict[str, datetime]:
        """The bounds of a live table: created after ``t_after``, active after ``t_active``."""
        now = datetime.now(UTC)
        active = _LONG_AGO if self.idle_after is None else now - self.idle_after
        return {"t_after": now - LIVE_FOR, "t_active": active}

    def waiting(self, limit: int) -> list[tuple[str, dict[str, Any], int]]:
        """The live public tables waiting for players, newest first: (id, settings, seats taken)."""
        try:
            with self.auto.connect() as connection:
                rows = connection.execute(_WAITING, {**self._since(), "t_limit": limit}).all()
        except DBAPIError as error:
            raise _outage("read", error) from None
        return [(row.id, dict(row.settings), int(row.taken)) for row in rows]

    def live(self, creator: str | None = None) -> int:
        """Tables whose game has not ended, created within :data:`LIVE_FOR` and not idle for
        :attr:`idle_after` (by ``creator``, if given)."""
        since = self._since()
        try:
            with self.auto.connect() as connection:
                if creator is None:
                    return int(connection.execute(_LIVE, since).scalar_one())
                found = connection.execute(_LIVE_BY, {**since, "t_creator": creator[:64]})
                return int(found.scalar_one())
        except DBAPIError as error:
            raise _outage("count", error) from None

    def unfinished(self) -> list[str]:
        """The tables in play, created within :data:`LIVE_FOR` (idle ones too), whose bots or clock
        may have to act: timed ones, and those with a bot, a stand-in or a seat left; oldest first."""
        try:
            with self.auto.connect() as connection:
                rows = connection.execute(_UNFINISHED, {"t_after": datetime.now(UTC) - LIVE_FOR}).all()
        except DBAPIError as error:
            raise _outage("read", error) from None
        return [str(row.id) for row in rows]

    def finish(self, table_id: str) -> None:
        """Mark the game of ``table_id`` as over: the table no longer counts as live.
        :class:`StorageDown` when storage cannot be reached (nothing marked)."""
        try:
            with self.auto.connect() as connection:
                connection.execute(_FINISH, {"t_id": table_id, "t_at": datetime.now(UTC)})
        except DBAPIError as error:
            raise _outage("finish", error) from None

    def append(self, table_id: str, version: int, new: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Append events after ``version`` (the table's version before them), all or none.

        :class:`StoreError` if another writer has already written that version.
        """
        try:
            self._insert(_rows([(table_id, version, new)]))
        except IntegrityError:
            raise StoreError(f"table {table_id} has moved past version {version} elsewhere") from None
        except DBAPIError as error:
            raise _outage("append", error) from None

    def append_many(
        self, writes: Sequence[tuple[str, int, Sequence[tuple[str, dict[str, Any]]]]]
    ) -> list[StoreError | None]:
        """Each (table id, version, events) of ``writes`` appended as :meth:`append` would, all in
        one statement while none is refused: what each write met (``None``: stored).

        When one is refused (another writer was first), every write is tried again on its
        own, so that only the refused ones fail.
        """
        if len(writes) > 1:
            try:
                self._insert(_rows(writes))
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

    def _insert(self, rows: list[dict[str, Any]]) -> None:
        """Rows of the log stored all or none: in one statement (on PostgreSQL however many there
        are), or (more than :data:`MANY_ROWS`) in one transaction."""
        if not rows:
            return
        if self._arrays:
            columns = {c: [row[c] for row in rows] for c in _LOG_COLUMNS}
            columns["data"] = [json.dumps(data) for data in columns["data"]]  # as the JSON column would
            with self.auto.connect() as connection:
                connection.execute(_APPEND_ARRAYS, columns)
        elif len(rows) <= MANY_ROWS:
            named = {f"{c}_{i}": row[c] for i, row in enumerate(rows) for c in _LOG_COLUMNS}
            with self.auto.connect() as connection:
                connection.execute(_append_rows(len(rows)), named)
        else:
            with self.engine.begin() as connection:
                connection.execute(insert(events), rows)

    def since(self, table_id: str, version: int) -> list[tuple[str, dict[str, Any]]]:
        """The events of ``table_id`` after ``version``, in order (catching up on a table in memory)."""
        try:
            with self.auto.connect() as connection:
                log = connection.execute(_SINCE, {"t_id": table_id, "t_version": version}).all()
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
        with self.auto.connect() as connection:
            row = connection.execute(_TABLE, {"t_id": table_id}).mappings().first()
            if row is None:
                return None
            log = connection.execute(_WHOLE_LOG, {"t_id": table_id}).all()
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


def _rows(writes: Sequence[tuple[str, int, Sequence[tuple[str, dict[str, Any]]]]]) -> list[dict[str, Any]]:
    """The log rows of (table id, version before, events) writes."""
    now = datetime.now(UTC)
    return [
        {"table_id": table_id, "seq": version + i, "kind": kind, "data": data, "created_at": now}
        for table_id, version, new in writes
        for i, (kind, data) in enumerate(new, 1)
    ]
