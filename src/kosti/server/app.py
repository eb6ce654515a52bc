"""The web server: REST for tables, a WebSocket per table for play, and the page itself.

The server is authoritative. A client sends an action (a record action of RULES.md
§5, or ``"throw"``) with the table version it saw and its seat's secret token; the
server checks it against the rules, throws the dice itself, writes the resulting
log entry and only then broadcasts the new state to everyone at the table.

REST (JSON; the answers' models are in :mod:`kosti.server.answers`):

* ``POST /api/tables`` {variant, options, seats, mode, hints} → {id, invite, fair, version}
* ``GET /api/tables/{id}`` → the table as everyone sees it
* ``POST /api/tables/{id}/join`` {name, client_seed} → {seat, token, version}
* ``POST /api/tables/{id}/bots`` {seat, level} → {seat, name, version}
* ``GET /api/tables/{id}/record`` → the record (the server seed only once the game is over)
* ``GET /api/tables/{id}/verify`` → the record checked as ``kosti verify`` does (``pending`` until the end)
* ``GET /api/presets?lang=`` and ``GET /api/rules/{variant}?lang=`` → the rules' data (each option worded,
  with the control a form offers it as, and the table's own rules in sentences)
* ``GET /api/words/{lang}`` → kosti's catalog of words (``ru``, ``en``) for the page
* ``GET /api/server`` → the limits and bot levels of this server

WebSocket ``/ws/{id}``: see :mod:`kosti.server.routes.play`.

The routes live in :mod:`kosti.server.routes` (one router a concern); what they ask of the
tables in memory goes through :mod:`kosti.server.hub`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware

from kosti.i18n import refusal_text
from kosti.server.bots import BotFactory, installed_bots
from kosti.server.bus import LocalBus, RedisBus
from kosti.server.hub import Hub
from kosti.server.refusal import Refusal
from kosti.server.routes import local, page, play, rules, tables
from kosti.server.routes.deps import HttpLimits
from kosti.server.routes.page import STATIC, VERSIONED, Assets
from kosti.server.settings import ServerSettings, TokenBucket
from kosti.server.store import Store, default_url

UNZIPPED = (
    *DEFAULT_EXCLUDED_CONTENT_TYPES,
    "application/wasm",
    "application/octet-stream",
    "application/x-tar",
)
"""Content types sent as they are, never gzipped."""

HTTP_STATUS = {
    "unknown_token": 403,
    "not_found": 404,
    "stale": 409,
    "taken": 409,
    "full": 409,
    "started": 409,
    "name_taken": 409,
    "conflict": 409,
    "rate_limited": 429,
    "busy": 503,
    "storage_down": 503,
}


def request_language(request: Request) -> str:
    """The language a request reads refusals in: its ``?lang=`` (``ru`` or ``en``), else the
    first of its ``Accept-Language`` that is either (by quality), else English."""
    asked = request.query_params.get("lang")
    if asked in ("ru", "en"):
        return asked
    ranked: list[tuple[float, str]] = []
    for part in request.headers.get("accept-language", "").split(","):
        tag, _, rest = part.strip().partition(";")
        quality = 1.0
        if rest.strip().startswith("q="):
            try:
                quality = float(rest.strip()[2:])
            except ValueError:
                quality = 0.0
        ranked.append((quality, tag.strip().lower().split("-")[0]))
    # a stable sort: of two languages of the same quality the first named wins
    for quality, lang in sorted(ranked, key=lambda item: -item[0]):
        if quality > 0 and lang in ("ru", "en"):
            return lang
    return "en"


async def refused(request: Request, refusal: Exception) -> Response:
    """A refused request as JSON ``{detail, code, params}`` with the HTTP status of its code,
    ``detail`` worded in the request's language (:func:`request_language`)."""
    if not isinstance(refusal, Refusal):  # pragma: no cover - only refusals are handled here
        return JSONResponse({"detail": str(refusal), "code": "refused", "params": {}}, status_code=400)
    body = {
        "detail": refusal_text(refusal, request_language(request)),
        "code": refusal.code,
        "params": refusal.params,
    }
    return JSONResponse(body, status_code=HTTP_STATUS.get(refusal.code, 400))


def create_app(
    settings: ServerSettings | None = None, bots: BotFactory | None = None, store: Store | None = None
) -> FastAPI:
    """The server application. Storage is ``store``, or opened (and migrated) when the application starts."""
    settings = settings or ServerSettings()
    bot_factory = bots or installed_bots

    def open_store() -> Store:
        return Store(settings.database_url or default_url())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        opened: Store = store if store is not None else await anyio.to_thread.run_sync(open_store)
        bus = RedisBus(settings.redis_url, settings.lease) if settings.redis_url else LocalBus()
        app.state.hub = hub = Hub(opened, settings, bot_factory, bus)
        await hub.start()
        try:
            yield
        finally:
            await app.state.hub.close()

    # no /api/docs: FastAPI's page loads its scripts from a CDN, which the page's CSP forbids
    app = FastAPI(
        title="kosti", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url="/api/openapi.json"
    )
    app.state.settings = settings
    app.state.http_limits = HttpLimits(settings)
    app.add_exception_handler(Refusal, refused)
    # a request is matched against the routes in this order: the busiest first (a table's
    # socket and requests), for no two routers share a path
    app.include_router(play.router)
    app.include_router(tables.router)
    app.include_router(rules.router)
    app.include_router(page.router)
    app.include_router(local.router)  # play on this device: /sw.js, /local/… (kosti.web)
    app.mount(VERSIONED + "{version}", Assets(directory=STATIC), name="assets")
    app.mount("/static", Assets(directory=STATIC), name="static")
    # the page's files and the catalog are text: a tenth of their size on the wire, gzipped (not
    # what is packed already, nor binaries, which would cost the time and gain nothing)
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6, exclude_content_types=UNZIPPED)
    return app


__all__ = ["STATIC", "ServerSettings", "TokenBucket", "create_app", "installed_bots"]
