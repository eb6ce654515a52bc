"""The bot interface, and the one loop that plays a game on with bots and a dice source."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from kosti.actions import Action, Roll
from kosti.errors import IllegalActionError
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


OnAction = Callable[[GameState, Action, GameState], None]
"""Called after every action of a play-out with (the state before, the action, the state after)."""


def play_out(
    state: GameState,
    bots: Sequence[Bot | None],
    dice: DiceSource,
    max_actions: int = 1_000_000,
    on_action: OnAction | None = None,
) -> GameState:
    """Play ``state`` on: ``bots[seat]`` decides for each seat, ``dice`` throws, and
    ``on_action`` (if given) hears of every action applied (a :class:`~kosti.record.Recorder`
    logs them with :meth:`~kosti.record.Recorder.log`).

    Returns the state reached: at the end of the game, at a decision of a seat whose bot
    is ``None`` (a person or an agent decides there), or after ``max_actions`` actions (a
    guard for games that may not end, such as «Тысяча» with pathological options).
    """
    engine = engine_for(state.variant)
    for _ in range(max_actions):
        if engine.is_finished(state):
            break
        n = engine.to_throw(state)
        if n:
            action: Action = Roll(dice.roll(n))
        else:
            seat = engine.current_player(state)
            bot = None if seat is None else bots[seat]
            if bot is None:
                break
            action = bot.choose(state)
        after = engine.apply(state, action)
        if on_action is not None:
            on_action(state, action, after)
        state = after
    return state


@dataclass(frozen=True)
class Advice:
    """One decision with what it is worth, as a hint shows it."""

    action: Action
    value: float | None
    """What the decision is worth: the expected final score, or with :attr:`chance` the
    chance of winning it keeps (``None`` where unknown)."""

    loss: float | None = None
    """How much less than the best decision it is expected to give (0 for the best)."""

    chance: bool = False
    """``value`` and ``loss`` are chances of winning (0..1): «Тысяча»'s solver."""

    exact: bool = False
    """``value`` and ``loss`` are the solver's exact values (a sheet's optimum, two-player
    «Тысяча»'s chances), not a heuristic's estimate: a screen says which it shows."""


@runtime_checkable
class Advisor(Protocol):
    """A bot that can rank every decision, best first (the exact solver, the heuristics)."""

    def advise(self, state: GameState) -> list[Advice]:
        """Every legal decision in ``state`` with its value, best first."""
        ...


class AdvisedBot:
    """A bot that plays the best decision its :attr:`advisor` ranks (ties: the engine's order),
    and hands on the whole ranking to hints."""

    name = "advised"

    def __init__(self, advisor: Advisor) -> None:
        self.advisor = advisor

    def choose(self, state: GameState) -> Action:
        """The best decision; :class:`IllegalActionError` when there is none to make."""
        advice = self.advisor.advise(state)
        if not advice:
            raise IllegalActionError("no_decision")
        return advice[0].action

    def advise(self, state: GameState) -> list[Advice]:
        """Every legal decision ranked, best first, with its value and loss."""
        return self.advisor.advise(state)
