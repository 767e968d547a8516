"""The bot contract and the uniform random bot every game gets for free."""

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


class RandomBot:
    """Uniform over the view's legal actions."""

    name = "random"

    def act(self, view: View, rng: random.Random) -> Action | None:
        return rng.choice(view.legal) if view.legal else None
