"""Presets and options (RULES.md §1.5 and the option names): the registry, aliases, the
canonical string, overrides one at a time, and refusals that say what is wrong."""

from __future__ import annotations

from dataclasses import asdict, fields, replace
from typing import Any

import pytest

from kosti.errors import OptionError
from kosti.rules import (
    ALIASES,
    PRESETS,
    Options,
    SheetOptions,
    ShowdownOptions,
    ThousandOptions,
    option_docs,
    preset,
    variant,
)

SHEET_PRESETS = [
    "poker-classic",
    "poker-extended",
    "poker-mandatory",
    "poker-free",
    "poker-fences",
    "yahtzee",
    "yatzy",
]

# A value different from the preset's for every option of every family, as a user would type it.
OTHER_VALUES: dict[str, list[Any]] = {
    "first_player": ["seat", "rolloff"],
    "faces": ["cards", "pips"],
    "stake": [5, 1],
    "upper": ["sum", "deviation"],
    "lower": [["pair", "poker"], ["chance"]],
    "lower_scoring": ["free", "combination"],
    "straights": ["runs", "exact"],
    "first_throw": ["none", "double"],
    "poker_bonus": [25, 50],
    "four_bonus": [10, 20],
    "upper_bonus": ["sign", "nonnegative"],
    "upper_bonus_points": [30, 50],
    "upper_penalty_points": [10, 20],
    "upper_threshold": [60, 63],
    "stages": ["free", "sequential"],
    "banked_throws": [True, False],
    "bank_value": [2, 3],
    "scratch": [True, False],
    "columns": ["fences", "single"],
    "extra_yahtzee_bonus": [50, 100],
    "joker": ["forced", "free", "none"],
    "throws": [2, 3],
    "target": [1500, 1000],
    "opening": [100, 50],
    "opening_fail_penalty": [50, 0],
    "opening_fail_every": [2, 3],
    "set_aside": ["choice", "all"],
    "hot_dice": ["confirm", "continue"],
    "pits": [[[300, 400]], []],
    "overtake_penalty": [0, 50],
    "dump_at": [None, 555],
    "bolt_limit": [4, 3],
    "bolt_penalty": [50, 100],
    "bolts_when_restricted": [True, False],
    "barrel": ["open", "points"],
    "barrel_at": [800, 880],
    "barrel_attempts": [2, 3],
    "fall_penalty": [50, 100],
    "falls_limit": [2, None],
    "dots_limit": [3, 6],
    "ante": [2, 1],
    "rounds": [5, 10],
    "tiebreak": ["total", "hand_then_total"],
}


def test_the_presets_of_the_rules_exist() -> None:
    for name in [*SHEET_PRESETS, "poker-showdown", "thousand-classic", "thousand-v2"]:
        assert PRESETS[name].id == name
        assert preset(name).name("ru") and preset(name).name("en")
        assert preset(name).summary("ru") != preset(name).summary("en")
    assert {preset(p).family for p in SHEET_PRESETS} == {"sheet"}


def test_preset_table_of_rules_1_5() -> None:
    classic, extended, mandatory = (variant(p).options for p in SHEET_PRESETS[:3])
    free, fences, yahtzee, yatzy = (variant(p).options for p in SHEET_PRESETS[3:])
    assert isinstance(classic, SheetOptions)
    assert (classic.upper, classic.straights, classic.first_throw, classic.upper_bonus) == (
        "deviation",
        "exact",
        "double",
        "nonnegative",
    )
    assert isinstance(extended, SheetOptions) and "even" in extended.lower and extended.straights == "runs"
    assert isinstance(mandatory, SheetOptions)
    assert (mandatory.upper_bonus, mandatory.four_bonus, mandatory.bank_value) == ("none", 20, 3)
    assert isinstance(free, SheetOptions)
    assert (free.upper, free.lower_scoring, free.first_throw, free.stages) == ("sum", "free", "none", "free")
    assert isinstance(fences, SheetOptions)
    assert (fences.columns, fences.scratch, fences.banked_throws, fences.poker_bonus) == (
        "fences",
        True,
        True,
        0,
    )
    assert isinstance(yahtzee, SheetOptions)
    assert (yahtzee.upper_bonus_points, yahtzee.extra_yahtzee_bonus, yahtzee.joker) == (35, 100, "forced")
    for options in (classic, extended, mandatory):
        assert options.stages == "sequential" and options.poker_bonus == 50
    # yatzy: sum upper; pair, two_pairs, three_of_a_kind, four_of_a_kind, small_straight,
    # large_straight, full_house, chance, yatzy; exact 1-5 / 2-6; no multiplier;
    # upper ≥ 63: +50; no joker, no extra bonus
    assert isinstance(yatzy, SheetOptions)
    assert yatzy.lower == (
        "pair",
        "two_pairs",
        "three_of_a_kind",
        "four_of_a_kind",
        "small_straight",
        "large_straight",
        "full_house",
        "chance",
        "yatzy",
    )
    assert (yatzy.upper, yatzy.lower_scoring, yatzy.straights, yatzy.first_throw) == (
        "sum",
        "combination",
        "exact",
        "none",
    )
    assert (yatzy.upper_bonus, yatzy.upper_threshold, yatzy.upper_bonus_points) == ("threshold", 63, 50)
    assert (yatzy.joker, yatzy.extra_yahtzee_bonus) == ("none", 0)
    assert (yatzy.stages, yatzy.columns) == ("free", "single")
    assert not yatzy.banked_throws and not yatzy.scratch


