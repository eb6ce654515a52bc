"""The two-player «Тысяча» solver against a second formulation and against the engine (RULES.md §3)."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest
from thousand_reference import reference_value

from kosti.games.thousand.game import THOUSAND
from kosti.rules.presets import variant
from kosti.solver.thousand.model import build_model, canonical, end_turn, position
from kosti.solver.thousand.solve import solve

SMALL = [
    # opening, bolts and their penalty, overtaking, negative scores: the reference walks the
    # engine's whole game graph, so only this micro variant fits a unit test
    (
        "thousand-classic(target=20,barrel=none,pits=[],dump_at=null,opening=10,bolt_penalty=10,overtake_penalty=5)",
        -10,
    ),
]


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
def test_policy_iteration_agrees_with_plain_value_iteration(spec: str) -> None:
    """The solver's recorded policies and their evaluation sweeps reach the fixed point of plain
    Gauss–Seidel value iteration (every sweep a full solve of every turn), barrels included."""
    from kosti.solver.thousand import kernel

    rules = variant(spec)
    solved = solve(rules, floor=-10, use_cache=False)
    model = solved.model
    values = np.full((model.n, model.n), 0.5)
    tables, rows = kernel.tables(model), kernel.rows(model)
    plain = 0
    while kernel.sweep(tables, values, rows) > 1e-13:
        plain += 1
    assert np.abs(values - solved.values).max() < 1e-9
    # the evaluation sweeps did the work: fewer full solves than plain value iteration
    assert solved.evaluations > 0
    assert solved.sweeps < plain
