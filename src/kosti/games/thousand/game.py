"""«Тысяча» (dice 1000) as an immutable state and the actions that change it (RULES.md §3).

A turn: the player throws five dice (a :class:`~kosti.actions.Roll`, a chance step);
a throw that scores nothing loses the turn (a bust, recorded 0). Otherwise the
scoring dice are set aside and their points join the turn total, and the player
throws the rest on (:class:`~kosti.actions.Throw`) or banks the total
(:class:`~kosti.actions.Stop`, «хватит») when the restrictions allow it. When the
turn ends, its effects follow the order of RULES.md §3.4: the mover's new score
(or bolt, dot, barrel attempt), overtaking penalties, barrel knock-offs, bolt and
dot penalties, dumps. ``state.turn`` grows by one whenever a turn ends.

The options (:class:`~kosti.rules.options.ThousandOptions`), and how this engine reads them:

``target``
    The winning score. A win ends the turn at once, as soon as the player's score
    plus the turn total meets the barrel's condition: no stop is needed and no
    compulsory hot-dice throw is made. Effects of §3.4 are not applied to a winning
    turn: the game is over [choice]. The winner's score is shown as score plus turn total.
``opening``
    Until a player has recorded one turn of at least this many points («открытие»,
    «допуск»), a stop below it is refused. With ``opening = 0`` everyone starts opened.
``opening_fail_penalty``, ``opening_fail_every``
    Every ``opening_fail_every``-th turn that ends unopened (a bust, a lost confirmation
    or a dot) costs ``opening_fail_penalty``; the score may go negative. The count
    (``opening_failures``) never restarts [choice]; the penalty is a §3.4 step 4 penalty.
``set_aside``
    ``all``: every scoring die of a throw is set aside at once, with no action.
    ``choice``: after a scoring throw the player must :class:`~kosti.actions.SetAside`
    a non-empty union of whole units (a straight, a kind, single 1s and 5s); only the
    points of what is set aside join the turn total, so a win or a dot is reckoned
    when the dice are set aside [choice].
``hot_dice``
    When all five dice are set aside. ``continue``: the five are thrown again at once
    (compulsory, no decision), and the turn goes on. ``confirm``: one throw of five
    confirms the turn («подтверждение хода»): a scoring throw adds its points and the
    turn is recorded; a throw that scores nothing loses the turn (a bust). [choice]
    If after a scoring confirmation the turn still may not be recorded (below the
    opening, or short of the top of a pit), the confirmation counts as an ordinary
    throw: all its scoring dice are set aside (even with ``set_aside = "choice"``) and
    the turn goes on; if all five scored, another confirmation follows.
``pits``
    A player whose score at the start of the turn lies in a pit [low, high) («яма»)
    may stop only when score plus turn total reaches ``high``. Landing in a pit is allowed.
``overtake_penalty``
    A recorded turn that takes the mover from strictly below another player's score to
    strictly above it («обгон») costs that player this many points; several at once are
    possible. Scores are compared before any other effect of the turn (§3.4 step 2).
``dump_at``
    A player whose score changed in this turn-end and is now exactly this value drops
    to 0 («самосвал»); they stay opened. Checked last (§3.4 step 5), for every player.
``bolt_limit``, ``bolt_penalty``, ``bolts_when_restricted``
    A turn that records 0 (a bust, a lost confirmation) earns a bolt («болт») unless,
    at the start of that turn, the player was not opened, in a pit, or on a barrel
    (allowed anyway with ``bolts_when_restricted``). The ``bolt_limit``-th bolt costs
    ``bolt_penalty`` and the count restarts. A dot is not a bolt.
``barrel``, ``barrel_at``, ``barrel_attempts``, ``fall_penalty``, ``falls_limit``, ``dots_limit``
    ``none``: the first whose score plus turn total reaches ``target`` wins.
    ``points`` («бочка по очкам»): a recorded score of ``barrel_at`` or more puts the
    player on the barrel at exactly ``barrel_at``. [choice] A player below the barrel
    cannot win by jumping past ``target``: any such score puts them on the barrel; the
    win comes only from the barrel, by making ``target − barrel_at`` in one turn. On the
    barrel a stop is never allowed (the turn ends with a win or a bust), and each bust
    is a failed attempt; after ``barrel_attempts`` of them the player falls: −``fall_penalty``,
    and the ``falls_limit``-th fall (null = 3) takes them to 0 instead, after which the
    fall count restarts [choice]. Getting onto the barrel knocks off everyone already on
    it: each falls at once the same way (§3.4 step 3).
    ``open`` («открытая бочка»): the win needs exactly ``target``. As soon as score plus
    turn total passes it the turn ends with nothing recorded and a dot («точка»), even
    for a player not yet opened. The ``dots_limit``-th dot costs a fall (§3.4 step 3, a
    ``fall`` event): −``fall_penalty``, or 0 on the ``falls_limit``-th fall (null = 1); then
    the dot penalty (step 4, a ``dot_penalty`` event of 0 points) restarts the dot count.
    ``capped`` («бочка 850», v2): a recorded score above ``barrel_at`` is recorded as
    ``barrel_at`` and puts the player on the barrel; from there ``target − barrel_at`` in
    one turn wins; a failed turn leaves them there, without limit. When another player
    gets onto the barrel, everyone already on it drops to their opening score (the score
    their first recorded turn gave them).
    [choice] With any barrel, a penalty that leaves a player on a barrel below
    ``barrel_at`` takes them off it (no fall is counted).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from kosti.actions import Action, SetAside, Stop, Throw
from kosti.dice import Faces, is_face, normalize
from kosti.errors import IllegalActionError
from kosti.events import Event, EventKind, Events
from kosti.games.base import Engine, GameState, check_players, emit, options_as, replaced
from kosti.games.thousand.scoring import score_throw, set_aside_points, unions
from kosti.rules.options import ThousandOptions
from kosti.rules.presets import Variant

DICE = 5

DEFAULT_FALLS_LIMIT: dict[str, int] = {"points": 3, "open": 1}
"""The fall that takes a player to 0 when ``falls_limit`` is null, per barrel rule."""

TurnEnd = Literal["record", "bust", "dot"]


def options_of(state: ThousandState) -> ThousandOptions:
    """The options of ``state``'s variant (read through :func:`~kosti.games.base.options_as`)."""
    return options_as(state.variant, ThousandOptions, "a game of «Тысяча»")


