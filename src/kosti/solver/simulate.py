"""Fast simulation of the optimal strategy (numba), to check the solved expectation.

Each game is played in the solver's own model of the rules with the decisions
the solved tables dictate; the mean of many games must agree with the expected
score. (The optimal bot on the real engine, :class:`~kosti.solver.advisor.OptimalBot`,
is checked against the same number, on fewer games: it is much slower.)
"""

from __future__ import annotations

import numpy as np

from kosti.solver.kernels import (
    NEG,
    allowed,
    chase,
    jit,
    joker_applies,
    joker_for,
    record_all,
    record_cell,
    step,
    successors,
    turn,
)
from kosti.solver.model import (
    ALL,
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
    T_,
    TRACK_Y,
    YC,
    dice_tables,
)
from kosti.solver.tables import Solution, in_parallel


def count_codes() -> I64:
    """``lut[code]``: the index in ALL of the multiset with these face counts (base-6 code)."""
    lut = np.full(6**6, -1, dtype=np.int64)
    for i, m in enumerate(ALL):
        code = 0
        for f in m:
            code += 6 ** (f - 1)
        lut[code] = i
    return lut


@jit
def record_choice(
    d: int,
    j: int,
    first: int,
    cfg: I64,
    fcfg: F64,
    counts: I64,
    yahtzee: I64,
    lower_score: F64,
    joker_score: F64,
    um: int,
    ua: int,
    la: int,
    joker: bool,
    y: int,
    Uv: F64,
    Vz: F64,
    Vnz: F64,
) -> tuple[int, int, float]:
    """The best record of throw ``d``: (cell 0–5 upper or 6+ lower, 1 if a scratch, value)."""
    yf = yahtzee[d]
    bonus = fcfg[EXTRA] if (yf > 0 and y == 1) else 0.0
    use_joker = yf > 0 and joker_for(cfg, joker, um, yf)
    best = NEG
    best_cell = -1
    scratch = 0
    upper_ok = True
    lower_ok = True
    if use_joker and cfg[JOKER] == 1:
        # forced joker: its own upper cell if open, else a lower cell, else any upper cell
        if (ua >> (yf - 1)) & 1:
            return yf - 1, 0, Uv[yf - 1, 5, j] + bonus
        upper_ok = la == 0
    for f in range(6):
        if upper_ok and (ua >> f) & 1:
            v = Uv[f, counts[d, f], j] + bonus
            if v > best:
                best, best_cell = v, f
    for c in range(cfg[L_]):
        if lower_ok and (la >> c) & 1:
            s = joker_score[first, c, yf] if use_joker else lower_score[first, c, d]
            v = s + (Vnz[c, j] if s > 0 else Vz[c, j]) + bonus
            if v > best:
                best, best_cell = v, 6 + c
    if cfg[SCRATCH]:
        for c in range(cfg[L_]):
            if (la >> c) & 1 and Vz[c, j] > best:
                best, best_cell, scratch = Vz[c, j], 6 + c, 1
    return best_cell, scratch, best


@jit
def best_hold(cnt: I64, E: F64, lut: I64) -> tuple[int, float]:
    """The hold (as a base-6 count code) of at most four of the dice ``cnt`` with the highest ``E``."""
    h = np.zeros(6, dtype=np.int64)
    best = NEG
    best_code = 0
    while True:
        size = 0
        code = 0
        mult = 1
        for f in range(6):
            size += h[f]
            code += h[f] * mult
            mult *= 6
        if size <= 4:
            v = E[lut[code]]
            if v > best:
                best, best_code = v, code
        # next hold: an odometer over 0..cnt[f]
        f = 0
        while f < 6:
            if h[f] < cnt[f]:
                h[f] += 1
                break
            h[f] = 0
            f += 1
        if f == 6:
            return best_code, best


