"""Provably fair dice: the roll-off, the client seed, and ``kosti verify``."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from kosti.actions import Action, CellAction, Roll
from kosti.bots.base import play_out
from kosti.errors import KostiError, RecordError
from kosti.games import engine_for
from kosti.games.base import GameState
from kosti.record import Record, Recorder
from kosti.roller import FairDice, ScriptedDice, commitment, fair_die
from kosti.rules.presets import variant
from kosti.server.fair import combine_client_seeds, rolloff, verify

SEED = bytes(range(32))
CLIENT = "alpha.beta"


def test_the_highest_throw_starts_and_play_goes_round_from_the_starter() -> None:
    dice = ScriptedDice([[1, 1, 1, 1, 1], [6, 6, 6, 6, 5], [2, 2, 2, 2, 2]])
    order, throws = rolloff(["Anna", "Boris", "Vera"], dice)
    assert order == [1, 2, 0]
    assert [t["player"] for t in throws] == ["Anna", "Boris", "Vera"]


def test_only_the_players_tied_for_the_highest_throw_again() -> None:
    dice = ScriptedDice([[6, 6, 6, 6, 6], [1, 1, 1, 1, 1], [6, 6, 6, 6, 6], [1, 2, 3, 4, 5], [1, 2, 3, 4, 6]])
    order, throws = rolloff(["Anna", "Boris", "Vera"], dice)
    assert [t["player"] for t in throws] == ["Anna", "Boris", "Vera", "Anna", "Vera"]
    assert order == [2, 0, 1]
    assert dice.remaining == 0


def test_a_lone_player_starts_without_throwing() -> None:
    assert rolloff(["Anna"], ScriptedDice([])) == ([0], [])


def test_the_client_seed_keeps_each_players_part_in_seat_order() -> None:
    assert combine_client_seeds(["abc", "x-y_z"]) == "abc.x-y_z"
    with pytest.raises(KostiError):
        combine_client_seeds(["ab:c"])  # a colon would blur the HMAC message's fields


class FirstCell:
    """Records the first throw of every turn in the first open cell."""

    name = "first-cell"

    def choose(self, state: GameState) -> Action:
        decisions = engine_for(state.variant).decisions(state)
        return next(a for a in decisions if isinstance(a, CellAction) and a.kind == "score")


def fair_record(players: tuple[str, ...] = ("Anna", "Boris")) -> Record:
    """A finished two-player game whose every die comes from the fair dice, as the server plays it."""
    dice = FairDice(SEED, CLIENT)
    order, throws = rolloff(players, dice)
    names = [players[i] for i in order]
    recorder = Recorder(variant("poker-free(lower=[chance])"), names)
    play_out(recorder.state, [FirstCell(), FirstCell()], dice, max_actions=1000, on_action=recorder.log)
    record = recorder.record
    record.extra = {
        "fair": {"server_seed_sha256": commitment(SEED), "client_seed": CLIENT, "server_seed": SEED.hex()},
        "rolloff": throws,
    }
    return record


def altered(record: Record, change: Any) -> Record:
    data = copy.deepcopy(record.to_json())
    change(data)
    return Record.from_json(data)


def test_a_record_played_with_the_fair_dice_is_fair() -> None:
    record = fair_record()
    verdict = verify(record)
    assert verdict.fair, verdict.reason
    rolls = sum(isinstance(a, Roll) for t in record.turns for a in t.actions)
    assert verdict.throws == rolls + len(record.extra["rolloff"])
    assert verdict.dice == 5 * verdict.throws


def test_the_dice_follow_fair_die_nonce_by_nonce() -> None:
    record = fair_record()
    nonce = len(record.extra["rolloff"])
    first = record.turns[0].actions[0]
    assert isinstance(first, Roll)
    assert list(first.faces) == [fair_die(SEED, CLIENT, nonce, i) for i in range(5)]


def test_one_die_altered_is_not_fair_and_the_throw_is_named() -> None:
    record = fair_record()

    def change(data: dict[str, Any]) -> None:
        roll = data["turns"][2]["actions"][0]["roll"]
        roll[3] = roll[3] % 6 + 1

    verdict = verify(altered(record, change))
    assert not verdict.fair
    assert verdict.reason.startswith("turn 3, action 1")
    assert verdict.throws == len(record.extra["rolloff"]) + 3


def test_a_seed_that_does_not_match_the_commitment_is_not_fair() -> None:
    def change(data: dict[str, Any]) -> None:
        data["fair"]["server_seed_sha256"] = hashlib.sha256(b"another seed").hexdigest()

    verdict = verify(altered(fair_record(), change))
    assert not verdict.fair
    assert "commitment" in verdict.reason


def test_an_altered_roll_off_is_not_fair() -> None:
    def change(data: dict[str, Any]) -> None:
        first = data["rolloff"][0]["roll"]
        first[0] = first[0] % 6 + 1

    verdict = verify(altered(fair_record(), change))
    assert not verdict.fair
    assert verdict.reason.startswith("roll-off throw 1")


def test_a_starter_other_than_the_roll_off_winner_is_not_fair() -> None:
    def change(data: dict[str, Any]) -> None:
        data["players"].reverse()
        for turn in data["turns"]:
            turn["player"] = (
                data["players"][0] if turn["player"] == data["players"][1] else data["players"][1]
            )

    verdict = verify(altered(fair_record(), change))
    assert not verdict.fair
    assert "order" in verdict.reason


def test_a_missing_roll_off_is_not_fair_when_the_rules_call_for_one() -> None:
    verdict = verify(altered(fair_record(), lambda data: data.pop("rolloff")))
    assert not verdict.fair
    assert "roll-off" in verdict.reason


def test_a_game_not_over_has_no_seed_to_verify() -> None:
    def change(data: dict[str, Any]) -> None:
        del data["fair"]["server_seed"]

    with pytest.raises(RecordError, match="not revealed"):
        verify(altered(fair_record(), change))


@pytest.mark.parametrize(
    "fair",
    [None, "x", {"server_seed_sha256": "abc", "client_seed": CLIENT, "server_seed": SEED.hex()}],
)
def test_malformed_seeds_are_bad_input(fair: Any) -> None:
    def change(data: dict[str, Any]) -> None:
        data["fair"] = fair

    with pytest.raises(RecordError):
        verify(altered(fair_record(), change))


def test_fair_dice_that_break_a_rule_are_bad_input() -> None:
    def change(data: dict[str, Any]) -> None:
        data["turns"][0]["actions"][1] = {"score": "poker"}  # not a cell of this sheet

    with pytest.raises(RecordError, match="turn 1, action 2"):
        verify(altered(fair_record(), change))


# -- the commands ---------------------------------------------------------------


def write(tmp_path: Path, record: Record) -> Path:
    path = tmp_path / "record.json"
    path.write_text(record.dumps(), encoding="utf-8")
    return path


def test_verify_exits_0_on_a_fair_game(kosti: Any, tmp_path: Path) -> None:
    result = kosti("verify", str(write(tmp_path, fair_record())))
    assert result.code == 0, result.err
    assert result.out.startswith("fair: ")


def test_verify_exits_1_naming_the_first_bad_throw(kosti: Any, tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        roll = data["turns"][1]["actions"][0]["roll"]
        roll[0] = roll[0] % 6 + 1

    result = kosti("verify", str(write(tmp_path, altered(fair_record(), change))), "--json")
    assert result.code == 1
    verdict = json.loads(result.out)
    assert verdict["fair"] is False
    assert verdict["reason"].startswith("turn 2, action 1")


@pytest.mark.parametrize("content", ["not json", '{"variant": "poker-free", "players": ["A"], "turns": []}'])
def test_verify_exits_2_on_bad_input(kosti: Any, tmp_path: Path, content: str) -> None:
    path = tmp_path / "record.json"
    path.write_text(content, encoding="utf-8")
    result = kosti("verify", str(path))
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith("kosti: ")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--rate", "0"], "--rate"),
        (["--log-level", "loud"], "--log-level"),
        (["--database", "not a url"], "SQLAlchemy URL"),
        (["--database", "postgresql://who:secret@127.0.0.1:1/none"], "cannot open the database"),
    ],
)
def test_serve_refuses_bad_settings_in_one_line(kosti: Any, args: list[str], words: str) -> None:
    result = kosti("serve", *args)
    assert result.code == 2
    assert words in result.err
    assert "secret" not in result.err
    assert len(result.err.strip().splitlines()) == 1