def falls_limit(options: ThousandOptions) -> int:
    """The fall that takes a player to 0 (``falls_limit``, or the barrel's own default)."""
    if options.falls_limit is not None:
        return options.falls_limit
    return DEFAULT_FALLS_LIMIT.get(options.barrel, 1)


@dataclass(frozen=True)
class Player:
    """One player's line on the score board."""

    score: int = 0
    opened: bool = False
    """Has recorded a turn of at least the opening («открыл игру»)."""

    opening_score: int | None = None
    """The score the player's first recorded turn gave them (``capped`` knock-offs return here)."""

    bolts: int = 0
    """Bolts since the last bolt penalty («болты»)."""

    on_barrel: bool = False
    """Sitting on a ``points`` or ``capped`` barrel («на бочке»)."""

    barrel_attempts: int = 0
    """Failed turns on the current ``points`` barrel."""

    falls: int = 0
    """Falls from the barrel since the last fall to 0."""

    dots: int = 0
    """Dots of an ``open`` barrel since the last dot penalty («точки»)."""

    opening_failures: int = 0
    """Turns that ended while the player was not yet opened."""


@dataclass(frozen=True)
class ThousandState(GameState):
    """A game of «Тысяча» between throws and decisions."""

    board: tuple[Player, ...]
    current: int
    """The seat whose turn it is."""

    turn_total: int = 0
    """Points set aside this turn."""

    dice: Faces = ()
    """The last throw of this turn, sorted (empty before the first)."""

    set_aside: Faces = ()
    """Dice set aside since the turn's last throw of five."""

    dice_left: int = DICE
    """The dice a throw on would throw (during a throw: the dice being thrown)."""

    groups: tuple[tuple[Faces, int], ...] = field(default=(), compare=False)
    """The dice set aside this turn, group by group in the order set aside, each with the points
    it made (kept across hot dice, cleared when the turn ends). What the player was shown, not
    part of the position: two states that differ only here are equal."""

    pending: int = DICE
    """Dice to throw now (0 when the player decides, or at the end)."""

    choosing: bool = False
    """``set_aside = "choice"``: the last throw scored and the player must set dice aside."""

    confirming: bool = False
    """The pending throw of five is a confirmation (``hot_dice = "confirm"``)."""

    winner: int | None = None
    """The seat that won, once the game is over."""

    @property
    def finished(self) -> bool:
        return self.winner is not None


