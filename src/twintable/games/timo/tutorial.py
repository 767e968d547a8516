"""Timo's Twist's guided first game (``core/tutorial.py``): one short round against one
patient bot, dealt so that the newcomer plays a card, has to draw, calls TIMO! at one
card and sees the round end.

The seed was chosen by playing the walkthrough (tests/games/timo/test_tutorial.py): with
it, every step below happens to a person who does what the hints say.
"""

from __future__ import annotations

from typing import Any

from twintable.core.plugin import BotLevel
from twintable.core.tutorial import Advance, Step, Tutorial
from twintable.games.timo.state import DRAW, PLAY


def _guide() -> Any:
    from twintable.games.timo.bots import HeuristicTimoBot

    return HeuristicTimoBot()


STEPS = (
    Step("top", "#top-card", "tutorial.timo.top"),
    Step("play", ".tm-hand .legal, .tm-hand", "tutorial.timo.play", Advance(move=PLAY)),
    Step("draw", "#draw, .tm-drawpile", "tutorial.timo.draw", Advance(move=DRAW)),
    Step("timo", "#say-timo, .tm-hand", "tutorial.timo.timo",
         Advance(event="timo_called", mine=True)),
    Step("finish", ".tm-hand", "tutorial.timo.finish", Advance(event="round_over")),
    Step("score", "#log", "tutorial.timo.score"),
)


def tutorial() -> Tutorial:
    # Five cards each and a target of one point: the first round won ends the game.
    return Tutorial(seed=SEED, players=2, bot=BotLevel("guide", "beginner", _guide),
                    steps=STEPS, person="heuristic", options={"hand_size": 5, "target": 1})


SEED = 24
