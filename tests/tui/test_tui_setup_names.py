"""The new-game screen names the players: each person's seat has its name in an input, checked as
the server checks a name (kosti.server.limits.normalize_name). A name being typed says at once
why it would be refused; the seat takes it on Enter or when the input is left, and a refused one
changes nothing; no game starts under a name that was refused. It all fits 80 × 24, in both
languages."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Button, Input

from kosti.roller import ScriptedDice
from kosti.tui.app import KostiApp, PlayConfig
from kosti.tui.game_screen import GameScreen
from kosti.tui.session import Seat
from kosti.tui.setup_screen import SetupScreen

SMALL = (80, 24)

# what each language says, from its catalog
WORDS = {
    "en": {
        "you": "Player",
        "bot": "Smart",
        "invisible": "A name is made of characters that can be seen.",
        "empty": "A name needs at least one letter.",
        "taken": "Someone at this table is called Smart already.",
        "printable": "A name is made of printable characters.",
    },
    "ru": {
        "you": "Игрок",
        "bot": "Умник",
        "invisible": "Имя состоит из видимых символов.",
        "empty": "В имени нужна хотя бы одна буква.",
        "taken": "За этим столом уже есть Умник.",
        "printable": "Имя состоит из печатных символов.",
    },
}


def new_game(lang: str) -> KostiApp:
    # dice for the roll-off of the default seats: the person first
    return KostiApp(
        PlayConfig(lang=lang, bot_delay=0, save=False),
        dice=ScriptedDice([(6, 6, 6, 6, 6), (1, 1, 1, 1, 1)]),
    )


def screen_text(app: KostiApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def error(app: KostiApp) -> str:
    """Why a name is refused, as the screen says it; it is on the screen (not scrolled away)."""
    said = app.screen.query_one("#setup-error")
    text = str(said.render())
    if text:
        assert said.region.height and said.region.bottom <= app.size.height - 4  # above the start
    return text


def name_input(app: KostiApp) -> Input:
    return next(iter(app.screen.query(".seat-name").results(Input)))


def seats(app: KostiApp) -> list[Seat]:
    screen = app.screen
    assert isinstance(screen, SetupScreen)
    return list(screen.seats)


async def retype(pilot: Any, entry: Input, text: str) -> None:
    """Clear ``entry`` by keys and type ``text`` into it."""
    entry.focus()
    await pilot.press("end", *["backspace"] * len(entry.value), *text)
    await pilot.pause()


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.asyncio
async def test_a_persons_name_is_edited_and_the_game_starts_under_it(lang: str) -> None:
    words = WORDS[lang]
    app = new_game(lang)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        entry = name_input(app)
        assert entry.value == words["you"]
        # at 80 × 24 the name, the bot and the start are all on the screen
        shown = screen_text(app)
        assert words["you"] in shown and words["bot"] in shown
        assert app.t("setup.start") in shown
        await retype(pilot, entry, "  Vera")
        await pilot.press("enter")
        await pilot.pause()
        assert [s.name for s in seats(app)] == ["Vera", words["bot"]]
        assert entry.value == "Vera"  # as the seat will be shown
        assert error(app) == ""
        assert "Vera" in screen_text(app)
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("enter")  # past the roll-off
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.session is not None
        assert [s.name for s in app.session.seats] == ["Vera", words["bot"]]


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.asyncio
async def test_a_refused_name_says_why_and_changes_nothing(lang: str) -> None:
    words = WORDS[lang]
    app = new_game(lang)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        entry = name_input(app)
        before = seats(app)
        # the Braille blank: a "letter" nobody sees
        entry.value = "\u2800"
        await pilot.pause()
        assert error(app) == words["invisible"]
        await pilot.press("enter")
        await pilot.pause()
        assert error(app) == words["invisible"]
        assert seats(app) == before
        # a name cleared, and a name that looks like the bot's (case aside)
        await retype(pilot, entry, "")
        assert error(app) == words["empty"]
        await retype(pilot, entry, words["bot"].lower())
        assert error(app) == words["taken"]
        entry.blur()  # left as it is: the seat keeps its name
        await pilot.pause()
        assert error(app) == words["taken"]
        assert seats(app) == before
        # no game starts under a name refused
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert error(app) == words["taken"]
        assert app.focused is entry


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.asyncio
async def test_a_new_players_name_is_checked_the_same_way(lang: str) -> None:
    words = WORDS[lang]
    app = new_game(lang)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        add = app.screen.query_one("#name", Input)
        add.focus()
        add.value = "Anna\u200b"  # a zero-width space: not printable
        await pilot.press("enter")
        await pilot.pause()
        assert len(seats(app)) == 2
        assert error(app) == words["printable"]
        await pilot.press("end", "backspace", "enter")
        await pilot.pause()
        assert [s.name for s in seats(app)] == [words["you"], words["bot"], "Anna"]
        assert error(app) == ""
        # her seat is named in an input of its own, and ✕ takes the bot away
        inputs = list(app.screen.query(".seat-name").results(Input))
        assert [i.value for i in inputs] == [words["you"], "Anna"]
        bot_row = list(app.screen.query("#players .seat-row"))[1]
        await pilot.click(bot_row.query_one(Button))
        await pilot.pause()
        assert [s.name for s in seats(app)] == [words["you"], "Anna"]


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.asyncio
async def test_delete_twice_removes_the_seats_from_the_focused_one_down(lang: str) -> None:
    app = new_game(lang)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        screen.seats[:] = [Seat("Аня"), Seat("Боря"), Seat("Вера"), Seat("Гена")]
        screen._show_players()
        await pilot.pause()
        app.screen.query_one(f"#seat-remove-{screen._seat_generation}-1", Button).focus()
        await pilot.press("delete")
        await pilot.pause()
        assert [s.name for s in seats(app)] == ["Аня", "Вера", "Гена"]
        await pilot.press("delete")  # the focus stayed in the second row: Вера goes, not Гена
        await pilot.pause()
        assert [s.name for s in seats(app)] == ["Аня", "Гена"]
