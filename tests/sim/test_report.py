"""Reports of a run (:mod:`kosti.sim.report`) and comparisons (:mod:`kosti.sim.compare`)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from rich.console import Console

from kosti.rules.presets import variant
from kosti.sim import run
from kosti.sim.compare import compare, render_comparison
from kosti.sim.report import PLOT_DPI, PLOT_SIZE, Outcome, plot, render, report, write_csv
from kosti.sim.runner import GameResult
from kosti.sim.stats import wilson

EXPECTED_PIXELS = (int(PLOT_SIZE[0] * PLOT_DPI), int(PLOT_SIZE[1] * PLOT_DPI))


def outcome() -> Outcome:
    # seat 1 wins 3 of 4 games, one of them shared with seat 2
    results = [
        GameResult(0, 11, (100, 90), (0,), 20, 0, True, (2, 0, 0, 1)),
        GameResult(1, 12, (80, 95), (1,), 22, 1, True, (0, 1, 0, 0)),
        GameResult(2, 13, (120, 120), (0, 1), 18, 0, True, (1, 0, 1, 0)),
        GameResult(3, 14, (130, 10), (0,), 30, 1, True, (3, 0, 0, 0)),
    ]
    names = ("bolts", "falls", "dumps", "dots")
    return Outcome.from_results("thousand-classic", ("heuristic", "random"), 5, results, names)


def test_the_report_counts_wins_and_reckons_intervals() -> None:
    data = report(outcome())
    seat1, seat2 = data["seats"]
    assert (seat1["wins"], seat2["wins"]) == (3, 2)
    assert seat1["win_rate"] == wilson(3, 4).as_dict()
    assert seat1["score"]["mean"]["estimate"] == 107.5
    assert data["ties"] == 1
    # starters: seat 1 (won), seat 2 (won), seat 1 (shared), seat 2 (lost)
    assert data["starter_win_rate"]["estimate"] == 0.75
    assert data["turns"]["mean"]["estimate"] == 22.5
    assert data["events_per_game"]["bolts"]["estimate"] == 1.5
    assert data["unfinished"] == 0


def test_the_rendered_report_shows_every_seat_and_the_histogram() -> None:
    console = Console(width=100, record=True)
    console.print(render(report(outcome()), outcome(), bins=5, width=100))
    text = console.export_text()
    for expected in ("1:heuristic", "2:random", "wins", "bolts per game", "score distribution"):
        assert expected in text
    assert max(len(line) for line in text.splitlines()) <= 100


def test_the_csv_has_a_row_per_game(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    write_csv(outcome(), path)
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 4
    assert rows[1] == {
        "game": "1",
        "seed": "12",
        "starter": "2",
        "turns": "22",
        "finished": "1",
        "score_1": "80",
        "score_2": "95",
        "win_1": "0",
        "win_2": "1",
        "bolts": "0",
        "falls": "1",
        "dumps": "0",
        "dots": "0",
    }


@pytest.mark.parametrize("seats", [1, 2])
def test_the_plot_is_a_png_of_the_stated_size(tmp_path: Path, seats: int) -> None:
    path = tmp_path / "plot.png"
    if seats == 1:
        scores = np.random.default_rng(1).normal(200, 30, 500).astype(np.int64)
        data = Outcome.solitaire("yahtzee", "table", 1, scores, 13)
    else:
        data = outcome()
    plot(data, report(data), path)
    with Image.open(path) as image:
        assert image.format == "PNG"
        assert image.size == EXPECTED_PIXELS


def test_a_comparison_pairs_the_games_of_both_sides() -> None:
    # faces=cards only changes the display: with common random numbers every difference is exactly 0
    a = run(variant("poker-classic(faces=cards,lower=[pair,chance])"), ["table", "random"], 8, 2)
    b = run(variant("poker-classic(lower=[pair,chance])"), ["table", "random"], 8, 2)
    data = compare(a, b)
    statistics = [row["statistic"] for row in data["differences"]]
    assert statistics == [
        "mean score, seat 1:table",
        "mean score, seat 2:random",
        "game length, turns",
        "win rate, seat 1:table",
    ]
    for row in data["differences"]:
        assert row["difference"] == {"estimate": 0.0, "low": 0.0, "high": 0.0}
        assert not row["significant"]
    console = Console(width=120, record=True)
    console.print(render_comparison(data))
    assert "A − B" in console.export_text()


def test_a_comparison_finds_a_real_difference() -> None:
    # a poker bonus of 500 instead of 50: only games with a poker change, and all upward
    a = run(variant("poker-free(lower=[poker,chance],poker_bonus=500)"), ["table"], 400, 6, vectorised=True)
    b = run(variant("poker-free(lower=[poker,chance])"), ["table"], 400, 6, vectorised=True)
    mean = compare(a, b)["differences"][0]
    assert mean["a"] > mean["b"]
    assert mean["significant"]
