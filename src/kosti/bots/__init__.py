"""Players that are programs. Every bot sees a state and returns one legal decision.

This package holds the policies that need only the games: the random bot and each family's
heuristic. Which bot plays at which level (the optimal ones coming from :mod:`kosti.solver`)
is decided above it, by :func:`kosti.levels.make_bot`.
"""

from kosti.bots.base import Advice, Advisor, Bot, play_out

__all__ = ["Advice", "Advisor", "Bot", "play_out"]
