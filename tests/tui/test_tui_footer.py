"""The footer at 80 × 24: every key the table needs is on it or, when they cannot all fit, behind
"? keys", which lists them all; nothing is cut at the edge. Read from the screen as text."""

from __future__ import annotations

from typing import Any

import pytest

from kosti.roller import ScriptedDice
from kosti.tui.app import KostiApp, PlayConfig
from kosti.tui.game_screen import GameScreen
from kosti.tui.help_screen import KeysScreen
from kosti.tui.session import Seat

GAMES = [
    ("poker-fences", False),
    ("poker-fences", True),
    ("yahtzee", True),
    ("thousand-classic", False),
    ("thousand-v2", True),
    ("poker-showdown", False),
]


def screen_lines(app: KostiApp) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def app_for(preset: str, manual: bool, lang: str) -> KostiApp:
    config = PlayConfig(
        lang=lang,
        preset=preset,
        manual=manual,
        options={"first_player": "seat"},
        seats=[Seat("Anna"), Seat("Boris")],
        bot_delay=0,
        save=False,
    )
    return KostiApp(config, dice=None if manual else ScriptedDice([(1, 2, 3, 4, 6)]))


def needed(screen: GameScreen, short: bool) -> list[tuple[str, str]]:
    """(key, label) of every key of this table (``short``: the labels of a small terminal)."""
    from kosti.tui.game_screen import game_bindings

    keys = game_bindings(screen.t, screen.session.family, None, screen._available, short=short)
    return [(b.key_display or b.key, b.description) for b in keys if b.show]


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize(("preset", "manual"), GAMES)
@pytest.mark.asyncio
async def test_every_key_is_in_the_footer_or_behind_the_key_list(
    preset: str, manual: bool, lang: str
) -> None:
    app = app_for(preset, manual, lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.small
        for _ in range(50):  # (the footer is drawn after the table: on a busy machine, later)
            footer = screen_lines(app)[-1]
            if footer.strip():
                break
            await pilot.pause(0.05)
        assert len(footer.rstrip()) <= 79, footer  # a column to spare: nothing runs off the edge
        keys = needed(screen, short=True)
        assert len(keys) >= 5
        shown = [(key, label) for key, label in keys if f"{key} {label}" in footer]
        hidden = [pair for pair in keys if pair not in shown]
        more = app.t("key_short.keys")
        # the keys to play are always there
        for key, _ in keys[:3]:
            assert any(k == key for k, _ in shown), (key, footer)
        if hidden:
            assert f"? {more}" in footer
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, KeysScreen)
            listing: Any = app.screen.query_one("#keys-text").render()
            text = str(listing)
            for key, label in needed(screen, short=False):  # each with its whole label
                assert f"{key.ljust(3)}  {label}" in text
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is screen
        else:
            assert "? " not in footer


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.asyncio
async def test_a_wide_terminal_shows_every_key_with_its_whole_label(lang: str) -> None:
    app = app_for("poker-fences", True, lang)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and not screen.small
        for _ in range(50):
            footer = screen_lines(app)[-1]
            if footer.strip():
                break
            await pilot.pause(0.05)
        for key, label in needed(screen, short=False):
            assert f"{key} {label}" in footer
        assert app.t("key.edit") in footer  # the whole label, not the short one
        await pilot.resize_terminal(80, 24)  # and narrower again: the footer is fitted anew
        for _ in range(50):  # (the screen is composed again: on a busy machine that takes a while)
            await pilot.pause(0.05)
            footer = screen_lines(app)[-1]
            if screen.small and app.t("key.edit") not in footer:
                break
        assert app.t("key.edit") not in footer and f"E {app.t('key_short.edit')}" in footer
