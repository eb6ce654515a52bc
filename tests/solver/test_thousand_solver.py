"""The two-player «Тысяча» solver against a second formulation and against the engine (RULES.md §3)."""

from __future__ import annotations

import random
from dataclasses import replace
from importlib import import_module

import numpy as np
import pytest
from thousand_reference import reference_value

from kosti.games.thousand.game import THOUSAND
from kosti.rules.presets import variant
from kosti.solver.thousand.model import build_model, canonical, end_turn, position
from kosti.solver.thousand.solve import solve

thousand_solve = import_module("kosti.solver.thousand.solve")  # the package names its function so
PLAIN_SECONDS = thousand_solve.PLAIN_SECONDS
"""The solves estimated to take at most this long by plain sweeps are made so (unless a test says)."""

SMALL = [
    # opening, bolts and their penalty, overtaking, negative scores: the reference walks the
    # engine's whole game graph, so only this micro variant fits a unit test
    (
        "thousand-classic(target=20,barrel=none,pits=[],dump_at=null,opening=10,bolt_penalty=10,overtake_penalty=5)",
        -10,
    ),
]


@pytest.fixture(autouse=True)
def policy_iteration(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests are about the solver of full-size games: every solve here goes by policy
    iteration, however small (a small game is otherwise solved by plain sweeps)."""
    monkeypatch.setattr(thousand_solve, "PLAIN_SECONDS", -1.0)


@pytest.mark.parametrize(("spec", "floor"), SMALL)
def test_solver_agrees_with_the_engine_graph(spec: str, floor: int) -> None:
    rules = variant(spec)
    exact = reference_value(rules, floor)
    solved = solve(rules, floor=floor, use_cache=False)
    assert solved.win_probability == pytest.approx(exact, abs=1e-9)
    # not a coin toss: the test could tell a wrong model from a right one
    assert abs(exact - 0.5) > 1e-3


FACTOR_VARIANTS = [
    "thousand-classic(target=300,barrel_at=240,pits=[[100,150]],dump_at=155)",
    "thousand-classic(target=300,barrel=open,pits=[[100,150]],dump_at=155,dots_limit=3)",
    "thousand-classic(target=300,barrel_at=240,pits=[[100,150]],dump_at=155,bolts_when_restricted=true)",
    "thousand-v2(target=200,barrel_at=100,opening=30)",
]


@pytest.mark.parametrize("spec", FACTOR_VARIANTS)
def test_the_turns_end_factorises_as_the_model_says(spec: str) -> None:
    """For random pairs of statuses and every legal record, the engine's end of the turn gives
    the mover the model's next status and the opponent the model's effect."""
    small = variant(spec)
    model = build_model(small)
    options = model.options
    rng = random.Random(7)
    checked = 0
    for _ in range(300):
        i = rng.randrange(model.n)
        j = rng.randrange(model.n)
        me, other = model.statuses[i], model.statuses[j]
        b, top = int(model.base[i]), int(model.top[i])
        for t in range(top):
            if not model.can_stop[b + t]:
                continue
            after = end_turn(position(small, me, other, 5 * t), "record")
            assert canonical(options, after.board[0], model.floor) == model.statuses[model.rec_next[b + t]]
            new1 = int(model.new1[b + t])
            effect = 0
            if model.score[i] < model.score[j] < new1:
                effect = 1
            elif model.climbs[b + t] and model.on_barrel[j]:
                effect = 2
            assert (
                canonical(options, after.board[1], model.floor) == model.statuses[model.opp_next[j, effect]]
            )
            checked += 1
        bust = end_turn(position(small, me, other, 0), "bust")
        assert canonical(options, bust.board[0], model.floor) == model.statuses[model.bust_next[i]]
        assert canonical(options, bust.board[1], model.floor) == other
    assert checked > 1000


def test_cleared_fields_do_not_change_the_turns_end() -> None:
    """Fields the canonical status clears are never read: the engine gives the same result with them."""
    rules = variant("thousand-classic(target=300,barrel_at=240,pits=[[100,150]],dump_at=155)")
    model = build_model(rules)
    rng = random.Random(3)
    for _ in range(300):
        me = rng.choice(model.statuses)
        other = rng.choice(model.statuses)
        noisy = replace(me, opening_score=rng.randrange(0, 200), dots=rng.randrange(0, 5))
        for end in ("record", "bust"):
            total = 5 * rng.randrange(1, 60)
            a = end_turn(position(rules, me, other, total), end)  # type: ignore[arg-type]
            b = end_turn(position(rules, noisy, other, total), end)  # type: ignore[arg-type]
            for x, y in zip(a.board, b.board, strict=True):
                assert canonical(model.options, x, model.floor) == canonical(model.options, y, model.floor)


def test_a_variant_out_of_reach_is_refused() -> None:
    from kosti.errors import OptionError

    with pytest.raises(OptionError, match="out of reach"):
        build_model(variant("thousand-v2"), limit=500)


def test_not_thousand_is_refused() -> None:
    from kosti.errors import OptionError

    with pytest.raises(OptionError, match="«Тысяча» only"):
        build_model(variant("poker-classic"))


def test_engine_start_is_the_models_start() -> None:
    rules = variant("thousand-classic(target=100,barrel=none,pits=[])")
    model = build_model(rules)
    assert model.statuses[model.start] == canonical(
        model.options, THOUSAND.new_game(rules, ["a", "b"]).board[0], 0
    )


PLAIN = [
    "thousand-classic(target=25,barrel_at=15,pits=[],dump_at=null,opening=10,bolt_penalty=10,overtake_penalty=5,fall_penalty=10)",
    "thousand-classic(target=25,barrel=open,pits=[],dump_at=null,opening=10,bolt_penalty=10,overtake_penalty=5,fall_penalty=10,dots_limit=2)",
    "thousand-v2(target=25,barrel_at=15,opening=10)",
]


@pytest.mark.parametrize("spec", PLAIN)
def test_policy_iteration_agrees_with_plain_value_iteration(
    spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The solver's recorded policies and their evaluation sweeps reach the fixed point of plain
    Gauss–Seidel value iteration (every sweep a full solve of every turn), barrels included:
    the way a small game is solved at once."""
    rules = variant(spec)
    solved = solve(rules, floor=-10, use_cache=False)
    assert thousand_solve.plain_seconds(solved.model) <= PLAIN_SECONDS  # small: solved plainly unless told
    monkeypatch.setattr(thousand_solve, "PLAIN_SECONDS", PLAIN_SECONDS)
    plainly = solve(rules, floor=-10, use_cache=False, fresh=True)
    assert np.abs(plainly.values - solved.values).max() < 1e-9
    assert plainly.residual <= thousand_solve.TOLERANCE
    # the evaluation sweeps did the work: fewer full solves than plain value iteration
    assert solved.evaluations > 0 and plainly.evaluations == 0
    assert solved.sweeps < plainly.sweeps


BLOCKED = [
    # with a barrel on points, the open barrel (dots) and the capped one with a confirmation
    # throw and set-aside by choice: every branch of the block kernels
    PLAIN[0],
    PLAIN[1],
    "thousand-v2(target=70,barrel_at=55,opening=10)",
]


@pytest.mark.parametrize("spec", BLOCKED)
def test_a_row_solved_in_blocks_is_each_positions_turn(spec: str) -> None:
    """:func:`rows.solve_row` (a mover against blocks of opponents, shared between workers) gives
    every position the value the one-position kernel gives it, and records outcomes whose
    chances add up to 1 (``C`` is 1 but for single-precision rounding)."""
    from kosti.solver.thousand import kernel, rows

    model = build_model(variant(spec), -10)
    n = model.n
    tables = kernel.tables(model)
    generator = np.random.default_rng(7)
    values = generator.uniform(0.05, 0.95, (n, n))
    # more opponents than one block, so that a row has blocks on both workers
    assert n > rows.BLOCK
    work = rows.scratch(kernel.rows(model), 2)
    chances = np.zeros(rows.outcome_size(model), np.float32)
    ends = np.zeros((n, n, 3))
    constant = np.zeros((n, n))
    D = np.empty((kernel.rows(model), 6))
    R = np.empty(kernel.rows(model))
    out = np.empty(n)
    transposed = np.ascontiguousarray(values.T)
    for i in range(n):
        rows.solve_row(tables, transposed, i, chances, ends, constant, work, out)
        expected = [kernel.solve_turn(tables, values, i, j, D, R) for j in range(n)]
        assert np.abs(out - expected).max() < 1e-12
    assert np.abs(constant - 1.0).max() < 1e-6
    assert ends[:, :, 0].max() > 0.1  # busts were recorded: the check above had outcomes to add


def test_the_solve_does_not_depend_on_the_number_of_workers() -> None:
    from kosti.solver.thousand import kernel, rows

    model = build_model(variant(PLAIN[0]), -10)
    n = model.n
    tables = kernel.tables(model)
    results = []
    for workers in (1, 2, 3):
        values = np.full((n, n), 0.5)
        chances = np.zeros(rows.outcome_size(model), np.float32)
        ends = np.zeros((n, n, 3))
        constant = np.zeros((n, n))
        rows.improve(tables, values, chances, ends, constant, rows.scratch(kernel.rows(model), workers), n, 0)
        results.append((values, chances))
    for values, chances in results[1:]:
        assert np.array_equal(values, results[0][0])
        assert np.array_equal(chances, results[0][1])
