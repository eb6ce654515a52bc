"""Hints say what they mean: in «Тысяча» what a stop banks now (exact) apart from the
heuristic's estimate, the runner-up as the "next best", Russian plurals that agree, and a number
that is not exact said to be the bot's rough estimate (the page says it in its note instead)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import TINY_THOUSAND

from kosti.actions import SetAside, Stop, Throw
from kosti.bots.base import Advice
from kosti.games.thousand.game import ThousandState
from kosti.i18n import Catalog
from kosti.phrases import hint_text
from kosti.roller import ScriptedDice
from kosti.rules.presets import variant
from kosti.tui.session import Seat, Session


def thousand_state(total: int) -> ThousandState:
    session = Session.new(variant("thousand-classic"), [Seat("Anna"), Seat("Boris")], ScriptedDice([]))
    state = session.state
    assert isinstance(state, ThousandState)
    return replace(state, turn_total=total, pending=0)


@pytest.mark.parametrize(
    ("n", "words"),
    [
        (1, "записывает 1 очко сейчас"),
        (21, "записывает 21 очко сейчас"),
        (24, "записывает 24 очка сейчас"),
        (22, "записывает 22 очка сейчас"),
        (25, "записывает 25 очков сейчас"),
        (11, "записывает 11 очков сейчас"),
        (12, "записывает 12 очков сейчас"),
        (111, "записывает 111 очков сейчас"),
        (122, "записывает 122 очка сейчас"),
        (135, "записывает 135 очков сейчас"),
    ],
)
def test_russian_plurals_agree_with_the_points(n: int, words: str) -> None:
    advice = [Advice(Stop(), float(n), 0.0)]
    assert words in hint_text("thousand", advice, Catalog("ru"), "pips", thousand_state(n))


def test_english_plurals() -> None:
    t = Catalog("en")
    assert "banks 1 point now" in hint_text(
        "thousand", [Advice(Stop(), 1.0, 0.0)], t, "pips", thousand_state(1)
    )
    assert "banks 5 points now" in hint_text(
        "thousand", [Advice(Stop(), 5.0, 0.0)], t, "pips", thousand_state(5)
    )


def test_a_thousand_stop_says_what_it_banks_apart_from_the_estimate() -> None:
    # the case: stopping banks exactly 135; the heuristic adds 25 for half an overtaking penalty
    advice = [Advice(Stop(), 160.0, 0.0), Advice(Throw(), 147.7, 12.3)]
    line = hint_text("thousand", advice, Catalog("en"), "pips", thousand_state(135))
    assert line == (
        "Best: stop (banks 135 points now; ≈ 160 points from this turn — the bot's rough estimate, "
        "not exact; +25 of it for the table: overtaking, pits, bolts) · next best: throw on, −12.3"
    )
    assert "then" not in line


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Best: throw on (≈ 22 points from this turn — the bot's rough estimate, not exact)"),
        ("ru", "Лучше всего: бросать дальше (≈ 22 очка за ход — прикидка бота, не точный расчёт)"),
    ],
)
def test_the_heuristics_number_says_what_it_is_and_that_it_is_not_exact(lang: str, words: str) -> None:
    # the newcomer's case: «оценка эвристики ≈ 22» said nothing of points, nor of how sure it is
    advice = [Advice(Throw(), 22.0, 0.0), Advice(Stop(), 0.0, 22.0)]
    line = hint_text("thousand", advice, Catalog(lang), "pips", thousand_state(0))
    assert line.startswith(words)
    assert "эвристик" not in line and "heuristic" not in line


@pytest.mark.parametrize(
    ("lang", "rough"),
    [("en", "the bot's rough estimate, not exact"), ("ru", "прикидка бота, не точный расчёт")],
)
def test_every_number_not_exact_says_so_and_an_exact_one_does_not(lang: str, rough: str) -> None:
    t = Catalog(lang)
    sheet = hint_text("sheet", [Advice(Throw(), 212.0, 0.0)], t, "pips")
    assert sheet.endswith(f"({t('hint.sheet_value', value='212')} — {rough})")
    assert rough not in hint_text("sheet", [Advice(Throw(), 212.0, 0.0, exact=True)], t, "pips")
    assert f"40% — {rough})" in hint_text("showdown", [Advice(Throw(), 0.4, 0.0)], t, "pips")
    # the solver's chances at a table of three: advised as against the strongest opponent alone
    three = [Advice(Stop(), 0.62, 0.0, chance=True), Advice(Throw(), 0.6, 0.02, chance=True)]
    assert f"% — {rough})" in hint_text("thousand", three, t, "pips", thousand_state(135))
    two = [replace(a, exact=True) for a in three]
    assert rough not in hint_text("thousand", two, t, "pips", thousand_state(135))


def test_the_page_words_the_number_alone_for_its_note_says_whether_it_is_exact() -> None:
    from kosti.server.hints import PageWords

    advice = [Advice(Throw(), 0.4, 0.0)]
    for lang in ("en", "ru"):
        line = hint_text("showdown", advice, PageWords(lang), "pips")
        assert line.endswith("≈ 40%)"), line
    thousand = hint_text("thousand", [Advice(Throw(), 22.0, 0.0)], PageWords("ru"), "pips", thousand_state(0))
    assert thousand == "Лучше всего: бросать дальше (прикидка бота: ≈ 22 за этот ход)"


def test_setting_aside_says_the_points_it_adds() -> None:
    state = replace(thousand_state(50), dice=(1, 5, 2, 3, 3), choosing=True)
    advice = [Advice(SetAside((1,)), 210.0, 0.0), Advice(SetAside((1, 5)), 200.0, 10.0)]
    line = hint_text("thousand", advice, Catalog("ru"), "pips", state)
    assert "+10 очков к ходу" in line
    assert "следующий по силе: отложить 1 5, −10" in line


def test_settlement_is_a_decimal_with_the_exact_fraction_beside_it() -> None:
    from fractions import Fraction

    from kosti.tui.end_screen import settlement_text

    assert settlement_text(Fraction(347, 2)).plain == "+173.5 (+347/2)"
    assert settlement_text(Fraction(-5, 3)).plain == "−1.67 (−5/3)"
    assert settlement_text(Fraction(-5, 3), decimal_comma=True).plain == "−1,67 (−5/3)"
    assert settlement_text(Fraction(12)).plain == "+12"
    assert settlement_text(0).plain == "0"


def test_the_rules_screen_is_this_tables() -> None:
    from kosti.tui.help_screen import rules_markdown

    classic = rules_markdown(variant("thousand-classic"), Catalog("en"))
    assert "This table: opening 50, pits 200–300, 600–700, barrel 880 × 3" in classic
    assert "Overtaking** a player costs them 50" in classic
    v2 = rules_markdown(variant("thousand-v2"), Catalog("ru"))
    assert "За этим столом: открытие 75, бочка с потолком 850." in v2
    for absent in ("Обгон", "Самосвал", "Болты", "Ямы", "обгон"):
        assert absent not in v2, absent  # thousand-v2 has none of these penalties
    for raw in ("rolloff", "choice", "capped", "false", "True", "None"):
        assert raw not in v2, raw  # values in words, in Russian
    assert "| Откладывание костей | на выбор |" in v2
    fences = rules_markdown(variant("poker-fences"), Catalog("en"))
    assert "Upper bonus threshold" not in fences  # the sign rule has no threshold
    assert "| Scratching | yes |" in fences


TINY = TINY_THOUSAND


def test_exact_advice_shows_every_choice_with_its_chance_of_winning() -> None:
    state = thousand_state(135)
    advice = [
        Advice(Stop(), 0.624, 0.0, chance=True, exact=True),
        Advice(Throw(), 0.581, 0.043, chance=True, exact=True),
    ]
    assert hint_text("thousand", advice, Catalog("en"), "pips", state) == (
        "Best: stop (banks 135 points now; chance of winning 62.4%) · next best: throw on, 58.1% (−4.3%)"
    )
    assert hint_text("thousand", advice, Catalog("ru"), "pips", state) == (
        "Лучше всего: хватит (записывает 135 очков сейчас; шанс на победу 62,4%)"
        " · следующий по силе: бросать дальше, 58,1% (−4,3%)"
    )
    # no word of an estimate once the values are exact
    assert "estimate" not in hint_text("thousand", advice, Catalog("en"), "pips", state)


def test_exact_advice_on_which_dice_to_set_aside_lists_them_all() -> None:
    state = replace(thousand_state(50), dice=(1, 5, 2, 3, 3), choosing=True)
    advice = [
        Advice(SetAside((1,)), 0.55, 0.0, chance=True, exact=True),
        Advice(SetAside((1, 5)), 0.53, 0.02, chance=True, exact=True),
        Advice(SetAside((5,)), 0.5, 0.05, chance=True, exact=True),
    ]
    line = hint_text("thousand", advice, Catalog("ru"), "pips", state)
    assert line.startswith("Лучше всего: отложить 1 (+10 очков к ходу; шанс на победу 55,0%)")
    assert "следующий по силе: отложить 1 5, 53,0% (−2,0%) · ещё: отложить 5, 50,0% (−5,0%)" in line
    english = hint_text("thousand", advice, Catalog("en"), "pips", state)
    assert english.endswith("· next best: set aside 1 5, 53.0% (−2.0%) · also: set aside 5, 50.0% (−5.0%)")


@pytest.mark.asyncio
@pytest.mark.parametrize(("lang", "words"), [("en", "chance of winning"), ("ru", "шанс на победу")])
async def test_h_in_a_small_thousand_game_gives_the_solvers_chances(lang: str, words: str) -> None:
    from kosti.tui.app import KostiApp, PlayConfig
    from kosti.tui.game_screen import GameScreen

    seats = [Seat("Anna"), Seat("Boris")]
    preset = TINY.replace("target=20", "first_player=seat,target=20")
    config = PlayConfig(lang=lang, preset=preset, seats=seats, bot_delay=0, save=False)
    app = KostiApp(config, dice=ScriptedDice([(1, 5, 2, 3, 3)]))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("t", "h")
        await pilot.pause()
        message = str(app.screen.query_one("#message").render())
        assert words in message
        session = app.session
        assert session is not None
        # 15 set aside of 20, opening 10: both throwing on and stopping are open, each with its chance
        chances = session.advice()
        assert all(a.chance for a in chances) and len(chances) == 2
        assert "%" in message.split("·")[1]
