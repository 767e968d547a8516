"""Which bots a game offers, by name and level.

A table on the server, the simulator, the environments and the terminal all seat bots by
name from a game's entry (``core/plugin.py``); what they share lives here, below them
all, so serving never depends on simulation. A timed move has one way to be planned:
the entry's :meth:`~twintable.core.plugin.GameEntry.plan`.
"""

from __future__ import annotations

from collections.abc import Callable

from twintable.bots.base import Bot, RandomBot
from twintable.core.plugin import BotLevel, GameEntry

#: The uniform random bot every game seats; on the shared scale it is a beginner.
RANDOM = BotLevel("random", "beginner", RandomBot)


def bot_levels(entry: GameEntry) -> tuple[BotLevel, ...]:
    """Every bot a game can seat here: the random bot, then the game's own that can run."""
    return (RANDOM, *entry.available_bots())


def bot_factories(entry: GameEntry) -> dict[str, Callable[..., Bot]]:
    """Every bot a game can seat, by name (former names included): the random bot, then
    the game's own."""
    factories: dict[str, Callable[..., Bot]] = {}
    for bot in bot_levels(entry):
        for name in (bot.name, *bot.aliases):
            factories[name] = bot.make
    return factories


def default_bot(entry: GameEntry) -> str:
    """The bot that stands in for a person: the game's default, or the random bot when
    that one cannot run here."""
    return entry.default_bot if entry.default_bot in bot_factories(entry) else "random"
