"""Mistakes can be mended: the last move taken back (U), a mistyped throw corrected in
scorekeeper mode (E) with the game played again from the record, and a question before a
0, a scratch or leaving a game that is not saved."""

from __future__ import annotations

from pathlib import Path

import pytest

from kosti.actions import Roll, Score
from kosti.games import engine_for
from kosti.record import load, replay
from kosti.roller import ScriptedDice
from kosti.rules.presets import variant
from kosti.tui.app import KostiApp, PlayConfig
from kosti.tui.dialogs import Confirm, DiceEntry, ThrowPicker
from kosti.tui.game_screen import GameScreen
from kosti.tui.session import Refused, Seat, Session

SIZE = (120, 40)


def scores(session: Session) -> list[int]:
    return engine_for(session.variant).scores(session.state)


def test_undo_takes_back_the_decisions_since_the_last_throw() -> None:
    session = Session.new(variant("poker-free"), [Seat("Anna")], ScriptedDice([(6, 6, 6, 6, 1)]))
    session.throw()
    session.record("ones")  # meant sixes
    assert scores(session) == [1]
    session.undo()
    assert scores(session) == [0]
    assert session.state.dice == (1, 6, 6, 6, 6)  # type: ignore[attr-defined]
    assert sorted(session.table) == [1, 6, 6, 6, 6]
    session.record("sixes")
    assert scores(session) == [24]
    assert session.recorder.record.turns[0].actions == [Roll((6, 6, 6, 6, 1)), Score("sixes")]


def test_undo_never_takes_back_fallen_dice() -> None:
    session = Session.new(variant("poker-free"), [Seat("Anna")], ScriptedDice([(6, 6, 6, 6, 1)]))
    with pytest.raises(Refused) as refused:
        session.undo()
    assert refused.value.code == "undo_nothing"
    session.throw()
    before = session.state
    with pytest.raises(Refused) as refused:
        session.undo()
    assert refused.value.code == "undo_throw"
    assert session.state is before


def test_undo_is_off_against_bots_unless_the_table_allows_it() -> None:
    dice = ScriptedDice([(6, 6, 6, 6, 1), (1, 2, 3, 4, 5)])
    session = Session.new(variant("poker-free"), [Seat("Anna"), Seat("Smart", "heuristic")], dice)
    assert not session.undo_allowed
    session.throw()
    session.record("sixes")
    with pytest.raises(Refused) as refused:
        session.undo()
    assert refused.value.code == "undo_off"
    people = Session.new(variant("poker-free"), [Seat("Anna"), Seat("Boris")], ScriptedDice([]))
    assert people.undo_allowed


def test_a_thousand_stop_is_taken_back_with_the_dice_set_aside() -> None:
    dice = ScriptedDice([(1, 5, 2, 3, 3), (1, 1, 1, 2)])
    session = Session.new(variant("thousand-v2", {"opening": 0}), [Seat("Anna"), Seat("Boris")], dice)
    session.throw()
    session.stop()  # sets the 1 and the 5 aside, banks 15
    assert scores(session) == [15, 0] and session.seat == Seat("Boris")
    session.undo()
    assert scores(session) == [0, 0] and session.seat == Seat("Anna")
    assert session.state.choosing  # type: ignore[attr-defined]
    session.toggle(1)  # only the 1 this time, and throw on with four dice: three 1s, 100
    session.throw()
    assert session.state.turn_total == 10  # type: ignore[attr-defined]
    after = session.after_marked()
    assert after is not None and after.turn_total == 10 + 100  # type: ignore[attr-defined]


def test_scorekeeper_mode_edits_a_past_throw_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    session = Session.new(variant("poker-free"), [Seat("Anna"), Seat("Boris")], None, path)
    session.throw((6, 6, 6, 6, 1))
    session.record("sixes")  # Anna 24
    session.throw((5, 5, 5, 2, 2))  # Boris's throw, mistyped: it was 5 5 5 5 2
    session.record("fives")  # Boris 15
    session.throw((1, 1, 2, 3, 4))
    assert scores(session) == [24, 15]
    index, player, faces = session.throws()[1]
    assert (player, faces) == ("Boris", (5, 5, 5, 2, 2))
    assert session.edit_throw(index, (5, 5, 5, 5, 2)) == 0
    assert scores(session) == [24, 20]
    assert session.state.dice == (1, 1, 2, 3, 4)  # type: ignore[attr-defined]
    assert engine_for(session.variant).scores(replay(load(path))) == [24, 20]  # saved as corrected


