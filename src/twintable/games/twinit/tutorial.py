"""Twin It's guided first game (``core/tutorial.py``): two players, two sets to win, and
a bot slower than any level (a newcomer follows it: it flips after a few seconds and
needs several seconds to see a pair), so the person flips, takes a pair and wins.

The seed was chosen by playing the walkthrough (tests/games/twinit/test_tutorial.py).
"""

from __future__ import annotations

from typing import Any

from twintable.core.plugin import BotLevel
from twintable.core.tutorial import Advance, Step, Tutorial
from twintable.games.twinit.state import FLIP

#: The guide's perception: a median of 6 s to see a pair (the slowest level takes 2.4 s),
#: rarely fooled by a look-alike, 3 s before flipping its pile, a second between hands.
GUIDE = {"reaction_ms": 6000, "spread": 0.3, "confusion": 0.02, "flip_ms": 3000,
         "hand_gap_ms": 1000}


def _guide() -> Any:
    from twintable.games.twinit.bots import Level, PerceptionBot

    bot = PerceptionBot("relaxed")
    bot.name = "guide"
    bot.level = Level(**GUIDE)
    return bot


# The middle is empty before the first flip: the hint about what counts waits for it.
STEPS = (
    Step("flip", "#flip", "tutorial.twinit.flip", Advance(move=FLIP)),
    Step("take", ".ti-centre", "tutorial.twinit.take", Advance(event="taken", mine=True)),
    Step("sets", "#scores, .ti-sets", "tutorial.twinit.sets"),
    Step("win", ".ti-centre", "tutorial.twinit.win", Advance(event="game_over")),
)


def tutorial() -> Tutorial:
    return Tutorial(seed=SEED, players=2, bot=BotLevel("guide", "beginner", _guide),
                    steps=STEPS, person="casual", options={"sets_to_win": 2})


SEED = 0
