"""Bots by level and family: the one place that knows which class plays what."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Literal

from kosti.bots.base import Bot
from kosti.bots.random_bot import RandomBot
from kosti.errors import OptionError
from kosti.rules.presets import Variant

Level = Literal["random", "heuristic", "optimal"]
LEVELS: tuple[Level, ...] = ("random", "heuristic", "optimal")
"""The levels a player picks an opponent by."""

BOT_NAMES: tuple[str, ...] = (*LEVELS, "table")
"""Every bot :func:`make_bot` makes: the levels, and ``table``, the simulator's table-driven
policy for single-column score sheets (:class:`kosti.sim.table.TableBot`)."""


Game = Variant | str
"""What a bot is asked for: a variant (every check made), or only its family (``sheet``,
``thousand``, ``showdown``) where the variant is not known yet, as in a list of families."""


def unavailable(level: str, game: Game) -> str | None:
    """Why no ``level`` bot plays ``game`` now (one line), or ``None`` when one does.

    The one check every interface offers its bots by. ``optimal`` needs the solver; for
    «Тысяча» it also needs the exact values of this very variant at hand
    (:func:`kosti.solver.thousand.ready.ready`: solved before, or small enough to solve in
    seconds), so that choosing it never starts a solve of hours. Given only the family, the
    answer is whether some variant of it can have the level.
    """
    family = game if isinstance(game, str) else game.family
    if family not in ("sheet", "thousand", "showdown"):
        return f"unknown family of games {family!r}"
    if level in ("random", "heuristic"):
        return None
    if level == "table":
        return None if family == "sheet" else "the table bot plays score-sheet presets only"
    if level != "optimal":
        return f"a bot is {' | '.join(BOT_NAMES)}, not {level!r}"
    if family == "thousand":
        if importlib.util.find_spec("kosti.solver.thousand") is None:
            return "the «Тысяча» solver is not installed"
        if isinstance(game, str):
            return None
        ready = importlib.import_module("kosti.solver.thousand.ready")
        return None if ready.ready(game) else str(ready.not_ready(game))
    if family == "sheet":
        try:
            solver = importlib.import_module("kosti.solver")
        except ImportError:
            return "the score-sheet solver is not installed"
        if hasattr(solver, "OptimalBot"):
            return None
    return f"no optimal bot plays {family} games"


def optimal_available(game: Game) -> bool:
    """True when an optimal bot plays ``game`` now (see :func:`unavailable`): score sheets, and
    «Тысяча» whose exact values are at hand (exact for two players, derived for more)."""
    return unavailable("optimal", game) is None


def levels_for(game: Game) -> list[Level]:
    """The levels offered for ``game``: random and heuristic always, optimal where
    :func:`unavailable` allows it."""
    return [level for level in LEVELS if unavailable(level, game) is None]


def make_bot(level: str, game: Game, seed: int | str | None = None) -> Bot:
    """A bot of ``level`` (one of :data:`BOT_NAMES`) for ``game``, a variant or a family: the
    one place every interface gets its bots from.

    ``seed`` feeds the random bot; the others are deterministic. Raises :class:`OptionError`
    with the reason of :func:`unavailable` where no such bot plays ``game`` now.
    """
    reason = unavailable(level, game)
    if reason is not None:
        raise OptionError(reason)
    family = game if isinstance(game, str) else game.family
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
        if family == "thousand":
            advisor = importlib.import_module("kosti.solver.thousand.advisor")
            thousand: Bot = advisor.OptimalThousandBot()
            return thousand
        solver = importlib.import_module("kosti.solver")
        bot: Bot = solver.OptimalBot()
        return bot
    # found by name, as the solver is: the simulator builds on the bots, not they on it
    table: Bot = importlib.import_module("kosti.sim.table").TableBot(seed)
    return table
