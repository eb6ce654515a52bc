"""A game at the terminal, as a model the screens only draw: who sits where, where dice
come from, the dice on the table in the order they lie, and a log of the turn.

Every rule lives in the engine and every move goes through the :class:`~kosti.record.Recorder`,
so the record is always the whole game. What the turn allows is the family's turn view
(:func:`kosti.games.turn_view`, :attr:`Session.view`): the dice on the table and what picking
them means, and the engine actions each key stands for (hold and throw, set aside and stop),
planned on the pure engine with the dice marked, or refused with the engine's reason. The
session plays those plans; a refused key changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kosti.actions import Action, Announce, CellAction, Hold, Roll, Score, Scratch, SetAside, Stop
from kosti.bots.base import Advice
from kosti.dice import Faces, is_submultiset, normalize
from kosti.errors import IllegalActionError, KostiError, Refusal
from kosti.games import turn_view
from kosti.games.base import Engine, GameState
from kosti.games.turn import KeyPlan, TurnView
from kosti.record import Recorder, play_again
from kosti.roller import DiceSource
from kosti.rolloff import RollOff
from kosti.rules.presets import Variant
from kosti.tui.advice import Hints
from kosti.tui.bot_play import BotPlayers
from kosti.tui.saving import RecordFile

LANG_KEY = "lang"
"""The record's key for the language the game was played in at the terminal."""