# RULES.md §3.5, with the classic values of §3.3 for what it does not name
THOUSAND_CLASSIC: dict[str, Any] = {
    "first_player": "rolloff",
    "faces": "pips",
    "stake": 1,
    "target": 1000,
    "opening": 50,
    "opening_fail_penalty": 0,
    "opening_fail_every": 3,
    "set_aside": "all",
    "hot_dice": "continue",
    "pits": ((200, 300), (600, 700)),
    "overtake_penalty": 50,
    "dump_at": 555,
    "bolt_limit": 3,
    "bolt_penalty": 100,
    "bolts_when_restricted": False,
    "barrel": "points",
    "barrel_at": 880,
    "barrel_attempts": 3,
    "fall_penalty": 100,
    "falls_limit": None,  # the points barrel's own: the 3rd fall (thousand-barrel-points-third-fall)
    "dots_limit": 6,
}
THOUSAND_V2: dict[str, Any] = {
    **THOUSAND_CLASSIC,
    "opening": 75,
    "set_aside": "choice",
    "hot_dice": "confirm",
    "pits": (),
    "overtake_penalty": 0,
    "dump_at": None,
    "bolt_limit": 0,
    "barrel": "capped",
    "barrel_at": 850,
}


@pytest.mark.parametrize(
    ("name", "values"), [("thousand-classic", THOUSAND_CLASSIC), ("thousand-v2", THOUSAND_V2)]
)
def test_preset_table_of_rules_3_5(name: str, values: dict[str, Any]) -> None:
    options = variant(name).options
    assert isinstance(options, ThousandOptions)
    # every option, so that a new one must be given its value here
    assert asdict(options) == values


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_preset_is_its_own_canonical_string(name: str) -> None:
    v = variant(name)
    assert v.spec == name
    assert v.overrides() == {}
    assert variant(v.spec) == v
    assert str(v) == name


@pytest.mark.parametrize("name", list(PRESETS))
def test_overriding_one_option_at_a_time_round_trips(name: str) -> None:
    base = variant(name)
    for f in fields(base.options):
        value = next(v for v in OTHER_VALUES[f.name] if v != _json(getattr(base.options, f.name)))
        if name == "yahtzee" and f.name == "columns":
            continue  # three columns are not played with the yahtzee sheet (a checked refusal)
        changed = variant(name, {f.name: value})
        assert _json(getattr(changed.options, f.name)) == value
        assert changed.overrides() == {f.name: value}
        assert changed.spec.startswith(f"{name}({f.name}=")
        assert variant(changed.spec) == changed
        # every other option keeps the preset's value
        for other in fields(base.options):
            if other.name != f.name:
                assert getattr(changed.options, other.name) == getattr(base.options, other.name)


def _json(value: Any) -> Any:
    return [_json(v) for v in value] if isinstance(value, tuple) else value


def test_thousand_and_showdown_options_round_trip() -> None:
    v = variant("thousand-classic", {"pits": [[100, 150]], "dump_at": None, "barrel": "open"})
    assert variant(v.spec) == v
    assert v.overrides() == {"pits": [[100, 150]], "dump_at": None, "barrel": "open"}
    s = variant("poker-showdown(rounds=3,tiebreak=total)")
    assert variant(s.spec) == s
    assert s.spec == "poker-showdown(rounds=3,tiebreak=total)"


