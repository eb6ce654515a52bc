"""Bots by level and family: the one place that knows which class plays what."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Literal

from kosti.bots.base import Bot
from kosti.bots.random_bot import RandomBot
from kosti.errors import OptionError

Level = Literal["random", "heuristic", "optimal"]
LEVELS: tuple[Level, ...] = ("random", "heuristic", "optimal")
"""The levels a player picks an opponent by."""

BOT_NAMES: tuple[str, ...] = (*LEVELS, "table")
"""Every bot :func:`make_bot` makes: the levels, and ``table``, the simulator's table-driven
policy for single-column score sheets (:class:`kosti.sim.table.TableBot`)."""


def optimal_available(family: str) -> bool:
    """True when :mod:`kosti.solver` offers an optimal bot: score sheets, and «Тысяча» (exact for
    two players, derived from the two-player values for more)."""
    if family == "thousand":
        return importlib.util.find_spec("kosti.solver.thousand") is not None
    if family != "sheet":
        return False
    try:
        solver = importlib.import_module("kosti.solver")
    except ImportError:
        return False
    return hasattr(solver, "OptimalBot")


def levels_for(family: str) -> list[Level]:
    """The levels offered for a family: random and heuristic always, optimal when the solver has it."""
    return [level for level in LEVELS if level != "optimal" or optimal_available(family)]


def make_bot(level: str, family: str, seed: int | str | None = None) -> Bot:
    """A bot of ``level`` (one of :data:`BOT_NAMES`) for ``family`` ("sheet", "thousand",
    "showdown"): the one place every interface gets its bots from.

    ``seed`` feeds the random bot; the others are deterministic. Raises :class:`OptionError`
    for an unknown level or family, for ``optimal`` where the solver does not offer it, and
    for ``table`` outside score sheets.
    """
    if family not in ("sheet", "thousand", "showdown"):
        raise OptionError(f"unknown family of games {family!r}")
    if level == "random":
        return RandomBot(seed)
    if level == "heuristic":
        if family == "sheet":
            from kosti.bots.sheet import SheetBot

            return SheetBot()
        if family == "thousand":
            from kosti.bots.thousand import ThousandBot

            return ThousandBot()
        from kosti.bots.showdown import ShowdownBot

        return ShowdownBot()
    if level == "optimal":
        if not optimal_available(family):
            raise OptionError(f"no optimal bot plays {family} games")
        if family == "thousand":
            from kosti.solver.thousand.advisor import OptimalThousandBot

            return OptimalThousandBot()
        solver = importlib.import_module("kosti.solver")
        bot: Bot = solver.OptimalBot()
        return bot
    if level == "table":
        if family != "sheet":
            raise OptionError("the table bot plays score-sheet presets only")
        # found by name, as the solver is: the simulator builds on the bots, not they on it
        table: Bot = importlib.import_module("kosti.sim.table").TableBot(seed)
        return table
    raise OptionError(f"a bot is {' | '.join(BOT_NAMES)}, not {level!r}")
