"""Hints: a bot's advice at a player's decision, at tables that offer hints.

The advice is the terminal game's hint line in the reader's language
(:func:`kosti.phrases.hint_text`) and the best decisions with their values
(:class:`~kosti.bots.base.Advice`).
"""

from __future__ import annotations

from typing import Any

import anyio

from kosti.actions import action_json
from kosti.bots.base import Advisor
from kosti.errors import KostiError
from kosti.i18n import catalog
from kosti.phrases import hint_text
from kosti.rules.presets import Variant
from kosti.server.bots import BotFactory
from kosti.server.messages import HintMessage
from kosti.server.planning import check_hint
from kosti.server.refusal import Refusal
from kosti.server.rooms import Room


class Hints:
    """The advisors of this process, one a variant, made when first asked for."""

    def __init__(self, bots: BotFactory, levels: tuple[str, ...]) -> None:
        self.bots = bots
        self.levels = levels
        """The bot levels that give hints, the first that plays a variant first."""
        self._advisors: dict[str, Advisor | None] = {}

    def advisor(self, rules: Variant) -> Advisor | None:
        """The bot that gives hints for ``rules``, if one can: the first of the hint levels whose
        bot plays this variant now (the bot factory refuses an optimal «Тысяча» bot until the
        variant's exact values are at hand, so a hint never starts an hours-long solve)."""
        if rules.spec not in self._advisors:
            found: Advisor | None = None
            for level in self.levels:
                try:
                    bot = self.bots(level, rules, 0)
                except KostiError:
                    continue
                if isinstance(bot, Advisor):
                    found = bot
                    break
            self._advisors[rules.spec] = found
        return self._advisors[rules.spec]

    async def hint(self, room: Room, message: HintMessage, lang: str = "en") -> dict[str, Any]:
        """The ``hint`` message for the seat of ``message``'s token, at its turn's decision."""
        async with room.lock:
            state = check_hint(room.table, message.token, message.version)
        rules = room.table.rules
        advisor = self.advisor(rules)
        if advisor is None:
            raise Refusal("no_hints", why="bots")
        advice = await anyio.to_thread.run_sync(advisor.advise, state)
        style = "cards" if getattr(rules.options, "faces", "pips") == "cards" else "pips"
        return {
            "type": "hint",
            "version": message.version,
            "text": hint_text(rules.family, advice, catalog(lang), style, state),
            "advice": [
                {"action": action_json(a.action), "value": a.value, "loss": a.loss, "chance": a.chance}
                for a in advice[:5]
            ],
        }
