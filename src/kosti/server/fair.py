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
order they were made; it is absent when the seating order decided.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kosti.actions import Roll
from kosti.errors import KostiError, RecordError
from kosti.record import Record, replay
from kosti.roller import DiceSource, FairDice
from kosti.rolloff import roll_off, rotate

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


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify` found."""

    fair: bool
    throws: int
    """Throws checked (roll-off included) up to and including the first bad one."""

    dice: int
    """Dice checked."""

    reason: str
    """One line: what was checked, or the first throw that the seeds do not give."""


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


def verify(record: Record) -> Verdict:
    """Recompute every die of ``record`` from its revealed seeds, in the order thrown.

    Unfair: the revealed seed does not hash to the commitment, a roll-off throw or
    the order of play is not what the seeds give, or a recorded throw differs (the
    first such throw is named). A record that is malformed, lacks the seeds or (with
    every die right) breaks a rule raises :class:`RecordError`.
    """
    server_seed, client_seed, commitment = fair_seeds(record)
    if hashlib.sha256(server_seed).hexdigest() != commitment:
        return Verdict(False, 0, 0, "the revealed server seed does not hash to the commitment shown")
    dice = FairDice(server_seed, client_seed)
    throws = 0
    count = 0
    raw_rolloff = record.extra.get("rolloff")
    if raw_rolloff is None and len(record.players) > 1 and record.rules().options.first_player == "rolloff":
        return Verdict(
            False, 0, 0, "the rules call for a roll-off, and the record has none: who chose the starter?"
        )
    if raw_rolloff is not None:
        recorded = _rolloff_throws(raw_rolloff)
        seats = [t["player"] for t in recorded[: len(record.players)]]
        order, expected = rolloff(seats, dice)
        for k, (got, want) in enumerate(zip(recorded, expected, strict=False), 1):
            throws += 1
            count += len(want["roll"])
            if got["player"] != want["player"] or sorted(got["roll"]) != want["roll"]:
                reason = (
                    f"roll-off throw {k} ({got['player']}): recorded {_faces(got['roll'])}, "
                    f"the seeds give {want['player']} {_faces(want['roll'])}"
                )
                return Verdict(False, throws, count, reason)
        if len(recorded) != len(expected):
            return Verdict(
                False, throws, count, f"the roll-off took {len(expected)} throws, not {len(recorded)}"
            )
        starts = [seats[i] for i in order]
        if starts != record.players:
            reason = f"the roll-off gives the order {', '.join(starts)}, not {', '.join(record.players)}"
            return Verdict(False, throws, count, reason)
    for t, turn in enumerate(record.turns, 1):
        for a, action in enumerate(turn.actions, 1):
            if not isinstance(action, Roll):
                continue
            throws += 1
            count += len(action.faces)
            want_faces = dice.roll(len(action.faces))
            if want_faces != action.faces:
                reason = (
                    f"turn {t}, action {a} ({turn.player}): recorded {_faces(action.faces)}, "
                    f"the seeds give {_faces(want_faces)}"
                )
                return Verdict(False, throws, count, reason)
    replay(record)
    return Verdict(True, throws, count, f"all {count} dice of {throws} throws are what the seeds give")


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
