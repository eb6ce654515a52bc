"""The terminal teaches the game at 80 × 24 (read from the screen as text): ``?`` lists the keys
that work now and this table's rules; the line that says what to press is never cut off; the
footer offers only the keys the turn view says are open; a start of a poker-fences turn says
what T and X do there and that the columns come one after another; the log says why all five
dice are thrown again; every group set aside this turn is shown with its points."""

from __future__ import annotations

from typing import Any

import pytest

from kosti.i18n import Catalog
from kosti.roller import ScriptedDice
from kosti.rules.presets import variant
from kosti.tui.app import KostiApp, PlayConfig
from kosti.tui.end_screen import EndScreen
from kosti.tui.game_screen import GameScreen
from kosti.tui.help_screen import KeysScreen, marked_text, table_rules
from kosti.tui.session import Seat, Session

SMALL = (80, 24)


def app_for(
    preset: str,
    throws: list[tuple[int, ...]],
    lang: str = "en",
    seats: list[Seat] | None = None,
    **options: Any,
) -> KostiApp:
    options.setdefault("first_player", "seat")
    config = PlayConfig(
        lang=lang,
        preset=preset,
        options=options,
        seats=seats or [Seat("Anna"), Seat("Boris")],
        bot_delay=0,
        save=False,
    )
    return KostiApp(config, dice=ScriptedDice(throws))


def screen_lines(app: KostiApp) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def flat(text: str) -> str:
    return " ".join(text.split())


def on_screen(app: KostiApp) -> str:
    """The screen as one line of words (a text wrapped over whole lines reads as it was)."""
    return flat(" ".join(screen_lines(app)))


def in_box(app: KostiApp) -> str:
    """What the open list of keys shows inside its box, as one line of words (not the table
    under it)."""
    region = app.screen.children[0].region
    lines = screen_lines(app)[region.y : region.bottom]
    return flat(" ".join(line[region.x : region.right] for line in lines))


def session_of(app: KostiApp) -> Session:
    assert app.session is not None
    return app.session


def table(app: KostiApp) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen)
    return screen


async def footer(app: KostiApp, pilot: Any) -> str:
    for _ in range(50):  # (the footer is drawn after the table: on a busy machine, later)
        line = screen_lines(app)[-1]
        if line.strip():
            return line
        await pilot.pause(0.05)
    return ""


def footer_keys(app: KostiApp, line: str) -> set[str]:
    """The actions whose key and short label the footer shows."""
    from kosti.tui.game_screen import game_bindings

    screen = table(app)
    keys = game_bindings(screen.t, screen.session.family, short=True)
    shown = {b.action for b in keys if b.description and f"{b.key_display} {b.description}" in line}
    return {action.split("(")[0].removesuffix("_game") for action in shown}


# -- ? lists the keys that work now, and the rules ------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.asyncio
async def test_the_key_list_shows_every_key_open_now_and_the_rules_of_the_table(lang: str) -> None:
    app = app_for("thousand-classic", [(1, 1, 1, 5, 2)], lang)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("t")  # 105 set aside, one die to throw on, or stop
        screen = table(app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, KeysScreen)
        text = in_box(app)
        t = app.t
        for key, label in [
            ("T", "key.throw"),
            ("S", "key.stop_thousand"),
            ("R", "key.rules"),
            ("Q", "key.quit"),
        ]:
            assert flat(f"{key} {t(label)}") in text, (key, label)
        keys = screen.keys_now()
        for key, label in keys:
            assert flat(f"{key} {label}") in text, (key, label)
        # the sentences that explain pits, the barrel, bolts, overtaking, the dump truck, with this
        # table's numbers (the list scrolls: read whole)
        listed = flat(str(app.screen.query_one("#keys-text").render()))
        rules = table_rules(variant("thousand-classic"), Catalog(lang))  # type: ignore[arg-type]
        assert len(rules) >= 7
        for sentence in rules:
            assert flat(marked_text(sentence).plain) in listed


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.asyncio
async def test_the_key_list_is_there_at_the_end_too(lang: str) -> None:
    app = app_for("thousand-classic", [(1, 1, 1, 5, 2)], lang, target=100, barrel="none", pits=[])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("t")  # 105: Anna wins at once
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        t = app.t
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, KeysScreen)
        text = in_box(app)
        for label in (t("key.new_game"), t("key.back_to_table"), t("key.quit")):
            assert label in text
        assert t("rules.table.target", target=100) in text
        await pilot.press("escape", "escape")  # back to the table, where the game is over
        await pilot.pause()
        screen = table(app)
        keys = dict(screen.keys_now())
        assert "T" not in keys and "S" not in keys and "1…5" not in keys
        await pilot.press("question_mark")
        await pilot.pause()
        text = in_box(app)
        assert flat(f"R {t('key.rules')}") in text and flat(f"Q {t('key.quit')}") in text


# -- the line that says what to press is always whole ----------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.asyncio
async def test_the_key_line_is_whole_beside_a_long_turn(lang: str) -> None:
    # variant 2 in a pit: the picked 1s, the groups, what the pit needs; and then the prompt
    app = app_for("thousand-v2", [(2, 6, 1, 2, 1)], lang, opening=0, pits=[[0, 300]])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("t")
        screen = table(app)
        prompt = str(screen.query_one("#prompt").render())
        assert "T" in prompt and "1–5" in prompt
        assert flat(prompt) in on_screen(app)
        # and the turn above it says all it has to say: the pit's need is not cut off either
        assert flat(app.t("need.pit", need=300, high=300)) in on_screen(app)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.asyncio
