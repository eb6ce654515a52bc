"""Snapshots of the main screens, in both languages (pytest-textual-snapshot).

Dice are scripted and bots absent, so every picture is the same on every run.
Update them after a deliberate change of the look: ``pytest tests/tui --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from kosti.roller import ScriptedDice
from kosti.tui.app import KostiApp, PlayConfig
from kosti.tui.session import Seat

SIZE = (130, 40)
LANGS = ["en", "ru"]


def game(lang: str, preset: str, throws: list[tuple[int, ...]], **options: Any) -> KostiApp:
    options.setdefault("first_player", "seat")
    config = PlayConfig(
        lang=lang,
        preset=preset,
        options=options,
        seats=[Seat("Anna"), Seat("Boris")],
        bot_delay=0,
        save=False,
    )
    return KostiApp(config, dice=ScriptedDice(throws))


@pytest.mark.parametrize("lang", LANGS)
def test_new_game_screen(snap_compare: Any, lang: str) -> None:
    app = KostiApp(PlayConfig(lang=lang, bot_delay=0, save=False))
    assert snap_compare(app, terminal_size=SIZE)


@pytest.mark.parametrize("lang", LANGS)
def test_sheet_table(snap_compare: Any, lang: str) -> None:
    throws = [(1, 1, 2, 3, 4), (1, 1, 1, 5, 6), (6, 6, 2, 6, 3)]
    app = game(lang, "poker-classic", throws)
    # Anna records ones (−1), Boris ones (three: ✓), Anna throws and holds three sixes
    assert snap_compare(app, press=["t", "enter", "t", "enter", "t", "1", "2", "4"], terminal_size=SIZE)


@pytest.mark.parametrize("lang", LANGS)
def test_thousand_table(snap_compare: Any, lang: str) -> None:
    throws = [(1, 1, 1, 5, 2), (5, 2, 3, 3, 6)]
    app = game(lang, "thousand-classic", throws)
    # Anna opens with 105; Boris has 5 and must make 50 to open
    assert snap_compare(app, press=["t", "s", "t"], terminal_size=SIZE)


@pytest.mark.parametrize("lang", LANGS)
def test_showdown_table(snap_compare: Any, lang: str) -> None:
    throws = [(4, 4, 1, 2, 3), (4, 6, 5)]
    app = game(lang, "poker-showdown", throws, rounds=3)
    # Anna holds her fours (now locked), throws three dice, and holds the third four
    assert snap_compare(app, press=["t", "1", "2", "t", "3"], terminal_size=SIZE)


def test_roll_off(snap_compare: Any) -> None:
    throws = [(1, 2, 3, 4, 5), (6, 6, 1, 1, 1), (6, 6, 4, 3, 1), (5, 1, 1, 1, 2)]
    config = PlayConfig(lang="ru", preset="poker-classic", seats=[Seat("Anna"), Seat("Boris")], save=False)
    # a tie at 15, then Anna 20 against Boris 10
    assert snap_compare(KostiApp(config, dice=ScriptedDice(throws)), terminal_size=SIZE)


def test_end_screen(snap_compare: Any) -> None:
    throws = [(1, 1, 1, 5, 2)]
    app = game("ru", "thousand-classic", throws, target=100, barrel="none", pits=[])
    # 105 wins at once; the settlement against the average is exact: ±105/2
    assert snap_compare(app, press=["t"], terminal_size=SIZE)


def test_rules_screen(snap_compare: Any) -> None:
    app = game("en", "poker-classic", [])

    async def open_rules(pilot: Pilot[Any]) -> None:
        await pilot.press("r")
        await pilot.pause()

    assert snap_compare(app, run_before=open_rules, terminal_size=SIZE)
