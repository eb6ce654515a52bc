"""Runs of many games (:mod:`kosti.sim.runner`): reproducible from a seed, events counted right."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kosti.actions import Action, Roll, Stop
from kosti.errors import OptionError
from kosti.games.thousand.game import THOUSAND, Player, ThousandState
from kosti.rules.presets import variant
from kosti.sim.runner import Setup, ThousandEvents, game_seed, play_game, simulate

CLASSIC = variant("thousand-classic")


def events(rules_spec: str, board: tuple[Player, ...], action: Action, **fields: object) -> dict[str, int]:
    """The events the counter sees when seat 0 ends a turn with ``action`` from this board."""
    rules = variant(rules_spec)
    before = ThousandState(rules, ("a", "b"), 10, board, 0, **fields)  # type: ignore[arg-type]
    after = THOUSAND.apply(before, action)
    assert after.turn == before.turn + 1
    counter = ThousandEvents(rules)
    return dict(zip(counter.names, counter.count(THOUSAND, before, action, after), strict=True))


STOP_AT_50 = {"turn_total": 50, "dice": (5, 2, 3, 4), "dice_left": 3, "pending": 0}
BUST = Roll((2, 2, 3, 4, 6))


def test_a_turn_to_exactly_555_is_a_dump() -> None:
    board = (Player(505, opened=True, opening_score=100), Player(300, opened=True))
    assert events("thousand-classic", board, Stop(), **STOP_AT_50) == {
        "bolts": 0,
        "falls": 0,
        "dumps": 1,
        "dots": 0,
    }


def test_an_overtaking_penalty_to_555_dumps_the_player_overtaken() -> None:
    board = (Player(600, opened=True), Player(605, opened=True))
    fields = {"turn_total": 110, "dice": (1, 2, 3, 4), "dice_left": 3, "pending": 0}
    assert events("thousand-classic", board, Stop(), **fields)["dumps"] == 1


def test_an_overtaking_penalty_to_zero_is_not_a_dump() -> None:
    board = (Player(0, opened=True), Player(50, opened=True))
    fields = {"turn_total": 100, "dice": (1, 2, 3, 4), "dice_left": 3, "pending": 0}
    assert events("thousand-classic", board, Stop(), **fields)["dumps"] == 0


def test_a_bust_of_an_opened_player_is_a_bolt() -> None:
    board = (Player(100, opened=True), Player(0))
    assert events("thousand-classic", board, BUST)["bolts"] == 1
    # restricted (not opened): no bolt by default
    assert events("thousand-classic", (Player(0), Player(0)), BUST)["bolts"] == 0


@pytest.mark.parametrize("falls_before", [0, 2])
def test_the_last_failed_attempt_on_the_barrel_is_a_fall(falls_before: int) -> None:
    # the third fall takes the player to 0 and restarts the count: still one fall, and no dump
    board = (Player(880, opened=True, on_barrel=True, barrel_attempts=2, falls=falls_before), Player(0))
    assert events("thousand-classic", board, BUST) == {"bolts": 0, "falls": 1, "dumps": 0, "dots": 0}


def test_getting_on_the_barrel_knocks_the_other_off() -> None:
    board = (Player(800, opened=True), Player(880, opened=True, on_barrel=True))
    fields = {"turn_total": 100, "dice": (1, 2, 3, 4), "dice_left": 3, "pending": 0}
    assert events("thousand-classic", board, Stop(), **fields)["falls"] == 1


def test_the_last_dot_of_an_open_barrel_is_a_fall_to_zero() -> None:
    board = (Player(990, opened=True, dots=5), Player(0))
    counted = events("thousand-classic(barrel=open)", board, Roll((1, 1, 1, 2, 3)))
    assert counted == {"bolts": 0, "falls": 1, "dumps": 0, "dots": 1}


def test_a_seed_gives_the_same_games_with_one_or_two_workers() -> None:
    setup = Setup("thousand-classic", ("heuristic", "random"))
    one = simulate(setup, 6, 3, workers=1)
    two = simulate(setup, 6, 3, workers=2)
    assert one == two
    assert [r.index for r in one] == list(range(6))
    assert [r.seed for r in one] == [game_seed(3, i) for i in range(6)]
    assert all(r.finished and len(r.winners) == 1 for r in one)
    assert simulate(setup, 6, 4, workers=1) != one


def test_a_game_is_the_same_whatever_was_played_before() -> None:
    setup = Setup("poker-classic(lower=[pair,chance])", ("table", "random"))
    run = simulate(setup, 5, 8, workers=1)
    assert play_game(setup, 8, 3) == run[3]


def test_the_roll_off_decides_who_starts_and_scores_stay_with_their_seat() -> None:
    setup = Setup("poker-classic(lower=[pair,chance])", ("table", "random"))
    run = simulate(setup, 30, 1, workers=1)
    assert {r.starter for r in run} == {0, 1}
    # the table bot outscores the random bot whichever seat starts
    assert sum(r.scores[0] > r.scores[1] for r in run) > 25
    fixed = simulate(replace(setup, spec="poker-classic(first_player=seat,lower=[pair,chance])"), 5, 1)
    assert {r.starter for r in fixed} == {0}


def test_a_bad_bot_name_fails_before_any_game() -> None:
    with pytest.raises(OptionError):
        simulate(Setup("poker-classic", ("genius",)), 3, 1)
    with pytest.raises(OptionError):
        simulate(Setup("thousand-classic", ("table",)), 3, 1)
    with pytest.raises(OptionError):
        simulate(Setup("poker-classic", ("random",)), 0, 1)
