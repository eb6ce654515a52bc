"""The compiled inner loops of the solver (numba).

One turn of one state is solved over the 252 throws of five dice. With ``j`` throws
left (banked ones included) the dice ``d`` are worth

    W_j(d) = max(record now, best hold),   best hold = max over holds h of E_j(h),

where the hold's value ``E`` comes from ``W_{j−1}`` by averaging one die at a time
(``E(h) = mean over faces f of E(h + f)``, exact because throwing ``5 − |h|`` dice is
throwing them one after another), and the best hold of each throw is a maximum over
its sub-multisets built the same way. Recording after throw ``k`` banks ``3 − k`` and
a throw past the third spends one, so the bank after recording is always the number
``j`` of throws that were left: the chain ``W_0, W_1, …`` serves every bank at once,
and only the first throw (its multiplier, column II's announcement) needs its own pass.

Value tables are indexed ``V[column, lower mask, upper pair, flag, bank]``
(:mod:`kosti.solver.model`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

from kosti.solver.model import (
    B_,
    BANK_VALUE,
    EXTRA,
    F64,
    FIVE,
    FULL_LM,
    I64,
    JOKER,
    L_,
    NCOL,
    P0,
    SCRATCH,
    SEQ,
    T_,
    TRACK_Y,
    Y_,
    YC,
)

Fn = TypeVar("Fn", bound=Callable[..., Any])
NEG = -1e300


def jit(fn: Fn) -> Fn:
    """Compile with numba, caching the machine code on disk; the GIL is released, so the
    solver and the simulation run on several threads at once."""
    return cast(Fn, numba.njit(cache=True, nogil=True)(fn))


@jit
def fill_next(
    V: F64, cfg: I64, fcfg: F64, pair_um: I64, col: int, lm: int, p: int, y: int, reward: float, out: F64
) -> None:
    """``out[j] = reward +`` the value of a state between turns with ``j`` banked throws, for every ``j``
    (one call per successor: the inner loop is where the time goes)."""
    B = cfg[B_]
    n = out.shape[0]
    if lm == cfg[FULL_LM] and pair_um[p] == 63:
        if col + 1 < cfg[NCOL]:
            row = V[col + 1, 0, cfg[P0], y]
            for j in range(n):
                out[j] = reward + row[j if j < B else B]
        else:
            for j in range(n):
                out[j] = reward + (j if j < B else B) * fcfg[BANK_VALUE]
        return
    row = V[col, lm, p, y]
    for j in range(n):
        out[j] = reward + row[j if j < B else B]


@jit
def allowed(cfg: I64, kind: int, um: int, lm: int) -> tuple[int, int]:
    """The open cells the column and stage rules allow now, as (upper bits, lower bits)."""
    full_lm = cfg[FULL_LM]
    if kind == 2:
        if um != 63:
            for f in range(6):
                if not (um >> f) & 1:
                    return 1 << f, 0
        for c in range(cfg[L_]):
            if not (lm >> c) & 1:
                return 0, 1 << c
        return 0, 0
    uo = 63 & ~um
    lo = full_lm & ~lm
    if cfg[SEQ] and uo:
        return uo, 0
    return uo, lo


@jit
def successors(
    V: F64,
    cfg: I64,
    fcfg: F64,
    pair_um: I64,
    next_pair: I64,
    up_reward: F64,
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
    jm = Uv.shape[2]
    for f in range(6):
        if (ua >> f) & 1:
            for n in range(6):
                fill_next(V, cfg, fcfg, pair_um, col, lm, next_pair[p, f, n], y, up_reward[p, f, n], Uv[f, n])
    for j in range(jm):
        maxVz[j] = NEG
    for c in range(cfg[L_]):
        if (la >> c) & 1:
            lm2 = lm | (1 << c)
            y2 = 1 if (c == cfg[YC] and col == 0 and cfg[TRACK_Y]) else y
            fill_next(V, cfg, fcfg, pair_um, col, lm2, p, y, 0.0, Vz[c])
            fill_next(V, cfg, fcfg, pair_um, col, lm2, p, y2, 0.0, Vnz[c])
            for j in range(jm):
                if Vz[c, j] > maxVz[j]:
                    maxVz[j] = Vz[c, j]


@jit
def joker_applies(cfg: I64, col: int, lm: int) -> bool:
    """The forced joker is in force: the Yahtzee cell (of column I) is recorded."""
    yc = cfg[YC]
    return cfg[JOKER] > 0 and yc >= 0 and (col > 0 or ((lm >> yc) & 1) == 1)


@jit
def joker_for(cfg: I64, joker: bool, um: int, face: int) -> bool:
    """Five ``face``s are played as a joker (forced rule: whenever in force; free rule: only
    once that face's upper cell is recorded)."""
    if not joker or face == 0:
        return False
    return cfg[JOKER] == 1 or ((um >> (face - 1)) & 1) == 1


@jit
def record_all(
    j: int,
    first: int,
    cfg: I64,
    fcfg: F64,
    counts: I64,
    yahtzee: I64,
    lower_score: F64,
    joker_score: F64,
    nz_ptr: I64,
    nz_cell: I64,
    um: int,
    ua: int,
    la: int,
    joker: bool,
    y: int,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
    maxVz: F64,
    out: F64,
) -> None:
    """``out[d]``: the best record (or scratch) of each throw ``d`` with ``j`` throws left,
    among the cells the engine allows."""
    nd = counts.shape[0]
    floor = maxVz[j] if la else NEG
    for d in range(nd):
        out[d] = floor
    for f in range(6):
        if (ua >> f) & 1:
            for d in range(nd):
                v = Uv[f, counts[d, f], j]
                if v > out[d]:
                    out[d] = v
    if la:
        # lower cells never score below 0, so a dash anywhere (``floor``) is a lower bound
        for d in range(nd):
            b = out[d]
            for k in range(nz_ptr[first, d], nz_ptr[first, d + 1]):
                c = nz_cell[first, k]
                if (la >> c) & 1:
                    v = lower_score[first, c, d] + Vnz[c, j]
                    if v > b:
                        b = v
            out[d] = b
    extra = fcfg[EXTRA]
    for d in range(nd):
        yf = yahtzee[d]
        if yf == 0:
            continue
        if joker_for(cfg, joker, um, yf):
            best = NEG
            if cfg[JOKER] == 1 and (ua >> (yf - 1)) & 1:
                # forced joker: its own upper cell if open
                best = Uv[yf - 1, 5, j]
            else:
                if la:
                    for c in range(cfg[L_]):
                        if (la >> c) & 1:
                            s = joker_score[first, c, yf]
                            v = s + (Vnz[c, j] if s > 0 else Vz[c, j])
                            if v > best:
                                best = v
                if cfg[JOKER] == 2 or not la:
                    for f in range(6):
                        if (ua >> f) & 1:
                            v = Uv[f, counts[d, f], j]
                            if v > best:
                                best = v
            out[d] = best
        if y == 1:
            out[d] += extra
        if cfg[SCRATCH] and la and maxVz[j] > out[d]:
            out[d] = maxVz[j]


@jit
def record_cell(
    j: int,
    first: int,
    cell: int,
    cfg: I64,
    fcfg: F64,
    counts: I64,
    yahtzee: I64,
    lower_score: F64,
    joker_score: F64,
    um: int,
    joker: bool,
    y: int,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
    out: F64,
) -> None:
    """``out[d]``: recording each throw ``d`` in ``cell`` (0–5 upper, 6+ lower) with ``j`` throws left."""
    nd = counts.shape[0]
    if cell < 6:
        for d in range(nd):
            out[d] = Uv[cell, counts[d, cell], j]
    else:
        c = cell - 6
        vz = Vz[c, j]
        vnz = Vnz[c, j]
        for d in range(nd):
            s = lower_score[first, c, d]
            out[d] = s + (vnz if s > 0 else vz)
    for d in range(nd):
        yf = yahtzee[d]
        if yf == 0:
            continue
        if cell >= 6 and joker_for(cfg, joker, um, yf):
            s = joker_score[first, cell - 6, yf]
            out[d] = s + (Vnz[cell - 6, j] if s > 0 else Vz[cell - 6, j])
        if y == 1:
            out[d] += fcfg[EXTRA]


@jit
def step(W: F64, add: I64, sub_ptr: I64, sub_idx: I64, E: F64, best_sub: F64, M: F64) -> None:
    """From the values ``W`` of the 252 throws: every hold's value ``E`` (462) and each
    throw's best hold ``M`` (holding at most four dice)."""
    n_all = E.shape[0]
    for d in range(n_all - FIVE):
        E[FIVE + d] = W[d]
    for m in range(FIVE - 1, -1, -1):
        s = 0.0
        for f in range(6):
            s += E[add[m, f]]
        E[m] = s / 6.0
    for m in range(FIVE):
        b = E[m]
        for k in range(sub_ptr[m], sub_ptr[m + 1]):
            v = best_sub[sub_idx[k]]
            if v > b:
                b = v
        best_sub[m] = b
    for d in range(n_all - FIVE):
        m = FIVE + d
        b = NEG
        for k in range(sub_ptr[m], sub_ptr[m + 1]):
            v = best_sub[sub_idx[k]]
            if v > b:
                b = v
        M[d] = b


@jit
def turn(
    V: F64,
    cfg: I64,
    fcfg: F64,
    kinds: I64,
    pair_um: I64,
    next_pair: I64,
    up_reward: F64,
    counts: I64,
    prob: F64,
    yahtzee: I64,
    lower_score: F64,
    joker_score: F64,
    nz_ptr: I64,
    nz_cell: I64,
    add: I64,
    sub_ptr: I64,
    sub_idx: I64,
    count_move: F64,
    col: int,
    lm: int,
    p: int,
    y: int,
    jc: int,
    shortcut: bool,
    W: F64,
    M: F64,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
    maxVz: F64,
) -> None:
    """Solve one state's turn for up to ``jc`` throws left after the first.

    Fills the successors (``Uv``, ``Vz``, ``Vnz``, ``maxVz``) and, for ``j = 1 … jc``,
    ``M[j]``: the best continuation of each first throw with ``j`` throws left
    (announcing a cell in column II); for free and ordered columns also ``W[j]``,
    the value of the dice after a later throw with ``j`` throws left (``j < jc``).
    ``shortcut``: chase an announced upper cell by counting its face only (exact
    when the extra Yahtzee bonus is off: holding every die of the face is then best).
    """
    kind = kinds[col]
    um = pair_um[p]
    ua, la = allowed(cfg, kind, um, lm)
    successors(V, cfg, fcfg, pair_um, next_pair, up_reward, col, lm, p, y, ua, la, Uv, Vz, Vnz, maxVz)
    joker = joker_applies(cfg, col, lm)
    nd = counts.shape[0]
    E = np.empty(FIVE + nd)
    best_sub = np.empty(FIVE)
    rec = np.empty(nd)
    if kind != 1:
        record_all(
            0, 0, cfg, fcfg, counts, yahtzee, lower_score, joker_score, nz_ptr, nz_cell,
            um, ua, la, joker, y, Uv, Vz, Vnz, maxVz, W[0],
        )  # fmt: skip
        for j in range(1, jc + 1):
            step(W[j - 1], add, sub_ptr, sub_idx, E, best_sub, M[j])
            if j < jc:
                record_all(
                    j, 0, cfg, fcfg, counts, yahtzee, lower_score, joker_score, nz_ptr, nz_cell,
                    um, ua, la, joker, y, Uv, Vz, Vnz, maxVz, rec,
                )  # fmt: skip
                for d in range(nd):
                    W[j, d] = rec[d] if rec[d] > M[j, d] else M[j, d]
        return
    # column II: a further throw needs an announced cell; chase each allowed cell on its own
    for j in range(1, jc + 1):
        for d in range(nd):
            M[j, d] = NEG
    Wc = np.empty(nd)
    Mc = np.empty(nd)
    cw = np.empty(6)
    cw2 = np.empty(6)
    for cell in range(6 + cfg[L_]):
        if cell < 6:
            if not (ua >> cell) & 1:
                continue
            if shortcut:
                for n in range(6):
                    cw[n] = Uv[cell, n, 0]
                for j in range(1, jc + 1):
                    for n in range(6):
                        s = 0.0
                        for n2 in range(6):
                            s += count_move[n, n2] * cw[n2]
                        cw2[n] = s
                    for d in range(nd):
                        v = cw2[counts[d, cell]]
                        if v > M[j, d]:
                            M[j, d] = v
                    for n in range(6):
                        stop = Uv[cell, n, j]
                        cw[n] = stop if stop > cw2[n] else cw2[n]
                continue
        elif not (la >> (cell - 6)) & 1:
            continue
        record_cell(
            0, 0, cell, cfg, fcfg, counts, yahtzee, lower_score, joker_score, um, joker, y, Uv, Vz, Vnz, Wc
        )
        for j in range(1, jc + 1):
            step(Wc, add, sub_ptr, sub_idx, E, best_sub, Mc)
            record_cell(
                j,
                0,
                cell,
                cfg,
                fcfg,
                counts,
                yahtzee,
                lower_score,
                joker_score,
                um,
                joker,
                y,
                Uv,
                Vz,
                Vnz,
                rec,
            )
            for d in range(nd):
                if Mc[d] > M[j, d]:
                    M[j, d] = Mc[d]
                Wc[d] = rec[d] if rec[d] > Mc[d] else Mc[d]


@jit
def start_value(
    b: int,
    cfg: I64,
    fcfg: F64,
    counts: I64,
    prob: F64,
    yahtzee: I64,
    lower_score: F64,
    joker_score: F64,
    nz_ptr: I64,
    nz_cell: I64,
    um: int,
    ua: int,
    la: int,
    joker: bool,
    y: int,
    M: F64,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
    maxVz: F64,
    rec: F64,
) -> float:
    """A state's value at the start of a turn with ``b`` banked throws (after :func:`turn`)."""
    j1 = b + cfg[T_] - 1
    record_all(
        j1, 1, cfg, fcfg, counts, yahtzee, lower_score, joker_score, nz_ptr, nz_cell,
        um, ua, la, joker, y, Uv, Vz, Vnz, maxVz, rec,
    )  # fmt: skip
    s = 0.0
    for d in range(counts.shape[0]):
        w = rec[d]
        if j1 >= 1 and M[j1, d] > w:
            w = M[j1, d]
        s += prob[d] * w
    if cfg[SCRATCH] and la and maxVz[b + cfg[T_]] > s:
        # scratching before the first throw banks them all
        s = maxVz[b + cfg[T_]]
    return s


@jit
def solve_level(
    V: F64,
    cfg: I64,
    fcfg: F64,
    kinds: I64,
    pair_um: I64,
    next_pair: I64,
    up_reward: F64,
    counts: I64,
    prob: F64,
    yahtzee: I64,
    lower_score: F64,
    joker_score: F64,
    nz_ptr: I64,
    nz_cell: I64,
    add: I64,
    sub_ptr: I64,
    sub_idx: I64,
    count_move: F64,
    col: int,
    lms: I64,
    ps: I64,
    ys: I64,
) -> None:
    """Solve every state of one level of one column (their successors are solved)."""
    B = cfg[B_]
    T = cfg[T_]
    jc = B + T - 1
    jm = B + T + 1
    nd = counts.shape[0]
    shortcut = cfg[Y_] == 1
    W = np.empty((jc + 1, nd))
    M = np.empty((jc + 1, nd))
    Uv = np.empty((6, 6, jm))
    Vz = np.empty((cfg[L_], jm))
    Vnz = np.empty((cfg[L_], jm))
    maxVz = np.empty(jm)
    rec = np.empty(nd)
    for i in range(lms.shape[0]):
        lm = lms[i]
        p = ps[i]
        y = ys[i]
        turn(
            V, cfg, fcfg, kinds, pair_um, next_pair, up_reward, counts, prob, yahtzee, lower_score,
            joker_score, nz_ptr, nz_cell, add, sub_ptr, sub_idx, count_move, col, lm, p, y, jc,
            shortcut, W, M, Uv, Vz, Vnz, maxVz,
        )  # fmt: skip
        um = pair_um[p]
        ua, la = allowed(cfg, kinds[col], um, lm)
        joker = joker_applies(cfg, col, lm)
        for b in range(B + 1):
            V[col, lm, p, y, b] = start_value(
                b, cfg, fcfg, counts, prob, yahtzee, lower_score, joker_score, nz_ptr, nz_cell,
                um, ua, la, joker, y, M, Uv, Vz, Vnz, maxVz, rec,
            )  # fmt: skip


@jit
def chase(
    cfg: I64,
    fcfg: F64,
    counts: I64,
    yahtzee: I64,
    lower_score: F64,
    joker_score: F64,
    add: I64,
    sub_ptr: I64,
    sub_idx: I64,
    um: int,
    joker: bool,
    y: int,
    cell: int,
    jc: int,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
    Wc: F64,
    Mc: F64,
) -> None:
    """The chase of one announced cell (after :func:`successors`): ``Wc[j, d]`` the value of
    throw ``d`` (after the first) with ``j`` throws left, ``Mc[j, d]`` its best hold, ``j ≤ jc``."""
    nd = counts.shape[0]
    E = np.empty(FIVE + nd)
    best_sub = np.empty(FIVE)
    rec = np.empty(nd)
    record_cell(
        0, 0, cell, cfg, fcfg, counts, yahtzee, lower_score, joker_score, um, joker, y, Uv, Vz, Vnz, Wc[0]
    )
    for d in range(nd):
        Mc[0, d] = NEG
    for j in range(1, jc + 1):
        step(Wc[j - 1], add, sub_ptr, sub_idx, E, best_sub, Mc[j])
        record_cell(
            j, 0, cell, cfg, fcfg, counts, yahtzee, lower_score, joker_score, um, joker, y, Uv, Vz, Vnz, rec
        )
        for d in range(nd):
            Wc[j, d] = rec[d] if rec[d] > Mc[j, d] else Mc[j, d]
