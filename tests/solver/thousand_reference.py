"""A second formulation of two-player «Тысяча» for the solver's tests: value iteration over
the engine's own game graph, every throw and every decision walked with ``engine.apply``.

Independent of the solver's model: positions are the engine's states (with a turn
counter and names left out), throws are the engine's chance outcomes, decisions are
``engine.decisions``. Two liberties make the graph finite, and the tests give the solver
the same: scores below ``floor`` count as ``floor``; a turn total past the barrel's cap
counts as the cap (it records the same); the opening score (read only by the capped barrel)
and an unused opening-failure count are cleared.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

import numpy as np

from kosti.actions import Action, Roll
from kosti.dice import outcomes
from kosti.games.thousand.game import THOUSAND, Player, ThousandState
from kosti.games.thousand.scoring import score_throw, unions
from kosti.rules.options import ThousandOptions
from kosti.rules.presets import Variant


def _player(options: ThousandOptions, p: Player, floor: int) -> Player:
    failures = (
        p.opening_failures % options.opening_fail_every
        if options.opening_fail_penalty and not p.opened
        else 0
    )
    opening = p.opening_score if options.barrel == "capped" else None
    return replace(p, score=max(p.score, floor), opening_failures=failures, opening_score=opening)


def _key(state: ThousandState, floor: int) -> tuple[Any, ...]:
    options = state.variant.options
    assert isinstance(options, ThousandOptions)
    board = tuple(_player(options, p, floor) for p in state.board)
    total = state.turn_total
    me = board[state.current]
    if options.barrel in ("points", "capped") and not me.on_barrel:
        total = min(total, max(options.barrel_at - me.score, 0))
    dice = state.dice if state.choosing else ()
    return (
        board,
        state.current,
        total,
        state.dice_left,
        state.pending,
        state.choosing,
        state.confirming,
        dice,
    )


_TURN: dict[tuple[Any, ...], ThousandState] = {}


def _apply(state: ThousandState, action: Action, floor: int) -> ThousandState:
    """``THOUSAND.apply``, remembered while the turn goes on: until it ends, a turn depends only on
    the mover's line (the engine is called again for every turn's end)."""
    mover = state.board[state.current]
    key = (state.variant.spec, mover, _key(state, floor)[2:], action)
    known = _TURN.get(key)
    if known is not None:
        return replace(
            state,
            turn_total=known.turn_total,
            dice=known.dice,
            set_aside=known.set_aside,
            dice_left=known.dice_left,
            pending=known.pending,
            choosing=known.choosing,
            confirming=known.confirming,
        )
    after = THOUSAND.apply(state, action)
    if after.winner is None and after.turn == state.turn:
        _TURN[key] = after
    return after


@cache
def _throws(n: int) -> list[tuple[Action, float]]:
    """The throws of ``n`` dice, one for each way the engine's scoring can treat them: throws
    whose sets of possible set-asides score alike lead to alike states (this keeps the graph small)."""
    groups: dict[tuple[Any, ...], tuple[Action, float]] = {}
    for faces, p in outcomes(n):
        thrown = score_throw(faces)
        ways = tuple(sorted((pts, len(g)) for g, pts in unions(thrown.units).items()))
        key = (thrown.points, len(thrown.scoring), ways)
        action, q = groups.get(key, (Roll(faces), 0.0))
        groups[key] = (action, q + float(p))
    return list(groups.values())


def reference_value(rules: Variant, floor: int, tol: float = 1e-13, max_nodes: int = 400_000) -> float:
    """The first player's chance of winning from the first turn, both playing optimally."""
    start = THOUSAND.new_game(rules, ["first", "second"])
    index: dict[tuple[Any, ...], int] = {}
    states: list[ThousandState] = []
    # per node: kind (0 chance, 1 decision, 2 won by the mover's side), its edges
    kinds: list[int] = []
    edges: list[list[tuple[int, float, bool]]] = []

    def node(state: ThousandState) -> int:
        if state.winner is None:
            # floor the scores in the state itself, so the engine plays on from the bounded state
            options = state.variant.options
            assert isinstance(options, ThousandOptions)
            state = replace(state, board=tuple(_player(options, p, floor) for p in state.board))
        key = _key(state, floor) if state.winner is None else ("won", state.winner)
        if key not in index:
            index[key] = len(states)
            states.append(state)
            kinds.append(-1)
            edges.append([])
        return index[key]

    todo = [node(start)]
    while todo:
        k = todo.pop()
        if kinds[k] != -1:
            continue
        state = states[k]
        if state.winner is not None:
            kinds[k] = 2
            continue
        n = THOUSAND.to_throw(state)
        children: list[tuple[Action, float]] = (
            _throws(n) if n else [(a, 1.0) for a in THOUSAND.decisions(state)]
        )
        kinds[k] = 0 if n else 1
        for action, p in children:
            after = _apply(state, action, floor)
            c = node(after)
            # the child's value is seen from its own mover: flip it when the turn passed
            flip = (after.winner if after.winner is not None else after.current) != state.current
            edges[k].append((c, p, flip))
            if kinds[c] == -1:
                todo.append(c)
        if len(states) > max_nodes:
            raise RuntimeError("the reference graph is too large for a test")
    # edges grouped by their source node, in node order: sums and maxima by segments
    starts = np.zeros(len(states) + 1, np.int64)
    dst_l: list[int] = []
    prob_l: list[float] = []
    flip_l: list[bool] = []
    for k, out in enumerate(edges):
        for c, p, f in out:
            dst_l.append(c)
            prob_l.append(p)
            flip_l.append(f)
        starts[k + 1] = len(dst_l)
    kind = np.array(kinds)
    live = np.flatnonzero(kind != 2)
    chance = kind[live] == 0
    dst, prob, flip = np.array(dst_l), np.array(prob_l), np.array(flip_l)
    values = np.where(kind == 2, 1.0, 0.5)
    for _ in range(100_000):
        seen = np.where(flip, 1.0 - values[dst], values[dst])
        sums = np.add.reduceat(prob * seen, starts[live])
        best = np.maximum.reduceat(seen, starts[live])
        new = values.copy()
        new[live] = np.where(chance, sums, best)
        change = float(np.abs(new - values).max())
        values = new
        if change < tol:
            return float(values[0])
    raise RuntimeError("the reference did not converge")
