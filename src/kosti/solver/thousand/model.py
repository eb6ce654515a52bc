"""The two-player «Тысяча» as tables for the solver, read off the engine (RULES.md §3).

Nothing here restates a rule of the turn's end: every status a player can reach and
every effect of a turn's end (§3.4: the record with the barrel cap, bolts, dots,
barrel attempts and falls, overtaking, knock-offs, the 555 dump) comes from calling
:class:`~kosti.games.thousand.game.ThousandEngine` on real states. Within a turn the
engine is asked, for each turn total, whether a stop is allowed (opening, «яма», «бочка»)
and whether the total wins or makes a dot («точка»).

The model rests on one fact the tests check against the engine over many states: the
mover's line after their turn depends on their own line and the outcome only, and the
opponent's line changes in just three ways: not at all, overtaken («обгон», when the
mover's new score passes theirs), or knocked off the barrel (when the mover climbs it).

A player's *status* is their line on the board with every field that cannot matter under
the options in force cleared, and with the score bounded below at ``floor`` (a lower
score counts as ``floor``; the solver shows the bound's effect on the result).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import gcd
from typing import Literal

import numpy as np
import numpy.typing as npt

from kosti.actions import Roll, SetAside
from kosti.dice import outcomes
from kosti.errors import OptionError
from kosti.games.thousand.game import DICE, THOUSAND, Player, ThousandState
from kosti.games.thousand.scoring import score_throw, unions
from kosti.rules.options import ThousandOptions
from kosti.rules.presets import Variant

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]

MAX_STATUSES = 4000
"""Statuses per player beyond which a variant is refused (about 16 M positions)."""

PLAYERS = ("first", "second")

STEP = 5
"""Turn totals move in fives (every scoring throw is worth a multiple of 5): the unit of turn totals."""

BEYOND_WIN = 0
"""Every total from ``top`` on wins."""
BEYOND_SAT = 1
"""Every total from ``top`` on records the same (the barrel's cap): the total no longer matters."""
BEYOND_EXACT = 2
"""``top`` wins exactly and any higher total is a dot (the open barrel)."""

Effect = Literal[0, 1, 2]
NONE, OVERTAKEN, KNOCKED = 0, 1, 2


def thousand_options(rules: Variant) -> ThousandOptions:
    """The options of a «Тысяча» variant; :class:`OptionError` for another family."""
    if not isinstance(rules.options, ThousandOptions):
        raise OptionError(f"{rules.spec} is not «Тысяча»: the two-player solver plays «Тысяча» only")
    return rules.options


def score_unit(options: ThousandOptions) -> int:
    """The step of every score that can occur: 5 unless a penalty or threshold is finer."""
    unit = 5
    numbers = [
        options.target,
        options.opening,
        options.opening_fail_penalty,
        options.overtake_penalty,
        options.bolt_penalty,
        options.barrel_at,
        options.fall_penalty,
        *(edge for pit in options.pits for edge in pit),
    ]
    if options.dump_at is not None:
        numbers.append(options.dump_at)
    for n in numbers:
        unit = gcd(unit, n)
    return max(unit, 1)


def default_floor(options: ThousandOptions) -> int:
    """The default lower bound on scores: three of the largest penalty below 0 (−300 in the
    classic game, as Busche bounds Farkle's); the solver shows its effect is negligible."""
    biggest = max(
        options.bolt_penalty if options.bolt_limit else 0,
        options.fall_penalty if options.barrel in ("points", "open") else 0,
        options.overtake_penalty,
        options.opening_fail_penalty,
    )
    unit = score_unit(options)
    return -(3 * biggest) // unit * unit


def canonical(options: ThousandOptions, player: Player, floor: int) -> Player:
    """``player`` with the fields that cannot matter under ``options`` cleared, score ≥ ``floor``."""
    opened = player.opened
    return Player(
        score=max(player.score, floor),
        opened=opened,
        opening_score=player.opening_score if options.barrel == "capped" else None,
        bolts=player.bolts if options.bolt_limit > 0 else 0,
        on_barrel=player.on_barrel if options.barrel in ("points", "capped") else False,
        barrel_attempts=player.barrel_attempts if options.barrel == "points" else 0,
        falls=player.falls if options.barrel in ("points", "open") else 0,
        dots=player.dots if options.barrel == "open" else 0,
        opening_failures=(
            player.opening_failures % options.opening_fail_every
            if options.opening_fail_penalty and not opened
            else 0
        ),
    )


def position(
    rules: Variant, mover: Player, other: Player, total: int = 0, dice_left: int = DICE, pending: int = 0
) -> ThousandState:
    """A two-player state with ``mover`` to play (seat 0), ``total`` set aside so far and
    ``pending`` dice to throw (0: the mover decides)."""
    return ThousandState(
        rules, PLAYERS, 0, (mover, other), 0, turn_total=total, dice_left=dice_left, pending=pending
    )


def end_turn(state: ThousandState, end: Literal["record", "bust", "dot"]) -> ThousandState:
    """The engine's end of the turn (RULES.md §3.4) for ``state``: a record, a bust or a dot."""
    return THOUSAND._end_turn(state, end)


@dataclass(frozen=True)
class Throws:
    """Every throw of ``k`` dice as the turn sees it (RULES.md §3.1, §3.2).

    For each ``k``: ``bust[k]`` the chance of scoring nothing; the scoring throws in
    ``ptr[k]:ptr[k+1]`` with chance ``prob``, each with its ways of setting dice aside in
    ``opt_ptr[o]:opt_ptr[o+1]`` (``gain`` in score units, ``used`` dice). With
    ``set_aside = "all"`` a throw has one way (all its scoring dice) and throws with the
    same gain and dice used are merged.
    """

    bust: F64
    ptr: I64
    prob: F64
    opt_ptr: I64
    gain: I64
    used: I64
    all_ptr: I64
    """Throws of every ``k`` with all their scoring dice set aside, merged (the confirmation)."""
    all_prob: F64
    all_gain: I64
    all_used: I64
    sat_confirm: F64
    """The most a player who wants to bust can get it before a confirmation records, by ``k``."""
    sat_forced: float
    """The chance that a throw of five can set aside only all five (the compulsory throw again)."""


def throw_tables(options: ThousandOptions) -> Throws:
    """The throw tables of ``options`` (scores from :mod:`kosti.games.thousand.scoring`)."""
    choice = options.set_aside == "choice"
    bust = np.zeros(DICE + 1)
    ptr, opt_ptr, gain, used, prob = [0], [0], [], [], []
    all_ptr, all_prob, all_gain, all_used = [0], [], [], []
    forced = Fraction(0)
    for k in range(DICE + 1):
        merged: dict[tuple[int, int], Fraction] = {}
        chosen: list[tuple[Fraction, dict[tuple[int, int], None]]] = []
        for faces, p in outcomes(k) if k else ():
            thrown = score_throw(faces)
            if thrown.points == 0:
                bust[k] += float(p)
                continue
            key = (thrown.points // STEP, len(thrown.scoring))
            merged[key] = merged.get(key, Fraction(0)) + p
            ways = {(pts // STEP, len(g)): None for g, pts in unions(thrown.units).items()}
            chosen.append((p, ways))
            if k == DICE and all(u == DICE for _, u in ways):
                forced += p
        for (g, u), p in sorted(merged.items()):
            all_gain.append(g)
            all_used.append(u)
            all_prob.append(float(p))
        all_ptr.append(len(all_prob))
        if choice:
            for p, ways in chosen:
                prob.append(float(p))
                for g, u in ways:
                    gain.append(g)
                    used.append(u)
                opt_ptr.append(len(gain))
        else:
            for (g, u), p in sorted(merged.items()):
                prob.append(float(p))
                gain.append(g)
                used.append(u)
                opt_ptr.append(len(gain))
        ptr.append(len(prob))
    if not choice:
        forced = sum((p for (g, u), p in _merged_five().items() if u == DICE), Fraction(0))
    # the chance of busting before a confirmation records, for a player who wants to bust
    q = np.zeros(DICE + 1)
    q[0] = bust[DICE]
    for k in range(1, DICE + 1):
        best = bust[k]
        for o in range(ptr[k], ptr[k + 1]):
            best += prob[o] * max(q[k - used[w]] for w in range(opt_ptr[o], opt_ptr[o + 1]))
        q[k] = best
    return Throws(
        bust,
        np.array(ptr, np.int64),
        np.array(prob),
        np.array(opt_ptr, np.int64),
        np.array(gain, np.int64),
        np.array(used, np.int64),
        np.array(all_ptr, np.int64),
        np.array(all_prob),
        np.array(all_gain, np.int64),
        np.array(all_used, np.int64),
        q,
        float(forced),
    )


def _merged_five() -> dict[tuple[int, int], Fraction]:
    merged: dict[tuple[int, int], Fraction] = {}
    for faces, p in outcomes(DICE):
        thrown = score_throw(faces)
        if thrown.points:
            key = (thrown.points // STEP, len(thrown.scoring))
            merged[key] = merged.get(key, Fraction(0)) + p
    return merged


@dataclass
class Model:
    """The two-player game of one variant as flat arrays (scores in units of ``unit``)."""

    rules: Variant
    options: ThousandOptions
    unit: int
    floor: int
    statuses: list[Player]
    index: dict[Player, int]
    score: I64
    """Each status's score in units."""
    on_barrel: I64
    top: I64
    """The first turn total (in fives) that is not an ordinary one: a win, the cap, a dot."""
    beyond: I64
    base: I64
    """Where each status's per-total rows start in ``can_stop``, ``rec_next``, ``new1``, ``climbs``."""
    can_stop: I64
    rec_next: I64
    new1: I64
    """The mover's score after step 1 of §3.4 (units): whom the record overtakes."""
    climbs: I64
    bust_next: I64
    dot_next: I64
    sat_next: I64
    sat_new1: I64
    sat_climbs: I64
    opp_next: I64
    """``opp_next[j, effect]``: the opponent's status after a turn that overtook or knocked them off."""
    throws: Throws
    start: int
    """The status of a player at the start of the game."""

    @property
    def n(self) -> int:
        return len(self.statuses)

    @property
    def positions(self) -> int:
        """Turn-start positions: ordered pairs of statuses (mover, opponent)."""
        return self.n * self.n

    def status_of(self, player: Player) -> int:
        """The index of a board line (after canonicalisation and the floor)."""
        key = canonical(self.options, player, self.floor)
        if key not in self.index:
            raise OptionError(f"the solver has no position for the line {player}")
        return self.index[key]


def _classify(rules: Variant, mover: Player, total: int) -> str:
    """What the engine makes of reaching ``total`` in a turn: ``normal``, ``win`` or ``dot``."""
    if total == 0:
        return "normal"
    state = position(rules, mover, mover, total - STEP, dice_left=1, pending=1)
    after = THOUSAND.apply(state, Roll((5,)))
    if after.choosing:
        after = THOUSAND.apply(after, SetAside((5,)))
    if after.winner is not None:
        return "win"
    if after.turn > state.turn:
        return "dot"
    return "normal"


def build_model(
    rules: Variant,
    floor: int | None = None,
    limit: int = MAX_STATUSES,
    progress: Callable[[int, int], object] | None = None,
) -> Model:
    """Every status two players can reach under ``rules``, and the tables of the turn's end.

    Raises :class:`OptionError` when the variant is not «Тысяча», or when its statuses
    exceed ``limit`` (the solve would not fit this machine: the message says how many).
    """
    from kosti.solver.progress import begin

    options = thousand_options(rules)
    unit = score_unit(options)
    low = default_floor(options) if floor is None else floor
    low = low // unit * unit
    begin(progress, "building")
    if options.barrel == "capped":
        # a player's line holds their score and their opening score (where a knock-off returns them)
        span = max(0, options.barrel_at - max(options.opening, 0)) // unit + 1
        if span * (span + 1) // 2 > limit:
            raise OptionError(
                f"{rules.spec} has about {span * (span + 1) // 2:,} statuses per player (a score and the "
                f"opening score a knock-off returns to): out of reach of the exact two-player solver"
            )
    start_player = canonical(options, THOUSAND.new_game(rules, PLAYERS).board[0], low)

    def canon(p: Player) -> Player:
        return canonical(options, p, low)

    statuses: list[Player] = [start_player]
    index: dict[Player, int] = {start_player: 0}
    rows: dict[int, dict[str, object]] = {}
    opp_rows: dict[int, list[Player]] = {}
    queue = [0]

    def add(p: Player) -> None:
        if p not in index:
            if len(statuses) >= limit:
                raise OptionError(
                    f"{rules.spec} has more than {limit} statuses per player "
                    f"(over {limit * limit:,} positions): out of reach of the exact two-player solver"
                )
            index[p] = len(statuses)
            statuses.append(p)
            queue.append(index[p])

    sat_kind = options.barrel in ("points", "capped")
    while queue:
        i = queue.pop()
        me = statuses[i]
        if progress is not None:
            progress(len(statuses) - len(queue), len(statuses))
        # the turn totals of this status, until a win, a dot or the barrel's cap
        classes: list[str] = []
        stops: list[int] = []
        nexts: list[Player] = []
        new1s: list[int] = []
        climbs: list[int] = []
        total = 0
        beyond = -1
        while True:
            kind = _classify(rules, me, total)
            if kind == "win":
                nxt = _classify(rules, me, total + STEP)
                beyond = BEYOND_EXACT if nxt == "dot" else BEYOND_WIN
                break
            if kind == "dot":  # pragma: no cover - a dot comes only after the exact total
                beyond = BEYOND_EXACT
                break
            if sat_kind and not me.on_barrel and total > 0 and me.score + total >= options.barrel_at:
                beyond = BEYOND_SAT
            state = position(rules, me, me, total)
            stop = total > 0 and THOUSAND.why_not_stop(state) is None
            if beyond == BEYOND_SAT and not stop:
                raise OptionError(
                    f"{rules.spec}: a stop on the barrel's cap is refused; the solver cannot model it"
                )
            if stop:
                after = end_turn(state, "record")
                mover = canon(after.board[0])
                add(mover)
                nexts.append(mover)
                reached = me.score + total
                capped = sat_kind and reached >= options.barrel_at
                new1s.append((options.barrel_at if capped else reached) // unit)
                climbs.append(int(after.board[0].on_barrel and not me.on_barrel))
            else:
                nexts.append(me)
                new1s.append(me.score // unit)
                climbs.append(0)
            stops.append(int(stop))
            classes.append(kind)
            if beyond == BEYOND_SAT:
                break
            total += STEP
        bust = canon(end_turn(position(rules, me, me, 0), "bust").board[0])
        add(bust)
        dot = None
        if options.barrel == "open" and me.score < options.target:
            dot = canon(end_turn(position(rules, me, me, 0), "dot").board[0])
            add(dot)
        rows[i] = {
            "top": len(classes) - (1 if beyond == BEYOND_SAT else 0),
            "beyond": beyond,
            "stops": stops,
            "nexts": nexts,
            "new1": new1s,
            "climbs": climbs,
            "bust": bust,
            "dot": dot,
        }
        # what others' turns can do to this player
        effects = [me, _overtaken(rules, me, low, unit), _knocked(rules, me)]
        opp_rows[i] = [canon(p) for p in effects]
        for p in opp_rows[i]:
            add(p)

    return _pack(rules, options, unit, low, statuses, index, rows, opp_rows, start_player)


def _overtaken(rules: Variant, me: Player, low: int, unit: int) -> Player:
    """``me`` after an opponent's record passes their score (the engine's §3.4 step 2 and on)."""
    options = thousand_options(rules)
    if not options.overtake_penalty or me.on_barrel:
        return me
    passer = Player(score=min(me.score, 0) - unit, opened=True, opening_score=0)
    state = ThousandState(
        rules, PLAYERS, 0, (passer, me), 0, turn_total=me.score - passer.score + unit, pending=0
    )
    return end_turn(state, "record").board[1]


def _knocked(rules: Variant, me: Player) -> Player:
    """``me`` after an opponent climbs onto the barrel (§3.4 step 3)."""
    options = thousand_options(rules)
    if not me.on_barrel:
        return me
    climber = Player(score=options.barrel_at - 5, opened=True, opening_score=0)
    state = ThousandState(rules, PLAYERS, 0, (climber, me), 0, turn_total=5, pending=0)
    return end_turn(state, "record").board[1]


def _pack(
    rules: Variant,
    options: ThousandOptions,
    unit: int,
    low: int,
    statuses: list[Player],
    index: dict[Player, int],
    rows: dict[int, dict[str, object]],
    opp_rows: dict[int, list[Player]],
    start: Player,
) -> Model:
    # statuses sorted by score, then by the rest: the solver sweeps them in this order
    order = sorted(range(len(statuses)), key=lambda i: _progress_key(statuses[i]))
    renum = {old: new for new, old in enumerate(order)}
    ordered = [statuses[i] for i in order]
    new_index = {p: k for k, p in enumerate(ordered)}
    n = len(ordered)
    score = np.array([p.score // unit for p in ordered], np.int64)
    on_barrel = np.array([int(p.on_barrel) for p in ordered], np.int64)
    top = np.zeros(n, np.int64)
    beyond = np.zeros(n, np.int64)
    base = np.zeros(n + 1, np.int64)
    bust_next = np.zeros(n, np.int64)
    dot_next = np.full(n, -1, np.int64)
    sat_next = np.full(n, -1, np.int64)
    sat_new1 = np.zeros(n, np.int64)
    sat_climbs = np.zeros(n, np.int64)
    opp_next = np.zeros((n, 3), np.int64)
    for k, old in enumerate(order):
        row = rows[old]
        top[k] = int(row["top"])  # type: ignore[call-overload]
        beyond[k] = int(row["beyond"])  # type: ignore[call-overload]
        base[k + 1] = base[k] + top[k]
        bust_next[k] = new_index[row["bust"]]  # type: ignore[index]
        if row["dot"] is not None:
            dot_next[k] = new_index[row["dot"]]  # type: ignore[index]
        if beyond[k] == BEYOND_SAT:
            sat_next[k] = new_index[row["nexts"][-1]]  # type: ignore[index]
            sat_new1[k] = row["new1"][-1]  # type: ignore[index]
            sat_climbs[k] = row["climbs"][-1]  # type: ignore[index]
        for e, p in enumerate(opp_rows[old]):
            opp_next[k, e] = new_index[p]
    m = int(base[n])
    can_stop = np.zeros(m, np.int64)
    rec_next = np.zeros(m, np.int64)
    new1 = np.zeros(m, np.int64)
    climbs = np.zeros(m, np.int64)
    for k, old in enumerate(order):
        row = rows[old]
        b, t = int(base[k]), int(top[k])
        can_stop[b : b + t] = row["stops"][:t]  # type: ignore[index]
        rec_next[b : b + t] = [new_index[p] for p in row["nexts"][:t]]  # type: ignore[index]
        new1[b : b + t] = row["new1"][:t]  # type: ignore[index]
        climbs[b : b + t] = row["climbs"][:t]  # type: ignore[index]
    del renum
    return Model(
        rules, options, unit, low, ordered, new_index, score, on_barrel, top, beyond, base, can_stop,
        rec_next, new1, climbs, bust_next, dot_next, sat_next, sat_new1, sat_climbs, opp_next,
        throw_tables(options), new_index[start],
    )  # fmt: skip


def _progress_key(p: Player) -> tuple[int, ...]:
    # a bust adds a bolt, an attempt or a dot at the same score: those rank higher, so that a
    # sweep from the top finds a bust's successor already updated
    return (
        p.score + (1000 if p.on_barrel else 0),
        p.barrel_attempts,
        p.bolts,
        p.dots,
        p.falls,
        int(p.opened),
    )
