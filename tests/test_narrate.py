"""Events in words (RULES.md §5.1): the examples of the logs, Russian plurals and names, and a
line for every event of every preset in both languages."""

from __future__ import annotations

import random

import pytest

from kosti.actions import Roll
from kosti.events import Event
from kosti.i18n import catalog, plural_category
from kosti.narrate import Narrator, accusative, number, signed
from kosti.record import Recorder
from kosti.roller import SeededDice
from kosti.rules import PRESETS, variant

RU = ["Анна", "Борис", "Вера"]
EN = ["Anna", "Boris", "Vera"]


def say(lang: str, event: Event, spec: str | None = None) -> str:
    names = RU if lang == "ru" else EN
    return Narrator(variant(spec) if spec else None, names, lang).describe(event)


def test_overtaking_names_both_players_in_the_right_case() -> None:
    event = Event(4, 0, "overtaken", -50, 200, by=1)
    assert say("ru", event) == "Борис обгоняет Анну: −50"
    assert say("en", event) == "Boris overtakes Anna: −50"


def test_the_dump_third_bolt_and_fall_read_as_players_say_them() -> None:
    assert say("ru", Event(2, 1, "dump", -555, 0)).endswith("самосвал: 555 → 0")
    assert say("ru", Event(2, 0, "bolt_penalty", -100, 40, count=3, limit=3)).endswith("третий болт: −100")
    assert say("en", Event(2, 0, "bolt_penalty", -100, 40, count=3, limit=3)).endswith("third bolt: −100")
    fall = Event(5, 0, "fall", -100, 780, count=1, limit=3)
    assert say("ru", fall).endswith("падение с бочки (1/3): −100")
    assert say("en", fall).endswith("falls off the barrel (1/3): −100")


def test_the_fall_at_the_dots_limit_and_the_dots_restarting_read_in_both_languages() -> None:
    spec = "thousand-classic(barrel=open,falls_limit=2)"
    fall = Event(4, 0, "fall", -100, -40, count=1, limit=2)
    assert say("en", fall, spec) == "Anna falls for the dots (1/2): −100"
    assert say("ru", fall, spec) == "Анна — падение за точки (1/2): −100"
    restart = Event(4, 0, "dot_penalty", 0, -40, count=6, limit=6)
    assert say("en", restart, spec) == "Anna: sixth dot: the dots start again"
    assert say("ru", restart, spec) == "Анна — шестая точка: счёт точек заново"
    # a fall from a points barrel still reads as one; a dot penalty with points still shows them
    assert say("en", fall, "thousand-classic") == "Anna falls off the barrel (1/2): −100"
    assert say("ru", Event(4, 0, "dot_penalty", -100, -40, count=6, limit=6)) == "Анна — шестая точка: −100"


def test_an_upper_cell_says_how_its_deviation_is_made() -> None:
    # seed 000: sixes 1,6,6,6,6 → +6
    event = Event(0, 0, "recorded", 6, 6, cell="sixes", dice=(1, 6, 6, 6, 6))
    assert say("en", event, "poker-classic").endswith("sixes +6: four sixes, (4 − 3) × 6")
    assert say("ru", event, "poker-classic").endswith("«шестёрки» +6: четыре шестёрки, (4 − 3) × 6")
    # none is −3f (seed 000: the deviation of an absent face)
    none = Event(0, 0, "recorded", -9, -9, cell="threes", dice=(1, 1, 2, 5, 6))
    assert say("en", none, "poker-classic").endswith("no threes, (0 − 3) × 3")
    # sum scoring (poker-free, seed 000: 2,2,2,4,5 → twos 6)
    twos = Event(0, 0, "recorded", 6, 6, cell="twos", dice=(2, 2, 2, 4, 5))
    assert say("ru", twos, "poker-free").endswith("три двойки, 3 × 2")


