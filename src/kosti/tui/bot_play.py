"""The bots at a terminal table: which seats they hold and the move each makes when it is due.

The :class:`~kosti.tui.session.Session` makes their moves as it makes a person's, so the
record and the log do not tell them apart; this class only decides what the moves are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kosti.actions import Action, Roll
from kosti.bots.base import Bot
from kosti.games.base import Engine, GameState
from kosti.levels import Game, make_bot
from kosti.roller import DiceSource


class BotPlayers:
    """The bots of a table, by player name.

    ``seats`` are (name, level) in turn order, level ``None`` for a person; the bot in seat
    ``i`` draws its own choices from ``seed + i`` (random bots), so a seeded game replays.
    """

    def __init__(self, seats: Sequence[tuple[str, str | None]], rules: Game, seed: int | None) -> None:
        self._bots: dict[str, Bot] = {
            name: make_bot(level, rules, None if seed is None else seed + i)
            for i, (name, level) in enumerate(seats)
            if level is not None
        }

    def __bool__(self) -> bool:
        """Whether any bot sits at the table."""
        return bool(self._bots)

    def plays(self, name: str) -> bool:
        return name in self._bots

    def _to_act(self, engine: Engine[Any], state: GameState) -> str | None:
        seat = engine.current_player(state)
        name = None if seat is None else state.players[seat]
        return name if name is not None and name in self._bots else None

    def due(self, engine: Engine[Any], state: GameState, dice: DiceSource | None) -> bool:
        """A bot must act in ``state`` and can: with typed-in dice (``dice`` ``None``) a bot
        only decides, its throws wait for the person at the keyboard."""
        if self._to_act(engine, state) is None:
            return False
        return dice is not None or not engine.to_throw(state)

    def move(self, engine: Engine[Any], state: GameState, dice: DiceSource | None) -> Action | None:
        """The move of the bot to act in ``state``: its throw (from ``dice``) or its decision;
        ``None`` when no bot is :meth:`due`. Changes no game, so it may run in a thread."""
        name = self._to_act(engine, state)
        if name is None or not self.due(engine, state, dice):
            return None
        n = engine.to_throw(state)
        if n:
            return Roll(tuple(dice.roll(n))) if dice is not None else None
        return self._bots[name].choose(state)
