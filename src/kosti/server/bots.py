"""The bots of a table: which levels may take a seat, the bot that plays each seat, and how bots are named.

A bot of a seated level plays its seat; a *stand-in* bot plays the seat of a player who is
away or has left. Each seat's bot is made once, seeded by the table and the seat, so that
its choices are the same in every process that plays the table.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Sequence

from kosti.bots.base import Bot
from kosti.errors import KostiError
from kosti.i18n import LANGUAGES, catalog
from kosti.levels import make_bot
from kosti.rules.presets import Variant
from kosti.server.limits import skeleton

BotFactory = Callable[[str, Variant, int], Bot]
"""Makes a bot from (level, variant, seed), like ``kosti.levels.make_bot``: :class:`KostiError`
where no bot of that level plays the variant now."""

MAX_SEATS = 8
"""The rules allow any number of players; a page cannot show more than this."""

LEVELS = ("random", "heuristic", "optimal")
"""The bot levels a server offers unless told otherwise."""


def installed_bots(level: str, rules: Variant, seed: int) -> Bot:
    """A bot from :func:`kosti.levels.make_bot`; :class:`KostiError` when none of that level plays
    ``rules`` now (an unsolved full-size «Тысяча» has no optimal bot: its solve takes hours)."""
    try:
        return make_bot(level, rules, seed)
    except (KostiError, LookupError) as error:
        raise KostiError(f"no {level} bot for {rules.spec}: {error}") from None


class TableBots:
    """The bots of one table: what its seats may take, and the bot of each seat once made."""

    def __init__(
        self,
        table_id: str,
        rules: Variant,
        factory: BotFactory,
        stand_in: str = "heuristic",
        levels: Sequence[str] = LEVELS,
    ) -> None:
        self.table_id = table_id
        self.rules = rules
        self.factory = factory
        self.stand_in = stand_in
        """The level of the bot that plays a seat whose player is away or has left."""
        self.levels = tuple(levels)
        """The levels this server offers; :meth:`offered` keeps those that play this table."""
        self._seats: dict[int, Bot] = {}
        self._offered: list[str] | None = None

    def offered(self) -> list[str]:
        """The bot levels a seat here can take: those of :attr:`levels` whose bot plays this very
        variant now (asked of the factory once; an unsolved full-size «Тысяча» has no optimal bot)."""
        if self._offered is None:
            self._offered = [level for level in self.levels if self.plays(level)]
        return self._offered

    def plays(self, level: str) -> bool:
        """Whether a bot of ``level`` plays this table's variant now."""
        try:
            self.check(level)
        except KostiError:
            return False
        return True

    def check(self, level: str) -> None:
        """:class:`KostiError` saying why no bot of ``level`` plays this table's variant now."""
        self.factory(level, self.rules, 0)

    def of_seat(self, seat: int, level: str | None) -> Bot:
        """The bot that plays ``seat``: of ``level``, or the stand-in for a player's seat (``None``)."""
        bot = self._seats.get(seat)
        if bot is None:
            seed = int.from_bytes(hashlib.sha256(f"{self.table_id}:{seat}".encode()).digest()[:8], "big")
            bot = self._seats[seat] = self.factory(level or self.stand_in, self.rules, seed)
        return bot

    def reserved_names(self) -> frozenset[str]:
        """The skeletons of every name a bot of this server may be shown under: no player may
        sit down under one of them («Умник 2» beside the bot «Умник 2»)."""
        return bot_skeletons((*self.levels, self.stand_in))


@functools.cache
def bot_skeletons(levels: tuple[str, ...]) -> frozenset[str]:
    """The skeletons of every name a bot of ``levels`` may be shown under, in every language
    and seat (:func:`~kosti.server.limits.skeleton`)."""
    return frozenset(
        skeleton(bot_name(level, seat, lang, alone))
        for level in levels
        for seat in range(MAX_SEATS)
        for lang in LANGUAGES
        for alone in (False, True)
    )


def bot_name(level: str, seat: int, lang: str, alone: bool = False) -> str:
    """A bot's name in ``lang``: its level's name in the catalog and its seat («Умник 2», "Smart 2");
    the level's name alone («Умник») for the only bot of its level at a table (``alone``)."""
    t = catalog("ru" if lang == "ru" else "en")
    key = f"bot.{level}"
    name = t(key) if t.has(key) else level
    return name if alone else f"{name} {seat + 1}"
