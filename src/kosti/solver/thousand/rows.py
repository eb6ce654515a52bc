"""The improvement sweep of the «Тысяча» solver by rows: one mover's turn solved against a
block of opponents at once (numba).

The turn of mover ``i`` has the same shape against every opponent ``j``: the totals where
a stop is allowed, the throws, the statuses a record or a bust leads to. Only the values
at its ends differ. Solving it for :data:`BLOCK` opponents together puts the opponents on
the innermost axis of every table, where the compiler vectorises each step, and the
blocks of a row are shared between the cores. A row is written back to ``V`` once all its
blocks are done, so the result is the same however the blocks are scheduled.

The turn is solved as :func:`~.kernel.solve_turn` solves it for one position (the tests check
the two against each other), and then its outcome under the policy found is recorded for
the evaluation sweeps (:func:`evaluate`): the chance of a bust, a dot, a record on
the barrel's cap, and of a record at each total.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba
import numpy as np

from kosti.solver.jit import inline, kernel
from kosti.solver.thousand.kernel import Tables, opponent_after
from kosti.solver.thousand.model import BEYOND_EXACT, BEYOND_SAT, F64, Model

# -- modified policy iteration ----------------------------------------------------------
#
# An improvement sweep (:func:`improve`) solves every turn and also records the turn's
# outcome under the policy it found: the chance of a bust, a dot, a record on the barrel's
# cap, and of a record at each total ``t``. An evaluation sweep (:func:`evaluate`) then
# values the same policy again for the cost of one multiply-add per outcome instead of a
# turn's solve. The recorded chances ``P`` are single precision, and the constant ``C``
# makes the evaluation reproduce the improvement's value exactly at the values it read: an
# evaluation is an iterative refinement of the improvement, so the rounding of ``P`` slows
# the convergence a little and never moves the fixed point, which only improvements decide.
#
# Both sweeps read the values transposed, ``VT[x, j] = V[j, x]`` (the chance that the player
# to move with status ``j`` wins against status ``x``): what a mover's turn against a block
# of opponents reads is then a contiguous run of each row. ``P`` is laid out the same way:
# ``P[base[i]·n + t·n + j]``, the chance that mover ``i`` against ``j`` records at ``t``.

BUST, DOT, SAT, WIN, AT_TOP, PAST_TOP = 0, 1, 2, 3, 4, 5
"""The outcomes a turn's solve gathers: a bust, a dot, a record on the barrel's cap (these three
are the columns of ``Q``), a win; and records made by a confirmation at ``top`` or past it."""


def outcome_size(model: Model) -> int:
    """Entries of the flat array ``P`` of recorded chances: one per position and total."""
    return int(model.base[model.n]) * model.n


BLOCK = 32
"""Opponents solved together: the scratch tables of a block (about 1 MB) stay in a core's cache."""

# the per-opponent vectors of a block, rows of ``Scratch.vec``
WB, WD, WS, X, FIVE, MASS, START = range(7)


class Scratch(NamedTuple):
    """Working tables of each worker: ``[w]`` is worker ``w``'s, reused for every block."""

    D: F64
    """``D[w, t, k, q]``: the decision with ``k`` dice to throw at total ``t``, opponent ``q``."""
    R: F64
    """``R[w, t, q]``: the value of stopping at ``t`` (−1 where a stop is refused)."""
    M: F64
    """``M[w, t, k, q]``: the chance of reaching ``(t, k)`` under the policy found."""
    S: F64
    """``S[w, t, q]``: the chance of a record at ``t``."""
    acc: F64
    """``acc[w, outcome, q]``: the chances of :data:`~.kernel.BUST` … :data:`~.kernel.PAST_TOP`."""
    vec: F64
    """``vec[w, name, q]``: the block's vectors (:data:`WB` …)."""


def scratch(rows: int, workers: int) -> Scratch:
    """Working tables for ``workers`` workers and ``rows`` totals (:func:`~.kernel.rows`)."""
    return Scratch(
        np.empty((workers, rows, 6, BLOCK)),
        np.empty((workers, rows, BLOCK)),
        np.empty((workers, rows, 6, BLOCK)),
        np.empty((workers, rows, BLOCK)),
        np.empty((workers, 6, BLOCK)),
        np.empty((workers, 7, BLOCK)),
    )


