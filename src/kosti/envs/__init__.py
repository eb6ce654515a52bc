"""Reinforcement-learning environments (needs the ``rl`` extra: ``pip install 'kosti[rl]'``).

* Gymnasium, one agent: ``gymnasium.make("kosti/Sheet-v0", preset="yahtzee")`` — a
  solitaire score sheet (:class:`SheetEnv`); ``gymnasium.make("kosti/Thousand-v0")``
  — «Тысяча» against fixed bots (:class:`ThousandEnv`); :class:`DiceEnv` for any
  preset with any bots. The ids are registered when this package is imported
  (``gymnasium.make("kosti.envs:kosti/Sheet-v0")`` imports it on the way).
* PettingZoo AEC, every seat an agent: :class:`DiceAECEnv` / :func:`aec_env`.

Observations are a dict ``{"observation": float32 vector, "action_mask": int8 vector}``
(the mask is also in ``info["action_mask"]``); actions are a fixed ``Discrete`` space per
family. Layouts and numbering: :mod:`kosti.envs.codec`.
"""

from __future__ import annotations

try:
    import gymnasium
    import pettingzoo  # type: ignore[import-untyped]  # noqa: F401 - checked here, used in .aec
except ImportError as error:  # pragma: no cover - the tests run with the extra installed
    raise ImportError(
        "kosti.envs needs Gymnasium and PettingZoo: install the rl extra, "
        "e.g. pip install 'kosti[rl]' or uv sync --extra rl"
    ) from error

from kosti.envs.aec import DiceAECEnv
from kosti.envs.aec import env as aec_env
from kosti.envs.single import DiceEnv, SheetEnv, ThousandEnv

ENV_IDS: dict[str, str] = {
    "kosti/Sheet-v0": "kosti.envs.single:SheetEnv",
    "kosti/Thousand-v0": "kosti.envs.single:ThousandEnv",
}

for _id, _entry in ENV_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point=_entry)

__all__ = ["ENV_IDS", "DiceAECEnv", "DiceEnv", "SheetEnv", "ThousandEnv", "aec_env"]
