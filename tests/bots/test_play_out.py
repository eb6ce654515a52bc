"""The one play-out loop (``kosti.bots.base.play_out``): bots decide, dice throw, a callback hears."""

from __future__ import annotations

import itertools

from kosti.actions import Action, Roll
from kosti.bots.base import play_out
from kosti.bots.random_bot import RandomBot
from kosti.games import engine_for
from kosti.games.base import GameState
from kosti.record import Recorder, replay
from kosti.roller import ScriptedDice, SeededDice
from kosti.rules import variant


def test_the_callback_hears_every_action_in_order() -> None:
    rules = variant("thousand-classic")
    engine = engine_for(rules)
    heard: list[tuple[GameState, Action, GameState]] = []
    start = engine.new_game(rules, ["Anna", "Boris"])
    end = play_out(start, [RandomBot(1), RandomBot(2)], SeededDice(3), on_action=lambda *a: heard.append(a))
    assert engine.is_finished(end)
    assert heard[0][0] is start and heard[-1][2] is end
    for (_, _, after), (before, _, _) in itertools.pairwise(heard):
        assert before is after
    # replaying what was heard gives the same game
    state = start
    for _, action, after in heard:
        state = engine.apply(state, action)
        assert state == after


def test_a_seat_without_a_bot_stops_the_play_out_at_its_decision() -> None:
    rules = variant("poker-classic")
    engine = engine_for(rules)
    start = engine.new_game(rules, ["Anna", "Boris"])
    # nobody decides: only the throw that is due is made
    thrown = play_out(start, [None, None], ScriptedDice([(6, 6, 6, 1, 2)]))
    assert engine.to_throw(thrown) == 0 and engine.current_player(thrown) == 0
    assert thrown.dice == (1, 2, 6, 6, 6)  # type: ignore[attr-defined]
    # Anna's bot plays her turn; Boris's decision stops the loop
    stopped = play_out(start, [RandomBot(1), None], SeededDice(4))
    assert engine.current_player(stopped) == 1 and engine.to_throw(stopped) == 0
    assert stopped.turn == 1


def test_max_actions_bounds_the_play_out() -> None:
    rules = variant("poker-classic")
    engine = engine_for(rules)
    heard: list[Action] = []
    play_out(
        engine.new_game(rules, ["Anna"]), [RandomBot(1)], SeededDice(2), 5, lambda b, a, s: heard.append(a)
    )
    assert len(heard) == 5 and isinstance(heard[0], Roll)


def test_a_recorder_logs_a_game_that_bots_play_out() -> None:
    recorder = Recorder(variant("poker-fences"), ["Anna", "Boris"])
    bots = [RandomBot(5), RandomBot(6)]
    half = play_out(recorder.state, bots, SeededDice(7), max_actions=40, on_action=recorder.log)
    assert recorder.state is half
    end = play_out(recorder.state, bots, SeededDice(8), on_action=recorder.log)
    assert engine_for(end.variant).is_finished(end)
    assert replay(recorder.record) == end == recorder.state
