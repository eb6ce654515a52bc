"""Planning the moves at a table: a player's message, a bot's move, a turn run out of time, an undo or edit.

Every function here is pure: it reads a :class:`~kosti.server.table.Table`, plays what a
request asks on the pure engine, and gives the events (:mod:`kosti.server.events`) to store,
or refuses with a :class:`Refusal`; nothing changes until the events are stored and applied.

Fair play (RULES.md §4) is checked here, before any die is thrown: a message acts for the
seat of its token, in that seat's turn, within one turn; at an online table a throw comes
only last, so that no refusal depends on dice nobody has seen.
"""

from __future__ import annotations

import logging
from typing import Any

from kosti.actions import Action, Roll, Throw
from kosti.errors import KostiError
from kosti.errors import Refusal as RuleRefusal
from kosti.games.base import GameState
from kosti.server.events import Abandon, Edit, Move, Planned, TableEvent, Timeout, Undo
from kosti.server.game import TableGame
from kosti.server.refusal import Refusal, refusal_of
from kosti.server.table import Table, parse_action

MAX_MESSAGE_ACTIONS = 4
"""Actions one message may carry, all within one turn of one seat."""

MAX_CHAINED_THROWS = 100
"""Throws the server makes on its own within one turn (compulsory throws) before it stops."""

Steps = list[tuple[Action, GameState]]
"""Each action played, with the state after it."""

log = logging.getLogger(__name__)


def plan_action(table: Table, token: str, version: int, data: Any) -> list[TableEvent]:
    """The event of a player's message (the throws it causes included), after every check."""
    seat = table.seat_of(token)
    if version != table.version:
        raise Refusal("stale", why="action", version=table.version, yours=version)
    _check_turn(table, seat)
    if table.over:
        raise Refusal("finished")
    occupant = table.seats[seat]
    if occupant is not None and not occupant.present:
        raise Refusal("away")
    actions = _message_actions(table, data)
    played: list[Action] = []
    state = table.state
    steps: Steps = []
    for i, action in enumerate(actions):
        last = i == len(actions) - 1
        more, after = _play(table, action, state, steps, throw_dice=last)
        played.extend(more)
        if not last and state is not None:
            _check_goes_on(table, state, after)
        state = after
    planned = None if table.state is None else Planned(table.version, table.state, tuple(steps))
    return [Move(seat, tuple(played), planned)]


def plan_bot_move(table: Table) -> list[TableEvent]:
    """The event of the bot whose turn it is (a throw when dice are due); none if no bot must act."""
    seat = table.bot_to_move()
    state = table.state
    if seat is None or state is None:
        return []
    action: Action = Throw()
    if not table.engine.to_throw(state):
        occupant = table.seats[seat]
        action = table.bots.of_seat(seat, occupant.bot if occupant else None).choose(state)
    try:
        played, _ = _play(table, action, state)
    except Refusal as refusal:
        # a bot that breaks the rules must not stall the table
        log.warning("bot %s at table %s chose %s: %s", table.name_of(seat), table.id, action, refusal.reason)
        played, _ = _play(table, table.engine.decisions(state)[0], state)
    return [Move(seat, tuple(played))]


def plan_timeout(table: Table, seat: int, version: int) -> list[TableEvent]:
    """The events when the turn of ``seat``, timed since ``version``, runs out: the seat goes
    to a stand-in bot; none if the table has moved on since."""
    if version != table.version or table.seat_to_time() != seat:
        return []
    return [Timeout(seat)]


def plan_abandon(table: Table, version: int) -> list[TableEvent]:
    """The game ends as abandoned when every player is still away at ``version``."""
    if version != table.version or table.status != "playing" or table.present():
        return []
    return [Abandon("timeout")]


def plan_undo(table: Table, token: str, version: int) -> list[TableEvent]:
    """Scorekeeper: take back the last action (a throw typed in, or a decision)."""
    _check_keeper(table, token, version)
    if not table.moves:
        raise Refusal("nothing_to_undo")
    return [Undo()]


def plan_edit(table: Table, token: str, version: int, throw: int, faces: list[int]) -> list[TableEvent]:
    """Scorekeeper: change throw number ``throw`` (from 1) to ``faces``; the game is replayed
    from its record, and refused, changing nothing, when a later move no longer fits."""
    game = _check_keeper(table, token, version)
    moves = game.moves_with(throw, faces)
    try:
        game.replayed(moves)
    except KostiError as error:
        raise Refusal(
            "bad_edit", why="replay", throw=throw, roll=list(faces), refusal=refusal_of(error)
        ) from None
    return [Edit(throw, tuple(faces))]