class ThousandEngine(Engine[ThousandState]):
    """The rules of ``thousand-classic``, ``thousand-v2`` and every variant of them."""

    def new_game(self, variant: Variant, players: Sequence[str]) -> ThousandState:
        options = options_as(variant, ThousandOptions, "a game of «Тысяча»")
        names = check_players(players)
        # an opening of 0 asks nothing: everyone starts opened
        board = tuple(Player(opened=options.opening <= 0) for _ in names)
        return ThousandState(variant, names, 0, board, 0)

    # -- queries ---------------------------------------------------------------

    def to_throw(self, state: ThousandState) -> int:
        return 0 if state.finished else state.pending

    def current_player(self, state: ThousandState) -> int | None:
        return None if state.finished else state.current

    def is_finished(self, state: ThousandState) -> bool:
        return state.finished

    def pit_of(self, state: ThousandState, score: int) -> tuple[int, int] | None:
        """The pit [low, high) that ``score`` lies in, if any («яма»)."""
        return next(((lo, hi) for lo, hi in options_of(state).pits if lo <= score < hi), None)

    def needed(self, state: ThousandState) -> int:
        """The least turn total the current player may stop at (0 when unrestricted).

        On a barrel this is what wins, and the win comes by itself: no stop is allowed there.
        """
        options = options_of(state)
        player = state.board[state.current]
        if player.on_barrel:
            return options.target - player.score
        need = 0 if player.opened else options.opening
        pit = self.pit_of(state, player.score)
        if pit is not None:
            need = max(need, pit[1] - player.score)
        return need

    def why_not_stop(self, state: ThousandState) -> IllegalActionError | None:
        """The refusal of a stop now (RULES.md §4), or ``None`` when the current player may stop:
        ``stop_barrel`` (``need``, the points that win from the barrel, and the turn's ``total``),
        ``stop_unopened`` (``need``, the opening), ``stop_in_pit`` (the pit's ``low`` and ``high``,
        the ``score``, the ``total`` and what they ``reached``), or a turn not at a decision."""
        if state.finished:
            return IllegalActionError("game_over")
        if state.pending:
            return IllegalActionError("dice_due", n=state.pending)
        if state.choosing:
            return IllegalActionError("set_aside_before_stop")
        options = options_of(state)
        player = state.board[state.current]
        total = state.turn_total
        if player.on_barrel:
            return IllegalActionError("stop_barrel", need=options.target - player.score, total=total)
        if not player.opened and total < options.opening:
            return IllegalActionError("stop_unopened", need=options.opening, total=total)
        pit = self.pit_of(state, player.score)
        if pit is not None and player.score + total < pit[1]:
            return IllegalActionError(
                "stop_in_pit",
                low=pit[0],
                high=pit[1],
                score=player.score,
                total=total,
                reached=player.score + total,
            )
        return None

    def decisions(self, state: ThousandState) -> list[Action]:
        if state.finished or state.pending:
            return []
        if state.choosing:
            return [SetAside(group) for group in unions(score_throw(state.dice).units)]
        actions: list[Action] = [Throw()]
        if self.why_not_stop(state) is None:
            actions.append(Stop())
        return actions

    def implicit_throw(self, state: ThousandState) -> Action | None:
        if state.finished or state.pending or state.choosing:
            return None
        return Throw()

    # -- transitions -----------------------------------------------------------

    def decide(self, state: ThousandState, action: Action) -> ThousandState:
        if isinstance(action, SetAside):
            return self._set_aside(state, action.faces)
        if isinstance(action, Throw):
            if state.choosing:
                raise IllegalActionError("set_aside_first")
            return replace(state, pending=state.dice_left)
        if isinstance(action, Stop):
            refusal = self.why_not_stop(state)
            if refusal is not None:
                raise refusal
            return self._end_turn(state, "record")
        raise IllegalActionError("not_a_thousand_action", action=str(action))

    def throw(self, state: ThousandState, faces: Faces) -> ThousandState:
        thrown = score_throw(faces)
        state = replace(state, dice=faces, pending=0, dice_left=len(faces))
        if thrown.points == 0:
            return self._end_turn(state, "bust")
        if state.confirming or options_of(state).set_aside == "all":
            return self._take(state, thrown.scoring, thrown.points)
        return replace(state, choosing=True)

    def _set_aside(self, state: ThousandState, group: Faces) -> ThousandState:
        if options_of(state).set_aside != "choice":
            raise IllegalActionError("set_aside_auto")
        if not state.choosing:
            raise IllegalActionError("set_aside_when")
        for face in group:
            if not is_face(face):
                shown = face if isinstance(face, str | int | float) or face is None else repr(face)
                raise IllegalActionError("bad_face", face=shown)
        points = set_aside_points(state.dice, group)  # IllegalActionError when the group may not be
        return self._take(state, normalize(group), points)

    def _take(self, state: ThousandState, group: Faces, points: int) -> ThousandState:
        """Set ``group`` aside for ``points``; then comes a win, a dot, a confirmed record, hot dice
        or the player's decision, in that order."""
        options = options_of(state)
        confirming = state.confirming
        state = replace(
            state,
            turn_total=state.turn_total + points,
            set_aside=tuple(sorted(state.set_aside + group)),
            groups=(*state.groups, (group, points)),
            dice_left=state.dice_left - len(group),
            choosing=False,
            confirming=False,
        )
        score = state.board[state.current].score
        if self._wins(state):
            return self._win(state)
        if options.barrel == "open" and score + state.turn_total > options.target:
            return self._end_turn(state, "dot")
        if confirming and self.why_not_stop(state) is None:
            return self._end_turn(state, "record")
        if state.dice_left == 0:
            # hot dice: all five are thrown again, compulsorily or to confirm the turn
            return replace(
                state, set_aside=(), dice_left=DICE, pending=DICE, confirming=options.hot_dice == "confirm"
            )
        return state

    def _wins(self, state: ThousandState) -> bool:
        options = options_of(state)
        player = state.board[state.current]
        reached = player.score + state.turn_total
        if options.barrel == "none":
            return reached >= options.target
        if options.barrel == "open":
            return reached == options.target
        return player.on_barrel and reached >= options.target

    def _win(self, state: ThousandState) -> ThousandState:
        player = state.board[state.current]
        # the winner climbs down from the barrel with the game won
        winner = replace(player, score=player.score + state.turn_total, opened=True, on_barrel=False)
        won = Event(state.turn, state.current, "win", state.turn_total, winner.score, total=state.turn_total)
        return replace(
            emit(state, won),
            board=replaced(state.board, state.current, winner),
            turn=state.turn + 1,
            pending=0,
            winner=state.current,
        )

    # -- the end of a turn (RULES.md §3.4) ---------------------------------------

    def _end_turn(self, state: ThousandState, end: TurnEnd) -> ThousandState:
        seat = state.current
        mover = state.board[seat]
        ending = Ending(
            options=options_of(state),
            seat=seat,
            end=end,
            total=state.turn_total,
            dice=state.dice,
            before=state.board,
            restricted=not mover.opened or mover.on_barrel or self.pit_of(state, mover.score) is not None,
            turn=state.turn,
        )
        board, events = end_of_turn(ending)
        return replace(
            emit(state, *events),
            board=board,
            turn=state.turn + 1,
            current=(seat + 1) % len(state.players),
            turn_total=0,
            dice=(),
            set_aside=(),
            groups=(),
            dice_left=DICE,
            pending=DICE,
            choosing=False,
            confirming=False,
        )

    # -- reports ---------------------------------------------------------------

    def scores(self, state: ThousandState) -> list[int]:
        return [player.score for player in state.board]

    def winners(self, state: ThousandState) -> list[int]:
        return [state.winner] if state.winner is not None else []


