"""Where a throw may be recorded, as the compiled solver reads it: the engine's rules, tabulated.

The kernels (:mod:`kosti.solver.kernels`) decide no rule of the sheet themselves: they index
these tables, filled once per variant by asking the engine's own functions
(:func:`~kosti.games.sheet.game.allowed_cells`, :func:`~kosti.games.sheet.game.joker_face`,
:func:`~kosti.games.sheet.game.joker_cells`), as :mod:`kosti.sim.table` does for its policy.

A set of cells of a column is a bit mask in table order (:func:`~kosti.games.sheet.game.cells_of`):
bit ``i`` is cell ``i``, the six upper cells first (bits 0–5, face ``f`` at bit ``f − 1``), then the
lower cells (lower cell ``c`` at bit ``6 + c``); the kernels' upper and lower masks are its two parts.

Each table is indexed by what its rule reads of the sheet, not by the whole sheet, so that it
is small and quick to build:

* the column and stage rules (RULES.md §1.4, §1.7) allow some of the open cells, and which
  ones depends on the open cells only through the first of them in table order (an ordered
  column's next cell; under sequential stages, whether an upper cell is still open);
* whether five alike are a joker (RULES.md §1.5) depends on column I's upper cells and on
  whether its Yahtzee cell is recorded;
* where a joker may go depends on whether its own upper cell is allowed and whether any
  lower cell is.

``tests/solver/test_legal.py`` checks the tables, and the kernels' reading of them, against the
engine for every sheet of several presets.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kosti.games.sheet.game import allowed_cells, cells_of, joker_cells, joker_face
from kosti.rules.options import UPPER_CELLS, SheetOptions

I64 = npt.NDArray[np.int64]

UPPER = len(UPPER_CELLS)
"""Upper cells of a column: the lower cells' bits start here."""
FULL_UPPER = (1 << UPPER) - 1
"""The bits of the upper cells."""
YAHTZEE = "yahtzee"
"""The cell whose record makes a further five alike a joker (RULES.md §1.5)."""


def yahtzee_cell(options: SheetOptions) -> int:
    """The Yahtzee cell's place among the lower cells, −1 when the sheet has none."""
    return options.lower.index(YAHTZEE) if YAHTZEE in options.lower else -1


def cell_bits(names: Sequence[str], cells: Iterable[str]) -> int:
    """The bit mask of ``cells`` among the cells ``names`` of a column (bit ``i``: ``names[i]``)."""
    index = {name: i for i, name in enumerate(names)}
    return sum(1 << index[cell] for cell in cells)


def column_of(n_cells: int, recorded: int) -> tuple[int | None, ...]:
    """A column of ``n_cells`` with the cells of ``recorded`` holding 0 and the others open."""
    return tuple(0 if recorded >> i & 1 else None for i in range(n_cells))


@dataclass(frozen=True)
class RuleTables:
    """Where the rules let a throw be recorded, as tables the kernels index (see the module)."""

    allowed: I64
    """``allowed[column, first]``: the cells the column and stage rules allow in column ``column``
    (of :attr:`~kosti.rules.options.SheetOptions.column_kinds`) whose first open cell is ``first``
    and every later cell open: :func:`~kosti.games.sheet.game.allowed_cells` of that column. With
    some of the later cells recorded, the open cells among these are allowed
    (:meth:`allowed_of`)."""

    joker_faces: I64
    """``joker_faces[upper, yahtzee]``: the faces whose five alike are a joker (bit ``f``: five
    ``f``s) while column I has the upper cells ``upper`` recorded (a mask of the six bits) and its
    Yahtzee cell recorded (``yahtzee`` = 1) or open: :func:`~kosti.games.sheet.game.joker_face`.
    In a later column, column I is full: ``joker_faces[FULL_UPPER, 1]``."""

    joker_cells: I64
    """``joker_cells[face − 1, own, lower]``: the cells five ``face``s played as a joker may be
    recorded in, when the cells allowed are every upper cell but the face's own, that one too if
    ``own`` = 1, and every lower cell if ``lower`` = 1: :func:`~kosti.games.sheet.game.joker_cells`.
    With fewer cells allowed (the same own cell and lower cells allowed or not), the allowed
    cells among these."""

    def allowed_of(self, column: int, recorded: I64) -> I64:
        """The cells the rules allow in column ``column`` once the cells ``recorded`` are recorded
        (masks, any shape; 0 for a full column): :attr:`allowed` read as the kernels read it
        (:func:`kosti.solver.kernels.allowed`), for whole arrays at once."""
        n_cells = self.allowed.shape[1]
        open_ = ~recorded & ((1 << n_cells) - 1)
        lowest = open_ & -open_
        # the first open cell: the place of the lowest bit (any, for a full column)
        first = np.zeros_like(recorded)
        for i in range(1, n_cells):
            first[lowest == 1 << i] = i
        allowed: I64 = open_ & self.allowed[column, first]
        return allowed

    def reachable(self, column: int) -> npt.NDArray[np.bool_]:
        """``reachable[recorded]``: a column ``column`` can come to have the cells ``recorded``
        recorded, each in its turn recorded in a cell the rules allowed (from the empty column)."""
        n_cells = self.allowed.shape[1]
        allowed = self.allowed_of(column, np.arange(1 << n_cells, dtype=np.int64))
        reached = np.zeros(1 << n_cells, dtype=bool)
        reached[0] = True
        level = np.zeros(1, dtype=np.int64)
        while len(level):
            after = np.zeros(1 << n_cells, dtype=bool)
            for i in range(n_cells):
                after[level[allowed[level] >> i & 1 == 1] | 1 << i] = True
            level = np.flatnonzero(after)
            reached[level] = True
        return reached


def rule_tables(options: SheetOptions) -> RuleTables:
    """The :class:`RuleTables` of a sheet, each entry the engine's answer (a few hundred questions)."""
    names = cells_of(options)
    n_cells = len(names)
    kinds = options.column_kinds
    allowed = np.zeros((len(kinds), n_cells), dtype=np.int64)
    for column, kind in enumerate(kinds):
        for first in range(n_cells):
            cells = allowed_cells(options, kind, column_of(n_cells, (1 << first) - 1))
            allowed[column, first] = cell_bits(names, cells)
    yc = yahtzee_cell(options)
    faces = np.zeros((FULL_UPPER + 1, 2), dtype=np.int64)
    for upper in range(FULL_UPPER + 1):
        for recorded in (0, 1):
            # a sheet without the cell has nothing to record: both entries are of the same column
            yahtzee = 1 << (UPPER + yc) if recorded and yc >= 0 else 0
            first_column = column_of(n_cells, upper | yahtzee)
            faces[upper, recorded] = sum(
                1 << face for face in range(1, 7) if joker_face(options, first_column, (face,) * 5) == face
            )
    where = np.zeros((len(UPPER_CELLS), 2, 2), dtype=np.int64)
    for face, own_cell in enumerate(UPPER_CELLS, start=1):
        for own in (0, 1):
            for lower in (0, 1):
                cells_allowed = [c for c in UPPER_CELLS if own or c != own_cell]
                if lower:
                    cells_allowed += options.lower
                where[face - 1, own, lower] = cell_bits(names, joker_cells(options, cells_allowed, face))
    return RuleTables(allowed, faces, where)
