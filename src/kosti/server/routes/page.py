"""The page: ``/`` and ``/t/{id}`` (an invitation) serve the one-page client, with a strict CSP.

Its files are served under a versioned path, ``/static/v/{version}/…``, the version a digest
of every file of the page and of kosti's catalogs (:func:`asset_version`): a browser keeps
them for a year and asks for none of them again until one changes, when the page names a new
version. The page itself, and the files under the plain ``/static/…``, are checked with the
server on every load (``no-cache``: an unchanged file costs a 304, not its bytes). Everything
is sent gzipped to a browser that takes it (:class:`starlette.middleware.gzip.GZipMiddleware`).
"""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

STATIC = Path(__file__).parent.parent / "static"

PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}

FOREVER = "public, max-age=31536000, immutable"
"""How long a browser keeps a file under its version's path: it never changes there."""

VERSIONED = "/static/v/"
"""Where the files of one version of the page are served: ``/static/v/{version}/app.js``."""

router = APIRouter(include_in_schema=False)

_versions: dict[tuple[tuple[str, int, int], ...], str] = {}


def _page_files() -> list[Path]:
    """The files of the page and kosti's catalogs (the page reads both)."""
    locale = Path(str(resources.files("kosti.locale")))
    found = [p for p in STATIC.rglob("*") if p.is_file()]
    found += sorted(locale.glob("*.toml"))
    return sorted(found)


def asset_version() -> str:
    """A short digest of the page's files and the catalogs: a new one whenever any changes.

    Worked out again only when a file's size or time of change differs (a stat of each is
    all a load of the page costs), from their contents, so that every process and every
    machine serving the same files names the same version."""
    files = _page_files()
    key = tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in files)
    version = _versions.get(key)
    if version is None:
        digest = hashlib.sha256()
        for path in files:
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        version = digest.hexdigest()[:12]
        _versions.clear()
        _versions[key] = version
    return version


def page_html(version: str) -> str:
    """``index.html`` with its files named under ``version``'s path (their own imports, being
    relative, follow), and the version given to the page (``<meta name="kosti-version">``)."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    html = html.replace('"/static/', f'"{VERSIONED}{version}/')
    return html.replace("<head>", f'<head>\n  <meta name="kosti-version" content="{version}">', 1)


@router.get("/")
@router.get("/t/{table_id}")
async def page() -> Response:
    return HTMLResponse(page_html(asset_version()), headers=PAGE_HEADERS)


class Assets(StaticFiles):
    """The page's files: under ``/static/v/{version}/`` kept by the browser for good when the version
    is the current one (else checked every time, as an old page may still ask), under ``/static/``
    checked every time."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        version = scope.get("path_params", {}).get("version")
        current = version is not None and version == asset_version()
        response.headers["Cache-Control"] = FOREVER if current and response.status_code == 200 else "no-cache"
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response
