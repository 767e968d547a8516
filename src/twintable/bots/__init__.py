"""Game-agnostic bots. A bot sees only its seat's view, never the full state."""

from twintable.bots.base import Bot, RandomBot, TimedBot

__all__ = ["Bot", "RandomBot", "TimedBot"]
