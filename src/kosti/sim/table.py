"""A table-driven policy for single-column score sheets, and the dice tables it stands on.

The policy is a plain array ``act[row, dice, throw]``: for every set of open cells
(a *row*), every throw of five dice (one of the 252 multisets) and every throw
number of the turn, one decision — hold a positional subset of the sorted dice
(codes 0..30: bit ``i`` keeps the ``i``-th smallest die) or record a cell (code
``HOLD_CODES + c``). Both the per-game bot (:class:`TableBot`) and the vectorised
simulator (:mod:`kosti.sim.vector`) read the same array, so the two can only
differ in how they play the game, never in what they decide.

:func:`greedy_table` fills it with a one-turn policy: within the turn, exact
dynamic programming over the 252 outcomes of five dice maximising the recorded
score *relative to the cell's par*, the mean score of a whole turn chasing that
cell alone. Each cell is thus valued as it compares with its usual yield, which
keeps the policy from spending a rich cell on poor dice; it looks no further than
the turn (no upper-bonus planning), which the exact solver does.

The rules both stand on are the engine's (RULES.md §1): :class:`SheetLayout` asks
:mod:`kosti.games.sheet.game` and :mod:`kosti.games.sheet.scoring` once, for every
reachable set of open cells, where a throw may be recorded (stages and the forced
joker: ``scorable_cells``), whether it is a joker, what it scores, when it earns the
extra-Yahtzee bonus and what a full sheet adds to its cells; the policy and the
simulator only read those tables.

Supported: one column, no banked throws, no scratching (``poker-classic``,
``poker-extended``, ``poker-free``, ``yahtzee`` and their option variations, any
joker rule).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import product
from pathlib import Path

import numpy as np
import numpy.typing as npt
import platformdirs

from kosti.actions import Action, Hold, Score
from kosti.dice import Faces, multisets, reroll
from kosti.errors import IllegalActionError, OptionError
from kosti.games.base import GameState
from kosti.games.sheet.game import (
    Sheet,
    SheetState,
    allowed_cells,
    cells_of,
    extra_yahtzee,
    joker_cells,
    joker_face,
    options_of,
    sheet_total,
    yahtzee_scored,
)
from kosti.games.sheet.scoring import cell_score
from kosti.rules.options import SheetOptions
from kosti.rules.presets import Variant
from kosti.rules.presets import variant as make_variant

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

HOLD_CODES = 32
"""Decision codes below this are positional hold masks; 31 (hold all five) never occurs."""

THROWN: tuple[Faces, ...] = multisets(5)
"""The 252 distinct throws of five dice, sorted; a throw's position here is its *dice index*."""
N_THROWN = len(THROWN)
SORTED = np.array(THROWN, dtype=np.int64)
"""``SORTED[i]`` is the dice of index ``i``, smallest first."""

POWERS = 6 ** np.arange(5, dtype=np.int64)
N_KEYS = 6**5
"""An ordered throw of five dice is a key ``Σ (face_i − 1)·6^i`` in 0..7775."""


KEEPS: tuple[Faces, ...] = tuple(m for n in range(5) for m in multisets(n))
"""Every hold as a multiset (0 to 4 dice): 210 of them."""
KEEP_INDEX: dict[Faces, int] = {k: i for i, k in enumerate(KEEPS)}
DICE_INDEX: dict[Faces, int] = {d: i for i, d in enumerate(THROWN)}

HOLD_BITS = ((np.arange(HOLD_CODES)[:, None] >> np.arange(5)[None, :]) & 1).astype(bool)
"""``HOLD_BITS[h, i]``: hold mask ``h`` keeps the ``i``-th smallest die."""


