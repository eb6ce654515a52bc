"""The compiled inner loops of the two-player «Тысяча» solver (numba).

``V[i, j]`` is the chance that the player to move, with status ``i``, wins against an
opponent with status ``j``, at the start of the mover's turn. One turn is solved
backwards over the turn total ``t`` (in fives; every scoring throw raises it, so the
turn has no cycle below the barrel's cap): the value of throwing ``k`` dice is

    bust_k · W_bust + Σ_throws p · max over ways of setting aside of D[t + gain, k − used],

a decision is worth ``max(W_rec(t), throw)`` where a stop is allowed, and the end of the
turn is worth ``1 − V[opponent's next status, mover's next status]``. Column 0 of ``D``
is the throw of five after hot dice: compulsory (``continue``) or a confirmation
(``confirm``). From the barrel's cap on («бочка»), where the total no longer matters,
the values have closed forms (:func:`saturated`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kosti.solver.jit import inline, kernel
from kosti.solver.thousand.model import BEYOND_EXACT, BEYOND_SAT, F64, I64, Model

MAX_GAIN = 200
"""The largest gain of one throw in fives (five 1s: 1000)."""


class Tables(NamedTuple):
    """The model's arrays as the kernels read them (see :class:`~.model.Model`)."""

    score: I64
    on_barrel: I64
    top: I64
    beyond: I64
    base: I64
    can_stop: I64
    rec_next: I64
    new1: I64
    climbs: I64
    bust_next: I64
    dot_next: I64
    sat_next: I64
    sat_new1: I64
    sat_climbs: I64
    opp_next: I64
    bust: F64
    ptr: I64
    prob: F64
    opt_ptr: I64
    gain: I64
    used: I64
    all_ptr: I64
    all_prob: F64
    all_gain: I64
    all_used: I64
    sat_confirm: F64
    sat_forced: float
    confirm: bool


def tables(model: Model) -> Tables:
    """The kernel's view of ``model``: each field read by name from the model or its throw tables."""
    sources = (model, model.throws)
    fields = {
        name: next(getattr(src, name) for src in sources if hasattr(src, name))
        for name in Tables._fields
        if name != "confirm"
    }
    return Tables(**fields, confirm=model.options.hot_dice == "confirm")


def rows(model: Model) -> int:
    """Rows of the scratch table ``D`` that every status fits in."""
    return int(model.top.max()) + MAX_GAIN + 2


@inline
def opponent_after(T: Tables, i: int, j: int, new1: int, climbs: int) -> int:
    """The opponent's status after mover ``i`` records a score of ``new1`` (§3.4 steps 2, 3)."""
    if T.score[i] < T.score[j] < new1:
        return int(T.opp_next[j, 1])
    if climbs and T.on_barrel[j]:
        return int(T.opp_next[j, 2])
    return int(T.opp_next[j, 0])


@inline
def throw_value(T: Tables, D: F64, t: int, k: int, wb: float) -> float:
    """The value of throwing ``k`` dice with ``t`` set aside (rows above ``t`` solved)."""
    v = T.bust[k] * wb
    for o in range(T.ptr[k], T.ptr[k + 1]):
        best = -1.0
        for w in range(T.opt_ptr[o], T.opt_ptr[o + 1]):
            x = D[t + T.gain[w], k - T.used[w]]
            if x > best:
                best = x
        v += T.prob[o] * best
    return float(v)


@inline
def confirm_value(T: Tables, D: F64, R: F64, t: int, wb: float) -> float:
    """The confirmation throw of five (``hot_dice = "confirm"``): a scoring throw records the turn
    where a stop is allowed (``R[t] ≥ 0``), else it is an ordinary throw."""
    v = T.bust[5] * wb
    for o in range(T.all_ptr[5], T.all_ptr[6]):
        t2 = t + T.all_gain[o]
        k2 = 5 - T.all_used[o]
        x = R[t2] if R[t2] >= 0.0 else D[t2, k2]
        v += T.all_prob[o] * x
    return float(v)


