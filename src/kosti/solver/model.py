"""The solitaire sheet as a Markov decision process: dice tables, states and their successors.

Everything here is built from :class:`~kosti.rules.options.SheetOptions` and
:func:`~kosti.games.sheet.scoring.cell_score`, never from a preset's name, so an
option override is solved as faithfully as a preset.

A *state* between turns is ``(column, lower mask, upper pair, flag, bank)``:

* ``column``: the column being filled (poker-fences has three, every other sheet one);
* ``lower mask``: the recorded lower cells of that column, one bit each in table order;
* ``upper pair``: the recorded upper cells (six bits) together with the upper total,
  clamped to the range where the upper bonus still depends on it (``pair_um``,
  ``pair_t``). Once the upper section is full its bonus is paid and the total is
  forgotten: a single pair stands for every full upper section;
* ``flag``: 1 when the Yahtzee cell of column I holds 50, so that a further Yahtzee
  earns the extra bonus (only tracked when the sheet has that bonus);
* ``bank``: banked throws («ограды»).

The bank: a sheet that banks throws (poker-mandatory, poker-fences) could bank up to
:func:`exact_bank_cap` of them (mandatory 34, fences 117), but a state can hold only
what its recorded cells banked (:func:`reach`). Only the states the rules can reach
are laid out (:class:`Layout`), each with a row of values for the banks it can hold,
so the solver tracks every bank and its value is exact. A smaller ``cap`` may be asked
for: the solver then plays a game in which throws banked beyond it are forfeited, whose
value is a lower bound of the true optimum.

Within a turn the dice are one of the 252 multisets of five faces and a hold is one
of the 462 multisets of at most five faces (:data:`ALL`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from functools import cache, cached_property
from math import comb
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from kosti.dice import Faces, counts, multisets, probability, submultisets
from kosti.errors import OptionError
from kosti.games.sheet.scoring import cell_score, upper_bonus
from kosti.rules.options import COLUMN_KINDS, UPPER_CELLS, SheetOptions
from kosti.solver.legal import FULL_UPPER, RuleTables, rule_tables, yahtzee_cell

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]

ALL: tuple[Faces, ...] = tuple(m for k in range(6) for m in multisets(k))
"""Every multiset of 0 to 5 faces, by size then in lexicographic order (462)."""
INDEX: dict[Faces, int] = {m: i for i, m in enumerate(ALL)}
FIVE = len(ALL) - len(multisets(5))
"""Index of the first five-dice multiset in :data:`ALL` (210); dice ``d`` is ``ALL[FIVE + d]``."""
DICE: tuple[Faces, ...] = multisets(5)
DICE_INDEX: dict[Faces, int] = {m: i for i, m in enumerate(DICE)}

LANES = 4
"""How many announced cells the solver chases at once, side by side in one vector register (four
values of 64 bits: the AVX2 registers that every x86 processor of the last decade has;
:func:`kosti.solver.kernels.chase_lanes`)."""

KIND_FREE, KIND_ANNOUNCED, KIND_ORDERED = (COLUMN_KINDS.index(k) for k in ("free", "announced", "ordered"))
"""The column kinds as the kernels number them (their place in ``COLUMN_KINDS``)."""


class Cfg(IntEnum):
    """The slots of a variant's integer configuration vector (:attr:`Tables.cfg`): the Python
    that fills it (:func:`build_model`) and the kernels that read it (``cfg[Cfg.THROWS]``) name
    each slot by this enum."""

    THROWS = 0
    """Throws of a turn, banked ones not counted (``throws``)."""
    BANK_CAP = 1
    """Banked throws the solver tracks (:attr:`Model.cap`); 0 on a sheet that banks none."""
    N_LOWER = 2
    """Lower cells of a column."""
    N_COLUMNS = 3
    """Columns of the sheet, played one after another."""
    FULL_LOWER = 4
    """The lower mask of a column whose lower cells are all recorded."""
    YAHTZEE_CELL = 5
    """The Yahtzee cell's place among the lower cells, −1 if the sheet has none
    (:func:`~kosti.solver.legal.yahtzee_cell`)."""
    FLAGS = 6
    """Values of a state's flag: 2 when the sheet has an extra-Yahtzee bonus, which a score in
    column I's Yahtzee cell sets going (the flag is then 1), else 1 (always 0)."""
    SCRATCH = 7
    """1 when an allowed lower cell may be scratched (``scratch``), else 0."""
    START_PAIR = 8
    """The upper pair of an empty upper section (:meth:`Model.pair_of` ``(0, 0)``)."""
    BANK_UPPER = 9
    """The most throws a turn recording an upper cell can bank (:func:`bank_gains`)."""
    BANK_LOWER = 10
    """The most throws a turn recording or scratching a lower cell can bank."""
    BANK_COLUMN = 11
    """The most throws the turns of one whole column can bank."""