# -- the end of a turn, step by step (RULES.md §3.4) -----------------------------------


@dataclass(frozen=True)
class Ending:
    """What the end of a turn starts from: the board as the turn found it, and how it ended."""

    options: ThousandOptions
    seat: int
    """The mover."""

    end: TurnEnd
    """``record`` (a stop or a confirmation), ``bust`` or ``dot``."""

    total: int
    """The turn total: recorded, or lost."""

    dice: Faces
    """The last throw (the one that busted, for a bust)."""

    before: tuple[Player, ...]
    """The board before this turn's effects (as the turn started: scores change only at turn ends)."""

    restricted: bool
    """The mover was not opened, in a pit or on a barrel when the turn started (no bolt then)."""

    turn: int
    """The turn's index, for the events."""

    def event(self, seat: int, kind: EventKind, old: Player, new: Player, **details: Any) -> Event:
        """The event of ``seat`` going from ``old`` to ``new`` (``by`` the mover, if another seat)."""
        by = self.seat if seat != self.seat else None
        return Event(self.turn, seat, kind, new.score - old.score, new.score, by=by, **details)


Board = tuple[Player, ...]


def fall(options: ThousandOptions, player: Player) -> Player:
    """A fall from the barrel («падение с бочки»): −``fall_penalty``, or 0 on the
    ``falls_limit``-th fall, after which the count starts again [choice]."""
    falls = player.falls + 1
    if falls >= falls_limit(options):
        return replace(player, score=0, falls=0, on_barrel=False, barrel_attempts=0)
    return replace(
        player, score=player.score - options.fall_penalty, falls=falls, on_barrel=False, barrel_attempts=0
    )