@jit
def play_game(
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
    lut: I64,
) -> tuple[float, int]:
    """One solitaire game under the optimal strategy: (final score, the most throws ever banked)."""
    B = cfg[B_]
    T = cfg[T_]
    L = cfg[L_]
    nd = counts.shape[0]
    jc = B + T - 1
    jm = B + T + 1
    W = np.empty((jc + 1, nd))
    M = np.empty((jc + 1, nd))
    Uv = np.empty((6, 6, jm))
    Vz = np.empty((L, jm))
    Vnz = np.empty((L, jm))
    maxVz = np.empty(jm)
    Wc = np.empty((6 + L, jc + 1, nd))
    Mc = np.empty((6 + L, jc + 1, nd))
    E = np.empty(FIVE + nd)
    best_sub = np.empty(FIVE)
    scratch_M = np.empty(nd)
    hold_M = np.empty(nd)
    rec = np.empty(nd)
    cnt = np.zeros(6, dtype=np.int64)
    col = 0
    lm = 0
    p = cfg[P0]
    y = 0
    b = 0
    most = 0
    total = 0.0
    while True:
        kind = kinds[col]
        um = pair_um[p]
        ua, la = allowed(cfg, kind, um, lm)
        joker = joker_applies(cfg, col, lm)
        j = b + T - 1
        if kind != 1:
            turn(
                V, cfg, fcfg, kinds, pair_um, next_pair, up_reward, counts, prob, yahtzee, lower_score,
                joker_score, nz_ptr, nz_cell, add, sub_ptr, sub_idx, count_move, col, lm, p, y, j, False,
                W, M, Uv, Vz, Vnz, maxVz,
            )  # fmt: skip
        else:
            successors(V, cfg, fcfg, pair_um, next_pair, up_reward, col, lm, p, y, ua, la, Uv, Vz, Vnz, maxVz)
            for cell in range(6 + L):
                if (cell < 6 and (ua >> cell) & 1) or (cell >= 6 and (la >> (cell - 6)) & 1):
                    chase(
                        cfg, fcfg, counts, yahtzee, lower_score, joker_score, add, sub_ptr, sub_idx, um,
                        joker, y, cell, j, Uv, Vz, Vnz, Wc[cell], Mc[cell],
                    )  # fmt: skip
        record_all(
            j, 1, cfg, fcfg, counts, yahtzee, lower_score, joker_score, nz_ptr, nz_cell, um, ua, la,
            joker, y, Uv, Vz, Vnz, maxVz, rec,
        )  # fmt: skip
        # the best announcement of each first throw (column II)
        announce = np.full(nd, -1, dtype=np.int64)
        if kind == 1 and j >= 1:
            for d in range(nd):
                scratch_M[d] = NEG
            for cell in range(6 + L):
                if (cell < 6 and (ua >> cell) & 1) or (cell >= 6 and (la >> (cell - 6)) & 1):
                    for d in range(nd):
                        if Mc[cell, j, d] > scratch_M[d]:
                            scratch_M[d] = Mc[cell, j, d]
                            announce[d] = cell
        cell = -1
        scratch = 0
        if cfg[SCRATCH] and la:
            start = 0.0
            for d in range(nd):
                w = rec[d]
                if j >= 1:
                    cont = M[j, d] if kind != 1 else scratch_M[d]
                    if cont > w:
                        w = cont
                start += prob[d] * w
            for c in range(L):
                if (la >> c) & 1 and Vz[c, b + T] > start:
                    start, cell, scratch = Vz[c, b + T], 6 + c, 1
        left = b + T
        d = 0
        k = 0
        if cell < 0:
            for f in range(6):
                cnt[f] = 0
            for _ in range(5):
                cnt[np.random.randint(0, 6)] += 1
            k = 1
            left = j
            announced = -1
            while True:
                code = 0
                mult = 1
                for f in range(6):
                    code += cnt[f] * mult
                    mult *= 6
                d = lut[code] - FIVE
                first = 1 if k == 1 else 0
                if announced >= 0:
                    record_cell(
                        left, first, announced, cfg, fcfg, counts, yahtzee, lower_score, joker_score, um,
                        joker, y, Uv, Vz, Vnz, rec,
                    )  # fmt: skip
                    stop_cell, stop_scratch, stop = announced, 0, rec[d]
                else:
                    stop_cell, stop_scratch, stop = record_choice(
                        d, left, first, cfg, fcfg, counts, yahtzee, lower_score, joker_score, um, ua, la,
                        joker, y, Uv, Vz, Vnz,
                    )  # fmt: skip
                go = NEG
                if left >= 1:
                    if kind != 1:
                        go = M[left, d]
                    elif announced >= 0:
                        go = Mc[announced, left, d]
                    elif k == 1:
                        go = scratch_M[d]
                if stop >= go:
                    cell, scratch = stop_cell, stop_scratch
                    break
                if kind == 1 and announced < 0:
                    announced = announce[d]
                later = W[left - 1] if kind != 1 else Wc[announced, left - 1]
                step(later, add, sub_ptr, sub_idx, E, best_sub, hold_M)
                code, _ = best_hold(cnt, E, lut)
                held = 0
                for f in range(6):
                    cnt[f] = code % 6
                    code //= 6
                    held += cnt[f]
                for _ in range(5 - held):
                    cnt[np.random.randint(0, 6)] += 1
                k += 1
                left -= 1
        # record (or scratch) and move on
        if not scratch and yahtzee[d] > 0 and y == 1:
            total += fcfg[EXTRA]
        if scratch:
            lm |= 1 << (cell - 6)
        elif cell < 6:
            n = counts[d, cell]
            total += up_reward[p, cell, n]
            p = next_pair[p, cell, n]
        else:
            c = cell - 6
            yf = yahtzee[d]
            first = 1 if k == 1 else 0
            s = (
                joker_score[first, c, yf]
                if (yf > 0 and joker_for(cfg, joker, um, yf))
                else lower_score[first, c, d]
            )
            total += s
            lm |= 1 << c
            if c == cfg[YC] and col == 0 and cfg[TRACK_Y] and s > 0:
                y = 1
        b = left if left < B else B
        if b > most:
            most = b
        if lm == cfg[FULL_LM] and pair_um[p] == 63:
            col += 1
            lm = 0
            p = cfg[P0]
            if col == cfg[NCOL]:
                return total + b * fcfg[BANK_VALUE], most


