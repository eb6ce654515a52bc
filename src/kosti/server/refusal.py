"""The one error a server answers a client with."""

from __future__ import annotations

from kosti.errors import KostiError


class Refusal(KostiError):
    """A request the table refuses; ``code`` is a stable word for programs, the message says why."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
