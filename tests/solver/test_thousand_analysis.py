"""The stop boundary read off the exact «Тысяча» values, against the optimal bot's own choice."""

from __future__ import annotations

from pathlib import Path

import pytest

from kosti.actions import Stop, Throw
from kosti.errors import OptionError
from kosti.games.thousand.game import Player
from kosti.rules.presets import variant
from kosti.solver.thousand.advisor import ThousandAdvisor
from kosti.solver.thousand.analysis import plot_stop_boundary, stop_boundary
from kosti.solver.thousand.model import position
from kosti.solver.thousand.solve import Solution, solve

SPEC = (
    "thousand-classic(target=60,barrel=none,pits=[],dump_at=null,opening=10,"
    "bolt_penalty=10,overtake_penalty=5)"
)


@pytest.fixture(scope="module")
def solved() -> Solution:
    return solve(variant(SPEC), floor=-10, use_cache=False)


@pytest.mark.parametrize(("mine", "theirs"), [(0, 0), (10, 30), (20, 20)])
def test_the_boundary_is_where_the_optimal_bot_stops(solved: Solution, mine: int, theirs: int) -> None:
    rules = variant(SPEC)
    me, other = Player(score=mine, opened=True), Player(score=theirs, opened=True)
    boundary = stop_boundary(solved, me, other)
    advisor = ThousandAdvisor(floor=-10)
    stops_somewhere = False
    for dice, total in boundary.items():
        if total is None:
            continue
        stops_somewhere = True
        at = advisor.advise(position(rules, me, other, total, dice_left=dice))
        assert isinstance(at[0].action, Stop)
        # one step below, where a stop is still allowed, the bot throws on
        below = position(rules, me, other, total - 5, dice_left=dice)
        ranked = advisor.advise(below)
        if total - 5 > 0 and any(isinstance(a.action, Stop) for a in ranked):
            assert isinstance(ranked[0].action, Throw)
    assert stops_somewhere


def test_a_line_the_variant_cannot_hold_is_refused(solved: Solution) -> None:
    with pytest.raises(OptionError):
        stop_boundary(solved, Player(score=10_000, opened=True), Player(score=0, opened=True))


def test_the_plot_is_a_png(solved: Solution, tmp_path: Path) -> None:
    out = tmp_path / "boundary.png"
    plot_stop_boundary(solved, out, opponent_scores=(0, 30))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
