"""Players that are programs. Every bot sees a state and returns one legal decision.

:func:`make_bot` gives a bot by level (``random``, ``heuristic``, ``optimal``) and family.
"""

from kosti.bots.base import Advice, Advisor, Bot, play_out
from kosti.bots.levels import levels_for, make_bot

__all__ = ["Advice", "Advisor", "Bot", "levels_for", "make_bot", "play_out"]
