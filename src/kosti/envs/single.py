"""Gymnasium environments: one agent against the dice (and fixed bots).

:class:`DiceEnv` seats the agent at one seat of any preset and lets bots play the
others; :class:`SheetEnv` (``kosti/Sheet-v0``, solitaire score sheet) and
:class:`ThousandEnv` (``kosti/Thousand-v0``, «Тысяча» against bots) are its two
registered forms.

Observation: a dict with ``"observation"``, the family's flat ``float32`` vector
(its layout is in the codec's docstring: :class:`~kosti.envs.codec.SheetCodec`,
:class:`~kosti.envs.codec.ThousandCodec`, :class:`~kosti.envs.codec.ShowdownCodec`),
and ``"action_mask"``, an ``int8`` vector with 1 for each legal action; the mask is
also in ``info["action_mask"]``. Actions: ``Discrete(n)``, numbered per family
(:mod:`kosti.envs.codec`).

Throws are chance steps resolved inside ``step`` from the environment's generator,
so ``reset(seed=s)`` and the same actions replay the same game. An illegal action
changes nothing and earns ``illegal_reward`` (``info["illegal_action"]`` is set).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces

from kosti.bots.base import Bot
from kosti.envs.codec import OBSERVATION_BOUND, Mask, Vector
from kosti.envs.core import Table, make_bots
from kosti.errors import OptionError
from kosti.rules.presets import variant

Observation = dict[str, Any]
Reward = Literal["score", "win"]


class DiceEnv(gymnasium.Env[Observation, np.int64]):
    """One agent at seat ``seat`` of a game of ``preset``; ``opponents`` (bot names or bots) fill the others.

    ``reward``: ``"score"`` pays the change of the agent's score after each step (the
    episode's return is its final score); ``"win"`` pays +1 at the end to a winner
    (a shared first place included) and −1 to everyone else. An episode ends when the
    game does, or is truncated after ``max_turns`` turns (all players together).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - the Gymnasium convention

    def __init__(
        self,
        preset: str = "poker-classic",
        options: dict[str, Any] | None = None,
        opponents: Sequence[str | Bot] = (),
        seat: int = 0,
        reward: Reward = "score",
        illegal_reward: float = -1.0,
        max_turns: int = 10_000,
        render_mode: str | None = None,
    ) -> None:
        self.rules = variant(preset, options)
        self.opponent_names = list(opponents)
        self.seats = 1 + len(self.opponent_names)
        if not 0 <= seat < self.seats:
            raise OptionError(f"seat is 0 to {self.seats - 1} with {len(self.opponent_names)} opponents")
        if reward not in ("score", "win"):
            raise OptionError(f"reward is score or win, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise OptionError(f"render_mode is ansi or None, not {render_mode!r}")
        self.seat = seat
        self.reward_mode = reward
        self.illegal_reward = float(illegal_reward)
        self.max_turns = max_turns
        self.render_mode = render_mode
        # a throwaway table gives the sizes of the codec
        probe = Table(self.rules, self.seats, np.random.default_rng(0))
        self.n_actions = probe.codec.n_actions
        self.action_space = spaces.Discrete(self.n_actions)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    -OBSERVATION_BOUND, OBSERVATION_BOUND, (probe.codec.size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, (self.n_actions,), dtype=np.int8),
            }
        )
        self._table: Table | None = None
        self._bots: list[Bot] = []

    @property
    def table(self) -> Table:
        if self._table is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        return self._table

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self._table = Table(self.rules, self.seats, self.np_random)
        self._bots = make_bots(self.opponent_names, self.rules, self.np_random)
        self._let_bots_play()
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        table = self.table
        if table.finished or self._truncated():
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        chosen = table.action(self.seat, int(action))
        if chosen is None:
            return self._observation(), self.illegal_reward, False, False, self._info(illegal=True)
        before = table.scores()[self.seat]
        table.play(chosen)
        self._let_bots_play()
        terminated = table.finished
        if self.reward_mode == "score":
            reward = float(table.scores()[self.seat] - before)
        else:
            reward = (1.0 if self.seat in table.winners() else -1.0) if terminated else 0.0
        return self._observation(), reward, terminated, self._truncated() and not terminated, self._info()

    def render(self) -> str | None:
        return self.table.text() if self.render_mode == "ansi" else None

    def action_masks(self) -> Mask:
        """The legal actions now (the method name ``sb3-contrib``'s MaskablePPO looks for)."""
        return self.table.mask(self.seat)

    # -- helpers ---------------------------------------------------------------

    def _let_bots_play(self) -> None:
        table = self.table
        while not table.finished and not self._truncated():
            seat = table.seat_to_act()
            if seat is None or seat == self.seat:
                return
            others = [s for s in range(self.seats) if s != self.seat]
            table.play(self._bots[others.index(seat)].choose(table.state))

    def _truncated(self) -> bool:
        return self.table.turn >= self.max_turns

    def _observation(self) -> Observation:
        vector: Vector = self.table.observe(self.seat)
        return {"observation": vector, "action_mask": self.table.mask(self.seat)}

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": self.table.mask(self.seat),
            "scores": self.table.scores(),
            "turn": self.table.turn,
        }
        if illegal:
            info["illegal_action"] = True
        return info


class SheetEnv(DiceEnv):
    """``kosti/Sheet-v0``: a solitaire score sheet (any sheet preset), reward = points scored.

    Actions (89): hold masks 0..31, score / scratch / announce a cell (see
    :class:`~kosti.envs.codec.SheetCodec`); the observation layout is there too.
    """

    def __init__(
        self,
        preset: str = "poker-classic",
        options: dict[str, Any] | None = None,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if variant(preset, options).family != "sheet":
            raise OptionError(f"{preset} is not a score-sheet preset")
        super().__init__(preset, options, (), 0, "score", illegal_reward, render_mode=render_mode)


class ThousandEnv(DiceEnv):
    """``kosti/Thousand-v0``: «Тысяча» against fixed bots (default one heuristic bot), reward ±1 at the end.

    Actions (33): throw on, stop, set aside a mask of the sorted throw (see
    :class:`~kosti.envs.codec.ThousandCodec`); the observation layout is there too.
    """

    def __init__(
        self,
        preset: str = "thousand-classic",
        options: dict[str, Any] | None = None,
        opponents: Sequence[str | Bot] = ("heuristic",),
        seat: int = 0,
        reward: Reward = "win",
        illegal_reward: float = -1.0,
        max_turns: int = 2_000,
        render_mode: str | None = None,
    ) -> None:
        if variant(preset, options).family != "thousand":
            raise OptionError(f"{preset} is not a «Тысяча» preset")
        super().__init__(preset, options, opponents, seat, reward, illegal_reward, max_turns, render_mode)
