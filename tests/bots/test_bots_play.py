"""Bots over whole seeded games: only legal actions, ever; and the heuristics beat chance."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from kosti.actions import Action
from kosti.bots.base import Advisor, Bot, play_out
from kosti.games import engine_for, new_game
from kosti.games.base import GameState
from kosti.levels import make_bot
from kosti.roller import SeededDice
from kosti.rules.options import SheetOptions, ShowdownOptions
from kosti.rules.presets import PRESETS, variant


@dataclass
class Checked:
    """A bot whose every choice is checked: it decides only for its own seat, only when no dice
    are to be thrown, and only among the engine's legal decisions."""

    bot: Bot
    seat: int
    moves: int = 0

    @property
    def name(self) -> str:
        return self.bot.name

    def choose(self, state: GameState) -> Action:
        engine = engine_for(state.variant)
        assert engine.current_player(state) == self.seat, f"{self.bot.name} asked to decide for another seat"
        assert engine.to_throw(state) == 0, f"{self.bot.name} asked to decide while dice are to be thrown"
        action = self.bot.choose(state)
        legal = engine.decisions(state)
        assert action in legal, f"{self.bot.name} chose {action} among {legal}"
        self.moves += 1
        return action


def fewest_decisions(end: GameState) -> int:
    """The fewest decisions each seat must have made to reach the end of a finished game.

    Score sheets: every cell of every column is recorded by a decision (RULES.md §1.1, §1.7).
    Showdown: the first throw of each turn is followed by a stand or a hold (§2), once a round.
    «Тысяча»: a turn can end on its first throw, without any decision (§3.2).
    """
    options = end.variant.options
    if isinstance(options, SheetOptions):
        return (6 + len(options.lower)) * (3 if options.columns == "fences" else 1)
    if isinstance(options, ShowdownOptions):
        return options.rounds if options.throws > 1 else 0
    return 0


def short(preset: str) -> str:
    """The preset, with a showdown match cut to a few rounds to keep the suite fast."""
    return f"{preset}(rounds=3)" if PRESETS[preset].family == "showdown" else preset


def play(preset: str, levels: list[str], seed: int) -> tuple[GameState, list[Checked]]:
    rules = variant(short(preset))
    bots = [Checked(make_bot(level, rules.family, seed + i), i) for i, level in enumerate(levels)]
    state = new_game(rules, [f"{level}-{i}" for i, level in enumerate(levels)])
    end = play_out(state, bots, SeededDice(seed), max_actions=50_000)
    return end, bots


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_bots_only_play_legal_actions(preset: str, seed: int) -> None:
    end, bots = play(preset, ["random", "random"], seed)
    if engine_for(end.variant).is_finished(end):
        assert all(bot.moves >= fewest_decisions(end) for bot in bots)
    else:
        # random play of «Тысяча» may go on past the action limit
        assert preset.startswith("thousand") and all(bot.moves for bot in bots)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_heuristic_bots_only_play_legal_actions_to_the_end(preset: str) -> None:
    end, bots = play(preset, ["heuristic", "random"], 7)
    assert engine_for(end.variant).is_finished(end)
    assert all(bot.moves >= fewest_decisions(end) for bot in bots)
    assert bots[0].moves > 0


@pytest.mark.parametrize("preset", list(PRESETS))
def test_advice_ranks_every_decision_best_first(preset: str) -> None:
    rules = variant(short(preset))
    engine = engine_for(rules)
    bot = make_bot("heuristic", rules.family)
    assert isinstance(bot, Advisor)
    state = new_game(rules, ["Anna", "Boris"])
    dice = SeededDice(11)
    checked = 0
    for _ in range(60):
        if engine.is_finished(state):
            break
        n = engine.to_throw(state)
        if n:
            state = engine.apply(state, engine.legal_actions(state)[0].__class__(dice.roll(n)))
            continue
        advice = bot.advise(state)
        assert sorted(map(str, (a.action for a in advice))) == sorted(map(str, engine.decisions(state)))
        losses = [a.loss for a in advice]
        assert losses[0] == 0 and all(loss is not None and loss >= 0 for loss in losses)
        assert losses == sorted(losses)  # type: ignore[type-var]
        assert bot.choose(state) == advice[0].action
        state = engine.apply(state, advice[0].action)
        checked += 1
    assert checked > 3


def test_the_sheet_heuristic_beats_the_random_bot() -> None:
    margins = []
    for seed in range(4):
        end, _ = play("poker-classic", ["heuristic", "random"], seed)
        heuristic, random_ = engine_for(end.variant).scores(end)
        margins.append(heuristic - random_)
    # a random sheet averages well below zero here; the heuristic about +130
    assert sum(margins) / len(margins) > 80
    assert min(margins) > 0


def test_the_thousand_heuristic_beats_the_random_bot() -> None:
    wins = 0
    games = 30
    for seed in range(games):
        # both seats in turn, so that starting first is no advantage to either
        levels = ["heuristic", "random"] if seed % 2 == 0 else ["random", "heuristic"]
        end, _ = play("thousand-classic", levels, seed)
        engine = engine_for(end.variant)
        wins += any(levels[i] == "heuristic" for i in engine.winners(end))
    # it wins about three games in four (the barrel and its knock-offs leave much to luck)
    assert wins >= 18
