"""Bot noise: any bot played with a skill setting, ``level@noise`` (``hard@0.2``).

With probability ``noise`` a noisy bot plays a move drawn uniformly from its legal moves
instead of its own; the draw comes from the random generator the table or simulation
hands it, so a seeded game replays exactly. A designer uses it to place a bot between
two levels, or to see how much a rule rewards careful play.
"""

from __future__ import annotations

import random
from typing import Any

from twintable.core.game import View
from twintable.core.types import Action

#: What separates a bot's name (or level) from its noise: ``hard@0.2``.
NOISE_MARK = "@"


def split_noise(name: str) -> tuple[str, float | None]:
    """``"hard@0.2"`` into ``("hard", 0.2)``; a name without ``@`` has no noise (None).
    A ValueError says what is wrong with a noise that is not a number from 0 to 1."""
    base, mark, raw = name.rpartition(NOISE_MARK)
    if not mark:
        return name, None
    try:
        noise = float(raw)
    except ValueError:
        noise = float("nan")
    if not base or not 0 <= noise <= 1:  # NaN fails both comparisons
        raise ValueError(f"bot {name!r}: the noise after {NOISE_MARK} is a number from 0 "
                         f"to 1 (hard{NOISE_MARK}0.2: a random legal move one time in five)")
    return base, noise


def noisy_name(base: str, noise: float | None) -> str:
    """The name reports give a bot with noise (``heuristic@0.2``); ``base`` without (or
    with a noise of 0, which is the bot itself)."""
    return base if not noise else f"{base}{NOISE_MARK}{noise:g}"


class NoisyBot:
    """``inner``, except that with probability ``noise`` it plays a uniformly random
    legal move. Attributes it does not have are the inner bot's (a game's pacing reads
    them)."""

    def __init__(self, inner: Any, noise: float, name: str):
        self.inner = inner
        self.noise = noise
        self.name = name

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.inner, attribute)

    def _random_move(self, view: View, rng: random.Random) -> Action | None:
        # One draw per decision whatever it says, so the stream stays aligned.
        if rng.random() < self.noise and view.legal:
            return rng.choice(view.legal)
        return None

    def act(self, view: View, rng: random.Random) -> Action | None:
        chosen = self._random_move(view, rng)
        return chosen if chosen is not None else self.inner.act(view, rng)


class NoisyTimedBot(NoisyBot):
    """A :class:`NoisyBot` for a bot that plans its moves in time (a race): the inner
    bot's timing, a random legal move instead of its own with probability ``noise``."""

    def plan(self, view: View, rng: random.Random) -> tuple[int, Action] | None:
        chosen = self._random_move(view, rng)
        planned: tuple[int, Action] | None = self.inner.plan(view, rng)
        if planned is None or chosen is None:
            return planned
        return planned[0], chosen


def with_noise(bot: Any, noise: float | None, name: str) -> Any:
    """``bot`` itself without noise (or with 0), else the noisy bot around it."""
    if not noise:
        return bot
    kind = NoisyTimedBot if callable(getattr(bot, "plan", None)) else NoisyBot
    return kind(bot, noise, name)
