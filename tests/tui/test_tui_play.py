"""Whole games played through key presses (Textual's Pilot), with scripted dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kosti.games import engine_for
from kosti.record import load, replay
from kosti.roller import ScriptedDice
from kosti.tui.app import KostiApp, PlayConfig
from kosti.tui.end_screen import EndScreen
from kosti.tui.game_screen import GameScreen
from kosti.tui.session import Seat, Session

SIZE = (130, 40)


def app_for(
    preset: str,
    seats: list[Seat],
    throws: list[tuple[int, ...]],
    tmp_path: Path | None = None,
    lang: str = "en",
    **options: Any,
) -> KostiApp:
    config = PlayConfig(
        lang=lang,
        preset=preset,
        options=options,
        seats=seats,
        bot_delay=0,
        record=tmp_path / "game.json" if tmp_path else None,
        save=tmp_path is not None,
    )
    return KostiApp(config, dice=ScriptedDice(throws))


def recorded_cells(session: Session) -> list[str | None]:
    """The cells the log says were recorded, in order (from the engine's events)."""
    events = [entry.params["event"] for entry in session.log if entry.key == "event"]
    return [event.cell for event in events if event.kind == "recorded"]


# poker-free, solitaire: one throw (or a hold and a throw) per cell, in table order; the
# cursor of the sheet rests on the first open cell, so Enter records there.
# Worth by RULES.md §1.3 (sum upper; lower = sum of all five; poker 50, straights 25 / 30):
FREE_GAME: list[tuple[str, list[tuple[int, ...]], list[str], int]] = [
    ("ones", [(1, 1, 1, 2, 3)], [], 3),
    ("twos", [(2, 2, 2, 2, 6)], [], 8),
    ("threes", [(3, 3, 3, 1, 1)], [], 9),
    ("fours", [(4, 4, 4, 4, 4)], [], 20),
    ("fives", [(5, 5, 1, 2, 3)], [], 10),
    ("sixes", [(6, 6, 6, 6, 1)], [], 24),
    ("pair", [(6, 6, 1, 2, 3)], [], 18),
    ("two_pairs", [(5, 5, 6, 6, 1)], [], 23),
    ("three_of_a_kind", [(4, 4, 4, 1, 2)], [], 15),
    ("small_straight", [(1, 2, 3, 4, 6)], [], 25),
    ("large_straight", [(2, 3, 4, 5, 6)], [], 30),
    ("full_house", [(3, 3, 3, 2, 2)], [], 13),
    ("four_of_a_kind", [(6, 6, 6, 6, 5)], [], 29),
    # hold the four 2s (keys 1-4) and throw the fifth die
    ("poker", [(2, 2, 2, 2, 5), (2,)], ["1", "2", "3", "4"], 50),
    ("chance", [(6, 6, 5, 5, 4)], [], 26),
]


@pytest.mark.asyncio
async def test_a_whole_game_of_poker_free_by_keys(tmp_path: Path) -> None:
    throws = [t for _, ts, _, _ in FREE_GAME for t in ts]
    app = app_for("poker-free", [Seat("Anna")], throws, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        for cell, turn_throws, holds, _ in FREE_GAME:
            await pilot.press("t")
            if len(turn_throws) > 1:
                await pilot.press(*holds, "t")
            await pilot.press("enter")
            session = app.session
            assert session is not None
            assert recorded_cells(session)[-1] == cell
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
    expected = sum(points for *_, points in FREE_GAME)
    assert expected == 303
    state = replay(load(tmp_path / "game.json"))
    assert engine_for(state.variant).scores(state) == [expected]
    assert app.return_value is None or app.return_value == tmp_path / "game.json"


@pytest.mark.asyncio
async def test_a_whole_game_of_thousand_by_keys(tmp_path: Path) -> None:
    throws = [
        (6, 6, 6, 6, 6),  # roll-off: Anna 30
        (1, 1, 1, 1, 1),  # Boris 5: Anna starts
        (1, 1, 1, 5, 2),  # Anna: three 1s and a 5 = 105, one die left; she stops
        (5, 2, 3, 3, 6),  # Boris: 5; he may not stop below the opening
        (2, 3, 4, 6),  # Boris throws on: nothing, a bust
        (1, 5, 2, 3, 4),  # Anna: straight 125, all five set aside: hot dice
        (1, 1, 1, 5, 5),  # the compulsory throw: 110; 105 + 235 passes 300: Anna wins
    ]
    seats = [Seat("Anna"), Seat("Boris")]
    app = app_for("thousand-classic", seats, throws, tmp_path, target=300, barrel="none", pits=[])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # from the roll-off to the table
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        session = app.session
        assert session is not None and session.seat == Seat("Anna")
        await pilot.press("t", "s")
        assert engine_for(session.variant).scores(session.state) == [105, 0]
        await pilot.press("t", "s")
        assert "50" in str(app.screen.query_one("#message").render())
        assert session.state.turn_total == 5  # type: ignore[attr-defined]
        await pilot.press("t")
        assert session.seat == Seat("Anna")
        await pilot.press("t")
        assert session.state.pending == 5  # type: ignore[attr-defined]
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
    state = replay(load(tmp_path / "game.json"))
    engine = engine_for(state.variant)
    assert engine.is_finished(state)
    assert [state.players[i] for i in engine.winners(state)] == ["Anna"]
    assert engine.scores(state) == [105 + 125 + 110, 0]


@pytest.mark.asyncio
async def test_a_whole_match_of_showdown_by_keys(tmp_path: Path) -> None:
    throws = [
        (1, 2, 3, 4, 6),  # roll-off: Anna 16
        (6, 6, 6, 6, 1),  # Boris 25: Boris starts
        (4, 4, 1, 2, 3),  # Boris holds the fours
        (4, 6, 5),  # three fours; he holds the third four too
        (1, 2),  # last throw: three of a kind, the turn ends by itself
        (5, 5, 5, 5, 1),  # Anna: four fives, she stands
    ]
    app = app_for("poker-showdown", [Seat("Anna"), Seat("Boris")], throws, tmp_path, rounds=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        session = app.session
        assert session is not None and session.seat == Seat("Boris")
        await pilot.press("t", "1", "2", "t")
        await pilot.press("1")  # locked: refused, nothing changes
        assert session.locked() == {0, 1}
        assert "locked" in str(app.screen.query_one("#message").render())
        await pilot.press("3", "t")
        assert session.seat == Seat("Anna")
        await pilot.press("t", "s")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
    state = replay(load(tmp_path / "game.json"))
    assert state.players == ("Boris", "Anna")  # the roll-off's starter sits first
    assert engine_for(state.variant).scores(state) == [-1, 1]


@pytest.mark.asyncio
async def test_a_bot_plays_its_turns_at_once_in_tests() -> None:
    throws = [(6, 6, 6, 6, 6), (1, 2, 3, 4, 6), (6, 6, 6, 6, 6)]
    app = app_for("poker-free", [Seat("Smart", "heuristic"), Seat("Anna")], throws, first_player="seat")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = app.session
        assert session is not None
        assert session.seat == Seat("Anna")
        assert session.recorder.record.turns[0].player == "Smart"
        await pilot.press("t")
        assert session.state.dice == (1, 2, 3, 4, 6)  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_rules_and_hint_keys() -> None:
    app = app_for("poker-classic", [Seat("Anna")], [(6, 6, 6, 2, 3)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("t", "h")
        message = str(app.screen.query_one("#message").render())
        assert "Best:" in message
        await pilot.press("r")
        from kosti.tui.help_screen import RulesScreen

        assert isinstance(app.screen, RulesScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)


@pytest.mark.asyncio
async def test_scorekeeper_mode_types_the_throws() -> None:
    config = PlayConfig(
        lang="en", preset="poker-free", seats=[Seat("Anna")], manual=True, bot_delay=0, save=False
    )
    app = KostiApp(config)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("t")
        from kosti.tui.dialogs import DiceEntry

        assert isinstance(app.screen, DiceEntry)
        await pilot.press(*"1 5 3", "enter")  # three dice only: refused, asked again
        assert isinstance(app.screen, DiceEntry)
        await pilot.press(*" 3 4", "enter")
        await pilot.pause()
        session = app.session
        assert session is not None
        assert session.state.dice == (1, 3, 3, 4, 5)  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_the_new_game_screen_starts_a_game() -> None:
    from kosti.tui.rolloff_screen import RollOffScreen
    from kosti.tui.setup_screen import SetupScreen

    config = PlayConfig(lang="en", bot_delay=0, save=False)
    app = KostiApp(config, dice=ScriptedDice([(6, 6, 6, 6, 6), (1, 1, 1, 1, 1)]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, RollOffScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        session = app.session
        assert session is not None
        assert session.variant.preset.id == "poker-classic"
        assert [s.level for s in session.seats] == [None, "heuristic"]


@pytest.mark.asyncio
async def test_a_saved_game_is_resumed_and_goes_on_in_its_file(tmp_path: Path) -> None:
    first = app_for("poker-free", [Seat("Anna")], [(1, 1, 1, 2, 3)], tmp_path)
    async with first.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("t", "enter", "q")
    path = tmp_path / "game.json"
    assert first.return_value == path
    config = PlayConfig(lang="en", resume=load(path), record=path, bot_delay=0)
    second = KostiApp(config, dice=ScriptedDice([(2, 2, 2, 2, 2)]))
    async with second.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(second.screen, GameScreen)
        await pilot.press("t", "enter")  # the cursor rests on twos, the first open cell
    state = replay(load(path))
    assert engine_for(state.variant).scores(state) == [3 + 10]
    assert len(load(path).turns) == 2


@pytest.mark.asyncio
async def test_a_yatzy_turn_by_keys() -> None:
    # the new preset plays in the terminal game like every sheet: ones by sum (RULES.md §1.5)
    app = app_for("yatzy", [Seat("Anna")], [(1, 1, 1, 5, 6)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("t", "enter")
        session = app.session
        assert session is not None
        assert recorded_cells(session) == ["ones"]
        assert engine_for(session.state.variant).scores(session.state) == [3]
