"""The table fits the terminal: at 80 × 24 and at 160 × 50, in both languages, every player's
score and the value of the selected cell are on the screen (read as text, not compared as
pictures), and the sheet's cursor steps over the subtotal rows."""

from __future__ import annotations

from typing import Any

import pytest

from kosti.roller import ScriptedDice
from kosti.tui.app import KostiApp, PlayConfig
from kosti.tui.game_screen import GameScreen
from kosti.tui.session import Seat, Session
from kosti.tui.text import number, signed

SIZES = [(80, 24), (160, 50)]
CASES = [(size, lang) for size in SIZES for lang in ("en", "ru")]
NAMES = ["Anna", "Boris", "Vera"]


def app_for(preset: str, throws: list[tuple[int, ...]], lang: str, **options: Any) -> KostiApp:
    options.setdefault("first_player", "seat")
    config = PlayConfig(
        lang=lang,
        preset=preset,
        options=options,
        seats=[Seat(name) for name in NAMES],
        bot_delay=0,
        save=False,
    )
    return KostiApp(config, dice=ScriptedDice(throws))


def screen_lines(app: KostiApp) -> list[str]:
    """What the terminal shows, line by line (the screen's own rendering, as plain text)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def line_with(lines: list[str], *words: str) -> str:
    """The one screen line that holds every word; fails when there is none."""
    found = [line for line in lines if all(word in line for word in words)]
    assert found, f"no line holds {words!r}:\n" + "\n".join(lines)
    return found[0]


async def select(pilot: Any, board: Any, cell: str) -> None:
    """Move the sheet's cursor to ``cell`` with the arrow keys: to the top, then down."""
    await pilot.press(*["up"] * 20)
    for _ in range(20):
        if board.selected_cell() == cell:
            return
        await pilot.press("down")
    raise AssertionError(f"the cursor never reached {cell}")


def session_of(app: KostiApp) -> Session:
    session = app.session
    assert session is not None
    return session


def assert_fits(app: KostiApp, size: tuple[int, int]) -> list[str]:
    lines = screen_lines(app)
    assert len(lines) == size[1]
    assert isinstance(app.screen, GameScreen)
    assert app.screen.small == (size == (80, 24))
    return lines


