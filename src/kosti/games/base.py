"""The interface every game engine offers.

A game is a pure function of its actions: an immutable state, the legal actions
in it, and :meth:`Engine.apply`, which returns a new state or raises
:class:`~kosti.errors.IllegalActionError` and changes nothing.

Throws are chance steps (as OpenSpiel's chance nodes): when :meth:`Engine.to_throw`
is ``n > 0`` the next action must be a :class:`~kosti.actions.Roll` of ``n`` dice,
supplied by the caller from a :class:`~kosti.roller.DiceSource`;
:meth:`Engine.chance_outcomes` gives their exact probabilities.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Generic, TypeVar

from kosti.actions import Action, CellAction, Roll
from kosti.dice import Faces, is_face, normalize, outcomes
from kosti.errors import IllegalActionError
from kosti.events import Event, Events
from kosti.rules.options import SheetOptions, ShowdownOptions, ThousandOptions
from kosti.rules.presets import Variant


@dataclass(frozen=True)
class GameState:
    """Fields every state has."""

    variant: Variant
    """The rules in force."""

    players: tuple[str, ...]
    """Names in turn order; the first starts."""

    turn: int
    """Turns completed so far (a new turn starts when this grows)."""

    events: Events = field(default=(), compare=False, repr=False, kw_only=True)
    """The events of the action that produced this state (RULES.md §5.1); not part of the
    position: two states that differ only here are equal."""


S = TypeVar("S", bound=GameState)
T = TypeVar("T")
OptionsT = TypeVar("OptionsT")


def replaced(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with the one at ``index`` replaced by ``value`` (states are immutable)."""
    return (*items[:index], value, *items[index + 1 :])


def emit(state: S, *events: Event) -> S:
    """``state`` with ``events`` added to the events of the transition under way."""
    return replace(state, events=state.events + events) if events else state


NOT_OF_FAMILY: dict[type, str] = {
    SheetOptions: "not_a_sheet_game",
    ThousandOptions: "not_a_thousand_game",
    ShowdownOptions: "not_a_showdown_game",
}
"""The refusal of a variant that is not of the family whose options are of this kind."""


def options_as(variant: Variant, kind: type[OptionsT], game: str = "") -> OptionsT:
    """The variant's options when they are of ``kind``; else :class:`IllegalActionError`
    saying the variant is not of that family (``not_a_sheet_game`` …). ``game``, the family
    as a caller names it, is not needed: the refusal's code follows from ``kind``."""
    options = variant.options
    if not isinstance(options, kind):
        raise IllegalActionError(NOT_OF_FAMILY.get(kind, "not_a_sheet_game"), spec=variant.spec)
    return options


def check_players(players: Sequence[str]) -> tuple[str, ...]:
    """The players as a tuple, after checking there is one at least and names are distinct."""
    names = tuple(players)
    if not names:
        raise IllegalActionError("no_players")
    for name in names:
        if not isinstance(name, str) or not name.strip():
            # a name that is not text is shown as Python writes it (params are JSON-ready)
            shown = name if isinstance(name, str | int | float) or name is None else repr(name)
            raise IllegalActionError("empty_name", name=shown)
    if len(set(names)) != len(names):
        raise IllegalActionError("shared_name")
    return names


class Engine(ABC, Generic[S]):
    """The rules of one family of games. Engines hold no game state of their own."""

    @abstractmethod
    def new_game(self, variant: Variant, players: Sequence[str]) -> S:
        """The state before the first action; the first player listed starts."""

    @abstractmethod
    def to_throw(self, state: S) -> int:
        """How many dice must be thrown next (0 when a player must decide or the game is over)."""

    @abstractmethod
    def current_player(self, state: S) -> int | None:
        """The seat to act (also during a throw), or ``None`` once the game is over."""

    @abstractmethod
    def decisions(self, state: S) -> list[Action]:
        """The player's legal actions at a decision point (empty at a throw or at the end)."""

    @abstractmethod
    def throw(self, state: S, faces: Faces) -> S:
        """The state after the throw that is due showed ``faces`` (already checked, sorted)."""

    @abstractmethod
    def decide(self, state: S, action: Action) -> S:
        """The state after a player's decision (the game is on and no throw is due);
        :class:`IllegalActionError` says why it is refused."""

    @abstractmethod
    def is_finished(self, state: S) -> bool:
        """True once the game is over."""

    @abstractmethod
    def scores(self, state: S) -> list[int]:
        """Each player's current score, as ``kosti replay`` reports it."""

    @abstractmethod
    def winners(self, state: S) -> list[int]:
        """The seats that share first place once the game is over; empty before."""

    def implicit_throw(self, state: S) -> Action | None:
        """The decision a bare ``roll`` stands for in a record at this decision point, if any."""
        return None

    # Shared behaviour built on the abstract methods.

    def apply(self, state: S, action: Action) -> S:
        """The state after ``action``, its :attr:`~GameState.events` those of this action;
        :class:`IllegalActionError` says why it is refused."""
        if self.is_finished(state):
            raise IllegalActionError("game_over")
        if isinstance(action, Roll):
            faces = self.check_roll(state, action)
            return self.throw(replace(state, events=()), faces)
        n = self.to_throw(state)
        if n:
            raise IllegalActionError("dice_due", n=n)
        return self.decide(replace(state, events=()), action)

    def gains(self, state: S) -> dict[str, int]:
        """What each decision that records the dice in a cell (a ``score``) would add to the current
        player's score now, bonuses included, by cell; empty when no such decision is open. This
        plays each such decision and compares the scores; an engine may answer faster, by the
        same rules."""
        index = self.current_player(state)
        if index is None or self.to_throw(state):
            return {}
        before = self.scores(state)[index]
        gains = {}
        for action in self.decisions(state):
            if isinstance(action, CellAction) and action.kind == "score":
                gains[action.cell] = self.scores(self.apply(state, action))[index] - before
        return gains

    def step(self, state: S, action: Action) -> tuple[S, Events]:
        """The state after ``action`` and the events of that transition (RULES.md §5.1)."""
        after = self.apply(state, action)
        return after, after.events

    def legal_actions(self, state: S) -> list[Action]:
        """Every legal action: at a throw, each distinct outcome; else the player's decisions."""
        n = self.to_throw(state)
        if n:
            return [Roll(faces) for faces, _ in outcomes(n)]
        return self.decisions(state)

    def chance_outcomes(self, state: S) -> list[tuple[Roll, Fraction]]:
        """At a throw, each distinct outcome with its exact probability; else empty."""
        n = self.to_throw(state)
        return [(Roll(faces), p) for faces, p in outcomes(n)] if n else []

    def check_roll(self, state: S, action: Roll) -> Faces:
        """The faces of ``action`` sorted; refuses a roll that is not expected now, has the
        wrong number of dice or a face outside 1..6 (an illegal action like any other, §4)."""
        n = self.to_throw(state)
        if self.is_finished(state):
            raise IllegalActionError("game_over")
        if n == 0:
            raise IllegalActionError("no_throw_due")
        if len(action.faces) != n:
            raise IllegalActionError("throw_size", n=n, got=len(action.faces))
        for face in action.faces:
            if not is_face(face):
                shown = face if isinstance(face, str | int | float) or face is None else repr(face)
                raise IllegalActionError("bad_face", face=shown)
        return normalize(action.faces)
