"""The optimal «Тысяча» level is offered only where it can play now: solved before, or small
enough to solve in seconds. One check (``kosti.levels``) for the bot levels, the new-game
screen, ``kosti play -b optimal`` and the server's seats and hints."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import TINY_THOUSAND, thousand_position

from kosti.errors import OptionError
from kosti.levels import levels_for, make_bot, optimal_available, unavailable
from kosti.rules.presets import variant
from kosti.solver.thousand import ready
from kosti.solver.thousand.solve import is_solved, solve

TINY = TINY_THOUSAND
FULL = "thousand-classic"
UNSOLVED = "thousand-v2"
"""A full-size game that ships no values (thousand-classic ships them)."""


def test_the_bound_is_an_upper_bound_of_the_model_and_cheap() -> None:
    from kosti.solver.thousand.model import build_model

    rules = variant(TINY)
    assert build_model(rules).n <= ready.status_bound(rules) <= ready.QUICK_STATUSES
    assert ready.status_bound(variant(FULL)) > 2149  # the full game's model has 2 149 statuses


def test_quick_is_decided_by_the_bound_on_both_sides(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = variant(TINY)
    bound = ready.status_bound(rules)
    monkeypatch.setattr(ready, "QUICK_STATUSES", bound)
    assert ready.quick(rules)
    monkeypatch.setattr(ready, "QUICK_STATUSES", bound - 1)
    assert not ready.quick(rules)


def test_a_big_variant_is_offered_once_it_is_solved(monkeypatch: pytest.MonkeyPatch) -> None:
    # pretend the tiny game is big: only its solved table makes the level available
    rules = variant(TINY.replace("target=20", "target=25"))
    monkeypatch.setattr(ready, "QUICK_STATUSES", 0)
    assert not is_solved(rules)
    assert not optimal_available(rules) and "optimal" not in levels_for(rules)
    solve(rules)
    assert optimal_available(rules) and levels_for(rules) == ["random", "heuristic", "optimal"]


def test_an_unsolved_full_game_has_no_optimal_bot() -> None:
    rules = variant(UNSOLVED)
    assert levels_for(rules) == ["random", "heuristic"]
    reason = unavailable("optimal", rules)
    assert reason is not None and "kosti solve thousand-v2 --players 2" in str(reason)
    with pytest.raises(OptionError, match="kosti solve thousand-v2 --players 2"):
        make_bot("optimal", rules)
    # three or more players are advised from the same two-player values: the same answer
    assert levels_for(variant(TINY)) == ["random", "heuristic", "optimal"]
    assert make_bot("optimal", variant(TINY)).name == "optimal"
    # a family alone says what some variant of it offers (a list of families)
    assert "optimal" in levels_for("thousand") and "optimal" not in levels_for("showdown")


def test_a_spec_that_needs_quoting_is_quoted_in_the_command() -> None:
    rules = variant(f"{FULL}(barrel=none)")
    assert ready.solve_command(rules) == "kosti solve 'thousand-classic(barrel=none)' --players 2"


def test_kosti_play_refuses_the_optimal_bot_of_an_unsolved_full_game(kosti: Any) -> None:
    run = kosti("play", UNSOLVED, "-p", "Anna", "-b", "optimal")
    assert run.code == 2 and run.out == ""
    assert len(run.err.strip().splitlines()) == 1
    assert "kosti solve thousand-v2 --players 2" in run.err


def test_kosti_play_seats_a_small_games_optimal_bot(kosti: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from kosti.tui.app import KostiApp

    seen: list[Any] = []
    monkeypatch.setattr(KostiApp, "run", lambda self, *a, **k: seen.append(self.config))
    run = kosti("play", TINY, "-p", "Anna", "-b", "optimal")
    assert run.code == 0, run.err
    assert [seat.level for seat in seen[0].seats] == [None, "optimal"]


@pytest.mark.asyncio
async def test_the_new_game_screen_offers_optimal_only_where_it_plays() -> None:
    from textual.widgets import Select

    from kosti.tui.app import KostiApp, PlayConfig
    from kosti.tui.setup_screen import SetupScreen

    app = KostiApp(PlayConfig(lang="en", bot_delay=0, save=False))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        offered = {}
        for preset in (UNSOLVED, "poker-classic"):
            screen.query_one("#preset", Select).value = preset
            await pilot.pause()
            offered[preset] = [value for _label, value in screen._levels()]
        assert offered == {
            UNSOLVED: ["random", "heuristic"],
            "poker-classic": ["random", "heuristic", "optimal"],
        }


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("en_GB.UTF-8", ["chance of winning", "throw on", "stop", "%"]),
        ("ru_RU.UTF-8", ["шанс на победу", "бросать дальше", "хватит", "%"]),
    ],
)
def test_kosti_hint_words_the_chances_in_the_users_language(
    kosti: Any, monkeypatch: pytest.MonkeyPatch, locale: str, words: list[str]
) -> None:
    import json

    monkeypatch.setenv("LC_ALL", locale)
    position = thousand_position(TINY, (5, 10), 10, 3)
    run = kosti("hint", "--position", json.dumps(position))
    assert run.code == 0, run.err
    for word in words:
        assert word in run.out


def test_kosti_hint_keeps_to_the_heuristic_for_an_unsolved_full_game(kosti: Any) -> None:
    import json

    position = thousand_position(UNSOLVED, (300, 100), 60, 3)
    run = kosti("hint", "--position", json.dumps(position), "--json")
    assert run.code == 0, run.err
    assert "win_probability" not in run.json() and run.json()["decisions"]


def test_the_report_gives_the_chance_lost_at_each_decision(
    kosti: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    monkeypatch.setenv("COLUMNS", "200")  # no wrapped lines

    from kosti.actions import Roll, Stop
    from kosti.games.thousand.game import THOUSAND
    from kosti.solver.thousand.advisor import ThousandAdvisor

    rules = variant(TINY)
    record = {
        "variant": TINY,
        "players": ["Anna", "Boris"],
        # Anna stops at 15 with three dice left; Boris throws on at 10, which a bare roll stands for
        "turns": [
            {"player": "Anna", "actions": [{"roll": [1, 5, 2, 3, 3]}, "stop"]},
            {"player": "Boris", "actions": [{"roll": [1, 2, 3, 4, 6]}, {"roll": [2, 3, 4, 6]}]},
        ],
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    state = THOUSAND.apply(THOUSAND.new_game(rules, ["Anna", "Boris"]), Roll((1, 5, 2, 3, 3)))
    advice = {type(a.action): a for a in ThousandAdvisor().advise(state)}
    lost = advice[Stop].loss
    assert lost is not None and lost > 0.1  # stopping at 15 of 20 gives much away
    data = kosti("report", str(path), "--json").json()
    anna, boris = data["decisions"]
    assert (anna["player"], anna["action"], anna["best"], anna["turn_total"]) == ("Anna", "stop", "throw", 15)
    assert anna["loss"] == pytest.approx(lost, abs=1e-12)
    assert (boris["action"], boris["turn_total"]) == ("throw", 10)
    by_name = {p["name"]: p for p in data["players"]}
    assert by_name["Anna"]["mistakes"] == 1 and by_name["Anna"]["loss"] == pytest.approx(lost, abs=1e-12)
    assert by_name["Boris"]["decisions"] == 1
    text = kosti("report", str(path))
    assert text.code == 0, text.err
    assert f"chance of winning given up {100 * lost:.2f} %" in text.out
    assert f"{100 * lost:.2f} %" in text.out.split("Anna:")[1]


def test_the_report_of_an_unsolved_full_game_names_the_solve(kosti: Any, tmp_path: Any) -> None:
    path = tmp_path / "game.json"
    records = Path(__file__).resolve().parents[1] / "records"
    # thousand-classic's values ship with kosti: the same game under a penalty of its own is unsolved
    game = json.loads((records / "thousand-classic-opening.json").read_text(encoding="utf-8"))
    game["options"] = {"bolt_penalty": 50}
    path.write_text(json.dumps(game), encoding="utf-8")
    run = kosti("report", str(path))
    assert run.code == 2 and run.out == ""
    assert "kosti solve 'thousand-classic(bolt_penalty=50)' --players 2" in run.err
