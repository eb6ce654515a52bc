"""How a server runs (:class:`ServerSettings`) and the token bucket its rate limits count with."""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class ServerSettings:
    """How a server runs; the defaults suit a table of friends."""

    database_url: str | None = None
    """SQLAlchemy URL; ``None``: ``KOSTI_DATABASE_URL`` or SQLite in the user's data directory."""

    bot_delay: float = 0.6
    """Seconds a bot waits before each move, so that people can follow it."""

    message_limit: int = 4096
    """Largest WebSocket message accepted, in bytes; a larger one closes the connection."""

    rate: float = 10.0
    """WebSocket messages per second a connection may send on average …"""

    burst: int = 20
    """… and at once."""

    http_rate: float = 2.0
    """Table changes (create, join, bot) per second one address may make on average …"""

    http_burst: int = 60
    """… and at once."""

    spectators: int = 100
    """WebSocket connections one table accepts from people without a seat there."""

    seat_sockets: int = 4
    """WebSocket connections one seat may hold (tabs); a newer one closes the oldest.
    A seated player always gets in, however many spectators there are."""

    idle_timeout: float = 300.0
    """Seconds a spectator's socket may stay silent before it is closed (``ping`` keeps it)."""

    hello_timeout: float = 5.0
    """Seconds a socket arriving at a table full of spectators has to show a seat's token."""

    allowed_origins: tuple[str, ...] = ()
    """Origins (``https://host:port``) whose pages may open a table's WebSocket besides the
    server's own; ``*`` allows any. A socket without an Origin (not a browser) is let in."""

    http_limits: bool = True
    """Apply the per-address limits (``http_rate``, ``tables_per_address``); off for load tests."""

    max_tables: int = 10_000
    """Live tables (game not over, created within a day, not idle for ``idle_expiry``) the server
    keeps in all."""

    tables_per_address: int = 50
    """Live tables one address may have created (an IPv6 address: its /64 network)."""

    idle_expiry: float = 1800.0
    """Seconds after which a table where nothing has happened (made, joined, moved at) stops
    counting as live: it leaves the lobby and no longer counts against ``max_tables`` and
    ``tables_per_address``, so that tables made by the thousand and left cannot keep everyone
    else out for long. It can still be played, and a move makes it live again. Activity is
    stored a tenth of this apart at most, so a table drops out between 0.9 and 1 times this after
    its last change."""

    header_timeout: float = 10.0
    """Seconds a connection has to send a request's line and headers, from when it was accepted
    (the first request) or from the first byte of the next one (a kept-alive connection); one that
    has not by then is closed (slow-header attacks)."""

    storage_retry: float = 30.0
    """Seconds a change waits for storage to come back before it is refused."""

    redis_url: str | None = None
    """Redis that carries each committed version to the other worker processes; ``None``: one process."""

    lease: float = 3.0
    """Seconds a process owns a table's bots and timers without renewing; a dead one hands over after it."""

    max_rooms: int = 1000
    """Tables kept in memory; idle ones beyond this are forgotten and reloaded when needed."""

    linger: float = 5.0
    """Seconds a table nobody watches stays in memory before it is forgotten (0: at once)."""

    worker: int = 0
    """This process's index among the server's worker processes (:mod:`kosti.server.dispatch`) …"""

    workers: int = 1
    """… and their count: a table made here gets an id whose connections are handed to this process."""

    bot_levels: tuple[str, ...] | None = None
    """Bot levels the page offers; ``None``: those ``kosti.levels.levels_for`` gives each family."""

    hint_levels: tuple[str, ...] = ("optimal", "heuristic")
    """Bots asked for hints, the first that can advise (implements ``Advisor``) answers."""

    stand_in: str = "heuristic"
    """The level of the bot that plays for a player who ran out of time or left."""

    min_timer: int = 10
    """The shortest turn timer a table may be created with, in seconds."""

    emote_gap: float = 2.0
    """Seconds a seat waits between two quick phrases (:mod:`kosti.server.emotes`) …"""

    emotes_a_minute: int = 6
    """… and the phrases it may say in any minute."""


class TokenBucket:
    """``rate`` events a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
