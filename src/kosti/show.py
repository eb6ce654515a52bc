"""What the interfaces show of a game: the JSON of ``kosti replay --json`` (RULES.md §5),
the JSON of ``kosti score`` (RULES.md §6), and the terminal table of a summary.

The engines know the rules; how a state is written out for people and programs lives
here, one function per family, so that the command line, the server and the adapters
show the same thing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from kosti.dice import normalize
from kosti.errors import KostiError
from kosti.games.base import GameState, options_as
from kosti.games.sheet.game import (
    COLUMN_NAMES,
    SHEET,
    SheetState,
    cells_of,
    column_bonus,
    upper_total,
)
from kosti.games.sheet.game import options_of as sheet_options
from kosti.games.sheet.scoring import cell_score
from kosti.games.showdown.game import SHOWDOWN, ShowdownState
from kosti.games.showdown.game import options_of as showdown_options
from kosti.games.showdown.hands import classify
from kosti.games.thousand.game import ThousandState
from kosti.games.thousand.scoring import score_throw
from kosti.rules.options import SheetOptions, ShowdownOptions, ThousandOptions
from kosti.rules.presets import Variant
from kosti.settlement import exact, settle

if TYPE_CHECKING:  # rich draws for the terminal alone: the page in the browser ships without it
    from rich.table import Table


def summary(state: GameState) -> dict[str, Any]:
    """The JSON state of ``kosti replay --json`` (RULES.md §5): at least ``finished``,
    ``winner`` and each player's ``name`` and ``score``, and what the family adds."""
    if isinstance(state, SheetState):
        return _sheet_summary(state)
    if isinstance(state, ThousandState):
        return _thousand_summary(state)
    if isinstance(state, ShowdownState):
        return _showdown_summary(state)
    raise KostiError(f"no summary of a {type(state).__name__}")


def score_report(rules: Variant, dice: Sequence[int], first_throw: bool) -> dict[str, Any]:
    """What ``kosti score PRESET D1..Dn [--first-throw] --json`` prints (RULES.md §6);
    :class:`~kosti.errors.KostiError` for dice the family cannot score."""
    return _REPORTS[rules.family](rules, dice, first_throw)


def summary_table(summary: dict[str, Any]) -> Table:
    """A table of the players and their scores from a :func:`summary`."""
    from rich.table import Table

    title = summary.get("variant", "")
    if summary.get("finished"):
        winners = summary.get("winners") or ([summary["winner"]] if summary.get("winner") else [])
        title += " — finished" + (f", won by {', '.join(winners)}" if winners else "")
    table = Table(title=title)
    table.add_column("player")
    table.add_column("score", justify="right")
    extra = [
        k
        for k in ("opened", "bolts", "on_barrel", "banked")
        if any(k in p for p in summary.get("players", []))
    ]
    for k in extra:
        table.add_column(k, justify="right")
    for p in summary.get("players", []):
        table.add_row(p["name"], str(p["score"]), *(str(p.get(k, "")) for k in extra))
    return table


# -- score-sheet poker (RULES.md §1) -------------------------------------------------------


def _sheet_summary(state: SheetState) -> dict[str, Any]:
    options = sheet_options(state)
    names = cells_of(options)
    totals = SHEET.scores(state)
    winners = SHEET.winners(state)
    players = []
    for name, sheet, total in zip(state.players, state.sheets, totals, strict=True):
        columns = [dict(zip(names, col, strict=True)) for col in sheet.columns]
        entry: dict[str, Any] = {"name": name, "score": total}
        if len(columns) == 1:
            entry["cells"] = columns[0]
        else:
            entry["columns"] = dict(zip(COLUMN_NAMES, columns, strict=True))
        entry["upper"] = [upper_total(options, col) for col in sheet.columns]
        entry["upper_bonus"] = [column_bonus(options, col) for col in sheet.columns]
        if options.banked_throws:
            entry["banked"] = sheet.banked
        if options.extra_yahtzee_bonus:
            entry["yahtzee_bonuses"] = sheet.yahtzee_bonuses
        players.append(entry)
    result: dict[str, Any] = {
        "variant": state.variant.spec,
        "finished": state.finished,
        "winner": state.players[winners[0]] if len(winners) == 1 else None,
        "winners": [state.players[i] for i in winners],
        "players": players,
    }
    if state.finished:
        results = settle(totals, options.stake)
        result["settlement"] = [
            {"name": n, "result": exact(r)} for n, r in zip(state.players, results, strict=True)
        ]
    else:
        result["current"] = state.players[state.current]
        result["dice"] = list(state.dice)
        result["throws"] = state.throws
    return result


