"""Players that are programs. Every bot sees a state and returns one legal decision."""

from kosti.bots.base import Bot, play_out

__all__ = ["Bot", "play_out"]
