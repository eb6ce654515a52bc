"""The log of a table in the reader's language: what each move threw and chose, and why every
score changed (RULES.md §5.1).

A move's throws and choices are worded with the catalog's ``log.*`` lines, as in the
terminal game; the changes of scores and status come from the core's events
(:mod:`kosti.events`), worded by :mod:`kosti.narrate`: the page shows these lines as
they are and words none of its own. Bots are named in the reader's language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kosti.actions import Action, CellAction, Hold, Roll, SetAside
from kosti.i18n import Catalog, catalog
from kosti.narrate import Narrator
from kosti.phrases import dice_text

if TYPE_CHECKING:
    from kosti.server.table import Table


def log_lines(table: Table, entry: dict[str, Any], lang: str) -> list[str]:
    """The lines of log ``entry`` of ``table`` in ``lang``; only moves (``action``) have any:
    the page words the table's own events (a seat taken, a rematch) from its catalog."""
    if entry["kind"] != "action":
        return []
    from kosti.server.table import parse_action

    t = catalog("ru" if lang == "ru" else "en")
    style = "cards" if getattr(table.rules.options, "faces", "pips") == "cards" else "pips"
    name = table.shown_name(entry["seat"], lang)
    lines = []
    for item in entry["actions"]:
        line = _action_line(parse_action(item), name, t, style)
        if line:
            lines.append(line)
    players = [table.shown_name(seat, lang) for seat in table.order]
    lines.extend(_event_lines(table, entry.get("events", []), players, lang))
    return lines


def _action_line(action: Action, name: str, t: Catalog, style: str) -> str | None:
    if isinstance(action, Roll):
        return t("log.throw", name=name, dice=dice_text(action.faces, style, t))
    if isinstance(action, Hold) and action.faces:
        return t("log.hold", name=name, dice=dice_text(action.faces, style, t))
    if isinstance(action, SetAside):
        return t("log.set_aside", name=name, dice=dice_text(action.faces, style, t))
    if isinstance(action, CellAction) and action.kind == "announce":
        return t("log.announce", name=name, cell=t.cell(action.cell))
    # a score, a scratch and a stop are told by the events they cause
    return None


def _event_lines(table: Table, events: list[Any], players: list[str], lang: str) -> list[str]:
    return Narrator(table.rules, players, lang).describe_all(events) if events else []
