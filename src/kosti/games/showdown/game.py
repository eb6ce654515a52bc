"""Showdown poker dice as an immutable state and the actions that change it (RULES.md §2).

A match is ``rounds`` rounds. A round: every player antes ``ante`` into the bank,
then each takes one turn of up to ``throws`` throws of five dice. After any throw
the player may stand (:class:`~kosti.actions.Stop`); before a further throw they
hold dice (:class:`~kosti.actions.Hold`) and throw the rest. Held dice are locked
for the rest of the turn («права дотрагиваться до кубиков, что остались лежать …,
игрок не имеет»): a later hold must keep every die held before. The last allowed
throw ends the turn without an action.

The best hand (:mod:`kosti.games.showdown.hands`) takes the bank. When the best
keys are equal, the tied players alone play a deciding round: no new ante, the
bank waits, and this repeats until one of them wins. A player's score is their
net winnings: what they won less what they paid in; the scores always sum to zero
once the bank is paid out.

[choice] The first player listed starts every round, deciding rounds included
(the others follow in seat order): a record holds the outcome of the roll-off
(RULES.md §5), and the source says nothing of passing the first throw on.
The ante is the money unit: the ``stake`` option (settlement against the average
of score-sheet games) plays no part here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from kosti.actions import Action, Hold, Stop
from kosti.dice import Faces, is_submultiset, submultisets
from kosti.errors import IllegalActionError
from kosti.events import Event
from kosti.games.base import Engine, GameState, check_players, emit, options_as, replaced
from kosti.games.showdown.hands import Hand, best_seats, classify
from kosti.rules.options import ShowdownOptions
from kosti.rules.presets import Variant


def options_of(state: ShowdownState) -> ShowdownOptions:
    """The options of ``state``'s variant (read through :func:`~kosti.games.base.options_as`)."""
    return options_as(state.variant, ShowdownOptions, "a showdown game")


@dataclass(frozen=True)
class RoundResult:
    """How a finished round went."""

    round: int
    """The round's number (1-based)."""

    winner: int
    """The seat that took the bank."""

    bank: int
    """What the bank held."""

    deciding: int
    """Deciding rounds it took (0 when the first showdown had one best hand)."""


@dataclass(frozen=True)
class Showdown:
    """A showdown once everyone in it has stood: the hands, and who had the best of them."""

    round: int
    """The round it belongs to (1-based)."""

    deciding: int
    """0 for the round's first showdown, ``k`` for its ``k``-th deciding round."""

    hands: tuple[Faces | None, ...]
    """Per seat, the five dice they stood on (``None``: not in this showdown)."""

    best: tuple[int, ...]
    """The seats with the best hand: the winner alone, or the tied ones who play a deciding round."""

    bank: int
    """The bank at stake."""


@dataclass(frozen=True)
class ShowdownState(GameState):
    """A showdown match between throws and decisions."""

    net: tuple[int, ...]
    """Each seat's net winnings so far: won − paid in (antes already in the bank count as paid)."""

    round: int = 1
    """The round being played (1-based); the last round once the match is over."""

    bank: int = 0
    """The antes waiting for this round's winner (0 once the match is over)."""

    playing: tuple[int, ...] = ()
    """The seats that play this showdown, in turn order: everyone, or the tied ones of a deciding round."""

    position: int = 0
    """Index into :attr:`playing` of the seat whose turn it is."""

    hands: tuple[Faces | None, ...] = ()
    """Per seat, the five dice they stood on in this showdown (``None``: not yet, or not playing).
    Once the match is over: the hands of its last showdown."""

    deciding: int = 0
    """Deciding rounds played so far in this round (0 in the first showdown)."""

    dice: Faces = ()
    """The five dice on the table after the last throw (sorted); empty before the first."""

    locked: Faces = ()
    """Dice held this turn; they may not be thrown again until the turn ends."""

    throws: int = 0
    """Throws made this turn."""

    pending: int = 0
    """Dice to throw now (0 when the player decides, or at the end)."""

    finished: bool = False
    """True once the last round's bank has been won."""

    last: RoundResult | None = None
    """The round settled most recently."""

    showdown: Showdown | None = None
    """The showdown settled most recently (a bank won, or a deciding round called)."""

    @property
    def current(self) -> int | None:
        """The seat to act, or ``None`` once the match is over."""
        return None if self.finished else self.playing[self.position]