class FCfg(IntEnum):
    """The slots of a variant's float configuration vector (:attr:`Tables.fcfg`)."""

    EXTRA_BONUS = 0
    """Points of each further Yahtzee once the Yahtzee cell holds a score (``extra_yahtzee_bonus``)."""
    BANK_VALUE = 1
    """Points of each throw still banked when the sheet is full (``bank_value``)."""


OPEN = -(1 << 62)
"""An open cell in a position row (:data:`POSITION`): no cell can score this."""
POSITION = ("banked", "throws", "die 1", "die 2", "die 3", "die 4", "die 5", "announced")
"""A position row as the compiled advisor takes it: every cell of the sheet (column by
column, in table order, :data:`OPEN` where open), then these: the banked throws (0 on a
sheet that banks none), the throws made this turn, the five dice on the table (0s before
the first throw) and the index of the announced cell in its column (−1 for none)."""
Q_BANKED, Q_THROWS, Q_DICE, Q_ANNOUNCED = 0, 1, 2, 7
"""Where those fields stand after the cells."""
SPOT = (
    "column",
    "lower mask",
    "upper mask",
    "pair",
    "flag",
    "bank",
    "left",
    "dice",
    "announced",
    "throws",
    "reach",
    "status",
)
"""What :func:`kosti.solver.kernels.locate` makes of a position row: the solver's state, the bank
at the start of the turn and the throws left (as the solver counts them), the index of the dice,
the announced cell, the throws made, the most the recorded cells can have banked, and 0 or why
the row is no position of the sheet (:data:`BAD_BANK`, :data:`BAD_UPPER`, :data:`BAD_DICE`,
:data:`BAD_ANNOUNCED`)."""
S_COLUMN, S_LM, S_UM, S_PAIR, S_FLAG, S_BANK, S_LEFT, S_DICE, S_ANNOUNCED, S_THROWS, S_REACH, S_STATUS = (
    range(len(SPOT))
)
N_SPOT = len(SPOT)
BAD_BANK, BAD_UPPER, BAD_DICE, BAD_ANNOUNCED = range(1, 5)


@dataclass(frozen=True)
class DiceTables:
    """Tables of the 252 throws of five dice and of the holds, shared by every sheet."""

    counts: npt.NDArray[np.int64]
    """``counts[d, f]``: dice of face ``f + 1`` in throw ``d``."""
    prob: F64
    """Probability of throw ``d`` when all five dice are thrown."""
    add: I64
    """``add[m, f]``: index in :data:`ALL` of multiset ``m`` plus one die ``f + 1`` (−1 at five)."""
    subs: I64
    """``subs[m]``: ``m`` less one die, one entry per distinct face, then :data:`FIVE` (which
    stands for no multiset) up to five entries."""
    yahtzee: I64
    """``yahtzee[d]``: the face of five of a kind, 0 otherwise."""
    count_move: F64
    """``count_move[n, n2]``: chance that holding ``min(n, 4)`` dice of a face and throwing the
    rest shows ``n2`` of that face (the chase of one upper cell)."""
    all_counts: I64
    """``all_counts[m, f]``: dice of face ``f + 1`` in multiset ``m`` of :data:`ALL`."""
    lut: I64
    """``lut[code]``: the index in :data:`ALL` of the multiset whose face counts are the base-6
    digits of ``code``."""
    hold_ptr: I64
    hold_idx: I64
    """``hold_idx[hold_ptr[d]:hold_ptr[d + 1]]``: the holds of throw ``d`` (its sub-multisets of
    at most four dice, as indices in :data:`ALL`, in the engine's order)."""


