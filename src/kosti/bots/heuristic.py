"""What the heuristic bots share: every legal decision valued by the bot's own rule, best first."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar, Generic, TypeVar, cast

from kosti.actions import Action
from kosti.bots.base import Advice
from kosti.errors import IllegalActionError
from kosti.games import engine_for
from kosti.games.base import GameState

S = TypeVar("S", bound=GameState)


class HeuristicBot(ABC, Generic[S]):
    """A bot that values each decision (:meth:`weigh`) and takes the best; ties go to the
    decision the engine lists first. It is also an :class:`~kosti.bots.base.Advisor`."""

    name = "heuristic"
    plays: ClassVar[type[GameState]] = GameState
    """The state class of the family it plays."""

    digits: ClassVar[int] = 1
    """Decimals of the values it reports."""

    def choose(self, state: GameState) -> Action:
        """The decision :meth:`advise` ranks first."""
        return self.advise(state)[0].action

    def advise(self, state: GameState) -> list[Advice]:
        """Every legal decision, best first, with the bot's value of it and its loss against the best."""
        if not isinstance(state, self.plays):
            raise IllegalActionError("bot_wrong_game", plays=self.plays.__name__, spec=state.variant.spec)
        decisions = engine_for(state.variant).decisions(state)
        if not decisions:
            raise IllegalActionError("no_decision")
        game = cast(S, state)  # checked just above against the class it plays
        worth = self.weigh(game, decisions)
        base = self.baseline(game)
        best = max(worth)
        ranked = sorted(zip(decisions, worth, strict=True), key=lambda item: -item[1])
        return [Advice(a, round(base + w, self.digits), round(best - w, self.digits)) for a, w in ranked]

    @abstractmethod
    def weigh(self, state: S, decisions: list[Action]) -> list[float]:
        """The value of each decision, in the order given."""

    def baseline(self, state: S) -> float:
        """Added to every value when it is reported (what the values are relative to)."""
        return 0.0
