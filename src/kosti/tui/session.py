"""A game at the terminal, as a model the screens only draw: who sits where, where dice
come from, the dice on the table in the order they lie, and a log of the turn.

Every rule lives in the engine and every move goes through the :class:`~kosti.record.Recorder`,
so the record is always the whole game. Several engine actions that one key stands
for (hold and throw, set aside and stop) are checked together on the pure engine
first: a refused key changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kosti.actions import Action, Announce, CellAction, Hold, Roll, Score, Scratch, SetAside, Stop, Throw
from kosti.bots.base import Advice
from kosti.dice import Faces, is_submultiset, normalize
from kosti.errors import IllegalActionError, KostiError, Refusal
from kosti.games.base import Engine, GameState
from kosti.record import Recorder, play_again
from kosti.roller import DiceSource
from kosti.rolloff import RollOff
from kosti.rules.presets import Variant
from kosti.tui.advice import Hints
from kosti.tui.bot_play import BotPlayers
from kosti.tui.saving import RecordFile


@dataclass(frozen=True)
class Seat:
    """A player at the table: a person, or a bot of some level."""

    name: str
    level: str | None = None
    """``random``, ``heuristic`` or ``optimal`` for a bot; ``None`` for a person."""

    @property
    def is_bot(self) -> bool:
        return self.level is not None


@dataclass(frozen=True)
class LogEntry:
    """One line of the log, as a catalog key and its parameters (``dice`` are faces, ``cell`` a cell id)."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


class Refused(Refusal):
    """A key the game cannot take now, as a refusal (RULES.md §4): the engine's own, with its
    code and params, when the key stands for actions the rules refuse; else one of the
    terminal's (``no_die_there``, ``pick_cell``, ``undo_off`` …). The screen shows
    :func:`kosti.i18n.refusal_text` of it."""

    @classmethod
    def of(cls, refusal: Refusal) -> Refused:
        """The engine's ``refusal`` as the terminal's (the same code and params)."""
        return cls(refusal.code, **refusal.params)


