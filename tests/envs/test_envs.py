"""The Gymnasium and PettingZoo environments (:mod:`kosti.envs`)."""

from __future__ import annotations

import importlib
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from kosti.actions import CellAction
from kosti.envs import DiceAECEnv, DiceEnv, SheetEnv, ThousandEnv, aec_env
from kosti.envs.codec import SHEET_CELLS
from kosti.errors import OptionError


@pytest.fixture(autouse=True)
def quiet() -> None:
    # the checkers warn about our dict observations, which is the PettingZoo classic convention
    warnings.simplefilter("ignore", UserWarning)


@pytest.mark.parametrize("preset", ["poker-classic", "yahtzee", "poker-fences"])
def test_the_sheet_env_passes_the_gymnasium_checker(preset: str) -> None:
    check_env(gymnasium.make("kosti/Sheet-v0", preset=preset).unwrapped)


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"preset": "thousand-v2", "opponents": ("random", "random"), "seat": 1}],
)
def test_the_thousand_env_passes_the_gymnasium_checker(kwargs: dict[str, object]) -> None:
    check_env(gymnasium.make("kosti/Thousand-v0", **kwargs).unwrapped)


@pytest.mark.parametrize(
    ("preset", "players"),
    [
        ("poker-classic", 2),
        ("poker-fences", 1),
        ("thousand-classic", 3),
        ("thousand-v2", 2),
        ("poker-showdown", 2),
    ],
)
def test_the_aec_env_passes_the_pettingzoo_api_test(preset: str, players: int) -> None:
    api_test(aec_env(preset=preset, players=players), num_cycles=150)


def play(env: DiceEnv, seed: int, steps: int) -> list[tuple[bytes, float, bool]]:
    """A trace of a masked random policy drawn from its own seeded generator."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trace = []
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append((obs["observation"].tobytes(), reward, terminated))
        if terminated or truncated:
            break
    return trace


def test_a_seed_replays_the_same_episode() -> None:
    one = play(ThousandEnv(opponents=("random",)), 4, 60)
    assert one == play(ThousandEnv(opponents=("random",)), 4, 60)
    assert one != play(ThousandEnv(opponents=("random",)), 5, 60)


@pytest.mark.parametrize(
    ("preset", "players", "kinds"),
    [
        ("poker-fences", 1, {"hold", "scratch", "announce"}),
        ("thousand-v2", 2, {"setaside"}),
        ("poker-showdown", 3, {"hold"}),
    ],
)
def test_the_mask_names_exactly_the_engine_decisions(preset: str, players: int, kinds: set[str]) -> None:
    env = DiceAECEnv(preset=preset, players=players)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    seen: set[str] = set()
    for _ in range(400):
        if not env.agents:
            break
        agent = env.agent_selection
        obs, *_ = env.last()
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        table = env.table
        legal = set(table.engine.decisions(table.state))
        mask = obs["action_mask"]
        named = {table.codec.decode(table.state, i) for i in np.flatnonzero(mask)}
        assert named == legal
        seen |= {a.kind if isinstance(a, CellAction) else type(a).__name__.lower() for a in legal}
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert kinds <= seen


def test_an_illegal_action_changes_nothing_and_costs() -> None:
    env = SheetEnv("poker-classic")
    obs, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[-1])
    after, reward, terminated, truncated, info = env.step(illegal)
    assert reward == -1.0 and info["illegal_action"]
    assert not terminated and not truncated
    assert np.array_equal(after["observation"], obs["observation"])


def test_a_sheet_episode_returns_its_final_score() -> None:
    env = SheetEnv("poker-free")
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    total, terminated = 0.0, False
    while not terminated:
        obs, reward, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += reward
    assert total == info["scores"][0]
    assert not obs["action_mask"].any()


def test_the_sheet_observation_shows_dice_and_cells() -> None:
    env = SheetEnv("yahtzee")
    obs, _ = env.reset(seed=2)
    vector = obs["observation"]
    state = env.table.state
    assert tuple(vector[0:5]) == state.dice
    assert vector[5:11].sum() == 5
    assert vector[11] == 1  # one throw made
    n = len(SHEET_CELLS)
    present = vector[17 + n : 17 + 2 * n]
    assert present.sum() == 13
    assert present[SHEET_CELLS.index("yahtzee")] == 1 and present[SHEET_CELLS.index("pair")] == 0
    assert present[SHEET_CELLS.index("yatzy")] == 0
    assert vector[17 + 2 * n : 17 + 3 * n].sum() == 13  # column I: every cell open


def test_the_thousand_env_pays_one_at_the_end() -> None:
    env = ThousandEnv(opponents=("random",), max_turns=400)
    rng = np.random.default_rng(2)
    _, info = env.reset(seed=2)
    rewards = []
    terminated = truncated = False
    while not (terminated or truncated):
        _, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        rewards.append(reward)
    assert all(r == 0 for r in rewards[:-1])
    if terminated:
        assert rewards[-1] in (1.0, -1.0)


def test_wrong_family_or_seat_is_refused() -> None:
    with pytest.raises(OptionError):
        SheetEnv("thousand-classic")
    with pytest.raises(OptionError):
        ThousandEnv("poker-classic")
    with pytest.raises(OptionError):
        ThousandEnv(seat=2)


def test_without_the_rl_extra_the_import_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gymnasium", None)
    monkeypatch.delitem(sys.modules, "kosti.envs")
    with pytest.raises(ImportError, match="rl extra"):
        importlib.import_module("kosti.envs")
