"""Exact advice for two-player «Тысяча»: the optimal bot, hints and the report (RULES.md §3).

Every decision of a real engine state is valued by the chance of winning it keeps,
for the player to move, when both play optimally from then on: stop now («хватит»),
throw on, and with ``set_aside = "choice"`` which dice to set aside.

With three or more players the advice is *not exact*: the mover is advised as in a
two-player game against the strongest opponent (on the barrel first, then the highest
score), the others being left out of account.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np

from kosti.actions import SetAside, Stop, Throw
from kosti.bots.base import Advice, AdvisedBot
from kosti.errors import IllegalActionError, KostiError, OptionError
from kosti.games.base import GameState
from kosti.games.thousand.game import THOUSAND, ThousandState
from kosti.games.thousand.scoring import set_aside_points
from kosti.record import Record
from kosti.rules.presets import Variant
from kosti.solver import judging
from kosti.solver.jit import prepare
from kosti.solver.judging import Judged
from kosti.solver.thousand import kernel
from kosti.solver.thousand.model import STEP
from kosti.solver.thousand.solve import Progress, Solution, solve

TIE = 1e-12
"""Decisions closer than this are equally good (the engine's order breaks the tie)."""


def opponent_seat(state: ThousandState) -> int:
    """The seat the mover is advised against: the other one, or with more players the strongest
    (on the barrel first, then the highest score; the first such seat after the mover)."""
    n = len(state.board)
    others = [(state.current + d) % n for d in range(1, n)]
    if not others:
        raise OptionError("the solver advises games of two or more players")
    return max(others, key=lambda s: (state.board[s].on_barrel, state.board[s].score, -others.index(s)))


@dataclass
class Turn:
    """One position's turn solved: the tables of :func:`kernel.solve_turn` for the mover."""

    solution: Solution
    i: int
    j: int
    D: Any
    R: Any
    start: float

    def at(self, total: int, dice: int) -> tuple[float, float]:
        """Throwing ``dice`` on, and stopping (−1 where refused), with ``total`` set aside."""
        t = total // STEP
        row = min(t, int(self.solution.model.top[self.i]))
        wb = 1.0 - self.solution.values[self.j, self.solution.model.bust_next[self.i]]
        throw = (
            kernel.throw_value(self.solution.tables, self.D, row, dice, wb) if dice else float(self.D[row, 0])
        )
        return float(throw), float(self.R[row])

    def after(self, total: int, dice: int) -> float:
        """The value once ``total`` is set aside and ``dice`` remain (0: hot dice)."""
        row = min(total // STEP, self.D.shape[0] - 1)
        if self.solution.model.beyond[self.i] == 1:
            row = min(row, int(self.solution.model.top[self.i]))
        return float(self.D[row, dice])


class ThousandAdvisor:
    """Ranks every decision of a «Тысяча» position by the chance of winning it keeps.

    ``advise(state)`` follows :class:`~kosti.bots.base.Advisor`: each :class:`Advice` has the
    action, ``value`` (the mover's chance of winning after it, 0..1) and ``loss`` (the chance
    given up against the best decision). The variant is solved on first use (from the disk
    cache when solved before); ``progress`` is shown while it is.
    """

    def __init__(self, progress: Progress | None = None, floor: int | None = None) -> None:
        self.progress = progress
        self.floor = floor
        self._turns: OrderedDict[tuple[str, int, int], Turn] = OrderedDict()

    def solution(self, rules: Variant) -> Solution:
        return solve(rules, floor=self.floor, progress=self.progress)

    def turn(self, state: ThousandState) -> Turn:
        """The current player's turn, solved against the opponent of :func:`opponent_seat`."""
        solution = self.solution(_two_player(state.variant))
        model = solution.model
        i = model.status_of(state.board[state.current])
        j = model.status_of(state.board[opponent_seat(state)])
        key = (solution.spec, i, j)
        if key in self._turns:
            self._turns.move_to_end(key)
            return self._turns[key]
        rows = kernel.rows(model)
        D, R = np.empty((rows, 6)), np.empty(rows)
        # compiled first (or read from numba's cache): the ``compiling`` phase of the progress
        solve_turn, _ = prepare(
            self.progress,
            [
                (kernel.solve_turn, (solution.tables, solution.values, i, j, D, R)),
                (kernel.throw_value, (solution.tables, D, 0, 1, 0.5)),
            ],
        )
        start = solve_turn(solution.tables, solution.values, i, j, D, R)
        turn = Turn(solution, i, j, D, R, float(start))
        self._turns[key] = turn
        if len(self._turns) > 64:
            self._turns.popitem(last=False)
        return turn

    def position_value(self, state: GameState) -> float:
        """The current player's chance of winning now (before the pending throw, if any)."""
        s = _thousand(state)
        if s.finished:
            raise IllegalActionError("game_over")
        turn = self.turn(s)
        if s.pending and s.turn_total == 0 and not s.confirming:
            return turn.start
        if s.pending:
            return turn.at(s.turn_total, s.pending if not s.confirming else 0)[0]
        if s.choosing:
            return max(a.value or 0.0 for a in self.advise(s))
        throw, stop = turn.at(s.turn_total, s.dice_left)
        return max(throw, stop)

    def advise(self, state: GameState) -> list[Advice]:
        """Every legal decision with the chance of winning it keeps, best first."""
        s = _thousand(state)
        decisions = THOUSAND.decisions(s)
        if not decisions:
            return []
        turn = self.turn(s)
        values: list[float] = []
        for action in decisions:
            if isinstance(action, SetAside):
                points = set_aside_points(s.dice, action.faces)
                values.append(turn.after(s.turn_total + points, s.dice_left - len(action.faces)))
            elif isinstance(action, Throw):
                values.append(turn.at(s.turn_total, s.dice_left)[0])
            elif isinstance(action, Stop):
                values.append(turn.at(s.turn_total, s.dice_left)[1])
            else:  # pragma: no cover - the engine offers no other decision
                raise IllegalActionError("not_a_thousand_decision", action=str(action))
        order = sorted(range(len(decisions)), key=lambda n: -values[n])
        best = values[order[0]]
        # exact for two players; with more, advised against the strongest opponent alone
        exact = len(s.board) == 2
        ranked = []
        for n in order:
            loss = best - values[n]
            ranked.append(
                Advice(decisions[n], values[n], 0.0 if loss < TIE else loss, chance=True, exact=exact)
            )
        return ranked


class OptimalThousandBot(AdvisedBot):
    """Plays «Тысяча» to the highest chance of winning (exact for two players; against the
    strongest opponent with more, see the module docstring)."""

    name = "optimal"
    advisor: ThousandAdvisor

    def __init__(self, progress: Progress | None = None) -> None:
        super().__init__(ThousandAdvisor(progress))


def judge(record: Record, advisor: ThousandAdvisor | None = None) -> list[Judged]:
    """Every decision of ``record`` against the optimal one: the chance of winning each gave up,
    with the turn total when it was taken (:func:`kosti.solver.judging.judge`). An invalid
    record raises :class:`~kosti.errors.RecordError`."""
    return judging.judge(
        record, advisor or ThousandAdvisor(), lambda state: {"turn_total": getattr(state, "turn_total", 0)}
    )


def _thousand(state: GameState) -> ThousandState:
    if not isinstance(state, ThousandState):
        raise OptionError("the «Тысяча» advisor plays «Тысяча» only")
    return state


def _two_player(rules: Variant) -> Variant:
    return rules


def position(data: Any) -> ThousandState:
    """A «Тысяча» position from JSON (``kosti hint --position``).

    ``{"variant": spec, "options": {...}, "players": [{"name", "score", "opened", "bolts",
    "on_barrel", "barrel_attempts", "falls", "dots", "opening_score"}, …], "current": seat,
    "turn_total": n, "dice_left": k, "dice": [the last throw, when dice are to be set aside]}``.
    Missing fields take the start of a game's values; bad ones raise :class:`KostiError`.
    """
    from kosti.games.thousand.game import Player
    from kosti.rules.presets import variant

    if not isinstance(data, dict) or "variant" not in data:
        raise KostiError('a position is a JSON object with a "variant"')
    rules = variant(str(data["variant"]), data.get("options"))
    lines = data.get("players")
    if not isinstance(lines, list) or len(lines) < 2 or not all(isinstance(p, dict) for p in lines):
        raise KostiError('a «Тысяча» position lists two or more "players" as objects')
    try:
        board = tuple(
            Player(
                score=int(p.get("score", 0)),
                opened=bool(p.get("opened", int(p.get("score", 0)) != 0)),
                opening_score=None if p.get("opening_score") is None else int(p["opening_score"]),
                bolts=int(p.get("bolts", 0)),
                on_barrel=bool(p.get("on_barrel", False)),
                barrel_attempts=int(p.get("barrel_attempts", 0)),
                falls=int(p.get("falls", 0)),
                dots=int(p.get("dots", 0)),
            )
            for p in lines
        )
        names = [str(p.get("name", f"player {n + 1}")) for n, p in enumerate(lines)]
        current = int(data.get("current", 0))
        total = int(data.get("turn_total", 0))
        dice_left = int(data.get("dice_left", 5))
        dice = tuple(sorted(int(f) for f in data.get("dice", [])))
    except (TypeError, ValueError) as error:
        raise KostiError(f"a bad field in the position: {error}") from None
    if not 0 <= current < len(board):
        raise KostiError(f"current is a seat 0..{len(board) - 1}, not {current}")
    if total < 0 or total % STEP or not 1 <= dice_left <= 5:
        raise KostiError("turn_total is a multiple of 5 from 0, dice_left 1..5")
    state = THOUSAND.new_game(rules, names)
    choosing = bool(dice) and getattr(rules.options, "set_aside", "all") == "choice"
    if dice and len(dice) != dice_left:
        raise KostiError(f"dice shows the last throw: {dice_left} dice, not {len(dice)}")
    pending = 0 if total > 0 or choosing else 5
    from dataclasses import replace

    return replace(
        state, board=board, current=current, turn_total=total, dice_left=dice_left, dice=dice,
        pending=pending, choosing=choosing,
    )  # fmt: skip
