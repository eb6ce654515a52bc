"""Every rule of «Тысяча» as a game record (RULES.md §3, §5): replayed and compared with its expectation.

Each ``tests/records/thousand-<rule>.json`` is a short game typed in as a scorekeeper
would; ``thousand-<rule>.expected.json`` holds, worked out by hand from the rules, what
the summary after the last action must contain.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import contains

from kosti.games.thousand.game import ThousandState
from kosti.record import load, replay, states
from kosti.show import summary

RECORDS = Path(__file__).parents[1] / "records"

RULES = (
    "classic-opening",
    "opening",
    "opening-fail-penalty",
    "pit",
    "overtake",
    "overtake-several",
    "dump",
    "dump-penalty",
    "dump-bolt",
    "bolts",
    "bolts-restricted",
    "bolts-when-restricted",
    "barrel-points-win",
    "barrel-points-fall",
    "barrel-points-third-fall",
    "barrel-points-knock-off",
    "barrel-open-win",
    "barrel-open-dot",
    "barrel-open-six-dots",
    "barrel-open-dots-penalty",
    "barrel-capped",
    "barrel-capped-win",
    "barrel-capped-knock-off",
    "barrel-none",
    "win-at-once",
    "hot-dice-continue",
    "hot-dice-confirm",
    "hot-dice-confirm-restricted",
    "set-aside-choice",
    "order",
    # the [choice] rules of RULES.md §3.2 and §3.4
    "confirm-short-of-pit",
    "confirm-short-of-barrel",
    "win-without-effects",
    "fall-before-bolt-penalty",
    "counts-restart",
    "barrel-open-dots-restart",
    "opening-fail-count",
    "penalty-off-barrel",
)


def test_every_rule_has_a_record() -> None:
    on_disk = {
        p.name.removeprefix("thousand-").removesuffix(".json") for p in RECORDS.glob("thousand-*.json")
    }
    on_disk = {name for name in on_disk if not name.endswith(".expected")}
    assert set(RULES) == on_disk


@pytest.mark.parametrize("rule", RULES)
def test_record_replays_to_its_expectation(rule: str) -> None:
    state = replay(load(RECORDS / f"thousand-{rule}.json"))
    assert isinstance(state, ThousandState)
    expected = json.loads((RECORDS / f"thousand-{rule}.expected.json").read_text(encoding="utf-8"))
    contains(summary(state), expected)


@pytest.mark.parametrize("rule", RULES)
def test_the_turn_count_grows_exactly_when_a_turn_ends(rule: str) -> None:
    record = load(RECORDS / f"thousand-{rule}.json")
    for t, a, state in states(record):
        if t == 0:
            assert state.turn == 0
            continue
        last = a == len(record.turns[t - 1].actions)
        assert state.turn == (t if last else t - 1), (t, a)
