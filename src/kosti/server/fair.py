"""Provably fair dice at an online table: the roll-off, the client seed, and checking a record.

Before the first throw a table shows the SHA-256 of its secret server seed (the
commitment). The players' browsers contribute the client seed. Every die is then
:func:`kosti.roller.fair_die` of the two seeds and a running throw counter (the
nonce), starting at 0 with the roll-off. When the game ends the server seed is
revealed, and :func:`verify` recomputes every die of the record from it.

A fair record carries, besides the usual keys of RULES.md §5::

    "fair": {"server_seed_sha256": "…", "client_seed": "…", "server_seed": "…"},
    "rolloff": [{"player": "Anna", "roll": [3, 6, 2, 6, 1]}, …]

``rolloff`` lists the throws of the roll-off for who starts (RULES.md §0) in the
order they were made; it is absent when the seating order decided. A finished game's
record also carries its result, ``"result": {"scores": {name: score, …}, "winner":
name | null}`` (:func:`game_result`), and a game that ended because nobody was left
to play it is marked ``"abandoned": true``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from kosti.actions import Roll
from kosti.errors import KostiError, RecordError
from kosti.games import engine_for
from kosti.games.base import GameState
from kosti.record import Record, states
from kosti.roller import DiceSource, FairDice
from kosti.rolloff import roll_off, rotate
from kosti.show import summary

CLIENT_SEED_PART = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What one player's browser may contribute to the client seed."""


def combine_client_seeds(parts: Sequence[str]) -> str:
    """The client seed of a table: the players' contributions in seat order, joined by dots.

    Kept readable rather than hashed so that every player can find their own part in it.
    """
    for part in parts:
        if not CLIENT_SEED_PART.fullmatch(part):
            raise KostiError(f"a client seed is 1 to 64 letters, digits, - or _, not {part!r}")
    return ".".join(parts)


def rolloff(players: Sequence[str], dice: DiceSource) -> tuple[list[int], list[dict[str, Any]]]:
    """Who starts (:func:`kosti.rolloff.roll_off`): the seats in playing order, and every throw.

    Throws are ``{"player", "roll"}`` in the order made (faces sorted, as the roll-off keeps them).
    """
    result = roll_off(players, dice)
    order = [list(players).index(name) for name in rotate(players, result.starter)]
    throws = [{"player": throw.player, "roll": list(throw.faces)} for throw in result.throws]
    return order, throws


