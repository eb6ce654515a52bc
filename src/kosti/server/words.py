"""The log of a table in the reader's language: what each move threw and chose, and why every
score changed (RULES.md §5.1).

A move's throws and choices are worded with the catalog's ``log.*`` lines, as in the
terminal game; the changes of scores and status come from the core's events
(:mod:`kosti.events`), worded by :mod:`kosti.narrate`: the page shows these lines as
they are and words none of its own. Bots are named in the reader's language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kosti.actions import Action, CellAction, Hold, Roll, SetAside
from kosti.i18n import Catalog, catalog
from kosti.narrate import Narrator
from kosti.phrases import dice_text
from kosti.server.events import Move

if TYPE_CHECKING:
    from kosti.server.table import LogEntry, Table


def log_lines(table: Table, entry: LogEntry, lang: str) -> list[str]:
    """The lines of log ``entry`` of ``table`` in ``lang``; only moves have any: the page words
    the table's own events (a seat taken, a rematch) from its catalog."""
    move = entry.event
    if not isinstance(move, Move):
        return []
    t = catalog("ru" if lang == "ru" else "en")
    style = "cards" if getattr(table.rules.options, "faces", "pips") == "cards" else "pips"
    name = table.shown_name(move.seat, lang)
    lines = []
    for action in move.actions:
        line = _action_line(action, name, t, style)
        if line:
            lines.append(line)
    if entry.caused:
        players = [table.shown_name(seat, lang) for seat in table.order]
        lines.extend(Narrator(table.rules, players, lang).describe_all(entry.caused))
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
