"""Online play: a FastAPI server with a WebSocket per table, storage, and the page.

Install with the ``server`` extra and run ``kosti serve``. The parts:

* :mod:`kosti.server.table`: a table's seats, game and record, rebuilt from its log;
* :mod:`kosti.server.fair`: the roll-off, the client seed and ``kosti verify``;
* :mod:`kosti.server.store`: the log in SQLite or PostgreSQL, migrated by Alembic;
* :mod:`kosti.server.messages`: what clients may send (pydantic);
* :mod:`kosti.server.app`: the HTTP and WebSocket endpoints and the static page.

Only :mod:`~kosti.server.fair` works without the ``server`` extra.
"""
