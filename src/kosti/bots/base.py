"""The bot interface, and a loop that plays a game to its end with bots and a dice source."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from kosti.actions import Action, Roll
from kosti.games import engine_for
from kosti.games.base import GameState
from kosti.roller import DiceSource


@runtime_checkable
class Bot(Protocol):
    """A policy: at a decision point of the seat it plays, a legal action."""

    name: str
    """A short name for menus and logs (``random``, ``heuristic``, ``optimal``)."""

    def choose(self, state: GameState) -> Action:
        """One of ``engine.decisions(state)``; called only when the bot's seat must decide."""
        ...


def play_out(
    state: GameState,
    bots: Sequence[Bot],
    dice: DiceSource,
    max_actions: int = 1_000_000,
) -> GameState:
    """Play ``state`` to the end: ``bots[seat]`` decides for each seat, ``dice`` throws.

    Stops after ``max_actions`` actions (a guard for games that may not end, such
    as «Тысяча» with pathological options) and returns the state reached.
    """
    engine = engine_for(state.variant)
    for _ in range(max_actions):
        if engine.is_finished(state):
            break
        n = engine.to_throw(state)
        if n:
            state = engine.apply(state, Roll(dice.roll(n)))
            continue
        seat = engine.current_player(state)
        if seat is None:  # pragma: no cover - not finished means someone acts
            break
        state = engine.apply(state, bots[seat].choose(state))
    return state


@dataclass(frozen=True)
class Advice:
    """One decision with what it is worth, as a hint shows it."""

    action: Action
    value: float | None
    """The expected final score after this decision (``None`` where unknown)."""

    loss: float | None = None
    """How much less than the best decision it is expected to give (0 for the best)."""


@runtime_checkable
class Advisor(Protocol):
    """A bot that can rank every decision, best first (the exact solver, the heuristics)."""

    def advise(self, state: GameState) -> list[Advice]:
        """Every legal decision in ``state`` with its value, best first."""
        ...
