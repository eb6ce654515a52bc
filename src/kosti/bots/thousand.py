"""The heuristic bot of «Тысяча» (dice 1000), ``thousand-classic``, ``thousand-v2`` and their variants.

Strategy: keep throwing while the turn total is below a threshold that depends on
the dice left to throw, and bank it once it is reached.

* **Thresholds.** :data:`THRESHOLDS` are the exact stopping points of a lone turn that
  maximises its expected points (five dice: throw on below 370; four: 100; three: 40;
  one or two: 20), found by dynamic programming over every throw with these scoring
  rules. Throwing on with ``k`` dice is valued as ``(1 − bust_k) × (total + gain_k)``,
  with ``gain_k`` chosen so that the comparison with banking flips exactly at the threshold.
* **The table.** The thresholds are stretched when an opponent is close to winning
  (×1.6) or far ahead (×1.3), and shrunk when the bot is well ahead (×0.7). A bust
  that earns a bolt («болт») costs its share of the bolt penalty (all of it for the
  last bolt) on top of the turn total. A stop that lands in a pit («яма») counts the climb it leaves for later
  against itself; a stop at exactly the dump score («самосвал», 555) is never made;
  a stop that overtakes opponents («обгон») counts half their penalty as a gain; a
  stop that climbs the barrel («бочка») is always made (points above it are lost);
  on an open barrel the bot stops when 1000 is within 40 points.
* **Restrictions** (opening, pits, barrel) are the engine's: the bot throws on
  whenever a stop is not among ``engine.decisions``.
* **Setting aside** (``set_aside = "choice"``): each group is valued by what the
  turn is worth after it, banking or throwing the dice left (all five again when
  every die is set aside), so a single 1 is taken alone to keep four dice while
  the total is small, and everything is taken when the bot means to stop.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from kosti.actions import Action, SetAside, Stop, Throw
from kosti.bots.heuristic import HeuristicBot
from kosti.dice import outcomes
from kosti.errors import IllegalActionError
from kosti.games.thousand.game import THOUSAND, ThousandState, options_of
from kosti.games.thousand.scoring import score_throw, unions

THRESHOLDS: dict[int, int] = {1: 20, 2: 20, 3: 40, 4: 100, 5: 370}
"""Throw on with ``k`` dice while the turn total is below this (a lone turn's optimum)."""

WIN_BONUS = 1000.0
"""Added to the value of a decision that wins the game."""

CLIMB_BONUS = 200.0
"""Added to the value of a stop that climbs the barrel: every point above it would be lost."""


@cache
def bust_chance(k: int) -> float:
    """The chance that a throw of ``k`` dice scores nothing (5 dice: 600/7776)."""
    return float(sum(p for faces, p in outcomes(k) if score_throw(faces).points == 0))


@dataclass(frozen=True)
class Outlook:
    """How bold the current player should be, and what a stop at a given total is worth."""

    state: ThousandState
    boldness: float

    bust_cost: float = 0.0
    """What a bust costs beyond the turn total: the share of a bolt penalty it brings nearer."""

    def throw_value(self, total: int, k: int) -> float:
        """The expected worth of throwing ``k`` dice on with ``total`` at stake."""
        bust = bust_chance(k)
        gain = self.boldness * THRESHOLDS[k] * bust / (1 - bust)
        return (1 - bust) * (total + gain) - bust * self.bust_cost

    def stop_value(self, total: int) -> float:
        """What banking ``total`` now is worth, table effects included."""
        state = self.state
        options = options_of(state)
        me = state.board[state.current]
        after = me.score + total
        if options.dump_at is not None and after == options.dump_at:
            return float(-me.score)
        value = float(total)
        if options.barrel in ("points", "capped") and not me.on_barrel and after >= options.barrel_at:
            # on the barrel every point above it is lost: climbing is what counts
            return CLIMB_BONUS + options.barrel_at - me.score
        if options.barrel == "open" and options.target - after < 40:
            value += 40
        for lo, hi in options.pits:
            if lo <= after < hi:
                value -= 0.3 * (hi - after)
        for seat, other in enumerate(state.board):
            if seat != state.current and me.score < other.score < after:
                value += 0.5 * options.overtake_penalty
        return value


def boldness(state: ThousandState) -> float:
    """How far the thresholds stretch for the state of the table."""
    options = options_of(state)
    me = state.board[state.current]
    others = [p for i, p in enumerate(state.board) if i != state.current]
    factor = 1.0
    if any(p.on_barrel or p.score >= options.target - 150 for p in others):
        factor *= 1.6
    elif others and max(p.score for p in others) > me.score + 300:
        factor *= 1.3
    elif others and me.score > max(p.score for p in others) + 200:
        # well ahead of the field: steady turns keep the lead
        factor *= 0.7
    return factor


def bust_cost(state: ThousandState) -> float:
    """What a bust would cost the current player beyond the turn: a bolt's share of its penalty,
    the whole penalty when it would be the last bolt («болт»); nothing while bolts are not given."""
    options = options_of(state)
    me = state.board[state.current]
    restricted = not me.opened or me.on_barrel or THOUSAND.pit_of(state, me.score) is not None
    if not options.bolt_limit or (restricted and not options.bolts_when_restricted):
        return 0.0
    if me.bolts == options.bolt_limit - 1:
        return float(options.bolt_penalty)
    return options.bolt_penalty / options.bolt_limit


def _wins(state: ThousandState, total: int) -> bool:
    """Would a turn total of ``total`` win the game for the current player now?"""
    options = options_of(state)
    me = state.board[state.current]
    reached = me.score + total
    if options.barrel == "none":
        return reached >= options.target
    if options.barrel == "open":
        return reached == options.target
    return me.on_barrel and reached >= options.target


class ThousandBot(HeuristicBot[ThousandState]):
    """The heuristic player of «Тысяча» (see the module docstring for the strategy).

    Its values are the points the turn is expected to bank (a win counts :data:`WIN_BONUS`
    more, a barrel climb :data:`CLIMB_BONUS` more).
    """

    plays = ThousandState

    def weigh(self, state: ThousandState, decisions: list[Action]) -> list[float]:
        outlook = Outlook(state, boldness(state), bust_cost(state))
        return [self._worth(state, outlook, a) for a in decisions]

    def _worth(self, state: ThousandState, outlook: Outlook, action: Action) -> float:
        if isinstance(action, Stop):
            return outlook.stop_value(state.turn_total)
        if isinstance(action, Throw):
            return outlook.throw_value(state.turn_total, state.dice_left)
        if isinstance(action, SetAside):
            return self._after_set_aside(state, outlook, action)
        raise IllegalActionError("not_a_thousand_action", action=str(action))

    def _after_set_aside(self, state: ThousandState, outlook: Outlook, action: SetAside) -> float:
        """What the turn is worth after setting ``action.faces`` aside: bank or throw on."""
        options = options_of(state)
        points = unions(score_throw(state.dice).units)[tuple(sorted(action.faces))]
        total = state.turn_total + points
        me = state.board[state.current]
        if _wins(state, total):
            return total + WIN_BONUS
        if options.barrel == "open" and me.score + total > options.target:
            return -WIN_BONUS
        left = state.dice_left - len(action.faces)
        if left == 0:
            return outlook.throw_value(total, 5)
        value = outlook.throw_value(total, left)
        if not me.on_barrel and total >= THOUSAND.needed(state):
            value = max(value, outlook.stop_value(total))
        return value
