"""Positions of score-sheet poker written as JSON (RULES.md §1): one player's sheet, dice
and throws, as ``kosti hint --position`` reads them.

A position is the part of a game a hint needs, typed in by hand: unlike a record
(:mod:`kosti.record`) it has no history, only where one sheet stands now.
"""

from __future__ import annotations

from typing import Any

from kosti.dice import normalize
from kosti.errors import KostiError, OptionError
from kosti.games.sheet.game import COLUMN_NAMES, SHEET, Sheet, SheetState, cells_of
from kosti.rules.options import SheetOptions
from kosti.rules.presets import variant


def parse_position(data: Any) -> SheetState:
    """A one-player state from a position in JSON (``kosti hint --position``).

    ``{"variant": spec, "options": {...}, "sheet": {cell: value | null}, "dice": [5 faces],
    "throws": made this turn | "throws_left": n, "banked": n, "yahtzee_bonuses": n,
    "announced": cell}``; poker-fences gives ``"columns": {"I": {...}, "II": {...}, "III": {...}}``
    instead of ``"sheet"``. Cells left out are open; no dice means before the first throw.
    A malformed position raises :class:`~kosti.errors.KostiError` saying what is wrong.
    """
    if not isinstance(data, dict):
        raise KostiError("a position is a JSON object")
    name = data.get("variant")
    if not isinstance(name, str):
        raise KostiError('a position needs "variant": a preset or variant string')
    overrides = data.get("options", {})
    if not isinstance(overrides, dict):
        raise KostiError('"options" must be an object')
    rules = variant(name, overrides)
    options = rules.options
    if not isinstance(options, SheetOptions):
        raise OptionError(f"{rules.spec} is not a score-sheet game: hints are for score sheets")
    names = cells_of(options)
    n_columns = 3 if options.columns == "fences" else 1
    if n_columns == 1:
        given = {"I": data.get("sheet", {})}
    else:
        given = data.get("columns", {})
        if not isinstance(given, dict):
            raise KostiError('"columns" must be an object: {"I": {...}, "II": {...}, "III": {...}}')
    columns = []
    for col_name in COLUMN_NAMES[:n_columns]:
        cells = given.get(col_name, {})
        if not isinstance(cells, dict):
            raise KostiError(f"column {col_name} must be an object of cell: value")
        for cell, value in cells.items():
            if cell not in names:
                raise KostiError(f"{rules.spec} has no cell {cell!r}")
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise KostiError(f"cell {cell} holds a whole number or null, not {value!r}")
        columns.append(tuple(cells.get(cell) for cell in names))
    for key in ("banked", "yahtzee_bonuses", "throws", "throws_left"):
        value = data.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise KostiError(f'"{key}" must be a whole number ≥ 0')
    banked = int(data.get("banked") or 0)
    if banked and not options.banked_throws:
        raise KostiError(f"{rules.spec} banks no throws")
    sheet = Sheet(tuple(columns), banked, int(data.get("yahtzee_bonuses") or 0))
    if sheet.is_full():
        raise KostiError("the sheet is full: there is nothing left to decide")
    raw_dice = data.get("dice") or []
    if not isinstance(raw_dice, list):
        raise KostiError('"dice" must be a list of five faces')
    dice = normalize(raw_dice, 5) if raw_dice else ()
    limit = options.throws
    if not dice:
        throws = 0
    elif data.get("throws") is not None:
        throws = int(data["throws"])
    elif data.get("throws_left") is not None:
        extra = int(data["throws_left"]) - banked
        throws = limit - extra if extra > 0 else limit
    else:
        throws = 1
    if dice and not 1 <= throws <= limit + banked:
        raise KostiError(f"throws made this turn must lie between 1 and {limit + banked}")
    announced = data.get("announced")
    if announced is not None and (announced not in names or not dice):
        raise KostiError(f"cannot have announced {announced!r} here")
    state = SheetState(rules, ("player",), 0, (sheet,), 0, dice, (), throws, 0, announced)
    if announced is not None and SHEET.column_kind(state) != "announced":
        raise KostiError("a cell is announced only in column II of poker-fences")
    if throws == 0 and not SHEET.scratchable_cells(state):
        state = SheetState(rules, ("player",), 0, (sheet,), 0, (), (), 0, 5, None)
    return state
