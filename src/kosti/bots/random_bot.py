"""The random bot: any legal decision, uniformly (a baseline, and a fuzzer for the engines)."""

from __future__ import annotations

import random

from kosti.actions import Action
from kosti.errors import IllegalActionError
from kosti.games import engine_for
from kosti.games.base import GameState


class RandomBot:
    """Chooses uniformly among ``engine.decisions(state)`` with its own seeded generator.

    It never looks at the dice: a floor that every other bot must clear.
    """

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self._random = random.Random(seed)

    def choose(self, state: GameState) -> Action:
        """A uniformly drawn legal decision; :class:`IllegalActionError` when there is none."""
        options = engine_for(state.variant).decisions(state)
        if not options:
            raise IllegalActionError("no_decision")
        return self._random.choice(options)