async def test_hot_dice_say_what_to_press_and_the_log_says_why(lang: str) -> None:
    # a straight sets all five aside (classic): all five are thrown again, which nothing said
    app = app_for("thousand-classic", [(1, 5, 2, 3, 4), (1, 1, 1, 2, 6)], lang)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("t")
        t = app.t
        text = on_screen(app)
        assert flat(t("prompt.all_aside")) in text
        assert flat(t("log.all_aside", name="Anna", total=125)) in text
        # every group set aside this turn, each with its points: the straight stays in sight
        await pilot.press("t")
        turn = flat(str(table(app).query_one("#turn").render()))
        assert "1 2 3 4 5 (125)" in turn and "1 1 1 (100)" in turn


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.asyncio
async def test_a_stop_refused_says_why_in_the_key_line(lang: str) -> None:
    app = app_for("thousand-classic", [(5, 2, 3, 3, 6)], lang)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("t")
        from kosti.i18n import refusal_text

        why = refusal_text(session_of(app).view.stop.refusal, lang)  # type: ignore[arg-type]
        assert flat(app.t("prompt.throw_no_stop", why=why)) in on_screen(app)
        assert "stop" not in footer_keys(app, await footer(app, pilot))


# -- the footer offers the keys open now, and poker-fences says what a turn starts with ------------


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.asyncio
async def test_a_fences_turn_starts_with_what_t_and_x_do_not_with_holding(lang: str) -> None:
    app = app_for("poker-fences", [(1, 2, 3, 4, 6)], lang)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("t")
        keys = footer_keys(app, await footer(app, pilot))
        assert {"hold", "throw", "record"} <= keys
        assert "announce" not in keys  # column I: nothing to announce, right after the first throw either
        await pilot.press("enter")  # Anna records ones; Boris starts over her dice
        t = app.t
        screen = table(app)
        assert str(screen.query_one("#prompt").render()) == t("prompt.sheet_first")
        keys = footer_keys(app, await footer(app, pilot))
        assert {"throw", "scratch"} <= keys
        assert not keys & {"hold", "record", "announce", "stop"}
        await pilot.press("1")  # no die is held before the first throw
        assert str(screen.query_one("#message").render()) == "✗ " + t("refusal.no_dice").capitalize() + "."
        # the columns come one after another
        note = flat(str(screen.query_one("#sheet-note").render()))
        assert flat(t("sheet.columns_next", rest="II, III")) in note


@pytest.mark.asyncio
async def test_fences_column_two_offers_the_announcement() -> None:
    from kosti.games.sheet.game import cells_of

    cells = cells_of(variant("poker-fences").options)  # type: ignore[arg-type]
    app = app_for("poker-fences", [(1, 2, 3, 4, 6)] * (len(cells) + 1), seats=[Seat("Anna")])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        session = session_of(app)
        for cell in cells:
            session.throw()
            session.record(cell)
        session.throw()
        table(app).redraw()
        await pilot.pause()
        keys = footer_keys(app, await footer(app, pilot))
        assert {"announce", "record", "hold"} <= keys
        assert "throw" not in keys  # no throw on before an announcement
        note = flat(str(table(app).query_one("#sheet-note").render()))
        assert flat(app.t("sheet.columns_next", rest="III")) in note


@pytest.mark.asyncio
async def test_the_footer_offers_no_throw_nor_stop_once_the_game_is_over() -> None:
    app = app_for("thousand-classic", [(1, 1, 1, 5, 2)], target=100, barrel="none", pits=[])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await pilot.press("escape")
        await pilot.pause()
        keys = footer_keys(app, await footer(app, pilot))
        assert "quit" in keys and not keys & {"throw", "stop", "hold", "hint"}


# -- names ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.asyncio
async def test_a_bots_name_is_whole_on_the_small_sheet(lang: str) -> None:
    from kosti.tui.setup_screen import bot_name

    t = Catalog(lang)  # type: ignore[arg-type]
    professor = bot_name("optimal", [], t)
    app = app_for("poker-classic", [], lang, seats=[Seat("Anna"), Seat(professor), Seat("Vera")])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert professor in on_screen(app)


# -- the key line, from the turn view alone -----------------------------------------------------


def test_the_key_line_follows_the_turn_view() -> None:
    from kosti.tui.game_screen import prompt_text

    en = Catalog("en")
    sheet = Session.new(variant("poker-free"), [Seat("Anna")], ScriptedDice([(1, 2, 3, 4, 6), (5,), (5,)]))
    assert prompt_text(sheet.view, en) == en("prompt.throw", n=5)
    sheet.throw()
    assert prompt_text(sheet.view, en) == en("prompt.sheet_throw")
    for position in range(5):
        sheet.toggle(position)  # all five held: still a turn of holds and throws, not one of no throws
    assert not sheet.view.throw.open and prompt_text(sheet.view, en) == en("prompt.sheet_throw")
    sheet.toggle(4)
    sheet.throw()
    sheet.throw()
    assert prompt_text(sheet.view, en) == en("prompt.sheet_record")
    showdown = Session.new(
        variant("poker-showdown"), [Seat("Anna"), Seat("Boris")], ScriptedDice([(6, 6, 1, 2, 3)])
    )
    showdown.throw()
    assert prompt_text(showdown.view, en) == en("prompt.showdown")
    thousand = Session.new(variant("thousand-classic"), [Seat("Anna")], ScriptedDice([(1, 1, 1, 5, 2)]))
    thousand.throw()
    assert prompt_text(thousand.view, en) == en("prompt.thousand_stop")
