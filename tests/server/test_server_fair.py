"""Provably fair dice: the roll-off, the client seed, and ``kosti verify``."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from server_helpers import first_legal_bots, view

from kosti.actions import Action, CellAction, Roll
from kosti.bots.base import play_out
from kosti.errors import KostiError, RecordError
from kosti.games import engine_for
from kosti.games.base import GameState
from kosti.record import Record, Recorder, replay
from kosti.roller import FairDice, ScriptedDice, commitment, fair_die
from kosti.rules.presets import variant
from kosti.server.fair import combine_client_seeds, game_result, rolloff, verify
from kosti.server.planning import plan_action
from kosti.server.seating import plan_join, plan_leave
from kosti.server.table import Table, TableSettings

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
        "result": game_result(recorder.state),
    }
    return record


def server_table(preset: str = "poker-classic") -> tuple[Table, dict[str, str]]:
    """A started online table of Anna and Boris (who play their own seats), and their tokens."""
    table = Table("t1", TableSettings(preset, 2), SEED, first_legal_bots, stand_in="first")
    tokens: dict[str, str] = {}
    for name in ("Anna", "Boris"):
        events, tokens[name] = plan_join(table, name, f"seed-{name}")
        for event in events:
            table.apply(event)
    return table, tokens


def play_turns(table: Table, tokens: dict[str, str], turns: int) -> None:
    """Play ``turns`` turns (or to the end) at ``table``: each player scores their first throw
    in the first cell offered."""
    names = {table.seat_of(token): token for token in tokens.values()}
    for _ in range(2 * turns):
        seat = table.current_seat()
        if seat is None:
            return
        game = view(table)["game"]
        action = "throw" if game["to_throw"] else next(d for d in game["decisions"] if "score" in d)
        for event in plan_action(table, names[seat], table.version, action):
            table.apply(event)


def server_record(preset: str = "poker-classic") -> Record:
    """A finished game of Anna and Boris, its record as the server gives it out (JSON and back)."""
    table, tokens = server_table(preset)
    play_turns(table, tokens, 1000)
    assert table.status == "finished"
    return Record.from_json(table.record().to_json())


def abandoned_record() -> Record:
    """A game that Anna and Boris leave after four turns, its record as the server gives it out."""
    table, tokens = server_table()
    play_turns(table, tokens, 4)
    for token in tokens.values():
        for event in plan_leave(table, token, resign=False):
            table.apply(event)
    assert table.status == "abandoned"
    return Record.from_json(table.record().to_json())


def cut_short(data: dict[str, Any]) -> None:
    """Drop the last two turns of a record's JSON."""
    del data["turns"][-2:]


def swapped(record: Record, first: int, second: int) -> Record:
    """``record`` with the last actions (the scoring decisions) of two turns (0-based) swapped."""

    def change(data: dict[str, Any]) -> None:
        one, two = data["turns"][first]["actions"], data["turns"][second]["actions"]
        one[-1], two[-1] = two[-1], one[-1]

    return altered(record, change)


def scored(record: Record, player: str, cell: str) -> int:
    """The index (0-based) of the turn in which ``player`` scores ``cell``."""
    return next(
        i
        for i, turn in enumerate(record.turns)
        if turn.player == player and turn.actions[-1] == CellAction("score", cell)
    )


def altered(record: Record, change: Any) -> Record:
    data = copy.deepcopy(record.to_json())
    change(data)
    return Record.from_json(data)


def test_a_record_played_with_the_fair_dice_is_fair() -> None:
    record = fair_record()
    verdict = verify(record)
    assert verdict.fair, verdict.reason
    assert (verdict.status, verdict.complete, verdict.abandoned) == ("fair", True, False)
    assert "every decision is legal and the result is the record's" in verdict.reason
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


def test_a_decision_the_rules_refuse_is_not_fair_naming_turn_action_and_player() -> None:
    record = fair_record()

    def change(data: dict[str, Any]) -> None:
        data["turns"][0]["actions"][1] = {"score": "poker"}  # not a cell of this sheet

    verdict = verify(altered(record, change))
    assert verdict.status == "not_fair"
    player = record.turns[0].player
    assert verdict.reason == f"turn 1, action 2 ({player}): score poker: this sheet has no cell 'poker'"
    assert verdict.throws == len(record.extra["rolloff"]) + 1  # the turn's throw, checked before