@cache
def dice_tables() -> DiceTables:
    """The tables of the five dice (built once per process)."""
    cnt = np.array([counts(d) for d in DICE], dtype=np.int64)
    prob = np.array([float(probability(d)) for d in DICE])
    add = np.full((len(ALL), 6), -1, dtype=np.int64)
    ptr = [0]
    idx: list[int] = []
    for i, m in enumerate(ALL):
        if len(m) < 5:
            for f in range(6):
                add[i, f] = INDEX[tuple(sorted((*m, f + 1)))]
        for f in sorted(set(m)):
            rest = list(m)
            rest.remove(f)
            idx.append(INDEX[tuple(rest)])
        ptr.append(len(idx))
    yahtzee = np.array([d[0] if len(set(d)) == 1 else 0 for d in DICE], dtype=np.int64)
    move = np.zeros((6, 6))
    for n in range(6):
        kept = min(n, 4)
        thrown = 5 - kept
        for hits in range(thrown + 1):
            chance = Fraction(comb(thrown, hits)) * Fraction(1, 6) ** hits * Fraction(5, 6) ** (thrown - hits)
            move[n, kept + hits] += float(chance)
    all_counts = np.array([counts(m) for m in ALL], dtype=np.int64)
    lut = np.full(6**6, -1, dtype=np.int64)
    for i, m in enumerate(ALL):
        lut[sum(6 ** (f - 1) for f in m)] = i
    hold_ptr = [0]
    hold_idx: list[int] = []
    for d in DICE:
        hold_idx.extend(INDEX[h] for h in submultisets(d) if len(h) < 5)
        hold_ptr.append(len(hold_idx))
    subs = np.full((len(ALL), 5), FIVE, dtype=np.int64)
    for k in range(len(ALL)):
        subs[k, : ptr[k + 1] - ptr[k]] = idx[ptr[k] : ptr[k + 1]]
    return DiceTables(
        cnt,
        prob,
        add,
        subs,
        yahtzee,
        move,
        all_counts,
        lut,
        np.array(hold_ptr, dtype=np.int64),
        np.array(hold_idx, dtype=np.int64),
    )


class Tables(NamedTuple):
    """Everything the kernels read about a variant and the dice, handed over as one value."""

    cfg: I64
    """The variant's integers, slot by slot as :class:`Cfg` names them."""
    fcfg: F64
    """The variant's floats, slot by slot as :class:`FCfg` names them."""
    kinds: I64
    pair_um: I64
    next_pair: I64
    up_reward: F64
    lower_score: F64
    joker_score: F64
    counts: I64
    prob: F64
    yahtzee: I64
    add: I64
    subs: I64
    count_move: F64
    all_counts: I64
    lut: I64
    hold_ptr: I64
    hold_idx: I64
    slot: I64
    top: I64
    pair_range: I64
    pair_table: I64
    allowed: I64
    """Where the column and stage rules allow a record (:attr:`~kosti.solver.legal.RuleTables.allowed`)."""
    joker_faces: I64
    """The five alike that are a joker (:attr:`~kosti.solver.legal.RuleTables.joker_faces`)."""
    joker_cells: I64
    """Where a joker may be recorded (:attr:`~kosti.solver.legal.RuleTables.joker_cells`)."""


class Packed(NamedTuple):
    """:class:`Tables` in three arrays, as the compiled entry points take them: a call with
    a tuple of 25 arrays costs several microseconds to hand over, three arrays a fraction.

    Field ``k`` of the tables (in their order) is ``ints`` (integer fields) or ``floats``
    from ``meta[k, 0]``, ``meta[k, 1]`` values long, of shape ``meta[k, 2:2 + ndim]``.
    """

    ints: I64
    floats: F64
    meta: I64


def pack(tables: Tables) -> Packed:
    """The tables in three arrays (:class:`Packed`); the kernels unpack them without copying."""
    meta = np.zeros((len(tables), 6), dtype=np.int64)
    parts: dict[bool, list[npt.NDArray[np.generic]]] = {True: [], False: []}
    used = {True: 0, False: 0}
    for k, array in enumerate(tables):
        is_int = array.dtype == np.int64
        meta[k, 0] = used[is_int]
        meta[k, 1] = array.size
        meta[k, 2 : 2 + array.ndim] = array.shape
        parts[is_int].append(array.ravel())
        used[is_int] += array.size
    ints = np.concatenate(parts[True]).astype(np.int64)
    floats = np.concatenate(parts[False]).astype(np.float64)
    return Packed(ints, floats, meta)


