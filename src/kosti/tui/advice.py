"""Hints at the table: who gives them (the exact solver for score sheets, and for «Тысяча»
once its values are at hand; else the heuristic bot), the cache of the last one, and the
progress of a long first solve, which the player can follow and cancel while the game goes on.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from kosti.bots.base import Advice
from kosti.errors import KostiError
from kosti.games.base import GameState
from kosti.levels import make_bot
from kosti.rules.presets import Variant
from kosti.solver.progress import Estimate


class SolveProgress:
    """How far a solve has come: the solving thread reports to it (it is the solver's
    ``progress(done, total)`` callback), the screen reads it, and :meth:`cancel` stops the solve."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.done = 0
        self.total = 0
        self.started = 0.0
        self._cancelled = False
        self.guess: Estimate | None = None
        """What the solve said up front it would take (a long one only)."""

    def reset(self) -> None:
        with self._lock:
            self.done = self.total = 0
            self.started = 0.0
            self._cancelled = False
            self.guess = None

    def estimate(self, what: Estimate) -> None:
        """The solver's word, before it starts, on what the solve will take."""
        with self._lock:
            self.guess = what

    def __call__(self, done: int, total: int) -> bool:
        """The solver's callback: record the step; ``False`` (cancel the solve) once cancelled."""
        with self._lock:
            if not self.started:
                self.started = time.monotonic()
            self.done, self.total = done, total
            return not self._cancelled

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True

    @property
    def running(self) -> bool:
        """A solve has reported and has neither finished nor been cancelled."""
        return bool(self.total) and self.done < self.total and not self._cancelled

    @property
    def share(self) -> float:
        return self.done / self.total if self.total else 0.0

    def seconds_left(self, now: float | None = None) -> float | None:
        """The time the rest should take at the pace so far; before there is a pace, what the
        solve said up front (``None`` when it said nothing)."""
        if not self.done or not self.total:
            return self.guess.seconds if self.guess is not None else None
        elapsed = (time.monotonic() if now is None else now) - self.started
        return elapsed * (self.total - self.done) / self.done


class Hints:
    """The hint for a state: every decision ranked by the best adviser at hand, the last one cached."""

    def __init__(self, rules: Variant) -> None:
        self.rules = rules
        self.family = rules.family
        self.progress = SolveProgress()
        self._adviser: Any = None
        self._last: tuple[GameState, list[Advice]] | None = None

    def advise(self, state: GameState) -> list[Advice]:
        """Every decision, best first. A cancelled solve raises
        :class:`~kosti.solver.tables.SolveCancelled` (and the next hint starts it again)."""
        if self._last is not None and self._last[0] is state:
            return self._last[1]
        if self._adviser is None:
            self._adviser = self._best_adviser()
        self.progress.reset()
        try:
            ranked: list[Advice] = self._adviser.advise(state)
        except KostiError as error:
            from kosti.solver.tables import SolveCancelled

            if isinstance(error, SolveCancelled):
                raise
            # a variant the exact solver does not play: the heuristic still has a view
            self._adviser = make_bot("heuristic", self.family)
            ranked = self._adviser.advise(state)
        except NotImplementedError:
            self._adviser = make_bot("heuristic", self.family)
            ranked = self._adviser.advise(state)
        self._last = (state, ranked)
        return ranked

    def _best_adviser(self) -> Any:
        """The solver's optimal bot where it plays this variant now (it reports its solve's
        progress here): score sheets, and «Тысяча» once its exact values are at hand
        (:func:`~kosti.levels.optimal_available`); else the heuristic bot."""
        from kosti.levels import optimal_available

        if self.family != "showdown" and optimal_available(self.rules):
            if self.family == "thousand":
                from kosti.solver.thousand.advisor import OptimalThousandBot

                def progress(done: int, total: int) -> None:
                    # a «Тысяча» solve offered here takes seconds: it is shown, not cancelled
                    self.progress(done, total)

                return OptimalThousandBot(progress=progress)
            from kosti.solver.advisor import OptimalBot

            return OptimalBot(progress=self.progress)
        return make_bot("heuristic", self.family)