SCOREKEEPER_KEY = "scorekeeper"
"""The record's key that says the throws were typed in (scorekeeper mode)."""
MARKED = "marked"
"""The record's extra key for the dice marked, not thrown yet, when the game was left."""


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
        self._holding = False
        """The marks were last made by a hold: held dice stay on the table through a throw."""
        self._view: tuple[GameState, Faces, TurnView] | None = None
        self._edited: list[Action] | None = None
        """The record's actions before the last correction of a throw that dropped moves, while
        nothing has been played since: U brings them back."""
        self.bots = BotPlayers([(seat.name, seat.level) for seat in self.seats], self.variant, seed)
        self.undo_allowed = not self.bots or dice is None
        """Moves may be taken back: by default in games of people only, and always in
        scorekeeper mode (a table option: :class:`~kosti.tui.app.PlayConfig` ``undo``)."""
        self.hints = Hints(self.variant)
        if not recorder.record.turns:
            self._log_events(self.state)  # a new game's own events: a showdown's first antes

    @classmethod
    def new(
        cls,
        rules: Variant,
        seats: Sequence[Seat],
        dice: DiceSource | None,
        path: Path | None = None,
        rolloff: RollOff | None = None,
        seed: int | None = None,
        lang: str | None = None,
    ) -> Session:
        """A new game; ``seats`` in turn order (the roll-off's starter first). The record keeps
        what a resumed game needs to go on as it was played: the bots, the language (``lang``)
        and whether the throws are typed in (scorekeeper mode, ``dice`` ``None``)."""
        extra: dict[str, Any] = {}
        if lang is not None:
            extra[LANG_KEY] = lang
        if dice is None:
            extra[SCOREKEEPER_KEY] = True
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
        """Continue a recorded game; the bots are the ones its record names. The game is played
        again from its record, so the log, the dice on the table and those held are as they
        were when it was left."""
        record = recorder.record
        bots = record.extra.get("bots", {})
        seats = [Seat(name, bots.get(name) if isinstance(bots, dict) else None) for name in record.players]
        fresh = Recorder(record.rules(), list(record.players), record.extra)
        session = cls(fresh, seats, dice, path, None, seed)
        session._rebuild([action for turn in record.turns for action in turn.actions])
        session._remark(record.extra.get(MARKED))
        done = session.state.turn  # the turns over; a record's last turn may be under way
        if len(record.turns) > done:
            session.log.append(LogEntry("log.resumed_mid_turn", {"n": done + 1}))
        else:
            session.log.append(LogEntry("log.resumed", {"n": done}))
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
    def view(self) -> TurnView:
        """The turn as the player to act sees it (:func:`kosti.games.turn_view`), its keys
        planned with the dice marked on the table: every screen draws the turn from it."""
        picked = self.marked_faces()
        cached = self._view
        if cached is not None and cached[0] is self.state and cached[1] == picked:
            return cached[2]
        view = turn_view(self.state, picked)
        self._view = (self.state, picked, view)
        return view

    @property
    def to_throw(self) -> int:
        return self.view.to_throw

    def locked(self) -> set[int]:
        """Positions that may not be thrown again this turn (showdown: held dice are locked)."""
        return self._positions(self.view.locked, prefer=self.marked)

    def scoring(self) -> set[int]:
        """Positions of the dice of the last throw that score: those the player picks from
        («Тысяча», with the dice set aside by choice), or those the rules set aside by
        themselves (they lie on the table no more)."""
        view = self.view
        if view.scoring:
            return self._positions(view.scoring)
        if not view.aside:
            return set()
        on_table = list(view.dice)
        gone: set[int] = set()
        for position, face in enumerate(self.table):
            if face in on_table:
                on_table.remove(face)
            else:
                gone.add(position)
        return gone

    @property
    def marks_held(self) -> bool:
        """The marked dice are held: they stay on the table through a throw (else they are
        picked to set aside, or lie set aside)."""
        pick = self.view.pick
        return pick == "hold" if pick is not None else self._holding

    def marked_faces(self) -> Faces:
        return tuple(sorted(self.table[i] for i in self.marked if i < len(self.table)))

    def after_marked(self) -> GameState | None:
        """The state once the marked dice are taken as the turn view plans them (set aside,
        in «Тысяча» while choosing): what the turn would then hold. The state itself when
        picking asks no decision of its own (holds go with the throw); ``None`` when the
        marked dice cannot be taken."""
        view = self.view
        try:
            return self._check(_common_start(view.throw, view.stop))
        except Refused:
            return None  # the pick itself is refused, whichever key follows

    # -- the player's keys -------------------------------------------------------

    def toggle(self, position: int) -> None:
        """Mark or unmark the die at ``position`` (hold it, or pick it to set aside): as the
        turn view says picking means now. Refused with why when no die may be picked now, or
        with the engine's own reason when the die is locked; ``no_die_there`` when no die lies
        at ``position``."""
        view = self.view
        if view.player is None or view.to_throw or not self.table:
            raise Refused("no_dice")
        if not 0 <= position < len(self.table):
            raise Refused("no_die_there", n=position + 1)
        if view.pick is None:
            raise self._no_pick(view)
        marked = self.marked ^ {position}
        if position in self.locked():
            faces = tuple(sorted(self.table[i] for i in marked))
            refusal = turn_view(self.state, faces).throw.refusal
            if refusal is not None:
                raise Refused.of(refusal)
        self.marked = marked

    @staticmethod
    def _no_pick(view: TurnView) -> Refused:
        """Why no die may be picked now: the throw key's refusal (no throws left, say), else
        that no die is picked at this moment (the prompt says what the throw key does)."""
        if view.throw.refusal is not None:
            return Refused.of(view.throw.refusal)
        return Refused("no_dice")

    def throw_plan(self) -> tuple[list[Action], int]:
        """The decisions the throw key stands for now (:attr:`TurnView.throw`), and how many
        dice are thrown after them.

        0 dice: the decisions end the turn themselves (setting dice aside can win the game,
        earn a dot or confirm the turn). :class:`Refused` with the engine's reason when no
        throw is allowed.
        """
        if self.finished:
            raise Refused("game_over")
        plan = self.view.throw
        if plan.refusal is not None:
            raise Refused.of(plan.refusal)
        if not plan.throws and not self._turn_over(self._check(plan.actions)):
            raise Refused("no_throw")
        return list(plan.actions), plan.throws

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
        """Recording the dice in ``cell`` now is open and scores 0 for an absent combination
        («прочерк»; three of a kind in a deviation upper cell is a result, not a 0)."""
        if Score(cell) not in self.view.open:
            return False
        from kosti.rules.options import UPPER_CELLS, SheetOptions

        options = self.variant.options
        if cell in UPPER_CELLS and isinstance(options, SheetOptions) and options.upper == "deviation":
            return False
        return cell_value(self.state, cell) == 0

    def can_scratch(self, cell: str) -> bool:
        return Scratch(cell) in self.view.open

    def scratch(self, cell: str) -> None:
        """Scratch ``cell`` (poker-fences)."""
        self._decide(Scratch(cell))

    def announce(self, cell: str) -> None:
        """Announce ``cell`` (column II of poker-fences)."""
        self._decide(Announce(cell))

    def stop(self) -> None:
        """The stop key (:attr:`TurnView.stop`): bank the turn («хватит», «Тысяча») or stand
        (showdown).

        With dice to set aside by choice, the marked dice are set aside first; if that
        already ends the turn (a win, a dot, a confirmed hot-dice turn) no stop is made.
        A stop the rules refuse is refused with the engine's reason (below the opening, in a
        pit, on the barrel, or a game where a turn ends otherwise).
        """
        plan = self.view.stop
        if plan.refusal is not None:
            raise Refused.of(plan.refusal)
        for action in plan.actions:
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

    # -- taking moves back --------------------------------------------------------

    def undo(self) -> None:
        """Take back the last move: every decision since the last throw (the dice that have
        fallen stay); in scorekeeper mode the last action whatever it is, a typed throw too.
        The game is played again from its shortened record."""
        if not self.undo_allowed:
            raise Refused("undo_off")
        if self._edited is not None:
            # the last thing done was a correction that dropped moves: they come back with the
            # throw as it was
            self._rebuild(self._edited)
            self._edited = None
            return
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
        dice are dropped, and so is all that follows them; returns how many were. Where some
        were, :meth:`undo` next brings the game back as it was before the correction."""
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
        played = list(actions)
        actions[index] = Roll(thrown)
        dropped = self._rebuild(actions)
        self._edited = played if dropped else None
        return dropped

    def _rebuild(self, actions: Sequence[Action]) -> int:
        """Play the game again from its start with ``actions``, as far as they are legal
        (:func:`~kosti.record.play_again`); the record, the table and the log are made anew.
        Returns the number of actions dropped."""
        record = self.recorder.record
        self.recorder = Recorder(record.rules(), list(record.players), record.extra)
        self.log = []
        self.table = []
        self.marked = set()
        self._holding = False
        self._log_events(self.state)
        dropped = play_again(self.recorder, actions, partial=True, each=self._note)
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
        self._edited = None  # a new move: a correction is no longer the last thing done
        self._note(action, before, self.state)
        self.save()

    def _note(self, action: Action, before: GameState, after: GameState) -> None:
        """Bring the table and the log up to ``after``, which ``action`` led to from ``before``."""
        from kosti.games.showdown.game import ShowdownState

        if isinstance(action, Hold | SetAside):
            # the dice held or set aside, on the table (a bot's, a replayed move's)
            self.marked = self._positions(action.faces, prefer=self.marked)
            self._holding = isinstance(action, Hold)
        seat = self.engine.current_player(before)
        name = self.seats[seat].name if seat is not None else ""
        views = (turn_view(before), turn_view(after)) if isinstance(action, Roll | SetAside) else None
        entry = self._describe(before, after, seat, name, action, views)
        if isinstance(action, Roll) and views is not None:
            self._lay(action.faces, views[1])
        if entry is not None:
            self.log.append(entry)
        settled = after.showdown if isinstance(after, ShowdownState) else None
        if settled is not None and (not isinstance(before, ShowdownState) or settled is not before.showdown):
            self.log.append(LogEntry("summary", {"showdown": settled}))  # every hand, and why
        self._log_events(after)
        if views is not None and after.turn == before.turn and _all_aside(views[1]):
            # hot dice: why all five are thrown again (classic plays on, variant 2 confirms)
            self.log.append(LogEntry("log.all_aside", {"name": name, "total": views[1].turn_total or 0}))
        if self.engine.is_finished(after) and not self.engine.is_finished(before):
            winners = [after.players[i] for i in self.engine.winners(after)]
            self.log.append(LogEntry("log.game_over", {"names": ", ".join(winners)}))
        if after.turn != before.turn:
            self.marked = set()

    def _log_events(self, state: GameState) -> None:
        # why every score changed comes from the engine's own events (RULES.md §5.1)
        self.log.extend(LogEntry("event", {"event": event}) for event in state.events)

    def _describe(
        self,
        before: GameState,
        after: GameState,
        seat: int | None,
        name: str,
        action: Action,
        views: tuple[TurnView, TurnView] | None,
    ) -> LogEntry | None:
        """The log line of a move itself; what it changed on the board the events say. A throw
        or a set-aside that makes a group of its own («Тысяча») says the points the group made."""
        params: dict[str, Any] = {"name": name}
        points = _new_group_points(views) if views is not None and after.turn == before.turn else None
        if isinstance(action, Roll):
            if any(event.kind == "bust" for event in after.events):
                return None  # its event words the throw
            params["dice"] = tuple(action.faces)
            if points is not None:
                return LogEntry("log.throw_points", {**params, "points": points})
            return LogEntry("log.throw", params)
        if isinstance(action, SetAside):
            params["dice"] = action.faces
            if points is not None:
                return LogEntry("log.set_aside_points", {**params, "points": points})
            return LogEntry("log.set_aside", params)
        if isinstance(action, Hold):
            # holding nothing, or only the dice locked already, is no news
            if not action.faces or action.faces == turn_view(before).locked:
                return None
            return LogEntry("log.hold", {**params, "dice": action.faces})
        if isinstance(action, CellAction) and action.kind == "announce":
            return LogEntry("log.announce", {**params, "cell": action.cell})
        if isinstance(action, Stop) and not any(
            event.kind == "recorded" and event.seat == seat for event in after.events
        ):
            # a stand (showdown); a «Тысяча» stop records the turn, and its events say so
            return LogEntry("log.stand", {**params, "dice": turn_view(before).dice})
        return None  # recording, scratching and a «Тысяча» stop: their events say it all

    def _lay(self, faces: Faces, view: TurnView) -> None:
        """Put the thrown dice on the table: held dice stay where they lie and the new ones fill
        the gaps; dice set aside leave the table. ``view`` is the turn after the throw: the
        dice that score there are picked to set aside at once."""
        held = self._holding and len(self.marked) + len(faces) == len(self.table)
        kept = sorted(self.marked) if held else []
        table = list(self.table) if kept else [0] * len(faces)
        rest = iter(faces)
        for i in range(len(table)):
            if i not in kept:
                table[i] = next(rest)
        self.table = table
        self.marked = set(kept) if kept else set()
        if view.scoring:
            self.marked = self.scoring()

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
        or ``None`` when the game is not saved. The dice marked but not thrown yet are kept
        beside it (``marked``: their places on the table) so that a resumed game shows them
        marked again; they are no decision of the record and nothing replays them. With dice on
        the table it is written even when none is marked: the replay marks some by itself (the
        dice held through a throw, those that score), and the player may have unmarked them."""
        extra = self.recorder.record.extra
        extra.pop(MARKED, None)
        if self.table and self.view.player is not None:
            extra[MARKED] = sorted(self.marked)
        return self.file.save(self.recorder.record)

    def _remark(self, places: object) -> None:
        """Mark the dice as a left game had them (:meth:`save`): each die the replay marked or
        left otherwise is toggled as the player would (:meth:`toggle`); a place that may not be
        toggled now is left as it is."""
        if not isinstance(places, list):
            return
        wanted = {place for place in places if isinstance(place, int) and not isinstance(place, bool)}
        for place in sorted(self.marked ^ wanted):
            try:
                self.toggle(place)
            except Refused:
                continue

    def record_json(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.recorder.record.dumps())
        return data