class Layout(NamedTuple):
    """Where each state's values stand in the flat table of a solution.

    ``slot[column, lower mask, upper pair, flag]`` is the offset of the state's value with no
    banked throw (−1 for a state the rules never reach); its values for banks ``0..top[…]``
    follow it. ``top`` is the most the state can hold (at most the cap): a larger bank is
    read as ``top``, since no state is passed more than it can hold unless the cap forfeits it.
    """

    slot: I64
    top: I64
    size: int


@dataclass(frozen=True)
class Model:
    """The solver's view of one variant: what each cell scores and where each state leads."""

    options: SheetOptions
    cap: int
    """Banked throws the solver keeps track of; throws banked beyond it are forfeited."""
    exact_cap: int
    """The most throws a sheet could ever bank: a cap at least this large is no cap."""
    lower: tuple[str, ...]
    kinds: I64
    """Column kinds, ``KIND_FREE`` / ``KIND_ANNOUNCED`` / ``KIND_ORDERED``."""
    cfg: I64
    """The integer configuration, slot by slot as :class:`Cfg` names them."""
    fcfg: F64
    """The float configuration, slot by slot as :class:`FCfg` names them."""
    lower_score: F64
    """``lower_score[first, c, d]``: lower cell ``c`` for throw ``d`` (``first``: made on throw 1)."""
    joker_score: F64
    """``joker_score[first, c, face]``: lower cell ``c`` for five ``face``s played as a joker."""
    upper_score: F64
    """``upper_score[f, n]``: the upper cell of face ``f + 1`` with ``n`` such dice."""
    pair_um: I64
    pair_t: I64
    next_pair: I64
    """``next_pair[p, f, n]``: the pair after recording ``n`` dice of face ``f + 1`` (−1 if filled)."""
    up_reward: F64
    """``up_reward[p, f, n]``: that record's score plus the upper bonus if it completes the section."""
    pair_index: dict[tuple[int, int], int]
    clamp_lo: I64
    clamp_hi: I64
    """Per upper mask, the range of totals the bonus can still tell apart."""
    tracks_total: bool
    rules: RuleTables
    """Where the rules let a throw be recorded, asked of the engine."""

    @property
    def throws(self) -> int:
        return int(self.cfg[Cfg.THROWS])

    @cached_property
    def tables(self) -> Tables:
        """The model's and the dice's tables, as the kernels take them."""
        t = dice_tables()
        return Tables(
            self.cfg,
            self.fcfg,
            self.kinds,
            self.pair_um,
            self.next_pair,
            self.up_reward,
            self.lower_score,
            self.joker_score,
            t.counts,
            t.prob,
            t.yahtzee,
            t.add,
            t.subs,
            t.count_move,
            t.all_counts,
            t.lut,
            t.hold_ptr,
            t.hold_idx,
            self.layout.slot,
            self.layout.top,
            self.pair_range,
            self.pair_table,
            self.rules.allowed,
            self.rules.joker_faces,
            self.rules.joker_cells,
        )

    @property
    def n_lower(self) -> int:
        return len(self.lower)

    @property
    def n_columns(self) -> int:
        return len(self.kinds)

    @property
    def flags(self) -> int:
        return int(self.cfg[Cfg.FLAGS])

    @cached_property
    def packed(self) -> Packed:
        """:attr:`tables` as the compiled entry points take them."""
        return pack(self.tables)

    def state_shape(self) -> tuple[int, int, int, int]:
        """The dimensions of a state between turns: column, lower mask, upper pair, flag."""
        return (self.n_columns, 1 << self.n_lower, len(self.pair_um), self.flags)

    @cached_property
    def layout(self) -> Layout:
        """The reachable states and their rows of values (every bank each can hold)."""
        slot = np.full(self.state_shape(), -1, dtype=np.int64)
        top = np.zeros(self.state_shape(), dtype=np.int64)
        size = 0
        for col in range(self.n_columns):
            for lms, ps, ys in self.column_states(col):
                tops = np.minimum(reach(self.cfg, col, self.pair_um[ps], lms), self.cap)
                ends = size + np.cumsum(tops + 1)
                slot[col, lms, ps, ys] = ends - tops - 1
                top[col, lms, ps, ys] = tops
                size = int(ends[-1]) if len(ends) else size
        return Layout(slot, top, size)

    def offset(self, column: int, lm: int, pair: int, flag: int, bank: int) -> int:
        """Where a state's value with ``bank`` banked throws stands in a solution's table."""
        slot = int(self.layout.slot[column, lm, pair, flag])
        if slot < 0:
            raise KeyError(f"the state {(column, lm, pair, flag)} is never reached")
        return slot + min(bank, int(self.layout.top[column, lm, pair, flag]))

    @cached_property
    def pair_range(self) -> I64:
        """``pair_range[um]``: the range ``(lo, hi)`` of upper totals the pairs of upper mask ``um``
        tell apart (a total outside it counts as the nearer end; ``(0, 0)`` when the total does not
        matter: no bonus to tell, or a full section, whose bonus is paid)."""
        ranges = np.zeros((FULL_UPPER + 1, 2), dtype=np.int64)
        if self.tracks_total:
            ranges[:FULL_UPPER, 0] = self.clamp_lo[:FULL_UPPER]
            ranges[:FULL_UPPER, 1] = self.clamp_hi[:FULL_UPPER]
        return ranges

    @cached_property
    def pair_table(self) -> I64:
        """``pair_table[um, t - lo]``: the pair of upper mask ``um`` with total ``t`` clamped to
        :attr:`pair_range` (−1 where no sheet reaches it)."""
        ranges = self.pair_range
        table = np.full((FULL_UPPER + 1, int((ranges[:, 1] - ranges[:, 0]).max()) + 1), -1, dtype=np.int64)
        for (um, t), p in self.pair_index.items():
            table[um, t - ranges[um, 0]] = p
        return table

    def pair_of(self, upper_mask: int, total: int) -> int:
        """The pair index of recorded upper cells ``upper_mask`` with this upper total."""
        lo, hi = (int(x) for x in self.pair_range[upper_mask])
        pair = int(self.pair_table[upper_mask, min(max(total, lo), hi) - lo])
        if pair < 0:
            raise KeyError(f"no sheet has upper cells {upper_mask:06b} recorded with a total of {total}")
        return pair

    @cached_property
    def reachable(self) -> list[npt.NDArray[np.bool_]]:
        """Per column, ``reachable[column][recorded]``: the rules let that column come to have the
        cells ``recorded`` recorded (a mask in table order, :mod:`kosti.solver.legal`)."""
        return [self.rules.reachable(column) for column in range(self.n_columns)]

    def column_states(self, column: int) -> list[tuple[I64, I64, I64]]:
        """The states of a column by number of recorded cells, fullest first: (lower masks, pairs, flags).

        A column's complete state is not listed (it is the next column's start), nor a state
        that no records the rules allow lead to (:meth:`~kosti.solver.legal.RuleTables.reachable`).
        """
        n_lower = self.n_lower
        full_lm = (1 << n_lower) - 1
        lm = np.arange(1 << n_lower, dtype=np.int64)
        pairs = np.arange(len(self.pair_um), dtype=np.int64)
        lm_grid, p_grid = np.meshgrid(lm, pairs, indexing="ij")
        lm_flat = lm_grid.ravel()
        p_flat = p_grid.ravel()
        um_flat = self.pair_um[p_flat]
        valid = ~((lm_flat == full_lm) & (um_flat == FULL_UPPER))
        valid &= self.reachable[column][um_flat | lm_flat << len(UPPER_CELLS)]
        lm_flat = lm_flat[valid]
        p_flat = p_flat[valid]
        filled = popcount(lm_flat) + popcount(self.pair_um[p_flat])
        yc = int(self.cfg[Cfg.YAHTZEE_CELL])
        levels = []
        for level in range(len(UPPER_CELLS) + n_lower - 1, -1, -1):
            at = filled == level
            lms = lm_flat[at]
            ps = p_flat[at]
            ys = np.zeros(len(lms), dtype=np.int64)
            if self.flags == 2:
                # the flag is 1 only with a Yahtzee recorded (in column I), or inherited in later columns
                with_flag = np.ones(len(lms), dtype=bool) if column > 0 else ((lms >> yc) & 1) == 1
                lms = np.concatenate([lms, lms[with_flag]])
                ps = np.concatenate([ps, ps[with_flag]])
                ys = np.concatenate([ys, np.ones(int(with_flag.sum()), dtype=np.int64)])
            levels.append((lms, ps, ys))
        return levels


