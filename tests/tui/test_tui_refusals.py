"""The terminal says why a key is refused, in the player's language, with the engine's own refusal
(RULES.md §4): a stop below the opening or in a pit, a filled cell, the upper section first, a
die that is not on the table."""

from __future__ import annotations

from typing import Any

import pytest

from kosti.roller import ScriptedDice
from kosti.tui.app import KostiApp, PlayConfig
from kosti.tui.session import Seat

SIZE = (160, 50)


def russian(preset: str, throws: list[tuple[int, ...]], **options: Any) -> KostiApp:
    config = PlayConfig(
        lang="ru", preset=preset, options=options, seats=[Seat("Аня")], bot_delay=0, save=False
    )
    return KostiApp(config, dice=ScriptedDice(throws))


def message(app: KostiApp) -> str:
    return str(app.screen.query_one("#message").render())


async def select(pilot: Any, app: KostiApp, cell: str) -> None:
    """Put the sheet's cursor on ``cell``."""
    table = app.screen.query_one("#board-panel").table  # type: ignore[attr-defined]
    keys = [str(row.key.value) for row in table.ordered_rows]
    table.move_cursor(row=keys.index(cell))
    await pilot.pause()


@pytest.mark.asyncio
async def test_a_stop_below_the_opening_says_what_the_turn_needs() -> None:
    app = russian("thousand-classic", [(5, 2, 3, 3, 6)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t", "s")
        assert message(app) == "✗ Вы ещё не открылись: ход записывается от 50 (набрано 5)."
        assert app.session is not None and app.session.state.turn == 0


@pytest.mark.asyncio
async def test_a_stop_in_a_pit_says_where_the_pit_ends() -> None:
    app = russian("thousand-classic", [(5, 2, 3, 3, 6)], opening=0, pits=[[0, 100]])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t", "s")
        assert message(app) == "✗ В яме 0–100: «хватит» можно сказать только от 100 (0 + 5 = 5)."


@pytest.mark.asyncio
async def test_a_filled_cell_is_named() -> None:
    app = russian("poker-free", [(1, 1, 2, 3, 4), (1, 5, 5, 6, 6)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        await select(pilot, app, "ones")
        await pilot.press("enter", "t")
        await select(pilot, app, "ones")
        await pilot.press("enter")
        assert message(app) == "✗ Клетка «единицы» уже заполнена."


@pytest.mark.asyncio
async def test_the_upper_section_comes_first() -> None:
    app = russian("poker-classic", [(6, 6, 6, 2, 3)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        await select(pilot, app, "three_of_a_kind")
        await pilot.press("enter")
        assert message(app) == "✗ Сначала школа: единицы … шестёрки, потом комбинации."


@pytest.mark.asyncio
async def test_a_die_that_is_not_on_the_table() -> None:
    # (v2: the dice to set aside are picked) 1 2 3 3 4 scores the 1, set aside: four dice are
    # thrown on, and there is no fifth to pick
    app = russian("thousand-v2", [(1, 2, 3, 3, 4), (5, 2, 3, 4)])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t", "t")
        assert app.session is not None and len(app.session.table) == 4
        await pilot.press("5")
        assert message(app) == "✗ На столе нет 5-й кости."