@jit
def play_games(
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
    lut: I64,
    seed: int,
    scores: F64,
    banks: I64,
) -> None:
    """Play ``len(scores)`` games; game ``g`` draws its dice from seed ``seed`` and ``g`` alone."""
    for g in range(scores.shape[0]):
        np.random.seed(seed + g)
        scores[g], banks[g] = play_game(
            V, cfg, fcfg, kinds, pair_um, next_pair, up_reward, counts, prob, yahtzee, lower_score,
            joker_score, nz_ptr, nz_cell, add, sub_ptr, sub_idx, count_move, lut,
        )  # fmt: skip


def simulate(solution: Solution, games: int, seed: int = 0) -> tuple[F64, I64]:
    """Scores of ``games`` solitaire games of the optimal strategy, and the most throws each banked."""
    model = solution.model
    t = dice_tables()
    scores = np.zeros(games)
    banks = np.zeros(games, dtype=np.int64)
    lut = count_codes()

    def work(start: int, stop: int) -> None:
        play_games(
            solution.values, model.cfg, model.fcfg, model.kinds, model.pair_um, model.next_pair,
            model.up_reward, t.counts, t.prob, t.yahtzee, model.lower_score, model.joker_score,
            model.nz_ptr, model.nz_cell, t.add, t.sub_ptr, t.sub_idx, t.count_move, lut,
            seed * 1_000_003 + start, scores[start:stop], banks[start:stop],
        )  # fmt: skip

    in_parallel(games, work, chunk=64)
    return scores, banks
