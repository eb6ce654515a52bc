"""The compiled inner loops of the solver, the advisor and the simulator (numba).

Importing this module imports numba; nothing is compiled until a task asks for the kernels it
needs (:func:`kosti.solver.jit.prepare`): only the code that must run a kernel imports it (a
cached answer, ``kosti --help`` and the terminal game's start never do).

The entry points (:func:`~kosti.solver.jit.kernel`) are few and each does one job for one kind
of column: :func:`solve_level` and :func:`solve_announced_level` solve a level of states,
:func:`position_values_batch` and :func:`announced_values_batch` value positions, with the
column's kind decided by the function they hand the shared code (:func:`first_holds` or
:func:`first_announcements`, :func:`later_holds` or :func:`later_announced`), so that a sheet
with no announced column never compiles the chase of an announced cell. The large pieces they
share are helpers (:func:`~kosti.solver.jit.helper`), compiled once per process; the small ones, and
those with a single caller, are copied into their callers (:func:`~kosti.solver.jit.inline`).

One turn of one state is solved over the 252 throws of five dice. With ``j`` throws
left (banked ones included) the dice ``d`` are worth

    W_j(d) = max(record now, best hold),   best hold = max over holds h of E_{j−1}(h),

where the hold's value ``E`` comes from ``W`` by averaging one die at a time
(``E(h) = mean over faces f of E(h + f)``, exact because throwing ``5 − |h|`` dice is
throwing them one after another), and the best hold of each throw is a maximum over
its sub-multisets built the same way. Recording after throw ``k`` banks ``3 − k`` and
a throw past the third spends one, so the bank after recording is always the number
``j`` of throws that were left: the chain ``W_0, W_1, …`` serves every bank at once,
and only the first throw (its multiplier, column II's announcement) needs its own pass.

The kernels decide no rule of the sheet: the cells a throw may be recorded in and what a
joker does are read from tables of the engine's own answers (:mod:`kosti.solver.legal`), and
the variant's numbers from its configuration vectors, by the slots :class:`~kosti.solver.model.Cfg`
and :class:`~kosti.solver.model.FCfg` name.

Every helper takes the variant's tables as one :class:`~kosti.solver.model.Tables`; the
entry points called from Python take them packed in three arrays
(:class:`~kosti.solver.model.Packed`, ``ints, floats, meta``), which are quick to hand over.
A value table ``V`` is flat: the state ``(column, lower mask, upper pair, flag)`` with ``b``
banked throws is ``V[slot[state] + min(b, top[state])]`` (:class:`~kosti.solver.model.Layout`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from kosti.solver.jit import helper, inline, kernel
from kosti.solver.legal import FULL_UPPER, UPPER
from kosti.solver.model import (
    BAD_ANNOUNCED,
    BAD_BANK,
    BAD_DICE,
    BAD_UPPER,
    F64,
    FIVE,
    I64,
    KIND_ANNOUNCED,
    LANES,
    N_SPOT,
    OPEN,
    Q_ANNOUNCED,
    Q_BANKED,
    Q_DICE,
    Q_THROWS,
    S_ANNOUNCED,
    S_BANK,
    S_COLUMN,
    S_DICE,
    S_FLAG,
    S_LEFT,
    S_LM,
    S_PAIR,
    S_REACH,
    S_STATUS,
    S_THROWS,
    S_UM,
    Cfg,
    FCfg,
    Tables,
)

NEG = -1e300

PACKED = "int64[::1], float64[::1], int64[:, ::1]"
"""The packed tables (:class:`~kosti.solver.model.Packed`) in numba's notation, as every
kernel's signature begins."""


# -- the tables, unpacked -----------------------------------------------------------------------

# The views of a table are copied into their callers (``inline``): as calls, each query's
# ``unpack`` pays two dozen of them, which costs a single hint about 4 % against yatzy-solver
# (bench/advisor.py); copying them costs next to nothing to compile.


@inline
def _a1(buf: Any, meta: I64, k: int) -> Any:
    return buf[meta[k, 0] : meta[k, 0] + meta[k, 1]]


@inline
def _a2(buf: Any, meta: I64, k: int) -> Any:
    return _a1(buf, meta, k).reshape((meta[k, 2], meta[k, 3]))


@inline
def _a3(buf: Any, meta: I64, k: int) -> Any:
    return _a1(buf, meta, k).reshape((meta[k, 2], meta[k, 3], meta[k, 4]))


@inline
def _a4(buf: Any, meta: I64, k: int) -> Any:
    return _a1(buf, meta, k).reshape((meta[k, 2], meta[k, 3], meta[k, 4], meta[k, 5]))


@helper
def unpack(ints: I64, floats: F64, meta: I64) -> Tables:
    """The tables from :func:`~kosti.solver.model.pack` (views, no copy), field by field in
    the order of :class:`~kosti.solver.model.Tables`."""
    return Tables(
        _a1(ints, meta, 0),
        _a1(floats, meta, 1),
        _a1(ints, meta, 2),
        _a1(ints, meta, 3),
        _a3(ints, meta, 4),
        _a3(floats, meta, 5),
        _a3(floats, meta, 6),
        _a3(floats, meta, 7),
        _a2(ints, meta, 8),
        _a1(floats, meta, 9),
        _a1(ints, meta, 10),
        _a2(ints, meta, 11),
        _a2(ints, meta, 12),
        _a2(floats, meta, 13),
        _a2(ints, meta, 14),
        _a1(ints, meta, 15),
        _a1(ints, meta, 16),
        _a1(ints, meta, 17),
        _a4(ints, meta, 18),
        _a4(ints, meta, 19),
        _a2(ints, meta, 20),
        _a2(ints, meta, 21),
        _a2(ints, meta, 22),
        _a2(ints, meta, 23),
        _a3(ints, meta, 24),
    )


@kernel()
def unpacked(ints: I64, floats: F64, meta: I64) -> Tables:
    """:func:`unpack` called from Python (to check it against the tables)."""
    return unpack(ints, floats, meta)


# -- the rules, read from the engine's tables (kosti.solver.legal) ---------------------------


@inline
def allowed(T: Tables, col: int, um: int, lm: int) -> tuple[int, int]:
    """The cells the column and stage rules allow now in column ``col``, the upper cells ``um``
    and lower cells ``lm`` recorded, as (upper bits, lower bits): the open ones among those
    :attr:`~kosti.solver.legal.RuleTables.allowed` lists for the first open cell."""
    open_ = (FULL_UPPER & ~um) | ((T.cfg[Cfg.FULL_LOWER] & ~lm) << UPPER)
    if open_ == 0:
        return 0, 0
    first = 0
    while not (open_ >> first) & 1:
        first += 1
    cells = open_ & T.allowed[col, first]
    return cells & FULL_UPPER, cells >> UPPER


@inline
def jokers_of(T: Tables, col: int, um: int, lm: int) -> int:
    """The faces whose five alike are a joker now, in column ``col`` with the upper cells ``um``
    and lower cells ``lm`` recorded: bit ``f`` for five ``f``s, never bit 0, so that bit
    ``T.yahtzee[d]`` tells of any throw ``d``. Read from
    :attr:`~kosti.solver.legal.RuleTables.joker_faces`: the joker rule reads column I, which is
    full once a later column is played."""
    if col > 0:
        return int(T.joker_faces[FULL_UPPER, 1])
    yc = T.cfg[Cfg.YAHTZEE_CELL]
    return int(T.joker_faces[um, (lm >> yc) & 1 if yc >= 0 else 0])