class Session:
    """A game in progress at the terminal (see the module docstring)."""

    def __init__(
        self,
        recorder: Recorder,
        seats: Sequence[Seat],
        dice: DiceSource | None,
        path: Path | None = None,
        rolloff: RollOff | None = None,
        seed: int | None = None,
    ) -> None:
        names = list(recorder.record.players)
        by_name = {seat.name: seat for seat in seats}
        self.seats: tuple[Seat, ...] = tuple(by_name.get(name, Seat(name)) for name in names)
        self.recorder = recorder
        self.dice = dice
        """Where throws come from; ``None`` when they are typed in (scorekeeper mode)."""
        self.file = RecordFile(path)
        """Where the record is written after every move."""
        self.rolloff = rolloff
        self.log: list[LogEntry] = []
        self.table: list[int] = []
        """The dice of the last throw in the order they lie (with the kept ones in their places)."""
        self.marked: set[int] = set()
        """Positions on :attr:`table` marked by the player: held, or to set aside."""
        self.bots = BotPlayers([(seat.name, seat.level) for seat in self.seats], self.variant, seed)
        self.undo_allowed = not self.bots or dice is None
        """Moves may be taken back: by default in games of people only, and always in
        scorekeeper mode (a table option: :class:`~kosti.tui.app.PlayConfig` ``undo``)."""
        self.hints = Hints(self.variant)
        if not recorder.record.turns:
            self._log_events(self.state)  # a new game's own events: a showdown's first antes
        self._sync_table()

    @classmethod
    def new(
        cls,
        rules: Variant,
        seats: Sequence[Seat],
        dice: DiceSource | None,
        path: Path | None = None,
        rolloff: RollOff | None = None,
        seed: int | None = None,
    ) -> Session:
        """A new game; ``seats`` in turn order (the roll-off's starter first)."""
        extra: dict[str, Any] = {}
        bots = {s.name: s.level for s in seats if s.level is not None}
        if bots:
            extra["bots"] = bots
        if rolloff is not None and rolloff.throws:
            extra["rolloff"] = [{"player": t.player, "roll": list(t.faces)} for t in rolloff.throws]
        recorder = Recorder(rules, [s.name for s in seats], extra)
        session = cls(recorder, seats, dice, path, rolloff, seed)
        session.save()
        return session

    @classmethod
    def resume(
        cls, recorder: Recorder, dice: DiceSource | None, path: Path | None, seed: int | None = None
    ) -> Session:
        """Continue a recorded game; the bots are the ones its record names."""
        bots = recorder.record.extra.get("bots", {})
        seats = [
            Seat(name, bots.get(name) if isinstance(bots, dict) else None) for name in recorder.record.players
        ]
        session = cls(recorder, seats, dice, path, None, seed)
        session.log.append(LogEntry("log.resumed", {"n": len(recorder.record.turns)}))
        return session

    # -- what the screens read -------------------------------------------------

    @property
    def path(self) -> Path | None:
        """The record's file (``None``: the game is not saved)."""
        return self.file.path

    @property
    def state(self) -> GameState:
        return self.recorder.state

    @property
    def engine(self) -> Engine[Any]:
        return self.recorder.engine

    @property
    def variant(self) -> Variant:
        return self.state.variant

    @property
    def family(self) -> str:
        return self.variant.family

    @property
    def faces_style(self) -> str:
        return self.variant.options.faces

    @property
    def finished(self) -> bool:
        return self.engine.is_finished(self.state)

    @property
    def seat(self) -> Seat | None:
        """The player to act (``None`` once the game is over)."""
        index = self.engine.current_player(self.state)
        return None if index is None else self.seats[index]

    @property
    def bot_to_act(self) -> bool:
        """A bot must act now (and can: in scorekeeper mode its throws are typed in)."""
        return self.bots.due(self.engine, self.state, self.dice)

    @property
    def to_throw(self) -> int:
        return self.engine.to_throw(self.state)

    def decisions(self) -> list[Action]:
        return self.engine.decisions(self.state)

    def locked(self) -> set[int]:
        """Positions that may not be thrown again this turn (showdown: held dice are locked)."""
        faces = getattr(self.state, "locked", ())
        return self._positions(faces, prefer=self.marked) if faces and self.family == "showdown" else set()

    def scoring(self) -> set[int]:
        """Positions of the dice of the last throw that score («Тысяча»)."""
        if self.family != "thousand" or not self.table:
            return set()
        from kosti.games.thousand.scoring import score_throw

        return self._positions(score_throw(self.table).scoring)

    def marked_faces(self) -> Faces:
        return tuple(sorted(self.table[i] for i in self.marked))

    def after_marked(self) -> GameState | None:
        """The state once the marked dice are set aside («Тысяча», while choosing): what the
        turn would then hold. The state itself when there is nothing to set aside; ``None``
        when the marked dice cannot be set aside."""
        if self.family != "thousand" or not getattr(self.state, "choosing", False):
            return self.state
        try:
            return self._check([SetAside(self.marked_faces())])
        except Refused:
            return None

    # -- the player's keys -------------------------------------------------------

    def toggle(self, position: int) -> None:
        """Mark or unmark the die at ``position`` (hold it, or pick it to set aside). Refused with
        the engine's own reason when the dice cannot be held or set aside now, or when the die
        is locked; ``no_die_there`` when no die lies at ``position``."""
        if self.finished or self.to_throw or not self.table:
            raise Refused("no_dice")
        if not 0 <= position < len(self.table):
            raise Refused("no_die_there", n=position + 1)
        die = (self.table[position],)
        if self.family == "thousand":
            if not getattr(self.state, "choosing", False):
                raise self._refusal(SetAside(die))
        elif not any(
            (isinstance(a, Hold) and a.faces) or (isinstance(a, CellAction) and a.kind == "announce")
            for a in self.decisions()
        ):
            # (in column II dice may be picked before the announcement that allows the throw)
            raise self._refusal(Hold(die))
        if position in self.locked():
            raise self._refusal(Hold(tuple(sorted(self.table[i] for i in self.marked - {position}))))
        self.marked ^= {position}

    def throw_plan(self) -> tuple[list[Action], int]:
        """The decisions the throw key stands for now, and how many dice are thrown after them.

        0 dice: the decisions end the turn themselves (setting dice aside can win the game,
        earn a dot or confirm the turn). :class:`Refused` when no throw is allowed.
        """
        if self.finished:
            raise Refused("game_over")
        if self.to_throw:
            return [], self.to_throw
        plan: list[Action] = []
        if self.family == "thousand":
            if getattr(self.state, "choosing", False):
                plan.append(SetAside(self.marked_faces()))
            state = self._check(plan)
            if self._turn_over(state) or self.engine.to_throw(state):
                return plan, self.engine.to_throw(state)
            plan.append(Throw())
        else:
            # the engine says why a hold is refused (column II first, no throws left, locked dice)
            plan.append(Hold(self.marked_faces() if getattr(self.state, "throws", 0) else ()))
        n = self.engine.to_throw(self._check(plan))
        if n == 0:
            raise Refused("no_throw")
        return plan, n

    def _turn_over(self, state: GameState) -> bool:
        return self.engine.is_finished(state) or state.turn != self.state.turn

    def throw(self, faces: Sequence[int] | None = None) -> None:
        """The throw key: the decisions it stands for, then the throw (``faces`` when typed in)."""
        plan, n = self.throw_plan()
        if n == 0:
            # setting the dice aside ended the turn: there is nothing left to throw
            for action in plan:
                self._apply(action)
            return
        if faces is None:
            if self.dice is None:
                raise Refused("type_dice", n=n)
            thrown = tuple(self.dice.roll(n))
        else:
            thrown = tuple(faces)
            if len(thrown) != n:
                raise Refused("type_count", n=n)
            try:
                normalize(thrown)
            except KostiError:
                raise Refused("type_faces") from None
        self._check([*plan, Roll(thrown)])
        for action in plan:
            self._apply(action)
        self._apply(Roll(thrown))

    def record(self, cell: str) -> None:
        """Record the dice in ``cell`` (score-sheet games)."""
        self._decide(Score(cell))

    def records_nothing(self, cell: str) -> bool:
        """Recording the dice in ``cell`` now is legal and scores 0 for an absent combination
        («прочерк»; three of a kind in a deviation upper cell is a result, not a 0)."""
        if self.family != "sheet" or self.to_throw or Score(cell) not in self.decisions():
            return False
        from kosti.rules.options import UPPER_CELLS

        if cell in UPPER_CELLS and getattr(self.variant.options, "upper", "") == "deviation":
            return False
        return cell_value(self.state, cell) == 0

    def can_scratch(self, cell: str) -> bool:
        return not self.to_throw and Scratch(cell) in self.decisions()

    def scratch(self, cell: str) -> None:
        """Scratch ``cell`` (poker-fences)."""
        self._decide(Scratch(cell))

    def announce(self, cell: str) -> None:
        """Announce ``cell`` (column II of poker-fences)."""
        self._decide(Announce(cell))

    def stop(self) -> None:
        """Bank the turn («хватит», «Тысяча») or stand (showdown).

        With dice to set aside by choice, the marked dice are set aside first; if that
        already ends the turn (a win, a dot, a confirmed hot-dice turn) no stop is made.
        A stop the rules refuse is refused with the engine's reason (below the opening, in a
        pit, on the barrel, or a game where a turn ends otherwise).
        """
        plan: list[Action] = []
        if self.family == "thousand" and getattr(self.state, "choosing", False):
            plan.append(SetAside(self.marked_faces()))
        state = self._check(plan)
        if not (plan and self._turn_over(state)):
            self._check([*plan, Stop()])
            plan.append(Stop())
        for action in plan:
            self._apply(action)

    def _decide(self, action: Action) -> None:
        """Make a decision the screen asks for; refused with the engine's reason."""
        self._check([action])
        self._apply(action)

    def _check(self, actions: Sequence[Action]) -> GameState:
        """The state after ``actions`` on the pure engine; :class:`Refused` with the engine's
        refusal if one is illegal."""
        state = self.state
        for action in actions:
            try:
                state = self.engine.apply(state, action)
            except IllegalActionError as error:
                raise Refused.of(error) from None
        return state

    def _refusal(self, action: Action) -> Refused:
        """The engine's refusal of ``action`` now (``no_dice`` should it take it: the caller
        asks only where the screen knows it cannot)."""
        try:
            self.engine.apply(self.state, action)
        except IllegalActionError as error:
            return Refused.of(error)
        return Refused("no_dice")

    # -- taking moves back --------------------------------------------------------

    def undo(self) -> None:
        """Take back the last move: every decision since the last throw (the dice that have
        fallen stay); in scorekeeper mode the last action whatever it is, a typed throw too.
        The game is played again from its shortened record."""
        if not self.undo_allowed:
            raise Refused("undo_off")
        turns = [list(turn.actions) for turn in self.recorder.record.turns]
        while turns and not turns[-1]:
            turns.pop()
        if not turns:
            raise Refused("undo_nothing")
        last = turns[-1]
        if self.dice is None:
            last.pop()
        else:
            if isinstance(last[-1], Roll):
                raise Refused("undo_throw")
            while last and not isinstance(last[-1], Roll):
                last.pop()
        self._rebuild([action for turn in turns for action in turn])

    def throws(self) -> list[tuple[int, str, Faces]]:
        """Every throw of the record: (its place among all actions, the player, the faces)."""
        result: list[tuple[int, str, Faces]] = []
        index = 0
        for turn in self.recorder.record.turns:
            for action in turn.actions:
                if isinstance(action, Roll):
                    result.append((index, turn.player, action.faces))
                index += 1
        return result

    def edit_throw(self, index: int, faces: Sequence[int]) -> int:
        """Put ``faces`` in place of the throw at ``index`` (scorekeeper mode: a mistyped throw)
        and play the game again from the record. The moves that no longer fit the corrected
        dice are dropped, and so is all that follows them; returns how many were."""
        if self.dice is not None:
            raise Refused("edit_live")
        actions = [action for turn in self.recorder.record.turns for action in turn.actions]
        if not 0 <= index < len(actions) or not isinstance(actions[index], Roll):
            raise Refused("edit_none")
        thrown = tuple(faces)
        if len(thrown) != len(actions[index].faces):  # type: ignore[attr-defined]
            raise Refused("type_count", n=len(actions[index].faces))  # type: ignore[attr-defined]
        try:
            normalize(thrown)
        except KostiError:
            raise Refused("type_faces") from None
        actions[index] = Roll(thrown)
        return self._rebuild(actions)

    def _rebuild(self, actions: Sequence[Action]) -> int:
        """Play the game again from its start with ``actions``, as far as they are legal
        (:func:`~kosti.record.play_again`); the record, the table and the log are made anew.
        Returns the number of actions dropped."""
        record = self.recorder.record
        self.recorder = Recorder(record.rules(), list(record.players), record.extra)
        self.log = []
        self.table = []
        self.marked = set()
        self._log_events(self.state)
        dropped = play_again(self.recorder, actions, partial=True, each=self._note)
        self._sync_table()
        self.save()
        return dropped

    # -- bots --------------------------------------------------------------------

    def bot_step(self) -> bool:
        """Let the bot whose turn it is make one move (a decision, or its throw); False if none is due."""
        move = self.bot_move()
        if move is None:
            return False
        self.play_bot_move(move)
        return True

    def bot_move(self) -> Action | None:
        """The next move of the bot whose turn it is, not yet made: its throw, or its decision.

        Changes nothing, so a screen may work it out in a thread (an exact solver can take
        its time) and then :meth:`play_bot_move` it. ``None`` when no bot is to act.
        """
        return self.bots.move(self.engine, self.state, self.dice)

    def play_bot_move(self, action: Action) -> None:
        """Make the bot's move (from :meth:`bot_move`), showing its holds on the table."""
        self._apply(action)

    def advice(self) -> list[Advice]:
        """The hint: every decision ranked by the best adviser at hand (see :class:`Hints`)."""
        if self.to_throw or self.finished:
            return []
        return self.hints.advise(self.state)

    # -- bookkeeping -----------------------------------------------------------

    def _apply(self, action: Action) -> None:
        before = self.state
        self.recorder.apply(action)
        self._note(action, before, self.state)
        self.save()

    def _note(self, action: Action, before: GameState, after: GameState) -> None:
        """Bring the table and the log up to ``after``, which ``action`` led to from ``before``."""
        if isinstance(action, Hold | SetAside):
            # the dice held or set aside, on the table (a bot's, a replayed move's)
            self.marked = self._positions(action.faces, prefer=self.marked)
        seat = self.engine.current_player(before)
        entry = self._describe(before, self.seats[seat].name if seat is not None else "", action)
        if isinstance(action, Roll):
            self._lay(action.faces, before)
        if entry is not None:
            self.log.append(entry)
        showdown = getattr(after, "showdown", None)
        if showdown is not None and showdown is not getattr(before, "showdown", None):
            self.log.append(LogEntry("summary", {"showdown": showdown}))  # every hand, and why
        self._log_events(after)
        if self.engine.is_finished(after) and not self.engine.is_finished(before):
            winners = [after.players[i] for i in self.engine.winners(after)]
            self.log.append(LogEntry("log.game_over", {"names": ", ".join(winners)}))
        if after.turn != before.turn:
            self.marked = set()

    def _log_events(self, state: GameState) -> None:
        # why every score changed comes from the engine's own events (RULES.md §5.1)
        self.log.extend(LogEntry("event", {"event": event}) for event in state.events)

    def _describe(self, state: GameState, name: str, action: Action) -> LogEntry | None:
        """The log line of a move itself; what it changed on the board the events say."""
        if isinstance(action, Roll):
            params: dict[str, Any] = {"name": name, "dice": tuple(action.faces)}
            if self.family == "thousand":
                from kosti.games.thousand.scoring import score_throw

                points = score_throw(action.faces).points
                if not points:
                    return None  # a bust: its event says so
                return LogEntry("log.throw_points", {**params, "points": points})
            return LogEntry("log.throw", params)
        if isinstance(action, Hold):
            if not action.faces or (
                self.family == "showdown" and action.faces == getattr(state, "locked", ())
            ):
                return None
            return LogEntry("log.hold", {"name": name, "dice": action.faces})
        if isinstance(action, CellAction) and action.kind == "announce":
            return LogEntry("log.announce", {"name": name, "cell": action.cell})
        if isinstance(action, SetAside):
            return LogEntry("log.set_aside", {"name": name, "dice": action.faces})
        if isinstance(action, Stop) and self.family == "showdown":
            return LogEntry("log.stand", {"name": name, "dice": getattr(state, "dice", ())})
        return None  # recording, scratching and a «Тысяча» stop: their events say it all

    def _lay(self, faces: Faces, before: GameState) -> None:
        """Put the thrown dice on the table: kept dice stay where they lie, new ones fill the gaps."""
        if self.family == "thousand":
            self.table = list(faces)
            self.marked = self.scoring() if getattr(self.state, "choosing", False) else set()
            return
        kept = sorted(self.marked) if getattr(before, "throws", 0) and len(self.table) == 5 else []
        if len(faces) + len(kept) != 5:
            kept = []
        table = [0] * 5
        for i in kept:
            table[i] = self.table[i]
        rest = iter(faces)
        for i in range(5):
            if i not in kept:
                table[i] = next(rest)
        self.table = table
        if not kept:
            self.marked = set()
        self._sync_table()

    def _sync_table(self) -> None:
        """Make the table agree with the state's dice when it does not (after a resume, say)."""
        dice = tuple(getattr(self.state, "dice", ()))
        if dice and tuple(sorted(self.table)) != tuple(sorted(dice)):
            self.table = list(dice)
            self.marked = set()

    def _positions(self, faces: Sequence[int], prefer: set[int] | None = None) -> set[int]:
        """Positions on the table that show ``faces`` (as a multiset), preferring ``prefer``."""
        if not is_submultiset(faces, self.table):
            return set()
        wanted = list(faces)
        chosen: set[int] = set()
        order = sorted(range(len(self.table)), key=lambda i: (i not in (prefer or set()), i))
        for i in order:
            if self.table[i] in wanted:
                wanted.remove(self.table[i])
                chosen.add(i)
        return chosen

    def save(self) -> Path | None:
        """Write the record to its file (:class:`~kosti.tui.saving.RecordFile`); the path,
        or ``None`` when the game is not saved."""
        return self.file.save(self.recorder.record)

    def record_json(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.recorder.record.dumps())
        return data


def cell_value(state: GameState, cell: str) -> int:
    """What recording the dice on the table in ``cell`` scores now (score-sheet games)."""
    from kosti.games.sheet.game import SHEET, SheetState

    if not isinstance(state, SheetState):
        raise IllegalActionError("not_a_sheet_game", spec=state.variant.spec)
    return SHEET.score_of(state, cell)
