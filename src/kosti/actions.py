"""Actions of every game, their notation and their record form (RULES.md §5).

An action is a small frozen value. Two parse/format pairs read and write it:

- the notation, as python-chess has ``Move.from_uci`` / ``move.uci()``:
  :meth:`Action.parse` reads what ``str(action)`` writes (``roll 1 5 3``,
  ``hold 6 6``, ``hold nothing`` (or ``hold``), ``score sixes``, ``scratch poker``,
  ``announce full_house``, ``set aside 1 5``, ``throw``, ``stop``);
- the record form, :func:`to_json` and :func:`from_json`: ``{"roll": [1, 5, 3]}``,
  ``{"hold": [6, 6]}``, ``{"score": "sixes"}``, ``{"scratch": "poker"}``,
  ``{"announce": "full_house"}``, ``{"set_aside": [1, 5]}`` and ``"stop"``.

>>> Action.parse("hold 6 6")
Hold(faces=(6, 6))
>>> str(Score("poker")), Action.parse("score poker") == Score("poker")
('score poker', True)

:class:`Throw` («Тысяча»: throw the remaining dice on) has no record form of its
own: in a record, the next ``roll`` says that the player threw on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from kosti.dice import Faces, normalize
from kosti.errors import KostiError

A = TypeVar("A", bound="Action")

CellKind = Literal["score", "scratch", "announce"]
"""What a :class:`CellAction` does with its cell."""

CELL_KINDS: tuple[CellKind, ...] = ("score", "scratch", "announce")


class Action:
    """Base of every action. ``str(action)`` is its notation; :meth:`parse` reads it back."""

    __slots__ = ()

    @classmethod
    def parse(cls: type[A], text: str) -> A:
        """The action written ``text`` (as ``str(action)`` writes it); :class:`KostiError`
        says why a text is not one. Called on a subclass (``Hold.parse``), it also refuses
        an action of another class."""
        action = _parse(text)
        if not isinstance(action, cls):
            raise KostiError(f"{text!r} is not a {cls.__name__.lower()} action")
        return action


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """A chance step: the faces of the dice just thrown, in the order they were read."""

    faces: Faces

    def __str__(self) -> str:
        return " ".join(["roll", *map(str, self.faces)])


@dataclass(frozen=True, slots=True)
class Hold(Action):
    """Keep these dice (a sub-multiset of the five on the table, sorted) and throw the rest."""

    faces: Faces

    def __str__(self) -> str:
        return "hold " + (" ".join(map(str, self.faces)) or "nothing")


@dataclass(frozen=True, slots=True)
class CellAction(Action):
    """An action on one cell of the score sheet: ``score`` records the dice on the table
    there («записать»), ``scratch`` crosses a lower cell out for 0 and banks throws
    («вычеркнуть», poker-fences), ``announce`` names the cell this turn will end in
    (column II of poker-fences, «иду на …»)."""

    kind: CellKind
    cell: str

    def __post_init__(self) -> None:
        if self.kind not in CELL_KINDS:
            raise KostiError(f"a cell action is one of {', '.join(CELL_KINDS)}, not {self.kind!r}")

    def __str__(self) -> str:
        return f"{self.kind} {self.cell}"


# The three builders are capitalised so that a cell action reads as the others do: Score("poker").
def Score(cell: str) -> CellAction:
    """Record the dice on the table in ``cell`` («записать»)."""
    return CellAction("score", cell)


def Scratch(cell: str) -> CellAction:
    """Cross out the lower cell ``cell`` for 0 and bank throws («вычеркнуть», poker-fences)."""
    return CellAction("scratch", cell)


def Announce(cell: str) -> CellAction:
    """Announce ``cell`` as the one this turn ends in (column II of poker-fences, «иду на …»)."""
    return CellAction("announce", cell)


@dataclass(frozen=True, slots=True)
class SetAside(Action):
    """Set aside these scoring dice of the last throw («отложить», thousand with set_aside=choice)."""

    faces: Faces

    def __str__(self) -> str:
        return " ".join(["set aside", *map(str, self.faces)])


@dataclass(frozen=True, slots=True)
class Throw(Action):
    """Throw the remaining dice on (thousand). In a record it is implied by the next roll."""

    def __str__(self) -> str:
        return "throw"


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """Bank the turn total (thousand, «хватит») or stand (showdown)."""

    def __str__(self) -> str:
        return "stop"


_FACE_ACTIONS: dict[str, type[Roll] | type[Hold] | type[SetAside]] = {
    "roll": Roll,
    "hold": Hold,
    "set_aside": SetAside,
}
_FACE_KEYS = {cls: key for key, cls in _FACE_ACTIONS.items()}


def _faces(words: list[str], text: str) -> tuple[int, ...]:
    """The faces written as ``words``, each a whole number from 1 to 6."""
    if not all(w.isascii() and w.isdigit() for w in words):
        raise KostiError(f"{text!r}: faces are whole numbers from 1 to 6")
    faces = tuple(int(w) for w in words)
    normalize(faces)  # refuses a face outside 1..6
    return faces


def _parse(text: str) -> Action:
    if not isinstance(text, str):
        raise KostiError(f"an action is written as text, not {text!r}")
    words = text.split()
    if not words:
        raise KostiError("an empty text is not an action")
    word, args = words[0], words[1:]
    if word in ("throw", "stop"):
        if args:
            raise KostiError(f"{text!r}: {word} takes nothing after it")
        return Throw() if word == "throw" else Stop()
    if word in CELL_KINDS:
        if len(args) != 1:
            raise KostiError(f"{text!r}: {word} takes one cell name")
        return CellAction(word, args[0])
    if word == "roll":
        return Roll(_faces(args, text))
    if word == "hold":
        # "hold" alone, as typed at a table, is "hold nothing"
        return Hold(() if args in ([], ["nothing"]) else normalize(_faces(args, text)))
    if word == "set" and args[:1] == ["aside"]:
        return SetAside(normalize(_faces(args[1:], text)))
    known = ", ".join(["roll", "hold", *CELL_KINDS, "set aside", "throw", "stop"])
    raise KostiError(f"{text!r} is not an action: an action starts with one of {known}")


def to_json(action: Action) -> Any:
    """The record form of an action; :class:`Throw` has none and raises :class:`KostiError`."""
    match action:
        case Stop():
            return "stop"
        case Throw():
            raise KostiError("a throw on is written as the roll that follows it")
        case Roll(faces) | Hold(faces) | SetAside(faces):
            return {_FACE_KEYS[type(action)]: list(faces)}
        case CellAction(kind, cell):
            return {kind: cell}
    raise KostiError(f"not an action: {action!r}")


def action_json(action: Action) -> Any:
    """The form of an action in messages and views: its record form, and a throw on (which
    has none) as its notation ``"throw"``."""
    return str(action) if isinstance(action, Throw) else to_json(action)


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
    if key in CELL_KINDS:
        if not isinstance(value, str):
            raise KostiError(f"{key!r} takes a cell name, not {value!r}")
        return CellAction(key, value)
    raise KostiError(f"unknown action {key!r}")
