"""The optimal «Тысяча» bot on the real engine, its advice, and ``kosti solve/hint/report`` for it."""

from __future__ import annotations

import json
from math import sqrt
from pathlib import Path
from typing import Any

from helpers import TINY_THOUSAND, thousand_position

from kosti.actions import Roll, Stop, Throw
from kosti.bots.base import play_out
from kosti.bots.thousand import ThousandBot
from kosti.games.thousand.game import THOUSAND
from kosti.levels import levels_for, make_bot
from kosti.record import Recorder
from kosti.roller import SeededDice
from kosti.rules.presets import variant
from kosti.solver.thousand.advisor import OptimalThousandBot, ThousandAdvisor
from kosti.solver.thousand.solve import solve

TINY = TINY_THOUSAND


def test_optimal_against_itself_wins_as_often_as_the_solver_says() -> None:
    rules = variant(TINY)
    p = solve(rules).win_probability
    bot = OptimalThousandBot()
    games = 150
    wins = sum(
        play_out(THOUSAND.new_game(rules, ["a", "b"]), [bot, bot], SeededDice(seed)).winner == 0  # type: ignore[attr-defined]
        for seed in range(games)
    )
    half = 2.576 * sqrt(p * (1 - p) / games)
    assert abs(wins / games - p) < half


def test_the_advice_is_ranked_and_a_forced_stop_is_not_offered() -> None:
    rules = variant(TINY)
    advisor = ThousandAdvisor()
    state = THOUSAND.new_game(rules, ["a", "b"])
    # 1 and 5 set aside: 15 on the table, opening is 10, so both stop and throw are legal
    state = THOUSAND.apply(state, Roll((1, 5, 2, 3, 3)))
    advice = advisor.advise(state)
    assert {type(a.action) for a in advice} == {Throw, Stop}
    assert advice[0].loss == 0.0 and all(0.0 <= (a.value or 0) <= 1.0 for a in advice)
    assert advice[0].value == max(a.value or 0 for a in advice)
    assert advisor.position_value(state) == advice[0].value
    # stopping at 15 from 0 against 0 records 15 of the 20 needed: the value is the opponent's turn
    solution = solve(rules)
    model = solution.model
    stop = next(a for a in advice if isinstance(a.action, Stop))
    after = THOUSAND.apply(state, Stop())
    i = model.status_of(after.board[1])
    j = model.status_of(after.board[0])
    assert stop.value == 1.0 - solution.values[i, j]


def test_optimal_is_a_level_for_thousand() -> None:
    assert "optimal" in levels_for("thousand")
    assert make_bot("optimal", "thousand").name == "optimal"


def test_optimal_beats_the_heuristic_bot() -> None:
    rules = variant(TINY)
    optimal, heuristic = OptimalThousandBot(), ThousandBot()
    wins = 0
    games = 100
    for seed in range(games):
        seats = [optimal, heuristic] if seed % 2 == 0 else [heuristic, optimal]
        end = play_out(THOUSAND.new_game(rules, ["a", "b"]), seats, SeededDice(seed))
        wins += end.winner == seed % 2  # type: ignore[attr-defined]
    assert wins > games // 2


def test_solve_cli_for_two_players(kosti: Any) -> None:
    run = kosti("solve", TINY, "--players", "2", "--json")
    assert run.code == 0, run.err
    data = run.json()
    assert data["win_probability"] == solve(variant(TINY)).win_probability
    assert data["states"] == solve(variant(TINY)).model.positions > 100
    assert {"seconds", "peak_memory_mb", "sweeps"} <= set(data)
    again = kosti("solve", TINY, "--players", "2", "--json").json()
    assert again["cached"] is True and again["win_probability"] == data["win_probability"]


def test_solve_cli_refuses_what_it_cannot_do(kosti: Any) -> None:
    for args, word in [
        (("solve", "thousand-classic", "--players", "3"), "--players 2"),
        (("solve", "thousand-v2", "--players", "2", "--json"), "out of reach"),
    ]:
        run = kosti(*args)
        assert run.code == 2 and run.out == ""
        assert len(run.err.strip().splitlines()) == 1 and word in run.err


def test_hint_for_a_thousand_position(kosti: Any) -> None:
    position = thousand_position(TINY, (5, 10), 10, 3)
    run = kosti("hint", "--position", json.dumps(position), "--json")
    assert run.code == 0, run.err
    data = run.json()
    assert data["player"] == "Anna" and data["exact"] is True
    assert {d["action"] for d in data["decisions"]} == {"throw", "stop"}
    assert data["decisions"][0]["value"] == data["win_probability"]
    # 5 + 10 = 15 of 20: stopping is allowed, so both decisions are shown
    assert len(data["decisions"]) == 2
    bad = kosti("hint", "--position", json.dumps({**position, "dice_left": 7}))
    assert bad.code == 2 and "dice_left" in bad.err


def test_report_for_a_thousand_record(kosti: Any, tmp_path: Path) -> None:
    rules = variant(TINY)
    recorder = Recorder(rules, ["Anna", "Boris"])
    play_out(recorder.state, [ThousandBot(), OptimalThousandBot()], SeededDice(5), on_action=recorder.log)
    path = tmp_path / "game.json"
    path.write_text(recorder.record.dumps(), encoding="utf-8")
    run = kosti("report", str(path), "--json")
    assert run.code == 0, run.err
    data = run.json()
    by_name = {p["name"]: p for p in data["players"]}
    assert by_name["Boris"]["loss"] < 1e-9
    assert all(d["loss"] >= 0 for d in data["decisions"])
    assert by_name["Anna"]["decisions"] + by_name["Boris"]["decisions"] == len(data["decisions"])
