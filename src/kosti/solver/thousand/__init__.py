"""Exact two-player «Тысяча» (RULES.md §3): value iteration, the optimal bot and its advice.

``solve(variant)`` gives each position's chance of winning when both players play to
maximise their own (:class:`~kosti.solver.thousand.solve.Solution`);
:class:`ThousandAdvisor` values every decision of a real engine state with it.
"""

from kosti.solver.thousand.solve import SOLVER_VERSION, Solution, solve

__all__ = ["SOLVER_VERSION", "Solution", "solve"]