def _sheet_report(rules: Variant, dice: Sequence[int], first_throw: bool) -> dict[str, Any]:
    options = options_as(rules, SheetOptions, "a score-sheet game")
    faces = normalize(dice, 5)
    return {c: cell_score(c, faces, options, first_throw) for c in cells_of(options)}


# -- «Тысяча» (RULES.md §3) ----------------------------------------------------------------


def _thousand_summary(state: ThousandState) -> dict[str, Any]:
    players = [
        {
            "name": name,
            "score": p.score,
            "opened": p.opened,
            "bolts": p.bolts,
            "on_barrel": p.on_barrel,
            "barrel_attempts": p.barrel_attempts,
            "falls": p.falls,
            "dots": p.dots,
            "opening_failures": p.opening_failures,
        }
        for name, p in zip(state.players, state.board, strict=True)
    ]
    winner = state.players[state.winner] if state.winner is not None else None
    result: dict[str, Any] = {
        "variant": state.variant.spec,
        "finished": state.finished,
        "winner": winner,
        "winners": [winner] if winner is not None else [],
        "players": players,
    }
    if not state.finished:
        result["current"] = state.players[state.current]
        result["turn_total"] = state.turn_total
        result["dice"] = list(state.dice)
        result["set_aside"] = list(state.set_aside)
        result["dice_left"] = state.dice_left
    return result


def _thousand_report(rules: Variant, dice: Sequence[int], first_throw: bool) -> dict[str, Any]:
    options_as(rules, ThousandOptions, "a game of «Тысяча»")
    thrown = score_throw(dice)
    return {"points": thrown.points, "scoring_dice": list(thrown.scoring)}


# -- showdown poker dice (RULES.md §2) -----------------------------------------------------


def _showdown_summary(state: ShowdownState) -> dict[str, Any]:
    winners = SHOWDOWN.winners(state)
    players = []
    for seat, (name, hand) in enumerate(
        zip(state.players, SHOWDOWN.hands_of(state, range(len(state.players))), strict=True)
    ):
        players.append(
            {
                "name": name,
                "score": state.net[seat],
                "hand": None if hand is None else hand.name,
                "hand_rank": None if hand is None else hand.rank,
                "hand_sum": None if hand is None else hand.hand_sum,
                "total": None if hand is None else hand.total,
                "hand_dice": None if hand is None else list(hand.dice),
                "playing": seat in state.playing and not state.finished,
            }
        )
    current = state.current
    last = state.last
    return {
        "variant": state.variant.spec,
        "finished": state.finished,
        "winner": state.players[winners[0]] if len(winners) == 1 else None,
        "winners": [state.players[i] for i in winners],
        "players": players,
        "round": state.round,
        "rounds": showdown_options(state).rounds,
        "deciding": state.deciding,
        "bank": state.bank,
        "current": None if current is None else state.players[current],
        "dice": list(state.dice),
        "locked": list(state.locked),
        "throws": state.throws,
        "throws_left": 0 if state.finished else SHOWDOWN.throws_left(state),
        "last_round": None
        if last is None
        else {
            "round": last.round,
            "winner": state.players[last.winner],
            "bank": last.bank,
            "deciding": last.deciding,
        },
    }


def _showdown_report(rules: Variant, dice: Sequence[int], first_throw: bool) -> dict[str, Any]:
    # the throw a hand was made on does not matter in a showdown
    options_as(rules, ShowdownOptions, "a showdown game")
    return classify(dice).report()


_REPORTS: dict[str, Callable[[Variant, Sequence[int], bool], dict[str, Any]]] = {
    "sheet": _sheet_report,
    "thousand": _thousand_report,
    "showdown": _showdown_report,
}