@inline
def saturated(T: Tables, D: F64, R: F64, i: int, j: int, V: F64, wb: float) -> None:
    """Rows from the barrel's cap on: every stop records the same, so with ``ws`` the value of that
    record and ``wb`` that of a bust, a player stops at once when ``ws ≥ wb``; otherwise they throw
    on to bust, which a compulsory throw makes certain and a confirmation stops with
    the chance ``1 − sat_confirm[k]``."""
    top = T.top[i]
    ws = 1.0 - V[opponent_after(T, i, j, T.sat_new1[i], T.sat_climbs[i]), T.sat_next[i]]
    a = T.bust[5]
    if T.confirm:
        h = a * wb + (1.0 - a) * ws
        gap = max(0.0, wb - ws)
        for t in range(top, D.shape[0]):
            D[t, 0] = h
            R[t] = ws
            for k in range(1, 6):
                D[t, k] = ws + T.sat_confirm[k] * gap
        return
    if ws >= wb:
        c = T.sat_forced
        h = (a * wb + (1.0 - a - c) * ws) / (1.0 - c)
        d = ws
    else:
        h = wb
        d = wb
    for t in range(top, D.shape[0]):
        D[t, 0] = h
        R[t] = ws
        for k in range(1, 6):
            D[t, k] = d


@kernel(weight=1)
def solve_turn(T: Tables, V: F64, i: int, j: int, D: F64, R: F64) -> float:
    """Solve the turn of mover ``i`` against ``j``: fills ``D[t, k]`` (decision with ``k`` dice
    to throw; ``k = 0``: the throw after hot dice) and ``R[t]`` (the value of stopping at ``t``,
    −1 where a stop is refused) for every total; returns the value at the turn's start."""
    top = T.top[i]
    b = T.base[i]
    wb = 1.0 - V[j, T.bust_next[i]]
    wd = 0.0
    if T.dot_next[i] >= 0:
        wd = 1.0 - V[j, T.dot_next[i]]
    beyond = T.beyond[i]
    if beyond == BEYOND_SAT:
        saturated(T, D, R, i, j, V, wb)
    else:
        for t in range(top, D.shape[0]):
            x = 1.0
            if beyond == BEYOND_EXACT and t > top:
                x = wd
            R[t] = x
            for k in range(6):
                D[t, k] = x
    for t in range(top - 1, -1, -1):
        wr = -1.0
        if T.can_stop[b + t]:
            wr = 1.0 - V[opponent_after(T, i, j, T.new1[b + t], T.climbs[b + t]), T.rec_next[b + t]]
        R[t] = wr
        for k in range(1, 5):
            x = throw_value(T, D, t, k, wb)
            D[t, k] = x if x > wr else wr
        five = throw_value(T, D, t, 5, wb)
        D[t, 5] = five if five > wr else wr
        D[t, 0] = confirm_value(T, D, R, t, wb) if T.confirm else five
    return throw_value(T, D, 0, 5, wb)


@kernel(weight=1)
def sweep(T: Tables, V: F64, rows: int) -> float:
    """One Gauss–Seidel sweep over every position, the most advanced first (by the sum of the
    two statuses' ranks: a record or a bust moves to higher ranks, so its value is fresh).
    Returns the largest change of a value."""
    n = V.shape[0]
    worst = 0.0
    D = np.empty((rows, 6))
    R = np.empty(rows)
    for s in range(2 * n - 2, -1, -1):
        for i in range(max(0, s - n + 1), min(n - 1, s) + 1):
            j = s - i
            v = solve_turn(T, V, i, j, D, R)
            d = abs(v - V[i, j])
            if d > worst:
                worst = d
            V[i, j] = v
    return worst


@kernel(weight=1)
def decision_values(
    T: Tables, V: F64, i: int, j: int, D: F64, R: F64, t: int, k: int
) -> tuple[float, float, float]:
    """Solve the turn of ``i`` against ``j`` and value, at total ``t`` with ``k`` dice to throw:
    the turn's start, throwing on, and stopping (−1 where a stop is refused)."""
    start = solve_turn(T, V, i, j, D, R)
    row = min(t, D.shape[0] - 1)
    wb = 1.0 - V[j, T.bust_next[i]]
    throw = throw_value(T, D, row, k, wb) if k > 0 else D[row, 0]
    return start, throw, R[row]
