"""Every refusal is data (RULES.md §4): a stable snake_case code and its params, worded once per
language by :func:`kosti.i18n.refusal_text` from the catalogs' ``[refusal]`` table.

The code is read for every refusal it raises (``IllegalActionError("code", …)``, the server's
``Refusal``, the terminal's ``Refused``): each has a wording in both catalogs whose placeholders
are its params, and docs/refusals.md says the same as the catalogs. Random illegal actions on
random states all raise such a refusal.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import pickle
import random
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kosti.actions import Action, Announce, Hold, Roll, Score, Scratch, SetAside, Stop, Throw
from kosti.errors import IllegalActionError, KostiError, RecordError, Refusal
from kosti.games import engine_for
from kosti.games.thousand.game import THOUSAND, Player, ThousandState
from kosti.i18n import messages, placeholders, record_error_text, refusal_key, refusal_text
from kosti.record import load, replay
from kosti.rules.options import LOWER_CELLS, UPPER_CELLS
from kosti.rules.presets import PRESETS, variant

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "kosti"
RECORDS = Path(__file__).parent / "records"

REFUSALS = frozenset({"IllegalActionError", "OptionRefusal", "Refusal", "Refused", "RuleRefusal"})
"""The classes whose first argument is a refusal's code."""

NOT_RAISED_LITERALLY = {
    "idle": "the socket's silence refusal, passed by its code (routes/play.py)",
    "crowded": "likewise, at a table full of spectators",
    "error": "an error that is not a refusal, inside bad_edit (server.refusal.refusal_of)",
    "illegal": "an engine error without a code, should one appear (server.table._play)",
    "not_a_thousand_game": "games.base.options_as, by the kind of options",
    "not_a_showdown_game": "likewise",
}
"""Wordings no call names by a literal code, and why they are there all the same."""


@dataclass(frozen=True)
class Raised:
    """One call that makes a refusal with a literal code."""

    where: str
    code: str
    why: str | None
    params: frozenset[str]

    @property
    def key(self) -> str:
        return refusal_key(self.code, {"why": self.why} if self.why else {})


def raised() -> Iterator[Raised]:
    """Every refusal made with a literal code in ``src/kosti``."""
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = (
                func.attr
                if isinstance(func, ast.Attribute)
                else func.id
                if isinstance(func, ast.Name)
                else ""
            )
            first = node.args[0]
            if (
                name not in REFUSALS
                or not isinstance(first, ast.Constant)
                or not isinstance(first.value, str)
            ):
                continue  # (a refusal passed on: Refused.of(error), cls(refusal.code, **params))
            why = next((k.value for k in node.keywords if k.arg == "why"), None)
            yield Raised(
                f"{relative}:{node.lineno}",
                first.value,
                why.value if isinstance(why, ast.Constant) else None,
                frozenset(k.arg for k in node.keywords if k.arg and k.arg != "why"),
            )


def fields(message: str | Mapping[str, str]) -> frozenset[str]:
    if isinstance(message, str):
        return placeholders(message)
    return frozenset().union(*(placeholders(form) for form in message.values()))


def test_the_scan_finds_the_refusals_of_every_layer() -> None:
    found = list(raised())
    assert len(found) > 120
    places = {r.where.split("/")[0].split(":")[0] for r in found}
    assert {"games", "record.py", "bots", "tui", "server"} <= places


def test_every_code_raised_is_worded_in_both_catalogs_with_its_params() -> None:
    en, ru = messages("en"), messages("ru")
    for r in raised():
        assert re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", r.code), r
        assert r.key in en and r.key in ru, r
        assert fields(en[r.key]) == r.params, (r, fields(en[r.key]))
        assert fields(ru[r.key]) == r.params, (r, fields(ru[r.key]))
        if r.why is None:  # a code with several wordings is always raised with its why
            assert isinstance(en[r.key], str) or set(en[r.key]) <= {"one", "few", "many", "other"}, r


def test_every_wording_is_raised_or_says_why_it_is_not() -> None:
    worded = {key.removeprefix("refusal.") for key in messages("en") if key.startswith("refusal.")}
    used = {r.key.removeprefix("refusal.") for r in raised()}
    assert sorted(worded - used - set(NOT_RAISED_LITERALLY)) == []
    assert sorted(set(NOT_RAISED_LITERALLY) - worded) == []


