"""A time limit on a request's line and headers: uvicorn's HTTP protocols with a header timeout.

uvicorn times out a kept-alive connection that stays idle between requests, but not one
that trickles its request line or headers a byte at a time ("slowloris"): a thousand such
connections were held for as long as their senders liked. The protocol classes here (one
for each HTTP parser uvicorn has: httptools, else h11) close a connection whose headers are
not all in within the timeout, counted from when it was accepted (its first request) or from
the first byte of its next request (a kept-alive connection). Once the headers are in, the
clock stops: a slow upload, a long answer or a WebSocket is not cut short.

``kosti serve --workers N`` accepts in a parent process (:mod:`kosti.server.dispatch`): the
worker is told how long the parent waited for the request line (:meth:`HeaderClock.headers_due`),
so that the time spent there counts too.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

try:  # what uvicorn's "auto" takes when it is installed (uvicorn[standard] installs it)
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover
    HttpToolsProtocol = None  # type: ignore[assignment,misc]


class HeaderClock:
    """The header timer of one connection, shared by both protocol classes."""

    header_timeout: ClassVar[float] = 10.0
    """Seconds a request's line and headers may take (the subclass :func:`protocol` makes sets it)."""

    _header_timer: asyncio.TimerHandle | None = None
    _first_due: float | None = None

    def headers_due(self, deadline: float) -> None:
        """The first request's headers are due by ``deadline`` (``time.monotonic()``), not
        :attr:`header_timeout` after the connection reached this process. Called before the
        connection is made."""
        self._first_due = deadline

    def _start_header_clock(self, loop: asyncio.AbstractEventLoop, transport: asyncio.BaseTransport) -> None:
        """Start the clock of the next request's headers, unless it runs already."""
        if self._header_timer is not None:
            return
        delay = self.header_timeout
        if self._first_due is not None:
            delay = self._first_due - time.monotonic()
            self._first_due = None
        self._header_timer = loop.call_later(max(0.0, delay), _too_slow, transport)

    def _stop_header_clock(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None


def _too_slow(transport: asyncio.BaseTransport) -> None:
    """The headers did not come in time: close the connection, without an answer (a sender this
    slow may not be reading either)."""
    if not transport.is_closing():
        transport.close()


class H11HeaderTimeout(HeaderClock, H11Protocol):
    """uvicorn's h11 protocol with a header timeout."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_header_clock(self.loop, transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_clock()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        # IDLE: the client has yet to send a whole request's headers; after a response, these
        # are the first bytes of the next request
        if self.conn.their_state is h11.IDLE:
            self._start_header_clock(self.loop, self.transport)
        super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:  # a request's headers are in (or it failed)
            self._stop_header_clock()

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._stop_header_clock()
        super().handle_websocket_upgrade(event)


if HttpToolsProtocol is not None:

    class HttpToolsHeaderTimeout(HeaderClock, HttpToolsProtocol):
        """uvicorn's httptools protocol with a header timeout."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._start_header_clock(self.loop, transport)

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_header_clock()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            # the first byte of a request: the clock runs already for the first one
            self._start_header_clock(self.loop, self.transport)
            super().on_message_begin()

        def on_headers_complete(self) -> None:
            self._stop_header_clock()
            super().on_headers_complete()

        def handle_websocket_upgrade(self) -> None:
            self._stop_header_clock()
            super().handle_websocket_upgrade()


def protocol(header_timeout: float, parser: str = "auto") -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class for ``parser`` (``auto``: httptools if installed, else h11;
    ``httptools``; ``h11``), closing a connection whose request line and headers are not all in
    within ``header_timeout`` seconds. :class:`ValueError` for another parser or a timeout ≤ 0."""
    if not header_timeout > 0:
        raise ValueError(f"the header timeout is a number of seconds above 0, not {header_timeout}")
    base: type[asyncio.Protocol]
    if parser == "h11" or (parser == "auto" and HttpToolsProtocol is None):
        base = H11HeaderTimeout
    elif parser in ("auto", "httptools") and HttpToolsProtocol is not None:
        base = HttpToolsHeaderTimeout
    else:
        raise ValueError(f"no HTTP parser {parser!r} here: auto, httptools or h11")
    return type(base.__name__, (base,), {"header_timeout": float(header_timeout)})