@inline
def joker_allowed(T: Tables, face: int, ua: int, la: int) -> tuple[int, int]:
    """Where five ``face``s played as a joker may be recorded among the allowed cells ``ua``,
    ``la`` (upper bits, lower bits), from :attr:`~kosti.solver.legal.RuleTables.joker_cells`."""
    cells = T.joker_cells[face - 1, (ua >> (face - 1)) & 1, 1 if la else 0]
    return ua & cells, la & (cells >> UPPER)


# -- one state's successors ------------------------------------------------------------------


@inline
def fill_next(
    cfg: I64,
    fcfg: F64,
    pair_um: I64,
    slot: I64,
    top: I64,
    V: F64,
    col: int,
    lm: int,
    p: int,
    y: int,
    reward: float,
    out: F64,
) -> None:
    """``out[j] = reward +`` the value of a state between turns with ``j`` banked throws, for every ``j``.

    (The hot helpers take single arrays, not the tables: every array taken out of the tuple
    in a loop would count a reference.)"""
    n = out.shape[0]
    if lm == cfg[Cfg.FULL_LOWER] and pair_um[p] == FULL_UPPER:
        if col + 1 < cfg[Cfg.N_COLUMNS]:
            col += 1
            lm = 0
            p = cfg[Cfg.START_PAIR]
        else:
            B = cfg[Cfg.BANK_CAP]
            for j in range(n):
                out[j] = reward + (j if j < B else B) * fcfg[FCfg.BANK_VALUE]
            return
    base = slot[col, lm, p, y]
    if cfg[Cfg.BANK_CAP] == 0:
        # no bank: one value per state (and its ``top`` need not be read)
        v = reward + V[base]
        for j in range(n):
            out[j] = v
        return
    t = top[col, lm, p, y]
    for j in range(n):
        out[j] = reward + V[base + (j if j < t else t)]


@helper
def successors(
    T: Tables,
    V: F64,
    col: int,
    lm: int,
    p: int,
    y: int,
    ua: int,
    la: int,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
    maxVz: F64,
) -> None:
    """What each allowed record leads to, for every bank ``j`` after it.

    ``Uv[f, n, j]``: recording ``n`` dice of face ``f + 1`` in its upper cell (score, bonus,
    future); ``Vz[c, j]`` / ``Vnz[c, j]``: the future after lower cell ``c`` scored 0 / above 0
    (they differ only for the Yahtzee cell, whose 50 arms the extra bonus);
    ``maxVz[j]``: the best future after a 0 in an allowed lower cell.
    """
    cfg = T.cfg
    fcfg = T.fcfg
    pair_um = T.pair_um
    slot = T.slot
    top = T.top
    next_pair = T.next_pair
    up_reward = T.up_reward
    jm = Uv.shape[2]
    for f in range(6):
        if (ua >> f) & 1:
            for n in range(6):
                q = next_pair[p, f, n]
                fill_next(cfg, fcfg, pair_um, slot, top, V, col, lm, q, y, up_reward[p, f, n], Uv[f, n])
    for j in range(jm):
        maxVz[j] = NEG
    for c in range(cfg[Cfg.N_LOWER]):
        if (la >> c) & 1:
            lm2 = lm | (1 << c)
            y2 = 1 if (c == cfg[Cfg.YAHTZEE_CELL] and col == 0 and cfg[Cfg.FLAGS] == 2) else y
            fill_next(cfg, fcfg, pair_um, slot, top, V, col, lm2, p, y, 0.0, Vz[c])
            if y2 == y:
                for j in range(jm):
                    Vnz[c, j] = Vz[c, j]
            else:
                fill_next(cfg, fcfg, pair_um, slot, top, V, col, lm2, p, y2, 0.0, Vnz[c])
            for j in range(jm):
                if Vz[c, j] > maxVz[j]:
                    maxVz[j] = Vz[c, j]


# -- recording ---------------------------------------------------------------------------------


@helper
def records(
    T: Tables,
    j0: int,
    j1: int,
    first: int,
    ua: int,
    la: int,
    jokers: int,
    y: int,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
    maxVz: F64,
    out: F64,
) -> None:
    """``out[j - j0, d]``: the best record (or scratch) of each throw ``d`` with ``j`` throws
    left, for ``j0 ≤ j ≤ j1``, among the cells the engine allows (``ua``, ``la``: :func:`allowed`;
    ``jokers``: :func:`jokers_of`)."""
    cfg = T.cfg
    counts = T.counts
    nd = counts.shape[0]
    rows = j1 - j0 + 1
    # with no bank the future after a record does not depend on the throws left: one row
    # is worked out and copied
    nj = 1 if cfg[Cfg.BANK_CAP] == 0 else rows
    # the allowed upper cells' values by count, and the lower cells' after a score: small
    # tables read for each throw
    faces = np.empty(6, dtype=np.int64)
    uj = np.empty((6, 6, nj))
    nu = 0
    for f in range(6):
        if (ua >> f) & 1:
            faces[nu] = f
            for n in range(6):
                for k in range(nj):
                    uj[nu, n, k] = Uv[f, n, j0 + k]
            nu += 1
    L = cfg[Cfg.N_LOWER]
    vnz = np.empty((L, nj))
    for c in range(L):
        for k in range(nj):
            vnz[c, k] = Vnz[c, j0 + k]
    lower_score = T.lower_score[first]
    for k in range(nj):
        # cell by cell over every throw: the throws are independent, so the running maxima
        # are not one chain of dependent steps per throw
        row = out[k]
        b = maxVz[j0 + k] if la else NEG
        for d in range(nd):
            row[d] = b
        for i in range(nu):
            f = faces[i]
            for d in range(nd):
                row[d] = max(row[d], uj[i, counts[d, f], k])
        for c in range(L):
            if (la >> c) & 1:
                # a 0 is worth no more than a dash (the row starts there)
                vz = Vz[c, j0 + k]
                vp = vnz[c, k]
                score = lower_score[c]
                for d in range(nd):
                    s = score[d]
                    row[d] = max(row[d], s + (vp if s > 0 else vz))
    extra = T.fcfg[FCfg.EXTRA_BONUS]
    joker_score = T.joker_score
    for yf in range(1, 7):
        d = T.lut[5 * 6 ** (yf - 1)] - FIVE
        if (jokers >> yf) & 1:
            # a joker goes only where the joker rule lets it, scoring its joker score there
            ju, jl = joker_allowed(T, yf, ua, la)
            for k in range(nj):
                j = j0 + k
                best = NEG
                for c in range(L):
                    if (jl >> c) & 1:
                        s = joker_score[first, c, yf]
                        v = s + (Vnz[c, j] if s > 0 else Vz[c, j])
                        if v > best:
                            best = v
                for f in range(6):
                    if (ju >> f) & 1:
                        v = Uv[f, counts[d, f], j]
                        if v > best:
                            best = v
                out[k, d] = best
        for k in range(nj):
            j = j0 + k
            if y == 1:
                out[k, d] += extra
            if cfg[Cfg.SCRATCH] and la and maxVz[j] > out[k, d]:
                out[k, d] = maxVz[j]
    for k in range(nj, rows):
        for d in range(nd):
            out[k, d] = out[0, d]


@inline
def record_all(
    T: Tables,
    j: int,
    first: int,
    ua: int,
    la: int,
    jokers: int,
    y: int,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
    maxVz: F64,
    out: F64,
) -> None:
    """``out[d]``: the best record (or scratch) of each throw ``d`` with ``j`` left (:func:`records`)."""
    records(T, j, j, first, ua, la, jokers, y, Uv, Vz, Vnz, maxVz, out.reshape((1, out.shape[0])))