@inline
def _throw(T: Tables, D: F64, t: int, k: int, wb: F64, x: F64, L: int) -> None:
    """``x[q]``: the value of throwing ``k`` dice with ``t`` set aside (as :func:`~.kernel.throw_value`)."""
    a = T.bust[k]
    for q in range(L):
        x[q] = a * wb[q]
    for o in range(T.ptr[k], T.ptr[k + 1]):
        p = T.prob[o]
        w0 = T.opt_ptr[o]
        w1 = T.opt_ptr[o + 1]
        if w1 - w0 == 1:
            row = D[t + T.gain[w0], k - T.used[w0]]
            for q in range(L):
                x[q] += p * row[q]
            continue
        for q in range(L):
            best = -1.0
            for w in range(w0, w1):
                y = D[t + T.gain[w], k - T.used[w], q]
                if y > best:
                    best = y
            x[q] += p * best


@inline
def _confirm(T: Tables, D: F64, R: F64, t: int, wb: F64, x: F64, L: int) -> None:
    """``x[q]``: the confirmation throw of five (as :func:`~.kernel.confirm_value`)."""
    a = T.bust[5]
    for q in range(L):
        x[q] = a * wb[q]
    for o in range(T.all_ptr[5], T.all_ptr[6]):
        t2 = t + T.all_gain[o]
        k2 = 5 - T.all_used[o]
        p = T.all_prob[o]
        for q in range(L):
            r = R[t2, q]
            x[q] += p * (r if r >= 0.0 else D[t2, k2, q])


@inline
def _beyond(T: Tables, D: F64, R: F64, i: int, vec: F64, L: int) -> None:
    """Rows from ``top`` on: a win, a dot, or the closed forms of the barrel's cap (as
    :func:`~.kernel.saturated`)."""
    top = T.top[i]
    beyond = T.beyond[i]
    wb = vec[WB]
    ws = vec[WS]
    if beyond != BEYOND_SAT:
        for t in range(top, D.shape[0]):
            for q in range(L):
                x = vec[WD, q] if beyond == BEYOND_EXACT and t > top else 1.0
                R[t, q] = x
                for k in range(6):
                    D[t, k, q] = x
        return
    a = T.bust[5]
    if T.confirm:
        for t in range(top, D.shape[0]):
            for q in range(L):
                gap = max(0.0, wb[q] - ws[q])
                D[t, 0, q] = a * wb[q] + (1.0 - a) * ws[q]
                R[t, q] = ws[q]
                for k in range(1, 6):
                    D[t, k, q] = ws[q] + T.sat_confirm[k] * gap
        return
    c = T.sat_forced
    for t in range(top, D.shape[0]):
        for q in range(L):
            if ws[q] >= wb[q]:
                h = (a * wb[q] + (1.0 - a - c) * ws[q]) / (1.0 - c)
                d = ws[q]
            else:
                h = wb[q]
                d = wb[q]
            D[t, 0, q] = h
            R[t, q] = ws[q]
            for k in range(1, 6):
                D[t, k, q] = d


