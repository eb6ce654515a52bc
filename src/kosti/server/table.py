"""One table of the server: its seats, its game and the game's record, all rebuilt from a log.

Everything that happens at a table is an *event* appended to its log: a player
sits down (``join``), a bot takes a seat (``bot``), a rematch keeps a seat for its
player (``reserve``), the game starts with the roll-off (``start``), a player or bot
acts (``action``: the record actions it caused, dice included). The table's life
has events too: a turn runs out of time and a stand-in bot plays the seat
(``timeout``) until its player is back (``back``); a player resigns or leaves
(``leave``); a game nobody is left to play ends (``abandon``), its server seed
revealed like a finished game's; a rematch is offered (``rematch``). At a
scorekeeper table the last action can be taken back (``undo``) and a past throw
changed (``edit``): the game is then replayed from its record. A table is its
settings plus that log, nothing else.

The server first *plans* the events of a request (``plan_*``: pure, refuses with
a :class:`Refusal` and changes nothing), writes them to storage, and only then
*applies* them (:meth:`Table.apply`). Rebuilding a table after a restart applies
the stored events in order, the same code path as live play, so the dice
counter of the fair dice (the nonce) is simply the number of throws in the log.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from kosti.actions import Action, Roll, Throw, action_json, from_json
from kosti.bots.base import Bot
from kosti.errors import KostiError
from kosti.errors import Refusal as RuleRefusal
from kosti.games import engine_for
from kosti.games.base import GameState
from kosti.i18n import LANGUAGES
from kosti.record import Record, Recorder, Turn, play_again, written_steps
from kosti.roller import FairDice, commitment
from kosti.rules.presets import Variant, variant
from kosti.server.fair import combine_client_seeds, rolloff
from kosti.server.limits import normalize_name, skeleton
from kosti.server.refusal import Refusal as Refusal
from kosti.server.refusal import refusal_of
from kosti.show import summary

Event = tuple[str, dict[str, Any]]
"""A log entry: its kind (``join``, ``bot``, ``start``, ``action``) and its data."""

Mode = Literal["online", "scorekeeper"]

BotFactory = Callable[[str, Variant, int], Bot]
"""Makes a bot from (level, variant, seed), like ``kosti.levels.make_bot``: :class:`KostiError`
where no bot of that level plays the variant now."""

MAX_SEATS = 8
"""The rules allow any number of players; a page cannot show more than this."""

MAX_MESSAGE_ACTIONS = 4
"""Actions one message may carry, all within one turn of one seat."""

MAX_CHAINED_THROWS = 100
"""Throws the server makes on its own within one turn (compulsory throws) before it stops."""

LOG_TAIL = 60
"""Log entries sent with every whole state (the whole game is in the record)."""

WORDED = "_worded"
"""Where a log entry keeps its lines, by language, once worded (never shown as such)."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TableSettings:
    """What a table is created with; fixed for its whole life."""

    variant: str
    """The canonical variant string (``poker-free(lower=[chance])``)."""

    seats: int
    mode: Mode = "online"
    """``online``: the server throws provably fair dice; ``scorekeeper``: the players type in
    the dice of a real table, and sit in the order they play."""

    hints: bool = False
    """Players may ask for a hint (a bot's advice) at their decisions."""

    private: bool = False
    """Only the invite link leads to the table: it is not listed among the open tables."""

    timer: int | None = None
    """Seconds a player has for each move; ``None``: no limit. On time a stand-in bot plays."""

    owner_sha256: str | None = None
    """The hash of the token its creator was given when they did not sit down: with it they
    may seat bots, as a seated player may."""

    def rules(self) -> Variant:
        return variant(self.variant)

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "seats": self.seats,
            "mode": self.mode,
            "hints": self.hints,
            "private": self.private,
            "timer": self.timer,
            "owner_sha256": self.owner_sha256,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        # tables stored before privacy and timers were public and untimed
        return cls(
            data["variant"],
            data["seats"],
            data["mode"],
            data["hints"],
            data.get("private", False),
            data.get("timer"),
            data.get("owner_sha256"),
        )


@dataclass
class Seat:
    """Who sits in a seat: a player (known by the hash of their secret token) or a bot."""

    name: str
    token_sha256: str | None = None
    client_seed: str | None = None
    bot: str | None = None
    """The bot's level, for a seat a bot plays."""

    reserved: bool = False
    """Kept for its player by a rematch, who has not sat down again yet."""

    away: bool = False
    """Its player ran out of time: a stand-in bot plays until the player is back."""

    left: bool = False
    """Its player resigned or left: a stand-in bot plays the game out."""

    resigned: bool = False

    @property
    def human(self) -> bool:
        return self.bot is None

    @property
    def present(self) -> bool:
        """A player who plays this seat themselves."""
        return self.bot is None and not self.away and not self.left


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def parse_action(data: Any) -> Action:
    """An action in its record form (``{"hold": [6, 6]}``, ``"stop"``) or, as a string, in its
    notation (``"throw"``, ``"hold 6 6"``); :class:`Refusal` ``bad_action`` otherwise."""
    try:
        return Action.parse(data) if isinstance(data, str) else from_json(data)
    except KostiError as error:
        raise Refusal("bad_action", why="parse", detail=str(error)) from None