def reach(cfg: I64, column: int, upper_masks: I64, lower_masks: I64) -> I64:
    """The most throws states of ``column`` with these recorded cells can have banked."""
    return (
        int(cfg[Cfg.BANK_COLUMN]) * column
        + int(cfg[Cfg.BANK_UPPER]) * popcount(upper_masks)
        + int(cfg[Cfg.BANK_LOWER]) * popcount(lower_masks)
    )


def popcount(a: I64) -> I64:
    """The number of bits set in each of ``a`` (recorded cells in a mask)."""
    result = np.zeros_like(a)
    x = a.copy()
    while np.any(x):
        result += x & 1
        x >>= 1
    return result


def bank_gains(options: SheetOptions) -> tuple[int, int]:
    """The most throws one turn can bank when it records an upper cell (after the first throw)
    and a lower cell (scratched before the first throw, where scratching is allowed)."""
    if not options.banked_throws:
        return 0, 0
    return options.throws - 1, options.throws if options.scratch else options.throws - 1


def exact_bank_cap(options: SheetOptions) -> int:
    """The most throws a sheet could ever bank: every turn banking all it can.

    A state can hold at most the banks of the cells recorded so far (``bank_gains`` each);
    the solver solves each state only that far."""
    upper_gain, lower_gain = bank_gains(options)
    n_columns = len(options.column_kinds)
    return n_columns * (len(UPPER_CELLS) * upper_gain + len(options.lower) * lower_gain)


