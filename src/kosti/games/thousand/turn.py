"""The turn of «Тысяча» as a player sees it (:mod:`kosti.games.turn`): the dice on the table
and those that score, the groups set aside with their points, and what the throw and stop
keys do with the dice picked to set aside («хватит» refused below the opening, in a pit, on
the barrel: the engine says why)."""

from __future__ import annotations

from kosti.actions import Action, SetAside, Stop, Throw
from kosti.dice import Faces
from kosti.games.thousand.game import THOUSAND, ThousandState
from kosti.games.thousand.scoring import score_throw
from kosti.games.turn import Group, KeyPlan, TurnView, plan, refused


def thousand_turn(state: ThousandState, picked: Faces = ()) -> TurnView:
    """The view of ``state``'s turn; with dice to set aside by choice, both keys set ``picked``
    aside first (and stop there when that ends the turn: a win, a dot, a confirmed record)."""
    engine = THOUSAND
    player = engine.current_player(state)
    to_throw = engine.to_throw(state)
    aside = tuple(Group(dice, points) for dice, points in state.groups)
    total = None if state.finished else state.turn_total
    if player is None or to_throw:
        throw = KeyPlan((), to_throw) if to_throw else KeyPlan((Throw(),), 0, refused(engine, state, Throw()))
        stop = KeyPlan((Stop(),), 0, refused(engine, state, Stop()))
        return TurnView(
            player, to_throw, _on_table(state), None, aside=aside, turn_total=total, throw=throw, stop=stop
        )
    first: list[Action] = [SetAside(tuple(sorted(picked)))] if state.choosing else []
    after, chosen = plan(engine, state, first)
    if chosen.refusal is not None or after.turn != state.turn or engine.is_finished(after):
        # the dice picked cannot be set aside, or setting them aside ends the turn by itself
        throw = stop = chosen
    elif chosen.throws:
        # setting them aside makes a throw due by itself (all five aside where the turn is
        # confirmed by a throw of five): the throw key throws those dice, and nothing else
        throw = chosen
        _, stop = plan(engine, state, [*first, Stop()])
    else:
        _, throw = plan(engine, state, [*first, Throw()])
        _, stop = plan(engine, state, [*first, Stop()])
    return TurnView(
        player,
        0,
        _on_table(state),
        "set_aside" if state.choosing else None,
        scoring=score_throw(state.dice).scoring if state.choosing else (),
        open=tuple(engine.decisions(state)),
        throw=throw,
        stop=stop,
        aside=aside,
        turn_total=total,
    )


def _on_table(state: ThousandState) -> Faces:
    """The last throw's dice not set aside from it: all of them while the player chooses, the
    rest once its scoring dice lie apart."""
    if state.choosing or not state.groups or not state.dice:
        return state.dice
    rest = list(state.dice)
    for face in state.groups[-1][0]:
        if face in rest:
            rest.remove(face)
    return tuple(rest)
