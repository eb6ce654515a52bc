"""Alembic migrations of the server's schema, run by :func:`kosti.server.store.migrate` at startup."""
