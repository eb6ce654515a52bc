"""What the routes need from the running application, as FastAPI dependencies.

Each is a coroutine function: FastAPI runs a plain function dependency in its thread pool,
a hand-over (and a wake-up of the event loop) for every request, where these only read
an attribute."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.requests import HTTPConnection

from kosti.server.hub import Hub
from kosti.server.limits import address_group
from kosti.server.refusal import Refusal
from kosti.server.settings import ServerSettings, TokenBucket


async def hub_of(connection: HTTPConnection) -> Hub:
    """The tables of this process."""
    hub: Hub = connection.app.state.hub
    return hub


async def settings_of(connection: HTTPConnection) -> ServerSettings:
    """How this server runs."""
    settings: ServerSettings = connection.app.state.settings
    return settings


class HttpLimits:
    """A token bucket per client address (an IPv6 client's per /64), for the requests that change tables."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.buckets: dict[str, TokenBucket] = {}

    def check(self, address: str) -> None:
        """:class:`Refusal` ``rate_limited`` when ``address`` has spent its bucket: the bucket of its
        group (:func:`~kosti.server.limits.address_group`), which an IPv6 client's whole /64 shares."""
        if not self.settings.http_limits:
            return
        if len(self.buckets) > 10_000:
            self.buckets.clear()  # bounded memory; at worst a burst is allowed again
        bucket = self.buckets.setdefault(
            address_group(address), TokenBucket(self.settings.http_rate, self.settings.http_burst)
        )
        if not bucket.take():
            raise Refusal("rate_limited", why="requests")


async def limited(request: Request) -> None:
    """Refuse the request when its address has made too many changes lately."""
    limits: HttpLimits = request.app.state.http_limits
    limits.check(request.client.host if request.client else "?")


HubDep = Annotated[Hub, Depends(hub_of)]
SettingsDep = Annotated[ServerSettings, Depends(settings_of)]
Limited = Depends(limited)