def _fall_count(options: ThousandOptions, after: Player) -> dict[str, int]:
    """The fall's number and limit, for its event (a fall to 0 is the last one)."""
    limit = falls_limit(options)
    return {"count": after.falls or limit, "limit": limit}


def settle_mover(ending: Ending, board: Board) -> tuple[Board, Events]:
    """Step 1: the mover's new score, capped onto a barrel; or a bust's bolt and barrel attempt,
    or a dot."""
    options, seat = ending.options, ending.seat
    old = board[seat]
    events: list[Event] = []
    if ending.end == "record":
        reached = old.score + ending.total
        climbs = options.barrel in ("points", "capped") and reached >= options.barrel_at
        score = options.barrel_at if climbs else reached
        new = replace(
            old,
            score=score,
            opened=True,
            opening_score=score if old.opening_score is None else old.opening_score,
            on_barrel=old.on_barrel or climbs,
            barrel_attempts=0,
        )
        events.append(Event(ending.turn, seat, "recorded", ending.total, reached, total=ending.total))
        if climbs:
            events.append(Event(ending.turn, seat, "barrel_on", score - reached, score))
        return replaced(board, seat, new), tuple(events)
    new = old
    if not new.opened:
        new = replace(new, opening_failures=new.opening_failures + 1)
    if ending.end == "dot":
        new = replace(new, dots=new.dots + 1)
        events.append(
            ending.event(seat, "dot", old, new, count=new.dots, limit=options.dots_limit, total=ending.total)
        )
        return replaced(board, seat, new), tuple(events)
    events.append(ending.event(seat, "bust", old, new, total=ending.total, dice=ending.dice))
    if options.bolt_limit > 0 and (options.bolts_when_restricted or not ending.restricted):
        new = replace(new, bolts=new.bolts + 1)
        events.append(ending.event(seat, "bolt", old, new, count=new.bolts, limit=options.bolt_limit))
    if new.on_barrel and options.barrel == "points":
        new = replace(new, barrel_attempts=new.barrel_attempts + 1)
        events.append(
            ending.event(
                seat, "barrel_attempt", old, new, count=new.barrel_attempts, limit=options.barrel_attempts
            )
        )
    return replaced(board, seat, new), tuple(events)


def overtake(ending: Ending, board: Board) -> tuple[Board, Events]:
    """Step 2: everyone the mover passed, from strictly below to strictly above, loses
    ``overtake_penalty`` («обгон»); scores are compared before any other effect."""
    options, seat = ending.options, ending.seat
    start, now = ending.before[seat].score, board[seat].score
    if not options.overtake_penalty or now <= start:
        return board, ()
    events: list[Event] = []
    for i, other in enumerate(board):
        if i != seat and start < other.score < now:
            passed = replace(other, score=other.score - options.overtake_penalty)
            events.append(ending.event(i, "overtaken", other, passed))
            board = replaced(board, i, passed)
    return board, tuple(events)


