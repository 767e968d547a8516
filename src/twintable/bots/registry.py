"""Which bots a game offers, and how a shell plans a bot's timed move.

A table on the server, the simulator, the environments and the terminal all seat bots by
name from a game's entry (``core/plugin.py``) and ask it for timed moves; what they share
lives here, below them all, so serving never depends on simulation.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from twintable.bots.base import Bot, RandomBot
from twintable.core.plugin import STEP_MS, BotLevel, GameEntry, Plan, default_plan

__all__ = ["STEP_MS", "bot_factories", "bot_levels", "timed_plan"]

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


def timed_plan(bot: Bot, view: Any, rng: random.Random, now: int) -> Plan | None:
    """When and how a bot acts in a real-time game (:func:`core.plugin.default_plan`);
    a shell that has the game's entry asks :meth:`GameEntry.plan` instead."""
    return default_plan(bot, view, rng, now)