def check_hint(table: Table, token: str, version: int) -> GameState:
    """The state a hint is asked for, after checking the table offers hints and it is the seat's turn."""
    seat = table.seat_of(token)
    if not table.settings.hints:
        raise Refusal("no_hints", why="table")
    if version != table.version:
        raise Refusal("stale", why="look", version=table.version)
    _check_turn(table, seat)
    state = table.state
    if state is None or table.engine.to_throw(state):
        raise Refusal("no_hints", why="throw")
    return state


def _check_keeper(table: Table, token: str, version: int) -> TableGame:
    """The game of a scorekeeper table, for a seated player at its version."""
    table.seat_of(token)
    if table.online:
        raise Refusal("bad_action", why="typed")
    if version != table.version:
        raise Refusal("stale", why="look", version=table.version)
    if table.game is None:
        raise Refusal("not_started", why="game")
    return table.game


def _check_turn(table: Table, seat: int) -> None:
    if table.game is None:
        raise Refusal("not_started", why="seats", n=table.free_seats())
    current = table.current_seat()
    if current is None:
        raise Refusal("finished")
    if current != seat:
        raise Refusal("not_your_turn", player=table.name_of(current), you=table.name_of(seat))


def _message_actions(table: Table, data: Any) -> list[Action]:
    """The actions of one message, parsed and checked for form before any is played: one
    action, or a list of up to :data:`MAX_MESSAGE_ACTIONS` played as one move (a scorekeeper's
    hold and the throw typed in after it); at an online table a throw comes only last."""
    items = data if isinstance(data, list) else [data]
    if not 1 <= len(items) <= MAX_MESSAGE_ACTIONS:
        raise Refusal("bad_action", why="size", n=MAX_MESSAGE_ACTIONS)
    actions = [parse_action(item) for item in items]
    if table.online and any(isinstance(action, Throw | Roll) for action in actions[:-1]):
        raise Refusal("throw_last", why="message")
    return actions


def _check_goes_on(table: Table, before: GameState, after: GameState) -> None:
    """Between two actions of one message: the mover's turn goes on, and at an online table
    no die is due (the server throws only after the message's last action, so that nothing
    in the answer depends on dice nobody has seen). :class:`Refusal` otherwise."""
    engine = table.engine
    if (
        after.turn != before.turn
        or engine.is_finished(after)
        or engine.current_player(after) != engine.current_player(before)
    ):
        raise Refusal("one_turn")
    if table.online and engine.to_throw(after):
        raise Refusal("throw_last", why="action")


def _play(
    table: Table,
    action: Action,
    state: GameState | None,
    steps: Steps | None = None,
    throw_dice: bool = True,
) -> tuple[list[Action], GameState]:
    """The actions ``action`` stands for at ``state``, the throws it causes included, and the
    state after them; nothing is changed. ``steps``, if given, gets each action with the
    state after it. ``throw_dice=False`` plans the action alone, the fair throws it causes
    left out (an action that is not the last of its message, :func:`_check_goes_on`).

    ``throw`` (:class:`Throw`) means "throw now": the decision that a throw implies
    (holding nothing, throwing on) and the throw. At an online table the server
    throws: after a decision, every throw due in the same turn is made at once; the
    first throw of a turn waits for the player's ``throw``. At a scorekeeper table
    the dice are typed in as ``roll`` actions.
    """
    if state is None:  # pragma: no cover - _check_turn comes first
        raise Refusal("not_started", why="game")
    engine = table.engine
    played: list[Action] = []
    turn = state.turn
    current: GameState = state

    def take(step: Action) -> None:
        nonlocal current
        current = engine.apply(current, step)
        played.append(step)
        if steps is not None:
            steps.append((step, current))

    try:
        if isinstance(action, Throw | Roll):
            if isinstance(action, Throw) and not table.online:
                raise Refusal("bad_action", why="send_roll")
            if isinstance(action, Roll) and table.online:
                raise Refusal("bad_action", why="send_throw")
            if engine.to_throw(current) == 0:
                implied = engine.implicit_throw(current)
                if implied is None:
                    implied = Throw()  # an engine where throwing on has no implied form
                    if implied not in engine.decisions(current):
                        raise Refusal("no_throw")
                take(implied)
            if isinstance(action, Roll):
                take(action)
        else:
            take(action)
        dice = table.dice() if throw_dice else None
        if dice is not None:
            for _ in range(MAX_CHAINED_THROWS):
                n = engine.to_throw(current)
                if not n or current.turn != turn or engine.is_finished(current):
                    break
                take(Roll(dice.roll(n)))
    except Refusal:
        raise
    except RuleRefusal as refusal:  # the engine's refusal, its code and params kept
        raise Refusal.of(refusal) from None
    except KostiError as error:  # pragma: no cover - the engines refuse with codes
        raise Refusal("illegal", detail=str(error)) from None
    return played, current
