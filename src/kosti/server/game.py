"""The game at a table: its record so far, played from the moves in force.

Every move a seat made is kept with its actions, so that at a scorekeeper table the last
one can be taken back and a past throw changed: the game is then played again from the
start (:func:`kosti.record.play_again`), as a record is replayed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kosti.actions import Action, Roll
from kosti.events import Event
from kosti.games.base import Engine, GameState
from kosti.record import Recorder, play_again, written_steps
from kosti.rules.presets import Variant
from kosti.server.refusal import Refusal

Moves = list[tuple[int, tuple[Action, ...]]]
"""Each move still in force: the seat that made it and its actions."""


class TableGame:
    """The game played at a table, from its start on."""

    def __init__(self, rules: Variant, engine: Engine[Any], players: Sequence[str]) -> None:
        self.rules = rules
        self.engine = engine
        self.players = list(players)
        self.recorder = Recorder(rules, self.players)
        self.moves: Moves = []
        self.caused: list[tuple[Event, ...]] = []
        """The core's events of each move in :attr:`moves` (why scores changed), as the game in
        force played it: after an edit, those of the game played again."""

    @property
    def state(self) -> GameState:
        state: GameState = self.recorder.state
        return state

    def play(
        self,
        seat: int,
        actions: Sequence[Action],
        planned: Sequence[tuple[Action, GameState]] | None = None,
    ) -> tuple[Event, ...]:
        """Play the move of ``seat``: the core's events of it (:mod:`kosti.events`).

        ``planned``: the same actions as planning played them from the recorder's state, each
        with the state after it. Those states are taken as they are (the engine is pure:
        playing the actions again would give the same), as long as each action is one step
        of the record (:func:`~kosti.record.written_steps`)."""
        if planned is not None and [a for a, _ in planned] != list(actions):
            planned = None
        events: list[Event] = []
        for i, action in enumerate(actions):
            before = self.recorder.state
            if planned is not None and written_steps(self.engine, before, action) == [action]:
                after = planned[i][1]
                self.recorder.log(before, action, after)
            else:
                planned = None
                after = self.recorder.apply(action)
            events.extend(after.events)
        self.moves.append((seat, tuple(actions)))
        self.caused.append(tuple(events))
        return tuple(events)

    def undo(self) -> None:
        """Take back the last move (there is one: planning checked)."""
        self.moves.pop()
        self.recorder, self.caused = self.replayed_with_events(self.moves)

    def edit(self, throw: int, faces: Sequence[int]) -> None:
        """Make throw number ``throw`` (from 1) ``faces`` and play the game again."""
        self.moves = self.moves_with(throw, faces)
        self.recorder, self.caused = self.replayed_with_events(self.moves)

    def moves_with(self, throw: int, faces: Sequence[int]) -> Moves:
        """The moves with throw ``throw`` (from 1) made ``faces``; :class:`Refusal` if there is none."""
        count = 0
        moves: Moves = []
        found = False
        for seat, actions in self.moves:
            changed = []
            for action in actions:
                if isinstance(action, Roll):
                    count += 1
                    if count == throw:
                        if len(faces) != len(action.faces):
                            raise Refusal(
                                "bad_edit", why="size", throw=throw, n=len(action.faces), got=len(faces)
                            )
                        action = Roll(tuple(faces))
                        found = True
                changed.append(action)
            moves.append((seat, tuple(changed)))
        if not found:
            raise Refusal("bad_edit", why="none", throw=throw, n=count)
        return moves

    def replayed(self, moves: Moves) -> Recorder:
        """The game played from the start with ``moves``; raises when one of them breaks
        the rules (:class:`~kosti.errors.KostiError`)."""
        recorder = Recorder(self.rules, self.players)
        play_again(recorder, [action for _, actions in moves for action in actions])
        return recorder

    def replayed_with_events(self, moves: Moves) -> tuple[Recorder, list[tuple[Event, ...]]]:
        """The game played from the start with ``moves`` (:meth:`replayed`), and the events of
        each move."""
        recorder = Recorder(self.rules, self.players)
        heard: list[Event] = []
        caused: list[tuple[Event, ...]] = []
        for _, actions in moves:
            play_again(recorder, actions, each=lambda _action, _before, after: heard.extend(after.events))
            caused.append(tuple(heard))
            heard.clear()
        return recorder, caused

    def throws(self) -> list[tuple[int, tuple[int, ...]]]:
        """The throws made so far, each with the seat that made it."""
        return [
            (seat, action.faces)
            for seat, actions in self.moves
            for action in actions
            if isinstance(action, Roll)
        ]