def default_cap(options: SheetOptions) -> int:
    """The bank cap used unless one is asked for: none (every bank a sheet can reach)."""
    return exact_bank_cap(options)


def build_model(options: SheetOptions, cap: int | None = None) -> Model:
    """The solver's tables for a sheet with these options.

    ``cap`` limits the banked throws the solver tracks (default: none, :func:`default_cap`).
    The joker rule is the option ``joker`` (``forced``, ``free`` or ``none``).
    Raises :class:`OptionError` for a sheet the solver cannot represent.
    """
    exact = exact_bank_cap(options)
    if cap is None:
        cap = default_cap(options)
    if cap < 0:
        raise OptionError("the bank cap cannot be negative")
    cap = min(cap, exact)
    lower = options.lower
    if len(lower) > 12:
        raise OptionError("the solver handles at most 12 lower cells")
    tables = dice_tables()
    n_lower = len(lower)

    lower_score = np.zeros((2, n_lower, len(DICE)))
    joker_score = np.zeros((2, n_lower, 7))
    for first in (0, 1):
        for c, cell in enumerate(lower):
            for d, dice in enumerate(DICE):
                lower_score[first, c, d] = cell_score(cell, dice, options, first_throw=bool(first))
            for face in range(1, 7):
                joker_score[first, c, face] = cell_score(
                    cell, (face,) * 5, options, first_throw=bool(first), joker=True
                )
    if np.any(lower_score < 0) or np.any(joker_score < 0):
        raise OptionError("the solver needs lower cells that never score below 0")

    upper_score = np.full((6, 6), np.nan)
    for d, dice in enumerate(DICE):
        for f, cell in enumerate(UPPER_CELLS):
            n = int(tables.counts[d, f])
            s = cell_score(cell, dice, options)
            if not np.isnan(upper_score[f, n]) and upper_score[f, n] != s:  # pragma: no cover - rules
                raise OptionError("an upper cell must score by the count of its face")
            upper_score[f, n] = s
    pairs, pair_index, clamp_lo, clamp_hi, tracks = _upper_pairs(options, upper_score)
    pair_um = np.array([um for um, _ in pairs], dtype=np.int64)
    pair_t = np.array([t for _, t in pairs], dtype=np.int64)
    next_pair = np.full((len(pairs), 6, 6), -1, dtype=np.int64)
    up_reward = np.zeros((len(pairs), 6, 6))
    for p, (um, t) in enumerate(pairs):
        for f in range(6):
            if um >> f & 1:
                continue
            um2 = um | 1 << f
            for n in range(6):
                s = int(upper_score[f, n])
                total = t + s
                reward = float(s)
                if um2 == FULL_UPPER:
                    reward += upper_bonus(total, options)
                    key = (FULL_UPPER, 0)
                elif tracks:
                    key = (um2, min(max(total, int(clamp_lo[um2])), int(clamp_hi[um2])))
                else:
                    key = (um2, 0)
                next_pair[p, f, n] = pair_index[key]
                up_reward[p, f, n] = reward

    kinds = np.array([COLUMN_KINDS.index(kind) for kind in options.column_kinds], dtype=np.int64)
    yc = yahtzee_cell(options)
    track_y = bool(options.extra_yahtzee_bonus) and yc >= 0
    cfg = np.zeros(len(Cfg), dtype=np.int64)
    cfg[Cfg.THROWS] = options.throws
    cfg[Cfg.BANK_CAP] = cap
    cfg[Cfg.N_LOWER] = n_lower
    cfg[Cfg.N_COLUMNS] = len(kinds)
    cfg[Cfg.FULL_LOWER] = (1 << n_lower) - 1
    cfg[Cfg.YAHTZEE_CELL] = yc
    cfg[Cfg.FLAGS] = 2 if track_y else 1
    cfg[Cfg.SCRATCH] = int(options.scratch)
    cfg[Cfg.START_PAIR] = pair_index[(0, 0)]
    upper_gain, lower_gain = bank_gains(options)
    cfg[Cfg.BANK_UPPER] = upper_gain
    cfg[Cfg.BANK_LOWER] = lower_gain
    cfg[Cfg.BANK_COLUMN] = len(UPPER_CELLS) * upper_gain + n_lower * lower_gain
    fcfg = np.zeros(len(FCfg))
    fcfg[FCfg.EXTRA_BONUS] = options.extra_yahtzee_bonus
    fcfg[FCfg.BANK_VALUE] = options.bank_value
    return Model(
        options,
        cap,
        exact,
        lower,
        kinds,
        cfg,
        fcfg,
        lower_score,
        joker_score,
        upper_score,
        pair_um,
        pair_t,
        next_pair,
        up_reward,
        pair_index,
        clamp_lo,
        clamp_hi,
        tracks,
        rule_tables(options),
    )