@inline
def _solve(T: Tables, VT: F64, i: int, j0: int, L: int, D: F64, R: F64, vec: F64) -> None:
    """The turn of mover ``i`` against opponents ``j0 … j0 + L − 1`` (as :func:`~.kernel.solve_turn`);
    the turn's start values land in ``vec[START]``."""
    top = T.top[i]
    b = T.base[i]
    for q in range(L):
        j = j0 + q
        vec[WB, q] = 1.0 - VT[T.bust_next[i], j]
        vec[WD, q] = 1.0 - VT[T.dot_next[i], j] if T.dot_next[i] >= 0 else 0.0
        vec[WS, q] = 0.0
        if T.beyond[i] == BEYOND_SAT:
            vec[WS, q] = 1.0 - VT[T.sat_next[i], opponent_after(T, i, j, T.sat_new1[i], T.sat_climbs[i])]
    _beyond(T, D, R, i, vec, L)
    wb = vec[WB]
    x = vec[X]
    five = vec[FIVE]
    for t in range(top - 1, -1, -1):
        if T.can_stop[b + t]:
            nxt = T.rec_next[b + t]
            new1 = T.new1[b + t]
            climbs = T.climbs[b + t]
            row = VT[nxt]
            for q in range(L):
                R[t, q] = 1.0 - row[opponent_after(T, i, j0 + q, new1, climbs)]
        else:
            for q in range(L):
                R[t, q] = -1.0
        for k in range(1, 6):
            _throw(T, D, t, k, wb, x, L)
            for q in range(L):
                if k == 5:
                    five[q] = x[q]
                r = R[t, q]
                D[t, k, q] = x[q] if x[q] > r else r
        if T.confirm:
            _confirm(T, D, R, t, wb, x, L)
            for q in range(L):
                D[t, 0, q] = x[q]
        else:
            for q in range(L):
                D[t, 0, q] = five[q]
    _throw(T, D, 0, 5, wb, vec[START], L)


@inline
def _spread(T: Tables, D: F64, M: F64, t: int, k: int, m: F64, acc: F64, L: int) -> None:
    """Spreads ``m[q]``, the chance of throwing ``k`` dice at ``t``, over what the throw leaves,
    each throw set aside the best way (the first of equals, as :func:`_throw` chose)."""
    a = T.bust[k]
    for q in range(L):
        acc[BUST, q] += m[q] * a
    for o in range(T.ptr[k], T.ptr[k + 1]):
        p = T.prob[o]
        w0 = T.opt_ptr[o]
        w1 = T.opt_ptr[o + 1]
        if w1 - w0 == 1:
            row = M[t + T.gain[w0], k - T.used[w0]]
            for q in range(L):
                row[q] += m[q] * p
            continue
        for q in range(L):
            best = -1.0
            way = w0
            for w in range(w0, w1):
                y = D[t + T.gain[w], k - T.used[w], q]
                if y > best:
                    best = y
                    way = w
            M[t + T.gain[way], k - T.used[way], q] += m[q] * p


@inline
def _tail(T: Tables, i: int, t: int, k: int, m: float, ws: float, wb: float, acc: F64, q: int) -> None:
    """The outcomes of ``m``, the chance of reaching ``t ≥ top`` with ``k`` dice (−1: a record),
    for opponent ``q``: the closed forms of :func:`~.kernel.saturated` give it its outcomes."""
    if m == 0.0:
        return
    beyond = T.beyond[i]
    if beyond != BEYOND_SAT:
        if beyond == BEYOND_EXACT and t > T.top[i]:
            acc[DOT, q] += m
        else:
            acc[WIN, q] += m
        return
    if k < 0:
        acc[SAT, q] += m
        return
    a = T.bust[5]
    if T.confirm:
        if k == 0:
            acc[BUST, q] += m * a
            acc[SAT, q] += m * (1.0 - a)
        elif wb > ws:
            c = T.sat_confirm[k]
            acc[BUST, q] += m * c
            acc[SAT, q] += m * (1.0 - c)
        else:
            acc[SAT, q] += m
        return
    if ws >= wb:
        if k == 0:
            c = T.sat_forced
            acc[BUST, q] += m * a / (1.0 - c)
            acc[SAT, q] += m * (1.0 - a - c) / (1.0 - c)
        else:
            acc[SAT, q] += m
    else:
        acc[BUST, q] += m


