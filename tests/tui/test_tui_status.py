"""The status lines under the dice say what is true in every preset and column: the throw and
the throws left (banked ones apart), the column II announcement, and the «Тысяча» turn total
with the dice picked to set aside, agreeing with the refusal of a stop."""

from __future__ import annotations

from typing import Any

import pytest

from kosti.i18n import Catalog
from kosti.roller import ScriptedDice
from kosti.rules.presets import variant
from kosti.tui.app import KostiApp, PlayConfig
from kosti.tui.session import Refused, Seat, Session

EN = Catalog("en")


def solo(preset: str, throws: list[tuple[int, ...]], **options: Any) -> KostiApp:
    config = PlayConfig(
        lang="en", preset=preset, options=options, seats=[Seat("Anna")], bot_delay=0, save=False
    )
    return KostiApp(config, dice=ScriptedDice(throws))


def shown(app: KostiApp, widget: str) -> str:
    app.screen.redraw()  # type: ignore[attr-defined]
    return str(app.screen.query_one(widget).render())


def session_of(app: KostiApp) -> Session:
    assert app.session is not None
    return app.session


@pytest.mark.asyncio
async def test_fences_column_two_says_a_throw_on_needs_an_announcement() -> None:
    from kosti.games.sheet.game import cells_of

    cells = cells_of(variant("poker-fences").options)  # type: ignore[arg-type]
    # column I: every cell thrown once (two throws of each turn banked), then column II
    app = solo("poker-fences", [(1, 2, 3, 4, 6)] * (len(cells) + 1))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        session = session_of(app)
        for cell in cells:
            session.throw()
            session.record(cell)
        session.throw()
        banked = session.state.sheets[0].banked  # type: ignore[attr-defined]
        assert banked == 2 * len(cells)
        turn, prompt = shown(app, "#turn"), shown(app, "#prompt")
        assert "Throw 1 of 3" in turn
        assert EN("turn.announce_to_throw") in turn
        assert "throws left" not in turn  # no count that a throw could not use
        assert prompt == EN("prompt.sheet_announce")
        assert "No throws left" not in prompt
        session.announce("poker")
        turn = shown(app, "#turn")
        assert f"2 throws left + {banked} banked throws" in turn
        assert shown(app, "#prompt") == EN("prompt.sheet_throw")


@pytest.mark.asyncio
async def test_a_throw_past_the_allowance_is_counted_as_banked() -> None:
    app = solo("poker-fences", [(1, 2, 3, 4, 6)] + [(5,)] * 4)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        session = session_of(app)
        session.scratch("poker")  # before the first throw: three throws banked
        session.throw()
        for position in range(4):
            session.toggle(position)
        for _ in range(2):
            session.throw()
        assert "Throw 3 of 3   0 throws left + 3 banked throws" in shown(app, "#turn")
        session.throw()
        assert "Throw 4: 3 + 1 banked   0 throws left + 2 banked throws" in shown(app, "#turn")
        session.throw()
        turn = shown(app, "#turn")
        assert "Throw 5: 3 + 2 banked" in turn
        assert "of 3" not in turn


@pytest.mark.asyncio
async def test_a_turn_with_no_throws_left_says_so() -> None:
    app = solo("poker-classic", [(1, 2, 3, 4, 6), (5,), (5,)])
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        session = session_of(app)
        session.throw()
        assert "Throw 1 of 3   2 throws left" in shown(app, "#turn")
        for position in range(4):
            session.toggle(position)
        session.throw()
        session.throw()
        assert "Throw 3 of 3   no throws left" in shown(app, "#turn")
        assert shown(app, "#prompt") == EN("prompt.sheet_record")


@pytest.mark.asyncio
async def test_thousand_v2_shows_the_turn_with_the_picked_dice_as_the_stop_refusal_does() -> None:
    # a 1 and a 5 score 10 + 5 (RULES.md §3.1): below the opening, so the stop is refused
    app = solo("thousand-v2", [(1, 5, 2, 3, 3)])
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        session = session_of(app)
        session.throw()
        assert session.marked == {0, 1}
        with pytest.raises(Refused) as refused:
            session.stop()
        total = refused.value.params["total"]
        assert total == 15
        turn = shown(app, "#turn")
        assert "Turn total: 15 with the picked dice (0 before)" in turn
        assert "3 dice to throw" in turn
        session.toggle(1)  # keep the 5 in hand: only the 1 is set aside
        turn = shown(app, "#turn")
        assert "Turn total: 10 with the picked dice" in turn and "4 dice to throw" in turn
        session.toggle(2)  # a 2 does not score: those dice cannot be set aside
        assert EN("turn.bad_pick") in shown(app, "#turn")
