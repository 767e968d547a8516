"""The bot contract (acting, and planning when to act) and the uniform random bot every
game gets for free."""

from __future__ import annotations

import random
from typing import Protocol

from twintable.core.game import View
from twintable.core.types import Action


class Bot(Protocol):
    """Chooses an action from a view. Returning None means "not now" (a race it skips);
    a bot whose seat must act (its turn, its secret pick) always returns an action."""

    name: str

    def act(self, view: View, rng: random.Random) -> Action | None: ...


class TimedBot(Bot, Protocol):
    """A bot for races on the clock that says *when* it acts, from the view's own clock
    (a reaction time after the last change): Twin It's and Twinz's bots. Shells never
    call ``plan`` themselves: they ask the game's entry (``GameEntry.plan``), which uses it,
    or the game's own pacing, or acts a step after now for a bot without one."""

    def plan(self, view: View, rng: random.Random) -> tuple[int, Action] | None: ...


class RandomBot:
    """Uniform over the view's legal actions."""

    name = "random"

    def act(self, view: View, rng: random.Random) -> Action | None:
        return rng.choice(view.legal) if view.legal else None
