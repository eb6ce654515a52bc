"""Words for what happens at the table: dice, actions, log lines and hints, in the player's language.

Dice, decisions and hints are worded in :mod:`kosti.phrases`, which the page's server shares.
"""

from __future__ import annotations

from typing import Any

from kosti.events import Event
from kosti.games.showdown.game import Showdown
from kosti.i18n import Catalog
from kosti.narrate import Narrator
from kosti.phrases import action_text, card_name, dice_text, hint_text, number, signed
from kosti.tui.session import LogEntry

__all__ = ["action_text", "card_name", "dice_text", "hint_text", "log_text", "number", "sentence", "signed"]


def sentence(text: str) -> str:
    """``text`` shown as a sentence: its first letter a capital and a full stop at its end (the
    catalogs word a refusal as a clause, as ``str()`` of the error reads in a longer message)."""
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def log_text(entry: LogEntry, t: Catalog, style: str, narrator: Narrator) -> str:
    """A log line in words: ``dice`` shown in the game's style, ``cell`` by its name; an
    event, and a showdown's round summary, as :mod:`kosti.narrate` words them (the one home
    of that wording; the summary's lines after its title are indented)."""
    event = entry.params.get("event")
    if isinstance(event, Event):
        return narrator.describe(event)
    showdown = entry.params.get("showdown")
    if isinstance(showdown, Showdown):
        title, *rest = narrator.showdown_summary(showdown)
        return "\n".join([title, *("  " + line for line in rest)])
    params: dict[str, Any] = dict(entry.params)
    if "dice" in params:
        params["dice"] = dice_text(params["dice"], style, t)
    if "cell" in params:
        params["cell"] = t.cell(params["cell"])
    if "points" in params:
        points = params["points"]
        params["points"] = number(points)
    return t(entry.key, **params)
