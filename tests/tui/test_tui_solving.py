"""A long solve for a hint shows its progress and the time left, can be cancelled, and the
game stays playable meanwhile. The solve itself is stood in for (a full solve is bench work)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from kosti.actions import Score
from kosti.bots.base import Advice
from kosti.games.base import GameState
from kosti.roller import ScriptedDice
from kosti.rules.presets import variant
from kosti.solver.progress import Estimate
from kosti.solver.tables import SolveCancelled
from kosti.tui.advice import Hints, SolveProgress
from kosti.tui.app import KostiApp, PlayConfig
from kosti.tui.session import Seat


def test_progress_estimates_the_time_left_from_the_pace_so_far() -> None:
    progress = SolveProgress()
    assert progress.seconds_left() is None and not progress.running
    assert progress(0, 100) is True
    start = progress.started
    assert progress.seconds_left(start + 5) is None  # nothing done yet: no pace
    assert progress(25, 100) is True
    assert progress.running and progress.share == 0.25
    assert progress.seconds_left(start + 10) == pytest.approx(30.0)  # 25 in 10 s: 75 in 30 s
    progress.cancel()
    assert progress(30, 100) is False  # the solver stops at its next report
    progress(100, 100)
    assert not progress.running


def test_before_there_is_a_pace_the_time_left_is_what_the_solve_said_up_front() -> None:
    progress = SolveProgress()
    progress.estimate(Estimate(1_936_522, "states", 380.0, 1.0e9, 133e6, False))
    progress(0, 100)
    assert progress.seconds_left(progress.started + 5) == 380.0
    progress(50, 100)
    assert progress.seconds_left(progress.started + 10) == pytest.approx(10.0)  # then the pace
    progress.reset()
    assert progress.guess is None and progress.seconds_left() is None


class SlowSolver:
    """Says what it will take, reports a quarter done, then waits; stops as the real solver does
    when cancelled."""

    def __init__(self, progress: SolveProgress) -> None:
        self.progress = progress
        self.started = threading.Event()

    def advise(self, state: GameState) -> list[Advice]:
        self.progress.estimate(Estimate(1_936_522, "states", 380.0, 1.0e9, 133e6, False))
        self.progress(0, 4)
        self.progress(1, 4)
        self.started.set()
        for _ in range(500):
            if self.progress(1, 4) is False:
                raise SolveCancelled("cancelled")
            time.sleep(0.01)
        return [Advice(Score("chance"), 20.0, 0.0)]


def test_hints_pass_a_cancelled_solve_on_rather_than_falling_back() -> None:
    hints = Hints(variant("poker-classic"))
    solver = SlowSolver(hints.progress)
    hints._adviser = solver
    state: Any = object()
    result: list[BaseException] = []

    def ask() -> None:
        try:
            hints.advise(state)
        except SolveCancelled as error:
            result.append(error)

    thread = threading.Thread(target=ask)
    thread.start()
    assert solver.started.wait(5)
    hints.progress.cancel()
    thread.join(5)
    assert result and hints._adviser is solver  # no silent switch to the heuristic


@pytest.mark.asyncio
async def test_the_screen_shows_the_solve_and_escape_cancels_it_while_play_goes_on() -> None:
    config = PlayConfig(lang="en", preset="poker-free", seats=[Seat("Anna")], bot_delay=0.01, save=False)
    app = KostiApp(config, dice=ScriptedDice([(1, 2, 3, 4, 6), (6,)]))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        session = app.session
        assert session is not None
        solver = SlowSolver(session.hints.progress)
        session.hints._adviser = solver
        await pilot.press("t", "h")
        assert solver.started.wait(5)
        await pilot.pause(0.4)
        message = str(app.screen.query_one("#message").render())
        assert "25%" in message and "left" in message and "Escape" in message
        assert "133 MB kept on disk" in message
        await pilot.press("1", "2", "3", "4", "t")  # the game goes on while it solves
        assert session.state.dice == (1, 2, 3, 4, 6)  # type: ignore[attr-defined]
        assert session.state.throws == 2  # type: ignore[attr-defined]
        await pilot.press("escape")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert str(app.screen.query_one("#message").render()) == app.t("hint.cancelled")
