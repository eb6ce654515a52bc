"""The heuristic bot of showdown poker dice (``poker-showdown``).

Strategy: keep the best group, stand on a strong hand.

* A finished hand is valued as the chance that it takes the bank: against the hands
  already shown in this showdown it must beat the best of them (a tie counts half,
  since the tied play a deciding round); against each player still to throw it holds
  up with the chance :data:`HOLDS_UP` of its rank (a guess from the odds of three
  throws: a pair rarely survives, a full house usually does).
* Each legal hold (held dice are locked, so a hold keeps every die held before) is
  valued by the exact expectation of that chance over the next throw; standing is
  valued by the chance of the hand on the table. The bot takes the higher: it holds
  the group that gives the best next throw (pairs, threes, fours; both pairs of two
  pairs) and stands once no throw is expected to do better — on a full house or
  better, or on any hand that already beats the table when it throws last.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from kosti.actions import Action, Hold, Stop
from kosti.bots.heuristic import HeuristicBot
from kosti.dice import Faces, reroll
from kosti.errors import IllegalActionError
from kosti.games.showdown.game import SHOWDOWN, ShowdownState, options_of
from kosti.games.showdown.hands import Hand, Tiebreak, classify

HOLDS_UP: tuple[float, ...] = (0.02, 0.12, 0.35, 0.55, 0.8, 0.93, 0.99)
"""By hand rank (nothing … poker): the rough chance it beats one player who has yet to throw."""


@cache
def after_throw(held: Faces) -> tuple[tuple[Faces, float], ...]:
    """The five dice after holding ``held`` and throwing the rest, with their chances."""
    return tuple((d, float(p)) for d, p in reroll(held).items())


@cache
def hand_of(dice: Faces) -> Hand:
    return classify(dice)


def win_chance(hand: Hand, shown: Sequence[Hand], still_to_play: int, mode: Tiebreak) -> float:
    """The chance that ``hand`` takes the bank, by the rule of the module docstring."""
    chance = 1.0
    if shown:
        best = max(h.key(mode) for h in shown)
        mine = hand.key(mode)
        if mine < best:
            return 0.0
        if mine == best:
            chance = 0.5
    return chance * HOLDS_UP[hand.rank] ** still_to_play


class ShowdownBot(HeuristicBot[ShowdownState]):
    """The heuristic player of showdown poker dice (see the module docstring).

    Its values are the chance (0 to 1) of taking the bank.
    """

    plays = ShowdownState
    digits = 3

    def weigh(self, state: ShowdownState, decisions: list[Action]) -> list[float]:
        game = state
        shown = [h for h in SHOWDOWN.hands_of(game, game.playing) if h is not None]
        still = len(game.playing) - game.position - 1
        tiebreak = options_of(game).tiebreak

        @cache
        def chance(dice: Faces) -> float:
            return win_chance(hand_of(dice), shown, still, tiebreak)

        worth: list[float] = []
        for action in decisions:
            if isinstance(action, Stop):
                worth.append(chance(game.dice))
            elif isinstance(action, Hold):
                # rounded: sums of float chances must not beat an equal stand by a hair
                worth.append(round(sum(p * chance(d) for d, p in after_throw(action.faces)), 9))
            else:  # pragma: no cover - the engine offers only these
                raise IllegalActionError("not_a_showdown_action", action=str(action))
        return worth
