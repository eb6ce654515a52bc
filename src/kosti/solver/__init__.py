"""Exact optimal play of every score-sheet preset (solitaire): solver, advisor, optimal bot.

``solve(variant)`` runs backward induction over the sheet's states (or reads its
tables from the disk cache); :class:`OptimalBot` plays and ranks decisions of real
engine states with them; :func:`judge` compares a record's decisions with the optimum.
"""

from kosti.solver.advisor import OptimalBot, SheetAdvisor, judge
from kosti.solver.judging import Judged
from kosti.solver.tables import SOLVER_VERSION, Solution, cache_dir, solve

__all__ = [
    "SOLVER_VERSION",
    "Judged",
    "OptimalBot",
    "SheetAdvisor",
    "Solution",
    "cache_dir",
    "judge",
    "solve",
]