@inline
def _outcomes(T: Tables, i: int, L: int, D: F64, R: F64, M: F64, S: F64, acc: F64, vec: F64) -> None:
    """The chances of the turn's ends under the policy ``D`` and ``R`` define (stop wherever
    stopping is worth at least throwing on): ``S[t, q]`` a record at ``t < top``, ``acc`` the
    chances of :data:`~.kernel.BUST` … :data:`~.kernel.PAST_TOP`."""
    top = T.top[i]
    M[:, :, :L] = 0.0
    S[:top, :L] = 0.0
    acc[:, :L] = 0.0
    m = vec[MASS]
    for q in range(L):
        m[q] = 1.0
    _spread(T, D, M, 0, 5, m, acc, L)
    for t in range(1, top):
        for k in range(6):
            any_mass = False
            for q in range(L):
                if M[t, k, q] != 0.0:
                    any_mass = True
                    break
            if not any_mass:
                continue
            if k == 0 and T.confirm:
                a = T.bust[5]
                for q in range(L):
                    acc[BUST, q] += M[t, 0, q] * a
                for o in range(T.all_ptr[5], T.all_ptr[6]):
                    t2 = t + T.all_gain[o]
                    k2 = 5 - T.all_used[o]
                    p = T.all_prob[o]
                    for q in range(L):
                        mo = M[t, 0, q] * p
                        if R[t2, q] >= 0.0:
                            if t2 < top:
                                S[t2, q] += mo
                            elif t2 == top:
                                acc[AT_TOP, q] += mo
                            else:
                                acc[PAST_TOP, q] += mo
                        else:
                            M[t2, k2, q] += mo
                continue
            for q in range(L):
                mk = M[t, k, q]
                if k > 0 and R[t, q] >= 0.0 and D[t, k, q] <= R[t, q]:
                    S[t, q] += mk
                    m[q] = 0.0
                else:
                    m[q] = mk
            _spread(T, D, M, t, 5 if k == 0 else k, m, acc, L)
    # past ``top`` only two totals differ (``top`` itself and any higher one)
    for t in range(top + 2, M.shape[0]):
        for k in range(6):
            for q in range(L):
                M[top + 1, k, q] += M[t, k, q]
    for q in range(L):
        ws = vec[WS, q]
        wb = vec[WB, q]
        for k in range(6):
            _tail(T, i, top, k, M[top, k, q], ws, wb, acc, q)
            _tail(T, i, top + 1, k, M[top + 1, k, q], ws, wb, acc, q)
        _tail(T, i, top, -1, acc[AT_TOP, q], ws, wb, acc, q)
        _tail(T, i, top + 1, -1, acc[PAST_TOP, q], ws, wb, acc, q)


@inline
def _stale(T: Tables, VT: F64, i: int, j0: int, j1: int, P: Any, Q: F64, x: F64) -> None:
    """``x[j − j0] = Σ chance × V[successor]`` over the recorded outcomes of mover ``i`` against
    each ``j`` in ``j0 … j1 − 1``."""
    n = VT.shape[0]
    b = T.base[i]
    bust = VT[T.bust_next[i]]
    for j in range(j0, j1):
        x[j - j0] = Q[i, j, BUST] * bust[j]
    if T.dot_next[i] >= 0:
        dot = VT[T.dot_next[i]]
        for j in range(j0, j1):
            x[j - j0] += Q[i, j, DOT] * dot[j]
    if T.beyond[i] == BEYOND_SAT:
        sat = VT[T.sat_next[i]]
        for j in range(j0, j1):
            x[j - j0] += Q[i, j, SAT] * sat[opponent_after(T, i, j, T.sat_new1[i], T.sat_climbs[i])]
    for t in range(T.top[i]):
        if not T.can_stop[b + t]:
            continue  # no record here: its chances are 0
        row = VT[T.rec_next[b + t]]
        new1 = T.new1[b + t]
        climbs = T.climbs[b + t]
        off = (b + t) * n
        for j in range(j0, j1):
            x[j - j0] += P[off + j] * row[opponent_after(T, i, j, new1, climbs)]


