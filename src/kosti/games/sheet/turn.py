"""The turn of a score sheet as a player sees it (:mod:`kosti.games.turn`): the dice to hold,
the throws left, the cells open now, and why each other cell is refused."""

from __future__ import annotations

from kosti.actions import Action, Announce, CellAction, Hold, Score, Scratch, Stop
from kosti.dice import Faces
from kosti.errors import IllegalActionError
from kosti.games.sheet.game import SHEET, SheetState, cells_of, options_of
from kosti.games.turn import KeyPlan, TurnView, plan, refused


def sheet_turn(state: SheetState, picked: Faces = ()) -> TurnView:
    """The view of ``state``'s turn, the throw key holding ``picked`` (after the first throw)."""
    engine = SHEET
    player = engine.current_player(state)
    to_throw = engine.to_throw(state)
    stop = KeyPlan((Stop(),), 0, refused(engine, state, Stop()))
    if player is None or to_throw:
        throw = (
            KeyPlan((), to_throw) if to_throw else KeyPlan((Hold(()),), 0, refused(engine, state, Hold(())))
        )
        return TurnView(player, to_throw, state.dice, None, throws_left=_left(state), throw=throw, stop=stop)
    decisions = engine.decisions(state)
    # the first throw of a turn is of all five (poker-fences stops there to scratch): nothing to hold
    hold = Hold(tuple(sorted(picked)) if state.throws else ())
    _, throw = plan(engine, state, [hold])
    may_pick = bool(state.throws) and any(
        (isinstance(a, Hold) and a.faces) or (isinstance(a, CellAction) and a.kind == "announce")
        for a in decisions
    )
    return TurnView(
        player,
        0,
        state.dice,
        "hold" if may_pick else None,
        throws_left=_left(state),
        open=tuple(decisions),
        closed=_closed_cells(state, decisions),
        throw=throw,
        stop=stop,
    )


def _left(state: SheetState) -> int | None:
    return None if state.finished else SHEET.throws_left(state)


def _closed_cells(
    state: SheetState, decisions: list[Action]
) -> tuple[tuple[Action, IllegalActionError], ...]:
    """Every cell action a player may try at this decision that the rules refuse, with why:
    recording any cell, scratching where the preset scratches, announcing in column II."""
    options = options_of(state)
    tries: list[Action] = []
    for cell in cells_of(options):
        tries.append(Score(cell))
        if options.scratch:
            tries.append(Scratch(cell))
        if SHEET.column_kind(state) == "announced":
            tries.append(Announce(cell))
    closed = []
    for action in tries:
        if action in decisions:
            continue
        why = refused(SHEET, state, action)
        if why is not None:
            closed.append((action, why))
    return tuple(closed)