def test_an_edit_drops_the_moves_that_no_longer_fit() -> None:
    session = Session.new(variant("poker-free"), [Seat("Anna")], None)
    session.throw((6, 6, 6, 2, 3))
    for position in (0, 1, 2):
        session.toggle(position)
    session.throw((6, 1))
    session.record("sixes")
    first = session.throws()[0][0]
    # without three sixes on the table the hold of three sixes cannot stand: it and all after go
    assert session.edit_throw(first, (1, 2, 3, 4, 5)) == 3
    assert session.state.dice == (1, 2, 3, 4, 5)  # type: ignore[attr-defined]
    assert scores(session) == [0]
    with pytest.raises(Refused) as refused:
        session.edit_throw(first, (1, 2, 3))
    assert refused.value.code == "type_count"


def test_scorekeeper_undo_takes_back_a_typed_throw() -> None:
    session = Session.new(variant("poker-free"), [Seat("Anna")], None)
    session.throw((6, 6, 6, 2, 3))
    session.undo()
    assert session.to_throw == 5 and not session.throws()
    session.throw((6, 6, 6, 6, 3))
    assert session.state.dice == (3, 6, 6, 6, 6)  # type: ignore[attr-defined]


def app_for(config: PlayConfig, throws: list[tuple[int, ...]] | None = None) -> KostiApp:
    return KostiApp(config, dice=ScriptedDice(throws) if throws is not None else None)


@pytest.mark.asyncio
async def test_a_zero_and_a_scratch_are_asked_first() -> None:
    config = PlayConfig(lang="en", preset="poker-fences", seats=[Seat("Anna")], bot_delay=0, save=False)
    app = app_for(config, [(6, 6, 6, 2, 3)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = app.session
        assert session is not None
        board = app.screen.query_one("#board-panel")
        table = board.table  # type: ignore[attr-defined]
        await pilot.press("t")
        keys = [str(row.key.value) for row in table.ordered_rows]
        table.move_cursor(row=keys.index("poker"))
        await pilot.press("enter")  # no poker on the table: a 0
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        assert isinstance(app.screen, GameScreen)
        assert session.state.turn == 0 and session.recorder.record.turns[0].actions == [Roll((6, 6, 6, 2, 3))]
        await pilot.press("x")  # scratch poker: asked too
        assert isinstance(app.screen, Confirm)
        await pilot.press("y")
        await pilot.pause()
        assert [e.params["event"].kind for e in session.log if e.key == "event"] == ["scratched", "banked"]
        await pilot.press("q")  # not saved: asked
        assert isinstance(app.screen, Confirm)
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)


@pytest.mark.asyncio
async def test_a_three_in_a_deviation_upper_cell_is_not_asked() -> None:
    config = PlayConfig(lang="en", preset="poker-classic", seats=[Seat("Anna")], bot_delay=0, save=False)
    app = app_for(config, [(1, 1, 1, 2, 3)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("t", "enter")  # three ones: 0 by deviation, the figure made (✓)
        assert isinstance(app.screen, GameScreen)
        assert app.session is not None and app.session.state.turn == 1


@pytest.mark.asyncio
async def test_keys_undo_and_correct_a_throw() -> None:
    config = PlayConfig(
        lang="en", preset="poker-free", seats=[Seat("Anna")], manual=True, bot_delay=0, save=False
    )
    app = app_for(config)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("t", *"55522", "enter")  # mistyped: it was 5 5 5 5 2
        await pilot.pause()
        session = app.session
        assert session is not None
        await pilot.press("e")
        assert isinstance(app.screen, ThrowPicker)
        await pilot.press("enter")
        assert isinstance(app.screen, DiceEntry)
        await pilot.press(*"55552", "enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert session.throws()[0][2] == (5, 5, 5, 5, 2)
        log = str(app.screen.query_one("#log").lines[0].text)  # type: ignore[attr-defined]
        assert "5 5 5 5 2" in log
        await pilot.press("u")  # scorekeeper mode: a typed throw is taken back too
        assert session.to_throw == 5 and not session.throws()


@pytest.mark.asyncio
async def test_a_saved_game_is_picked_from_the_new_game_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kosti.tui import saving
    from kosti.tui.dialogs import SavedGamesPicker
    from kosti.tui.setup_screen import SetupScreen

    unfinished = Session.new(
        variant("poker-free"), [Seat("Anna")], ScriptedDice([(1, 1, 1, 2, 3)]), tmp_path / "a.json"
    )
    unfinished.throw()
    unfinished.record("ones")
    (tmp_path / "broken.json").write_text("{")  # not a record: passed over
    monkeypatch.setattr(saving, "games_directory", lambda: tmp_path)
    games = saving.saved_games()
    assert [game.path.name for game in games] == ["a.json"]
    assert games[0].players == ("Anna",) and games[0].turns == 1
    app = KostiApp(PlayConfig(lang="en", bot_delay=0), dice=ScriptedDice([(2, 2, 2, 2, 2)]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesPicker)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("t")
        await pilot.press("enter")  # the cursor rests on twos: 10
    state = replay(load(tmp_path / "a.json"))
    assert engine_for(state.variant).scores(state) == [3 + 10]
