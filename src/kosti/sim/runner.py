"""Play many games with bots, in parallel, reproducibly.

Game ``i`` of a run with master seed ``S`` draws its dice (roll-off included) from
``SeededDice(game_seed(S, i))`` and seat ``k``'s bot is made with
``bot_seed(S, i, k)``: a game depends only on the master seed and its own index,
never on which process played it or what it played before, so a seed gives the
same results with any number of workers. Bots are made afresh for every game
(their heavy tables live in module-level caches, built once per process).

The per-family :class:`EventCounter` counts what a report shows beyond scores
(«Тысяча»: bolts, falls, dumps, dots) by comparing the states on either side of
each turn's end, using only the engine interface.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from kosti.actions import Action
from kosti.bots.base import play_out
from kosti.errors import OptionError
from kosti.games import engine_for
from kosti.games.base import Engine, GameState, options_as
from kosti.games.thousand.game import Player, ThousandState
from kosti.levels import make_bot
from kosti.roller import SeededDice
from kosti.rolloff import starting_order
from kosti.rules.options import ThousandOptions
from kosti.rules.presets import Variant
from kosti.rules.presets import variant as make_variant

MAX_ACTIONS = 200_000
"""A game still running after this many actions is cut short and reported as unfinished."""


def _derive(master: int, *key: int) -> int:
    # 63 bits: fits a signed 64-bit column of a report
    state = np.random.SeedSequence(master, spawn_key=key).generate_state(1, np.uint64)
    return int(state[0]) >> 1


def game_seed(master: int, index: int) -> int:
    """The dice seed of game ``index`` of a run with seed ``master`` (a 63-bit number)."""
    return _derive(master, index, 0)


def bot_seed(master: int, index: int, seat: int) -> int:
    """The seed of seat ``seat``'s bot (0-based) in game ``index``."""
    return _derive(master, index, seat + 1)


@dataclass(frozen=True)
class Setup:
    """What every game of a run is: the rules, one bot name per seat, the action guard."""

    spec: str
    """The variant's canonical string (picklable, unlike a bot)."""

    bots: tuple[str, ...]
    max_actions: int = MAX_ACTIONS

    @property
    def variant(self) -> Variant:
        return make_variant(self.spec)

    def names(self) -> list[str]:
        """The players' names: ``1:heuristic``, ``2:random``, … (seat and bot)."""
        return [f"{i + 1}:{bot}" for i, bot in enumerate(self.bots)]


@dataclass(frozen=True)
class GameResult:
    """One finished (or cut-short) game, by seat (the order of the bots, not of play)."""

    index: int
    seed: int
    """The dice seed: ``SeededDice(seed)`` replays the game with the same bots."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    """The seats sharing first place (empty when the game was cut short)."""

    turns: int
    """Turns played (all players together)."""

    starter: int
    """The seat that played first."""

    finished: bool
    events: tuple[int, ...] = ()
    """Counts of the family's events, in the order of :attr:`EventCounter.names`."""


class EventCounter:
    """Counts a family's notable events across turn ends (none for most families)."""

    names: tuple[str, ...] = ()

    def count(self, engine: Engine[Any], before: GameState, action: Action, after: GameState) -> list[int]:
        """The events of the turn that ``action`` ended (``before`` → ``after``), one count per name."""
        return []


class ThousandEvents(EventCounter):
    """«Тысяча»: bolts («болты»), falls from the barrel, dumps («самосвал»), dots («точки»).

    Bolts and dots are read from the board's counters: a counter moves exactly when
    one is earned (a penalty resets it in the same turn end). Falls and dumps cannot
    always be read off (a fall to 0 with ``falls_limit = 1`` moves no counter; a dump
    looks like any score of 0), so the turn end is replayed under a counterfactual
    rule — no dump, or falls that never reach 0 — and the difference is the event.
    """

    names = ("bolts", "falls", "dumps", "dots")

    def __init__(self, rules: Variant) -> None:
        self.options = options_as(rules, ThousandOptions, "a game of «Тысяча»")
        overrides = rules.overrides()
        self._no_dump = make_variant(rules.preset.id, {**overrides, "dump_at": None})
        self._no_zero_fall = make_variant(rules.preset.id, {**overrides, "falls_limit": 1 << 30})

    @staticmethod
    def _board(engine: Engine[Any], state: GameState) -> tuple[Player, ...]:
        if not isinstance(state, ThousandState):  # pragma: no cover - chosen by family
            raise OptionError("not a «Тысяча» state")
        return state.board

    def count(self, engine: Engine[Any], before: GameState, action: Action, after: GameState) -> list[int]:
        old = self._board(engine, before)
        new = self._board(engine, after)
        bolts = sum(a.bolts != b.bolts for a, b in zip(old, new, strict=True))
        dots = sum(a.dots != b.dots for a, b in zip(old, new, strict=True))
        falls = 0
        if self.options.barrel in ("points", "open") and any(
            b.score < a.score or b.falls != a.falls for a, b in zip(old, new, strict=True)
        ):
            alternative = self._board(engine, self._replay(engine, before, action, self._no_zero_fall))
            falls = sum(c.falls - a.falls for a, c in zip(old, alternative, strict=True))
        dumps = 0
        if self.options.dump_at is not None and any(
            b.score == 0 != a.score for a, b in zip(old, new, strict=True)
        ):
            alternative = self._board(engine, self._replay(engine, before, action, self._no_dump))
            dumps = sum(
                b.score == 0 and c.score == self.options.dump_at
                for b, c in zip(new, alternative, strict=True)
            )
        return [bolts, falls, dumps, dots]

    @staticmethod
    def _replay(engine: Engine[Any], before: GameState, action: Action, rules: Variant) -> GameState:
        after: GameState = engine.apply(replace(before, variant=rules), action)
        return after


