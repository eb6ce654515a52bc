"""Online play: a FastAPI server with a WebSocket per table, storage, and the page.

Install with the ``server`` extra and run ``kosti serve``. The parts:

* :mod:`kosti.server.events`: what happens at a table, as typed events with their stored form;
* :mod:`kosti.server.table`: a table's seats, game and record, rebuilt from its log
  (:mod:`kosti.server.game`: the game played from the moves in force);
* :mod:`kosti.server.seating`, :mod:`kosti.server.planning`: the events a request makes, or its refusal;
* :mod:`kosti.server.view`: what a client sees of a table, worded by :mod:`kosti.server.words`;
* :mod:`kosti.server.bots`: the bots that may sit at a table and those that play;
* :mod:`kosti.server.emotes`: the quick phrases a player says to the table, by key, kept nowhere;
* :mod:`kosti.server.fair`: the roll-off, the client seed and ``kosti verify``;
* :mod:`kosti.server.store`: the log in SQLite or PostgreSQL, migrated by Alembic;
* :mod:`kosti.server.messages`: what clients may send (pydantic);
* :mod:`kosti.server.settings`: how a server runs, and its rate limits' token bucket;
* :mod:`kosti.server.hub`: what the routes ask of the tables in memory, put together from
  :mod:`~kosti.server.rooms` (the tables held), :mod:`~kosti.server.storage` (calls and
  outages), :mod:`~kosti.server.core` (the one path every change takes),
  :mod:`~kosti.server.broadcast` (the sockets shown), :mod:`~kosti.server.clock`,
  :mod:`~kosti.server.driver` (the bots), :mod:`~kosti.server.hints` and :mod:`~kosti.server.lobby`;
* :mod:`kosti.server.answers`: what the REST routes answer (pydantic);
* :mod:`kosti.server.routes`: the HTTP and WebSocket endpoints, one router a concern;
* :mod:`kosti.server.app`: the application that puts them together, with the static page;
* :mod:`kosti.server.wire`: the JSON text of the messages sent and the commits published;
* :mod:`kosti.server.bus`: how worker processes hear each other's commits (Redis);
* :mod:`kosti.server.dispatch`: ``kosti serve --workers N``, a table's connections at its home worker.
* :mod:`kosti.server.headers`: uvicorn's HTTP protocols with a time limit on a request's headers.

Only :mod:`~kosti.server.fair` works without the ``server`` extra.
"""