@cache
def key_to_dice() -> IntArray:
    """``key_to_dice()[key]``: the dice index of an ordered throw (so nothing is ever sorted)."""
    digits = (np.arange(N_KEYS)[:, None] // POWERS[None, :]) % 6 + 1
    return np.array([DICE_INDEX[tuple(sorted(int(f) for f in row))] for row in digits], dtype=np.int64)


@cache
def held_key() -> IntArray:
    """``held_key()[dice, h]``: the key part of the dice hold ``h`` keeps, each in its own position."""
    keys: IntArray = np.where(HOLD_BITS[None, :, :], (SORTED[:, None, :] - 1) * POWERS, 0).sum(axis=2)
    return keys


@cache
def free_key() -> IntArray:
    """``free_key()[h, key]``: the digits of a fresh throw ``key`` in the positions ``h`` does not hold.

    A throw after holding ``h`` is ``held_key()[dice, h] + free_key()[h, uniform key]``: the
    thrown dice are independent uniform digits, exactly as the engine's dice are.
    """
    digits = (np.arange(N_KEYS)[:, None] // POWERS) % 6 * POWERS
    keys: IntArray = np.where(~HOLD_BITS[:, None, :], digits[None, :, :], 0).sum(axis=2)
    return keys


@cache
def transition() -> FloatArray:
    """``transition()[keep, dice]``: the chance that holding ``keep`` and throwing the rest gives ``dice``."""
    p = np.zeros((len(KEEPS), N_THROWN))
    for k, keep in enumerate(KEEPS):
        for faces, prob in reroll(keep).items():
            p[k, DICE_INDEX[faces]] = float(prob)
    return p


@cache
def hold_keep() -> IntArray:
    """``hold_keep()[dice, h]``: the hold (a keep index) that mask ``h`` makes of these dice."""
    return np.array(
        [
            [KEEP_INDEX[tuple(int(f) for f in SORTED[d][HOLD_BITS[h]])] for h in range(HOLD_CODES - 1)]
            for d in range(N_THROWN)
        ],
        dtype=np.int64,
    )


ALIKE = np.array([d[0] if len(set(d)) == 1 else 0 for d in THROWN], dtype=np.int64)
"""``ALIKE[dice]``: the face of five alike, 0 for any other throw: the *kind* of a throw.

Where a throw may be recorded and how it scores depend on the dice only through the
engine's :func:`~kosti.games.sheet.game.joker_face`, which concerns five alike alone; so
the recording rules of an open-cell set are asked of the engine once for each kind."""
KIND_DICE: tuple[Faces, ...] = ((1, 2, 3, 4, 6), *((f,) * 5 for f in range(1, 7)))
"""A throw of each kind: ``KIND_DICE[k]`` has ``ALIKE == k``."""
N_KINDS = len(KIND_DICE)


def hold_faces(dice: Faces, code: int) -> Faces:
    """The faces a positional hold mask keeps of sorted ``dice``."""
    return tuple(f for i, f in enumerate(dice) if code >> i & 1)


def check_vector_sheet(options: object) -> SheetOptions:
    """The options when the table policy and the vectorised simulator support them; else OptionError."""
    if not isinstance(options, SheetOptions):
        raise OptionError("the table policy plays score-sheet presets only")
    if options.columns != "single":
        raise OptionError("the table policy plays one column, not the three columns of poker-fences")
    if options.banked_throws or options.scratch:
        raise OptionError("the table policy does not bank throws or scratch cells")
    return options


@dataclass(frozen=True)
class SheetLayout:
    """The rules of one sheet as tables, indexed by cell (table order), dice index and
    open-cell set: each entry is what the engine's own functions (:mod:`kosti.games.sheet.game`,
    :mod:`kosti.games.sheet.scoring`) answer, asked once when the layout is built."""

    variant: Variant
    cells: tuple[str, ...]
    throws: int

    score: IntArray
    """``score[joker, first, dice, cell]``: what recording there scores (cell bonuses included),
    as :func:`~kosti.games.sheet.scoring.cell_score` gives it with the dice played as a joker
    (``joker`` = 1) or not."""

    masks: IntArray
    """The sets of open cells the rules can reach (bit ``c`` set: cell ``c`` open), ascending,
    the full sheet (no cell open) left out: found by recording, from the empty sheet, in every
    cell the engine allows (``legal``)."""

    row_of_mask: IntArray
    """The row of a mask in :attr:`masks` (and in ``legal`` and ``joker``), −1 if unreachable."""

    legal: npt.NDArray[np.bool_]
    """``legal[row, kind, cell]``: a throw of that kind (:data:`ALIKE`) may be recorded in the
    cell: the engine's ``scorable_cells`` (:func:`~kosti.games.sheet.game.allowed_cells` and
    :func:`~kosti.games.sheet.game.joker_cells`)."""

    joker: IntArray
    """``joker[row, kind]``: 1 when a throw of that kind is a joker there
    (:func:`~kosti.games.sheet.game.joker_face`), else 0: the first index of :attr:`score`."""

    scored_by: npt.NDArray[np.bool_]
    """``scored_by[joker, first, dice, cell]``: that record makes the Yahtzee cell hold a score
    (:func:`~kosti.games.sheet.game.yahtzee_scored`)."""

    extra: npt.NDArray[np.bool_]
    """``extra[scored, dice]``: recording the dice earns the extra-Yahtzee bonus while the
    Yahtzee cell holds a score (``scored`` = 1) or not (:func:`~kosti.games.sheet.game.extra_yahtzee`)."""

    @property
    def n_cells(self) -> int:
        return len(self.cells)

    @property
    def full(self) -> int:
        """The bit mask with every cell open."""
        return (1 << self.n_cells) - 1

    def rules(self, masks: IntArray) -> tuple[npt.NDArray[np.bool_], IntArray]:
        """``legal[i, kind, cell]`` and ``joker[i, kind]`` of each mask, reachable or not."""
        rows = self.row_of_mask[masks]
        legal = self.legal[rows]
        joker = self.joker[rows]
        unreachable = np.flatnonzero(rows < 0)
        if len(unreachable):
            options = check_vector_sheet(self.variant.options)
            legal[unreachable], joker[unreachable] = mask_rules(options, masks[unreachable].tolist())
        return legal, joker

    def bonus(self, upper: IntArray, extras: IntArray) -> IntArray:
        """What full sheets add to their recorded cells, for each game's upper total and number
        of extra Yahtzees: the engine's :func:`~kosti.games.sheet.game.sheet_total` of such a sheet
        less its cells (the upper bonus, the extra-Yahtzee bonuses)."""
        # each distinct pair once: a key per (upper total, extras), looked up without sorting
        low, span = int(upper.min(initial=0)), self.n_cells + 1
        key = (upper - low) * span + extras
        lookup = np.zeros(int(key.max(initial=0)) + 1, dtype=np.int64)
        seen = np.zeros(len(lookup), dtype=bool)
        seen[key] = True
        spec = self.variant.spec
        for k in np.flatnonzero(seen).tolist():
            lookup[k] = full_sheet_bonus(spec, k // span + low, k % span)
        result: IntArray = lookup[key]
        return result


@cache
def full_sheet_bonus(spec: str, upper: int, extras: int) -> int:
    """What a full single-column sheet of a variant adds to its cells with an upper total of
    ``upper`` and ``extras`` extra Yahtzees: the engine's
    :func:`~kosti.games.sheet.game.sheet_total` less the cells."""
    options = check_vector_sheet(layout(spec).variant.options)
    # a full column whose upper cells add up to the total
    column = (upper, *(0,) * (len(cells_of(options)) - 1))
    return sheet_total(options, Sheet((column,), yahtzee_bonuses=extras)) - sum(column)


def mask_column(n_cells: int, mask: int) -> tuple[int | None, ...]:
    """A column with the cells of ``mask`` open (``None``) and every other one recorded."""
    column: tuple[int | None, ...] = ()
    for start in range(0, n_cells, 8):
        column += _column_piece(min(8, n_cells - start), mask >> start & 255)
    return column


@cache
def _column_piece(width: int, bits: int) -> tuple[int | None, ...]:
    # columns are made of pieces of eight cells: a few hundred tuples, built once
    return tuple(None if bits >> c & 1 else 0 for c in range(width))


def mask_rules(options: SheetOptions, masks: Iterable[int]) -> tuple[npt.NDArray[np.bool_], IntArray]:
    """The engine's recording rules for columns whose open cells are ``masks``: where a throw of
    each kind may be recorded (``[mask, kind, cell]``) and whether it is a joker (``[mask, kind]``)."""
    cells = cells_of(options)
    bit = {cell: 1 << c for c, cell in enumerate(cells)}
    kind_of_column = options.column_kinds[0]
    legal: list[list[int]] = []
    joker: list[list[bool]] = []
    for mask in masks:
        column = mask_column(len(cells), mask)
        allowed = allowed_cells(options, kind_of_column, column)
        allowed_bits = sum(bit[c] for c in allowed)
        faces = [joker_face(options, column, dice) for dice in KIND_DICE]
        chosen = [joker_cells(options, allowed, face) for face in faces]
        # most throws may go wherever the stage allows: their bits are counted once
        legal.append([allowed_bits if c == allowed else sum(bit[x] for x in c) for c in chosen])
        joker.append([face is not None for face in faces])
    bits = np.array(legal, dtype=np.int64).reshape(-1, N_KINDS)
    cells_legal = (bits[:, :, None] >> np.arange(len(cells)) & 1).astype(bool)
    return cells_legal, np.array(joker, dtype=np.int64).reshape(-1, N_KINDS)


@cache
def layout(spec: str) -> SheetLayout:
    """The :class:`SheetLayout` of a variant given by its canonical string."""
    rules = make_variant(spec)
    options = check_vector_sheet(rules.options)
    cells = cells_of(options)
    n = len(cells)
    score = np.zeros((2, 2, N_THROWN, n), dtype=np.int64)
    scored_by = np.zeros(score.shape, dtype=bool)
    for as_joker, first, (d, dice), (c, cell) in product((0, 1), (0, 1), enumerate(THROWN), enumerate(cells)):
        value = cell_score(cell, dice, options, first_throw=bool(first), joker=bool(as_joker))
        score[as_joker, first, d, c] = value
        recorded = tuple(value if k == c else None for k in range(n))
        scored_by[as_joker, first, d, c] = yahtzee_scored(options, recorded)
    extra = np.array([[extra_yahtzee(options, bool(s), dice) for dice in THROWN] for s in (0, 1)])
    # the reachable open-cell sets: from the empty sheet, record in every cell allowed
    levels: list[tuple[list[int], npt.NDArray[np.bool_], IntArray]] = []
    level = [(1 << n) - 1]
    while level:
        legal, joker = mask_rules(options, level)
        levels.append((level, legal, joker))
        below = np.array(level)[:, None] & ~(1 << np.arange(n))
        level = sorted(set(below[legal.any(axis=1)].tolist()) - {0})
    masks = np.concatenate([np.array(m, dtype=np.int64) for m, _, _ in levels])
    order = np.argsort(masks)
    masks = masks[order]
    row_of_mask = np.full(1 << n, -1, dtype=np.int64)
    row_of_mask[masks] = np.arange(len(masks))
    return SheetLayout(
        variant=rules,
        cells=cells,
        throws=options.throws,
        score=score,
        masks=masks,
        row_of_mask=row_of_mask,
        legal=np.concatenate([legal for _, legal, _ in levels])[order],
        joker=np.concatenate([joker for _, _, joker in levels])[order],
        scored_by=scored_by,
        extra=extra,
    )


@dataclass(frozen=True)
class SheetTable:
    """A policy as a table: ``act[row_of_mask[mask], dice, throw − 1]`` is the decision code.

    It is a :class:`~kosti.sim.vector.VectorPolicy`: a policy that also looks at the upper
    total (the exact solver's) would map more of the state to its rows, the same way.
    """

    layout: SheetLayout
    row_of_mask: IntArray
    """The row of a mask of open cells (bit ``c`` set: cell ``c`` open), −1 if unreachable."""

    act: npt.NDArray[np.uint8]
    """Decision codes: below :data:`HOLD_CODES` a hold mask, else ``HOLD_CODES + cell``."""

    def rows(self, mask: IntArray, upper: IntArray, yahtzee_made: npt.NDArray[np.bool_]) -> IntArray:
        """The row of ``act`` for each game at the start of a turn (this table reads the mask only)."""
        rows: IntArray = self.row_of_mask[mask]
        return rows

    def decide(self, mask: int, dice: int, throw: int) -> int:
        """The decision code for open cells ``mask``, dice index ``dice``, after throw ``throw`` (1-based)."""
        row = int(self.row_of_mask[mask])
        if row < 0 or not 1 <= throw <= self.layout.throws:
            raise IllegalActionError("table_no_decision", mask=int(mask), throw=int(throw))
        return int(self.act[row, dice, throw - 1])


def _turn_dp(
    lay: SheetLayout, masks: IntArray, value: FloatArray
) -> tuple[npt.NDArray[np.uint8], FloatArray]:
    """One turn's exact dynamic programme for a batch of masks.

    ``value[joker, first, dice, cell]`` is what recording is worth (indexed as
    :attr:`SheetLayout.score`). Returns the decision codes ``[mask, dice, throw]`` and each
    mask's expected value at the start of the turn. Ties go to recording, then to the
    smallest cell or hold mask, so the table is deterministic.
    """
    legal_kinds, joker_kinds = lay.rules(masks)
    legal = legal_kinds[:, ALIKE, :]
    # where each mask's throws read value[joker, first] (flattened over joker and dice)
    page = joker_kinds[:, ALIKE] * N_THROWN + np.arange(N_THROWN)
    throws = lay.throws
    act = np.zeros((len(masks), N_THROWN, throws), dtype=np.uint8)
    p = transition()
    keeps = hold_keep()

    def record(first: int) -> tuple[FloatArray, IntArray]:
        # a loop over the few cells is much faster than argmax along a short last axis
        best_value = np.full(legal.shape[:2], -np.inf)
        best_cell = np.zeros(legal.shape[:2], dtype=np.int64)
        for c in range(lay.n_cells):
            v = value[:, first, :, c].ravel()[page]
            v[~legal[:, :, c]] = -np.inf
            np.copyto(best_cell, c, where=v > best_value)
            np.maximum(best_value, v, out=best_value)
        return best_value, best_cell

    v_next, best = record(int(throws == 1))
    act[:, :, throws - 1] = HOLD_CODES + best
    for throw in range(throws - 1, 0, -1):
        expected = v_next @ p.T  # [mask, keep]
        hold_value = np.full(v_next.shape, -np.inf)
        best_hold = np.zeros(v_next.shape, dtype=np.int64)
        for h in range(HOLD_CODES - 1):
            v = expected[:, keeps[:, h]]
            np.copyto(best_hold, h, where=v > hold_value)
            np.maximum(hold_value, v, out=hold_value)
        stop_value, best = record(int(throw == 1))
        stop = stop_value >= hold_value - 1e-9
        act[:, :, throw - 1] = np.where(stop, HOLD_CODES + best, best_hold)
        v_next = np.where(stop, stop_value, hold_value)
    start = v_next @ p[KEEP_INDEX[()]]
    return act, start


BATCH = 512
"""Masks solved together: bounds the memory of one batch to some tens of megabytes."""


TABLE_VERSION = "1"
"""Bumped whenever a change could alter a built table: old cache files are then ignored."""


def cache_dir() -> Path:
    """Where built tables are kept: ``$KOSTI_CACHE_DIR`` or the user's cache directory."""
    env = os.environ.get("KOSTI_CACHE_DIR")
    return Path(env) if env else Path(platformdirs.user_cache_dir("kosti"))


def cache_path(spec: str) -> Path:
    digest = hashlib.sha256(f"greedy|{spec}|{TABLE_VERSION}".encode()).hexdigest()[:16]
    return cache_dir() / "sim" / f"greedy-v{TABLE_VERSION}-{digest}.npy"


CACHE_FROM_ROWS = 4096
"""Tables with this many rows or more are kept on disk: they take seconds to build."""


@cache
def greedy_table(spec: str) -> SheetTable:
    """The one-turn policy of :mod:`kosti.sim.table` for a variant (canonical string).

    Built once per process; big tables are also kept in the cache directory.
    """
    lay = layout(spec)
    masks, row_of_mask = lay.masks, lay.row_of_mask
    shape = (len(masks), N_THROWN, lay.throws)
    path = cache_path(lay.variant.spec) if len(masks) >= CACHE_FROM_ROWS else None
    if path is not None and path.exists():
        try:
            act = np.load(path, allow_pickle=False)
            if act.shape == shape and act.dtype == np.uint8:
                return SheetTable(lay, row_of_mask, act)
        except (OSError, ValueError):
            pass  # a damaged cache file is built again
    n = lay.n_cells
    score = lay.score.astype(float)
    # par: a whole turn spent on the one cell
    singles = np.array([1 << c for c in range(n)], dtype=np.int64)
    _, par = _turn_dp(lay, singles, score)
    value = score - par
    act = np.zeros(shape, dtype=np.uint8)
    for start in range(0, len(masks), BATCH):
        chunk = masks[start : start + BATCH]
        act[start : start + len(chunk)], _ = _turn_dp(lay, chunk, value)
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # write then rename: a reader never sees half a file
            partial = path.with_suffix(f".{os.getpid()}.tmp")
            with partial.open("wb") as handle:
                np.save(handle, act, allow_pickle=False)
            partial.replace(path)
        except OSError:
            pass  # no cache, no harm: the table is rebuilt next time
    return SheetTable(lay, row_of_mask, act)


def open_mask(state: SheetState) -> int:
    """The open cells of the current player's (single) column as a bit mask."""
    column = state.sheets[state.current].columns[0]
    return sum(1 << c for c, v in enumerate(column) if v is None)


class TableBot:
    """Plays a score sheet by a :class:`SheetTable` (``greedy_table`` unless given one).

    The table is built on first use for the variant of the state and then cached for
    the process; a bot with a given table plays that variant only.
    """

    name = "table"

    def __init__(self, seed: int | str | None = None, table: SheetTable | None = None) -> None:
        # deterministic: the seed is accepted so that every bot is made the same way
        self._table = table

    def table_for(self, variant: Variant) -> SheetTable:
        if self._table is not None:
            return self._table
        return greedy_table(variant.spec)

    def choose(self, state: GameState) -> Action:
        if not isinstance(state, SheetState):
            raise IllegalActionError("table_bot_sheets_only")
        check_vector_sheet(options_of(state))
        if state.throws == 0 or state.pending:
            raise IllegalActionError("no_decision")
        table = self.table_for(state.variant)
        code = table.decide(open_mask(state), DICE_INDEX[state.dice], state.throws)
        if code < HOLD_CODES:
            return Hold(hold_faces(state.dice, code))
        return Score(table.layout.cells[code - HOLD_CODES])
