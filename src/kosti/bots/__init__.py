"""Players that are programs. Every bot sees a state and returns one legal decision."""

from kosti.bots.base import Advice, Advisor, Bot, play_out

__all__ = ["Advice", "Advisor", "Bot", "play_out"]
