"""The scriptable command line (RULES.md §5, §6): ``kosti score``, ``kosti replay``, ``kosti rules``.

Commands run in-process through :func:`kosti.cli.main`, the entry point of the
``kosti`` script, so that usage errors take the same path as on a terminal.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import contains

RECORDS = Path(__file__).parent / "records"


def assert_refused(run: Any, *reason: str) -> None:
    """Exit 2, nothing on standard output, one line on standard error that says why."""
    assert run.code == 2, (run.out, run.err)
    assert run.out == ""
    lines = run.err.strip().splitlines()
    assert len(lines) == 1, run.err
    assert lines[0].startswith("kosti: ")
    for word in reason:
        assert word in lines[0], lines[0]


# -- kosti score ------------------------------------------------------------------------------

UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"]
POKER = ["pair", "two_pairs", "three_of_a_kind", "small_straight", "large_straight"]
POKER_TAIL = ["full_house", "four_of_a_kind", "poker", "chance"]
CELLS = {
    # RULES.md §1.5, the lower cells of each preset
    "poker-classic": [*UPPER, *POKER, *POKER_TAIL],
    "poker-extended": [*UPPER, *POKER, "even", "odd", *POKER_TAIL],
    "poker-mandatory": [*UPPER, *POKER, "even", "odd", *POKER_TAIL],
    "poker-free": [*UPPER, *POKER, *POKER_TAIL],
    "poker-fences": [*UPPER, *POKER, *POKER_TAIL],
    "yahtzee": [
        *UPPER,
        "three_of_a_kind",
        "four_of_a_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "yahtzee",
        "chance",
    ],
    "yatzy": [
        *UPPER,
        "pair",
        "two_pairs",
        "three_of_a_kind",
        "four_of_a_kind",
        "small_straight",
        "large_straight",
        "full_house",
        "chance",
        "yatzy",
    ],
}


@pytest.mark.parametrize("preset", sorted(CELLS))
def test_score_reports_every_cell_of_the_sheet(kosti: Any, preset: str) -> None:
    run = kosti("score", preset, "6", "6", "6", "6", "6", "--json")
    assert run.code == 0, run.err
    report = run.json()
    assert list(report) == CELLS[preset]
    assert all(isinstance(v, int) for v in report.values())


def test_score_values_and_the_first_throw(kosti: Any) -> None:
    later = kosti("score", "poker-classic", "6", "6", "6", "6", "6", "--json").json()
    first = kosti("score", "poker-classic", "6", "6", "6", "6", "6", "--first-throw", "--json").json()
    assert (later["poker"], first["poker"]) == (80, 110)
    assert (later["sixes"], first["sixes"]) == (12, 12)
    assert (later["pair"], first["pair"]) == (12, 24)
    assert (later["chance"], first["chance"]) == (30, 30)
    assert later["full_house"] == later["two_pairs"] == 0
    fences = kosti("score", "poker-fences", "3", "6", "3", "6", "6", "--first-throw", "--json").json()
    assert (fences["full_house"], fences["two_pairs"], fences["pair"]) == (72, 36, 12)
    free = kosti("score", "poker-free", "2", "2", "2", "4", "5", "--json").json()
    assert (free["twos"], free["fours"], free["fives"], free["pair"]) == (6, 4, 5, 15)
    mandatory = kosti("score", "poker-mandatory", "4", "4", "4", "4", "1", "--json").json()
    assert mandatory["four_of_a_kind"] == 36
    yahtzee = kosti("score", "yahtzee", "2", "3", "4", "5", "6", "--json").json()
    assert (yahtzee["small_straight"], yahtzee["large_straight"]) == (30, 40)
    yatzy = kosti("score", "yatzy", "6", "6", "6", "6", "6", "--first-throw", "--json").json()
    five_sixes = (yatzy["yatzy"], yatzy["four_of_a_kind"], yatzy["full_house"], yatzy["two_pairs"])
    assert five_sixes == (50, 24, 0, 0)


def test_score_takes_a_variant_string_and_aliases(kosti: Any) -> None:
    report = kosti("score", "poker-classic(four_bonus=15)", "4", "4", "4", "4", "1", "--json").json()
    assert report["four_of_a_kind"] == 31
    assert (
        kosti("score", "ограды", "1", "2", "3", "4", "5", "--json").json()
        == kosti("score", "poker-fences", "5", "4", "3", "2", "1", "--json").json()
    )


def test_score_without_json_prints_a_table(kosti: Any) -> None:
    run = kosti("score", "poker-classic", "1", "2", "3", "4", "5")
    assert run.code == 0
    assert "small_straight" in run.out


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["1", "2", "3", "4"], "expected 5 dice, got 4"),
        (["1", "2", "3", "4", "5", "6"], "expected 5 dice, got 6"),
        (["1", "2", "3", "4", "7"], "1 to 6, not 7"),
        (["1", "2", "3", "4", "0"], "not 0"),
        (["1", "2", "x", "4", "5"], "dice"),
        ([], "dice"),
        (["1", "2", "3", "4", "5", "--bogus"], "--bogus"),
    ],
)
def test_score_bad_dice(kosti: Any, args: list[str], reason: str) -> None:
    assert_refused(kosti("score", "poker-classic", *args, "--json"), reason)


def test_score_bad_preset_or_option(kosti: Any) -> None:
    assert_refused(kosti("score", "poker-nope", "1", "2", "3", "4", "5", "--json"), "unknown preset")
    assert_refused(kosti("score", "poker-classic(colour=red)", "1", "2", "3", "4", "5"), "no option 'colour'")
    assert_refused(kosti("score", "poker-classic(stages=loose)", "1", "2", "3", "4", "5"), "stages", "loose")


def test_unknown_command_and_option(kosti: Any) -> None:
    assert_refused(kosti("scour"), "No such command")
    assert_refused(kosti("--bogus"), "--bogus")


# -- kosti replay -----------------------------------------------------------------------------


def records(suffix: str) -> list[Path]:
    """The record files of every family in ``tests/records`` whose name ends in ``suffix``."""
    return sorted(RECORDS.glob(f"*{suffix}"))


@pytest.mark.parametrize("expected", records(".expected.json"), ids=lambda p: p.name)
def test_records_replay_to_their_expected_state(kosti: Any, expected: Path) -> None:
    record = expected.with_name(expected.name.replace(".expected.json", ".json"))
    run = kosti("replay", str(record), "--json")
    assert run.code == 0, run.err
    assert run.err == ""
    contains(run.json(), json.loads(expected.read_text(encoding="utf-8")))


@pytest.mark.parametrize("error", records(".error.json"), ids=lambda p: p.name)
def test_records_breaking_a_rule_are_refused(kosti: Any, error: Path) -> None:
    record = error.with_name(error.name.replace(".error.json", ".json"))
    want = json.loads(error.read_text(encoding="utf-8"))
    where = ""
    if want["turn"] is not None:
        where = f"turn {want['turn']}" + (f", action {want['action']}" if want["action"] else "") + ": "
    run = kosti("replay", str(record), "--json")
    assert_refused(run, where, want["reason"])
    # the plain form fails the same way
    assert_refused(kosti("replay", str(record)), where, want["reason"])


def test_every_record_has_an_outcome() -> None:
    games = [p for p in records(".json") if not p.name.endswith((".expected.json", ".error.json"))]
    for record in games:
        outcomes = [record.with_suffix(".expected.json"), record.with_suffix(".error.json")]
        assert sum(p.exists() for p in outcomes) == 1, record.name
    # every family's records are among them, so none sits in the folder unchecked
    named = {json.loads(p.read_text(encoding="utf-8"))["variant"] for p in games}
    assert {"poker-classic", "poker-showdown", "thousand-classic", "thousand-v2", "yahtzee"} <= named


def test_replay_without_json_prints_a_table(kosti: Any) -> None:
    run = kosti("replay", str(RECORDS / "poker-classic-short.json"))
    assert run.code == 0
    assert "Boris" in run.out and "162" in run.out


def test_replay_bad_files(kosti: Any, tmp_path: Path) -> None:
    assert_refused(kosti("replay", str(tmp_path / "missing.json"), "--json"), "cannot read")
    broken = tmp_path / "broken.json"
    broken.write_text('{"variant": "poker-classic", "players": [', encoding="utf-8")
    assert_refused(kosti("replay", str(broken), "--json"), "not JSON")
    bad_action = tmp_path / "bad-action.json"
    bad_action.write_text(
        json.dumps(
            {
                "variant": "poker-classic",
                "players": ["A"],
                "turns": [{"player": "A", "actions": [{"jump": 1}]}],
            }
        ),
        encoding="utf-8",
    )
    assert_refused(kosti("replay", str(bad_action), "--json"), "turn 1, action 1", "unknown action 'jump'")
    unknown = tmp_path / "unknown.json"
    unknown.write_text(
        json.dumps({"variant": "poker-royal", "players": ["A"], "turns": []}), encoding="utf-8"
    )
    assert_refused(kosti("replay", str(unknown), "--json"), "unknown preset")
    nobody = tmp_path / "nobody.json"
    nobody.write_text(json.dumps({"variant": "poker-classic", "players": [], "turns": []}), encoding="utf-8")
    assert_refused(kosti("replay", str(nobody), "--json"), "at least one player")


def test_replay_of_a_record_without_turns(kosti: Any, tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"variant": "poker-classic", "players": ["A", "B"]}), encoding="utf-8")
    run = kosti("replay", str(empty), "--json")
    assert run.code == 0
    contains(
        run.json(),
        {
            "finished": False,
            "winner": None,
            "players": [{"name": "A", "score": 0}, {"name": "B", "score": 0}],
        },
    )


# -- kosti rules ------------------------------------------------------------------------------


def test_rules_lists_every_preset(kosti: Any) -> None:
    presets = kosti("rules", "--json").json()
    ids = [p["id"] for p in presets]
    for preset in [*CELLS, "poker-showdown", "thousand-classic", "thousand-v2"]:
        assert preset in ids
    assert {p["family"] for p in presets if p["id"] in CELLS} == {"sheet"}
    russian = kosti("rules", "--lang", "ru", "--json").json()
    assert any("Покер" in p["name"] for p in russian)
    assert kosti("rules").code == 0


def test_rules_of_one_preset(kosti: Any) -> None:
    report = kosti("rules", "poker-fences", "--json").json()
    assert report["id"] == "poker-fences"
    assert report["spec"] == "poker-fences"
    options = report["options"]
    assert options["columns"]["value"] == "fences"
    assert options["scratch"]["value"] is True
    assert options["lower"]["value"] == POKER + POKER_TAIL
    assert all(entry["doc"] for entry in options.values())
    alias = kosti("rules", "ограды", "--json").json()
    assert alias["id"] == "poker-fences"
    changed = kosti("rules", "poker-classic(stages=free)", "--json").json()
    assert changed["spec"] == "poker-classic(stages=free)"
    assert changed["options"]["stages"]["value"] == "free"
    plain = kosti("rules", "yahtzee")
    assert plain.code == 0 and "joker" in plain.out
    yatzy = kosti("rules", "yatzy", "--lang", "ru", "--json").json()
    assert yatzy["name"] == "Yatzy (скандинавский)"
    assert yatzy["options"]["lower"]["value"][-1] == "yatzy"
    assert yatzy["options"]["upper_bonus_points"]["value"] == 50


def test_rules_bad_arguments(kosti: Any) -> None:
    assert_refused(kosti("rules", "poker-nope"), "unknown preset")
    assert_refused(kosti("rules", "--lang", "de"), "--lang is ru or en")


def test_rules_in_russian_explain_every_option_in_russian(kosti: Any) -> None:
    from kosti.rules.options import SheetOptions, ShowdownOptions, ThousandOptions
    from kosti.rules.presets import PRESETS, option_docs, variant

    for kind in (SheetOptions, ThousandOptions, ShowdownOptions):
        # every field of every family is explained, whatever presets exist
        for name, _value, doc in option_docs(kind(), "en"):
            assert doc and not doc.startswith("option_doc."), name
    for preset_id in PRESETS:
        english = {name: doc for name, _value, doc in option_docs(variant(preset_id).options)}
        report = kosti("rules", preset_id, "--lang", "ru", "--json").json()
        for name, entry in report["options"].items():
            # a meaning of its own, in Cyrillic, not the English docstring passed through
            assert entry["doc"] and entry["doc"] != english[name], (preset_id, name)
            assert any("а" <= ch <= "я" for ch in entry["doc"].lower()), (preset_id, name)
            assert "RULES.md" not in entry["doc"] and "RULES.md" not in english[name]
    shown = kosti("rules", "thousand-classic", "--lang", "ru")
    assert "настройка" in shown.out and "смысл" in shown.out and "option" not in shown.out
    assert "Ямы [от, до)" in " ".join(shown.out.split()).replace("│", "")


def test_rules_take_the_language_of_the_locale(kosti: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert (
        "Кто начинает" in kosti("rules", "poker-classic", "--json").json()["options"]["first_player"]["doc"]
    )
    assert_refused(kosti("rules", "poker-nope"), "нет набора правил 'poker-nope'; есть: poker-classic")


@pytest.mark.parametrize(
    ("args", "english", "russian"),
    [
        (("play", "poker-nope"), "unknown preset 'poker-nope'", "нет набора правил 'poker-nope'"),
        (("play", "poker-classic", "-o", "colour=red"), "has no option 'colour'", "нет настройки 'colour'"),
        (("play", "poker-classic", "-o", "stages"), "written name=value", "пишется имя=значение"),
        (("play", "poker-classic", "-o", "throws=0"), "throws must be at least 1", "throws: не меньше 1"),
        (
            ("play", "poker-classic", "--delay", "-1"),
            "--delay is a number of seconds",
            "--delay — число секунд",
        ),
        (("play", "poker-classic", "--delay", "nan"), "0 or more, not nan", "0 или больше, а не nan"),
        (("play", "poker-showdown", "-b", "optimal"), "no optimal bot plays showdown", "безошибочного бота"),
        (("play", "poker-classic", "-b", "table"), "a bot is random | heuristic | optimal", "бот — это"),
        (("play", "-o", "throws=2"), "--option needs a preset", "для --option нужен набор правил"),
        (
            ("play", "poker-classic", "-p", "Аня", "-p", "Аня"),
            "two players cannot share a name",
            "одного имени",
        ),
        (("score", "poker-nope", "1", "2", "3", "4", "5"), "unknown preset", "нет набора правил"),
    ],
)
def test_the_command_line_refuses_in_the_language_asked_for(
    kosti: Any, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], english: str, russian: str
) -> None:
    assert_refused(kosti(*args), english)
    if args[0] == "play":
        assert_refused(kosti(*args, "--lang", "ru"), russian)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert_refused(kosti(*args), russian)


def test_python_dash_m_runs_the_same_command() -> None:
    ok = subprocess.run(
        [
            sys.executable,
            "-m",
            "kosti",
            "score",
            "poker-classic",
            "6",
            "6",
            "6",
            "6",
            "6",
            "--first-throw",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["poker"] == 110
    bad = subprocess.run(
        [sys.executable, "-m", "kosti", "score", "poker-classic", "1", "2", "x", "4", "5", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (bad.returncode, bad.stdout, len(bad.stderr.strip().splitlines())) == (2, "", 1)