def event_counter(rules: Variant) -> EventCounter:
    """The event counter of the variant's family."""
    if rules.family == "thousand":
        return ThousandEvents(rules)
    return EventCounter()


def play_game(setup: Setup, master: int, index: int) -> GameResult:
    """Game ``index`` of the run with master seed ``master``, played to its end (or the guard)."""
    rules = setup.variant
    engine = engine_for(rules)
    seed = game_seed(master, index)
    dice = SeededDice(seed)
    names = setup.names()
    order, _ = starting_order(names, rules.options.first_player, dice)
    seat_of = [names.index(name) for name in order]
    bots = [make_bot(name, rules, bot_seed(master, index, seat)) for seat, name in enumerate(setup.bots)]
    counter = event_counter(rules)
    events = [0] * len(counter.names)

    def count(before: GameState, action: Action, after: GameState) -> None:
        if after.turn != before.turn:
            for k, c in enumerate(counter.count(engine, before, action, after)):
                events[k] += c

    start: GameState = engine.new_game(rules, order)
    by_position = [bots[seat] for seat in seat_of]
    state = play_out(start, by_position, dice, setup.max_actions, count if counter.names else None)
    scores = engine.scores(state)
    by_seat = [0] * len(names)
    for position, score in enumerate(scores):
        by_seat[seat_of[position]] = score
    finished = engine.is_finished(state)
    winners = sorted(seat_of[p] for p in engine.winners(state)) if finished else []
    return GameResult(
        index, seed, tuple(by_seat), tuple(winners), state.turn, seat_of[0], finished, tuple(events)
    )


def play_games(setup: Setup, master: int, indices: Sequence[int]) -> list[GameResult]:
    """Several games of a run (one worker's chunk)."""
    return [play_game(setup, master, i) for i in indices]


def check_setup(setup: Setup) -> None:
    """Make every bot once (in this process, before any worker starts): a bad name fails here,
    and heavy tables are built once and inherited by forked workers."""
    rules = setup.variant
    if not setup.bots:
        raise OptionError("a game needs at least one bot")
    engine = engine_for(rules)
    state: GameState = engine.new_game(rules, setup.names())
    dice = SeededDice(0)
    for name in setup.bots:
        bot = make_bot(name, rules, 0)
        # a first decision warms the bot's caches for this variant
        state = play_out(state, [None] * len(setup.bots), dice)
        if not engine.is_finished(state):
            bot.choose(state)


def _context() -> multiprocessing.context.BaseContext:
    if "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()  # pragma: no cover - not on Linux


def simulate(
    setup: Setup,
    games: int,
    master: int,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[GameResult]:
    """Play ``games`` games of ``setup`` (in index order in the result) on ``workers`` processes.

    ``progress`` is called with the number of games just finished. Results depend only
    on ``setup``, ``games`` and ``master``.
    """
    if games < 1:
        raise OptionError("simulate at least one game")
    check_setup(setup)
    workers = max(1, min(workers, games))
    if workers == 1:
        results = []
        step = max(1, min(100, games // 100))
        for start in range(0, games, step):
            chunk = play_games(setup, master, range(start, min(games, start + step)))
            results.extend(chunk)
            if progress:
                progress(len(chunk))
        return results
    # chunks small enough for a smooth progress bar and even load, big enough to keep the pipes quiet
    size = max(1, min(200, games // (workers * 16)))
    chunks = [range(start, min(games, start + size)) for start in range(0, games, size)]
    results = []
    with ProcessPoolExecutor(workers, mp_context=_context()) as pool:
        pending: set[Future[list[GameResult]]] = {
            pool.submit(play_games, setup, master, chunk) for chunk in chunks
        }
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                chunk_results = future.result()
                results.extend(chunk_results)
                if progress:
                    progress(len(chunk_results))
    results.sort(key=lambda r: r.index)
    return results
