"""Game engines by family, and the functions that dispatch to them.

:data:`ENGINES` is the registry of engines by family and ``engine_for(variant)`` gives
the engine of a variant's family; the module-level
helpers (:func:`new_game`, :func:`apply`, :func:`legal_actions`, …) work on any
state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kosti.actions import Action
from kosti.dice import Faces
from kosti.errors import KostiError
from kosti.events import Events
from kosti.games.base import Engine, GameState
from kosti.games.sheet.game import SHEET
from kosti.games.sheet.turn import sheet_turn
from kosti.games.showdown.game import SHOWDOWN
from kosti.games.showdown.turn import showdown_turn
from kosti.games.thousand.game import THOUSAND
from kosti.games.thousand.turn import thousand_turn
from kosti.games.turn import TurnView
from kosti.rules.presets import Family, Variant
from kosti.rules.presets import variant as make_variant

ENGINES: dict[Family, Engine[Any]] = {"sheet": SHEET, "thousand": THOUSAND, "showdown": SHOWDOWN}
"""The engine of each family of games, by the name a :class:`~kosti.rules.presets.Preset` gives it."""


TURN_VIEWS: dict[Family, Callable[[Any, Faces], TurnView]] = {
    "sheet": sheet_turn,
    "thousand": thousand_turn,
    "showdown": showdown_turn,
}
"""The turn view of each family (:mod:`kosti.games.turn`), by the same names as :data:`ENGINES`."""


def engine_for(variant: Variant) -> Engine[Any]:
    """The engine of the variant's family; :class:`~kosti.errors.KostiError` for a family no engine plays."""
    engine = ENGINES.get(variant.family)
    if engine is None:
        raise KostiError(f"no engine plays the family {variant.family!r} of {variant.spec}")
    return engine


def new_game(variant: Variant | str, players: Sequence[str]) -> GameState:
    """A new game of ``variant`` (a :class:`Variant` or its string form); the first player starts."""
    v = make_variant(variant) if isinstance(variant, str) else variant
    state: GameState = engine_for(v).new_game(v, players)
    return state


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``; raises :class:`~kosti.errors.IllegalActionError` with the reason."""
    result: GameState = engine_for(state.variant).apply(state, action)
    return result


def step(state: GameState, action: Action) -> tuple[GameState, Events]:
    """The state after ``action`` and the events that say why each score changed (RULES.md §5.1)."""
    after = apply(state, action)
    return after, after.events


def turn_view(state: GameState, picked: Faces = ()) -> TurnView:
    """The turn as the player to act sees it (:mod:`kosti.games.turn`), the keys planned with
    the dice ``picked`` on the table; built by the family's own ``turn`` module."""
    return TURN_VIEWS[state.variant.family](state, tuple(picked))


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action in ``state`` (at a throw: every distinct outcome)."""
    return engine_for(state.variant).legal_actions(state)


__all__ = [
    "ENGINES",
    "Engine",
    "GameState",
    "TurnView",
    "apply",
    "engine_for",
    "legal_actions",
    "new_game",
    "step",
    "turn_view",
]
