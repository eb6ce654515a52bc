"""Planning who sits where: players and bots taking seats, leaving and coming back, the start, the rematch.

Every function here is pure: it reads a :class:`~kosti.server.table.Table` and gives the
events (:mod:`kosti.server.events`) a request makes, or refuses it with a :class:`Refusal`;
nothing changes until the events are stored and applied.
"""

from __future__ import annotations

import secrets
from typing import Any

from kosti.errors import KostiError
from kosti.i18n import LANGUAGES
from kosti.roller import FairDice, commitment
from kosti.server.bots import bot_name
from kosti.server.events import Abandon, Back, BotSeated, Join, Leave, Rematch, Reserve, Start, TableEvent
from kosti.server.fair import combine_client_seeds, rolloff
from kosti.server.limits import distinct_name, normalize_name, skeleton
from kosti.server.refusal import Refusal
from kosti.server.table import Seat, Table, token_hash
from kosti.server.words import shown_name


def plan_join(
    table: Table, name: str, client_seed: str | None, token: str | None = None
) -> tuple[list[TableEvent], str]:
    """Events that seat a player in the first empty seat, and the player's secret token.

    With ``token``, the player takes the seat a rematch keeps for them (under its name).
    """
    if token is not None:
        return _plan_rejoin(table, token, client_seed)
    seat = _free_seat(table, None)
    name = _check_name(table, name)
    if table.online and client_seed is None:
        # were the server to pick it, it would know both seeds before the first throw
        raise Refusal("no_seed")
    _check_seed(client_seed)
    token = secrets.token_urlsafe(24)
    occupant = Seat(name, token_hash(token), client_seed)
    joined = Join(seat, name, occupant.token_sha256, client_seed)
    return [joined, *_plan_start(table, seat, occupant)], token


def _plan_rejoin(table: Table, token: str, client_seed: str | None) -> tuple[list[TableEvent], str]:
    seat = table.seat_of(token)
    occupant = table.seats[seat]
    if occupant is None or not occupant.reserved:
        raise Refusal("taken", why="you")
    _check_seed(client_seed)
    sat = Seat(occupant.name, occupant.token_sha256, client_seed)
    joined = Join(seat, occupant.name, sat.token_sha256, client_seed)
    return [joined, *_plan_start(table, seat, sat)], token


def _check_seed(client_seed: str | None) -> None:
    """Refuse a malformed client seed now, not at the start."""
    if client_seed is None:
        return
    try:
        combine_client_seeds([client_seed])
    except KostiError as error:
        raise Refusal("bad_seed", detail=str(error)) from None


def plan_reserve(table: Table, seats: list[Seat | None]) -> list[TableEvent]:
    """Events that seat a rematch as the old table sat: bots at once, each player's seat kept."""
    events: list[TableEvent] = []
    for seat, occupant in enumerate(seats):
        if occupant is None:
            continue
        if occupant.bot is not None:
            events.append(BotSeated(seat, occupant.name, occupant.bot))
        else:
            events.append(Reserve(seat, occupant.name, occupant.token_sha256))
    return events


def plan_rematch(table: Table, token: str, table_id: str) -> list[TableEvent]:
    """The event that offers the rematch at table ``table_id``, after the game is over."""
    table.seat_of(token)
    if not table.over:
        raise Refusal("not_finished")
    if table.rematch is not None:
        raise Refusal("rematch", table=table.rematch)
    return [Rematch(table_id)]


def plan_leave(table: Table, token: str, resign: bool) -> list[TableEvent]:
    """A player resigns (and watches on) or leaves: before the start the seat is freed,
    during the game a stand-in bot plays it out; the game is abandoned when no player is left."""
    seat = table.seat_of(token)
    occupant = table.seats[seat]
    if table.over:
        raise Refusal("finished")
    if occupant is None or occupant.left:
        raise Refusal("left")
    events: list[TableEvent] = [Leave(seat, resign)]
    if table.game is not None:
        humans = [i for i, s in enumerate(table.seats) if s is not None and s.human and not s.left]
        if humans == [seat]:
            events.append(Abandon("left"))
    return events


