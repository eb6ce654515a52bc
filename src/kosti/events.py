"""Events: why every score changed (RULES.md §5.1).

Applying an action gives a new state and the events of that transition: every
change to any player's score or status, in the order it happened. They come from
the rules core, as part of the transition (``state.events`` holds those of the
action that produced the state; :func:`kosti.games.step` returns them). The
terminal game, the web page and the proficiency report word their logs from them
(:mod:`kosti.narrate`); none of them works out on its own why a score changed.

For every player, the ``points`` of their events since the start of the game add
up to the score the engine reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from kosti.dice import Faces

EventKind = Literal[
    # «Тысяча» (RULES.md §3)
    "recorded",
    "bust",
    "bolt",
    "bolt_penalty",
    "opening_fail_penalty",
    "overtaken",
    "barrel_on",
    "barrel_attempt",
    "fall",
    "knocked_off",
    "dot",
    "dot_penalty",
    "dump",
    "win",
    # score sheets (RULES.md §1); ``recorded`` is shared
    "scratched",
    "banked",
    "upper_bonus",
    "bank_bonus",
    "yahtzee_bonus",
    # showdown (RULES.md §2)
    "ante",
    "bank_won",
    "deciding_round",
]

KINDS: tuple[str, ...] = EventKind.__args__  # type: ignore[attr-defined]
"""Every event kind, in the order RULES.md §5.1 lists them."""


@dataclass(frozen=True, slots=True)
class Event:
    """One change to one player's score or status."""

    turn: int
    """The turn it happened in, counting from 0 in record order."""

    seat: int
    """The player whose score or status changed."""

    kind: EventKind
    """What happened (RULES.md §5.1)."""

    points: int = 0
    """The signed change of that player's score (0 where only the status changed)."""

    score: int = 0
    """That player's score after the event."""

    by: int | None = None
    """The player whose turn caused it, when that is another player (the overtaker, the climber)."""

    cell: str | None = None
    """Score sheets: the cell recorded or scratched."""

    column: int | None = None
    """poker-fences: the column (0 = I, 1 = II, 2 = III) of the cell or of the upper bonus."""

    throws: int | None = None
    """``banked``: throws banked (negative when a banked throw is spent)."""

    count: int | None = None
    """The running count this event reached: the bolt, attempt, fall, dot, failed opening, or
    (``banked``) the throws in the bank after it."""

    limit: int | None = None
    """Where ``count`` leads to a penalty or a fall (``bolt_limit``, ``barrel_attempts``…)."""

    total: int | None = None
    """«Тысяча»: the turn total at stake (recorded, lost by a bust or a dot, won)."""

    dice: Faces = ()
    """The dice that made it: a recorded cell, a bust throw, a showdown hand."""

    first_throw: bool = False
    """Score sheets: the cell was made on the first throw."""

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        """The JSON form of ``kosti replay --json --events``: the §5.1 fields, then the details set."""
        data: dict[str, Any] = {
            "turn": self.turn,
            "player": players[self.seat],
            "kind": self.kind,
            "points": self.points,
            "score": self.score,
        }
        if self.by is not None:
            data["by"] = players[self.by]
        for name in ("cell", "column", "throws", "count", "limit", "total"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        if self.dice:
            data["dice"] = list(self.dice)
        if self.first_throw:
            data["first_throw"] = True
        return data


Events = tuple[Event, ...]


def points_by_seat(events: Sequence[Event], players: int) -> list[int]:
    """The sum of each seat's event points (what RULES.md §5.1 says equals the reported score)."""
    totals = [0] * players
    for event in events:
        totals[event.seat] += event.points
    return totals