def test_the_first_difference_is_named_whether_a_die_or_a_decision() -> None:
    def bad_decision(data: dict[str, Any]) -> None:
        data["turns"][1]["actions"][1] = {"score": "poker"}

    def bad_die(data: dict[str, Any]) -> None:
        roll = data["turns"][3]["actions"][0]["roll"]
        roll[0] = roll[0] % 6 + 1

    def both(data: dict[str, Any]) -> None:
        bad_decision(data)
        bad_die(data)

    assert verify(altered(fair_record(), both)).reason.startswith("turn 2, action 2")

    def later_decision(data: dict[str, Any]) -> None:
        data["turns"][5]["actions"][1] = {"score": "poker"}

    def die_then_decision(data: dict[str, Any]) -> None:
        bad_die(data)
        later_decision(data)

    assert verify(altered(fair_record(), die_then_decision)).reason.startswith("turn 4, action 1")


def test_a_turn_filed_under_another_players_name_is_not_fair() -> None:
    record = fair_record()
    first, second = record.turns[0].player, record.turns[1].player

    def change(data: dict[str, Any]) -> None:
        data["turns"][1]["player"] = first  # the same actions, claimed by the other player

    verdict = verify(altered(record, change))
    assert verdict.status == "not_fair"
    assert verdict.reason == f"turn 2 ({first}): it is {second}'s turn, not {first}'s"


# -- the whole game: the result, and whether the record is complete --------------------


def test_the_server_record_of_a_finished_game_carries_its_result() -> None:
    table, tokens = server_table()
    play_turns(table, tokens, 3)
    assert "result" not in table.record().extra  # not over: no result yet
    play_turns(table, tokens, 1000)
    record = table.record()
    result = record.extra["result"]
    assert result == game_result(replay(record))
    assert set(result["scores"]) == {"Anna", "Boris"}
    assert result["winner"] in (None, "Anna", "Boris")
    assert verify(record).status == "fair"


def test_scoring_choices_swapped_between_turns_are_not_fair() -> None:
    record = server_record()
    player = record.turns[0].player
    swap = swapped(record, scored(record, player, "ones"), scored(record, player, "twos"))
    replay(swap)  # both decisions stay legal: only the result shows the swap
    verdict = verify(swap)
    assert not verdict.fair
    assert (verdict.status, verdict.complete) == ("not_fair", True)
    score = game_result(replay(swap))["scores"][player]
    assert verdict.reason == (
        f"the decisions give {player} {score}, the record says {record.extra['result']['scores'][player]}"
    )


def test_a_swap_that_breaks_the_stages_is_not_fair_naming_turn_and_action() -> None:
    record = server_record()
    player = record.turns[0].player
    sixes, pair = scored(record, player, "sixes"), scored(record, player, "pair")
    verdict = verify(swapped(record, sixes, pair))
    assert verdict.status == "not_fair"
    assert verdict.reason.startswith(f"turn {sixes + 1}, action 2 ({player}): score pair: ")


def test_a_record_cut_two_turns_short_is_incomplete() -> None:
    record = fair_record()
    verdict = verify(altered(record, cut_short))
    assert (verdict.status, verdict.fair, verdict.complete) == ("incomplete", True, False)
    n = len(record.turns) - 1
    who = record.turns[-2].player
    assert verdict.reason.startswith(f"the record stops at turn {n} with {who} to act; the game is not over")


def test_a_record_cut_in_the_middle_of_a_turn_says_so() -> None:
    cut = altered(fair_record(), lambda data: data["turns"][-1]["actions"].pop())
    verdict = verify(cut)
    assert verdict.status == "incomplete"
    assert verdict.reason.startswith(f"the record stops in the middle of turn {len(cut.turns)}")


def test_an_abandoned_game_is_complete_as_far_as_it_went() -> None:
    record = abandoned_record()
    assert record.extra["abandoned"] is True
    assert "result" not in record.extra  # the server keeps a result only for a finished game
    verdict = verify(record)
    assert (verdict.status, verdict.complete, verdict.abandoned) == ("fair", True, True)
    assert "abandoned at turn 5" in verdict.reason