def plan_back(table: Table, token: str) -> list[TableEvent]:
    """A player whose turn ran out takes the seat back from the stand-in bot."""
    seat = table.seat_of(token)
    occupant = table.seats[seat]
    if occupant is None or not occupant.away or occupant.left or table.over:
        raise Refusal("not_away")
    return [Back(seat)]


def plan_bot(table: Table, token: str, seat: int | None, level: str) -> list[TableEvent]:
    """Events that seat a bot of ``level`` (in ``seat``, or the first empty one), asked by a
    seated player or the table's creator (``token``): nobody else may fill a table."""
    table.check_arranger(token)
    if not table.online:
        raise Refusal("no_bots", why="keeper")
    seat = _free_seat(table, seat)
    try:
        table.bots.check(level)
    except KostiError as error:
        raise Refusal("no_bots", why="level", detail=str(error)) from None
    name = _bot_name(table, level, seat)
    return [BotSeated(seat, name, level), *_plan_start(table, seat, Seat(name, bot=level))]


def _free_seat(table: Table, seat: int | None) -> int:
    if table.game is not None:
        raise Refusal("started")
    if seat is None:
        for i, occupant in enumerate(table.seats):
            if occupant is None:
                return i
        raise Refusal("full")  # pragma: no cover - a full table has started
    if not 0 <= seat < len(table.seats):
        raise Refusal("bad_seat", last=len(table.seats) - 1, seat=seat)
    if table.seats[seat] is not None:
        raise Refusal("taken", why="seat", seat=seat)
    return seat


def _check_name(table: Table, name: str) -> str:
    """The name normalised (:func:`~kosti.server.limits.normalize_name`), unless it looks like
    (same skeleton: case and lookalike letters aside) a name shown at this table in any
    language, a bot's included, or the name a bot of this server is shown under."""
    name = normalize_name(name)
    if skeleton(name) in table.bots.reserved_names():
        raise Refusal("name_taken", why="bot", name=name)
    shown: list[str] = []
    for seat, occupant in enumerate(table.seats):
        if occupant is None:
            continue
        shown += [occupant.name, *(shown_name(table, seat, lang) for lang in LANGUAGES)]
        if (
            occupant.bot is not None
        ):  # a bot alone of its level is shown without its seat, until another comes
            shown += [
                bot_name(occupant.bot, seat, lang, alone) for lang in LANGUAGES for alone in (False, True)
            ]
    return distinct_name(name, shown)


def _bot_name(table: Table, level: str, seat: int) -> str:
    """The name a bot is stored under (the record's): its level and seat, unlike any taken."""
    taken = {s.name.casefold() for s in table.seats if s}
    name = f"{level} bot {seat + 1}"
    k = 2
    while name.casefold() in taken:
        name = f"{level} bot {seat + 1}.{k}"
        k += 1
    return name


def _plan_start(table: Table, seat: int, occupant: Seat) -> list[TableEvent]:
    """The :class:`Start` event when ``occupant`` takes the last empty seat."""
    seats = list(table.seats)
    seats[seat] = occupant
    if any(s is None or s.reserved for s in seats):
        return []
    names = [s.name for s in seats if s]
    order = list(range(len(seats)))
    throws: list[dict[str, Any]] = []
    client_seed = None
    if table.server_seed is not None:
        parts = [s.client_seed for s in seats if s and s.client_seed]
        # every player brings a part (plan_join); a table of bots alone follows the rule
        # published with the commitment: its client seed is the commitment itself
        client_seed = combine_client_seeds(parts) if parts else commitment(table.server_seed)
        if table.rules.options.first_player == "rolloff":
            order, throws = rolloff(names, FairDice(table.server_seed, client_seed))
    elif table.rules.options.first_player == "rolloff" and (dice := table.dice()) is not None:
        order, throws = rolloff(names, dice)  # a table with no seeds that throws its own dice
    return [Start(tuple(order), client_seed, tuple(throws))]
