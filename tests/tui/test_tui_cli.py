"""``kosti play`` on the command line: arguments become the game's setup; bad ones exit 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kosti.tui.app import KostiApp, PlayConfig
from kosti.tui.session import Seat


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[PlayConfig]:
    """Catch the configuration ``kosti play`` starts the app with, without opening it."""
    seen: list[PlayConfig] = []

    def run(self: KostiApp, *args: Any, **kwargs: Any) -> Path | None:
        seen.append(self.config)
        return None

    monkeypatch.setattr(KostiApp, "run", run)
    return seen


def test_players_bots_and_options_reach_the_game(kosti: Any, started: list[PlayConfig]) -> None:
    result = kosti(
        "play",
        "poker-free",
        "-p",
        "Anna",
        "-b",
        "heuristic",
        "-b",
        "heuristic",
        "-o",
        "stake=2",
        "--lang",
        "ru",
    )
    assert result.code == 0, result.err
    (config,) = started
    assert config.preset == "poker-free(stake=2)"
    assert config.lang == "ru"
    assert config.seats == [Seat("Anna"), Seat("Умник", "heuristic"), Seat("Умник 2", "heuristic")]


def test_seed_manual_and_record_are_passed_on(kosti: Any, started: list[PlayConfig], tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    result = kosti("play", "thousand-v2", "-p", "Anna", "--seed", "7", "--manual", "--record", str(record))
    assert result.code == 0, result.err
    (config,) = started
    assert (config.seed, config.manual, config.record) == (7, True, record)


def test_resume_reads_the_record(kosti: Any, started: list[PlayConfig]) -> None:
    records = Path(__file__).resolve().parents[1] / "records"
    path = records / "thousand-classic-opening.json"
    result = kosti("play", "--resume", str(path))
    assert result.code == 0, result.err
    (config,) = started
    assert config.resume is not None and config.resume.players == ["Anna", "Boris"]
    assert config.record == path  # the game goes on in the same file


@pytest.mark.parametrize(
    "args",
    [
        ["play", "poker-free", "-b", "genius"],
        ["play", "poker-showdown", "-b", "optimal"],  # no exact showdown bot
        ["play", "-o", "stake=2"],
        ["play", "poker-free", "-o", "nonsense"],
        ["play", "no-such-game"],
        ["play", "poker-free", "--lang", "de"],
        ["play", "poker-free", "-p", "Anna", "-p", "Anna"],
        ["play", "--resume", "no-such-file.json"],
    ],
)
def test_bad_arguments_exit_2_with_one_line(kosti: Any, started: list[PlayConfig], args: list[str]) -> None:
    result = kosti(*args)
    assert result.code == 2
    assert result.out == ""
    assert len(result.err.strip().splitlines()) == 1
    assert started == []


@pytest.mark.parametrize(
    ("variant", "roll", "best"),
    [
        # three 1s and a 5 with one die left: stopping at 105 beats a one-die throw (RULES.md §3)
        ("thousand-classic", [1, 1, 1, 5, 2], "stop"),
        # a showdown hand of two pairs: holding both pairs comes first (RULES.md §2)
        ("poker-showdown", [4, 4, 6, 6, 1], "hold 4 4 6 6"),
    ],
)
def test_hint_reads_a_record_of_every_family(
    kosti: Any, tmp_path: Path, variant: str, roll: list[int], best: str
) -> None:
    record = tmp_path / "game.json"
    turns = [{"player": "Anna", "actions": [{"roll": roll}]}]
    record.write_text(json.dumps({"variant": variant, "players": ["Anna", "Boris"], "turns": turns}))
    data = kosti("hint", "--record", str(record), "--json").json()
    assert data["player"] == "Anna"
    assert data["decisions"][0]["text"] == best
    assert data["decisions"][0]["loss"] == 0
    assert kosti("hint", "--record", str(record)).code == 0
