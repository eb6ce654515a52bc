"""The turn as a player sees it: what they may do now, what the throw and stop keys would
do, and why anything else is refused.

Every interface (the terminal, the page, the scorekeeper) draws a :class:`TurnView`;
none of them works out the turn from the engine on its own. Each family builds its view
in ``games/<family>/turn.py`` from its engine's own rules: an action is open when the
engine takes it, and closed with the engine's refusal (its ``code`` and ``params``,
RULES.md §4) when it does not, so the view can never disagree with the rules.

The *picked* dice are the player's selection on the table: the dice to hold before the
next throw (score sheets, showdown) or to set aside («Тысяча», with ``set_aside =
"choice"``). The keys are planned with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from kosti.actions import Action, action_json
from kosti.dice import Faces
from kosti.errors import IllegalActionError
from kosti.games.base import Engine, S

Pick = Literal["hold", "set_aside"]


@dataclass(frozen=True)
class Group:
    """Dice set aside together in this turn («Тысяча»), and the points they made."""

    dice: Faces
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"dice": list(self.dice), "points": self.points}


@dataclass(frozen=True)
class KeyPlan:
    """What a key does now: the decisions it plays, then the dice thrown after them (0: it
    throws nothing, the decisions end the turn themselves); or why it cannot."""

    actions: tuple[Action, ...] = ()
    throws: int = 0
    refusal: IllegalActionError | None = None

    @property
    def open(self) -> bool:
        return self.refusal is None

    def to_json(self) -> dict[str, Any]:
        """The plan as data: its actions in record form, the dice thrown, and the refusal's
        code and params (worded by :func:`kosti.i18n.refusal_text` where shown)."""
        return {
            "actions": [action_json(a) for a in self.actions],
            "throws": self.throws,
            "refusal": None if self.refusal is None else refusal_json(self.refusal),
        }


@dataclass(frozen=True)
class TurnView:
    """What a player needs to act (see the module docstring)."""

    player: int | None
    """The seat to act; ``None`` once the game is over."""

    to_throw: int
    """Dice due to be thrown now (0: the player decides)."""

    dice: Faces
    """The dice on the table that the player sees and may pick, sorted (the last throw's
    dice not yet set aside in «Тысяча»; all five on a score sheet)."""

    pick: Pick | None
    """What picking dice means now: ``hold`` them for the next throw, ``set_aside`` them
    («Тысяча»); ``None``: no die may be picked."""

    locked: Faces = ()
    """Dice that must stay held for the rest of the turn (showdown)."""

    scoring: Faces = ()
    """The dice of the last throw that score («Тысяча», while choosing what to set aside)."""

    aside: tuple[Group, ...] = ()
    """The dice set aside this turn, group by group («Тысяча»)."""

    turn_total: int | None = None
    """Points set aside this turn («Тысяча»); ``None`` where turns have no total."""

    throws_left: int | None = None
    """Throws left in this turn (score sheets, showdown); ``None`` where they are not counted."""

    open: tuple[Action, ...] = ()
    """The decisions the player may take now (empty at a throw and at the end)."""

    closed: tuple[tuple[Action, IllegalActionError], ...] = ()
    """The actions a player may try that are refused now (a cell filled or out of order),
    each with the engine's refusal."""

    throw: KeyPlan = field(default_factory=KeyPlan)
    """What the throw key does now, with the picked dice."""

    stop: KeyPlan = field(default_factory=KeyPlan)
    """What the stop key does now («хватит», stand), with the picked dice."""

    def refusal_of(self, action: Action) -> IllegalActionError | None:
        """Why ``action`` is refused now (``None`` when it is open or not one the view lists)."""
        for closed, why in self.closed:
            if closed == action:
                return why
        return None

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data, every refusal as its code and params."""
        return {
            "player": self.player,
            "to_throw": self.to_throw,
            "dice": list(self.dice),
            "pick": self.pick,
            "locked": list(self.locked),
            "scoring": list(self.scoring),
            "aside": [g.to_json() for g in self.aside],
            "turn_total": self.turn_total,
            "throws_left": self.throws_left,
            "open": [action_json(a) for a in self.open],
            "closed": [{"action": action_json(a), "refusal": refusal_json(e)} for a, e in self.closed],
            "throw": self.throw.to_json(),
            "stop": self.stop.to_json(),
        }


def refusal_json(error: IllegalActionError) -> dict[str, Any]:
    """A refusal as data: its code and params where it carries them, and its English text."""
    return {
        "code": getattr(error, "code", "illegal"),
        "params": dict(getattr(error, "params", {}) or {}),
        "text": str(error),
    }


def plan(engine: Engine[S], state: S, actions: Sequence[Action]) -> tuple[S, KeyPlan]:
    """Play ``actions`` from ``state`` on the pure engine: the state after them and the key
    plan they make (the dice then due), or the state unchanged and the first refusal."""
    after = state
    try:
        for action in actions:
            after = engine.apply(after, action)
    except IllegalActionError as error:
        return state, KeyPlan(tuple(actions), 0, error)
    throws = 0 if after.turn != state.turn or engine.is_finished(after) else engine.to_throw(after)
    return after, KeyPlan(tuple(actions), throws)


def refused(engine: Engine[S], state: S, action: Action) -> IllegalActionError | None:
    """The engine's refusal of ``action`` at ``state``; ``None`` when it takes it."""
    try:
        engine.apply(state, action)
    except IllegalActionError as error:
        return error
    return None
