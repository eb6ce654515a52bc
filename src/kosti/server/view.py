"""What a client sees of a table: its seats, its game and the turn as the player to act sees it, and its log.

The view is public, the same for every seat and spectator (no seed, no token), and worded in
the reader's language: bots' names and the log's lines (:mod:`kosti.server.words`), and the
refusals of the turn view. The turn itself is the family's own turn view
(:func:`kosti.games.turn_view`: the dice on the table, those set aside with their points, what
the throw and stop keys do and why they are closed), never worked out here.

A view is computed once a version and language and shared by every socket that is sent it,
so that a crowd watching a table costs one view a change, not one a socket.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any, assert_never

from kosti.actions import action_json
from kosti.errors import Refusal as RuleRefusal
from kosti.games import turn_view
from kosti.games.turn import TurnView
from kosti.i18n import refusal_text
from kosti.server import wire
from kosti.server.events import (
    Abandon,
    Back,
    BotSeated,
    Edit,
    Join,
    Leave,
    Move,
    Rematch,
    Reserve,
    Start,
    Timeout,
    Undo,
)
from kosti.server.table import LogEntry, Table
from kosti.server.words import log_lines, move_as_played, shown_name
from kosti.show import summary

LOG_TAIL = 60
"""Log entries sent with every whole state (the whole game is in the record)."""


class TableView:
    """The views of one table, computed as asked and kept until the table changes."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._bodies: dict[str, dict[str, Any]] = {}
        self._bodies_at = -1
        self._game: tuple[int, dict[str, Any], TurnView] | None = None
        """The language-free part of the game's view, and the turn view, at a version."""
        self._lines: dict[tuple[int, str], list[str]] = {}
        """The lines of each log entry (by its version) in each language, worded once (again
        after the game is played again: :attr:`Table.replays`)."""
        self._lines_of = 0
        """The :attr:`Table.replays` the lines were worded at."""

    def full(self, lang: str = "en") -> dict[str, Any]:
        """Everything a client may see, worded in ``lang``, with the last :data:`LOG_TAIL` log
        entries. A new dict each call (the caller may add to it); what it holds is shared and
        never changed."""
        data = dict(self.body(lang))
        data["log"] = self.log_after(max(0, self.table.version - LOG_TAIL), lang)
        return data

    def body(self, lang: str = "en") -> dict[str, Any]:
        """The view without its log, computed once a version and language: the same dict until
        the table changes, which callers must not change."""
        if self._bodies_at != self.table.version:
            self._bodies = {}
            self._bodies_at = self.table.version
        body = self._bodies.get(lang)
        if body is None:
            body = self._bodies[lang] = self._body(lang)
        return body

    def bodies(self) -> dict[str, dict[str, Any]]:
        """The views (:meth:`body`) computed so far of the table as it is, by language."""
        return dict(self._bodies) if self._bodies_at == self.table.version else {}

    def adopt_body(self, version: int, lang: str, body: dict[str, Any]) -> None:
        """Take ``body`` as :meth:`body` in ``lang`` at ``version`` (another process computed it from
        the same log), unless the table is at another version or has its own."""
        if version != self.table.version:
            return
        if self._bodies_at != version:
            self._bodies = {}
            self._bodies_at = version
        self._bodies.setdefault(lang, body)

    def log_after(self, version: int, lang: str = "en") -> list[dict[str, Any]]:
        """The log entries of the versions after ``version``, worded in ``lang``."""
        shown = []
        if self._lines_of != self.table.replays:
            self._lines = {}  # an undo or an edit: the moves before may read otherwise now
            self._lines_of = self.table.replays
        # entry i of the log is the event of version i + 1
        for entry in self.table.log[max(0, version) :]:
            # an entry's lines never change once written: word each once a language
            lines = self._lines.get((entry.version, lang))
            if lines is None:
                lines = self._lines[entry.version, lang] = log_lines(self.table, entry, lang)
            shown.append({**self._entry(entry), "lines": lines})
        return shown

    def _entry(self, entry: LogEntry) -> dict[str, Any]:
        """A log entry as the page reads it: its kind, whom it is about, and its version."""
        event = entry.event
        item: dict[str, Any] = {"kind": event.kind}
        match event:
            case Join() | Reserve():
                item.update(seat=event.seat, name=event.name)
            case BotSeated():
                item.update(seat=event.seat, name=event.name, level=event.level)
            case Start():
                players = self.table.game.players if self.table.game else []
                item.update(players=players, rolloff=list(event.rolloff))
            case Move():
                actions, caused = move_as_played(self.table, entry)
                players = self.table.game.players if self.table.game else []
                item.update(
                    player=entry.name,
                    seat=event.seat,
                    actions=[action_json(a) for a in actions],
                    # why scores changed (RULES.md §5.1): the page shows a throw that ended the
                    # turn (a bust, a dot, a win) before the next player's cup
                    events=[e.to_json(players) for e in caused],
                )
            case Edit():
                item.update(throw=event.throw, faces=list(event.faces))
            case Leave():
                item.update(seat=event.seat, name=entry.name, resign=event.resign)
            case Abandon():
                item.update(why=event.why)
            case Rematch():
                item.update(id=event.id)
            case Timeout() | Back():
                item.update(seat=event.seat, name=entry.name, resign=False)
            case Undo():
                pass
            case _:
                assert_never(event)
        item["version"] = entry.version
        return item

    def _body(self, lang: str) -> dict[str, Any]:
        table = self.table
        seats = [
            {
                "seat": i,
                "name": s.name if s else None,
                "shown": shown_name(table, i, lang) if s else None,
                "bot": s.bot if s else None,
                "reserved": bool(s and s.reserved),
                "away": bool(s and s.away),
                "left": bool(s and s.left),
                "resigned": bool(s and s.resigned),
            }
            for i, s in enumerate(table.seats)
        ]
        return {
            "id": table.id,
            "variant": table.rules.spec,
            "preset": table.rules.preset.id,
            "family": table.rules.family,
            "options": table.rules.overrides(),
            "mode": table.settings.mode,
            "hints": table.settings.hints,
            "private": table.settings.private,
            "timer": table.settings.timer,
            "rematch": table.rematch,
            "seats": seats,
            "bot_levels": table.bots.offered() if table.online else [],
            "status": table.status,
            "order": list(table.order),
            "rolloff": table.rolloff,
            "fair": table.fair(),
            "game": self._game_view(lang),
        }

    def _game_view(self, lang: str) -> dict[str, Any] | None:
        """The game in ``lang``: the parts of every language (:meth:`_game_common`), the players'
        names as shown, and the turn view with its refusals worded."""
        table = self.table
        if table.game is None:
            return None
        common, turn = self._game_common()
        shown = [shown_name(table, seat, lang) for seat in table.order]
        return {
            **common,
            "shown": dict(zip(table.game.players, shown, strict=True)),
            "turn_view": worded(turn, lang),
        }

    def _game_common(self) -> tuple[dict[str, Any], TurnView]:
        if self._game is not None and self._game[0] == self.table.version:
            return self._game[1], self._game[2]
        table = self.table
        game = table.game
        if game is None:  # pragma: no cover - asked only once the game has started
            raise ValueError("the game has not started")
        engine = table.engine
        state = game.state
        seat = table.current_seat()
        turn = turn_view(state)
        players = game.players
        common = {
            "summary": summary(state),
            "players": players,
            "turn": state.turn,
            "current": seat,
            "player": None if seat is None else table.name_of(seat),
            "to_throw": turn.to_throw,
            "may_throw": bool(turn.to_throw) or engine.implicit_throw(state) is not None,
            "decisions": [action_json(a) for a in turn.open],
            "gains": engine.gains(state) if turn.open else {},
            "throws": [] if table.online else self._throws(),
            "finished": engine.is_finished(state),
            "winners": [players[i] for i in engine.winners(state)],
            "scores": engine.scores(state),
        }
        self._game = (table.version, common, turn)
        return common, turn

    def _throws(self) -> list[dict[str, Any]]:
        """The throws typed in so far (scorekeeper), numbered from 1, each with its player."""
        game = self.table.game
        throws = [] if game is None else game.throws()
        return [
            {"n": n, "player": self.table.name_of(seat), "faces": list(faces)}
            for n, (seat, faces) in enumerate(throws, 1)
        ]