@inline
def cell_value(
    T: Tables, j: int, first: int, cell: int, d: int, jokers: int, y: int, Uv: F64, Vz: F64, Vnz: F64
) -> float:
    """Recording throw ``d`` in ``cell`` (0–5 upper, 6+ lower) with ``j`` throws left (``jokers``:
    :func:`jokers_of`)."""
    if cell < 6:
        v = Uv[cell, T.counts[d, cell], j]
    else:
        c = cell - 6
        s = T.lower_score[first, c, d]
        v = s + (Vnz[c, j] if s > 0 else Vz[c, j])
    yf = T.yahtzee[d]
    if yf > 0:
        if cell >= 6 and (jokers >> yf) & 1:
            s = T.joker_score[first, cell - 6, yf]
            v = s + (Vnz[cell - 6, j] if s > 0 else Vz[cell - 6, j])
        if y == 1:
            v += T.fcfg[FCfg.EXTRA_BONUS]
    return float(v)


@helper
def record_cell(
    T: Tables,
    j: int,
    first: int,
    cell: int,
    jokers: int,
    y: int,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
    out: F64,
) -> None:
    """``out[d]``: recording each throw ``d`` in ``cell`` with ``j`` throws left (as :func:`cell_value`)."""
    counts = T.counts
    yahtzee = T.yahtzee
    nd = out.shape[0]
    if cell < 6:
        for d in range(nd):
            out[d] = Uv[cell, counts[d, cell], j]
    else:
        c = cell - 6
        lower_score = T.lower_score
        vz = Vz[c, j]
        vnz = Vnz[c, j]
        for d in range(nd):
            s = lower_score[first, c, d]
            out[d] = s + (vnz if s > 0 else vz)
    extra = T.fcfg[FCfg.EXTRA_BONUS]
    joker_score = T.joker_score
    for d in range(nd):
        yf = yahtzee[d]
        if yf == 0:
            continue
        if cell >= 6 and (jokers >> yf) & 1:
            s = joker_score[first, cell - 6, yf]
            out[d] = s + (Vnz[cell - 6, j] if s > 0 else Vz[cell - 6, j])
        if y == 1:
            out[d] += extra


# -- throwing ----------------------------------------------------------------------------------


@helper
def expect(T: Tables, W: F64, E: F64) -> None:
    """Every hold's value ``E`` (462, indexed as :data:`~kosti.solver.model.ALL`) from the
    values ``W`` of the 252 throws."""
    add = T.add
    nd = W.shape[0]
    for d in range(nd):
        E[FIVE + d] = W[d]
    for m in range(FIVE - 1, -1, -1):
        s = 0.0
        for f in range(6):
            s += E[add[m, f]]
        E[m] = s / 6.0


@helper
def best_holds(T: Tables, E: F64, best_sub: F64, M: F64) -> None:
    """``M[d]``: the best hold (at most four dice) of each throw ``d``, from the holds' values ``E``."""
    subs = T.subs
    # every multiset looks at five of its sub-multisets, the missing ones at a last entry
    # that is never best: the same work for each, and no branch to mispredict
    best_sub[FIVE] = NEG
    for m in range(FIVE):
        b = E[m]
        for i in range(5):
            b = max(b, best_sub[subs[m, i]])
        best_sub[m] = b
    for d in range(M.shape[0]):
        m = FIVE + d
        b = NEG
        for i in range(5):
            b = max(b, best_sub[subs[m, i]])
        M[d] = b


@inline
def chain(
    T: Tables,
    jw: int,
    jm: int,
    ua: int,
    la: int,
    jokers: int,
    y: int,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
    maxVz: F64,
    W: F64,
    M: F64,
    E: F64,
) -> None:
    """A free or ordered column's later throws: for ``j ≤ jw`` the value ``W[j]`` of each throw
    with ``j`` throws left and every hold's value ``E[j]`` with ``j`` throws left after it
    (``E[j]`` averages ``W[j]``); for ``1 ≤ j ≤ jm`` (``jm ≤ jw + 1``) each throw's best hold ``M[j]``."""
    best_sub = np.empty(FIVE + 1)
    records(T, 0, jw, 0, ua, la, jokers, y, Uv, Vz, Vnz, maxVz, W)
    for j in range(jw + 1):
        if j > 0:
            Mj = M[j]
            Wj = W[j]
            for d in range(Wj.shape[0]):
                if Mj[d] > Wj[d]:
                    Wj[d] = Mj[d]
        expect(T, W[j], E[j])
        if j + 1 <= jm:
            best_holds(T, E[j], best_sub, M[j + 1])


@helper
def chase(
    T: Tables,
    jokers: int,
    y: int,
    cell: int,
    jc: int,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
    Wc: F64,
    Mc: F64,
    Ec: F64,
) -> None:
    """The chase of one announced cell (after :func:`successors`): for ``j ≤ jc`` the value
    ``Wc[j, d]`` of throw ``d`` (after the first) with ``j`` throws left, its best hold
    ``Mc[j, d]`` (``Mc[0]`` is unused) and every hold's value ``Ec[j]`` with ``j`` left after it."""
    nd = Wc.shape[1]
    best_sub = np.empty(FIVE + 1)
    rec = np.empty(nd)
    for j in range(jc + 1):
        if j == 0:
            record_cell(T, 0, 0, cell, jokers, y, Uv, Vz, Vnz, Wc[0])
            for d in range(nd):
                Mc[0, d] = NEG
        else:
            best_holds(T, Ec[j - 1], best_sub, Mc[j])
            record_cell(T, j, 0, cell, jokers, y, Uv, Vz, Vnz, rec)
            for d in range(nd):
                Wc[j, d] = rec[d] if rec[d] > Mc[j, d] else Mc[j, d]
        expect(T, Wc[j], Ec[j])


@helper
def chase_count(T: Tables, cell: int, jc: int, Uv: F64, M: F64) -> None:
    """Chase an announced upper cell by counting its face only, raising ``M[j]`` to its value for
    ``1 ≤ j ≤ jc`` (exact when the extra Yahtzee bonus is off: holding every die of the face is
    then best)."""
    cw = np.empty(6)
    cw2 = np.empty(6)
    count_move = T.count_move
    counts = T.counts
    for n in range(6):
        cw[n] = Uv[cell, n, 0]
    for j in range(1, jc + 1):
        for n in range(6):
            s = 0.0
            for n2 in range(6):
                s += count_move[n, n2] * cw[n2]
            cw2[n] = s
        Mj = M[j]
        for d in range(Mj.shape[0]):
            v = cw2[counts[d, cell]]
            if v > Mj[d]:
                Mj[d] = v
        for n in range(6):
            stop = Uv[cell, n, j]
            cw[n] = stop if stop > cw2[n] else cw2[n]


@inline
def best_of_subs(
    subs: I64, best_sub: F64, m: int, b0: float, b1: float, b2: float, b3: float
) -> tuple[float, float, float, float]:
    """The four lanes' ``b0 … b3`` raised to the best of multiset ``m``'s sub-multisets less one
    die (``best_sub``), lane by lane: four like operations side by side, for the vectorizer."""
    for i in range(5):
        q = subs[m, i]
        b0 = max(b0, best_sub[q, 0])
        b1 = max(b1, best_sub[q, 1])
        b2 = max(b2, best_sub[q, 2])
        b3 = max(b3, best_sub[q, 3])
    return b0, b1, b2, b3


