"""Fixed-size numbers for states and actions: what the environments show an agent.

A :class:`Codec` belongs to a family of games and a number of players. It maps
a state to a flat ``float32`` observation for one seat, an action index to an
:class:`~kosti.actions.Action`, and lists which indices are legal (the action
mask). The action space is fixed per family, so that one agent can play every
preset of it:

* sheet (:class:`SheetCodec`, 89 actions): ``0..31`` hold mask over the sorted
  dice (bit ``i`` keeps the ``i``-th smallest die; before the first throw of a
  ``poker-fences`` turn, ``0`` is "throw"), ``32 + c`` score cell ``c``,
  ``51 + c`` scratch cell ``c``, ``70 + c`` announce cell ``c``, with ``c`` an index
  into :data:`SHEET_CELLS` (every cell any preset has);
* thousand (:class:`ThousandCodec`, 33 actions): ``0`` throw on, ``1`` stop,
  ``1 + m`` (``m`` = 1..31) set aside the dice of mask ``m`` over the sorted throw;
* showdown (:class:`ShowdownCodec`, 33 actions): ``0`` stand, ``1 + m`` (``m`` =
  0..31) hold mask ``m`` and throw the rest.

Several indices may name the same action (two masks keeping the same faces): all
of them are legal then.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np
import numpy.typing as npt

from kosti.actions import CELL_KINDS, Action, CellAction, Hold, SetAside, Stop, Throw
from kosti.dice import Faces, counts
from kosti.games.base import Engine, GameState
from kosti.rules.options import EXTENDED_LOWER, UPPER_CELLS
from kosti.rules.presets import Variant

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

OBSERVATION_BOUND = 1e6
"""Every observation value lies in ±this (scores of any preset stay far inside)."""

MASKS = 32
"""Positional masks over five sorted dice."""

SHEET_CELLS: tuple[str, ...] = UPPER_CELLS + EXTENDED_LOWER + ("yahtzee", "yatzy")
"""The cells of every sheet preset, in the order the sheet codec numbers them (19)."""


def masked(dice: Faces, mask: int) -> Faces:
    """The dice a positional mask selects from sorted ``dice``."""
    return tuple(f for i, f in enumerate(dice) if mask >> i & 1)


def padded(dice: Faces) -> list[float]:
    """Five faces, smallest first, 0 where there is no die."""
    return [float(f) for f in dice] + [0.0] * (5 - len(dice))


class Codec(ABC):
    """Observation and action numbering of one family of games for ``players`` players."""

    n_actions: int
    size: int
    """Length of the observation vector."""

    def __init__(self, rules: Variant, players: int) -> None:
        self.rules = rules
        self.players = players

    @abstractmethod
    def decode(self, state: GameState, index: int) -> Action | None:
        """The action an index stands for in ``state`` (``None`` when it stands for none)."""

    @abstractmethod
    def observe(self, engine: Engine[Any], state: GameState, seat: int) -> Vector:
        """The observation of the player at engine position ``seat``."""

    def mask(self, engine: Engine[Any], state: GameState) -> Mask:
        """1 for every index whose action is legal for the player to act now (all 0 at a throw or the end)."""
        legal = set(engine.decisions(state))
        result = np.zeros(self.n_actions, dtype=np.int8)
        if legal:
            for i in range(self.n_actions):
                if self.decode(state, i) in legal:
                    result[i] = 1
        return result

    def others(self, seat: int) -> list[int]:
        """The other positions, in turn order from ``seat``."""
        return [(seat + k) % self.players for k in range(1, self.players)]


class SheetCodec(Codec):
    """Score-sheet poker and Yahtzee. The observation, for the observing player:

    ========  ===========================================================
    0..4      the dice on the table, smallest first (0: none yet)
    5..10     how many dice show 1..6
    11        throws made this turn
    12        throws left this turn (banked ones included)
    13        1 when it is the observer's turn
    14..16    the column being filled: free, announced, in order (one-hot)
    17..35    the announced cell (one-hot over :data:`SHEET_CELLS`)
    36..54    1 where the preset has the cell
    55..111   per column I, II, III and cell: 1 when open
    112..168  per column and cell: the recorded score (0 when open)
    169       banked throws; 170 the observer's total
    171..     the other players' totals, in turn order after the observer
    ========  ===========================================================
    """

    n_actions = MASKS + len(CELL_KINDS) * len(SHEET_CELLS)

    def __init__(self, rules: Variant, players: int) -> None:
        super().__init__(rules, players)
        from kosti.games.base import options_as
        from kosti.games.sheet.game import cells_of
        from kosti.rules.options import SheetOptions

        options = options_as(rules, SheetOptions, "a score-sheet game")
        self.cells = cells_of(options)
        self.present = np.array([c in self.cells for c in SHEET_CELLS], dtype=np.float32)
        self.size = 17 + 8 * len(SHEET_CELLS) + 2 + players - 1

    def decode(self, state: GameState, index: int) -> Action | None:
        dice: Faces = getattr(state, "dice", ())
        if 0 <= index < MASKS:
            if not dice:
                return Hold(()) if index == 0 else None
            return Hold(masked(dice, index))
        kind, cell = divmod(index - MASKS, len(SHEET_CELLS))
        if not 0 <= kind < len(CELL_KINDS):
            return None
        return CellAction(CELL_KINDS[kind], SHEET_CELLS[cell])

    def observe(self, engine: Engine[Any], state: GameState, seat: int) -> Vector:
        from kosti.games.sheet.game import SheetEngine, SheetState, options_of, sheet_total

        if not isinstance(state, SheetState) or not isinstance(engine, SheetEngine):
            raise TypeError("not a score-sheet state")
        options = options_of(state)
        mover = state.current
        mine = seat == mover and not state.finished
        obs: list[float] = padded(state.dice)
        obs += [float(c) for c in counts(state.dice)]
        obs += [float(state.throws), float(engine.throws_left(state) if mine else 0), float(mine)]
        kind = engine.column_kind(state) if mine else "free"
        obs += [float(kind == k) for k in ("free", "announced", "ordered")]
        obs += [float(state.announced == c) for c in SHEET_CELLS]
        obs += self.present.tolist()
        sheet = state.sheets[seat]
        opens = np.zeros((3, len(SHEET_CELLS)), dtype=np.float32)
        values = np.zeros_like(opens)
        for col, column in enumerate(sheet.columns):
            for name, value in zip(self.cells, column, strict=True):
                c = SHEET_CELLS.index(name)
                if value is None:
                    opens[col, c] = 1.0
                else:
                    values[col, c] = value
        obs += opens.ravel().tolist() + values.ravel().tolist()
        totals = [sheet_total(options, s) for s in state.sheets]
        obs += [float(sheet.banked), float(totals[seat])]
        obs += [float(totals[p]) for p in self.others(seat)]
        return np.asarray(obs, dtype=np.float32)


class ThousandCodec(Codec):
    """«Тысяча». The observation, for the observing player:

    ========  ===========================================================
    0         1 when it is the observer's turn
    1..5      the last throw, smallest first (0: no die)
    6         the turn total so far; 7 dice left to throw
    8         1 while scoring dice must be set aside (``set_aside = choice``)
    9         1 when the next throw confirms the turn (``hot_dice = confirm``)
    10        the least turn total the mover may stop at
    11..18    the observer: score, opened, bolts, on the barrel, barrel attempts,
              falls, dots, opening failures
    19..      each other player in turn order: score, opened, bolts, on the barrel
    ========  ===========================================================
    """

    n_actions = 2 + MASKS - 1

    def __init__(self, rules: Variant, players: int) -> None:
        super().__init__(rules, players)
        self.size = 19 + 4 * (players - 1)

    def decode(self, state: GameState, index: int) -> Action | None:
        if index == 0:
            return Throw()
        if index == 1:
            return Stop()
        if 2 <= index < self.n_actions:
            group = masked(getattr(state, "dice", ()), index - 1)
            return SetAside(group) if group else None
        return None

    def observe(self, engine: Engine[Any], state: GameState, seat: int) -> Vector:
        from kosti.games.thousand.game import ThousandEngine, ThousandState

        if not isinstance(state, ThousandState) or not isinstance(engine, ThousandEngine):
            raise TypeError("not a «Тысяча» state")
        mine = seat == state.current and not state.finished
        obs = [float(mine), *padded(state.dice)]
        obs += [
            float(state.turn_total),
            float(state.dice_left),
            float(state.choosing),
            float(state.confirming),
        ]
        obs.append(float(engine.needed(state)) if not state.finished else 0.0)
        me = state.board[seat]
        obs += [
            float(me.score),
            float(me.opened),
            float(me.bolts),
            float(me.on_barrel),
            float(me.barrel_attempts),
            float(me.falls),
            float(me.dots),
            float(me.opening_failures),
        ]
        for p in self.others(seat):
            other = state.board[p]
            obs += [float(other.score), float(other.opened), float(other.bolts), float(other.on_barrel)]
        return np.asarray(obs, dtype=np.float32)


class ShowdownCodec(Codec):
    """Showdown poker dice. The observation, for the observing player:

    ========  ===========================================================
    0         1 when it is the observer's turn
    1..5      the dice on the table, smallest first (0: none)
    6..11     how many dice show 1..6; 12..17 how many of them are locked
    18        throws made this turn; 19 throws left
    20        the round; 21 rounds in the match; 22 the bank; 23 deciding rounds so far
    24        the observer's net winnings
    25..28    the observer's hand in this showdown once stood: rank (0..6, −1 none),
              hand sum, total, 1 when still to play
    29..      each other player in turn order: net winnings, then the same four
    ========  ===========================================================
    """

    n_actions = 1 + MASKS

    def __init__(self, rules: Variant, players: int) -> None:
        super().__init__(rules, players)
        self.size = 29 + 5 * (players - 1)

    def decode(self, state: GameState, index: int) -> Action | None:
        if index == 0:
            return Stop()
        if 1 <= index < self.n_actions:
            dice: Faces = getattr(state, "dice", ())
            return Hold(masked(dice, index - 1)) if dice else None
        return None

    def observe(self, engine: Engine[Any], state: GameState, seat: int) -> Vector:
        from kosti.games.showdown.game import ShowdownEngine, ShowdownState

        if not isinstance(state, ShowdownState) or not isinstance(engine, ShowdownEngine):
            raise TypeError("not a showdown state")
        mine = seat == state.current
        obs = [float(mine), *padded(state.dice)]
        obs += [float(c) for c in counts(state.dice)] + [float(c) for c in counts(state.locked)]
        obs += [float(state.throws), float(engine.throws_left(state)) if not state.finished else 0.0]
        obs += [float(state.round), float(self._rounds()), float(state.bank), float(state.deciding)]
        hands = engine.hands_of(state, range(len(state.players)))

        def hand(p: int) -> list[float]:
            made = hands[p]
            playing = p in state.playing and not state.finished
            return [
                -1.0 if made is None else float(made.rank),
                0.0 if made is None else float(made.hand_sum),
                0.0 if made is None else float(made.total),
                float(playing and made is None),
            ]

        obs += [float(state.net[seat]), *hand(seat)]
        for p in self.others(seat):
            obs += [float(state.net[p]), *hand(p)]
        return np.asarray(obs, dtype=np.float32)

    def _rounds(self) -> int:
        from kosti.rules.options import ShowdownOptions

        options = self.rules.options
        return options.rounds if isinstance(options, ShowdownOptions) else 0


def codec_for(rules: Variant, players: int) -> Codec:
    """The codec of the variant's family."""
    if rules.family == "sheet":
        return SheetCodec(rules, players)
    if rules.family == "thousand":
        return ThousandCodec(rules, players)
    return ShowdownCodec(rules, players)