def test_canonical_string_sorts_options_and_reads_bare_words() -> None:
    a = variant("poker-classic", {"stages": "free", "four_bonus": 10})
    assert a.spec == "poker-classic(four_bonus=10,stages=free)"
    b = variant("poker-classic( stages=free , four_bonus=10 )")
    assert a == b
    c = variant("poker-classic(lower=[pair,poker])")
    assert isinstance(c.options, SheetOptions)
    assert c.options.lower == ("pair", "poker")
    assert c.spec == 'poker-classic(lower=["pair","poker"])'
    assert variant(c.spec) == c
    # strings for booleans and numbers, as a command line gives them
    d = variant("poker-classic(scratch=yes,throws=4)")
    assert isinstance(d.options, SheetOptions)
    assert (d.options.scratch, d.options.throws) == (True, 4)


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("poker", "poker-classic"),
        ("classic", "poker-classic"),
        ("ограды", "poker-fences"),
        ("1000", "thousand-classic"),
    ],
)
def test_aliases(alias: str, name: str) -> None:
    assert preset(alias).id == name
    assert variant(alias).spec == name
    assert preset(alias.upper()).id == name
    assert ALIASES[alias] == name


def test_every_alias_points_to_a_preset() -> None:
    for name in ALIASES.values():
        assert name in PRESETS


@pytest.mark.parametrize(
    ("spec", "overrides", "reason"),
    [
        ("poker-royal", None, "unknown preset 'poker-royal'"),
        ("poker-classic", {"colour": "red"}, "poker-classic has no option 'colour'"),
        ("poker-classic(colour=red)", None, "has no option 'colour'"),
        ("poker-classic", {"stages": "loose"}, "option stages is one of sequential | free, not 'loose'"),
        ("poker-classic", {"throws": "many"}, "option throws is a whole number, not 'many'"),
        ("poker-classic", {"throws": True}, "whole number"),
        ("poker-classic", {"throws": 0}, "throws must be at least 1"),
        ("poker-classic", {"scratch": 3}, "option scratch is true or false"),
        ("poker-classic", {"lower": ["pair", "royal_flush"]}, "unknown lower cell 'royal_flush'"),
        ("poker-classic", {"lower": ["pair", "pair"]}, "listed twice"),
        ("poker-classic", {"lower": "pair"}, "is a list"),
        ("poker-classic(stages)", None, "name=value"),
        ("yahtzee", {"columns": "fences"}, "not played with the yahtzee sheet"),
        ("thousand-classic", {"pits": [[300, 200]]}, "a pit runs from low to high"),
        ("thousand-classic", {"pits": [[1, 2, 3]]}, "needs 2 values"),
        ("poker-showdown", {"ante": -1}, "cannot be negative"),
    ],
)
def test_bad_options_are_refused_with_a_reason(
    spec: str, overrides: dict[str, Any] | None, reason: str
) -> None:
    with pytest.raises(OptionError) as caught:
        variant(spec, overrides)
    assert reason in str(caught.value)


def test_the_unknown_preset_message_lists_the_known_ones() -> None:
    with pytest.raises(OptionError) as caught:
        preset("nope")
    for name in SHEET_PRESETS:
        assert name in str(caught.value)


def test_every_option_is_documented() -> None:
    for p in PRESETS.values():
        for name, _, doc in option_docs(p.options):
            assert doc, f"{p.id}: option {name} has no docstring"


# -- every options class checks its own invariants (one home for each check) -------------------

OptionsClass = type[SheetOptions] | type[ThousandOptions] | type[ShowdownOptions]
PRESET_OF: dict[OptionsClass, str] = {
    SheetOptions: "poker-classic",
    ThousandOptions: "thousand-classic",
    ShowdownOptions: "poker-showdown",
}
"""A preset whose options are the class's defaults, so an override there breaks the same invariant."""