@helper
def chase_lanes(
    T: Tables,
    jokers: int,
    y: int,
    cells: I64,
    jc: int,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
    M: F64,
    S: F64,
    W: F64,
    E: F64,
    best_sub: F64,
) -> None:
    """The chases of four announced cells at once, each on its own: raises ``M[j, d]``, for
    ``1 ≤ j ≤ jc``, to the best hold of throw ``d`` (after the first) with ``j`` throws left in the
    chase of any of ``cells`` (four of them; a cell may repeat).

    The same steps as :func:`chase` for each cell, with the four cells side by side in the last
    axis of ``S``, ``W`` (252 rows each), ``E`` (462) and ``best_sub`` (463): each step reads a row
    of four values where :func:`chase` reads one, and the kernel that calls this is compiled to
    work on the row in one vector register (:func:`~kosti.solver.jit.kernel`'s ``vectorize``)."""
    counts = T.counts
    nd = counts.shape[0]
    add = T.add
    subs = T.subs
    lower_score = T.lower_score[0]
    # each lane's score by throw (a lower cell's, not on the first throw); an upper lane reads
    # its record from ``Uv`` below
    for k in range(LANES):
        cell = cells[k]
        for d in range(nd):
            S[d, k] = lower_score[cell - 6, d] if cell >= 6 else 0.0
    vz = np.empty(LANES)
    vnz = np.empty(LANES)
    for k in range(LANES):
        best_sub[FIVE, k] = NEG
    special = jokers != 0 or y == 1
    for j in range(jc + 1):
        for k in range(LANES):
            c = cells[k] - 6
            vz[k] = Vz[c, j] if c >= 0 else 0.0
            vnz[k] = Vnz[c, j] if c >= 0 else 0.0
        # recording now, in every lane
        for d in range(nd):
            for k in range(LANES):
                s = S[d, k]
                W[d, k] = s + (vnz[k] if s > 0 else vz[k])
        for k in range(LANES):
            cell = cells[k]
            if cell < 6:
                for d in range(nd):
                    W[d, k] = Uv[cell, counts[d, cell], j]
        if special:
            for yf in range(1, 7):
                d = T.lut[5 * 6 ** (yf - 1)] - FIVE
                for k in range(LANES):
                    W[d, k] = cell_value(T, j, 0, cells[k], d, jokers, y, Uv, Vz, Vnz)
        if j > 0:
            # the best hold with j left, from the holds' values with j - 1 left (``E``); the
            # lanes are spelt out, so that the compiler sees four like operations side by side
            for m in range(FIVE):
                b0, b1, b2, b3 = best_of_subs(subs, best_sub, m, E[m, 0], E[m, 1], E[m, 2], E[m, 3])
                best_sub[m, 0] = b0
                best_sub[m, 1] = b1
                best_sub[m, 2] = b2
                best_sub[m, 3] = b3
            Mj = M[j]
            for d in range(nd):
                b0, b1, b2, b3 = best_of_subs(subs, best_sub, FIVE + d, NEG, NEG, NEG, NEG)
                W[d, 0] = max(W[d, 0], b0)
                W[d, 1] = max(W[d, 1], b1)
                W[d, 2] = max(W[d, 2], b2)
                W[d, 3] = max(W[d, 3], b3)
                Mj[d] = max(Mj[d], max(max(b0, b1), max(b2, b3)))
        # every hold's value with j left after it
        for d in range(nd):
            for k in range(LANES):
                E[FIVE + d, k] = W[d, k]
        for m in range(FIVE - 1, -1, -1):
            s0 = 0.0
            s1 = 0.0
            s2 = 0.0
            s3 = 0.0
            for f in range(6):
                q = add[m, f]
                s0 += E[q, 0]
                s1 += E[q, 1]
                s2 += E[q, 2]
                s3 += E[q, 3]
            E[m, 0] = s0 / 6.0
            E[m, 1] = s1 / 6.0
            E[m, 2] = s2 / 6.0
            E[m, 3] = s3 / 6.0