def test_a_cut_record_marked_abandoned_that_keeps_its_result_is_not_fair() -> None:
    def change(data: dict[str, Any]) -> None:
        cut_short(data)
        data["abandoned"] = True

    verdict = verify(altered(fair_record(), change))
    assert verdict.status == "not_fair"
    assert "marked abandoned and has a result" in verdict.reason


def test_a_record_without_a_result_is_fair_and_says_what_was_not_checked() -> None:
    record = fair_record()
    swap = swapped(record, 0, 2)
    for checked in (record, swap):  # an older record cannot show a legal swap
        verdict = verify(altered(checked, lambda data: data.pop("result")))
        assert verdict.status == "fair"
        assert "the record has no result" in verdict.reason


@pytest.mark.parametrize(
    "result",
    [
        [],
        {"scores": [1, 2], "winner": None},
        {"scores": {"Anna": "1"}, "winner": None},
        {"scores": {}, "winner": 1},
    ],
)
def test_a_malformed_result_is_bad_input(result: Any) -> None:
    def change(data: dict[str, Any]) -> None:
        data["result"] = result

    with pytest.raises(RecordError, match='"result" must be'):
        verify(altered(fair_record(), change))


def test_a_result_naming_another_winner_is_not_fair() -> None:
    record = fair_record()
    result = record.extra["result"]
    loser = next(name for name in result["scores"] if name != result["winner"])

    def change(data: dict[str, Any]) -> None:
        data["result"]["winner"] = loser

    verdict = verify(altered(record, change))
    assert verdict.status == "not_fair"
    assert verdict.reason.endswith(f"the record says {loser} won")


# -- the commands ---------------------------------------------------------------


def write(tmp_path: Path, record: Record) -> Path:
    path = tmp_path / "record.json"
    path.write_text(record.dumps(), encoding="utf-8")
    return path


def test_verify_exits_0_on_a_fair_game(kosti: Any, tmp_path: Path) -> None:
    path = write(tmp_path, server_record())
    result = kosti("verify", str(path))
    assert result.code == 0, result.err
    assert result.out.startswith("fair: ")
    result = kosti("verify", str(path), "--json")
    assert result.code == 0, result.err
    verdict = json.loads(result.out)
    assert {k: verdict[k] for k in ("fair", "complete", "status")} == {
        "fair": True,
        "complete": True,
        "status": "fair",
    }
    assert set(verdict) == {"fair", "complete", "status", "throws", "dice", "reason"}


def test_verify_exits_1_on_scoring_choices_swapped(kosti: Any, tmp_path: Path) -> None:
    record = server_record()
    player = record.turns[0].player
    swap = swapped(record, scored(record, player, "ones"), scored(record, player, "twos"))
    result = kosti("verify", str(write(tmp_path, swap)))
    assert result.code == 1
    assert result.out.startswith(f"NOT FAIR: the decisions give {player} ")


def test_verify_exits_1_on_a_record_cut_two_turns_short(kosti: Any, tmp_path: Path) -> None:
    cut = altered(server_record(), cut_short)
    result = kosti("verify", str(write(tmp_path, cut)))
    assert result.code == 1
    assert result.out.startswith(f"INCOMPLETE: the record stops at turn {len(cut.turns) + 1} with ")
    result = kosti("verify", str(write(tmp_path, cut)), "--json")
    assert result.code == 1
    verdict = json.loads(result.out)
    assert (verdict["status"], verdict["fair"], verdict["complete"]) == ("incomplete", True, False)


def test_verify_exits_0_on_an_abandoned_game(kosti: Any, tmp_path: Path) -> None:
    result = kosti("verify", str(write(tmp_path, abandoned_record())), "--json")
    assert result.code == 0, result.err
    verdict = json.loads(result.out)
    assert (verdict["status"], verdict["complete"]) == ("fair", True)
    assert "the game was abandoned at turn 5" in verdict["reason"]


def test_verify_exits_1_naming_the_first_bad_throw(kosti: Any, tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        roll = data["turns"][1]["actions"][0]["roll"]
        roll[0] = roll[0] % 6 + 1

    result = kosti("verify", str(write(tmp_path, altered(fair_record(), change))), "--json")
    assert result.code == 1
    verdict = json.loads(result.out)
    assert (verdict["fair"], verdict["status"], verdict["complete"]) == (False, "not_fair", False)
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
