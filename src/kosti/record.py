"""Game records (RULES.md §5): read, write, replay.

A record is the variant, the players in turn order and, turn by turn, the
actions with the dice that were thrown. It is both the scorekeeper's format for
games played with real dice and the storage of every game played here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from kosti.actions import Action, Roll, from_json, to_json
from kosti.errors import IllegalActionError, KostiError, RecordError, Refusal
from kosti.events import Event, Events
from kosti.games import engine_for
from kosti.games.base import Engine, GameState
from kosti.rules.presets import Variant, variant


@dataclass
class Turn:
    """One player's turn: who acted and what they did."""

    player: str
    actions: list[Action] = field(default_factory=list)


@dataclass
class Record:
    """A game: its rules, its players (the first listed starts) and its turns."""

    variant: str
    players: list[str]
    turns: list[Turn] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    """Other top-level keys (such as the seeds of provably fair dice), kept as they are."""

    def rules(self) -> Variant:
        """The variant in force; :class:`RecordError` if the preset or an option is unknown."""
        try:
            return variant(self.variant, self.options)
        except KostiError as error:
            raise RecordError(str(error)) from None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"variant": self.variant}
        if self.options:
            data["options"] = self.options
        data["players"] = list(self.players)
        data.update(self.extra)
        data["turns"] = [{"player": t.player, "actions": [to_json(a) for a in t.actions]} for t in self.turns]
        return data

    def dumps(self) -> str:
        """The record as JSON text, one turn a line (readable and diff-friendly)."""
        head = {k: v for k, v in self.to_json().items() if k != "turns"}
        lines = [json.dumps(head, ensure_ascii=False)[:-1] + ', "turns": [']
        turns = self.to_json()["turns"]
        for i, turn in enumerate(turns):
            sep = "," if i < len(turns) - 1 else ""
            lines.append("  " + json.dumps(turn, ensure_ascii=False) + sep)
        lines.append("]}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Read a record; a malformed one raises :class:`RecordError` saying where."""
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        name = data.get("variant")
        if not isinstance(name, str):
            raise RecordError('"variant" must name a preset')
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError('"players" must be a list of names')
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError('"options" must be an object')
        raw_turns = data.get("turns", [])
        if not isinstance(raw_turns, list):
            raise RecordError('"turns" must be a list')
        turns = []
        for t, raw in enumerate(raw_turns, 1):
            if not isinstance(raw, dict) or not isinstance(raw.get("player"), str):
                raise RecordError('a turn is {"player": name, "actions": [...]}', t)
            raw_actions = raw.get("actions", [])
            if not isinstance(raw_actions, list):
                raise RecordError('"actions" must be a list', t)
            actions = []
            for a, item in enumerate(raw_actions, 1):
                try:
                    actions.append(from_json(item))
                except KostiError as error:
                    raise RecordError(str(error), t, a) from None
            turns.append(Turn(raw["player"], actions))
        extra = {k: v for k, v in data.items() if k not in ("variant", "options", "players", "turns")}
        return cls(name, list(players), turns, dict(options), extra)


def load(path: str | Path) -> Record:
    """Read a record file; unreadable JSON raises :class:`RecordError`."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path} is not JSON: {error.msg} at line {error.lineno}") from None
    return Record.from_json(data)


def written_steps(engine: Engine[Any], state: GameState, action: Action) -> list[Action]:
    """The actions that ``action``, as a record writes it, stands for in ``state`` (RULES.md §5):
    a roll where the player must first decide to throw on stands for that decision (the
    engine's :meth:`~kosti.games.base.Engine.implicit_throw`), then the roll.
    :class:`~kosti.errors.IllegalActionError` when no throw is allowed there."""
    if not isinstance(action, Roll) or engine.to_throw(state) != 0 or engine.is_finished(state):
        return [action]
    implied = engine.implicit_throw(state)
    if implied is None:
        raise IllegalActionError("no_throw")
    return [implied, action]


def apply_written(engine: Engine[Any], state: GameState, action: Action) -> list[tuple[Action, GameState]]:
    """Each of the :func:`written_steps` of ``action`` with the state after it; the last
    state carries the events of them all. Nothing is changed when any step is refused."""
    applied: list[tuple[Action, GameState]] = []
    events: Events = ()
    for step in written_steps(engine, state, action):
        state = engine.apply(state, step)
        events += state.events
        applied.append((step, state))
    if len(applied) > 1:  # a decision to throw on changes no score, but its events would count
        applied[-1] = (applied[-1][0], replace(state, events=events))
    return applied


def states(record: Record) -> Iterator[tuple[int, int, GameState]]:
    """Replay ``record``, yielding (turn, action, state) after every action (1-based).

    The first item is (0, 0, the initial state). A record that breaks a rule raises
    :class:`RecordError` naming the turn, the action and the reason.
    """
    rules = record.rules()
    engine = engine_for(rules)
    try:
        state = engine.new_game(rules, record.players)
    except Refusal as refusal:
        raise RecordError(refusal) from None
    except KostiError as error:
        raise RecordError(str(error)) from None
    yield 0, 0, state
    for t, turn in enumerate(record.turns, 1):
        if engine.is_finished(state):
            raise RecordError(Refusal("record_game_over"), t)
        seat = engine.current_player(state)
        expected = record.players[seat] if seat is not None else None
        if turn.player != expected:
            raise RecordError(Refusal("record_wrong_player", expected=expected, player=turn.player), t)
        start = state.turn
        for a, action in enumerate(turn.actions, 1):
            if state.turn != start or engine.is_finished(state):
                raise RecordError(Refusal("record_extra_action", action=str(action)), t, a)
            try:
                state = apply_written(engine, state, action)[-1][1]
            except Refusal as refusal:
                raise RecordError(refusal, t, a, played=str(action)) from None
            except KostiError as error:
                raise RecordError(f"{action}: {error}", t, a) from None
            yield t, a, state
        if state.turn == start and t < len(record.turns) and not engine.is_finished(state):
            raise RecordError(Refusal("record_turn_unfinished"), t)


def replay_events(record: Record) -> tuple[GameState, list[Event]]:
    """The state after the last action of ``record`` and every event of the game, in order
    (RULES.md §5.1); the initial state's own events (a showdown's first antes) come first."""
    collected: list[Event] = []
    last: GameState | None = None
    for _, _, last in states(record):
        collected.extend(last.events)
    if last is None:  # pragma: no cover - states() always yields the initial state
        raise RecordError("empty record")
    return last, collected


def replay(record: Record) -> GameState:
    """The state after the last action of ``record``."""
    last: GameState | None = None
    for _, _, last in states(record):  # noqa: B007 - the last state is the result
        pass
    if last is None:  # pragma: no cover - states() always yields the initial state
        raise RecordError("empty record")
    return last


def play_again(
    recorder: Recorder,
    actions: Iterable[Action],
    *,
    partial: bool = False,
    each: Callable[[Action, GameState, GameState], object] | None = None,
) -> int:
    """Play ``actions`` in order on ``recorder`` (a new game, as a rule), as a record writes them:
    the one way a game is played again after a move is taken back or a past throw is edited.

    Every action goes through :meth:`Recorder.apply` (a bare roll stands for the decision to
    throw on) and the turns are split as the game goes, so the actions may come as one list.
    ``each(action, before, after)`` hears of every action played, with the states around it.
    An action the rules refuse raises :class:`~kosti.errors.KostiError`, or with ``partial``
    ends the replay there; either way it changes nothing. Returns how many actions were not
    played (0 unless ``partial``).

        >>> from kosti.actions import Stop
        >>> from kosti.rules.presets import variant
        >>> recorder = Recorder(variant("poker-showdown"), ["Anna", "Boris"])
        >>> play_again(recorder, [Roll((6, 6, 6, 2, 3)), Stop(), Roll((1, 2, 3, 4, 6))], partial=True)
        0
        >>> [turn.player for turn in recorder.record.turns]
        ['Anna', 'Boris']
        >>> play_again(Recorder(variant("poker-showdown"), ["Anna"]), [Stop(), Stop()], partial=True)
        2
    """
    pending = list(actions)
    for played, action in enumerate(pending):
        before = recorder.state
        try:
            after = recorder.apply(action)
        except KostiError:
            if partial:
                return len(pending) - played
            raise
        if each is not None:
            each(action, before, after)
    return 0


class Recorder:
    """A game in progress that keeps its own record: apply actions, read the record back."""

    def __init__(self, rules: Variant, players: list[str], extra: dict[str, Any] | None = None):
        self.engine = engine_for(rules)
        self.state: GameState = self.engine.new_game(rules, players)
        self.record = Record(rules.preset.id, list(players), [], rules.overrides(), dict(extra or {}))

    @classmethod
    def resume(cls, record: Record) -> Recorder:
        """Continue the game of ``record`` from its last action."""
        recorder = cls(record.rules(), record.players, record.extra)
        recorder.state = replay(record)
        recorder.record.turns = [Turn(t.player, list(t.actions)) for t in record.turns]
        recorder._turn_closed = len(record.turns) <= recorder.state.turn
        return recorder

    def apply(self, action: Action) -> GameState:
        """Apply ``action`` and log it in the record. A bare roll where the player must first
        decide to throw on makes that decision too (:func:`written_steps`), as in a record (a
        resumed game stops there). A refused action changes nothing: nor does the decision
        that a refused roll implies (RULES.md §4)."""
        applied = apply_written(self.engine, self.state, action)
        before = self.state
        for step, after in applied:
            self.log(before, step, after)
            before = after
        return self.state

    def log(self, before: GameState, action: Action, after: GameState) -> None:
        """Take ``after``, the state that ``action`` led to from the game's state ``before``,
        as the game's state and write ``action`` in the record. :meth:`apply` calls it; so
        does :func:`kosti.bots.base.play_out` as its ``on_action``, for a game bots play on."""
        if before is not self.state:
            raise KostiError("the recorder logs only an action applied to the game's own state")
        # a decision that the next roll implies is not written (RULES.md §5)
        if action != self.engine.implicit_throw(before):
            turns = self.record.turns
            if not turns or self._turn_closed:
                seat = self.engine.current_player(before)
                if seat is None:  # pragma: no cover - apply refuses actions after the end
                    raise KostiError("the game is over")
                turns.append(Turn(self.record.players[seat]))
            turns[-1].actions.append(action)
            self._turn_closed = after.turn != before.turn
        elif after.turn != before.turn:  # pragma: no cover - implicit throws never end a turn
            self._turn_closed = True
        self.state = after

    _turn_closed: bool = True
