"""The words of a table in the reader's language: its log (what each move threw and chose, and
why every score changed, RULES.md §5.1), and its own rules in sentences.

A move's throws and choices are worded with the catalog's ``log.*`` lines, as in the
terminal game; the changes of scores and status come from the core's events
(:mod:`kosti.events`), worded by :mod:`kosti.narrate`: the page shows these lines as
they are and words none of its own. Bots are named in the reader's language.
"""

from __future__ import annotations

import bisect
import typing
from typing import TYPE_CHECKING, Any, Literal

from kosti.actions import Action, CellAction, Hold, Roll, SetAside
from kosti.events import Event
from kosti.i18n import Catalog, catalog
from kosti.narrate import Narrator
from kosti.phrases import dice_text, thousand_rules
from kosti.rules.options import Options, SheetOptions, ThousandOptions
from kosti.rules.presets import Variant
from kosti.server.bots import bot_name
from kosti.server.events import Move

if TYPE_CHECKING:
    from kosti.server.table import LogEntry, Table


def shown_name(table: Table, seat: int, lang: str) -> str:
    """The name of ``seat`` as the page shows it: a bot's in the reader's language, the level's
    name alone for the only bot of its level («Умник»), with its seat beside another («Умник 2»)."""
    occupant = table.seats[seat]
    if occupant is None:
        return f"{seat + 1}"
    if occupant.bot is not None:
        level = occupant.bot
        alone = sum(1 for other in table.seats if other is not None and other.bot == level) == 1
        return bot_name(level, seat, lang, alone)
    return occupant.name


def move_as_played(table: Table, entry: LogEntry) -> tuple[tuple[Action, ...], tuple[Event, ...]]:
    """The actions of a move's log ``entry`` and the core's events of them as the game in force
    has them: after a past throw is changed (scorekeeper), the throw as changed and what it
    made; a move taken back keeps what it was."""
    event = entry.event
    if not isinstance(event, Move) or table.game is None:
        return (), entry.caused
    index = bisect.bisect_left(table.in_force, entry.version)  # the versions only grow
    if index == len(table.in_force) or table.in_force[index] != entry.version:
        return event.actions, entry.caused
    return table.game.moves[index][1], table.game.caused[index]


def log_lines(table: Table, entry: LogEntry, lang: str) -> list[str]:
    """The lines of log ``entry`` of ``table`` in ``lang``; only moves have any: the page words
    the table's own events (a seat taken, a rematch) from its catalog."""
    move = entry.event
    if not isinstance(move, Move):
        return []
    t = catalog("ru" if lang == "ru" else "en")
    style = "cards" if getattr(table.rules.options, "faces", "pips") == "cards" else "pips"
    name = shown_name(table, move.seat, lang)
    # a past throw changed at a scorekeeper table: the move as the game in force played it
    actions, caused = move_as_played(table, entry)
    lines = []
    for action in actions:
        line = _action_line(action, name, t, style)
        if line:
            lines.append(line)
    if caused:
        players = [shown_name(table, seat, lang) for seat in table.order]
        lines.extend(Narrator(table.rules, players, lang).describe_all(caused))
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


# -- the rules of a table, for the page's rules panel and its new-table form --------------------


def option_kind(options: Options, name: str) -> dict[str, Any]:
    """How the page offers option ``name`` of ``options`` as a control: ``{"kind": "choice",
    "choices": [...]}`` (one of its values, each worded by the catalog's ``value.*``), ``bool``,
    ``int`` (``nullable`` where ``null`` turns it off), ``cells`` (a subset of the cells in
    ``choices``), or ``fixed`` (shown, not changed on the page: the pits)."""
    hint = typing.get_type_hints(type(options))[name]
    args = typing.get_args(hint)
    if typing.get_origin(hint) is Literal:
        return {"kind": "choice", "choices": list(args)}
    if hint is bool:
        return {"kind": "bool"}
    if hint is int:
        return {"kind": "int"}
    if set(args) == {int, type(None)}:
        return {"kind": "int", "nullable": True}
    if hint == tuple[str, ...]:
        return {"kind": "cells", "choices": list(getattr(options, name))}
    return {"kind": "fixed"}


def table_rules(rules: Variant, lang: str) -> list[str]:
    """This table's own rules in sentences (Markdown ``**bold**``), with its numbers: for
    «Тысяча» the target, the opening, the pits, the barrel, overtaking, «самосвал» and the bolts
    that it has (none for those it has not), from the catalog's ``rules.table.*``; for the score
    sheets the columns of «ограды»; else the preset in a line."""
    t = catalog("ru" if lang == "ru" else "en")
    o = rules.options
    if isinstance(o, ThousandOptions):
        return thousand_rules(o, t)
    lines = [rules.preset.summary(t.lang)]
    if isinstance(o, SheetOptions) and len(o.column_kinds) > 1:
        names = ["I", "II", "III"]
        lines.extend(
            t(f"sheet.column_{kind}", column=names[i]) + "." for i, kind in enumerate(o.column_kinds)
        )
    return lines
