"""Typed throws (scorekeeper mode) and the typed roll-off."""

from __future__ import annotations

from typing import Any

import pytest

from kosti.roller import ScriptedDice
from kosti.tui.app import KostiApp, PlayConfig
from kosti.tui.dialogs import parse_throw
from kosti.tui.game_screen import GameScreen
from kosti.tui.rolloff_screen import RollOffScreen, next_thrower
from kosti.tui.session import Seat


@pytest.mark.parametrize(
    ("text", "n", "style", "faces"),
    [
        ("1 5 3 3 4", 5, "pips", (1, 5, 3, 3, 4)),
        ("15334", 5, "pips", (1, 5, 3, 3, 4)),
        ("6,6", 2, "pips", (6, 6)),
        ("9 10 J q A", 5, "cards", (1, 2, 3, 4, 6)),
        ("К Т в д 9", 5, "cards", (5, 6, 3, 4, 1)),
        ("1 2 3", 5, "pips", None),
        ("1 2 3 4 7", 5, "pips", None),
        ("9 K A", 3, "pips", None),
        ("one two", 2, "pips", None),
    ],
)
def test_parse_throw(text: str, n: int, style: str, faces: tuple[int, ...] | None) -> None:
    assert parse_throw(text, n, style) == faces


def test_next_thrower_follows_ties_among_the_tied_only() -> None:
    players = ["Anna", "Boris", "Vera"]
    assert next_thrower(players, []) == "Anna"
    assert next_thrower(players, [(6, 6, 6, 6, 6)]) == "Boris"
    tie = [(6, 6, 6, 6, 6), (1, 1, 1, 1, 1), (6, 6, 6, 6, 6)]
    assert next_thrower(players, tie) == "Anna"  # Anna and Vera throw again
    assert next_thrower(players, [*tie, (1, 1, 1, 1, 2)]) == "Vera"
    assert next_thrower(players, [*tie, (1, 1, 1, 1, 2), (1, 1, 1, 1, 3)]) is None


@pytest.mark.asyncio
async def test_a_typed_roll_off_decides_who_starts() -> None:
    config = PlayConfig(
        lang="en", preset="poker-free", seats=[Seat("Anna"), Seat("Boris")], manual=True, save=False
    )
    app = KostiApp(config)
    async with app.run_test(size=(130, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, RollOffScreen)

        async def type_in(text: str) -> Any:
            await pilot.press(*text, "enter")

        await type_in("1 2 3 4 5")
        await type_in("5 4 3 2 1")  # a tie at 15
        await type_in("1 1 1 1 1")
        await type_in("2 2 2 2 2")  # Boris 10 beats Anna 5
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.session is not None
        assert app.session.recorder.record.players == ["Boris", "Anna"]
        assert len(app.session.recorder.record.extra["rolloff"]) == 4


def test_dice_source_is_secure_unless_seeded_or_scripted() -> None:
    from kosti.roller import SecureDice, SeededDice

    assert isinstance(KostiApp(PlayConfig()).dice, SecureDice)
    assert isinstance(KostiApp(PlayConfig(seed=3)).dice, SeededDice)
    assert KostiApp(PlayConfig(manual=True)).dice is None
    scripted = ScriptedDice([])
    assert KostiApp(PlayConfig(seed=3), dice=scripted).dice is scripted


@pytest.mark.asyncio
async def test_a_long_question_wraps_inside_its_box_at_80_by_24() -> None:
    from kosti.tui.dialogs import Confirm

    app = KostiApp(PlayConfig(lang="ru", bot_delay=0, save=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        t = app.t
        question = t("confirm.zero", cell=t.cell("four_of_a_kind"))
        assert len(question) > 56  # longer than the box is wide
        app.push_screen(Confirm(question, t))
        await pilot.pause()
        label = app.screen.query_one("#question")
        box = app.screen.query_one("Vertical")
        # the question takes two lines inside the box, none of it past the box's edge
        assert label.size.height >= 2
        assert box.region.contains_region(label.region)


@pytest.mark.asyncio
async def test_the_throw_picker_wraps_its_help_inside_its_box_at_80_by_24() -> None:
    from textual.widgets import Label

    from kosti.tui.dialogs import ThrowPicker

    app = KostiApp(PlayConfig(lang="ru", bot_delay=0, save=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(ThrowPicker([(0, "Анна", (6, 6, 6, 1, 2))], app.t, lambda f: " ".join(map(str, f))))
        await pilot.pause()
        box = app.screen.query_one("Vertical")
        labels = list(app.screen.query(Label))
        assert len(app.t("edit.help")) > 56 and any(label.size.height >= 2 for label in labels)
        for label in labels:
            assert box.region.contains_region(label.region)