def _upper_pairs(
    options: SheetOptions, upper_score: F64
) -> tuple[list[tuple[int, int]], dict[tuple[int, int], int], I64, I64, bool]:
    """The reachable (upper mask, clamped total) pairs, and the clamp range per mask.

    The upper bonus is a step function of the final total; outside the steps it
    cannot change, so a total below ``lowest step − 1 − what the open cells can
    still add`` (or above ``highest step − what they can still take away``) is as
    good as that bound.
    """
    best = upper_score.max(axis=1)
    worst = upper_score.min(axis=1)
    low_total = int(worst.sum())
    high_total = int(best.sum())
    steps = [
        x
        for x in range(low_total + 1, high_total + 1)
        if upper_bonus(x, options) != upper_bonus(x - 1, options)
    ]
    tracks = bool(steps)
    clamp_lo = np.zeros(FULL_UPPER + 1, dtype=np.int64)
    clamp_hi = np.zeros(FULL_UPPER + 1, dtype=np.int64)
    if tracks:
        for um in range(FULL_UPPER + 1):
            open_faces = [f for f in range(6) if not um >> f & 1]
            clamp_lo[um] = steps[0] - 1 - int(sum(best[f] for f in open_faces))
            clamp_hi[um] = steps[-1] - int(sum(worst[f] for f in open_faces))
    reach: dict[int, set[int]] = {0: {0}}
    for um in sorted(range(FULL_UPPER + 1), key=lambda m: bin(m).count("1")):
        if um == FULL_UPPER:
            break
        for t in reach.get(um, set()):
            for f in range(6):
                if um >> f & 1:
                    continue
                um2 = um | 1 << f
                for n in range(6):
                    if um2 == FULL_UPPER or not tracks:
                        t2 = 0
                    else:
                        t2 = min(max(t + int(upper_score[f, n]), int(clamp_lo[um2])), int(clamp_hi[um2]))
                    reach.setdefault(um2, set()).add(t2)
    pairs = [(um, t) for um in range(FULL_UPPER + 1) for t in sorted(reach.get(um, ()))]
    index = {pair: i for i, pair in enumerate(pairs)}
    return pairs, index, clamp_lo, clamp_hi, tracks
