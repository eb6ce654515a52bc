"""Every decision of a game record against the best one: the judge of ``kosti report``.

One loop for every family the solver advises: the record is replayed on its engine, each
decision (a roll written where the player first had to choose to throw on stands for that
choice, RULES.md §5) is valued by an :class:`~kosti.bots.base.Advisor` next to the best one.
The score-sheet solver values decisions by expected final score, the «Тысяча» solver by the
chance of winning.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from kosti.actions import Action, Roll
from kosti.bots.base import Advisor
from kosti.games import engine_for
from kosti.games.base import GameState
from kosti.record import Record, states, written_steps


@dataclass(frozen=True)
class Judged:
    """One decision of a record next to the best one."""

    turn: int
    """The turn of the record it was made in (from 1)."""
    player: str
    dice: tuple[int, ...]
    action: Action
    best: Action
    value: float
    """What the decision made was worth (expected final score, or chance of winning)."""
    best_value: float
    where: Mapping[str, int]
    """Where in the turn it was made: ``throws`` made (score sheets), ``turn_total`` («Тысяча»)."""

    @property
    def loss(self) -> float:
        """What the decision gave up against the best one (never below 0)."""
        return max(0.0, self.best_value - self.value)


def judge(record: Record, advisor: Advisor, where: Callable[[GameState], Mapping[str, int]]) -> list[Judged]:
    """Every decision of every player in ``record`` compared with the best one ``advisor`` gives;
    ``where(state)`` says where in the turn each was made. An invalid record raises
    :class:`~kosti.errors.RecordError` (the whole record is checked first)."""
    for _ in states(record):  # validates the whole record first, with its usual messages
        pass
    rules = record.rules()
    engine = engine_for(rules)
    state: GameState = engine.new_game(rules, record.players)
    judged: list[Judged] = []
    for t, turn in enumerate(record.turns, 1):
        for action in turn.actions:
            for step in written_steps(engine, state, action):
                if not isinstance(step, Roll):
                    advice = advisor.advise(state)
                    mine = next(a for a in advice if a.action == step)
                    best = advice[0]
                    judged.append(
                        Judged(
                            t, turn.player, tuple(getattr(state, "dice", ())), step, best.action,
                            float(mine.value or 0.0), float(best.value or 0.0), where(state),
                        )
                    )  # fmt: skip
                state = engine.apply(state, step)
    return judged