class ShowdownEngine(Engine[ShowdownState]):
    """The rules of ``poker-showdown``."""

    def new_game(self, variant: Variant, players: Sequence[str]) -> ShowdownState:
        options_as(variant, ShowdownOptions, "a showdown game")
        names = check_players(players)
        state = ShowdownState(variant, names, 0, net=(0,) * len(names))
        return self._start_round(state, 1)

    # -- queries ---------------------------------------------------------------

    def to_throw(self, state: ShowdownState) -> int:
        return state.pending

    def current_player(self, state: ShowdownState) -> int | None:
        return state.current

    def is_finished(self, state: ShowdownState) -> bool:
        return state.finished

    def throws_left(self, state: ShowdownState) -> int:
        """Further throws the player may make this turn."""
        return max(0, options_of(state).throws - state.throws)

    def decisions(self, state: ShowdownState) -> list[Action]:
        if state.finished or state.pending:
            return []
        actions: list[Action] = [Stop()]
        if self.throws_left(state):
            actions.extend(
                Hold(h) for h in submultisets(state.dice) if len(h) < 5 and is_submultiset(state.locked, h)
            )
        return actions

    def implicit_throw(self, state: ShowdownState) -> Action | None:
        # a bare roll after a throw throws every die not locked: it holds exactly the locked dice
        if not state.finished and not state.pending and self.throws_left(state):
            return Hold(state.locked)
        return None

    # -- transitions -----------------------------------------------------------

    def decide(self, state: ShowdownState, action: Action) -> ShowdownState:
        if isinstance(action, Hold):
            return self._hold(state, tuple(sorted(action.faces)))
        if isinstance(action, Stop):
            return self._end_turn(state)
        raise IllegalActionError("not_a_showdown_action", action=str(action))

    def throw(self, state: ShowdownState, faces: Faces) -> ShowdownState:
        state = replace(
            state,
            dice=tuple(sorted(state.locked + faces)),
            throws=state.throws + 1,
            pending=0,
        )
        if not self.throws_left(state):
            # the last allowed throw ends the turn without an action (RULES.md §5)
            return self._end_turn(state)
        return state

    def _hold(self, state: ShowdownState, held: Faces) -> ShowdownState:
        if not is_submultiset(held, state.dice):
            raise IllegalActionError("not_among", faces=list(held), dice=list(state.dice))
        if len(held) == 5:
            raise IllegalActionError("hold_all_stand")
        if not is_submultiset(state.locked, held):
            raise IllegalActionError(
                "locked_dice", keep=list(state.locked), drops=list(_missing(state.locked, held))
            )
        if not self.throws_left(state):  # pragma: no cover - the last throw ends the turn
            raise IllegalActionError("no_throws_turn_over")
        return replace(state, locked=held, pending=5 - len(held))

    def _end_turn(self, state: ShowdownState) -> ShowdownState:
        seat = state.playing[state.position]
        hands = replaced(state.hands, seat, state.dice)
        state = replace(state, hands=hands, turn=state.turn + 1, dice=(), locked=(), throws=0)
        if state.position + 1 < len(state.playing):
            return replace(state, position=state.position + 1, pending=5)
        return self._showdown(state)

    def _showdown(self, state: ShowdownState) -> ShowdownState:
        """Everyone in this showdown has played: pay the bank, or send the tied to a deciding round."""
        options = options_of(state)
        tied = [state.playing[i] for i in best_seats(self.hands_of(state, state.playing), options.tiebreak)]
        shown = Showdown(state.round, state.deciding, state.hands, tuple(tied), state.bank)
        state = replace(state, showdown=shown)
        if len(tied) > 1:
            deciding = (
                Event(state.turn - 1, seat, "deciding_round", 0, state.net[seat], count=state.deciding + 1)
                for seat in tied
            )
            return replace(
                emit(state, *deciding),
                playing=tuple(tied),
                position=0,
                hands=(None,) * len(state.players),
                deciding=state.deciding + 1,
                pending=5,
            )
        winner = tied[0]
        result = RoundResult(state.round, winner, state.bank, state.deciding)
        net = _add(state.net, winner, state.bank)
        won = Event(
            state.turn - 1, winner, "bank_won", state.bank, net[winner], dice=state.hands[winner] or ()
        )
        state = replace(emit(state, won), net=net, bank=0, last=result)
        if state.round >= options.rounds:
            return replace(state, finished=True, pending=0, position=0)
        return self._start_round(state, state.round + 1)

    def _start_round(self, state: ShowdownState, number: int) -> ShowdownState:
        ante = options_of(state).ante
        n = len(state.players)
        net = tuple(v - ante for v in state.net)
        # the antes of a round belong to the turn that opened it (the last of the round before)
        turn = max(0, state.turn - 1)
        antes = (Event(turn, seat, "ante", -ante, net[seat], count=number) for seat in range(n))
        return replace(
            emit(state, *antes),
            net=net,
            round=number,
            bank=ante * n,
            playing=tuple(range(n)),
            position=0,
            hands=(None,) * n,
            deciding=0,
            dice=(),
            locked=(),
            throws=0,
            pending=5,
        )

    # -- results ---------------------------------------------------------------

    def hands_of(self, state: ShowdownState, seats: Sequence[int]) -> list[Hand | None]:
        """The hands the given seats stood on in this showdown (``None`` where not yet played)."""
        result: list[Hand | None] = []
        for seat in seats:
            dice = state.hands[seat]
            result.append(None if dice is None else classify(dice))
        return result

    def scores(self, state: ShowdownState) -> list[int]:
        return list(state.net)

    def winners(self, state: ShowdownState) -> list[int]:
        if not state.finished:
            return []
        best = max(state.net)
        return [i for i, v in enumerate(state.net) if v == best]


def _missing(locked: Faces, held: Faces) -> Faces:
    """The locked dice that ``held`` leaves out (with multiplicity)."""
    rest = list(locked)
    for face in held:
        if face in rest:
            rest.remove(face)
    return tuple(rest)


def _add(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    return replaced(values, index, values[index] + amount)


SHOWDOWN = ShowdownEngine()
