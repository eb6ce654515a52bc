"""Bots by level: which bot plays a game at each level a player picks, and the one place they
are made.

A composition layer: it sits above :mod:`kosti.bots` (the heuristic and random policies),
:mod:`kosti.solver` (the optimal ones) and :mod:`kosti.sim.table` (the table-driven policy), and
it is the only module that joins them, so that none of them has to know the others. It is
named for what it answers: a level (``random``, ``heuristic``, ``optimal``) is what the
terminal, the server and the simulator ask for, and the classes behind it are its business.
Every interface (:mod:`kosti.tui`, :mod:`kosti.commands`, :mod:`kosti.server`,
:mod:`kosti.sim.runner`, :mod:`kosti.envs`) takes its bots from here.

>>> levels_for("showdown")
['random', 'heuristic']
>>> make_bot("heuristic", "sheet").name
'heuristic'
"""

from __future__ import annotations

from typing import Literal

from kosti.bots.base import Bot
from kosti.bots.random_bot import RandomBot
from kosti.bots.sheet import SheetBot
from kosti.bots.showdown import ShowdownBot
from kosti.bots.thousand import ThousandBot
from kosti.errors import OptionRefusal
from kosti.games import ENGINES
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


def unavailable(level: str, game: Game) -> OptionRefusal | None:
    """Why no ``level`` bot plays ``game`` now (a refusal, worded in either language), or
    ``None`` when one does.

    The one check every interface offers its bots by. ``optimal`` plays every score sheet
    and, for «Тысяча», only where the exact values of this very variant are at hand
    (:func:`kosti.solver.thousand.ready.ready`: solved before, or small enough to solve in
    seconds), so that choosing it never starts a solve of hours. Given only the family, the
    answer is whether some variant of it can have the level.
    """
    family = game if isinstance(game, str) else game.family
    if family not in ENGINES:
        return OptionRefusal("unknown_family", family=family)
    if level in ("random", "heuristic"):
        return None
    if level == "table":
        return None if family == "sheet" else OptionRefusal("table_bot_sheets_only")
    if level != "optimal":
        return OptionRefusal("no_such_bot", level=level, allowed=list(BOT_NAMES))
    if family == "sheet":
        return None
    if family == "thousand":
        if isinstance(game, str):
            return None
        # imported here: the «Тысяча» solver loads numba, seconds a caller asking only for a
        # heuristic bot should not wait (tests/test_layers.py reads this import all the same)
        from kosti.solver.thousand.ready import ready, solve_command

        return (
            None if ready(game) else OptionRefusal("not_solved", spec=game.spec, command=solve_command(game))
        )
    return OptionRefusal("no_optimal", family=family)


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

    ``seed`` feeds the random and table bots; the others are deterministic. Raises
    :class:`OptionError` with the reason of :func:`unavailable` where no such bot plays
    ``game`` now.
    """
    refusal = unavailable(level, game)
    if refusal is not None:
        raise refusal
    family = game if isinstance(game, str) else game.family
    if level == "random":
        return RandomBot(seed)
    if level == "heuristic":
        if family == "sheet":
            return SheetBot()
        if family == "thousand":
            return ThousandBot()
        return ShowdownBot()
    # The policies above the bots are imported when asked for: the solvers load numba and the
    # simulator's tables NumPy, and kosti.sim's own runner imports this module (a cycle at
    # import time, none at call time).
    if level == "optimal":
        if family == "thousand":
            from kosti.solver.thousand.advisor import OptimalThousandBot

            return OptimalThousandBot()
        from kosti.solver import OptimalBot

        return OptimalBot()
    from kosti.sim.table import TableBot

    return TableBot(seed)