def knock_off(ending: Ending, board: Board) -> tuple[Board, Events]:
    """Step 3: the mover's own fall (the last failed attempt, or the dots limit of an open
    barrel, before that limit's dot penalty of step 4) [choice], then everyone the mover's climb
    onto the barrel knocks off it."""
    options, seat = ending.options, ending.seat
    events: list[Event] = []
    old = board[seat]
    if options.barrel == "points" and old.on_barrel and old.barrel_attempts >= options.barrel_attempts:
        new = fall(options, old)
        events.append(ending.event(seat, "fall", old, new, **_fall_count(options, new)))
        board = replaced(board, seat, new)
    elif options.barrel == "open" and old.dots >= options.dots_limit:
        # RULES.md §3.3 "at dots_limit dots they lose 100 and fall": the 100 is the fall's own
        # penalty, not a second one. It is ``fall_penalty`` (the option the points barrel's fall
        # costs), and "with falls_limit = 1 the fall takes them to 0" puts 0 in its place, which
        # only a penalty of the fall itself can be replaced by. So the points go with the fall,
        # here at step 3 (§3.4 [choice]); the dot penalty of step 4 restarts the dot count.
        new = fall(options, old)
        events.append(ending.event(seat, "fall", old, new, **_fall_count(options, new)))
        board = replaced(board, seat, new)
    if board[seat].on_barrel and not ending.before[seat].on_barrel:
        for i, other in enumerate(board):
            if i == seat or not other.on_barrel:
                continue
            if options.barrel == "points":
                new = fall(options, other)
                events.append(ending.event(i, "knocked_off", other, new, **_fall_count(options, new)))
            else:
                back = other.opening_score if other.opening_score is not None else other.score
                new = replace(other, score=back, on_barrel=False)
                events.append(ending.event(i, "knocked_off", other, new))
            board = replaced(board, i, new)
    return board, tuple(events)


def penalise(ending: Ending, board: Board) -> tuple[Board, Events]:
    """Step 4: the bolt penalty at ``bolt_limit`` bolts (the count restarts); the dot penalty at
    ``dots_limit`` dots of an ``open`` barrel, which restarts the dot count and costs no points of
    its own (the fall of step 3 took them); and the opening-fail penalty every
    ``opening_fail_every``-th unopened turn (that count never restarts)."""
    options, seat = ending.options, ending.seat
    events: list[Event] = []
    old = board[seat]
    if options.bolt_limit > 0 and old.bolts >= options.bolt_limit:
        new = replace(old, score=old.score - options.bolt_penalty, bolts=0)
        events.append(ending.event(seat, "bolt_penalty", old, new, count=old.bolts, limit=options.bolt_limit))
        old = new
    if options.barrel == "open" and old.dots >= options.dots_limit:
        new = replace(old, dots=0)
        events.append(ending.event(seat, "dot_penalty", old, new, count=old.dots, limit=options.dots_limit))
        old = new
    if (
        ending.end != "record"
        and not old.opened
        and options.opening_fail_penalty
        and old.opening_failures % options.opening_fail_every == 0
    ):
        new = replace(old, score=old.score - options.opening_fail_penalty)
        events.append(
            ending.event(
                seat,
                "opening_fail_penalty",
                old,
                new,
                count=old.opening_failures,
                limit=options.opening_fail_every,
            )
        )
        old = new
    return replaced(board, seat, old), tuple(events)


def dump(ending: Ending, board: Board) -> tuple[Board, Events]:
    """Step 5: everyone whose score changed and is now exactly ``dump_at`` drops to 0
    («самосвал»); a player left on a barrel below ``barrel_at`` comes off it [choice]."""
    options = ending.options
    events: list[Event] = []
    for i, player in enumerate(board):
        if player.score == ending.before[i].score:
            continue
        new = player
        if options.dump_at is not None and new.score == options.dump_at:
            new = replace(new, score=0)
            events.append(ending.event(i, "dump", player, new))
        if new.on_barrel and new.score < options.barrel_at:
            new = replace(new, on_barrel=False, barrel_attempts=0)
        board = replaced(board, i, new)
    return board, tuple(events)


TURN_END_STEPS = (settle_mover, overtake, knock_off, penalise, dump)
"""The five steps of RULES.md §3.4, in their order."""


def end_of_turn(ending: Ending) -> tuple[Board, Events]:
    """The board after a turn's end and the events of each step, in the order of RULES.md §3.4."""
    board, events = ending.before, Events()
    for step in TURN_END_STEPS:
        board, more = step(ending, board)
        events += more
    return board, events


THOUSAND = ThousandEngine()
