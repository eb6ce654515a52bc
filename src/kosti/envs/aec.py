"""A PettingZoo AEC environment: every seat of any preset is an agent.

Agents are ``player_0`` … ``player_{n−1}`` in seat order; the engine's turn order
follows the roll-off (option ``first_player``), resolved at ``reset`` from the
environment's generator, like every throw. Only the agent to act is selected.

Observation (per agent): a dict with ``"observation"``, the family's flat
``float32`` vector seen from that agent's seat (layouts in
:mod:`kosti.envs.codec`), and ``"action_mask"``, ``int8``, 1 for each legal
action — all 0 for an agent that is not to act. Actions: ``Discrete(n)``, the
family's numbering (sheet 89, thousand 33, showdown 33).

Rewards: ``"score"`` pays every agent the change of its own score after each step
(overtaking penalties in «Тысяча» reach the player overtaken at once);
``"win"`` pays +1 to the winners and −1 to the others when the game ends. The game
is truncated after ``max_turns`` turns. An illegal action changes nothing and
costs the actor ``illegal_reward``.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from kosti.envs.codec import OBSERVATION_BOUND
from kosti.envs.core import Table
from kosti.errors import OptionError
from kosti.rules.presets import variant

Observation = dict[str, Any]


class DiceAECEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """Any preset, any number of players (``players`` ≥ 1), each seat an agent."""

    metadata = {"name": "kosti_v0", "render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        preset: str = "poker-classic",
        options: dict[str, Any] | None = None,
        players: int = 2,
        reward: Literal["score", "win"] = "score",
        illegal_reward: float = -1.0,
        max_turns: int = 10_000,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if players < 1:
            raise OptionError("a game needs at least one player")
        if reward not in ("score", "win"):
            raise OptionError(f"reward is score or win, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise OptionError(f"render_mode is ansi or None, not {render_mode!r}")
        self.rules = variant(preset, options)
        self.reward_mode = reward
        self.illegal_reward = float(illegal_reward)
        self.max_turns = max_turns
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        probe = Table(self.rules, players, np.random.default_rng(0))
        n_actions = probe.codec.n_actions
        observation = spaces.Dict(
            {
                "observation": spaces.Box(
                    -OBSERVATION_BOUND, OBSERVATION_BOUND, (probe.codec.size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, (n_actions,), dtype=np.int8),
            }
        )
        # one space object per agent, kept: PettingZoo seeds spaces through these very objects
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._np_random, _ = seeding.np_random(None)
        self._table: Table | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def table(self) -> Table:
        if self._table is None:
            raise RuntimeError("call reset() first")
        return self._table

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._table is None:
            self._np_random, _ = seeding.np_random(seed)
        self._table = Table(self.rules, len(self.possible_agents), self._np_random)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> Observation:
        seat = self._seat[agent]
        return {"observation": self.table.observe(seat), "action_mask": self.table.mask(seat)}

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        seat = self._seat[agent]
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        chosen = None if action is None else table.action(seat, int(action))
        if chosen is None:
            self.rewards[agent] = self.illegal_reward
            self.infos[agent] = {"illegal_action": True}
            self._accumulate_rewards()
            return
        self.infos[agent] = {}
        before = table.scores()
        table.play(chosen)
        after = table.scores()
        finished = table.finished
        if self.reward_mode == "score":
            for a in self.agents:
                self.rewards[a] = float(after[self._seat[a]] - before[self._seat[a]])
        elif finished:
            winners = table.winners()
            for a in self.agents:
                self.rewards[a] = 1.0 if self._seat[a] in winners else -1.0
        if finished:
            self.terminations = {a: True for a in self.agents}
        elif table.turn >= self.max_turns:
            self.truncations = {a: True for a in self.agents}
        self._accumulate_rewards()
        self._select()

    def render(self) -> str | None:
        return self.table.text() if self.render_mode == "ansi" else None

    def close(self) -> None:
        self._table = None

    def _select(self) -> None:
        """Select the agent to act (after the game, the agents are stepped out in seat order)."""
        seat = self.table.seat_to_act()
        if seat is None or self.table.finished:
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[seat]


def env(**kwargs: Any) -> DiceAECEnv:
    """A :class:`DiceAECEnv` (the PettingZoo ``env()`` convention)."""
    return DiceAECEnv(**kwargs)