BROKEN: list[tuple[OptionsClass, dict[str, Any], str]] = [
    (SheetOptions, {"lower": ("pair", "royal_flush")}, "unknown lower cell 'royal_flush'"),
    (SheetOptions, {"lower": ("pair", "pair")}, "a lower cell is listed twice"),
    (SheetOptions, {"throws": 0}, "throws must be at least 1"),
    (SheetOptions, {"columns": "fences", "lower_scoring": "yahtzee"}, "not played with the yahtzee sheet"),
    (ThousandOptions, {"pits": ((300, 200),)}, "a pit runs from low to high, not [300, 200]"),
    (ThousandOptions, {"pits": ((300, 300),)}, "a pit runs from low to high, not [300, 300]"),
    (ThousandOptions, {"opening": -1}, "opening must be ≥ 0 and target > 0"),
    (ThousandOptions, {"target": 0, "barrel": "none"}, "opening must be ≥ 0 and target > 0"),
    (ThousandOptions, {"barrel_at": 5000}, "barrel_at must lie between 0 and the target"),
    (ThousandOptions, {"barrel_at": 1000}, "barrel_at must lie between 0 and the target"),
    (ThousandOptions, {"barrel_at": 0}, "barrel_at must lie between 0 and the target"),
    (ThousandOptions, {"barrel": "capped", "barrel_at": 1000}, "barrel_at must lie between 0 and the target"),
    (ThousandOptions, {"target": 880}, "barrel_at must lie between 0 and the target"),
    (ThousandOptions, {"opening_fail_every": 0}, "opening_fail_every must be at least 1"),
    (ThousandOptions, {"barrel_attempts": 0}, "barrel_attempts must be at least 1"),
    (ThousandOptions, {"dots_limit": 0}, "dots_limit must be at least 1"),
    (ThousandOptions, {"falls_limit": 0}, "falls_limit must be at least 1"),
    (ShowdownOptions, {"rounds": 0}, "rounds must be at least 1"),
    (ShowdownOptions, {"throws": 0}, "throws must be at least 1"),
    (ShowdownOptions, {"ante": -1}, "the ante cannot be negative"),
]
"""Each invariant broken, at its boundary where it has one (the valid side is in :data:`VALID`)."""

VALID: list[tuple[OptionsClass, dict[str, Any]]] = [
    (SheetOptions, {"lower": ("pair", "yatzy", "yahtzee")}),
    (SheetOptions, {"throws": 1}),
    (SheetOptions, {"columns": "fences", "lower_scoring": "free"}),
    (ThousandOptions, {"pits": ((299, 300),)}),
    (ThousandOptions, {"pits": ()}),
    (ThousandOptions, {"opening": 0}),
    (ThousandOptions, {"target": 1, "barrel": "none"}),
    (ThousandOptions, {"barrel_at": 999}),
    (ThousandOptions, {"barrel_at": 1}),
    (ThousandOptions, {"barrel": "capped", "barrel_at": 999}),
    (ThousandOptions, {"target": 881}),
    # the open barrel and no barrel do not use barrel_at: any value stands
    (ThousandOptions, {"barrel": "open", "barrel_at": 5000}),
    (ThousandOptions, {"barrel": "none", "barrel_at": 1000}),
    (ThousandOptions, {"opening_fail_every": 1}),
    (ThousandOptions, {"barrel_attempts": 1, "dots_limit": 1, "falls_limit": 1}),
    (ThousandOptions, {"falls_limit": None}),
    (ShowdownOptions, {"rounds": 1, "throws": 1}),
    (ShowdownOptions, {"ante": 0}),
]


def _label(case: Any) -> str:
    return case.__name__ if isinstance(case, type) else str(case)


@pytest.mark.parametrize(("cls", "kwargs", "reason"), BROKEN, ids=_label)
def test_options_made_directly_refuse_a_broken_invariant(
    cls: OptionsClass, kwargs: dict[str, Any], reason: str
) -> None:
    with pytest.raises(OptionError) as caught:
        cls(**kwargs)
    assert reason in str(caught.value)


@pytest.mark.parametrize(("cls", "kwargs", "reason"), BROKEN, ids=_label)
def test_replace_and_variant_refuse_with_the_same_message(
    cls: OptionsClass, kwargs: dict[str, Any], reason: str
) -> None:
    with pytest.raises(OptionError) as direct:
        cls(**kwargs)
    with pytest.raises(OptionError) as replaced:
        replace(cls(), **kwargs)
    with pytest.raises(OptionError) as overridden:
        variant(PRESET_OF[cls], {k: _json(v) for k, v in kwargs.items()})
    assert str(direct.value) == str(replaced.value) == str(overridden.value)


@pytest.mark.parametrize(("cls", "kwargs"), VALID, ids=_label)
def test_options_on_the_valid_side_of_each_boundary_are_made(
    cls: OptionsClass, kwargs: dict[str, Any]
) -> None:
    options: Options = cls(**kwargs)
    for name, value in kwargs.items():
        assert getattr(options, name) == value
    assert replace(cls(), **kwargs) == options
    assert variant(PRESET_OF[cls], {k: _json(v) for k, v in kwargs.items()}).options == options


def test_replace_keeps_working_on_valid_options() -> None:
    classic = ThousandOptions()
    moved = replace(classic, barrel_at=900)
    assert (moved.barrel_at, classic.barrel_at) == (900, 880)
    # a replace that breaks an invariant is refused and leaves the original as it was
    with pytest.raises(OptionError, match="barrel_at must lie between 0 and the target"):
        replace(moved, target=900)
    assert moved == replace(classic, barrel_at=900)
