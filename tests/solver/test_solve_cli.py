"""``kosti solve``, ``kosti hint`` and ``kosti report``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kosti.actions import Score
from kosti.games.sheet.game import SHEET
from kosti.record import Recorder
from kosti.roller import SeededDice
from kosti.rules.presets import variant
from kosti.solver import OptimalBot

SMALL = "yahtzee(lower=[yahtzee,chance])"


def refused(run: Any, word: str) -> None:
    assert run.code == 2 and run.out == ""
    assert len(run.err.strip().splitlines()) == 1 and word in run.err


def test_solve_fresh_json_gives_the_exact_optimum(kosti: Any) -> None:
    run = kosti("solve", SMALL, "--fresh", "--json")
    assert run.code == 0, run.err
    data = run.json()
    assert set(data) == {"preset", "expected_score", "seconds"}
    assert data["preset"] == variant(SMALL).spec
    # the same game solved independently: yatzy-solver 1.0.0, variant american+forced-joker,
    # state_value("upper 0 | filled three_of_a_kind,four_of_a_kind,full_house,small_straight,
    # large_straight") = 118.22210673389702 (the cells this sheet lacks, as already filled)
    assert data["expected_score"] == pytest.approx(118.22210673389702, abs=1e-6)
    assert data["seconds"] >= 0
    text = kosti("solve", SMALL)
    assert f"{data['expected_score']:.4f}" in text.out


def test_solve_yatzy_prints_the_scandinavian_optimum(kosti: Any) -> None:
    # yatzy-solver 1.0.0, variant yatzy-scandinavian: 248.4399893778553
    run = kosti("solve", "yatzy", "--json")
    assert run.code == 0, run.err
    assert run.json()["expected_score"] == pytest.approx(248.4399894, abs=1e-6)
    assert "yatzy: expected score 248.4400" in kosti("solve", "yatzy").out


def test_solve_refuses_other_games(kosti: Any) -> None:
    refused(kosti("solve", "thousand-classic", "--json"), "--players 2")
    refused(kosti("solve", "poker-classic", "--players", "2"), "solitaire")
    refused(kosti("solve", "no-such-game"), "unknown preset")


def test_hint_ranks_a_position(kosti: Any) -> None:
    position = {"variant": SMALL, "sheet": {"sixes": 18, "yahtzee": 50}, "dice": [6, 6, 6, 6, 6], "throws": 1}
    run = kosti("hint", "--position", json.dumps(position), "--json", "--top", "0")
    assert run.code == 0, run.err
    data = run.json()
    decisions = data["decisions"]
    # a further Yahtzee with sixes recorded: the forced joker sends it to a lower cell, +100
    assert decisions[0]["action"] == {"score": "chance"}
    assert decisions[0]["loss"] == 0 and data["value"] == decisions[0]["value"]
    assert data["exact"] is True
    assert data["value"] >= 18 + 50 + 100 + 30
    assert all(d["loss"] >= 0 for d in decisions)
    assert {json.dumps(d["action"]) for d in decisions} >= {'{"hold": [6, 6, 6, 6]}'}


def test_hint_refuses_bad_positions(kosti: Any) -> None:
    refused(kosti("hint"), "--record")
    refused(kosti("hint", "--position", "{"), "JSON")
    refused(kosti("hint", "--position", json.dumps({"variant": SMALL, "sheet": {"pair": 4}})), "pair")
    refused(kosti("hint", "--position", json.dumps({"variant": SMALL, "dice": [1, 2, 3]})), "5 dice")


def game_record(tmp_path: Path, mistake: bool) -> Path:
    """A finished two-player game of the optimal bot; optionally Anna records chance at once."""
    recorder = Recorder(variant(SMALL), ["Anna", "Boris"])
    bot = OptimalBot()
    dice = SeededDice(3)
    from kosti.actions import Roll

    first = True
    while not SHEET.is_finished(recorder.state):  # type: ignore[arg-type]
        n = SHEET.to_throw(recorder.state)  # type: ignore[arg-type]
        if n:
            recorder.apply(Roll(dice.roll(n)))
            continue
        action = bot.choose(recorder.state)
        if mistake and first and Score("chance") in SHEET.decisions(recorder.state):  # type: ignore[arg-type]
            action = Score("chance")
        first = False
        recorder.apply(action)
    path = tmp_path / ("mistake.json" if mistake else "clean.json")
    path.write_text(recorder.record.dumps(), encoding="utf-8")
    return path


def test_report_of_optimal_play_loses_nothing(kosti: Any, tmp_path: Path) -> None:
    run = kosti("report", str(game_record(tmp_path, mistake=False)), "--json")
    assert run.code == 0, run.err
    data = run.json()
    assert data["finished"]
    assert [p["name"] for p in data["players"]] == ["Anna", "Boris"]
    for player in data["players"]:
        assert player["loss"] == pytest.approx(0, abs=1e-6) and player["decisions"] > 8


def test_report_finds_a_mistake(kosti: Any, tmp_path: Path) -> None:
    data = kosti("report", str(game_record(tmp_path, mistake=True)), "--json").json()
    anna = next(p for p in data["players"] if p["name"] == "Anna")
    assert anna["mistakes"] >= 1 and anna["loss"] > 1
    first = data["decisions"][0]
    assert first["action"] == {"score": "chance"} and first["loss"] == pytest.approx(anna["loss"], rel=0.5)
    assert first["best_value"] - first["value"] == pytest.approx(first["loss"])
    text = kosti("report", str(game_record(tmp_path, mistake=True)))
    assert "Anna" in text.out and "score chance" in text.out


def test_hint_reads_the_position_after_a_record(kosti: Any, tmp_path: Path) -> None:
    record = tmp_path / "start.json"
    record.write_text(
        json.dumps(
            {
                "variant": SMALL,
                "players": ["Anna"],
                "turns": [{"player": "Anna", "actions": [{"roll": [2, 2, 5, 5, 5]}]}],
            }
        ),
        encoding="utf-8",
    )
    data = kosti("hint", "--record", str(record), "--json").json()
    assert data["player"] == "Anna"
    assert data["decisions"][0]["loss"] == 0
    same = {"variant": SMALL, "dice": [5, 2, 5, 2, 5], "throws_left": 2}
    assert kosti("hint", "--position", json.dumps(same), "--json").json()["decisions"] == data["decisions"]


def test_solve_with_the_free_joker_is_told_apart(kosti: Any) -> None:
    forced = kosti("solve", SMALL, "--json").json()["expected_score"]
    free = kosti("solve", SMALL.replace(")", ",joker=free)"), "--json").json()["expected_score"]
    # with the upper cells still open a further Yahtzee is not forced anywhere: worth more
    assert free > forced
    refused(kosti("solve", SMALL.replace(")", ",joker=wild)")), "joker")
