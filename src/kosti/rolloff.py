"""Who starts: the roll-off («жребий», RULES.md §0).

Every player throws all five dice once; the highest pip total starts. Players
tied for the highest total throw again, among themselves only, until one
remains. Play then goes round the seats from the starter, so the record's
``players`` list (the turn order, first starts) is the seating rotated to put
the starter first (:func:`rotate`).

With ``first_player = "seat"`` there is no roll-off: the first player listed starts
(:func:`starting_order` handles both).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kosti.dice import Faces, normalize
from kosti.errors import KostiError
from kosti.games.base import check_players
from kosti.roller import DiceSource

MAX_ROUNDS = 1000
"""A roll-off still tied after this many rounds means the dice source is broken."""


@dataclass(frozen=True)
class RollOffThrow:
    """One throw of the roll-off: who threw, in which round (1-based), and the five faces."""

    round: int
    player: str
    faces: Faces

    @property
    def total(self) -> int:
        """The pip total that is compared."""
        return sum(self.faces)


@dataclass(frozen=True)
class RollOff:
    """The outcome of a roll-off: the starter and every throw made, in the order made."""

    starter: str
    throws: tuple[RollOffThrow, ...]

    def rounds(self) -> list[list[RollOffThrow]]:
        """The throws grouped by round (round 1 first), for display."""
        result: list[list[RollOffThrow]] = []
        for throw in self.throws:
            if len(result) < throw.round:
                result.append([])
            result[throw.round - 1].append(throw)
        return result


def roll_off(players: Sequence[str], dice: DiceSource, max_rounds: int = MAX_ROUNDS) -> RollOff:
    """Throw for the first turn among ``players`` (in seat order) with dice from ``dice``.

    A lone player starts without throwing. Raises :class:`KostiError` for an empty or
    repeated list of names, for a throw that is not five faces 1..6, or when the
    players are still tied after ``max_rounds`` rounds.
    """
    contenders = list(check_players(players))
    throws: list[RollOffThrow] = []
    round_ = 0
    while len(contenders) > 1:
        round_ += 1
        if round_ > max_rounds:
            raise KostiError(f"the roll-off is still tied after {max_rounds} rounds")
        thrown = [RollOffThrow(round_, name, normalize(dice.roll(5), 5)) for name in contenders]
        throws.extend(thrown)
        best = max(t.total for t in thrown)
        # only the players tied for the highest throw again («переброс»)
        contenders = [t.player for t in thrown if t.total == best]
    return RollOff(contenders[0], tuple(throws))


def rotate(players: Sequence[str], starter: str) -> list[str]:
    """The seating order going round from ``starter``: the turn order of the game."""
    seats = list(players)
    if starter not in seats:
        raise KostiError(f"{starter!r} is not at the table")
    i = seats.index(starter)
    return seats[i:] + seats[:i]


def starting_order(
    players: Sequence[str], first_player: str, dice: DiceSource
) -> tuple[list[str], RollOff | None]:
    """The turn order under the option ``first_player``, and the roll-off if one was thrown.

    ``seat``: the players as listed, no throws. ``rolloff``: the seating rotated so that
    the roll-off's winner starts.
    """
    if first_player == "seat":
        return list(check_players(players)), None
    if first_player != "rolloff":
        raise KostiError(f"first_player is rolloff or seat, not {first_player!r}")
    result = roll_off(players, dice)
    return rotate(players, result.starter), result