class Table:
    """A table in memory. Only :meth:`apply` changes it; every other method only reads."""

    def __init__(
        self,
        table_id: str,
        settings: TableSettings,
        server_seed: bytes | None,
        bots: BotFactory,
        stand_in: str = "heuristic",
        levels: Sequence[str] = ("random", "heuristic", "optimal"),
    ):
        self.id = table_id
        self.settings = settings
        self.server_seed = server_seed
        self.rules = settings.rules()
        self.engine = engine_for(self.rules)
        self.version = 0
        """Events applied so far: every state a client sees carries it."""
        self.seats: list[Seat | None] = [None] * settings.seats
        self.order: list[int] = []
        """Seat numbers in playing order, once the game has started."""
        self.client_seed: str | None = None
        self.rolloff: list[dict[str, Any]] = []
        self.recorder: Recorder | None = None
        self.nonce = 0
        """Throws made with the fair dice so far (roll-off included): the next throw's nonce."""
        self.log: list[dict[str, Any]] = []
        self.moves: list[tuple[int, list[Action]]] = []
        """The actions of every ``action`` event still in force, with the seat that made them."""
        self.aside: list[dict[str, Any]] = []
        """«Тысяча»: the groups set aside in the turn in progress, each with the points it made."""
        self._planned: tuple[int, GameState, list[tuple[Action, GameState]]] | None = None
        """The last move planned: the version and state it was planned at, and each of its actions
        with the state after it, which :meth:`apply` takes instead of playing them again."""
        self.abandoned = False
        self.rematch: str | None = None
        """The table of the rematch, once one is offered."""
        self.stand_in = stand_in
        """The level of the bot that plays a seat whose player is away or has left."""
        self._bot_factory = bots
        self._bots: dict[int, Bot] = {}
        self._spec = self.rules.spec
        self._overrides = self.rules.overrides()
        self._bodies: dict[str, dict[str, Any]] = {}
        self._bodies_at = -1
        self._levels = tuple(levels)
        self._offered: list[str] | None = None

    def bot_levels(self) -> list[str]:
        """The bot levels a seat here can take: those of ``levels`` whose bot plays this very
        variant now (asked of the bot factory once; an unsolved full-size «Тысяча» has no optimal bot)."""
        if self._offered is None:
            offered = []
            for level in self._levels:
                try:
                    self._bot_factory(level, self.rules, 0)
                except KostiError:
                    continue
                offered.append(level)
            self._offered = offered
        return self._offered

    # -- reading -------------------------------------------------------------

    @property
    def online(self) -> bool:
        return self.settings.mode == "online"

    @property
    def state(self) -> GameState | None:
        return self.recorder.state if self.recorder else None

    @property
    def status(self) -> Literal["waiting", "playing", "finished", "abandoned"]:
        if self.recorder is None:
            return "waiting"
        if self.engine.is_finished(self.recorder.state):
            return "finished"
        return "abandoned" if self.abandoned else "playing"

    @property
    def over(self) -> bool:
        """Finished or abandoned: nothing more is played, the server seed may be shown."""
        return self.status in ("finished", "abandoned")

    def present(self) -> list[int]:
        """The seats whose players play them themselves (not a bot, not away, not gone)."""
        return [i for i, s in enumerate(self.seats) if s is not None and s.present]

    def seat_to_time(self) -> int | None:
        """The seat whose move the turn timer is running for: a player's, at a timed table."""
        if self.settings.timer is None or self.status != "playing":
            return None
        seat = self.current_seat()
        occupant = None if seat is None else self.seats[seat]
        return seat if occupant is not None and occupant.present else None

    def current_seat(self) -> int | None:
        """The seat to act, or ``None`` before the start and after the end."""
        if self.recorder is None:
            return None
        index = self.engine.current_player(self.recorder.state)
        return None if index is None else self.order[index]

    def bot_to_move(self) -> int | None:
        """The seat of the bot that must act now, if a bot must.

        A stand-in bot plays the seat of a player who is away or has left, while some
        player is still at the table; with every player away the game waits for them
        (and ends as abandoned when they do not come back in time).
        """
        seat = self.current_seat()
        if seat is None or self.abandoned:
            return None
        occupant = self.seats[seat]
        if occupant is None:
            return None
        if occupant.bot is not None:
            return seat
        return seat if not occupant.present and self.present() else None

    def _check_arranger(self, token: str) -> None:
        """:class:`Refusal` ``unknown_token`` unless ``token`` is a seated player's or the
        creator's (:attr:`TableSettings.owner_sha256`)."""
        owner = self.settings.owner_sha256
        if owner is not None and hmac.compare_digest(owner, token_hash(token)):
            return
        self.seat_of(token)

    def seat_of(self, token: str) -> int:
        """The seat whose secret token this is; :class:`Refusal` ``unknown_token`` otherwise."""
        digest = token_hash(token)
        for seat, occupant in enumerate(self.seats):
            if occupant and occupant.token_sha256 and hmac.compare_digest(occupant.token_sha256, digest):
                return seat
        raise Refusal("unknown_token")

    def fair(self) -> dict[str, Any] | None:
        """The ``"fair"`` object of the record: the server seed only once the game is over."""
        if self.server_seed is None:
            return None
        data: dict[str, Any] = {"server_seed_sha256": commitment(self.server_seed)}
        if self.client_seed is not None:
            data["client_seed"] = self.client_seed
        if self.over:
            data["server_seed"] = self.server_seed.hex()
        return data

    def record(self) -> Record:
        """The game's record (RULES.md §5) with the fair-dice keys; refused before the start."""
        if self.recorder is None:
            raise Refusal("not_started", why="record")
        kept = self.recorder.record
        extra: dict[str, Any] = {}
        fair = self.fair()
        if fair is not None:
            extra["fair"] = fair
        if self.rolloff:
            extra["rolloff"] = self.rolloff
        if self.abandoned:
            extra["abandoned"] = True
        if self.status == "finished":  # kosti verify catches legal decisions swapped between turns by it
            shown = summary(self.recorder.state)  # the same as kosti.server.fair.game_result
            scores = {p["name"]: p["score"] for p in shown["players"]}
            extra["result"] = {"scores": scores, "winner": shown["winner"]}
        turns = [Turn(t.player, list(t.actions)) for t in kept.turns]
        return Record(kept.variant, list(kept.players), turns, dict(kept.options), extra)

    def shown_name(self, seat: int, lang: str) -> str:
        """The name of ``seat`` as the page shows it: a bot's in the reader's language («Умник 2»)."""
        occupant = self.seats[seat]
        if occupant is None:
            return f"{seat + 1}"
        if occupant.bot is not None:
            return bot_name(occupant.bot, seat, lang)
        return occupant.name

    def view(self, lang: str = "en") -> dict[str, Any]:
        """Everything a client may see: public to every seat and spectator (no seed, no token).

        Names of bots and the log are worded in ``lang`` (:mod:`kosti.server.words`). A new
        dict each call (the caller may add to it); what it holds is shared and never changed.
        """
        data = dict(self.body(lang))
        data["log"] = self.log_after(max(0, self.version - LOG_TAIL), lang)
        return data

    def body(self, lang: str = "en") -> dict[str, Any]:
        """The view without its log, computed once a version and language: the same dict until
        the table changes, which callers must not change."""
        if self._bodies_at != self.version:
            self._bodies = {}
            self._bodies_at = self.version
        body = self._bodies.get(lang)
        if body is None:
            body = self._bodies[lang] = self._body(lang)
        return body

    def bodies(self) -> dict[str, dict[str, Any]]:
        """The views (:meth:`body`) computed so far of the table as it is, by language."""
        return dict(self._bodies) if self._bodies_at == self.version else {}

    def adopt_body(self, version: int, lang: str, body: dict[str, Any]) -> None:
        """Take ``body`` as :meth:`body` in ``lang`` at ``version`` (another process computed it from
        the same log), unless the table is at another version or has its own."""
        if version != self.version:
            return
        if self._bodies_at != version:
            self._bodies = {}
            self._bodies_at = version
        self._bodies.setdefault(lang, body)

    def log_after(self, version: int, lang: str = "en") -> list[dict[str, Any]]:
        """The log entries of the versions after ``version``, worded in ``lang``."""
        from kosti.server.words import log_lines

        shown = []
        # entry i of the log is the event of version i + 1
        for entry in self.log[max(0, version) :]:
            # an entry's lines never change once written: word each once a language
            worded = entry.setdefault(WORDED, {})
            if lang not in worded:
                worded[lang] = log_lines(self, entry, lang)
            item = {k: v for k, v in entry.items() if k not in ("events", WORDED)}
            item["lines"] = worded[lang]
            shown.append(item)
        return shown

    def _body(self, lang: str) -> dict[str, Any]:
        seats = [
            {
                "seat": i,
                "name": s.name if s else None,
                "shown": self.shown_name(i, lang) if s else None,
                "bot": s.bot if s else None,
                "reserved": bool(s and s.reserved),
                "away": bool(s and s.away),
                "left": bool(s and s.left),
                "resigned": bool(s and s.resigned),
            }
            for i, s in enumerate(self.seats)
        ]
        return {
            "id": self.id,
            "variant": self._spec,
            "preset": self.rules.preset.id,
            "family": self.rules.family,
            "options": self._overrides,
            "mode": self.settings.mode,
            "hints": self.settings.hints,
            "private": self.settings.private,
            "timer": self.settings.timer,
            "rematch": self.rematch,
            "seats": seats,
            "bot_levels": self.bot_levels() if self.online else [],
            "status": self.status,
            "order": list(self.order),
            "rolloff": self.rolloff,
            "fair": self.fair(),
            "game": self._game_view(lang),
        }

    def _game_view(self, lang: str) -> dict[str, Any] | None:
        if self.recorder is None:
            return None
        engine = self.engine
        state = self.recorder.state
        seat = self.current_seat()
        to_throw = engine.to_throw(state)
        decisions = [] if seat is None or to_throw else engine.decisions(state)
        players = self.recorder.record.players
        shown = [self.shown_name(s, lang) for s in self.order]
        return {
            "summary": summary(state),
            "players": players,
            "shown": dict(zip(players, shown, strict=True)),
            "turn": state.turn,
            "current": seat,
            "player": None if seat is None else self._name(seat),
            "to_throw": to_throw,
            "may_throw": bool(to_throw) or engine.implicit_throw(state) is not None,
            "decisions": [action_json(a) for a in decisions],
            "gains": engine.gains(state) if decisions else {},
            "dice": self._dice_on_table(),
            "aside": self.aside,
            "throws": [] if self.online else self._throws(),
            "finished": engine.is_finished(state),
            "winners": [players[i] for i in engine.winners(state)],
            "scores": engine.scores(state),
        }

    def _dice_on_table(self) -> list[int]:
        """The dice on the table in the turn in progress: those kept from before (where the state
        keeps all of them, as on a score sheet), then the last throw's faces in the order they came."""
        if self.recorder is None or not self.recorder.record.turns:
            return []
        last = self.recorder.record.turns[-1]
        if len(self.recorder.record.turns) <= self.recorder.state.turn:
            return []  # that turn is over
        thrown = next((list(a.faces) for a in reversed(last.actions) if isinstance(a, Roll)), [])
        kept = list(getattr(self.recorder.state, "dice", ()))
        for face in thrown:
            if face not in kept:
                return thrown  # the state's dice are not the throw's (set aside in «Тысяча»)
            kept.remove(face)
        return kept + thrown

    def _throws(self) -> list[dict[str, Any]]:
        """The throws typed in so far (scorekeeper), numbered from 1, each with its player."""
        throws: list[dict[str, Any]] = []
        for seat, actions in self.moves:
            for action in actions:
                if isinstance(action, Roll):
                    throws.append(
                        {"n": len(throws) + 1, "player": self._name(seat), "faces": list(action.faces)}
                    )
        return throws

    def _name(self, seat: int) -> str:
        occupant = self.seats[seat]
        return occupant.name if occupant else f"seat {seat + 1}"

    # -- planning (pure) -----------------------------------------------------

    def plan_join(
        self, name: str, client_seed: str | None, token: str | None = None
    ) -> tuple[list[Event], str]:
        """Events that seat a player in the first empty seat, and the player's secret token.

        With ``token``, the player takes the seat a rematch keeps for them (under its name).
        """
        if token is not None:
            return self._plan_rejoin(token, client_seed)
        seat = self._free_seat(None)
        name = self._check_name(name)
        if self.online and client_seed is None:
            # were the server to pick it, it would know both seeds before the first throw
            raise Refusal("no_seed")
        if client_seed is not None:
            try:
                combine_client_seeds([client_seed])  # refuse a malformed one now, not at the start
            except KostiError as error:
                raise Refusal("bad_seed", detail=str(error)) from None
        token = secrets.token_urlsafe(24)
        occupant = Seat(name, token_hash(token), client_seed)
        event: Event = (
            "join",
            {"seat": seat, "name": name, "token_sha256": occupant.token_sha256, "client_seed": client_seed},
        )
        return [event, *self._plan_start(seat, occupant)], token

    def _plan_rejoin(self, token: str, client_seed: str | None) -> tuple[list[Event], str]:
        seat = self.seat_of(token)
        occupant = self.seats[seat]
        if occupant is None or not occupant.reserved:
            raise Refusal("taken", why="you")
        if client_seed is not None:
            try:
                combine_client_seeds([client_seed])
            except KostiError as error:
                raise Refusal("bad_seed", detail=str(error)) from None
        sat = Seat(occupant.name, occupant.token_sha256, client_seed)
        event: Event = (
            "join",
            {
                "seat": seat,
                "name": occupant.name,
                "token_sha256": sat.token_sha256,
                "client_seed": client_seed,
            },
        )
        return [event, *self._plan_start(seat, sat)], token

    def plan_reserve(self, seats: list[Seat | None]) -> list[Event]:
        """Events that seat a rematch as the old table sat: bots at once, each player's seat kept."""
        events: list[Event] = []
        for seat, occupant in enumerate(seats):
            if occupant is None:
                continue
            if occupant.bot is not None:
                events.append(("bot", {"seat": seat, "name": occupant.name, "level": occupant.bot}))
            else:
                data = {"seat": seat, "name": occupant.name, "token_sha256": occupant.token_sha256}
                events.append(("reserve", data))
        return events

    def plan_rematch(self, token: str, table_id: str) -> list[Event]:
        """The event that offers the rematch at table ``table_id``, after the game is over."""
        self.seat_of(token)
        if not self.over:
            raise Refusal("not_finished")
        if self.rematch is not None:
            raise Refusal("rematch", table=self.rematch)
        return [("rematch", {"id": table_id})]

    def plan_leave(self, token: str, resign: bool) -> list[Event]:
        """A player resigns (and watches on) or leaves: before the start the seat is freed,
        during the game a stand-in bot plays it out; the game is abandoned when no player is left."""
        seat = self.seat_of(token)
        occupant = self.seats[seat]
        if self.over:
            raise Refusal("finished")
        if occupant is None or occupant.left:
            raise Refusal("left")
        events: list[Event] = [("leave", {"seat": seat, "resign": resign})]
        if self.recorder is not None:
            humans = [i for i, s in enumerate(self.seats) if s is not None and s.human and not s.left]
            if humans == [seat]:
                events.append(("abandon", {"why": "left"}))
        return events

    def plan_back(self, token: str) -> list[Event]:
        """A player whose turn ran out takes the seat back from the stand-in bot."""
        seat = self.seat_of(token)
        occupant = self.seats[seat]
        if occupant is None or not occupant.away or occupant.left or self.over:
            raise Refusal("not_away")
        return [("back", {"seat": seat})]

    def plan_timeout(self, seat: int, version: int) -> list[Event]:
        """The events when the turn of ``seat``, timed since ``version``, runs out: the seat goes
        to a stand-in bot; none if the table has moved on since."""
        if version != self.version or self.seat_to_time() != seat:
            return []
        return [("timeout", {"seat": seat})]

    def plan_abandon(self, version: int) -> list[Event]:
        """The game ends as abandoned when every player is still away at ``version``."""
        if version != self.version or self.status != "playing" or self.present():
            return []
        return [("abandon", {"why": "timeout"})]

    def plan_undo(self, token: str, version: int) -> list[Event]:
        """Scorekeeper: take back the last action (a throw typed in, or a decision)."""
        self._check_keeper(token, version)
        if not self.moves:
            raise Refusal("nothing_to_undo")
        return [("undo", {})]

    def plan_edit(self, token: str, version: int, throw: int, faces: list[int]) -> list[Event]:
        """Scorekeeper: change throw number ``throw`` (from 1) to ``faces``; the game is replayed
        from its record, and refused, changing nothing, when a later move no longer fits."""
        self._check_keeper(token, version)
        moves = self._moves_with(throw, faces)
        try:
            self._replay(moves)
        except KostiError as error:
            raise Refusal(
                "bad_edit", why="replay", throw=throw, roll=list(faces), refusal=refusal_of(error)
            ) from None
        return [("edit", {"throw": throw, "faces": list(faces)})]

    def _check_keeper(self, token: str, version: int) -> None:
        self.seat_of(token)
        if self.online:
            raise Refusal("bad_action", why="typed")
        if version != self.version:
            raise Refusal("stale", why="look", version=self.version)
        if self.recorder is None:
            raise Refusal("not_started", why="game")

    def _moves_with(self, throw: int, faces: list[int]) -> list[tuple[int, list[Action]]]:
        """The moves with throw ``throw`` (from 1) made ``faces``; :class:`Refusal` if there is none."""
        count = 0
        moves = []
        found = False
        for seat, actions in self.moves:
            changed = []
            for action in actions:
                if isinstance(action, Roll):
                    count += 1
                    if count == throw:
                        if len(faces) != len(action.faces):
                            raise Refusal(
                                "bad_edit", why="size", throw=throw, n=len(action.faces), got=len(faces)
                            )
                        action = Roll(tuple(faces))
                        found = True
                changed.append(action)
            moves.append((seat, changed))
        if not found:
            raise Refusal("bad_edit", why="none", throw=throw, n=count)
        return moves

    def plan_bot(self, token: str, seat: int | None, level: str) -> list[Event]:
        """Events that seat a bot of ``level`` (in ``seat``, or the first empty one), asked by a
        seated player or the table's creator (``token``): nobody else may fill a table."""
        self._check_arranger(token)
        if not self.online:
            raise Refusal("no_bots", why="keeper")
        seat = self._free_seat(seat)
        try:
            self._bot_factory(level, self.rules, 0)
        except KostiError as error:
            raise Refusal("no_bots", why="level", detail=str(error)) from None
        name = self._bot_name(level, seat)
        occupant = Seat(name, bot=level)
        return [("bot", {"seat": seat, "name": name, "level": level}), *self._plan_start(seat, occupant)]

    def plan_action(self, token: str, version: int, data: Any) -> list[Event]:
        """The event of a player's action (the throws it causes included), after every check."""
        seat = self.seat_of(token)
        if version != self.version:
            raise Refusal("stale", why="action", version=self.version, yours=version)
        self._check_turn(seat)
        if self.over:
            raise Refusal("finished")
        occupant = self.seats[seat]
        if occupant is not None and not occupant.present:
            raise Refusal("away")
        actions = self._message_actions(data)
        played: list[Action] = []
        state = self.recorder.state if self.recorder else None
        steps: list[tuple[Action, GameState]] = []
        for i, action in enumerate(actions):
            last = i == len(actions) - 1
            more, after = self._play(action, state, steps, throw_dice=last)
            played.extend(more)
            if not last and state is not None:
                self._check_goes_on(state, after)
            state = after
        if self.recorder is not None:
            self._planned = (self.version, self.recorder.state, steps)
        return [("action", {"seat": seat, "actions": [action_json(a) for a in played]})]

    def plan_bot_move(self) -> list[Event]:
        """The event of the bot whose turn it is (a throw when dice are due); none if no bot must act."""
        seat = self.bot_to_move()
        if seat is None or self.recorder is None:
            return []
        state = self.recorder.state
        action: Action = Throw()
        if not self.engine.to_throw(state):
            action = self._bot(seat).choose(state)
        try:
            played, _ = self._play(action, state)
        except Refusal as refusal:
            # a bot that breaks the rules must not stall the table
            log.warning("bot %s at table %s chose %s: %s", self._name(seat), self.id, action, refusal.reason)
            played, _ = self._play(self.engine.decisions(state)[0], state)
        return [("action", {"seat": seat, "actions": [action_json(a) for a in played]})]

    def check_hint(self, token: str, version: int) -> GameState:
        """The state a hint is asked for, after checking the table offers hints and it is the seat's turn."""
        seat = self.seat_of(token)
        if not self.settings.hints:
            raise Refusal("no_hints", why="table")
        if version != self.version:
            raise Refusal("stale", why="look", version=self.version)
        self._check_turn(seat)
        if self.recorder is None or self.engine.to_throw(self.recorder.state):
            raise Refusal("no_hints", why="throw")
        return self.recorder.state

    def _free_seat(self, seat: int | None) -> int:
        if self.recorder is not None:
            raise Refusal("started")
        if seat is None:
            for i, occupant in enumerate(self.seats):
                if occupant is None:
                    return i
            raise Refusal("full")  # pragma: no cover - a full table has started
        if not 0 <= seat < len(self.seats):
            raise Refusal("bad_seat", last=len(self.seats) - 1, seat=seat)
        if self.seats[seat] is not None:
            raise Refusal("taken", why="seat", seat=seat)
        return seat

    def free_seats(self) -> int:
        """Seats nobody holds (a rematch's kept seats are held)."""
        return sum(1 for s in self.seats if s is None)

    def _check_name(self, name: str) -> str:
        """The name normalised (:func:`~kosti.server.limits.normalize_name`), unless it looks like
        (same skeleton: case and lookalike letters aside) a name shown at this table in any
        language, a bot's included, or the name a bot of this server is shown under."""
        name = normalize_name(name)
        mine = skeleton(name)
        if mine in bot_skeletons((*self._levels, self.stand_in)):
            raise Refusal("name_taken", why="bot", name=name)
        for seat, occupant in enumerate(self.seats):
            if occupant is None:
                continue
            for shown in (occupant.name, *(self.shown_name(seat, lang) for lang in LANGUAGES)):
                if skeleton(shown) == mine:
                    raise Refusal("name_taken", why="player", name=shown)
        return name

    def _bot_name(self, level: str, seat: int) -> str:
        taken = {s.name.casefold() for s in self.seats if s}
        name = f"{level} bot {seat + 1}"
        k = 2
        while name.casefold() in taken:
            name = f"{level} bot {seat + 1}.{k}"
            k += 1
        return name

    def _plan_start(self, seat: int, occupant: Seat) -> list[Event]:
        """The ``start`` event when ``occupant`` takes the last empty seat."""
        seats = list(self.seats)
        seats[seat] = occupant
        if any(s is None or s.reserved for s in seats):
            return []
        names = [s.name for s in seats if s]
        order = list(range(len(seats)))
        throws: list[dict[str, Any]] = []
        client_seed = None
        if self.server_seed is not None:
            parts = [s.client_seed for s in seats if s and s.client_seed]
            # every player brings a part (plan_join); a table of bots alone follows the rule
            # published with the commitment: its client seed is the commitment itself
            client_seed = combine_client_seeds(parts) if parts else commitment(self.server_seed)
            if self.rules.options.first_player == "rolloff":
                order, throws = rolloff(names, FairDice(self.server_seed, client_seed))
        return [("start", {"order": order, "client_seed": client_seed, "rolloff": throws})]

    def _check_turn(self, seat: int) -> None:
        if self.recorder is None:
            empty = sum(1 for s in self.seats if s is None)
            raise Refusal("not_started", why="seats", n=empty)
        current = self.current_seat()
        if current is None:
            raise Refusal("finished")
        if current != seat:
            raise Refusal("not_your_turn", player=self._name(current), you=self._name(seat))

    def _message_actions(self, data: Any) -> list[Action]:
        """The actions of one message, parsed and checked for form before any is played: one
        action, or a list of up to :data:`MAX_MESSAGE_ACTIONS` played as one move (a scorekeeper's
        hold and the throw typed in after it); at an online table a throw comes only last."""
        items = data if isinstance(data, list) else [data]
        if not 1 <= len(items) <= MAX_MESSAGE_ACTIONS:
            raise Refusal("bad_action", why="size", n=MAX_MESSAGE_ACTIONS)
        actions = [parse_action(item) for item in items]
        if self.online and any(isinstance(action, Throw | Roll) for action in actions[:-1]):
            raise Refusal("throw_last", why="message")
        return actions

    def _check_goes_on(self, before: GameState, after: GameState) -> None:
        """Between two actions of one message: the mover's turn goes on, and at an online table
        no die is due (the server throws only after the message's last action, so that nothing
        in the answer depends on dice nobody has seen). :class:`Refusal` otherwise."""
        engine = self.engine
        if (
            after.turn != before.turn
            or engine.is_finished(after)
            or engine.current_player(after) != engine.current_player(before)
        ):
            raise Refusal("one_turn")
        if self.online and engine.to_throw(after):
            raise Refusal("throw_last", why="action")

    def _play(
        self,
        action: Action,
        state: GameState | None,
        steps: list[tuple[Action, GameState]] | None = None,
        throw_dice: bool = True,
    ) -> tuple[list[Action], GameState]:
        """The actions ``action`` stands for at ``state``, the throws it causes included, and the
        state after them; nothing is changed. ``steps``, if given, gets each action with the
        state after it. ``throw_dice=False`` plans the action alone, the fair throws it causes
        left out (an action that is not the last of its message, :meth:`_check_goes_on`).

        ``throw`` (:class:`Throw`) means "throw now": the decision that a throw implies
        (holding nothing, throwing on) and the throw. At an online table the server
        throws: after a decision, every throw due in the same turn is made at once; the
        first throw of a turn waits for the player's ``throw``. At a scorekeeper table
        the dice are typed in as ``roll`` actions.
        """
        if self.recorder is None or state is None:  # pragma: no cover - _check_turn comes first
            raise Refusal("not_started", why="game")
        engine = self.engine
        played: list[Action] = []
        turn = state.turn
        try:
            if isinstance(action, Throw | Roll):
                if isinstance(action, Throw) and not self.online:
                    raise Refusal("bad_action", why="send_roll")
                if isinstance(action, Roll) and self.online:
                    raise Refusal("bad_action", why="send_throw")
                if engine.to_throw(state) == 0:
                    implied = engine.implicit_throw(state)
                    if implied is None:
                        implied = Throw()  # an engine where throwing on has no implied form
                        if implied not in engine.decisions(state):
                            raise Refusal("no_throw")
                    state = engine.apply(state, implied)
                    played.append(implied)
                    if steps is not None:
                        steps.append((implied, state))
                if isinstance(action, Roll):
                    state = engine.apply(state, action)
                    played.append(action)
                    if steps is not None:
                        steps.append((action, state))
            else:
                state = engine.apply(state, action)
                played.append(action)
                if steps is not None:
                    steps.append((action, state))
            if throw_dice and self.online and self.server_seed is not None and self.client_seed is not None:
                dice = FairDice(self.server_seed, self.client_seed, self.nonce)
                for _ in range(MAX_CHAINED_THROWS):
                    n = engine.to_throw(state)
                    if not n or state.turn != turn or engine.is_finished(state):
                        break
                    roll = Roll(dice.roll(n))
                    state = engine.apply(state, roll)
                    played.append(roll)
                    if steps is not None:
                        steps.append((roll, state))
        except Refusal:
            raise
        except RuleRefusal as refusal:  # the engine's refusal, its code and params kept
            raise Refusal.of(refusal) from None
        except KostiError as error:  # pragma: no cover - the engines refuse with codes
            raise Refusal("illegal", detail=str(error)) from None
        return played, state

    def _bot(self, seat: int) -> Bot:
        bot = self._bots.get(seat)
        if bot is None:
            occupant = self.seats[seat]
            level = occupant.bot if occupant and occupant.bot else self.stand_in
            seed = int.from_bytes(hashlib.sha256(f"{self.id}:{seat}".encode()).digest()[:8], "big")
            bot = self._bots[seat] = self._bot_factory(level, self.rules, seed)
        return bot

    # -- changing ------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Apply one planned or stored event: the only way a table changes."""
        kind, data = event
        entry: dict[str, Any] = {"kind": kind}
        if kind == "join":
            self.seats[data["seat"]] = Seat(data["name"], data["token_sha256"], data["client_seed"])
            entry.update(seat=data["seat"], name=data["name"])
        elif kind == "bot":
            self.seats[data["seat"]] = Seat(data["name"], bot=data["level"])
            entry.update(seat=data["seat"], name=data["name"], level=data["level"])
        elif kind == "reserve":
            self.seats[data["seat"]] = Seat(data["name"], data["token_sha256"], reserved=True)
            entry.update(seat=data["seat"], name=data["name"])
        elif kind == "start":
            self.order = list(data["order"])
            self.client_seed = data["client_seed"]
            self.rolloff = list(data["rolloff"])
            self.nonce = len(self.rolloff)
            players = [self._name(seat) for seat in self.order]
            self.recorder = Recorder(self.rules, players)
            entry.update(players=players, rolloff=self.rolloff)
        elif kind == "action":
            if self.recorder is None:
                raise KostiError(f"table {self.id}: an action before the start")
            actions = [parse_action(item) for item in data["actions"]]
            planned = self._planned
            steps = None
            if planned is not None and planned[0] == self.version and planned[1] is self.recorder.state:
                steps = planned[2]
            entry["events"], self.aside = self._apply_actions(self.recorder, actions, self.aside, steps)
            self.moves.append((data["seat"], actions))
            self.nonce += sum(1 for a in actions if isinstance(a, Roll)) if self.online else 0
            entry.update(player=self._name(data["seat"]), seat=data["seat"], actions=data["actions"])
        elif kind in ("undo", "edit"):
            if kind == "undo":
                self.moves.pop()
            else:
                self.moves = self._moves_with(data["throw"], data["faces"])
                entry.update(throw=data["throw"], faces=data["faces"])
            self.recorder, self.aside = self._replay(self.moves)
        elif kind in ("timeout", "back", "leave"):
            seat = data["seat"]
            occupant = self.seats[seat]
            if occupant is None:
                raise KostiError(f"table {self.id}: {kind} of the empty seat {seat}")
            if kind == "leave" and self.recorder is None:
                self.seats[seat] = None  # before the start a seat is simply freed
            elif kind == "leave":
                occupant.left = True
                occupant.resigned = bool(data["resign"])
            else:
                occupant.away = kind == "timeout"
            entry.update(seat=seat, name=occupant.name, resign=bool(data.get("resign")))
        elif kind == "abandon":
            self.abandoned = True
            entry.update(why=data["why"])
        elif kind == "rematch":
            self.rematch = data["id"]
            entry.update(id=data["id"])
        else:
            raise KostiError(f"table {self.id}: unknown event {kind!r}")
        self.version += 1
        self._planned = None
        entry["version"] = self.version
        self.log.append(entry)

    def _apply_actions(
        self,
        recorder: Recorder,
        actions: list[Action],
        aside: list[dict[str, Any]],
        planned: list[tuple[Action, GameState]] | None = None,
    ) -> tuple[list[Any], list[dict[str, Any]]]:
        """Apply ``actions`` to ``recorder``: the core's events of them (:mod:`kosti.events`) and the
        «Тысяча» groups set aside after them (``aside`` before).

        ``planned``: the same actions as :meth:`_play` planned them from the recorder's state,
        each with the state after it. Those states are taken as they are (the engine is pure:
        playing the actions again would give the same), as long as each action is one step
        of the record (:func:`~kosti.record.written_steps`)."""
        if planned is not None and [a for a, _ in planned] != actions:
            planned = None
        events: list[Any] = []
        for i, action in enumerate(actions):
            before = recorder.state
            if planned is not None and written_steps(self.engine, before, action) == [action]:
                after = planned[i][1]
                recorder.log(before, action, after)
            else:
                planned = None
                after = recorder.apply(action)
            events.extend(getattr(after, "events", ()))
            aside = self._aside_after(aside, before, after)
        return events, aside

    def _aside_after(
        self, aside: list[dict[str, Any]], before: GameState, after: GameState
    ) -> list[dict[str, Any]]:
        """«Тысяча»: ``aside`` with the group of dice newly set aside (by the player or by the rules)
        and its points; empty when a new turn begins."""
        if self.rules.family != "thousand":
            return aside
        if after.turn != before.turn:
            return []
        old: tuple[int, ...] = getattr(before, "set_aside", ())
        new: tuple[int, ...] = getattr(after, "set_aside", ())
        if len(new) <= len(old):
            return aside
        group = list(new)
        for face in old:
            group.remove(face)
        points = getattr(after, "turn_total", 0) - getattr(before, "turn_total", 0)
        return [*aside, {"dice": group, "points": points}]

    def _replay(self, moves: list[tuple[int, list[Action]]]) -> tuple[Recorder, list[dict[str, Any]]]:
        """The game played from the start with ``moves``: its recorder and the «Тысяча» groups set
        aside; :class:`KostiError` when one of the moves breaks the rules."""
        if self.recorder is None:
            raise KostiError("the game has not started")
        recorder = Recorder(self.rules, list(self.recorder.record.players))
        aside: list[dict[str, Any]] = []

        def set_aside(_: Action, before: GameState, after: GameState) -> None:
            nonlocal aside
            aside = self._aside_after(aside, before, after)

        play_again(recorder, [action for _, actions in moves for action in actions], each=set_aside)
        return recorder, aside


@functools.cache
def bot_skeletons(levels: tuple[str, ...]) -> frozenset[str]:
    """The skeletons of every name a bot of ``levels`` may be shown under, in every language
    and seat: no player may sit down under one of them («Умник 2» beside the bot «Умник 2»)."""
    return frozenset(
        skeleton(bot_name(level, seat, lang))
        for level in levels
        for seat in range(MAX_SEATS)
        for lang in LANGUAGES
    )


def bot_name(level: str, seat: int, lang: str) -> str:
    """A bot's name in ``lang``: its level's name in the catalog and its seat («Умник 2», "Smart 2")."""
    from kosti.i18n import catalog

    t = catalog("ru" if lang == "ru" else "en")
    key = f"bot.{level}"
    return f"{t(key) if t.has(key) else level} {seat + 1}"