def test_a_lower_cell_shows_the_multiplier_and_the_poker_bonus() -> None:
    poker = Event(0, 0, "recorded", 110, 110, cell="poker", dice=(6,) * 5, first_throw=True)
    assert say("en", poker, "poker-classic").endswith("poker +110: 6 6 6 6 6, 30 × 2 + 50")
    full = Event(
        0, 0, "recorded", 72, 72, cell="full_house", dice=(3, 3, 6, 6, 6), first_throw=True, column=0
    )
    assert say("en", full, "poker-fences") == "Anna: column I, full house +72: 3 3 6 6 6, 24 × 3"
    dash = Event(0, 0, "recorded", 0, 0, cell="four_of_a_kind", dice=(1, 2, 3, 4, 6))
    assert say("ru", dash, "poker-classic").endswith("«каре» 0: нет комбинации «каре»")


def test_a_fences_column_names_its_upper_section() -> None:
    event = Event(30, 1, "upper_bonus", -20, 100, column=1)
    assert say("en", event, "poker-fences") == "Boris: column II: upper section −20"
    assert say("ru", event, "poker-fences") == "Борис: столбец II: школа −20"


@pytest.mark.parametrize(
    ("n", "ru", "en"),
    [
        (0, "0 очков", "0 points"),
        (1, "1 очко", "1 point"),
        (2, "2 очка", "2 points"),
        (4, "4 очка", "4 points"),
        (5, "5 очков", "5 points"),
        (11, "11 очков", "11 points"),
        (12, "12 очков", "12 points"),
        (21, "21 очко", "21 points"),
        (24, "24 очка", "24 points"),
        (111, "111 очков", "111 points"),
    ],
)
def test_points_agree_with_their_number(n: int, ru: str, en: str) -> None:
    assert Narrator(None, RU, "ru").points(n) == ru
    assert Narrator(None, EN, "en").points(n) == en


def test_plural_categories_follow_cldr_on_both_sides_of_each_boundary() -> None:
    assert [plural_category("ru", n) for n in (1, 2, 4, 5, 11, 14, 20, 21, 22, 25)] == [
        "one",
        "few",
        "few",
        "many",
        "many",
        "many",
        "many",
        "one",
        "few",
        "many",
    ]
    assert [plural_category("en", n) for n in (0, 1, 2)] == ["other", "one", "other"]


def test_names_that_are_not_one_russian_word_stay_as_they_are() -> None:
    assert accusative("Вера", "ru") == "Веру"
    assert accusative("Борис", "ru") == "Бориса"
    assert accusative("Anna", "ru") == "Anna"
    assert accusative("Бот 2", "ru") == "Бот 2"
    assert accusative("Анна", "en") == "Анна"


def test_numbers_use_a_true_minus_sign() -> None:
    assert (number(-20), signed(-20), signed(6), signed(0), number(7)) == ("−20", "−20", "+6", "0", "7")


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_event_of_a_played_game_has_a_whole_line(preset: str, lang: str) -> None:
    names = (RU if lang == "ru" else EN)[:2]
    recorder = Recorder(variant(preset), names)
    engine = recorder.engine
    narrator = Narrator(recorder.state.variant, names, lang)
    lines = narrator.describe_all(recorder.state.events)
    dice, rng = SeededDice(7), random.Random(7)
    for _ in range(2000):
        if engine.is_finished(recorder.state):
            break
        n = engine.to_throw(recorder.state)
        recorder.apply(Roll(dice.roll(n)) if n else rng.choice(engine.decisions(recorder.state)))
        lines += narrator.describe_all(recorder.state.events)
    assert lines
    t = catalog(lang)
    for line in lines:
        assert "{" not in line and "None" not in line and "event." not in line, line
        assert "-" not in line.replace(" - ", ""), line  # a minus is U+2212, never a hyphen
    assert t.has("event.recorded")


def test_a_signed_number_is_written_as_its_language_writes_decimals() -> None:
    """The Russian hint writes −56,7 as the end screen writes 507,5; whole numbers keep no
    decimals and no grouping (+1000, as the events say)."""
    from kosti.phrases import signed

    assert signed(-56.7, "ru") == "−56,7" and signed(-56.7) == "−56.7"
    assert signed(1000, "ru") == "+1000" and signed(3) == "+3" and signed(0, "ru") == "0"
    assert signed(2.0) == "+2" and signed(-0.5, "ru") == "−0,5"
