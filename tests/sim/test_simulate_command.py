"""``kosti simulate``: reports, files, comparisons and refusals, run in-process through ``kosti.cli.main``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import Run
from PIL import Image

from kosti.commands.simulate import parse_assignments
from kosti.sim.report import PLOT_DPI, PLOT_SIZE

SMALL = "poker-classic(lower=[pair,chance])"


@pytest.fixture
def simulate(kosti: Callable[..., Run]) -> Callable[..., Run]:
    """``kosti simulate ARGS…``, in-process."""

    def run(*args: str) -> Run:
        return kosti("simulate", *args)

    return run


def test_the_same_seed_gives_the_same_report_on_one_or_two_workers(simulate: Any) -> None:
    args = (SMALL, "--games", "12", "--bots", "table,random,random", "--seed", "7", "--json")
    one = simulate(*args, "--workers", "1")
    two = simulate(*args, "--workers", "2")
    assert one.code == two.code == 0, one.err + two.err
    assert one.json() == two.json()
    data = one.json()
    assert data["games"] == 12 and data["seed"] == 7 and data["bots"] == ["table", "random", "random"]
    assert [s["name"] for s in data["seats"]] == ["1:table", "2:random", "3:random"]
    assert sum(s["wins"] for s in data["seats"]) >= 12
    assert simulate(*args[:-3], "--seed", "8", "--json").json() != data


def test_csv_and_plot_files(simulate: Any, tmp_path: Path) -> None:
    csv_file, png = tmp_path / "games.csv", tmp_path / "scores.png"
    result = simulate(
        SMALL, "-n", "10", "--bots", "table,random", "--seed", "1", "--csv", str(csv_file), "--plot", str(png)
    )
    assert result.code == 0, result.err
    assert "1:table" in result.out and "score distribution" in result.out
    lines = csv_file.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("game,seed,starter,turns,finished,score_1,score_2,win_1,win_2")
    assert len(lines) == 11
    with Image.open(png) as image:
        assert image.size == (int(PLOT_SIZE[0] * PLOT_DPI), int(PLOT_SIZE[1] * PLOT_DPI))


def test_thousand_reports_bolts_falls_and_dumps(simulate: Any) -> None:
    result = simulate("thousand-classic", "-n", "4", "--bots", "heuristic,heuristic", "--seed", "2", "--json")
    assert result.code == 0, result.err
    data = result.json()
    assert set(data["events_per_game"]) == {"bolts", "falls", "dumps", "dots"}
    assert data["turns"]["mean"]["estimate"] > 10


def test_vectorised_runs_report_the_same_way(simulate: Any) -> None:
    result = simulate(
        SMALL, "-n", "5000", "--bots", "table", "--vectorised", "--seed", "3", "--json", "-w", "1"
    )
    assert result.code == 0, result.err
    data = result.json()
    assert data["method"] == "vector" and data["games"] == 5000
    assert "win_rate" not in data["seats"][0]
    assert data["turns"]["mean"]["estimate"] == 8


def test_compare_reports_paired_differences(simulate: Any) -> None:
    result = simulate(
        "thousand-classic",
        "-n",
        "4",
        "--bots",
        "heuristic,heuristic",
        "--seed",
        "5",
        "--compare",
        "barrel=open",
        "--compare-with",
        "barrel=points",
        "--json",
    )
    assert result.code == 0, result.err
    data = result.json()
    assert data["a"] == "thousand-classic(barrel=open)"
    assert data["b"] == "thousand-classic"
    assert data["games"] == 4
    statistics = {row["statistic"] for row in data["differences"]}
    assert {"game length, turns", "win rate, seat 1:heuristic", "falls per game"} <= statistics
    for row in data["differences"]:
        d = row["difference"]
        assert d["low"] <= d["estimate"] <= d["high"]
        assert d["estimate"] == pytest.approx(row["a"] - row["b"])


def test_compare_writes_a_file_per_side(simulate: Any, tmp_path: Path) -> None:
    csv_file = tmp_path / "g.csv"
    result = simulate(
        SMALL, "-n", "3", "--bots", "table", "--compare", "first_throw=none", "--csv", str(csv_file)
    )
    assert result.code == 0, result.err
    assert "A − B" in result.out
    assert (tmp_path / "g-a.csv").exists() and (tmp_path / "g-b.csv").exists()


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        ((SMALL, "--bots", "genius"), "genius"),
        ((SMALL, "--games", "0"), "--games"),
        ((SMALL, "--bots", "table,random", "--vectorised"), "solitaire"),
        (("poker-fences", "--bots", "table"), "one column"),
        ((SMALL, "--option", "stages"), "name=value"),
        ((SMALL, "--option", "colour=red"), "colour"),
        ((SMALL, "--compare", "stages=sequential"), "same rules"),
        ((SMALL, "--compare-with", "stages=free"), "--compare"),
    ],
)
def test_bad_arguments_exit_2_with_a_reason(simulate: Any, args: tuple[str, ...], reason: str) -> None:
    result = simulate(*args, "-n", "2") if "--games" not in args else simulate(*args)
    assert result.code == 2
    assert result.out == ""
    assert reason in result.err


def test_options_are_read_as_json_where_they_parse() -> None:
    assert parse_assignments(["barrel=open", "pits=[[200,300]],opening=75", "dump_at=null"]) == {
        "barrel": "open",
        "pits": [[200, 300]],
        "opening": 75,
        "dump_at": None,
    }