def worded(turn: TurnView, lang: str) -> dict[str, Any]:
    """The turn view as data (:meth:`TurnView.to_json`), each refusal as its code, its params and
    its wording in ``lang`` (``reason``, as the socket's refusals are worded)."""
    # the refusals are worded here alone: to_json's own English text of each would be thrown away
    bare = replace(
        turn, closed=(), throw=replace(turn.throw, refusal=None), stop=replace(turn.stop, refusal=None)
    )
    data = bare.to_json()
    data["throw"]["refusal"] = _refusal(turn.throw.refusal, lang)
    data["stop"]["refusal"] = _refusal(turn.stop.refusal, lang)
    data["closed"] = [
        {"action": action_json(action), "refusal": _refusal(why, lang)} for action, why in turn.closed
    ]
    return data


def _refusal(error: RuleRefusal | None, lang: str) -> dict[str, Any] | None:
    if error is None:
        return None
    params = dict(error.params)
    return {"code": error.code, "params": params, "reason": _reason(error.code, wire.text(params), lang)}


@functools.lru_cache(maxsize=4096)
def _reason(code: str, params: str, lang: str) -> str:
    """The wording of a refusal, by its code and its params' JSON text: a sheet's closed cells are
    refused the same way move after move, and wording one takes longer than the rest of a view."""
    return refusal_text(RuleRefusal(code, **wire.parse(params)), lang)
