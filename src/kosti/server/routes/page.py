"""The page: ``/`` and ``/t/{id}`` (an invitation) serve the one-page client, with a strict CSP."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

STATIC = Path(__file__).parent.parent / "static"

PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

router = APIRouter(include_in_schema=False)


@router.get("/")
@router.get("/t/{table_id}")
async def page() -> Response:
    return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)