def cell_value(state: GameState, cell: str) -> int:
    """What recording the dice on the table in ``cell`` scores now (score-sheet games)."""
    from kosti.games.sheet.game import SHEET, SheetState

    if not isinstance(state, SheetState):
        raise IllegalActionError("not_a_sheet_game", spec=state.variant.spec)
    return SHEET.score_of(state, cell)


def _common_start(first: KeyPlan, second: KeyPlan) -> list[Action]:
    """The decisions two key plans start with alike: what the picked dice stand for whichever
    key follows (setting them aside, in «Тысяча»; nothing where holds go with the throw)."""
    shared: list[Action] = []
    for one, other in zip(first.actions, second.actions, strict=False):
        if one != other:
            break
        shared.append(one)
    return shared


def _all_aside(view: TurnView) -> bool:
    """Every die of the turn is set aside and all five are due again (hot dice, «Тысяча»)."""
    return bool(view.to_throw and view.aside and not view.dice)


def _new_group_points(views: tuple[TurnView, TurnView]) -> int | None:
    """The points of the group a move set aside (by choice, or the rules' own after a throw),
    as the turn views before and after it show the groups; ``None`` when it set none aside."""
    before, after = views
    if len(after.aside) > len(before.aside):
        return after.aside[-1].points
    return None
