"""The heuristic bots do what their docstrings promise in clear-cut spots; the factory."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kosti.actions import Action, Hold, Roll, Score, SetAside, Stop, Throw
from kosti.bots.random_bot import RandomBot
from kosti.bots.sheet import SheetBot
from kosti.bots.showdown import ShowdownBot
from kosti.bots.thousand import ThousandBot
from kosti.errors import OptionError
from kosti.games import apply, new_game
from kosti.games.base import GameState
from kosti.games.thousand.game import ThousandState
from kosti.levels import levels_for, make_bot, optimal_available


def after(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        state = apply(state, action)
    return state


# -- score sheets ----------------------------------------------------------------


def test_sheet_bot_takes_poker_made_on_the_first_throw() -> None:
    state = after(new_game("poker-free", ["Anna"]), Roll((6, 6, 6, 6, 6)))
    assert SheetBot().choose(state) == Score("poker")


def test_sheet_bot_keeps_the_sixes_of_the_upper_stage() -> None:
    # poker-classic: the upper section first; four sixes are +6 in «шестёрки»
    state = after(new_game("poker-classic", ["Anna"]), Roll((6, 6, 6, 6, 2)))
    choice = SheetBot().choose(state)
    assert choice in (Score("sixes"), Hold((6, 6, 6, 6)))


def test_sheet_bot_chases_a_pair_rather_than_recording_a_bad_upper_cell() -> None:
    state = after(new_game("poker-classic", ["Anna"]), Roll((1, 2, 4, 5, 5)))
    choice = SheetBot().choose(state)
    assert isinstance(choice, Hold) and choice.faces.count(5) == 2


# -- «Тысяча» ------------------------------------------------------------------------


def thousand_after(throw: tuple[int, ...], **options: object) -> ThousandState:
    spec = "thousand-classic(" + ",".join(f"{k}={v}" for k, v in options.items()) + ")"
    state = after(new_game(spec, ["Anna", "Boris"]), Roll(throw))
    assert isinstance(state, ThousandState)
    return state


def test_thousand_bot_throws_on_below_the_threshold_and_stops_above() -> None:
    # opening 0 (everyone opened), no bolts: the lone-turn thresholds; three dice: 40
    low = thousand_after((1, 5, 2, 3, 4), opening=0, bolt_limit=0)  # a straight: hot dice
    assert low.pending == 5
    state = thousand_after((5, 5, 2, 3, 4), opening=0, bolt_limit=0)
    assert (state.turn_total, state.dice_left) == (10, 3)
    assert ThousandBot().choose(state) == Throw()
    rich = replace(state, turn_total=45)
    assert ThousandBot().choose(rich) == Stop()


def test_thousand_bot_never_stops_on_the_dump() -> None:
    state = thousand_after((5, 5, 2, 3, 4), opening=0, bolt_limit=0)
    board = (replace(state.board[0], score=545), state.board[1])
    dump = replace(state, board=board)  # 545 + 10 = 555 would drop to 0
    assert ThousandBot().choose(dump) == Throw()


def test_thousand_bot_climbs_the_barrel() -> None:
    state = thousand_after((1, 1, 2, 3, 4), opening=0)
    board = (replace(state.board[0], score=860), state.board[1])
    assert ThousandBot().choose(replace(state, board=board)) == Stop()


def test_thousand_bot_keeps_dice_in_hand_early_in_a_choice_turn() -> None:
    # thousand-v2: 1 and 5 scoring; taking only the 1 keeps four dice to throw
    state = after(new_game("thousand-v2", ["Anna"]), Roll((1, 5, 2, 3, 3)))
    assert ThousandBot().choose(state) == SetAside((1,))


# -- showdown -----------------------------------------------------------------------


def showdown_spot(first: tuple[int, ...], second: tuple[int, ...]) -> GameState:
    """Anna stood on ``first``; Boris, throwing last, has ``second`` after one throw."""
    state = after(new_game("poker-showdown(rounds=1)", ["Anna", "Boris"]), Roll(first), Stop())
    return after(state, Roll(second))


def test_showdown_bot_stands_when_it_already_wins_throwing_last() -> None:
    assert ShowdownBot().choose(showdown_spot((2, 2, 3, 4, 6), (6, 6, 1, 2, 3))) == Stop()


def test_showdown_bot_keeps_its_best_group_when_behind() -> None:
    choice = ShowdownBot().choose(showdown_spot((3, 3, 3, 5, 5), (6, 6, 1, 2, 4)))
    assert isinstance(choice, Hold) and choice.faces.count(6) == 2


# -- the factory --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("family", "kind"), [("sheet", SheetBot), ("thousand", ThousandBot), ("showdown", ShowdownBot)]
)
def test_make_bot_gives_the_family_heuristic(family: str, kind: type) -> None:
    assert isinstance(make_bot("heuristic", family), kind)
    assert isinstance(make_bot("random", family, 3), RandomBot)


def test_make_bot_refuses_unknown_levels_and_families() -> None:
    with pytest.raises(OptionError):
        make_bot("genius", "sheet")
    with pytest.raises(OptionError):
        make_bot("random", "chess")
    with pytest.raises(OptionError):
        make_bot("optimal", "showdown")
    with pytest.raises(OptionError, match="score sheets only"):
        make_bot("table", "thousand")


def test_make_bot_makes_the_simulators_table_bot_too() -> None:
    from kosti.sim.table import TableBot

    assert isinstance(make_bot("table", "sheet", 3), TableBot)


def test_optimal_is_offered_only_where_the_solver_plays() -> None:
    assert "optimal" not in levels_for("showdown")
    assert "optimal" in levels_for("thousand")
    assert ("optimal" in levels_for("sheet")) == optimal_available("sheet")


def test_random_bot_is_reproducible_from_its_seed() -> None:
    state = after(new_game("poker-classic", ["Anna"]), Roll((1, 2, 3, 4, 6)))
    picks = [RandomBot(5).choose(state) for _ in range(3)]
    assert picks[0] == picks[1] == picks[2]
