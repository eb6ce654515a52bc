"""Hints: a bot's advice at a player's decision, at tables that offer hints.

The advice is the terminal game's hint line in the reader's language
(:func:`kosti.phrases.hint_text`), with the advisor's rough numbers worded plainly for the
page (:class:`PageWords`), a note that says what the number is and whether it is exact, and
the best decisions with their values (:class:`~kosti.bots.base.Advice`).

A hint can take a while (an exact solver's first look at a variant): it is worked out apart
from the socket that asked, and its answer goes to every socket of the seat at the table when
it is ready, so that it reaches the page that asked even after that page reconnected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kosti.actions import action_json
from kosti.bots.base import Advice, Advisor
from kosti.errors import KostiError
from kosti.games.base import GameState
from kosti.i18n import Catalog
from kosti.phrases import hint_text
from kosti.rules.presets import Variant
from kosti.server.bots import BotFactory
from kosti.server.planning import check_hint
from kosti.server.refusal import Refusal

if TYPE_CHECKING:  # a hint is worded in the browser too (kosti.web), with no pydantic, anyio or FastAPI
    from kosti.server.messages import HintMessage
    from kosti.server.rooms import Room

EXACT_LEVELS = frozenset({"optimal"})
"""Advisor levels whose values are exact (the solver's); the others' are rough estimates."""


@dataclass(frozen=True)
class PageWords(Catalog):
    """The catalog as the page words a hint: the advisor's estimate as the page puts it
    (``hint.page.estimate``: «прикидка бота: ≈ 22 за этот ход») instead of the terminal's
    «≈ 22 очка за ход», and a number that is not exact as the number alone (``hint.rough``):
    the page says whether it is exact in the note under the hint (:func:`hint_note`), where the
    terminal, which has no note, says it in the line. Every other message as the catalog has it."""

    def __call__(self, key: str, /, **params: Any) -> str:
        if key == "hint.estimate":
            return super().__call__("hint.page.estimate", **params)
        if key == "hint.rough":
            return str(params["number"])
        return super().__call__(key, **params)


@dataclass(frozen=True)
class Advised:
    """The advice for one decision, before it is worded for its readers."""

    version: int
    seat: int
    state: GameState
    advice: list[Advice]
    exact: bool
    """Whether the values are exact (the solver's), not a bot's estimate."""


class Hints:
    """The advisors of this process, one a variant, made when first asked for."""

    def __init__(self, bots: BotFactory, levels: tuple[str, ...]) -> None:
        self.bots = bots
        self.levels = levels
        """The bot levels that give hints, the first that plays a variant first."""
        self._advisors: dict[str, tuple[Advisor, str] | None] = {}

    def advisor(self, rules: Variant) -> Advisor | None:
        """The bot that gives hints for ``rules``, if one can: the first of the hint levels whose
        bot plays this variant now (the bot factory refuses an optimal «Тысяча» bot until the
        variant's exact values are at hand, so a hint never starts an hours-long solve)."""
        found = self._advisor(rules)
        return None if found is None else found[0]

    def _advisor(self, rules: Variant) -> tuple[Advisor, str] | None:
        if rules.spec not in self._advisors:
            found: tuple[Advisor, str] | None = None
            for level in self.levels:
                try:
                    bot = self.bots(level, rules, 0)
                except KostiError:
                    continue
                if isinstance(bot, Advisor):
                    found = (bot, level)
                    break
            self._advisors[rules.spec] = found
        return self._advisors[rules.spec]

    async def advise(self, room: Room, message: HintMessage) -> Advised:
        """The advice for the seat of ``message``'s token, at its turn's decision; :class:`Refusal`
        when the table offers none or it is not that seat's decision."""
        async with room.lock:
            state = check_hint(room.table, message.token, message.version)
            seat = room.table.seat_of(message.token)
        found = self._advisor(room.table.rules)
        if found is None:
            raise Refusal("no_hints", why="bots")
        advisor, level = found
        import anyio

        advice = await anyio.to_thread.run_sync(advisor.advise, state)
        exact = level in EXACT_LEVELS or bool(advice and advice[0].chance)
        return Advised(message.version, seat, state, advice, exact)


def hint_message(rules: Variant, advised: Advised, lang: str) -> dict[str, Any]:
    """The ``hint`` message of ``advised`` in ``lang``: the hint line, a note saying what its
    number is (and whether it is exact), and the best decisions with their values."""
    t = PageWords("ru" if lang == "ru" else "en")
    style = "cards" if getattr(rules.options, "faces", "pips") == "cards" else "pips"
    advice = advised.advice
    return {
        "type": "hint",
        "version": advised.version,
        "seat": advised.seat,
        "text": hint_text(rules.family, advice, t, style, advised.state),
        "note": hint_note(rules.family, advice, advised.exact, len(advised.state.players), t),
        "advice": [
            {"action": action_json(a.action), "value": a.value, "loss": a.loss, "chance": a.chance}
            for a in advice[:5]
        ],
    }


def hint_note(family: str, advice: Sequence[Advice], exact: bool, players: int, t: Catalog) -> str:
    """What the hint's number means, in plain words, and whether it is exact (``""``: no number)."""
    if not advice or advice[0].value is None:
        return ""
    if advice[0].chance:
        note = t("hint.page.note_chances")
        return f"{note} {t('hint.thousand_inexact')}" if players > 2 else note
    kind = {"sheet": "sheet", "thousand": "thousand", "showdown": "showdown"}.get(family, "sheet")
    note = t(f"hint.page.note_{kind}")
    return f"{note} {t('hint.page.exact' if exact else 'hint.page.not_exact')}"
