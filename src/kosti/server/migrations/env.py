"""Alembic environment: migrations run on the connection :func:`kosti.server.store.migrate` passes."""

from __future__ import annotations

from alembic import context

from kosti.server.store import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the migrations through kosti.server.store.migrate(engine)")
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
