"""Twinz's guided first game (``core/tutorial.py``): four players, the newcomer guessing
a duo's word, then giving a clue in a duo, with a long time to guess and to think.

The seed was chosen by playing the walkthrough (tests/games/twinz/test_tutorial.py).
"""

from __future__ import annotations

from typing import Any

from twintable.core.plugin import BotLevel
from twintable.core.tutorial import Advance, Step, Tutorial
from twintable.games.twinz.rules import CLUE, GUESS


def _guide() -> Any:
    from twintable.games.twinz.bots import WordBot

    return WordBot(level="casual")


def _words() -> bool:
    from twintable.games.twinz.words import model_vocab

    return model_vocab() is not None


STEPS = (
    Step("duo", "#twinz-phase", "tutorial.twinz.duo"),
    Step("guess", "#guess-word, #twinz-phase", "tutorial.twinz.guess", Advance(move=GUESS)),
    Step("result", "#twinz-phase", "tutorial.twinz.result", Advance(event="round_over")),
    Step("clue", "#clue-word, #twinz-phase", "tutorial.twinz.clue", Advance(move=CLUE)),
    Step("points", "#log", "tutorial.twinz.points"),
)


def tutorial() -> Tutorial:
    # A longer countdown for the newcomer's first clue; the rest as printed.
    return Tutorial(seed=SEED, players=4,
                    bot=BotLevel("guide", "easy", _guide, available=_words),
                    steps=STEPS, person="casual", options={"countdown_s": 10})


SEED = 0
