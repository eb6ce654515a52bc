"""Running a server: one process (SQLite by default), or N worker processes behind one address.

With ``workers > 1`` a parent process listens and hands each connection to one of N
worker processes, a table's to the worker it calls home (:mod:`kosti.server.dispatch`);
any process may serve any connection all the same. They share one PostgreSQL (the log, with its
unique (table, version) key) and one Redis (each commit published to the others,
and the lease of each table's bots: :mod:`kosti.server.bus`); both are required.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy.engine import make_url

from kosti.errors import KostiError
from kosti.i18n import preload
from kosti.server.settings import ServerSettings
from kosti.server.store import normalize_url

SETTINGS_VARIABLE = "KOSTI_SERVER_SETTINGS"
"""How the parent process hands its settings to the worker processes (JSON)."""

COLLECTOR_THRESHOLDS = (2_000, 10, 600)
"""The cycle collector's thresholds in a serving process (CPython's are (700, 10, 10)). Young
collections stay small, for each one holds the event loop: with 20 000, a thousand players at
human pace saw young collections of 25–50 ms and middle ones of 150–160 ms; with 2 000, 5–13 ms
and 20–30 ms. A whole-heap collection (hundreds of milliseconds) may come after 600 middle ones:
those on the clock (:func:`collect_young`) make that eight minutes at the least."""


YOUNG_EVERY = 0.2
"""Seconds between the young collections a serving process makes on a clock (:func:`collect_young`).
At 500 moves a second on one process, every 0.05 s cost more in collecting what would have died
anyway (p50 12-16 ms, 1.74 ms of CPU a move) than it saved, and every 0.2 s gave the least tail
(p99 39-43 ms, against 80 ms by count alone)."""

MIDDLE_EVERY = 4
"""Every how many of those the middle generation is collected too."""


def tune_collector() -> None:
    """Keep the cycle collector's pauses out of the moves: what the process made to start is
    never scanned again, and whole-heap collections come minutes apart.

    Every tracked object is scanned by a whole-heap collection, which holds the event loop
    for all of it (hundreds of milliseconds with a thousand tables in memory), and CPython
    runs one after every ten middle ones by default. The tables' data lives as long as
    their games and is freed by reference counting; the cycles that do arise (tasks,
    tracebacks) die young and are found by the frequent young collections.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


async def collect_young(period: float = YOUNG_EVERY, middle_every: int = MIDDLE_EVERY) -> None:
    """Run until cancelled: collect the young generation every ``period`` seconds, and the
    middle one with it every ``middle_every``-th time.

    The collector starts a young collection when the tracked objects made, less those
    freed, pass its threshold; freeing any object counts, an old one too. While the games
    that end free their tables, the young generation grows far past its threshold
    before a collection comes: 50 000 objects (40 ms with the event loop held) and 80 000
    in the middle one (100 ms), at 500 moves a second. On a clock, each collection holds
    only what was made since the last. The collections by count still run, and with them
    the rare whole-heap ones."""
    k = 0
    while True:
        await asyncio.sleep(period)
        k += 1
        gc.collect(1 if k % middle_every == 0 else 0)


def served(app: Any) -> Any:
    """``app`` with the languages read (:func:`kosti.i18n.preload`), the collector tuned
    (:func:`tune_collector`) and collecting young objects on a clock (:func:`collect_young`)
    once it has started."""
    started = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(application: Any) -> AsyncIterator[Any]:
        async with started(application) as state:
            preload()  # before the collector freezes what the process made to start
            tune_collector()
            collector = asyncio.create_task(collect_young())
            try:
                yield state
            finally:
                collector.cancel()

    app.router.lifespan_context = lifespan
    return app


def check_cluster(settings: ServerSettings, workers: int) -> None:
    """:class:`KostiError` when ``workers`` processes cannot share what these settings name."""
    if workers < 1:
        raise KostiError("--workers is at least 1")
    if workers == 1:
        return
    missing = []
    url = settings.database_url
    if not url or make_url(normalize_url(url)).get_backend_name() != "postgresql":
        missing.append("KOSTI_DATABASE_URL (a PostgreSQL URL such as postgresql://user@127.0.0.1/kosti)")
    if not settings.redis_url:
        missing.append("KOSTI_REDIS_URL (such as redis://127.0.0.1:6379/0)")
    if missing:
        raise KostiError(
            f"--workers {workers} needs one database and one Redis for all: set " + " and ".join(missing)
        )


def uvicorn_options(
    host: str, port: int, settings: ServerSettings, forwarded_allow_ips: str | None, log_level: str = "info"
) -> dict[str, Any]:
    """What uvicorn is started with. ``X-Forwarded-For`` is believed only from ``forwarded_allow_ips``
    (the proxies in front of this server); without them the connecting address is the client's."""
    return {
        "host": host,
        "port": port,
        "log_level": log_level,
        # the page never sends more than a few hundred bytes; the app refuses above message_limit
        "ws_max_size": 16 * settings.message_limit,
        "proxy_headers": bool(forwarded_allow_ips),
        "forwarded_allow_ips": forwarded_allow_ips or "",
        "ws_ping_interval": 20.0,  # a peer that stops answering pings is dropped after the timeout
        "ws_ping_timeout": 20.0,
    }


def settings_to_env(settings: ServerSettings) -> str:
    return json.dumps(dataclasses.asdict(settings))


def worker_app(worker: int = 0, workers: int = 1) -> Any:
    """The application of worker ``worker`` of ``workers``, from the settings its parent left in the
    environment."""
    from kosti.server.app import create_app

    data = json.loads(os.environ[SETTINGS_VARIABLE])
    for name in ("bot_levels", "hint_levels", "allowed_origins"):
        if data.get(name) is not None:
            data[name] = tuple(data[name])
    data.update(worker=worker, workers=workers)
    return served(create_app(ServerSettings(**data)))


def serve(
    settings: ServerSettings,
    host: str,
    port: int,
    workers: int = 1,
    forwarded_allow_ips: str | None = None,
    log_level: str = "info",
    app: Any = None,
) -> None:
    """Serve until stopped: ``app`` (or one made from ``settings``) in this process, or ``workers``
    worker processes; a connection that does not send a request's line and headers within
    ``settings.header_timeout`` is closed (:mod:`kosti.server.headers`)."""
    import uvicorn

    from kosti.server.headers import protocol

    check_cluster(settings, workers)
    options = uvicorn_options(host, port, settings, forwarded_allow_ips, log_level)
    if workers == 1:
        if app is None:
            from kosti.server.app import create_app

            app = create_app(settings)
        # uvicorn has no header timeout of its own: its protocol with one (slow-header attacks)
        uvicorn.run(served(app), http=protocol(settings.header_timeout), **options)
        return
    from kosti.server.dispatch import serve_workers

    os.environ[SETTINGS_VARIABLE] = settings_to_env(settings)
    serve_workers(options, workers, settings.header_timeout)