@inline
def announced_best(
    T: Tables,
    ua: int,
    la: int,
    jokers: int,
    y: int,
    jc: int,
    shortcut: bool,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
    M: F64,
) -> None:
    """Column II: ``M[j, d]``, for ``1 ≤ j ≤ jc``, the best announcement after the first throw
    ``d`` with ``j`` throws left (each allowed cell chased on its own)."""
    nd = M.shape[1]
    for j in range(1, jc + 1):
        for d in range(nd):
            M[j, d] = NEG
    chased = np.empty(6 + T.cfg[Cfg.N_LOWER] + LANES, dtype=np.int64)
    n = 0
    for cell in range(6 + T.cfg[Cfg.N_LOWER]):
        if cell < 6:
            if not (ua >> cell) & 1:
                continue
            if shortcut:
                chase_count(T, cell, jc, Uv, M)
                continue
        elif not (la >> (cell - 6)) & 1:
            continue
        chased[n] = cell
        n += 1
    if n == 0:
        return
    for k in range(n, -(-n // LANES) * LANES):
        chased[k] = chased[n - 1]  # a repeated chase pads the last lanes
    S = np.empty((nd, LANES))
    W = np.empty((nd, LANES))
    E = np.empty((FIVE + nd, LANES))
    best_sub = np.empty((FIVE + 1, LANES))
    for g in range(0, n, LANES):
        chase_lanes(T, jokers, y, chased[g : g + LANES], jc, Uv, Vz, Vnz, M, S, W, E, best_sub)


# -- the solver ----------------------------------------------------------------------------------


@inline
def start_value(
    T: Tables,
    b: int,
    ua: int,
    la: int,
    jokers: int,
    y: int,
    M: F64,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
    maxVz: F64,
    rec: F64,
    scratch: bool,
    reuse: bool,
) -> float:
    """A state's value at the start of a turn with ``b`` banked throws, from the best
    continuations ``M`` of the first throw (``scratch``: scratching before it counts too;
    ``reuse``: ``rec`` already holds the first throw's best records)."""
    j1 = b + T.cfg[Cfg.THROWS] - 1
    if not reuse:
        record_all(T, j1, 1, ua, la, jokers, y, Uv, Vz, Vnz, maxVz, rec)
    s = 0.0
    prob = T.prob
    for d in range(prob.shape[0]):
        w = rec[d]
        if j1 >= 1 and M[j1, d] > w:
            w = M[j1, d]
        s += prob[d] * w
    if scratch and T.cfg[Cfg.SCRATCH] and la and maxVz[b + T.cfg[Cfg.THROWS]] > s:
        # scratching before the first throw banks them all
        s = maxVz[b + T.cfg[Cfg.THROWS]]
    return s


@inline
def same_first(T: Tables) -> bool:
    """Whether a throw scores the same in every lower cell, joker included, made on the first
    throw or later (no first-throw multiplier or bonus)."""
    ls = T.lower_score
    js = T.joker_score
    for c in range(ls.shape[1]):
        for d in range(ls.shape[2]):
            if ls[0, c, d] != ls[1, c, d]:
                return False
        for f in range(js.shape[2]):
            if js[0, c, f] != js[1, c, f]:
                return False
    return True


@inline
def first_holds(
    T: Tables, js: int, ua: int, la: int, jokers: int, y: int, Uv: F64, Vz: F64, Vnz: F64, maxVz: F64,
    W: F64, M: F64, E: F64,
) -> None:  # fmt: skip
    """A free or ordered column: ``M[j]``, for ``1 ≤ j ≤ js``, each first throw's best hold with
    ``j`` throws left (:func:`chain`)."""
    if js >= 1:
        chain(T, js - 1, js, ua, la, jokers, y, Uv, Vz, Vnz, maxVz, W, M, E)


@inline
def first_announcements(
    T: Tables, js: int, ua: int, la: int, jokers: int, y: int, Uv: F64, Vz: F64, Vnz: F64, maxVz: F64,
    W: F64, M: F64, E: F64,
) -> None:  # fmt: skip
    """An announced column: ``M[j]``, for ``1 ≤ j ≤ js``, each first throw's best announcement
    with ``j`` throws left (:func:`announced_best`)."""
    announced_best(T, ua, la, jokers, y, js, T.cfg[Cfg.FLAGS] == 1, Uv, Vz, Vnz, M)


@inline
def solve_states(
    ints: I64, floats: F64, meta: I64, V: F64, col: int, lms: I64, ps: I64, ys: I64, first: Any
) -> None:
    """Solve every state of one level of column ``col`` (their successors are solved), the first
    throw's continuations worked out by ``first`` (:func:`first_holds` or :func:`first_announcements`:
    a kernel of each kind of column compiles only its own)."""
    T = unpack(ints, floats, meta)
    cfg = T.cfg
    B = cfg[Cfg.BANK_CAP]
    jc = B + cfg[Cfg.THROWS] - 1
    jm = jc + 2
    nd = T.counts.shape[0]
    W = np.empty((jc + 1, nd))
    M = np.empty((jc + 1, nd))
    E = np.empty((jc + 1, FIVE + nd))
    Uv = np.empty((6, 6, jm))
    Vz = np.empty((cfg[Cfg.N_LOWER], jm))
    Vnz = np.empty((cfg[Cfg.N_LOWER], jm))
    maxVz = np.empty(jm)
    # the first throw's best records with each bank, all banks in one pass (a pass per bank
    # paid its set-up for a row of work)
    R = np.empty((B + 1, nd))
    # with no bank and a first throw that scores like the others, the first throw's best
    # records are the later throws' (``W[0]``): one pass over the throws less per state
    same = B == 0 and cfg[Cfg.THROWS] >= 2 and T.kinds[col] != KIND_ANNOUNCED and same_first(T)
    for i in range(lms.shape[0]):
        lm = lms[i]
        p = ps[i]
        y = ys[i]
        um = T.pair_um[p]
        # no bank above what the recorded cells can have banked is reached (``top``): those
        # are never read (a successor can always hold what its predecessor passes on)
        reach = T.top[col, lm, p, y]
        base = T.slot[col, lm, p, y]
        js = reach + cfg[Cfg.THROWS] - 1
        ua, la = allowed(T, col, um, lm)
        jk = jokers_of(T, col, um, lm)
        successors(T, V, col, lm, p, y, ua, la, Uv, Vz, Vnz, maxVz)
        first(T, js, ua, la, jk, y, Uv, Vz, Vnz, maxVz, W, M, E)
        if same:
            for d in range(nd):
                R[0, d] = W[0, d]
        else:
            th = cfg[Cfg.THROWS]
            records(T, th - 1, reach + th - 1, 1, ua, la, jk, y, Uv, Vz, Vnz, maxVz, R[: reach + 1])
        for b in range(reach + 1):
            V[base + b] = start_value(T, b, ua, la, jk, y, M, Uv, Vz, Vnz, maxVz, R[b], True, True)


LEVEL = f"void({PACKED}, float64[::1], int64, int64[::1], int64[::1], int64[::1])"
"""The signature of the solver's kernels: the tables, the values, a column and its states."""


@kernel(LEVEL, weight=8)
def solve_level(ints: I64, floats: F64, meta: I64, V: F64, col: int, lms: I64, ps: I64, ys: I64) -> None:
    """Solve every state of one level of a free or ordered column (:func:`solve_states`)."""
    solve_states(ints, floats, meta, V, col, lms, ps, ys, first_holds)


@kernel(LEVEL, weight=8, vectorize=True)
def solve_announced_level(
    ints: I64, floats: F64, meta: I64, V: F64, col: int, lms: I64, ps: I64, ys: I64
) -> None:
    """Solve every state of one level of an announced column (:func:`solve_states`)."""
    solve_states(ints, floats, meta, V, col, lms, ps, ys, first_announcements)


# -- the advisor ---------------------------------------------------------------------------------


@inline
def position_values(
    T: Tables,
    V: F64,
    col: int,
    lm: int,
    p: int,
    y: int,
    bank: int,
    throws: int,
    d: int,
    left: int,
    announced: int,
    out: F64,
    first: Any,
    later: Any,
) -> None:
    """Every option's value in one position, NaN where the option is not legal.

    The position: the state ``(col, lm, p, y)``, ``bank`` banked throws at the start of the
    turn, ``throws`` made (0: before the first), the dice ``d`` on the table, ``left`` throws
    left (as the solver counts them), the ``announced`` cell or −1. ``out`` (see
    :func:`kosti.solver.advisor.layout`): ``out[h]`` holding multiset ``h`` of
    :data:`~kosti.solver.model.ALL` (before the first throw, ``out[0]`` is the throw),
    ``out[FIVE + cell]`` recording in ``cell``, ``out[FIVE + n + cell]`` scratching it,
    ``out[FIVE + 2n + cell]`` announcing it (``n`` = 6 + lower cells). A value is the
    expected score still to come after the option, recorded cells excluded.

    What the column's kind decides is done by ``first`` (the first throw's continuations,
    :func:`first_holds` or :func:`first_announcements`) and ``later`` (the options after a
    throw other than recording: :func:`later_holds` or :func:`later_announced`).
    """
    cfg = T.cfg
    nd = T.counts.shape[0]
    n_cells = 6 + cfg[Cfg.N_LOWER]
    for i in range(out.shape[0]):
        out[i] = np.nan
    um = T.pair_um[p]
    ua, la = allowed(T, col, um, lm)
    jk = jokers_of(T, col, um, lm)
    jn = cfg[Cfg.BANK_CAP] + cfg[Cfg.THROWS] + 1
    Uv = np.empty((6, 6, jn))
    Vz = np.empty((cfg[Cfg.N_LOWER], jn))
    Vnz = np.empty((cfg[Cfg.N_LOWER], jn))
    maxVz = np.empty(jn)
    successors(T, V, col, lm, p, y, ua, la, Uv, Vz, Vnz, maxVz)
    scratch = cfg[Cfg.SCRATCH] == 1 and announced < 0
    if throws == 0:
        j1 = bank + cfg[Cfg.THROWS] - 1
        M = np.empty((j1 + 1, nd))
        first(T, j1, ua, la, jk, y, Uv, Vz, Vnz, maxVz, np.empty((j1 + 1, nd)), M, np.empty((j1, FIVE + nd)))
        out[0] = start_value(T, bank, ua, la, jk, y, M, Uv, Vz, Vnz, maxVz, np.empty(nd), False, False)
        if scratch:
            for c in range(cfg[Cfg.N_LOWER]):
                if (la >> c) & 1:
                    out[FIVE + n_cells + 6 + c] = Vz[c, bank + cfg[Cfg.THROWS]]
        return
    first_throw = 1 if throws == 1 else 0
    # record: the cells the engine allows (an announcement, a joker)
    if announced >= 0:
        out[FIVE + announced] = cell_value(T, left, first_throw, announced, d, jk, y, Uv, Vz, Vnz)
    else:
        yf = T.yahtzee[d]
        ru, rl = ua, la
        if (jk >> yf) & 1:
            ru, rl = joker_allowed(T, yf, ua, la)
        for cell in range(n_cells):
            if (cell < 6 and (ru >> cell) & 1) or (cell >= 6 and (rl >> (cell - 6)) & 1):
                out[FIVE + cell] = cell_value(T, left, first_throw, cell, d, jk, y, Uv, Vz, Vnz)
    if scratch:
        for c in range(cfg[Cfg.N_LOWER]):
            if (la >> c) & 1:
                out[FIVE + n_cells + 6 + c] = Vz[c, left]
    later(T, throws, d, left, announced, ua, la, jk, y, Uv, Vz, Vnz, maxVz, out)


@inline
def hold_values(T: Tables, d: int, later: F64, out: F64) -> None:
    """``out[h]`` for each hold ``h`` of throw ``d``: its value ``later[h]``."""
    hold_idx = T.hold_idx
    for k in range(T.hold_ptr[d], T.hold_ptr[d + 1]):
        h = hold_idx[k]
        out[h] = later[h]


@inline
def later_holds(
    T: Tables, throws: int, d: int, left: int, announced: int, ua: int, la: int, jokers: int, y: int,
    Uv: F64, Vz: F64, Vnz: F64, maxVz: F64, out: F64,
) -> None:  # fmt: skip
    """A free or ordered column after a throw: every hold's value (:func:`chain`)."""
    if left < 1:
        return
    nd = T.counts.shape[0]
    W = np.empty((left, nd))
    E = np.empty((left, FIVE + nd))
    chain(T, left - 1, left - 1, ua, la, jokers, y, Uv, Vz, Vnz, maxVz, W, np.empty((left, nd)), E)
    hold_values(T, d, E[left - 1], out)


@inline
def later_announced(
    T: Tables, throws: int, d: int, left: int, announced: int, ua: int, la: int, jokers: int, y: int,
    Uv: F64, Vz: F64, Vnz: F64, maxVz: F64, out: F64,
) -> None:  # fmt: skip
    """An announced column after a throw: after the first, every announcement's value; once a
    cell is announced, every hold's value in its chase (:func:`chase`)."""
    nd = T.counts.shape[0]
    n_cells = 6 + T.cfg[Cfg.N_LOWER]
    if announced < 0:
        if throws != 1:
            return
        Wc = np.empty((left + 1, nd))
        Mc = np.empty((left + 1, nd))
        Ec = np.empty((left + 1, FIVE + nd))
        for cell in range(n_cells):
            if (cell < 6 and (ua >> cell) & 1) or (cell >= 6 and (la >> (cell - 6)) & 1):
                now = cell_value(T, left, 1, cell, d, jokers, y, Uv, Vz, Vnz)
                if left >= 1:
                    chase(T, jokers, y, cell, left, Uv, Vz, Vnz, Wc, Mc, Ec)
                    if Mc[left, d] > now:
                        now = Mc[left, d]
                out[FIVE + 2 * n_cells + cell] = now
        return
    if left < 1:
        return
    E = np.empty((left, FIVE + nd))
    chase(T, jokers, y, announced, left - 1, Uv, Vz, Vnz, np.empty((left, nd)), np.empty((left, nd)), E)
    hold_values(T, d, E[left - 1], out)


@helper
def locate(T: Tables, q: I64, spot: I64) -> None:
    """Where the position row ``q`` (:data:`~kosti.solver.model.POSITION`) stands, into ``spot``
    (:data:`~kosti.solver.model.SPOT`; its status is 0, or why ``q`` is no position of the sheet)."""
    cfg = T.cfg
    n_cells = 6 + cfg[Cfg.N_LOWER]
    n_col = cfg[Cfg.N_COLUMNS]
    # the column being filled: the first with an open cell
    col = 0
    for c in range(n_col):
        found = False
        for i in range(n_cells):
            if q[c * n_cells + i] == OPEN:
                found = True
                break
        if found:
            col = c
            break
    at = col * n_cells
    um = 0
    total = 0
    for i in range(6):
        v = q[at + i]
        if v != OPEN:
            um |= 1 << i
            total += v
    lm = 0
    for i in range(cfg[Cfg.N_LOWER]):
        if q[at + 6 + i] != OPEN:
            lm |= 1 << i
    spot[S_STATUS] = 0
    lo = T.pair_range[um, 0]
    hi = T.pair_range[um, 1]
    t = total if total > lo else lo
    p = T.pair_table[um, (t if t < hi else hi) - lo]
    if p < 0:
        spot[S_STATUS] = BAD_UPPER
    flag = 0
    if cfg[Cfg.FLAGS] == 2:
        v = q[6 + cfg[Cfg.YAHTZEE_CELL]]
        flag = 1 if (v != OPEN and v != 0) else 0
    tail = n_col * n_cells
    banked = q[tail + Q_BANKED]
    made = q[tail + Q_THROWS]
    B = cfg[Cfg.BANK_CAP]
    TH = cfg[Cfg.THROWS]
    reach = col * cfg[Cfg.BANK_COLUMN]
    for i in range(6):
        reach += cfg[Cfg.BANK_UPPER] * ((um >> i) & 1)
    for i in range(cfg[Cfg.N_LOWER]):
        reach += cfg[Cfg.BANK_LOWER] * ((lm >> i) & 1)
    if banked > reach or banked < 0 or made < 0:
        spot[S_STATUS] = BAD_BANK
    bank = banked + (made - TH if made > TH else 0)
    left = (TH - made if made < TH else 0) + banked
    # the dice: the index of their multiset (none before the first throw)
    d = 0
    if q[tail + Q_DICE] != 0:
        code = 0
        for i in range(5):
            f = q[tail + Q_DICE + i]
            if f < 1 or f > 6:
                spot[S_STATUS] = BAD_DICE
                f = 1
            code += 6 ** (f - 1)
        d = T.lut[code] - FIVE
    else:
        for i in range(5):
            if q[tail + Q_DICE + i] != 0:
                spot[S_STATUS] = BAD_DICE
    if made > 0 and q[tail + Q_DICE] == 0:
        spot[S_STATUS] = BAD_DICE
    announced = q[tail + Q_ANNOUNCED]
    if announced < -1 or announced >= n_cells or (announced >= 0 and T.kinds[col] != KIND_ANNOUNCED):
        spot[S_STATUS] = BAD_ANNOUNCED
    spot[S_COLUMN] = col
    spot[S_LM] = lm
    spot[S_UM] = um
    spot[S_PAIR] = p
    spot[S_FLAG] = flag
    spot[S_BANK] = bank if bank < B else B
    spot[S_LEFT] = left if left < B + TH - 1 else B + TH - 1
    spot[S_DICE] = d
    spot[S_ANNOUNCED] = announced
    spot[S_THROWS] = made
    spot[S_REACH] = reach


@kernel(f"void({PACKED}, int64[:, ::1], int64[:, ::1])", weight=1)
def locate_batch(ints: I64, floats: F64, meta: I64, positions: I64, spots: I64) -> None:
    """:func:`locate` of every row of ``positions`` into the rows of ``spots``."""
    T = unpack(ints, floats, meta)
    for i in range(positions.shape[0]):
        locate(T, positions[i], spots[i])


@inline
def values_batch(
    ints: I64, floats: F64, meta: I64, V: F64, positions: I64, out: F64, kind: bool, first: Any, later: Any
) -> int:
    """:func:`position_values` of every position row (:data:`~kosti.solver.model.POSITION`) in
    ``positions``, one after another in one flat array, into ``out`` (flat too, a row of
    values after another), each in a column that is announced when ``kind`` is: −1, or the index
    of the first row that is not, or is no position of the sheet (:func:`locate`), where it
    stopped."""
    T = unpack(ints, floats, meta)
    spot = np.empty(N_SPOT, dtype=np.int64)
    cfg = T.cfg
    n_row = cfg[Cfg.N_COLUMNS] * (6 + cfg[Cfg.N_LOWER]) + Q_ANNOUNCED + 1
    n = positions.shape[0] // n_row
    w = out.shape[0] // n if n else 0
    for i in range(n):
        locate(T, positions[i * n_row : (i + 1) * n_row], spot)
        if spot[S_STATUS] != 0 or (T.kinds[spot[S_COLUMN]] == KIND_ANNOUNCED) != kind:
            return i
        position_values(
            T,
            V,
            spot[S_COLUMN],
            spot[S_LM],
            spot[S_PAIR],
            spot[S_FLAG],
            spot[S_BANK],
            spot[S_THROWS],
            spot[S_DICE],
            spot[S_LEFT],
            spot[S_ANNOUNCED],
            out[i * w : (i + 1) * w],
            first,
            later,
        )
    return -1


VALUES = f"int64({PACKED}, float64[::1], int64[::1], float64[::1])"
"""The signature of the advisor's kernels: the tables, the values, position rows, their values."""


@kernel(VALUES, weight=11)
def position_values_batch(ints: I64, floats: F64, meta: I64, V: F64, positions: I64, out: F64) -> int:
    """:func:`values_batch` of positions in free or ordered columns."""
    return values_batch(ints, floats, meta, V, positions, out, False, first_holds, later_holds)


@kernel(VALUES, weight=11)
def announced_values_batch(ints: I64, floats: F64, meta: I64, V: F64, positions: I64, out: F64) -> int:
    """:func:`values_batch` of positions in announced columns."""
    return values_batch(ints, floats, meta, V, positions, out, True, first_announcements, later_announced)


# -- the simulator -------------------------------------------------------------------------------


@inline
def record_choice(
    T: Tables,
    d: int,
    j: int,
    first: int,
    ua: int,
    la: int,
    jokers: int,
    y: int,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
) -> tuple[int, int, float]:
    """The best record of throw ``d``: (cell 0–5 upper or 6+ lower, 1 if a scratch, value)."""
    cfg = T.cfg
    yf = T.yahtzee[d]
    bonus = T.fcfg[FCfg.EXTRA_BONUS] if (yf > 0 and y == 1) else 0.0
    use_joker = (jokers >> yf) & 1 == 1
    best = NEG
    best_cell = -1
    scratch = 0
    ru, rl = ua, la
    if use_joker:
        ru, rl = joker_allowed(T, yf, ua, la)
    counts = T.counts
    joker_score = T.joker_score
    lower_score = T.lower_score
    for f in range(6):
        if (ru >> f) & 1:
            v = Uv[f, counts[d, f], j] + bonus
            if v > best:
                best, best_cell = v, f
    for c in range(cfg[Cfg.N_LOWER]):
        if (rl >> c) & 1:
            s = joker_score[first, c, yf] if use_joker else lower_score[first, c, d]
            v = s + (Vnz[c, j] if s > 0 else Vz[c, j]) + bonus
            if v > best:
                best, best_cell = v, 6 + c
    if cfg[Cfg.SCRATCH]:
        for c in range(cfg[Cfg.N_LOWER]):
            if (la >> c) & 1 and Vz[c, j] > best:
                best, best_cell, scratch = Vz[c, j], 6 + c, 1
    return best_cell, scratch, best


@inline
def best_hold_of(T: Tables, d: int, E: F64) -> tuple[int, float]:
    """The best hold of throw ``d`` (an index in ALL) by the holds' values ``E``, the first of equals."""
    best = NEG
    best_h = 0
    hold_idx = T.hold_idx
    for k in range(T.hold_ptr[d], T.hold_ptr[d + 1]):
        h = hold_idx[k]
        if E[h] > best:
            best, best_h = E[h], h
    return best_h, best


@inline
def throw(T: Tables, h: int, cnt: I64) -> int:
    """Keep hold ``h`` (an index in ALL), throw the other dice, and return the throw's index."""
    all_counts = T.all_counts
    for f in range(6):
        cnt[f] = all_counts[h, f]
    held = 0
    for f in range(6):
        held += cnt[f]
    for _ in range(5 - held):
        cnt[np.random.randint(0, 6)] += 1
    code = 0
    mult = 1
    for f in range(6):
        code += cnt[f] * mult
        mult *= 6
    return int(T.lut[code]) - FIVE


@inline
def solve_turn(
    T: Tables,
    V: F64,
    col: int,
    lm: int,
    p: int,
    y: int,
    b: int,
    kind: int,
    ua: int,
    la: int,
    jokers: int,
    may_scratch: int,
    W: F64,
    M: F64,
    E: F64,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
    maxVz: F64,
    Wc: F64,
    Mc: F64,
    Ec: F64,
    rec: F64,
    scratch_M: F64,
    announce: I64,
) -> tuple[int, int]:
    """What a turn's decisions need: every record's future (:func:`successors`), the holds'
    values ``E`` (a free or ordered column) or each announced cell's chase (``Wc``, ``Mc``,
    ``Ec``; the best announcement ``announce`` and its value ``scratch_M`` of each first throw),
    and the decision before the first throw: (the cell scratched then, 1) or (−1, 0)."""
    cfg = T.cfg
    TH = cfg[Cfg.THROWS]
    L = cfg[Cfg.N_LOWER]
    nd = T.counts.shape[0]
    j = b + TH - 1
    successors(T, V, col, lm, p, y, ua, la, Uv, Vz, Vnz, maxVz)
    if kind != KIND_ANNOUNCED:
        if j >= 1:
            chain(T, j - 1, j if may_scratch else j - 1, ua, la, jokers, y, Uv, Vz, Vnz, maxVz, W, M, E)
    else:
        for cell in range(6 + L):
            if (cell < 6 and (ua >> cell) & 1) or (cell >= 6 and (la >> (cell - 6)) & 1):
                chase(T, jokers, y, cell, j, Uv, Vz, Vnz, Wc[cell], Mc[cell], Ec[cell])
        # the best announcement of each first throw
        for d in range(nd):
            scratch_M[d] = NEG
            announce[d] = -1
        if j >= 1:
            for cell in range(6 + L):
                if (cell < 6 and (ua >> cell) & 1) or (cell >= 6 and (la >> (cell - 6)) & 1):
                    for d in range(nd):
                        if Mc[cell, j, d] > scratch_M[d]:
                            scratch_M[d] = Mc[cell, j, d]
                            announce[d] = cell
    cell = -1
    scratch = 0
    if may_scratch:
        record_all(T, j, 1, ua, la, jokers, y, Uv, Vz, Vnz, maxVz, rec)
        start = 0.0
        prob = T.prob
        for d in range(nd):
            w = rec[d]
            if j >= 1:
                cont = M[j, d] if kind != KIND_ANNOUNCED else scratch_M[d]
                if cont > w:
                    w = cont
            start += prob[d] * w
        for c in range(L):
            if (la >> c) & 1 and Vz[c, b + TH] > start:
                start, cell, scratch = Vz[c, b + TH], 6 + c, 1
    return cell, scratch


class TurnCache(NamedTuple):
    """The turns the simulator has worked out, to be read again when a later game comes to
    the same state with the same bank: per entry the state's key (−1: empty), how often it
    was read (an entry read often is not given up for a newcomer), the decision before the
    first throw, the holds' values ``E[:j, :FIVE]`` and the records' futures for ``0..j``
    throws left (``j`` is one less than the throws of a turn: no throw is banked)."""

    key: I64
    uses: I64
    start: I64
    E: F64
    Uv: F64
    Vz: F64
    Vnz: F64


@inline
def fetch_turn(turns: TurnCache, e: int, j: int, E: F64, Uv: F64, Vz: F64, Vnz: F64) -> None:
    """Entry ``e`` of ``turns`` back into the working tables."""
    cE = turns.E
    for r in range(j):
        for h in range(FIVE):
            E[r, h] = cE[e, r, h]
    cU = turns.Uv
    for f in range(6):
        for n in range(6):
            for r in range(j + 1):
                Uv[f, n, r] = cU[e, f, n, r]
    cZ = turns.Vz
    cNZ = turns.Vnz
    for c in range(Vz.shape[0]):
        for r in range(j + 1):
            Vz[c, r] = cZ[e, c, r]
            Vnz[c, r] = cNZ[e, c, r]


@inline
def store_turn(
    turns: TurnCache, e: int, key: int, j: int, cell: int, scratch: int, E: F64, Uv: F64, Vz: F64, Vnz: F64
) -> None:
    """Keep a turn worked out in entry ``e`` of ``turns``, unless its occupant is read often
    (each newcomer then wears that down by one)."""
    if turns.key[e] >= 0 and turns.uses[e] > 0:
        turns.uses[e] -= 1
        return
    turns.key[e] = key
    turns.uses[e] = 0
    turns.start[e, 0] = cell
    turns.start[e, 1] = scratch
    cE = turns.E
    for r in range(j):
        for h in range(FIVE):
            cE[e, r, h] = E[r, h]
    cU = turns.Uv
    for f in range(6):
        for n in range(6):
            for r in range(j + 1):
                cU[e, f, n, r] = Uv[f, n, r]
    cZ = turns.Vz
    cNZ = turns.Vnz
    for c in range(Vz.shape[0]):
        for r in range(j + 1):
            cZ[e, c, r] = Vz[c, r]
            cNZ[e, c, r] = Vnz[c, r]


@inline
def play_game(
    T: Tables,
    V: F64,
    W: F64,
    M: F64,
    E: F64,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
    maxVz: F64,
    Wc: F64,
    Mc: F64,
    Ec: F64,
    turns: TurnCache,
) -> tuple[float, int]:
    """One solitaire game under the optimal strategy: (final score, the most throws ever banked).

    Each turn works out only what its decisions need: the later throws' values and every
    hold's value once (or reads them from ``turns``, where an earlier game left them), then
    the holds of the throws actually made."""
    cfg = T.cfg
    B = cfg[Cfg.BANK_CAP]
    TH = cfg[Cfg.THROWS]
    nd = T.counts.shape[0]
    rec = np.empty(nd)
    scratch_M = np.empty(nd)
    announce = np.empty(nd, dtype=np.int64)
    cnt = np.zeros(6, dtype=np.int64)
    col = 0
    lm = 0
    p = cfg[Cfg.START_PAIR]
    y = 0
    b = 0
    most = 0
    total = 0.0
    while True:
        kind = T.kinds[col]
        um = T.pair_um[p]
        ua, la = allowed(T, col, um, lm)
        jk = jokers_of(T, col, um, lm)
        j = b + TH - 1
        may_scratch = cfg[Cfg.SCRATCH] and la
        cell = -1
        scratch = 0
        # a free or ordered column's turn with no banked throw can be kept, in one of two
        # entries picked by its state
        keep = kind != KIND_ANNOUNCED and b == 0 and turns.key.shape[0] > 1
        hit = -1
        key = T.slot[col, lm, p, y]
        pair = 0
        if keep:
            pair = (key * 2654435761) % (turns.key.shape[0] // 2) * 2
            if turns.key[pair] == key:
                hit = pair
            elif turns.key[pair + 1] == key:
                hit = pair + 1
        if hit >= 0:
            fetch_turn(turns, hit, j, E, Uv, Vz, Vnz)
            cell = turns.start[hit, 0]
            scratch = turns.start[hit, 1]
            if turns.uses[hit] < 15:
                turns.uses[hit] += 1
        else:
            cell, scratch = solve_turn(
                T, V, col, lm, p, y, b, kind, ua, la, jk, may_scratch, W, M, E, Uv, Vz, Vnz, maxVz, Wc, Mc,
                Ec, rec, scratch_M, announce,
            )  # fmt: skip
            if keep:
                # the entry read less often makes way, once newcomers have worn its reads down
                e = pair if turns.uses[pair] <= turns.uses[pair + 1] else pair + 1
                store_turn(turns, e, key, j, cell, scratch, E, Uv, Vz, Vnz)
        left = b + TH
        d = 0
        k = 0
        if cell < 0:
            d = throw(T, 0, cnt)
            k = 1
            left = j
            announced = -1
            while True:
                first = 1 if k == 1 else 0
                if announced >= 0:
                    stop_cell, stop_scratch = announced, 0
                    stop = cell_value(T, left, first, announced, d, jk, y, Uv, Vz, Vnz)
                else:
                    stop_cell, stop_scratch, stop = record_choice(
                        T, d, left, first, ua, la, jk, y, Uv, Vz, Vnz
                    )
                go = NEG
                h = 0
                if left >= 1:
                    if kind != KIND_ANNOUNCED:
                        h, go = best_hold_of(T, d, E[left - 1])
                    elif announced >= 0:
                        h, go = best_hold_of(T, d, Ec[announced, left - 1])
                    elif k == 1:
                        go = scratch_M[d]
                if stop >= go:
                    cell, scratch = stop_cell, stop_scratch
                    break
                if kind == KIND_ANNOUNCED and announced < 0:
                    announced = announce[d]
                    h, go = best_hold_of(T, d, Ec[announced, left - 1])
                d = throw(T, h, cnt)
                k += 1
                left -= 1
        # record (or scratch) and move on
        if not scratch and T.yahtzee[d] > 0 and y == 1:
            total += T.fcfg[FCfg.EXTRA_BONUS]
        if scratch:
            lm |= 1 << (cell - 6)
        elif cell < 6:
            n = T.counts[d, cell]
            total += T.up_reward[p, cell, n]
            p = T.next_pair[p, cell, n]
        else:
            c = cell - 6
            yf = T.yahtzee[d]
            first = 1 if k == 1 else 0
            s = T.joker_score[first, c, yf] if (jk >> yf) & 1 else T.lower_score[first, c, d]
            total += s
            lm |= 1 << c
            if c == cfg[Cfg.YAHTZEE_CELL] and col == 0 and cfg[Cfg.FLAGS] == 2 and s > 0:
                y = 1
        b = left if left < B else B
        if b > most:
            most = b
        if lm == cfg[Cfg.FULL_LOWER] and T.pair_um[p] == FULL_UPPER:
            col += 1
            lm = 0
            p = cfg[Cfg.START_PAIR]
            if col == cfg[Cfg.N_COLUMNS]:
                return total + b * T.fcfg[FCfg.BANK_VALUE], most


@kernel(f"void({PACKED}, float64[::1], int64, float64[::1], int64[::1], int64)", weight=10)
def play_games(
    ints: I64, floats: F64, meta: I64, V: F64, seed: int, scores: F64, banks: I64, entries: int
) -> None:
    """Play ``len(scores)`` games; game ``g`` draws its dice from seed ``seed + g`` alone. Up to
    ``entries`` turns worked out are kept for later games (:class:`TurnCache`)."""
    T = unpack(ints, floats, meta)
    cfg = T.cfg
    jc = cfg[Cfg.BANK_CAP] + cfg[Cfg.THROWS] - 1
    jn = jc + 2
    nd = T.counts.shape[0]
    L = cfg[Cfg.N_LOWER]
    W = np.empty((jc + 1, nd))
    M = np.empty((jc + 1, nd))
    E = np.empty((jc + 1, FIVE + nd))
    Uv = np.empty((6, 6, jn))
    Vz = np.empty((L, jn))
    Vnz = np.empty((L, jn))
    maxVz = np.empty(jn)
    chases = 1
    for kind in T.kinds:
        if kind == KIND_ANNOUNCED:
            chases = 6 + L
    Wc = np.empty((chases, jc + 1, nd))
    Mc = np.empty((chases, jc + 1, nd))
    Ec = np.empty((chases, jc + 1, FIVE + nd))
    TH = cfg[Cfg.THROWS]
    turns = TurnCache(
        np.full(entries, -1, dtype=np.int64),
        np.zeros(entries, dtype=np.int64),
        np.zeros((entries, 2), dtype=np.int64),
        np.empty((entries, TH - 1, FIVE)),
        np.empty((entries, 6, 6, TH)),
        np.empty((entries, L, TH)),
        np.empty((entries, L, TH)),
    )
    for g in range(scores.shape[0]):
        np.random.seed(seed + g)
        scores[g], banks[g] = play_game(T, V, W, M, E, Uv, Vz, Vnz, maxVz, Wc, Mc, Ec, turns)
