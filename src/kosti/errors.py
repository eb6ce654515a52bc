"""Typed errors. Every refusal says why; nothing is changed by a refused call."""

from __future__ import annotations


class KostiError(ValueError):
    """Base of every error the library raises for bad input."""


class OptionError(KostiError):
    """An unknown preset, an unknown option, or an option value of the wrong kind."""


class IllegalActionError(KostiError):
    """An action that the rules do not allow in this state. The state is unchanged."""


class RecordError(KostiError):
    """A game record that cannot be read or replayed.

    ``turn`` and ``action`` are 1-based positions in the record (``None`` when the
    error is not about one action).
    """

    def __init__(self, reason: str, turn: int | None = None, action: int | None = None) -> None:
        self.reason = reason
        self.turn = turn
        self.action = action
        where = ""
        if turn is not None:
            where = f"turn {turn}"
            if action is not None:
                where += f", action {action}"
            where += ": "
        super().__init__(where + reason)