def refusals_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("refusals_doc", ROOT / "scripts" / "refusals.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_table_of_refusals_says_what_the_catalogs_say() -> None:
    script = refusals_script()
    keys = {key.removeprefix("refusal.") for key in messages("en") if key.startswith("refusal.")}
    said = [key for rows in script.WHEN.values() for key in rows]
    assert sorted(said) == sorted(keys)  # every wording says when, once
    assert (ROOT / "docs" / "refusals.md").read_text(encoding="utf-8") == script.table(), (
        "docs/refusals.md is out of date: run uv run python scripts/refusals.py"
    )


# -- the wording, in both languages -----------------------------------------------------------

WORDED = [
    # the rules of score sheets (RULES.md §1)
    (
        IllegalActionError("cell_filled", cell="sixes"),
        "sixes is already recorded",
        "клетка «шестёрки» уже заполнена",
    ),
    (
        IllegalActionError("upper_first"),
        "the upper section must be full before any combination («школа» first)",
        "сначала школа: единицы … шестёрки, потом комбинации",
    ),
    (
        IllegalActionError("column_order", next="two_pairs"),
        "column III is filled in order: two_pairs comes next",
        "третий столбец заполняется по порядку: следующая клетка — «две пары»",
    ),
    (
        IllegalActionError("forced_joker", cells=["threes", "chance"]),
        "a further Yahtzee must go to threes or chance (forced joker)",
        "ещё один Yahtzee записывается в «тройки» или «шанс» (обязательный джокер)",
    ),
    (
        IllegalActionError("cell_announced", announced="poker"),
        "poker was announced: the turn ends there",
        "объявлена клетка «покер»: ход кончается в ней",
    ),
    (
        IllegalActionError("not_among", faces=[6, 6], dice=[1, 2, 3, 4, 5]),
        "6 6 are not among the dice 1 2 3 4 5",
        "6 6 нет среди костей 1 2 3 4 5",
    ),
    (
        IllegalActionError("no_such_cell", cell="sevens"),
        "this sheet has no cell 'sevens'",
        "в этом листе нет клетки 'sevens'",
    ),
    # the plural forms agree with n
    (IllegalActionError("dice_due", n=1), "1 dice must be thrown first", "сначала нужно бросить 1 кость"),
    (IllegalActionError("dice_due", n=3), "3 dice must be thrown first", "сначала нужно бросить 3 кости"),
    (IllegalActionError("dice_due", n=5), "5 dice must be thrown first", "сначала нужно бросить 5 костей"),
    (
        IllegalActionError("throw_size", n=2, got=3),
        "2 dice are thrown now, not 3",
        "сейчас бросают 2 кости, а не 3",
    ),
    # «Тысяча» (RULES.md §3.3: opening 50, the pit 200–300 where 225 must make 75, the barrel at 880)
    (
        IllegalActionError("stop_unopened", need=50, total=5),
        "not opened yet: a turn is recorded from 50 on (5 so far)",
        "вы ещё не открылись: ход записывается от 50 (набрано 5)",
    ),
    (
        IllegalActionError("stop_in_pit", low=200, high=300, score=225, total=50, reached=275),
        "in the pit 200–300: stop only at 300 or more (225 + 50 = 275)",
        "в яме 200–300: «хватит» можно сказать только от 300 (225 + 50 = 275)",
    ),
    (
        IllegalActionError("stop_barrel", need=120, total=60),
        "on the barrel the turn must make 120 in one go (60 so far): throw on",
        "на бочке «хватит» не говорят: нужно 120 за один ход (набрано 60), бросайте дальше",
    ),
    (
        IllegalActionError("whole_only", units=[[1, 1, 1]]),
        "1 1 1 scores only as a whole: set all of it aside or none",
        "1 1 1 засчитывается только целиком: отложите всё или ничего",
    ),
    (
        IllegalActionError("not_scoring", face=3, dice=[1, 5, 3, 3, 4]),
        "a 3 does not score in 1 5 3 3 4",
        "в броске 1 5 3 3 4 кость 3 очков не даёт",
    ),
    # showdown (RULES.md §4's «holding a die not on the table», and locked holds)
    (
        IllegalActionError("locked_dice", keep=[4, 4], drops=[4]),
        "held dice are locked for the rest of the turn: the hold must keep [4, 4] (it drops [4])",
        "оставленные кости до конца хода не трогают: нужно оставить [4, 4] (без [4] нельзя)",
    ),
    # the terminal and the server
    (Refusal("no_die_there", n=5), "there is no die 5 on the table", "на столе нет 5-й кости"),
    (Refusal("type_count", n=1), "type exactly 1 die", "нужна ровно 1 кость"),
    (
        Refusal("not_your_turn", player="Anna", you="Boris"),
        "it is Anna's turn, not Boris's",
        "сейчас ходит Anna, а не Boris",
    ),
    (
        Refusal("stale", why="action", version=7, yours=6),
        "the table has moved on (version 7, your action was for 6): look again",
        "стол ушёл вперёд (версия 7, ваш ход был для 6): посмотрите ещё раз",
    ),
    (
        Refusal("bad_name", why="width", n=24),
        "a name takes at most 24 columns on screen",
        "имя занимает на экране не больше 24 колонок",
    ),
    (
        Refusal("bad_action", why="send_roll"),
        'this table types in the dice: send {"roll": [faces]}',
        'за этим столом кости вводят: пришлите {"roll": [грани]}',
    ),
    (
        Refusal(
            "bad_edit",
            why="replay",
            throw=2,
            roll=[6, 6],
            refusal={"code": "cell_filled", "params": {"cell": "ones"}},
        ),
        "throw 2 cannot have been 6 6: a later move no longer fits it (ones is already recorded)",
        "бросок 2 не мог быть 6 6: следующий ход ему уже не подходит (клетка «единицы» уже заполнена)",
    ),
]


@pytest.mark.parametrize(("refusal", "en", "ru"), WORDED, ids=[r.code for r, _, _ in WORDED])
def test_a_refusal_is_worded_in_both_languages(refusal: Refusal, en: str, ru: str) -> None:
    assert refusal_text(refusal, "en") == en == str(refusal)
    assert refusal_text(refusal, "ru") == ru
    assert json.loads(json.dumps(refusal.to_json())) == {"code": refusal.code, "params": refusal.params}


def test_a_code_without_a_wording_shows_as_itself() -> None:
    # a caller not yet given a code passes its reason as the code: nothing it says is lost
    assert str(IllegalActionError("the game is over")) == "the game is over"


def test_a_refusal_survives_pickling_with_its_params() -> None:
    refusal = pickle.loads(pickle.dumps(IllegalActionError("cell_filled", cell="sixes")))
    assert (type(refusal), refusal.code, refusal.params) == (
        IllegalActionError,
        "cell_filled",
        {"cell": "sixes"},
    )


def thousand_at(player: Player, options: dict[str, Any] | None = None) -> ThousandState:
    """A «Тысяча» turn after a throw of 5 points (the 5 set aside), the mover being ``player``."""
    state = THOUSAND.new_game(variant("thousand-classic", options), ["Anna", "Boris"])
    state = replace(state, board=(player, state.board[1]))
    return THOUSAND.apply(state, Roll((5, 2, 3, 3, 6)))


def test_why_not_stop_is_a_refusal_with_the_numbers_of_the_rule() -> None:
    unopened = THOUSAND.why_not_stop(thousand_at(Player()))
    assert unopened is not None and (unopened.code, unopened.params) == (
        "stop_unopened",
        {"need": 50, "total": 5},
    )
    pit = THOUSAND.why_not_stop(thousand_at(Player(score=225, opened=True)))
    assert pit is not None and pit.code == "stop_in_pit"
    assert pit.params == {"low": 200, "high": 300, "score": 225, "total": 5, "reached": 230}
    barrel = THOUSAND.why_not_stop(thousand_at(Player(score=880, opened=True, on_barrel=True)))
    assert barrel is not None and (barrel.code, barrel.params) == ("stop_barrel", {"need": 120, "total": 5})
    assert THOUSAND.why_not_stop(thousand_at(Player(score=400, opened=True))) is None
    with pytest.raises(IllegalActionError) as refused:
        THOUSAND.apply(thousand_at(Player(score=225, opened=True)), Stop())
    assert refused.value.params["reached"] == 230


def test_a_record_that_breaks_a_rule_is_worded_in_either_language() -> None:
    with pytest.raises(RecordError) as broken:
        replay(load(RECORDS / "poker-classic-illegal-filled.json"))
    error = broken.value
    assert error.refusal is not None and error.refusal.code == "cell_filled"
    assert (
        record_error_text(error, "en")
        == str(error)
        == "turn 3, action 2: score ones: ones is already recorded"
    )
    assert record_error_text(error, "ru") == "ход 3, действие 2: score ones: клетка «единицы» уже заполнена"
    with pytest.raises(RecordError) as wrong:
        replay(load(RECORDS / "poker-free-illegal-order.json"))
    assert record_error_text(wrong.value, "ru") == "ход 2: сейчас ходит Boris, а не Anna"


def test_the_command_line_words_a_refusal_in_the_language_asked_for(kosti: Any) -> None:
    record = str(RECORDS / "poker-extended-illegal-hold.json")
    english = kosti("replay", record, "--json")
    assert (english.code, english.out) == (2, "")
    assert english.err == "kosti: turn 2, action 2: hold 6 6: 6 6 are not among the dice 1 2 3 4 5\n"
    russian = kosti("replay", record, "--json", "--lang", "ru")
    assert russian.err == "kosti: ход 2, действие 2: hold 6 6: 6 6 нет среди костей 1 2 3 4 5\n"
    assert kosti("replay", record, "--lang", "de").err == "kosti: --lang is ru or en, not 'de'\n"


def test_the_command_line_takes_the_language_of_the_locale(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from kosti.cli import main

    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setattr(sys, "argv", ["kosti", "replay", str(RECORDS / "poker-classic-illegal-stage.json")])
    with pytest.raises(SystemExit):
        main()
    assert (
        capsys.readouterr().err
        == "kosti: ход 1, действие 2: score poker: сначала школа: единицы … шестёрки, потом комбинации\n"
    )


def test_the_games_load_no_catalog_until_a_refusal_is_worded() -> None:
    code = (
        "import sys, kosti.games, kosti.record\n"
        "print(any(m.startswith(('babel', 'kosti.i18n')) for m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


# -- random illegal actions on random states ----------------------------------------------------

CELLS = [*UPPER_CELLS, *LOWER_CELLS, "sevens"]


def tries(rng: random.Random, state: Any) -> list[Action]:
    """Actions to try at ``state``, most of them illegal there."""
    dice = list(getattr(state, "dice", ()) or [])
    actions: list[Action] = [Stop(), Throw(), SetAside(()), Hold(tuple(sorted(dice)))]
    actions += [Roll(tuple(rng.randint(0, 7) for _ in range(rng.randint(0, 6)))) for _ in range(3)]
    for _ in range(3):
        faces = tuple(sorted(rng.randint(1, 6) for _ in range(rng.randint(1, 5))))
        actions += [Hold(faces), SetAside(faces)]
        part = tuple(sorted(d for d in dice if rng.random() < 0.5))
        actions += [Hold(part), SetAside(part)]
    cell = rng.choice(CELLS)
    actions += [Score(cell), Scratch(cell), Announce(cell)]
    return actions


@settings(max_examples=25, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32))
def test_every_refusal_of_the_engines_has_a_code_worded_in_both_catalogs(preset: str, seed: int) -> None:
    rng = random.Random(seed)
    rules = variant(preset)
    engine = engine_for(rules)
    state = engine.new_game(rules, ["Anna", "Boris"][: rng.randint(1, 2)])
    en, ru = messages("en"), messages("ru")
    for _ in range(40):
        if engine.is_finished(state):
            break
        for action in tries(rng, state):
            try:
                engine.apply(state, action)
            except KostiError as error:
                assert isinstance(error, IllegalActionError), (action, error)
                key = refusal_key(error.code, error.params)
                assert key in en and key in ru, (action, error.code)
                assert fields(en[key]) == set(error.params) - {"why"}, (action, error.code)
                assert json.loads(json.dumps(error.params)) == error.params
                assert refusal_text(error, "ru") and "{" not in refusal_text(error, "ru")
        n = engine.to_throw(state)
        legal = engine.decisions(state)
        action = Roll(tuple(rng.randint(1, 6) for _ in range(n))) if n else rng.choice(legal)
        state = engine.apply(state, action)