@pytest.mark.parametrize(("size", "lang"), CASES)
@pytest.mark.asyncio
async def test_fences_sheet_shows_every_score_and_the_selected_value(
    size: tuple[int, int], lang: str
) -> None:
    # Anna records five fours, Boris four sixes, Vera four fives; then Anna throws a full house
    throws = [(4, 4, 4, 4, 4), (6, 6, 6, 6, 1), (5, 5, 5, 5, 2), (3, 3, 2, 2, 2)]
    app = app_for("poker-fences", throws, lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        board: Any = app.screen.query_one("#board-panel")
        for cell in ("fours", "sixes", "fives"):
            await pilot.press("t")
            await select(pilot, board, cell)
            await pilot.press("enter")
        await pilot.press("t")
        session = session_of(app)
        scores = session.engine.scores(session.state)
        assert 0 not in scores
        cell = "full_house"
        await select(pilot, board, cell)
        lines = assert_fits(app, size)
        from kosti.games.sheet.game import SHEET

        value = SHEET.score_of(session.state, cell)  # type: ignore[arg-type]
        assert value > 0
        t = app.t
        name = (
            t("cell_short.full_house")
            if app.screen.small and t.has("cell_short.full_house")
            else t.cell(cell)
        )
        line_with(lines, name, number(value))
        # every player's score on one line, with the label of the totals
        total = line_with(lines, t("sheet.total"), *(number(s) for s in scores if s))
        for player in NAMES:
            if app.screen.small:
                assert player in total


@pytest.mark.parametrize(("size", "lang"), CASES)
@pytest.mark.asyncio
async def test_thousand_board_shows_every_score_and_the_turn(size: tuple[int, int], lang: str) -> None:
    throws = [(1, 1, 1, 5, 2), (1, 5, 5, 2, 3)]
    app = app_for("thousand-classic", throws, lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("t", "s")  # Anna: three 1s and a 5, 105
        await pilot.press("t")  # Boris: a 1 and two 5s, 20 this turn
        await pilot.pause()
        session = session_of(app)
        lines = assert_fits(app, size)
        scores = session.engine.scores(session.state)
        assert scores[0] == 105
        for seat, player in enumerate(NAMES):
            line_with(lines, player, number(scores[seat]))
        assert session.state.turn_total == 20  # type: ignore[attr-defined]
        line_with(lines, app.t("turn.total", total=20))


@pytest.mark.parametrize(("size", "lang"), CASES)
@pytest.mark.asyncio
async def test_showdown_board_shows_every_net_and_the_hand(size: tuple[int, int], lang: str) -> None:
    throws = [(4, 4, 1, 2, 3), (4, 6, 5), (1, 2), (6, 6, 6, 2, 3)]
    app = app_for("poker-showdown", throws, lang, rounds=3)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("t", "1", "2", "t", "3", "t")  # Anna ends on three fours
        await pilot.press("t")  # Boris throws three sixes
        await pilot.pause()
        session = session_of(app)
        lines = assert_fits(app, size)
        t = app.t
        for seat, player in enumerate(NAMES):
            line_with(lines, player, signed(session.state.net[seat]))  # type: ignore[attr-defined]
        line_with(lines, "Anna", t("hand.three_of_a_kind"), "4 4 4")
        line_with(lines, "Boris", "6 6 6")


@pytest.mark.asyncio
async def test_the_layout_follows_the_terminal_when_it_is_resized() -> None:
    app = app_for("poker-classic", [(6, 6, 6, 2, 3)], "en")
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.press("t")
        screen = app.screen
        assert isinstance(screen, GameScreen) and not screen.small
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert app.screen is screen and screen.small
        lines = screen_lines(app)
        line_with(lines, "Anna throws 6 6 6 2 3")  # the log is written again after the change
        await pilot.resize_terminal(160, 50)
        await pilot.pause()
        assert not screen.small


@pytest.mark.asyncio
async def test_the_sheet_cursor_steps_over_the_subtotals() -> None:
    app = app_for("poker-classic", [(6, 6, 6, 2, 3)], "en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("t")
        board: Any = app.screen.query_one("#board-panel")
        await pilot.press(*["down"] * 5)
        assert board.selected_cell() == "sixes"
        await pilot.press("down")
        assert board.selected_cell() == "pair"  # not Upper total, not Bonus
        await pilot.press("up")
        assert board.selected_cell() == "sixes"


@pytest.mark.parametrize(("size", "lang"), CASES)
@pytest.mark.asyncio
async def test_the_new_game_screen_shows_whole_option_values(size: tuple[int, int], lang: str) -> None:
    app = KostiApp(PlayConfig(lang=lang, bot_delay=0, save=False))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        lines = screen_lines(app)
        t = app.t
        line_with(lines, t("value.first_player.rolloff"))
        line_with(lines, t("value.faces.pips"))


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.asyncio
async def test_the_fences_log_goes_under_the_sheet_and_reads_whole_lines(lang: str) -> None:
    from kosti.tui.game_screen import LOG_WIDTH

    app = app_for("poker-fences", [(4, 4, 4, 4, 1), (6, 6, 6, 2, 3)], lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board: Any = app.screen.query_one("#board-panel")
        await pilot.press("t")
        await select(pilot, board, "fours")
        await pilot.press("enter", "t")
        await pilot.pause()
        body = app.screen.query_one("#body")
        log = app.screen.query_one("#log")
        assert body.has_class("stacked")
        assert log.size.width >= 76 and log.region.y > board.region.y
        lines = assert_fits(app, (80, 24))
        session = session_of(app)
        from kosti.tui.text import log_text

        # the last lines of the log, each whole on one line of the screen
        for entry in session.log[-3:]:
            text = log_text(entry, app.t, "pips", app.screen.narrator)  # type: ignore[attr-defined]
            assert len(text) < 76
            line_with(lines, text)
    # a sheet that leaves room keeps the log beside it, at least LOG_WIDTH wide
    app = app_for("poker-classic", [(4, 4, 4, 4, 1)], lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app.screen.query_one("#body").has_class("stacked")
        assert app.screen.query_one("#log").size.width >= LOG_WIDTH - 2
