"""The round summary of showdown poker dice (RULES.md §2): after each showdown the board and the
log name every hand, say what settled it (the better hand, the sum of the hand, the sum of all
five, or a tie and a deciding round) and where the bank went, in both languages, at 80 × 24."""

from __future__ import annotations

from typing import Any

import pytest

from kosti.games.showdown.game import Showdown
from kosti.games.showdown.hands import classify, decided_by
from kosti.narrate import Narrator
from kosti.roller import ScriptedDice
from kosti.rules.presets import variant
from kosti.tui.app import KostiApp, PlayConfig
from kosti.tui.session import Seat

NAMES = {"en": ["Anna", "Boris"], "ru": ["Анна", "Борис"]}

# round 1: two pairs of equal rank, Anna's sixes beat Boris's fives by the sum of the hand;
# round 2: the same nothing twice, a tie; the deciding round: Anna's three fours beat a pair
THROWS = [(6, 6, 1, 2, 3), (5, 5, 4, 6, 3)]
THROWS += [(1, 2, 3, 4, 6), (1, 2, 3, 4, 6), (4, 4, 4, 1, 2), (6, 6, 1, 2, 3)]

EXPECTED = {
    "en": [
        [
            "Round 1, the showdown:",
            "Anna: pair, 1 2 3 6 6",
            "Boris: pair, 3 4 5 5 6",
            "equal hands (pair): Anna has the higher sum of the dice that form it, 12 to 10;"
            " the bank of 2 goes to Anna",
        ],
        [
            "Round 2, the showdown:",
            "Anna: nothing, 1 2 3 4 6",
            "Boris: nothing, 1 2 3 4 6",
            "still equal (nothing): Anna and Boris play a deciding round; the bank of 2 waits",
        ],
        [
            "Round 2, deciding round 1:",
            "Anna: three of a kind, 1 2 4 4 4",
            "Boris: pair, 1 2 3 6 6",
            "Anna has the best hand; the bank of 2 goes to Anna",
        ],
    ],
    "ru": [
        [
            "Раунд 1, вскрытие:",
            "Анна: пара, 1 2 3 6 6",
            "Борис: пара, 3 4 5 5 6",
            "комбинации равны (пара): у Анны больше сумма костей комбинации, 12 против 10;"
            " банк 2 забирает Анна",
        ],
        [
            "Раунд 2, вскрытие:",
            "Анна: ничего, 1 2 3 4 6",
            "Борис: ничего, 1 2 3 4 6",
            "снова поровну (ничего): Анна и Борис играют решающий раунд; банк 2 ждёт",
        ],
        [
            "Раунд 2, решающий раунд 1:",
            "Анна: тройка, 1 2 4 4 4",
            "Борис: пара, 1 2 3 6 6",
            "Анна — старшая комбинация; банк 2 забирает Анна",
        ],
    ],
}


def flat(text: str) -> str:
    return " ".join(text.split())


def app_for(lang: str) -> KostiApp:
    config = PlayConfig(
        lang=lang,
        preset="poker-showdown",
        options={"rounds": 3, "first_player": "seat"},
        seats=[Seat(name) for name in NAMES[lang]],
        bot_delay=0,
        save=False,
    )
    return KostiApp(config, dice=ScriptedDice(THROWS))


def log_of(app: KostiApp) -> str:
    log: Any = app.screen.query_one("#log")
    return flat(" ".join(strip.text for strip in log.lines))


def summary_of(app: KostiApp) -> str:
    return flat(str(app.screen.query_one("#summary").render()))


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.asyncio
async def test_every_showdown_is_summed_up_on_the_board_and_in_the_log(lang: str) -> None:
    app = app_for(lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert summary_of(app) == ""  # no showdown yet
        for summary, turns in zip(EXPECTED[lang], (2, 2, 2), strict=True):
            for _ in range(turns):
                await pilot.press("t", "s")
            await pilot.pause()
            title, *hands, verdict = summary
            board = summary_of(app)
            assert board == flat(" ".join([title, " · ".join(hands), verdict]))
            log = log_of(app)
            assert flat(" ".join(summary)) in log
        # Anna took both banks; the antes of round 3 are in
        session = app.session
        assert session is not None
        assert session.state.net == (1, -3)  # type: ignore[attr-defined]
        assert session.state.round == 3  # type: ignore[attr-defined]


def test_what_settled_a_showdown_follows_the_tiebreak_option() -> None:
    # equal pairs of sixes fall to the sum of all five; with tiebreak = total the hand's own sum never counts
    hands = [classify((6, 6, 1, 2, 5)), classify((6, 6, 3, 4, 2))]
    assert decided_by(hands, "hand_then_total") == "total"
    assert decided_by([hands[0], classify((6, 6, 5, 2, 1))]) == "tied"
    assert decided_by([classify((6, 6, 1, 2, 5)), classify((5, 5, 6, 4, 3))], "total") == "total"
    assert decided_by([classify((6, 6, 1, 2, 5)), classify((5, 5, 6, 4, 3))]) == "hand_sum"
    assert decided_by([classify((6, 6, 1, 2, 5)), None]) == "alone"
    narrator = Narrator(variant("poker-showdown", {"tiebreak": "total"}), ["Anna", "Boris"], "en")
    lines = narrator.showdown_summary(Showdown(1, 0, ((6, 6, 1, 2, 5), (5, 5, 6, 4, 3)), (1,), 2))
    assert lines[-1] == (
        "equal hands (pair): Boris has the higher sum of all five dice, 23 to 20; the bank of 2 goes to Boris"
    )
