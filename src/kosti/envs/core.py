"""A game at a table of seats, for the environments: chance steps, bots, seat bookkeeping.

Seats are the order players were given in; the engine plays in turn order, which
the roll-off (option ``first_player``) may rotate. :class:`Table` keeps both and
resolves every throw from a NumPy generator, so a seeded ``reset`` replays exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from kosti.actions import Action
from kosti.bots.base import Bot, play_out
from kosti.dice import Faces
from kosti.envs.codec import Codec, Mask, Vector, codec_for
from kosti.games import engine_for
from kosti.games.base import Engine, GameState
from kosti.levels import make_bot
from kosti.rolloff import starting_order
from kosti.rules.presets import Variant
from kosti.show import summary


class GeneratorDice:
    """A :class:`~kosti.roller.DiceSource` over a NumPy generator (an environment's ``np_random``)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def roll(self, n: int) -> Faces:
        return tuple(int(f) for f in self.rng.integers(1, 7, n))


class Table:
    """One game: the engine state, who sits where, and the codec that shows it to agents."""

    def __init__(self, rules: Variant, seats: int, rng: np.random.Generator) -> None:
        self.rules = rules
        self.engine: Engine[Any] = engine_for(rules)
        self.codec: Codec = codec_for(rules, seats)
        self.dice = GeneratorDice(rng)
        names = [f"player_{i}" for i in range(seats)]
        order, _ = starting_order(names, rules.options.first_player, self.dice)
        self.position_of_seat = [order.index(name) for name in names]
        self.seat_of_position = [names.index(name) for name in order]
        self.state: GameState = self.engine.new_game(rules, order)
        self.throw()

    def throw(self) -> None:
        """Make every throw that is due (chance steps are not the agents' business)."""
        self.state = play_out(self.state, [None] * len(self.seat_of_position), self.dice)

    @property
    def finished(self) -> bool:
        return bool(self.engine.is_finished(self.state))

    @property
    def turn(self) -> int:
        return self.state.turn

    def seat_to_act(self) -> int | None:
        position = self.engine.current_player(self.state)
        return None if position is None else self.seat_of_position[position]

    def observe(self, seat: int) -> Vector:
        return self.codec.observe(self.engine, self.state, self.position_of_seat[seat])

    def mask(self, seat: int) -> Mask:
        """The legal indices for ``seat`` (all 0 unless it is that seat's decision)."""
        if self.finished or self.seat_to_act() != seat:
            return np.zeros(self.codec.n_actions, dtype=np.int8)
        return self.codec.mask(self.engine, self.state)

    def action(self, seat: int, index: int) -> Action | None:
        """The legal action ``index`` stands for, or ``None`` when it is not legal for ``seat`` now."""
        if not 0 <= index < self.codec.n_actions or not self.mask(seat)[index]:
            return None
        return self.codec.decode(self.state, index)

    def play(self, action: Action) -> None:
        """Apply a legal decision, then the throws it makes due."""
        self.state = self.engine.apply(self.state, action)
        self.throw()

    def scores(self) -> list[int]:
        """Scores by seat."""
        by_position = self.engine.scores(self.state)
        return [by_position[self.position_of_seat[s]] for s in range(len(by_position))]

    def winners(self) -> set[int]:
        """Seats sharing first place once the game is over."""
        return {self.seat_of_position[p] for p in self.engine.winners(self.state)}

    def text(self) -> str:
        """A short text picture of the state (``render_mode="ansi"``)."""
        shown = summary(self.state)
        lines = [f"{shown['variant']}  turn {self.turn}" + ("  (over)" if self.finished else "")]
        for seat, score in enumerate(self.scores()):
            marker = "→" if seat == self.seat_to_act() else " "
            lines.append(f"{marker} player_{seat}: {score}")
        dice = shown.get("dice")
        if dice:
            lines.append(f"dice: {' '.join(map(str, dice))}")
        return "\n".join(lines) + "\n"


def make_bots(names: Sequence[str | Bot], game: Variant | str, rng: np.random.Generator) -> list[Bot]:
    """Bots from names (``random``, ``heuristic``, …) or ready instances, seeded from ``rng``."""
    bots: list[Bot] = []
    for item in names:
        if isinstance(item, str):
            bots.append(make_bot(item, game, int(rng.integers(0, 2**63 - 1))))
        else:
            bots.append(item)
    return bots
