"""Which bots a game offers, and when a bot acts in a real-time game.

Both a table on the server and the simulator seat bots by name and ask timed bots for
their plans; what they share lives here, below both, so serving never depends on
simulation.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from twintable.bots.base import Bot, RandomBot
from twintable.core.game import Game
from twintable.core.types import Action

#: How long after "now" a bot without a plan of its own acts in a real-time game; also
#: the simulator's virtual time between two actions when the game sets no deadline.
STEP_MS = 1000


def bot_factories(game: Game[Any]) -> dict[str, Callable[[], Bot]]:
    """Every bot a game can seat, by name: the random bot, then the game's own."""
    return {"random": RandomBot, **game.bots()}


def timed_plan(bot: Bot, view: Any, rng: random.Random,
               now: int) -> tuple[int, Action] | None:
    """When and how a bot acts in a real-time game: its own plan if it makes one,
    otherwise its choice now, a step later (the random bot)."""
    plan = getattr(bot, "plan", None)
    if plan is not None:
        return plan(view, rng)  # type: ignore[no-any-return]
    action = bot.act(view, rng)
    return (now + STEP_MS, action) if action is not None else None