@inline
def _block(
    T: Tables, VT: F64, i: int, j0: int, L: int, W: Scratch, w: int, P: Any, Q: F64, C: F64, out: F64
) -> None:
    """Mover ``i`` against opponents ``j0 … j0 + L − 1`` with worker ``w``'s tables: the new
    values into ``out``, the policy's outcomes into ``P``, ``Q`` and ``C``."""
    D, R, M, S, acc, vec = W.D[w], W.R[w], W.M[w], W.S[w], W.acc[w], W.vec[w]
    _solve(T, VT, i, j0, L, D, R, vec)
    _outcomes(T, i, L, D, R, M, S, acc, vec)
    n = VT.shape[0]
    b = T.base[i]
    for t in range(T.top[i]):
        off = (b + t) * n + j0
        for q in range(L):
            P[off + q] = S[t, q]
    for q in range(L):
        Q[i, j0 + q, BUST] = acc[BUST, q]
        Q[i, j0 + q, DOT] = acc[DOT, q]
        Q[i, j0 + q, SAT] = acc[SAT, q]
    x = vec[MASS]
    _stale(T, VT, i, j0, j0 + L, P, Q, x)
    for q in range(L):
        v = vec[START, q]
        C[i, j0 + q] = v + x[q]
        out[j0 + q] = v


@kernel(weight=6, parallel=True)
def solve_row(T: Tables, VT: F64, i: int, P: Any, Q: F64, C: F64, W: Scratch, out: F64) -> None:
    """Mover ``i``'s turn against every opponent, the row's blocks shared between the workers of
    ``W``: the new values into ``out`` (``VT`` is not changed), the outcome of each turn under
    the policy found into ``P`` (single precision) for the records below ``top``, ``Q`` for a
    bust, a dot and a capped record, and ``C`` so that ``C − Σ chance × V[successor]`` is the
    new value (the chances of a turn's ends add up to 1, so ``C`` is 1 but for the rounding of
    ``P``)."""
    n = VT.shape[0]
    workers = W.D.shape[0]
    blocks = (n + BLOCK - 1) // BLOCK
    for w in numba.prange(workers):
        for blk in range(w, blocks, workers):
            j0 = blk * BLOCK
            _block(T, VT, i, j0, min(BLOCK, n - j0), W, w, P, Q, C, out)


@kernel(weight=6)
def improve(T: Tables, VT: F64, P: Any, Q: F64, C: F64, W: Scratch, stop: int, start: int) -> float:
    """Rows ``stop − 1`` down to ``start`` of an improvement sweep over every position by rows,
    the most advanced mover first (a record or a bust moves a player to a later status, so most
    of what a row reads is fresh): each row solved by :func:`solve_row`, then written back. A
    sweep is ``improve(…, n, 0)``, or pieces of it from the top down (to report its progress).
    Returns the largest change of a value."""
    n = VT.shape[0]
    worst = 0.0
    out = np.empty(n)
    for i in range(stop - 1, start - 1, -1):
        solve_row(T, VT, i, P, Q, C, W, out)
        worst = max(worst, _write_back(VT, i, out))
    return worst


@inline
def _write_back(VT: F64, i: int, out: F64) -> float:
    worst = 0.0
    for j in range(VT.shape[0]):
        d = abs(out[j] - VT[j, i])
        if d > worst:
            worst = d
        VT[j, i] = out[j]
    return worst


@kernel(weight=2, parallel=True)
def evaluate_row(T: Tables, VT: F64, i: int, P: Any, Q: F64, C: F64, out: F64, workers: int) -> None:
    """The recorded policy's values of mover ``i`` against every opponent into ``out``
    (``C − Σ chance × V[successor]``), the row shared between ``workers``."""
    n = VT.shape[0]
    size = (n + workers - 1) // workers
    for w in numba.prange(workers):
        j0 = w * size
        j1 = min(n, j0 + size)
        if j0 < j1:
            x = out[j0:j1]
            _stale(T, VT, i, j0, j1, P, Q, x)
            for j in range(j0, j1):
                x[j - j0] = C[i, j] - x[j - j0]


@kernel(weight=2)
def evaluate(T: Tables, VT: F64, P: Any, Q: F64, C: F64, workers: int) -> float:
    """One sweep of the policy recorded by :func:`improve`, in the same order (each row from the
    rows already done). Returns the largest change of a value."""
    n = VT.shape[0]
    worst = 0.0
    out = np.empty(n)
    for i in range(n - 1, -1, -1):
        evaluate_row(T, VT, i, P, Q, C, out, workers)
        worst = max(worst, _write_back(VT, i, out))
    return worst
