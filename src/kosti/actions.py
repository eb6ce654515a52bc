"""Actions of every game, and their record form (RULES.md §5).

An action is a small frozen value. :func:`to_json` and :func:`from_json` are the
parse/format pair of the record format: ``{"roll": [1, 5, 3]}``, ``{"hold": [6, 6]}``,
``{"score": "sixes"}``, ``{"scratch": "poker"}``, ``{"announce": "full_house"}``,
``{"set_aside": [1, 5]}`` and ``"stop"``.

:class:`Throw` (thousand: throw the remaining dice on) has no record form of its
own: in a record, the next ``roll`` says that the player threw on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kosti.dice import Faces, normalize
from kosti.errors import KostiError


@dataclass(frozen=True, slots=True)
class Roll:
    """A chance step: the faces of the dice just thrown."""

    faces: Faces

    def __str__(self) -> str:
        return "roll " + " ".join(map(str, self.faces))


@dataclass(frozen=True, slots=True)
class Hold:
    """Keep these dice (a sub-multiset of the five on the table) and throw the rest."""

    faces: Faces

    def __str__(self) -> str:
        return "hold " + (" ".join(map(str, self.faces)) or "nothing")


@dataclass(frozen=True, slots=True)
class Score:
    """Record the dice on the table in this cell («записать»)."""

    cell: str

    def __str__(self) -> str:
        return f"score {self.cell}"


@dataclass(frozen=True, slots=True)
class Scratch:
    """Cross out a lower cell for 0 and bank throws («вычеркнуть», poker-fences)."""

    cell: str

    def __str__(self) -> str:
        return f"scratch {self.cell}"


@dataclass(frozen=True, slots=True)
class Announce:
    """Announce the cell this turn will end in (column II of poker-fences, «иду на …»)."""

    cell: str

    def __str__(self) -> str:
        return f"announce {self.cell}"


@dataclass(frozen=True, slots=True)
class SetAside:
    """Set aside these scoring dice of the last throw («отложить», thousand with set_aside=choice)."""

    faces: Faces

    def __str__(self) -> str:
        return "set aside " + " ".join(map(str, self.faces))


@dataclass(frozen=True, slots=True)
class Throw:
    """Throw the remaining dice on (thousand). In a record it is implied by the next roll."""

    def __str__(self) -> str:
        return "throw"


@dataclass(frozen=True, slots=True)
class Stop:
    """Bank the turn total (thousand, «хватит») or stand (showdown)."""

    def __str__(self) -> str:
        return "stop"


Action = Roll | Hold | Score | Scratch | Announce | SetAside | Throw | Stop

_FACE_ACTIONS: dict[str, type[Roll] | type[Hold] | type[SetAside]] = {
    "roll": Roll,
    "hold": Hold,
    "set_aside": SetAside,
}
_CELL_ACTIONS: dict[str, type[Score] | type[Scratch] | type[Announce]] = {
    "score": Score,
    "scratch": Scratch,
    "announce": Announce,
}


def to_json(action: Action) -> Any:
    """The record form of an action; :class:`Throw` has none and raises :class:`KostiError`."""
    match action:
        case Stop():
            return "stop"
        case Throw():
            raise KostiError("a throw on is written as the roll that follows it")
        case Roll(faces) | Hold(faces) | SetAside(faces):
            key = {Roll: "roll", Hold: "hold", SetAside: "set_aside"}[type(action)]
            return {key: list(faces)}
        case Score(cell) | Scratch(cell) | Announce(cell):
            key = {Score: "score", Scratch: "scratch", Announce: "announce"}[type(action)]
            return {key: cell}
    raise KostiError(f"not an action: {action!r}")  # pragma: no cover - exhaustive above


def from_json(data: Any) -> Action:
    """Parse the record form of an action; a malformed one raises :class:`KostiError`."""
    if data == "stop":
        return Stop()
    if not isinstance(data, dict) or len(data) != 1:
        raise KostiError(f'an action is "stop" or an object with one key, not {data!r}')
    ((key, value),) = data.items()
    if key in _FACE_ACTIONS:
        if not isinstance(value, list):
            raise KostiError(f"{key!r} takes a list of faces, not {value!r}")
        faces = normalize(value)
        # a roll keeps the order the dice were read in; the others are multisets
        return _FACE_ACTIONS[key](tuple(value) if key == "roll" else faces)
    if key in _CELL_ACTIONS:
        if not isinstance(value, str):
            raise KostiError(f"{key!r} takes a cell name, not {value!r}")
        return _CELL_ACTIONS[key](value)
    raise KostiError(f"unknown action {key!r}")
