"""Play on this device, served beside the online tables: the service worker (``/sw.js``) and the
files of :mod:`kosti.web.site` (``/local/…``: the build's configuration, Pyodide, kosti's archive).

The page's own files are the server's (:mod:`kosti.server.routes.page`); the service worker keeps
them too, under the versioned paths the page names them by. The site is built once a version of
the page as the server starts (or on the first request for it), from the files ``kosti web
fetch`` keeps in the cache; without them the server plays online only, and says so in its log.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator

import anyio
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from kosti.errors import KostiError
from kosti.server.routes.page import FOREVER, VERSIONED, asset_version
from kosti.web.site import Site, build, page_assets


@contextlib.asynccontextmanager
async def _prepare(app: object) -> AsyncIterator[None]:
    """Start building the site as the server starts (in a thread; seconds: gzip of Pyodide's
    WebAssembly), not when the first page asks for it."""
    threading.Thread(target=site_of, args=(asset_version(),), name="kosti-local-site", daemon=True).start()
    yield


router = APIRouter(include_in_schema=False, lifespan=_prepare)

log = logging.getLogger(__name__)

RETRY = 60.0
"""Seconds before a site that could not be built (its files not fetched yet) is tried again."""

_built: dict[str, tuple[Site | None, float]] = {}
_lock = threading.Lock()


def page_urls(version: str) -> list[str]:
    """The URLs of the page as this server serves it (``/``, its files under the version's path,
    kosti's catalogs), for the service worker to keep."""
    files = page_assets(f"{VERSIONED}{version}/".lstrip("/"))
    return ["/", "/api/words/en", "/api/words/ru", *("/" + a.path for a in files)]


def site_of(version: str) -> Site | None:
    """The site of ``version`` of the page, built once (a few seconds: gzip of Pyodide's
    WebAssembly); ``None`` while the files it needs are not in the cache."""
    with _lock:
        found = _built.get(version)
        if found is None or (found[0] is None and time.monotonic() - found[1] > RETRY):
            try:
                made: Site | None = build(server=True, precache=page_urls(version))
            except KostiError as error:
                log.warning("play on this device is not served: %s", error)
                made = None
            _built.clear()
            found = _built[version] = (made, time.monotonic())
        return found[0]


async def local_site() -> Site | None:
    """The site of the page's current version (:func:`site_of`), off the event loop."""
    return await anyio.to_thread.run_sync(site_of, asset_version())


@router.get("/sw.js")
@router.get("/local/{path:path}")
async def local_file(request: Request, path: str = "") -> Response:
    site = await local_site()
    found = None
    if site is not None:
        found = site.get("sw.js" if request.url.path == "/sw.js" else f"local/{path}")
    if found is None:
        raise HTTPException(404)
    etag = f'"{found.digest[:32]}"'
    headers = {
        "ETag": etag,
        "Cache-Control": FOREVER if found.immutable else "no-cache",
        "X-Content-Type-Options": "nosniff",
        "Vary": "Accept-Encoding",
    }
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    body = found.data
    if found.gzipped is not None and "gzip" in request.headers.get("accept-encoding", ""):
        body = found.gzipped
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type=found.content_type, headers=headers)