Status = Literal["fair", "not_fair", "incomplete"]
"""The verdict of ``kosti verify``: only ``fair`` exits 0 (RULES.md §6)."""


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify` found."""

    fair: bool
    """Nothing in the record contradicts the seeds or the rules: every die checked is what the
    seeds give, every decision is legal and the result (where recorded) is the decisions' one.
    An incomplete record can be fair; :attr:`status` is the verdict."""

    throws: int
    """Throws checked (roll-off included) up to and including the first bad one."""

    dice: int
    """Dice checked."""

    reason: str
    """One line: what was checked, or the first difference (a throw, a decision, the result),
    or where an incomplete record stops."""

    complete: bool = False
    """The record reaches the end of the game, or the server marked it abandoned. False too when
    the check stopped at a difference before the end."""

    abandoned: bool = False
    """The record is complete because the server marked the game abandoned (not because it is over)."""

    @property
    def status(self) -> Status:
        """``not_fair`` when something differs, else ``incomplete`` when the game goes on past
        the record, else ``fair``."""
        if not self.fair:
            return "not_fair"
        return "fair" if self.complete else "incomplete"


def fair_seeds(record: Record) -> tuple[bytes, str, str]:
    """The server seed, the client seed and the commitment of a fair record.

    Raises :class:`RecordError` when the record has no ``"fair"`` object or its seeds
    are missing or malformed (for instance, the game is not over and the seed not revealed).
    """
    fair = record.extra.get("fair")
    if not isinstance(fair, dict):
        raise RecordError('the record has no "fair" object: it was not played with provably fair dice')
    commitment = fair.get("server_seed_sha256")
    client_seed = fair.get("client_seed")
    server_seed = fair.get("server_seed")
    if not isinstance(commitment, str) or not re.fullmatch(r"[0-9a-f]{64}", commitment):
        raise RecordError('"fair.server_seed_sha256" must be 64 lowercase hex digits')
    if not isinstance(client_seed, str):
        raise RecordError('"fair.client_seed" must be a string')
    if server_seed is None:
        raise RecordError("the server seed is not revealed yet: it is revealed when the game ends")
    if not isinstance(server_seed, str) or not re.fullmatch(r"(?:[0-9a-f]{2})+", server_seed):
        raise RecordError('"fair.server_seed" must be hex digits')
    return bytes.fromhex(server_seed), client_seed, commitment


def game_result(state: GameState) -> dict[str, Any]:
    """The ``"result"`` of a finished game's record: ``{"scores": {name: score, …}, "winner":
    name | None}``, each score as ``kosti replay --json`` reports it (:func:`kosti.show.summary`)
    and the winner ``None`` when first place is shared. The server writes the same
    (:meth:`kosti.server.table.Table.record`)."""
    shown = summary(state)
    return {"scores": {p["name"]: p["score"] for p in shown["players"]}, "winner": shown["winner"]}


def verify(record: Record) -> Verdict:
    """Check ``record`` as ``kosti verify`` does (RULES.md §6): every die, every decision, the end.

    The record is replayed through the rules in the order played; the first difference is
    the verdict (not fair, :attr:`Verdict.reason` names it):

    * the revealed seed does not hash to the commitment, a roll-off throw or the order of
      play is not what the seeds give;
    * a recorded throw differs from the seeds (turn, action, player, both throws);
    * a decision the rules refuse, a turn filed under the name of a player whose turn it
      is not, an action after the end of a turn or of the game (turn, action where there
      is one, the player the record names, the engine's reason);
    * the game is over and its recorded ``result`` is not the decisions' one: decisions
      swapped between turns that stay legal change the scores, and nothing else shows it.
      A record without ``result`` (written before the server kept one) skips this check,
      and the reason says so.

    With nothing different, a game that is over is ``fair``, and so is a game the server
    marked ``"abandoned": true`` (complete as far as it went); any other game is
    ``incomplete``, the reason saying where the record stops.

    Not closed from the record alone: the server reveals the seed of an abandoned game as of
    a finished one, and nothing in the record is signed, so whoever cuts a finished game's
    record short, drops its ``result`` and adds ``"abandoned": true`` gets a record that
    verifies as abandoned (one marked abandoned that keeps its ``result`` is not fair: the
    server writes a result only for a finished game). Only the server's own copy of the
    record, or a signature the record does not have, tells the two apart. Likewise an
    older record without ``result`` cannot show decisions swapped between turns that stay
    legal.

    A record that is malformed or lacks the seeds raises :class:`RecordError`, as does one
    whose rules or players the game cannot start with.
    """
    server_seed, client_seed, commitment = fair_seeds(record)
    abandoned = record.extra.get("abandoned", False)
    if not isinstance(abandoned, bool):
        raise RecordError('"abandoned" must be true or false')
    recorded = _recorded_result(record)
    if hashlib.sha256(server_seed).hexdigest() != commitment:
        return Verdict(False, 0, 0, "the revealed server seed does not hash to the commitment shown")
    counter = _Throws(FairDice(server_seed, client_seed))
    raw_rolloff = record.extra.get("rolloff")
    if raw_rolloff is None and len(record.players) > 1 and record.rules().options.first_player == "rolloff":
        return Verdict(
            False, 0, 0, "the rules call for a roll-off, and the record has none: who chose the starter?"
        )
    if raw_rolloff is not None:
        throws = _rolloff_throws(raw_rolloff)
        seats = [t["player"] for t in throws[: len(record.players)]]
        order, expected = rolloff(seats, counter.dice)
        for k, (got, want) in enumerate(zip(throws, expected, strict=False), 1):
            counter.count(want["roll"])
            if got["player"] != want["player"] or sorted(got["roll"]) != want["roll"]:
                reason = (
                    f"roll-off throw {k} ({got['player']}): recorded {_faces(got['roll'])}, "
                    f"the seeds give {want['player']} {_faces(want['roll'])}"
                )
                return counter.verdict(False, reason)
        if len(throws) != len(expected):
            return counter.verdict(False, f"the roll-off took {len(expected)} throws, not {len(throws)}")
        starts = [seats[i] for i in order]
        if starts != record.players:
            reason = f"the roll-off gives the order {', '.join(starts)}, not {', '.join(record.players)}"
            return counter.verdict(False, reason)
    last: GameState | None = None
    try:
        # one pass in the order played, so that the first difference, die or decision, is named
        for t, a, state in states(record):
            last = state
            if t and (bad := counter.check(record, t, a)) is not None:
                return counter.verdict(False, bad)
    except RecordError as error:
        if error.turn is None:  # the game cannot even start: the rules or the players are wrong
            raise
        if error.action is not None and (bad := counter.check(record, error.turn, error.action)) is not None:
            return counter.verdict(False, bad)
        return counter.verdict(False, _refused(record, error.turn, error))
    if last is None:  # pragma: no cover - states() always yields the initial state
        raise RecordError("empty record")
    checked = (
        f"all {counter.dice_checked} dice of {counter.throws} throws are what the seeds give, "
        "every decision is legal"
    )
    engine = engine_for(record.rules())
    if engine.is_finished(last):
        if recorded is None:
            return counter.verdict(
                True,
                f"{checked}; the record has no result (an older record): "
                "decisions swapped between turns are not checked",
                complete=True,
            )
        difference = _result_difference(game_result(last), recorded)
        if difference is not None:
            return counter.verdict(False, difference, complete=True)
        return counter.verdict(True, f"{checked} and the result is the record's", complete=True)
    stop = _stop(record, engine.current_player(last), len(record.turns) > last.turn, last.turn)
    if abandoned and recorded is not None:
        reason = f"the record is marked abandoned and has a result, but it stops {stop}: the game is not over"
        return counter.verdict(False, reason)
    if abandoned:
        return counter.verdict(
            True,
            f"{checked}; the game was abandoned {stop}: complete as far as it went",
            complete=True,
            abandoned=True,
        )
    return counter.verdict(True, f"the record stops {stop}; the game is not over ({checked})")


class _Throws:
    """The throws of a record checked one by one against the fair dice, in the order thrown."""

    def __init__(self, dice: FairDice) -> None:
        self.dice = dice
        self.throws = 0
        self.dice_checked = 0

    def count(self, faces: Sequence[int]) -> None:
        """Count one throw checked."""
        self.throws += 1
        self.dice_checked += len(faces)

    def check(self, record: Record, turn: int, action: int) -> str | None:
        """Check action ``action`` of turn ``turn`` (1-based) if it is a throw: ``None`` when it is
        not one or is what the seeds give, else the difference."""
        played = record.turns[turn - 1]
        thrown = played.actions[action - 1]
        if not isinstance(thrown, Roll):
            return None
        self.count(thrown.faces)
        want = self.dice.roll(len(thrown.faces))
        if want == thrown.faces:
            return None
        return (
            f"turn {turn}, action {action} ({played.player}): recorded {_faces(thrown.faces)}, "
            f"the seeds give {_faces(want)}"
        )

    def verdict(self, fair: bool, reason: str, *, complete: bool = False, abandoned: bool = False) -> Verdict:
        """The verdict with the throws checked so far."""
        return Verdict(fair, self.throws, self.dice_checked, reason, complete, abandoned)


def _refused(record: Record, turn: int, error: RecordError) -> str:
    """The first difference when replaying refused turn ``turn`` of ``record``: where (the
    action too, where the refusal is about one), the player the record names, and why."""
    where = f"turn {turn}" if error.action is None else f"turn {turn}, action {error.action}"
    return f"{where} ({record.turns[turn - 1].player}): {error.reason}"


def _stop(record: Record, seat: int | None, in_turn: bool, done: int) -> str:
    """Where a record of a game that is not over stops: ``at turn 14 with Anna to act``."""
    who = f"{record.players[seat]} to act" if seat is not None else "nobody to act"
    if in_turn:
        return f"in the middle of turn {len(record.turns)} with {who}"
    return f"at turn {done + 1} with {who}"


def _recorded_result(record: Record) -> tuple[dict[str, int], str | None] | None:
    """The record's ``result`` (scores by name, winner), ``None`` when it has none;
    :class:`RecordError` when it is malformed."""
    raw = record.extra.get("result")
    if raw is None:
        return None
    shape = '"result" must be {"scores": {name: score, ...}, "winner": name or null}'
    if not isinstance(raw, dict):
        raise RecordError(shape)
    scores = raw.get("scores")
    winner = raw.get("winner")
    if (
        not isinstance(scores, dict)
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in scores.values())
        or not (winner is None or isinstance(winner, str))
    ):
        raise RecordError(shape)
    return dict(scores), winner


def _result_difference(replayed: dict[str, Any], recorded: tuple[dict[str, int], str | None]) -> str | None:
    """How the recorded result differs from the one the decisions give, ``None`` if it does not."""
    scores, winner = recorded
    for name, score in replayed["scores"].items():
        if name not in scores:
            return f"the decisions give {name} {score}, the record's result has no score for {name}"
        if scores[name] != score:
            return f"the decisions give {name} {score}, the record says {scores[name]}"
    for name in scores:
        if name not in replayed["scores"]:
            return f"the record's result scores {name}, who does not play"
    if winner != replayed["winner"]:
        given = f"make {replayed['winner']} the winner" if replayed["winner"] else "give no single winner"
        said = f"says {winner} won" if winner else "says no single player won"
        return f"the decisions {given}, the record {said}"
    return None


def _rolloff_throws(raw: Any) -> list[dict[str, Any]]:
    if not isinstance(raw, list):
        raise RecordError('"rolloff" must be a list of {"player", "roll"} throws')
    throws = []
    for k, item in enumerate(raw, 1):
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("player"), str)
            or not isinstance(item.get("roll"), list)
            or not all(isinstance(f, int) and not isinstance(f, bool) for f in item["roll"])
        ):
            raise RecordError(f'roll-off throw {k} must be {{"player": name, "roll": [faces]}}')
        throws.append({"player": item["player"], "roll": list(item["roll"])})
    return throws


def _faces(faces: Sequence[int]) -> str:
    return " ".join(map(str, faces))
