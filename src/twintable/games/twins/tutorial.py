"""Twins' guided first game (``core/tutorial.py``): one hand of four rounds at three
seats, the newcomer buying, reading the cash card and picking two cards a round until the
bank is paid out.

The seed was chosen by playing the walkthrough (tests/games/twins/test_tutorial.py).
"""

from __future__ import annotations

from typing import Any

from twintable.core.plugin import BotLevel
from twintable.core.tutorial import Advance, Step, Tutorial
from twintable.games.twins.state import BUY_KIND, PICK_KIND


def _guide() -> Any:
    from twintable.bots.base import RandomBot

    return RandomBot()


STEPS = (
    Step("hand", ".tw2-hand", "tutorial.twins.hand"),
    Step("buy", ".tw2-actions", "tutorial.twins.buy", Advance(move=BUY_KIND)),
    Step("cash", "#cash-card", "tutorial.twins.cash"),
    Step("pick", ".tw2-hand", "tutorial.twins.pick", Advance(move=PICK_KIND)),
    Step("reveal", "#reveals", "tutorial.twins.reveal", Advance(event="revealed")),
    Step("ranks", "#reveals", "tutorial.twins.ranks"),
    Step("bank", ".tw2-hand", "tutorial.twins.bank", Advance(event="game_over")),
)


def tutorial() -> Tutorial:
    # One hand: four rounds, the last one paying out the bank, then the game ends.
    return Tutorial(seed=SEED, players=3, bot=BotLevel("guide", "beginner", _guide),
                    steps=STEPS, person="heuristic", options={"max_hands": 1})


SEED = 1
