"""The turn of showdown poker dice as a player sees it (:mod:`kosti.games.turn`): the dice to
hold, those locked for the rest of the turn, the throws left, and standing."""

from __future__ import annotations

from kosti.actions import Hold, Stop
from kosti.dice import Faces
from kosti.games.showdown.game import SHOWDOWN, ShowdownState
from kosti.games.turn import KeyPlan, TurnView, plan, refused


def showdown_turn(state: ShowdownState, picked: Faces = ()) -> TurnView:
    """The view of ``state``'s turn, the throw key holding ``picked`` (the locked dice among them)."""
    engine = SHOWDOWN
    player = engine.current_player(state)
    to_throw = engine.to_throw(state)
    left = None if state.finished else engine.throws_left(state)
    if player is None or to_throw:
        throw = (
            KeyPlan((), to_throw) if to_throw else KeyPlan((Hold(()),), 0, refused(engine, state, Hold(())))
        )
        stop = KeyPlan((Stop(),), 0, refused(engine, state, Stop()))
        return TurnView(
            player, to_throw, state.dice, None, state.locked, throws_left=left, throw=throw, stop=stop
        )
    decisions = engine.decisions(state)
    _, throw = plan(engine, state, [Hold(tuple(sorted(picked)))])
    _, stop = plan(engine, state, [Stop()])
    return TurnView(
        player,
        0,
        state.dice,
        "hold" if any(isinstance(a, Hold) for a in decisions) else None,
        state.locked,
        throws_left=left,
        open=tuple(decisions),
        throw=throw,
        stop=stop,
    )
